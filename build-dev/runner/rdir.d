build-dev/runner/rdir.o: runner/rdir.c runner/rdir.h runner/claims.h \
 runner/baseline.h runner/safeio.h runner/stats.h runner/tsv.h \
 runner/util.h
runner/rdir.h:
runner/claims.h:
runner/baseline.h:
runner/safeio.h:
runner/stats.h:
runner/tsv.h:
runner/util.h:
