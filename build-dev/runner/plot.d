build-dev/runner/plot.o: runner/plot.c runner/plot.h runner/spawn.h \
 runner/cases.h runner/util.h
runner/plot.h:
runner/spawn.h:
runner/cases.h:
runner/util.h:
