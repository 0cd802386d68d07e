build-dev/runner/diff.o: runner/diff.c runner/diff.h runner/claims.h \
 runner/plot.h runner/rdir.h runner/stats.h runner/util.h
runner/diff.h:
runner/claims.h:
runner/plot.h:
runner/rdir.h:
runner/stats.h:
runner/util.h:
