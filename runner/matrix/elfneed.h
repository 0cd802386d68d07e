/* elfneed: an ELF file's sections read from its section headers without
 * running it: the libraries it names in DT_NEEDED (what ldd starts from),
 * and any section with its string table (allocrel.c: the glibc versions
 * a library needs).
 *
 * Not for measured code: this mallocs and reads files.
 */
#ifndef MR_ELFNEED_H
#define MR_ELFNEED_H

#include <stdint.h>

/* Called with a section (sec, n bytes), its linked string table (str, ns
 * bytes) and its sh_info; non-zero stops the walk. */
typedef int mr_elf_section_fn(const char *sec, uint64_t n, const char *str, uint64_t ns,
			      uint64_t info, void *arg);

/* fn on each section of type (SHT_*) of the 64-bit ELF file path, in
 * order, until it returns non-zero: that value, else 0 (also when path
 * is not an ELF file, or unreadable).  Sections are capped at 1 MiB. */
int mr_elf_sections(const char *path, uint32_t type, mr_elf_section_fn *fn, void *arg);

/* Whether the 64-bit ELF file path names soname in a DT_NEEDED entry of
 * its dynamic section: 1 yes, 0 no (or not an ELF file, or unreadable). */
int mr_elf_needs(const char *path, const char *soname);

#endif
