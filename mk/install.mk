# mk/install.mk: install, installcheck and the Debian package (included by the Makefile).

# The installed runner finds its files beside its binary, not at paths
# compiled in (main.c, core/util.c's mr_shipped_file): <bin>/../libexec/
# memrepro/cases (the cases, their originals, whose helpers they load as
# ../lib/memrepro.<ext>) and <bin>/../share/memrepro (plots, chartcheck.py,
# expected/, allocators, releases, guest-init, each directory of etc/ as
# share/memrepro/<dir>, cases/*.c to read).  So BINDIR, LIBEXECDIR and
# SHAREDIR keep that layout under PREFIX, and an install moved whole (a
# .deb unpacked anywhere) still runs.
INST_ORIGINALS = $(ORIGINALS)
# the helpers as built ($(B)/lib: memrepro.js ... and Memrepro.class where
# a javac is)
INST_HELPERS = $(filter $(B)/lib/%,$(ORIG_FILES))
INST_ETC_DIRS = $(patsubst %/,%,$(wildcard etc/*/))
# What install installs, built (debian/rules builds this, not all).
INST_BUILT = $(B)/memrepro $(CASE_BIN) $(INST_HELPERS)

.PHONY: programs installcheck deb deb-check deps-deb
programs: $(INST_BUILT)

install: $(INST_BUILT)
	@test '$(BINDIR)' = '$(PREFIX)/bin' && \
	test '$(SHAREDIR)' = '$(PREFIX)/share/memrepro' && \
	test '$(LIBEXECDIR)' = '$(PREFIX)/libexec/memrepro' || \
	{ echo "install: BINDIR, SHAREDIR and LIBEXECDIR must be PREFIX's bin, share/memrepro and libexec/memrepro: the runner finds its files from its own directory" >&2; exit 2; }
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR)/cases $(DESTDIR)$(LIBEXECDIR)/lib $(DESTDIR)$(SHAREDIR)
	mkdir -p $(DESTDIR)$(SHAREDIR)/plots $(DESTDIR)$(SHAREDIR)/cases $(DESTDIR)$(MANDIR)/man1
	cp $(B)/memrepro $(DESTDIR)$(BINDIR)/memrepro
	cp $(CASE_BIN) $(DESTDIR)$(LIBEXECDIR)/cases/
	$(if $(INST_ORIGINALS),cp $(INST_ORIGINALS) $(DESTDIR)$(LIBEXECDIR)/cases/)
	$(if $(INST_HELPERS),cp $(INST_HELPERS) $(DESTDIR)$(LIBEXECDIR)/lib/)
	cp -R expected $(DESTDIR)$(SHAREDIR)/
	cp plots/*.gp $(DESTDIR)$(SHAREDIR)/plots/
	cp tools/chartcheck.py $(DESTDIR)$(SHAREDIR)/plots/
	cp etc/allocators $(DESTDIR)$(SHAREDIR)/allocators
	cp cases/*.c $(DESTDIR)$(SHAREDIR)/cases/
	cp etc/releases $(DESTDIR)$(SHAREDIR)/releases
	$(foreach d,$(INST_ETC_DIRS),cp -R $(d) $(DESTDIR)$(SHAREDIR)/;)
	cp tools/guest/init $(DESTDIR)$(SHAREDIR)/guest-init
	cp docs/memrepro.1 $(DESTDIR)$(MANDIR)/man1/memrepro.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/memrepro $(DESTDIR)$(MANDIR)/man1/memrepro.1
	rm -rf $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(SHAREDIR)

# install into a temporary DESTDIR, then the installed runner from /:
# list, describe, a run and check of a case with claims, its original
# where node is here, report; uninstall leaves no file (tools/installcheck.sh).
installcheck: programs
	MAKE="$(MAKE)" sh tools/installcheck.sh $(PREFIX)

# The Debian package (debian/), built by dpkg-buildpackage -b in a copy of
# the tree under $(B)/deb/ (it writes beside the tree it builds); deb-check
# unpacks it and runs the unpacked runner (tools/deb-check.sh).
DEPS_DEB := \
	debhelper \
	dpkg-dev \
	fakeroot

deps-deb:
	@sh tools/deps.sh $(DEPS_DEB)

deb: deps-deb
	MR_COMMIT='$(MR_COMMIT)' sh tools/deb.sh $(B)/deb

deb-check: deb
	sh tools/deb-check.sh $(B)/deb
