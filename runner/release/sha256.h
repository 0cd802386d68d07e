/* sha256: the SHA-256 of a file, in lower-case hex (FIPS 180-4). */
#ifndef MR_SHA256_H
#define MR_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct mr_sha256 {
	uint32_t h[8];     /* the state */
	uint64_t len;      /* bytes hashed so far */
	unsigned char buf[64];
	size_t nbuf;       /* bytes waiting in buf */
};

void mr_sha256_init(struct mr_sha256 *c);
void mr_sha256_add(struct mr_sha256 *c, const void *p, size_t n);
/* The digest as 64 hex digits and a NUL into hex. */
void mr_sha256_hex(struct mr_sha256 *c, char hex[65]);

/* Hash what is left to read of fd into hex.  0, or -errno. */
int mr_sha256_fd(int fd, char hex[65]);

/* Hash the file at path (not through a symbolic link, only a regular
 * file, never blocking on a FIFO: -EINVAL for anything else) into hex.
 * 0, or -errno. */
int mr_sha256_file(const char *path, char hex[65]);

#endif
