build-dev/lib/mr_fiber.o: lib/mr_fiber.c lib/mr_fiber.h
lib/mr_fiber.h:
