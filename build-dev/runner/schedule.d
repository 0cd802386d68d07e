build-dev/runner/schedule.o: runner/schedule.c runner/schedule.h \
 runner/claims.h runner/spawn.h runner/cases.h runner/util.h \
 runner/baseline.h
runner/schedule.h:
runner/claims.h:
runner/spawn.h:
runner/cases.h:
runner/util.h:
runner/baseline.h:
