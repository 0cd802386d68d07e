build-dev/runner/merge.o: runner/merge.c runner/merge.h runner/rdir.h \
 runner/claims.h runner/safeio.h runner/shard.h runner/util.h
runner/merge.h:
runner/rdir.h:
runner/claims.h:
runner/safeio.h:
runner/shard.h:
runner/util.h:
