build-dev/runner/util.o: runner/util.c runner/util.h runner/safeio.h
runner/util.h:
runner/safeio.h:
