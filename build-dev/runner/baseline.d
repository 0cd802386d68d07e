build-dev/runner/baseline.o: runner/baseline.c runner/baseline.h \
 runner/claims.h runner/tsv.h runner/util.h
runner/baseline.h:
runner/claims.h:
runner/tsv.h:
runner/util.h:
