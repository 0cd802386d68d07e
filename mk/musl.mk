# mk/musl.mk: allocator=musl: the cases built a second time with musl-gcc (included by the Makefile).

# --- the cases built with musl (allocator=musl) ------------------------
# musl's malloc (mallocng) is its libc's own: every case is built a second
# time with Debian's musl-gcc (musl-tools), static, into $(MB)/ (the
# runner's CASES/musl/NAME).  A case whose header has a line
# " * No musl build: REASON" (glibc-only calls) gets $(MB)/NAME.skip, the
# reason its allocator=musl runs are skipped with.  Where musl-gcc is not
# (deps-musl could not install it), nothing here is built: allocator=musl
# is skipped, and all still succeeds.
.PHONY: musl-cases musl-build deps-musl
MUSL_CC ?= musl-gcc
MB := $(B)/cases/musl
MUSL_NO := $(patsubst cases/%.c,%,$(shell grep -l '^ \* No musl build: ' cases/*.c))
MUSL_BIN := $(filter-out $(MUSL_NO:%=$(MB)/%),$(CASES:%=$(MB)/%))
MUSL_LIB_OBJ := $(LIB_SRC:lib/%.c=$(MB)/lib/%.o)

musl-cases:
	@if command -v $(MUSL_CC) >/dev/null 2>&1; then $(MAKE) --no-print-directory musl-build; \
	else echo "musl-cases: no $(MUSL_CC) (Debian package musl-tools): allocator=musl runs are skipped"; fi

musl-build: $(MUSL_BIN) $(MUSL_NO:%=$(MB)/%.skip)

$(MB)/lib/%.o $(MB)/%.o: MUSL_OBJ_FLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Ilib -MMD -MP
$(MB)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(MUSL_CC) $(MUSL_OBJ_FLAGS) $(CFLAGS) -c -o $@ $<
$(MB)/%.o: cases/%.c
	@mkdir -p $(@D)
	$(MUSL_CC) $(MUSL_OBJ_FLAGS) $(CFLAGS) -c -o $@ $<
$(MB)/libmr.a: $(MUSL_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $(MUSL_LIB_OBJ)
$(MB)/%: $(MB)/%.o $(MB)/libmr.a
	$(MUSL_CC) -static $(CFLAGS) $(LDFLAGS) -o $@ $< $(MB)/libmr.a -lpthread
$(MB)/%.skip: cases/%.c
	@mkdir -p $(@D)
	sed -n 's/^ \* No musl build: //p' $< > $@

deps-musl:
	@sh tools/deps.sh musl-tools || echo "deps-musl: musl-tools not installed: allocator=musl runs are skipped"

-include $(MUSL_LIB_OBJ:.o=.d) $(CASES:%=$(MB)/%.d)
