build-dev/runner/safeio.o: runner/safeio.c runner/safeio.h runner/util.h
runner/safeio.h:
runner/util.h:
