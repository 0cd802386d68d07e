/* elfneed: the libraries an ELF file names in DT_NEEDED (what ldd starts
 * from), read from its section headers without running it.
 *
 * Not for measured code: this mallocs and reads files.
 */
#ifndef MR_ELFNEED_H
#define MR_ELFNEED_H

/* Whether the 64-bit ELF file path names soname in a DT_NEEDED entry of
 * its dynamic section: 1 yes, 0 no (or not an ELF file, or unreadable). */
int mr_elf_needs(const char *path, const char *soname);

#endif
