build-dev/lib/mr_case.o: lib/mr_case.c lib/mr_case.h lib/mr_ckpt.h
lib/mr_case.h:
lib/mr_ckpt.h:
