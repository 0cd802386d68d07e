build-dev/runner/shard.o: runner/shard.c runner/shard.h runner/util.h
runner/shard.h:
runner/util.h:
