build-dev/runner/claims.o: runner/claims.c runner/claims.h runner/tsv.h \
 runner/util.h
runner/claims.h:
runner/tsv.h:
runner/util.h:
