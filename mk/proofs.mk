# mk/proofs.mk: proving the runner clean: valgrind, sanitizers, fuzzing, static analysis (included by the Makefile).

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
	@# clang-tidy a file at a time on every CPU (xargs exits 123 when one
	@# finds anything): the lint's longest step, ~6 min on one CPU
	printf '%s\n' $(LINT_SRC) | xargs -P $(JOBS) -n 8 sh -c \
		'clang-tidy --quiet "$$@" -- -std=c11 -D_GNU_SOURCE -Ilib -Irunner -Ifuzz' clang-tidy
	shellcheck -s bash -S warning -e SC2154,SC2034,SC2120 tests/*.bats tests/*.bash
	shellcheck -S warning $(SHELL_SRC)
	shellcheck -S warning tools/nightly/*.sh
	@if test -x $(WF_LINT); then for f in .github/workflows/*.yml action.yml; do \
		echo "$(WF_LINT) $$f"; $(WF_LINT) "$$f" || exit 1; done; \
	else echo "lint: no action-validator (see deps-lint): workflow lint skipped"; fi
	sh tools/circles.sh runner lib
	sh tools/layers.sh
	sh tools/funclen.sh -n 120 runner lib
	sh tools/filelen.sh -n 600 runner lib
	sh tools/hguards.sh runner lib

clean: clean-proofs
clean-proofs:
	rm -rf $(SAN) build-fuzz $(A64)
