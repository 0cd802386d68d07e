build-dev/runner/tsv.o: runner/tsv.c runner/tsv.h runner/safeio.h \
 runner/util.h
runner/tsv.h:
runner/safeio.h:
runner/util.h:
