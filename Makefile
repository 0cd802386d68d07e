# memrepro — build, test and run the corpus.
#
#   make            build the runner (build/memrepro) and every case
#   make check      bats tests, then the corpus on the quick matrix vs expected/
#   make test       only the bats tests
#   make install    PREFIX=/usr/local DESTDIR=
#
# Honours CC, CFLAGS, LDFLAGS, PREFIX, DESTDIR.  Objects go to build/.

MAKEFLAGS += --no-builtin-rules
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

B := build
MR_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Ilib -MMD -MP
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
	libmimalloc2.0

LIB_SRC := \
	lib/mr_proc.c \
	lib/mr_case.c \
	lib/mr_ckpt.c \
	lib/mr_fiber.c

RUNNER_SRC := \
	runner/main.c \
	runner/util.c \
	runner/cases.c \
	runner/matrix.c \
	runner/alloc.c \
	runner/spawn.c \
	runner/results.c \
	runner/envfp.c \
	runner/tsv.c \
	runner/claims.c \
	runner/baseline.c \
	runner/compare.c

CASES := $(patsubst cases/%.c,%,$(wildcard cases/*.c))
FIXTURES := $(patsubst tests/fixtures/%.c,%,$(wildcard tests/fixtures/*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
RUNNER_OBJ := $(RUNNER_SRC:%.c=$(B)/%.o)
CASE_BIN := $(CASES:%=$(B)/cases/%)
FIXTURE_BIN := $(FIXTURES:%=$(B)/fixtures/%)

.PHONY: all check test deps deps-build install uninstall clean

all: $(B)/memrepro $(CASE_BIN) $(FIXTURE_BIN)

# Order-only: the install step runs before any compile, never forces one.
$(B)/%.o: %.c | deps-build
	@mkdir -p $(@D)
	$(CC) $(MR_CFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/libmr.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $(LIB_OBJ)

$(B)/memrepro: $(RUNNER_OBJ) $(B)/libmr.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(RUNNER_OBJ) $(B)/libmr.a -ldl -lm

$(B)/cases/%: $(B)/cases/%.o $(B)/libmr.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libmr.a -lpthread -lz

$(B)/fixtures/%: $(B)/tests/fixtures/%.o $(B)/libmr.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(B)/libmr.a -lpthread

deps-build:
	@sh tools/deps.sh $(DEPS_BUILD)

deps: deps-build
	@sh tools/deps.sh $(DEPS_TEST)

test: deps all
	$(BATS) tests

check: test
	$(B)/memrepro check --profile quick $(MEMREPRO_FLAGS)

install: all
	mkdir -p $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBEXECDIR)/cases $(DESTDIR)$(SHAREDIR)
	cp $(B)/memrepro $(DESTDIR)$(BINDIR)/memrepro
	cp $(CASE_BIN) $(DESTDIR)$(LIBEXECDIR)/cases/
	cp -R expected $(DESTDIR)$(SHAREDIR)/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/memrepro
	rm -rf $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(SHAREDIR)

clean:
	rm -rf $(B)

-include $(LIB_OBJ:.o=.d) $(RUNNER_OBJ:.o=.d) $(CASES:%=$(B)/cases/%.d) $(FIXTURES:%=$(B)/tests/fixtures/%.d)
