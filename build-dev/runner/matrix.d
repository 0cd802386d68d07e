build-dev/runner/matrix.o: runner/matrix.c runner/matrix.h runner/cases.h \
 runner/util.h runner/alloc.h runner/spawn.h
runner/matrix.h:
runner/cases.h:
runner/util.h:
runner/alloc.h:
runner/spawn.h:
