/* elfneed: an ELF file's sections, DT_NEEDED — see elfneed.h. */
#include "matrix/elfneed.h"

#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"

#define SECTION_MAX (1u << 20) /* a dynamic section or its strings */
#define SECTIONS_MAX 4096

/* pread exactly n bytes at off into a fresh buffer, or NULL. */
static void *
read_at(int fd, uint64_t off, uint64_t n)
{
	char *b;

	if (n == 0 || n > SECTION_MAX)
		return NULL;
	b = emalloc((size_t)n);
	if (pread(fd, b, (size_t)n, (off_t)off) != (ssize_t)n) {
		free(b);
		return NULL;
	}
	return b;
}

int
mr_elf_sections(const char *path, uint32_t type, mr_elf_section_fn *fn, void *arg)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), i, rc = 0;
	Elf64_Shdr *sh = NULL;
	Elf64_Ehdr eh;

	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_shentsize != sizeof *sh || eh.e_shnum == 0 || eh.e_shnum > SECTIONS_MAX)
		goto out;
	if (!(sh = read_at(fd, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof *sh)))
		goto out;
	for (i = 0; i < eh.e_shnum && !rc; i++) {
		char *sec, *str;

		if (sh[i].sh_type != type || sh[i].sh_link >= eh.e_shnum)
			continue;
		sec = read_at(fd, sh[i].sh_offset, sh[i].sh_size);
		str = read_at(fd, sh[sh[i].sh_link].sh_offset, sh[sh[i].sh_link].sh_size);
		if (sec && str)
			rc = fn(sec, sh[i].sh_size, str, sh[sh[i].sh_link].sh_size, sh[i].sh_info, arg);
		free(sec);
		free(str);
	}
out:
	free(sh);
	close(fd);
	return rc;
}

/* Whether dynamic section dyn (n bytes, strings str of ns bytes) needs
 * the soname arg: 1 or 0. */
static int
needs(const char *dyn, uint64_t n, const char *str, uint64_t ns, uint64_t info, void *arg)
{
	const char *soname = arg;
	size_t len = strlen(soname);
	uint64_t off;

	(void)info;
	for (off = 0; off + sizeof(Elf64_Dyn) <= n; off += sizeof(Elf64_Dyn)) {
		Elf64_Dyn d;

		memcpy(&d, dyn + off, sizeof d);
		if (d.d_tag == DT_NULL)
			break;
		if (d.d_tag == DT_NEEDED && d.d_un.d_val < ns && ns - d.d_un.d_val > len &&
		    memcmp(str + d.d_un.d_val, soname, len + 1) == 0)
			return 1;
	}
	return 0;
}

int
mr_elf_needs(const char *path, const char *soname)
{
	return mr_elf_sections(path, SHT_DYNAMIC, needs, (void *)soname);
}
