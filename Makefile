# memrepro — build, test and run the corpus.
#
#   make            build the runner (build/memrepro) and every case
#   make check      the corpus on the quick matrix vs expected/ (what a user
#                   runs: under 90 s on 2 CPUs)
#   make test       the runner's own tests (bats; about 5 minutes on 2 CPUs);
#                   no network, nothing written to ~/.cache: the few tests
#                   that fetch run with MEMREPRO_TEST_NETWORK=1 (.ci/run)
#   make report     run the default matrix, then report.md, report.html and
#                   every chart in the new results directory
#   make install    PREFIX=/usr/local DESTDIR=
#   make memcheck   valgrind over the runner: no error, no leak
#   make sanitize   the runner built with ASan+UBSan (build-san/), the bats
#                   tests run against it
#   make fuzz       every parser under libFuzzer, FUZZ_SECONDS in all (60)
#   make lint       cppcheck, clang-tidy, shellcheck, no include circle,
#                   no include up the folder order (tools/layers),
#                   no function over 120 lines and no file over 600
#   make check-portable  the quick corpus under THP always, madvise and never
#                   (as root) and with one CPU kept busy (tests/portable.bats)
#   make check-aarch64  lib/'s fiber switch cross-built for aarch64 and run
#                   under qemu-user (tests/aarch64.bats); skipped, with the
#                   reason, where that cannot be installed or run
#
# Honours CC, CFLAGS, LDFLAGS, PREFIX, DESTDIR, JOBS (default: the CPUs).
# Objects go to build/.

MAKEFLAGS += --no-builtin-rules
# As many jobs as CPUs: for the build, and for `memrepro check -j` (runs
# whose times nobody compares go side by side; the timed ones alone).
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(JOBS)
endif
.SUFFIXES:
.DELETE_ON_ERROR:
# Keep objects that only feed a link (cases, fixtures): no rebuild next time.
.SECONDARY:

CC ?= cc
CFLAGS ?= -O2 -g
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SHAREDIR ?= $(PREFIX)/share/memrepro
LIBEXECDIR ?= $(PREFIX)/libexec/memrepro
MANDIR ?= $(PREFIX)/share/man

B := build
MR_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Ilib -Irunner -MMD -MP
BATS ?= bats
MEMREPRO_FLAGS ?=

# Debian packages the targets need; tools/deps.sh installs what is missing.
DEPS_BUILD := \
	gcc \
	make \
	libc6-dev \
	zlib1g-dev

DEPS_TEST := \
	bats \
	gnuplot-nox \
	valgrind \
	libjemalloc2 \
	libtcmalloc-minimal4 \
	libmimalloc2.0 \
	jq \
	libxml2-utils \
	python3-yaml

LIB_SRC := \
	lib/mr_proc.c \
	lib/mr_case.c \
	lib/mr_ckpt.c \
	lib/mr_fiber.c \
	lib/mr_goheap.c \
	lib/mr_thread.c

RUNNER_SRC := \
	runner/main.c \
	runner/args.c \
	runner/cmdcases.c \
	runner/cmdrun.c \
	runner/cmdcommand.c \
	runner/cmdread.c \
	runner/cmdnew.c \
	runner/help.c \
	runner/cmdversions.c \
	runner/core/util.c \
	runner/core/drain.c \
	runner/core/safeio.c \
	runner/core/tsv.c \
	runner/core/numfmt.c \
	runner/core/suggest.c \
	runner/core/hash.c \
	runner/core/version.c \
	runner/proto/cases.c \
	runner/proto/record.c \
	runner/proto/schema.c \
	runner/proc/caseload.c \
	runner/proc/self.c \
	runner/proc/env.c \
	runner/proc/child.c \
	runner/proc/tree.c \
	runner/proc/capture.c \
	runner/proc/log.c \
	runner/proc/loop.c \
	runner/proc/measure.c \
	runner/proc/marks.c \
	runner/proc/spawn.c \
	runner/proc/describe.c \
	runner/proc/cgroup.c \
	runner/proc/cgfs.c \
	runner/proc/cgsweep.c \
	runner/proc/machine.c \
	runner/release/sha256.c \
	runner/release/releases.c \
	runner/release/helper.c \
	runner/release/lock.c \
	runner/release/files.c \
	runner/release/dirsrc.c \
	runner/release/apt.c \
	runner/release/source.c \
	runner/release/cache.c \
	runner/release/release.c \
	runner/release/npm.c \
	runner/release/npmsrc.c \
	runner/release/kernel.c \
	runner/release/kextract.c \
	runner/release/kmod.c \
	runner/release/runout.c \
	runner/matrix/axes.c \
	runner/matrix/tunables.c \
	runner/matrix/matrix.c \
	runner/matrix/original.c \
	runner/matrix/origtab.c \
	runner/matrix/cmdcase.c \
	runner/matrix/runtime.c \
	runner/matrix/rtrel.c \
	runner/matrix/rtruby.c \
	runner/matrix/rtpython.c \
	runner/matrix/rtjava.c \
	runner/matrix/rtmemo.c \
	runner/matrix/libc.c \
	runner/matrix/versions.c \
	runner/matrix/allocrel.c \
	runner/matrix/alloc.c \
	runner/matrix/allocconf.c \
	runner/matrix/registry.c \
	runner/matrix/regparse.c \
	runner/matrix/envfp.c \
	runner/matrix/shard.c \
	runner/matrix/select.c \
	runner/results/write.c \
	runner/results/lock.c \
	runner/results/reopen.c \
	runner/results/row.c \
	runner/results/read.c \
	runner/results/lookup.c \
	runner/results/merge.c \
	runner/results/mergechk.c \
	runner/results/config.c \
	runner/results/guestenv.c \
	runner/check/values.c \
	runner/check/claims.c \
	runner/check/casetab.c \
	runner/check/figures.c \
	runner/check/figline.c \
	runner/check/lex.c \
	runner/check/parse.c \
	runner/check/pdirective.c \
	runner/check/pversion.c \
	runner/check/eval.c \
	runner/check/evalwhen.c \
	runner/check/evalver.c \
	runner/check/evalidx.c \
	runner/check/expr.c \
	runner/check/baseline.c \
	runner/check/check.c \
	runner/check/evalbl.c \
	runner/check/finding.c \
	runner/check/blessplan.c \
	runner/check/stats.c \
	runner/check/tally.c \
	runner/check/words.c \
	runner/check/wordnum.c \
	runner/check/wordname.c \
	runner/check/verdict.c \
	runner/check/upgrade.c \
	runner/session/term.c \
	runner/session/schedule.c \
	runner/session/plan.c \
	runner/session/resume.c \
	runner/session/session.c \
	runner/session/sidebyside.c \
	runner/session/configs.c \
	runner/guest/initrd.c \
	runner/guest/guestboot.c \
	runner/guest/guestaccel.c \
	runner/guest/guestmem.c \
	runner/guest/guestmerge.c \
	runner/guest/guestrun.c \
	runner/guest/guest.c \
	runner/out/format.c \
	runner/out/escape.c \
	runner/out/human.c \
	runner/out/tap.c \
	runner/out/junit.c \
	runner/out/json.c \
	runner/out/bless.c \
	runner/out/plot.c \
	runner/out/charts.c \
	runner/out/chseries.c \
	runner/out/chserlab.c \
	runner/out/chlay.c \
	runner/out/chdiff.c \
	runner/out/challoc.c \
	runner/out/chfig.c \
	runner/out/chfigpts.c \
	runner/out/chfiglab.c \
	runner/out/doc.c \
	runner/out/repcase.c \
	runner/out/repfigs.c \
	runner/out/repstatus.c \
	runner/out/report.c \
	runner/out/cmdsum.c \
	runner/out/corpus.c \
	runner/out/figtab.c \
	runner/out/outfile.c \
	runner/out/runenv.c \
	runner/out/compare.c \
	runner/out/cmpchart.c \
	runner/out/trend.c \
	runner/out/trchart.c \
	runner/out/export.c \
	runner/out/platforms.c

CASES := $(patsubst cases/%.c,%,$(wildcard cases/*.c))
FIXTURES := $(patsubst tests/fixtures/%.c,%,$(wildcard tests/fixtures/*.c))
# Test programs of lib/ (tests/unit/<name>.c -> build/unit/<name>), run by
# the bats tests.
UNIT := \
	pidlist \
	lines \
	children \
	fiber \
	treeend

LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
RUNNER_OBJ := $(RUNNER_SRC:%.c=$(B)/%.o)
CASE_BIN := $(CASES:%=$(B)/cases/%)
# The reports' own programs beside the models (docs/originals.md), and
# their checkpoint helpers: copied so that build/cases/<case>.js finds
# ../lib/memrepro.js as cases/<case>.js does.
ORIGINALS := $(wildcard cases/*.js cases/*.rb cases/*.py cases/*.java)
ORIG_FILES := $(ORIGINALS:cases/%=$(B)/cases/%) $(patsubst lib/%,$(B)/lib/%,$(wildcard lib/memrepro.js lib/memrepro.rb lib/memrepro.py))
# The Java helper, compiled once for Java 11 and later (the originals run
# as `java --class-path build/lib Case.java`); only where a javac is: the
# runner skips a Java original without it, saying so.
JAVAC ?= $(shell command -v javac 2>/dev/null)
ifneq ($(JAVAC),)
ORIG_FILES += $(B)/lib/Memrepro.class
endif
FIXTURE_BIN := $(FIXTURES:%=$(B)/fixtures/%)
UNIT_BIN := $(UNIT:%=$(B)/unit/%)
# The fixture allocator (tests/fixtures/alloc/fakealloc.c), one build per
# version it reports: packed into .debs by tests/release_helper.bash.
FAKEALLOC_VERSIONS := 1.0 2.0
FAKEALLOC_SO := $(FAKEALLOC_VERSIONS:%=$(B)/fakealloc/%/libfakealloc.so.1)

.PHONY: all check check-portable check-aarch64 ci test report corpus-table deps deps-build deps-alloc deps-kernel install uninstall clean

all: $(B)/memrepro $(CASE_BIN) $(ORIG_FILES) $(FIXTURE_BIN) $(UNIT_BIN) $(FAKEALLOC_SO)

# Order-only: the install step runs before any compile, never forces one.
$(B)/%.o: %.c | deps-build
	@mkdir -p $(@D)
	$(CC) $(MR_CFLAGS) $(CFLAGS) -c -o $@ $<

# The version of memrepro: env.tsv's "memrepro_version" and --version's.
VERSION := 0.1

# The commit the runner is built from, env.tsv's "commit" (merge refuses
# shards of different ones) and --version's: "-dirty" when the tree has
# changes, "unknown" outside a git checkout (a tarball).  The header holds
# the version too; it is rewritten only when it changes, so only envfp.o
# and main.o are rebuilt, and only then.  No optional locks:
# git must not take the index from a git command running beside the build.
MR_COMMIT = $(shell test -e .git && GIT_OPTIONAL_LOCKS=0 git describe --always \
	--dirty --abbrev=12 --exclude='*' 2>/dev/null || echo unknown)

$(B)/commit.h: FORCE
	@mkdir -p $(@D)
	@printf '#define MR_COMMIT "%s"\n#define MEMREPRO_VERSION "%s"\n' \
		'$(MR_COMMIT)' '$(VERSION)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

$(B)/runner/matrix/envfp.o: $(B)/commit.h
$(B)/runner/matrix/envfp.o: MR_CFLAGS += -include $(B)/commit.h
$(B)/runner/main.o: $(B)/commit.h
$(B)/runner/main.o: MR_CFLAGS += -include $(B)/commit.h

.PHONY: FORCE
FORCE:

$(B)/libmr.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $(LIB_OBJ)

$(B)/memrepro: $(RUNNER_OBJ) $(B)/libmr.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(RUNNER_OBJ) $(B)/libmr.a -ldl -lm

$(B)/cases/%.js: cases/%.js
	@mkdir -p $(@D)
	cp $< $@
$(B)/cases/%.rb: cases/%.rb
	@mkdir -p $(@D)
	cp $< $@
$(B)/cases/%.py: cases/%.py
	@mkdir -p $(@D)
	cp $< $@
$(B)/cases/%.java: cases/%.java
	@mkdir -p $(@D)
	cp $< $@
$(B)/lib/Memrepro.class: lib/Memrepro.java
	@mkdir -p $(@D)
	$(JAVAC) --release 11 -Xlint:all -Werror -d $(@D) $<
$(B)/lib/memrepro.%: lib/memrepro.%
	@mkdir -p $(@D)
	cp $< $@

# What a case links with (zlib: deflate-burst).
CASE_LIBS := -lpthread -lz

$(B)/cases/%: $(B)/cases/%.o $(B)/libmr.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libmr.a $(CASE_LIBS)

$(B)/fixtures/%: $(B)/tests/fixtures/%.o $(B)/libmr.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libmr.a -lpthread

$(B)/fakealloc/%/libfakealloc.so.1: tests/fixtures/alloc/fakealloc.c | deps-build
	@mkdir -p $(@D)
	$(CC) -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror $(CFLAGS) $(LDFLAGS) -shared -fPIC \
		-DFAKEALLOC_VERSION='"$*"' -Wl,-soname,libfakealloc.so.1 -o $@ $<

$(B)/unit/%: $(B)/tests/unit/%.o $(B)/libmr.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libmr.a -lpthread

# --- proving the runner clean ------------------------------------------

.PHONY: memcheck sanitize fuzz lint deps-lint clean-proofs

# One fuzz target per parser (fuzz/<name>.c).  Linked with fuzz/replay.c
# they are plain programs that run given inputs once (tests/fuzz.bats runs
# the seed corpus and every regression input through them); linked by clang
# with -fsanitize=fuzzer they fuzz (make fuzz).
FUZZ := \
	claims \
	baseline \
	results \
	describe \
	record \
	proc \
	children \
	registry \
	figures
FUZZ_REPLAY := $(FUZZ:%=$(B)/fuzz/%)
FUZZ_CC := clang
FUZZ_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
FUZZ_SECONDS ?= 60
# The runner's objects but main: what the fuzz targets call.
RUNNER_LIB_OBJ = $(filter-out $(B)/runner/main.o,$(RUNNER_OBJ))

# treeend tests the runner's own mr_tree_end: linked with the runner.
$(B)/unit/treeend: $(B)/tests/unit/treeend.o $(RUNNER_LIB_OBJ) $(B)/libmr.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ldl -lm -lpthread

all: $(FUZZ_REPLAY)

$(B)/fuzz/%.o: MR_CFLAGS += -Irunner -Ifuzz

$(FUZZ_REPLAY): $(B)/fuzz/%: $(B)/fuzz/%.o $(B)/fuzz/fuzz_util.o $(B)/fuzz/replay.o $(RUNNER_LIB_OBJ) $(B)/libmr.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ -ldl -lm

$(FUZZ:%=$(B)/fuzz/%-fuzzer): $(B)/fuzz/%-fuzzer: $(B)/fuzz/%.o $(B)/fuzz/fuzz_util.o $(RUNNER_LIB_OBJ) $(B)/libmr.a
	$(CC) $(CFLAGS) -fsanitize=fuzzer $(LDFLAGS) -o $@ $^ -ldl -lm

# Sanitizers: the runner only (cases keep the plain build: ASan's shadow
# memory and fiber switches would change what they measure).  Static
# runtimes, so that the runner re-executed under LD_PRELOAD=<allocator>
# (the allocator probe) keeps ASan's malloc first.
SAN := build-san
SAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=all
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:exitcode=99 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=98 \
	MEMREPRO_BUILD=$(SAN) MEMREPRO_SLOW=3

sanitize: deps all
	$(MAKE) B=$(SAN) CFLAGS="$(SAN_FLAGS)" \
		LDFLAGS="$(SAN_FLAGS) -static-libasan -static-libubsan" \
		$(SAN)/memrepro $(FUZZ:%=$(SAN)/fuzz/%) $(UNIT:%=$(SAN)/unit/%)
	ln -sfn ../$(B)/cases $(SAN)/cases
	$(SAN_ENV) $(BATS) tests

memcheck: deps all
	sh tools/memcheck.sh $(B)

fuzz: all
	@sh tools/deps.sh clang libclang-rt-14-dev
	$(MAKE) B=build-fuzz CC=$(FUZZ_CC) CFLAGS="$(FUZZ_FLAGS) -fsanitize=fuzzer-no-link" \
		$(FUZZ:%=build-fuzz/fuzz/%-fuzzer)
	sh tools/fuzz.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ)

LINT_SRC = $(LIB_SRC) $(RUNNER_SRC) $(FUZZ:%=fuzz/%.c) fuzz/fuzz_util.c fuzz/replay.c \
	$(wildcard tests/fixtures/*.c) tests/fixtures/alloc/fakealloc.c \
	$(wildcard tests/fixtures/lib/*.c) \
	$(UNIT:%=tests/unit/%.c)

deps-lint:
	@sh tools/deps.sh cppcheck clang-tidy shellcheck
	@command -v npm >/dev/null || sh tools/deps.sh npm
	@test -x $(WF_LINT) || npm install --no-audit --no-fund --cache $(WF_LINT_DIR)/npm-cache \
		--prefix $(WF_LINT_DIR) \
		@action-validator/cli@$(WF_LINT_VERSION) @action-validator/core@$(WF_LINT_VERSION) || \
		echo "deps-lint: action-validator could not be installed from the npm registry: the workflow is checked by tests/workflow.bats alone"

# The workflows' linter: action-validator (npm: @action-validator/cli, the
# GitHub workflow schema and its own checks, e.g. that a job's needs
# exist), into a per-user cache.  Debian has no actionlint package.
WF_LINT_VERSION = 0.6.0
WF_LINT_DIR = $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/memrepro/action-validator-$(WF_LINT_VERSION)
WF_LINT = $(WF_LINT_DIR)/node_modules/.bin/action-validator

# Shell: the tests as bash (bats), every other script as what its #! says.
# Off for the tests: SC2154 (output, status and stderr are set by bats'
# run), SC2034 and SC2120 (what test_helper.bash defines is used by the
# files that load it).
SHELL_SRC = tools/*.sh bench/*.sh .ci/run \
	tools/action/*.sh

lint: deps-lint
	cppcheck --quiet --error-exitcode=1 --std=c11 -D_GNU_SOURCE \
		--enable=warning,portability,performance --inline-suppr \
		--suppress=missingIncludeSystem -Ilib -Irunner -Ifuzz $(LINT_SRC)
	clang-tidy --quiet $(LINT_SRC) -- -std=c11 -D_GNU_SOURCE -Ilib -Irunner -Ifuzz
	shellcheck -s bash -S warning -e SC2154,SC2034,SC2120 tests/*.bats tests/*.bash
	shellcheck -S warning $(SHELL_SRC)
	shellcheck -S warning tools/nightly/*.sh
	@if test -x $(WF_LINT); then echo "$(WF_LINT) .github/workflows/*.yml action.yml"; \
		$(WF_LINT) .github/workflows/*.yml action.yml; \
	else echo "lint: no action-validator (see deps-lint): workflow lint skipped"; fi
	sh tools/circles.sh runner lib
	sh tools/layers.sh
	sh tools/funclen.sh -n 120 runner lib
	sh tools/filelen.sh -n 600 runner lib
	sh tools/hguards.sh runner lib

clean: clean-proofs
clean-proofs:
	rm -rf $(SAN) build-fuzz $(A64)

deps-build:
	@sh tools/deps.sh $(DEPS_BUILD)

deps: deps-build
	@sh tools/deps.sh $(DEPS_TEST)

# The allocators of etc/allocators beyond the default axis (--axis
# allocator=tcmalloc-full,tbbmalloc,scudo).  No test needs them, so deps
# leaves them out (make check must not stop for them without root).  The
# first two are 0.3 MB of .debs (1.4 MiB installed, with libunwind8);
# libclang-rt-dev pulls the release's clang runtime for scudo (bookworm:
# libclang-rt-14-dev, 3.3 MB, 42 MiB installed).
DEPS_ALLOC := \
	libgoogle-perftools4 \
	libtbbmalloc2 \
	libclang-rt-dev

deps-alloc:
	@sh tools/deps.sh $(DEPS_ALLOC)

# The kernel axis (--axis kernel=6.12, docs/kernels.md): qemu boots
# Debian's kernels, busybox-static is the guest's init.  Not part of
# deps: no test needs a guest unless MEMREPRO_TEST_NETWORK=1.
DEPS_KERNEL := \
	qemu-system-x86 \
	busybox-static \
	xz-utils \
	zstd

deps-kernel:
	@sh tools/deps.sh $(DEPS_KERNEL)

test: deps all
	$(BATS) tests

check: deps all
	$(B)/memrepro check --profile quick -j $(JOBS) $(MEMREPRO_FLAGS)

# check on machines unlike the reference one: the quick corpus under each
# THP mode (switched, and put back, as root; skipped otherwise) and beside
# a busy loop on CPU 0.  Four corpus runs: too long for every check.
check-portable: deps all
	MEMREPRO_PORTABLE=1 JOBS=$(JOBS) $(BATS) --show-output-of-passing-tests tests/portable.bats

# What CI runs (.ci/run): the tests, the check, check-portable, the fiber
# switch on aarch64, then the proofs that the runner itself is clean
# (valgrind, sanitizers, a bounded fuzz run, static analysis), and the
# .deb built and its runner run once.
ci: test
	$(MAKE) check
	$(MAKE) check-portable
	$(MAKE) check-aarch64
	$(MAKE) memcheck
	$(MAKE) sanitize
	$(MAKE) fuzz
	$(MAKE) lint
	$(MAKE) deb-check

# lib/'s fiber switch proven on aarch64 here: lib/, the switch's test
# (tests/unit/fiber.c) and the fiber-stacks case built with Debian's cross
# compiler, static, into $(A64)/, and run under qemu-user by
# tests/aarch64.bats (tools/check-aarch64.sh).  Its packages are installed
# as deps installs the others; where they cannot be (not root, no Debian)
# or qemu cannot run a program, it says "skipped: why" and succeeds.
# fiber-stacks links without zlib, which has no Debian cross package.
A64 := build-aarch64
AARCH64_CC := aarch64-linux-gnu-gcc
DEPS_AARCH64 := \
	gcc-aarch64-linux-gnu \
	libc6-dev-arm64-cross \
	qemu-user

check-aarch64: deps
	MAKE="$(MAKE)" BATS="$(BATS)" AARCH64_CC="$(AARCH64_CC)" \
		sh tools/check-aarch64.sh $(A64) $(DEPS_AARCH64)

# Not part of check: the full matrix takes minutes.
report: deps all
	$(B)/memrepro report $(MEMREPRO_FLAGS)

# The corpus table of docs/corpus.md, from the corpus results in docs/corpus/
# (tools/corpus-run.sh docs/corpus measures them anew).
corpus-table: all
	MEMREPRO=$(B)/memrepro tools/corpus-table.sh

# The installed runner finds its files beside its binary, not at paths
# compiled in (main.c, core/util.c's mr_shipped_file): <bin>/../libexec/
# memrepro/cases (the cases, their originals, whose helpers they load as
# ../lib/memrepro.<ext>) and <bin>/../share/memrepro (plots, chartcheck.py,
# expected/, allocators, releases, guest-init, each directory of etc/ as
# share/memrepro/<dir>, cases/*.c to read).  So BINDIR, LIBEXECDIR and
# SHAREDIR keep that layout under PREFIX, and an install moved whole (a
# .deb unpacked anywhere) still runs.
INST_ORIGINALS = $(wildcard cases/*.js cases/*.rb cases/*.py)
INST_HELPERS = $(wildcard lib/memrepro.js lib/memrepro.rb lib/memrepro.py)
INST_ETC_DIRS = $(patsubst %/,%,$(wildcard etc/*/))
# What install installs, built (debian/rules builds this, not all).
INST_BUILT = $(B)/memrepro $(CASE_BIN)

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

clean:
	rm -rf $(B)

-include $(LIB_OBJ:.o=.d) $(RUNNER_OBJ:.o=.d) $(CASES:%=$(B)/cases/%.d) $(FIXTURES:%=$(B)/tests/fixtures/%.d)
-include $(UNIT:%=$(B)/tests/unit/%.d)
-include $(FUZZ:%=$(B)/fuzz/%.d) $(B)/fuzz/fuzz_util.d $(B)/fuzz/replay.d
