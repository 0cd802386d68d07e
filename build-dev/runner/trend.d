build-dev/runner/trend.o: runner/trend.c runner/trend.h runner/claims.h \
 runner/plot.h runner/rdir.h runner/stats.h runner/util.h
runner/trend.h:
runner/claims.h:
runner/plot.h:
runner/rdir.h:
runner/stats.h:
runner/util.h:
