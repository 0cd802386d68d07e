build-dev/runner/term.o: runner/term.c runner/term.h runner/results.h \
 runner/envfp.h runner/alloc.h runner/spawn.h runner/cases.h \
 runner/util.h
runner/term.h:
runner/results.h:
runner/envfp.h:
runner/alloc.h:
runner/spawn.h:
runner/cases.h:
runner/util.h:
