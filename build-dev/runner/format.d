build-dev/runner/format.o: runner/format.c runner/format.h \
 runner/verdict.h runner/claims.h runner/safeio.h runner/util.h
runner/format.h:
runner/verdict.h:
runner/claims.h:
runner/safeio.h:
runner/util.h:
