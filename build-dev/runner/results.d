build-dev/runner/results.o: runner/results.c runner/results.h \
 runner/envfp.h runner/alloc.h runner/spawn.h runner/cases.h \
 runner/util.h runner/safeio.h runner/tsv.h
runner/results.h:
runner/envfp.h:
runner/alloc.h:
runner/spawn.h:
runner/cases.h:
runner/util.h:
runner/safeio.h:
runner/tsv.h:
