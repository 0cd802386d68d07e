build-dev/runner/stats.o: runner/stats.c runner/stats.h runner/util.h
runner/stats.h:
runner/util.h:
