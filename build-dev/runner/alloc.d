build-dev/runner/alloc.o: runner/alloc.c runner/alloc.h runner/spawn.h \
 runner/cases.h runner/util.h
runner/alloc.h:
runner/spawn.h:
runner/cases.h:
runner/util.h:
