build-dev/lib/mr_thread.o: lib/mr_thread.c lib/mr_thread.h lib/mr_case.h \
 lib/mr_proc.h
lib/mr_thread.h:
lib/mr_case.h:
lib/mr_proc.h:
