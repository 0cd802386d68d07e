build-dev/runner/report.o: runner/report.c runner/report.h runner/cases.h \
 runner/util.h runner/charts.h runner/plot.h runner/rdir.h \
 runner/claims.h runner/verdict.h runner/compare.h runner/format.h \
 runner/safeio.h
runner/report.h:
runner/cases.h:
runner/util.h:
runner/charts.h:
runner/plot.h:
runner/rdir.h:
runner/claims.h:
runner/verdict.h:
runner/compare.h:
runner/format.h:
runner/safeio.h:
