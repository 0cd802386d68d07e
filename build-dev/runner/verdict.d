build-dev/runner/verdict.o: runner/verdict.c runner/verdict.h \
 runner/util.h
runner/verdict.h:
runner/util.h:
