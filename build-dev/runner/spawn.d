build-dev/runner/spawn.o: runner/spawn.c runner/spawn.h runner/cases.h \
 runner/util.h runner/cgroup.h lib/mr_proc.h
runner/spawn.h:
runner/cases.h:
runner/util.h:
runner/cgroup.h:
lib/mr_proc.h:
