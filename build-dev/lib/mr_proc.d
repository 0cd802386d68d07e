build-dev/lib/mr_proc.o: lib/mr_proc.c lib/mr_proc.h
lib/mr_proc.h:
