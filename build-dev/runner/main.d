build-dev/runner/main.o: runner/main.c runner/alloc.h runner/baseline.h \
 runner/cases.h runner/util.h runner/cgroup.h runner/compare.h \
 runner/format.h runner/verdict.h runner/diff.h runner/envfp.h \
 runner/matrix.h runner/merge.h runner/plot.h runner/report.h \
 runner/results.h runner/spawn.h runner/schedule.h runner/claims.h \
 runner/shard.h runner/term.h runner/trend.h
runner/alloc.h:
runner/baseline.h:
runner/cases.h:
runner/util.h:
runner/cgroup.h:
runner/compare.h:
runner/format.h:
runner/verdict.h:
runner/diff.h:
runner/envfp.h:
runner/matrix.h:
runner/merge.h:
runner/plot.h:
runner/report.h:
runner/results.h:
runner/spawn.h:
runner/schedule.h:
runner/claims.h:
runner/shard.h:
runner/term.h:
runner/trend.h:
