/* @NAME@: ONE LINE — what the report saw, with its figures
 * ("64 MiB filled: RSS +64 MiB under every allocator").
 *
 * Source: WHERE — a seed (seeds/NNN_....txt), an issue (OWNER/REPO#N) or an
 * https:// address; its date; what it ran on (versions, machine).  Its
 * program, and what it printed, as printed:
 *
 *   PROGRAM, a few lines
 *   FIGURES     ->  "THE REPORT'S OWN WORDS AND NUMBERS"
 *
 * In one sentence: the behaviour, and which allocator or kernel code makes
 * it (the mechanism is explained here, once).
 *
 * What the report's program does and what this model keeps of it (read,
 * not copied); what is left out and why.
 *
 * Measured (machine, kernel, glibc, allocators; medians of N): fill in
 * after `memrepro run @NAME@`.
 */
#include "mr_case.h"
#include "mr_ckpt.h"

#include <stdlib.h>
#include <string.h>

static const struct mr_param params[] = {
	/* name, default (the report's), quick (the quick profile's), allowed,
	   axis (values of the default matrix, "a|b"; NULL: none), help */
	{ "mb", "64", "16", "int:1..4096", NULL, "MiB allocated, written and kept" },
	{ 0 }
};

static const struct mr_checkpoint_desc checkpoints[] = {
	/* one wherever the report printed a figure */
	{ "start", "before anything is allocated: the process's own RSS" },
	{ "filled", "after the allocation is written: the report's print" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "@NAME@",
	.title = "ONE LINE: what the report saw, with its figures",
	.source = "WHERE (seed, OWNER/REPO#N or https:// address): its program and figures",
	.params = params,
	.checkpoints = checkpoints,
	/* one of MR_MECHANISMS (lib/mr_case.h) */
	.mechanism = "retention",
};

int main(int argc, char **argv)
{
	size_t n;
	char *p;

	mr_case_init(&desc, argc, argv);
	n = (size_t)mr_param_int("mb") << 20;

	mr_checkpoint("start");
	if (!(p = malloc(n)))
		mr_fail("malloc(%zu):", n);
	memset(p, 1, n);
	/* the compiler may delete an allocation nobody reads */
	mr_keep(p);
	mr_checkpoint("filled");

	free(p);
	return MR_EXIT_OK;
}
