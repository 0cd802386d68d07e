build-dev/runner/cases.o: runner/cases.c runner/cases.h runner/util.h \
 runner/spawn.h
runner/cases.h:
runner/util.h:
runner/spawn.h:
