build-dev/runner/cgroup.o: runner/cgroup.c runner/cgroup.h lib/mr_proc.h \
 runner/util.h
runner/cgroup.h:
lib/mr_proc.h:
runner/util.h:
