# memrepro — build, test and run the corpus.
#
#   make            build the runner (build/memrepro) and every case
#   make check      the corpus on the quick matrix vs expected/ (what a user
#                   runs: under 90 s on 2 CPUs)
#   make test       the runner's own tests (bats; README.md says how many, how long);
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
	runner/core/rmtree.c \
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
	runner/proc/proof.c \
	runner/proc/tree.c \
	runner/proc/capture.c \
	runner/proc/log.c \
	runner/proc/loop.c \
	runner/proc/board.c \
	runner/proc/measure.c \
	runner/proc/marks.c \
	runner/proc/spawn.c \
	runner/proc/describe.c \
	runner/proc/cgroup.c \
	runner/proc/cgfs.c \
	runner/proc/cgsweep.c \
	runner/proc/scratch.c \
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
	runner/matrix/langs.c \
	runner/matrix/rtrel.c \
	runner/matrix/rtruby.c \
	runner/matrix/rtpython.c \
	runner/matrix/rtgo.c \
	runner/matrix/rtgobuild.c \
	runner/matrix/rtredis.c \
	runner/matrix/elfneed.c \
	runner/matrix/rtjava.c \
	runner/matrix/rtmemo.c \
	runner/matrix/libc.c \
	runner/matrix/versions.c \
	runner/matrix/allocrel.c \
	runner/matrix/alloc.c \
	runner/matrix/muslbuild.c \
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
	runner/results/share.c \
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
	runner/check/blclock.c \
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
	treeend \
	pstat

LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
RUNNER_OBJ := $(RUNNER_SRC:%.c=$(B)/%.o)
CASE_BIN := $(CASES:%=$(B)/cases/%)
# The reports' own programs beside the models (docs/originals.md), and
# their checkpoint helpers: copied so that build/cases/<case>.js finds
# ../lib/memrepro.js as cases/<case>.js does.
ORIGINALS := $(wildcard cases/*.js cases/*.rb cases/*.py cases/*.go cases/*.redis cases/*.java)
ORIG_FILES := $(ORIGINALS:cases/%=$(B)/cases/%) $(patsubst lib/%,$(B)/lib/%,$(wildcard lib/memrepro.js lib/memrepro.rb lib/memrepro.py lib/memrepro.go))
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

all: $(B)/memrepro $(CASE_BIN) $(ORIG_FILES) $(FIXTURE_BIN) $(UNIT_BIN) $(FAKEALLOC_SO) musl-cases

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
$(B)/cases/%.go: cases/%.go
	@mkdir -p $(@D)
	cp $< $@
$(B)/cases/%.redis: cases/%.redis
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

include mk/musl.mk

include mk/proofs.mk


deps-build:
	@sh tools/deps.sh $(DEPS_BUILD)

deps: deps-build deps-musl
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
# a busy loop on CPU 0.  Four corpus runs: too long for every check.  In
# ci, after make check, the host's own THP mode is not run again.
check-portable: deps all
	MEMREPRO_PORTABLE=1 JOBS=$(JOBS) $(BATS) --show-output-of-passing-tests tests/portable.bats

# What CI runs (.ci/run): the bats tests once, against the runner built
# with ASan+UBSan (make sanitize: the same tests as make test, each also a
# proof the runner is clean), and the few files that measure the plain
# build itself (PLAIN_TESTS: CPU time, address-space limits the sanitizers'
# shadow memory cannot run under); the check, check-portable, the fiber
# switch on aarch64, valgrind, a bounded fuzz run, static analysis, and the
# .deb built and its runner run once.
PLAIN_TESTS = tests/readers.bats tests/untrusted.bats

ci: deps all
	$(MAKE) sanitize
	$(BATS) $(PLAIN_TESTS)
	$(MAKE) check
	MEMREPRO_PORTABLE_SKIP_HOST=1 $(MAKE) check-portable
	$(MAKE) check-aarch64
	$(MAKE) memcheck
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

include mk/install.mk

clean:
	rm -rf $(B)

-include $(LIB_OBJ:.o=.d) $(RUNNER_OBJ:.o=.d) $(CASES:%=$(B)/cases/%.d) $(FIXTURES:%=$(B)/tests/fixtures/%.d)
-include $(UNIT:%=$(B)/tests/unit/%.d)
-include $(FUZZ:%=$(B)/fuzz/%.d) $(B)/fuzz/fuzz_util.d $(B)/fuzz/replay.d
