build-dev/runner/charts.o: runner/charts.c runner/charts.h runner/plot.h \
 runner/rdir.h runner/claims.h runner/verdict.h runner/alloc.h \
 runner/safeio.h runner/stats.h runner/tsv.h runner/util.h
runner/charts.h:
runner/plot.h:
runner/rdir.h:
runner/claims.h:
runner/verdict.h:
runner/alloc.h:
runner/safeio.h:
runner/stats.h:
runner/tsv.h:
runner/util.h:
