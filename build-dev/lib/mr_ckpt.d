build-dev/lib/mr_ckpt.o: lib/mr_ckpt.c lib/mr_ckpt.h lib/mr_case.h \
 lib/mr_proc.h
lib/mr_ckpt.h:
lib/mr_case.h:
lib/mr_proc.h:
