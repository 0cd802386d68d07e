build-dev/runner/compare.o: runner/compare.c runner/compare.h \
 runner/format.h runner/verdict.h runner/baseline.h runner/cases.h \
 runner/util.h runner/claims.h runner/rdir.h runner/stats.h
runner/compare.h:
runner/format.h:
runner/verdict.h:
runner/baseline.h:
runner/cases.h:
runner/util.h:
runner/claims.h:
runner/rdir.h:
runner/stats.h:
