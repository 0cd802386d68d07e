build-dev/runner/envfp.o: runner/envfp.c build-dev/commit.h \
 runner/envfp.h runner/alloc.h lib/mr_proc.h runner/util.h
build-dev/commit.h:
runner/envfp.h:
runner/alloc.h:
lib/mr_proc.h:
runner/util.h:
