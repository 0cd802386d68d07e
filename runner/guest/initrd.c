/* initrd: the guest's initramfs in cpio newc — see initrd.h. */
#include "guest/initrd.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXFILE (64u << 20)

char *
mr_initrd_init_path(void)
{
	return mr_shipped_file("tools/guest/init", "guest-init");
}

/* Read a whole file (at most MAXFILE) into b: 0 or -errno. */
static int
slurp(const char *path, struct strbuf *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof buf)) > 0 && b->len + (size_t)n <= MAXFILE)
		sb_addn(b, buf, (size_t)n);
	close(fd);
	if (n < 0)
		return -EIO;
	return n > 0 ? -EFBIG : 0;
}

/* Whether the ELF image in b has an interpreter (is linked dynamically). */
static int
dynamic(const struct strbuf *b)
{
	const Elf64_Ehdr *e = (const void *)b->s;
	int i;

	if (b->len < sizeof *e || memcmp(e->e_ident, ELFMAG, SELFMAG) != 0 ||
	    e->e_ident[EI_CLASS] != ELFCLASS64)
		return 1;
	for (i = 0; i < e->e_phnum; i++) {
		size_t off = e->e_phoff + (size_t)i * e->e_phentsize;
		Elf64_Phdr ph;

		if (off + sizeof ph > b->len)
			return 1;
		memcpy(&ph, b->s + off, sizeof ph);
		if (ph.p_type == PT_INTERP)
			return 1;
	}
	return 0;
}

char *
mr_initrd_busybox(struct strbuf *why)
{
	const char *env = getenv("MEMREPRO_BUSYBOX");
	const char *p = env && *env ? env : "/bin/busybox";
	struct strbuf b = { 0 };
	int e = slurp(p, &b), dyn = e == 0 && dynamic(&b);

	sb_free(&b);
	if (e < 0 || dyn) {
		sb_printf(why, "%s %s: the guest needs a static busybox (install busybox-static: make deps-kernel)",
			  p, e < 0 ? strerror(-e) : "is not a static ELF program");
		return NULL;
	}
	return estrdup(p);
}

/* One newc entry: header, name, data, each padded to 4 bytes. */
static void
entry(struct strbuf *out, unsigned ino, unsigned mode, const char *name, const char *data,
      size_t len, unsigned rmaj, unsigned rmin)
{
	static const char zero[4];
	size_t nl = strlen(name) + 1;

	sb_printf(out, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", ino, mode,
		  0u, 0u, (mode & S_IFMT) == S_IFDIR ? 2u : 1u, 0u, len, 0u, 0u, rmaj, rmin, nl, 0u);
	sb_addn(out, name, nl);
	sb_addn(out, zero, (4 - (110 + nl) % 4) % 4);
	if (len && data) {
		sb_addn(out, data, len);
		sb_addn(out, zero, (4 - len % 4) % 4);
	}
}

/* A file of the host into the archive as name. */
static int
add_file(struct strbuf *out, unsigned ino, const char *src, const char *name, unsigned perm,
	 struct strbuf *why)
{
	struct strbuf b = { 0 };
	int e = slurp(src, &b);

	if (e < 0) {
		sb_printf(why, "%s: %s", src, strerror(-e));
		return -1;
	}
	entry(out, ino, S_IFREG | perm, name, b.s ? b.s : "", b.len, 0, 0);
	sb_free(&b);
	return 0;
}

int
mr_initrd_write(const char *path, const char *init, const char *busybox, char *const *modules,
		int nmod, struct strbuf *why)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys", "host", "lib",
					    "lib/memrepro-modules", NULL };
	struct strbuf a = { 0 };
	unsigned ino = 1;
	int i, fd, rc = -1;

	for (i = 0; dirs[i]; i++)
		entry(&a, ino++, S_IFDIR | 0755, dirs[i], NULL, 0, 0, 0);
	entry(&a, ino++, S_IFCHR | 0600, "dev/console", NULL, 0, 5, 1);
	if (add_file(&a, ino++, init, "init", 0755, why) < 0 ||
	    add_file(&a, ino++, busybox, "bin/busybox", 0755, why) < 0)
		goto out;
	for (i = 0; i < nmod; i++) {
		const char *base = strrchr(modules[i], '/');
		char *name = esprintf("lib/memrepro-modules/%s", base ? base + 1 : modules[i]);
		int e = add_file(&a, ino++, modules[i], name, 0644, why);

		free(name);
		if (e < 0)
			goto out;
	}
	entry(&a, 0, 0, "TRAILER!!!", NULL, 0, 0, 0);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644)) < 0 ||
	    write(fd, a.s, a.len) != (ssize_t)a.len) {
		sb_printf(why, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	close(fd);
	rc = 0;
out:
	sb_free(&a);
	return rc;
}
