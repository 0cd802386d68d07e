/* record: the checkpoint records a case sends on its channel.
 *
 * One record a line, "ckpt\tNAME\tSEQ\tkey=value..." (docs/formats.md),
 * at most MR_RECORD_MAX bytes with its newline; the case waits for one ack
 * (a newline on the ack pipe) after each line, good or bad, while the
 * runner measures it.
 */
#ifndef MR_RECORD_H
#define MR_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "proto/cases.h"
#include "proto/schema.h"

/* The longest record docs/formats.md allows, newline included. */
#define MR_RECORD_MAX 1024

/* One checkpoint as the runner keeps it (a row of checkpoints.tsv): the
 * figures of the case's record and the runner's tree measurement. */
struct mr_record {
	char name[MR_CKPT_NAME_MAX + 1];
	unsigned long seq;
	uint64_t t_us;                 /* the record's t_us */
	uint64_t v[MR_NCKPT_KEYS];     /* by checkpoint metric (the schema's
	                                  mr_ckpt_metrics[0..MR_NCKPT_KEYS-1],
	                                  record keys mr_ckpt_keys[]); v[0]
	                                  unused (t_us above: the record
	                                  carries t_us, the table has t_ms) */
	uint64_t tree_rss_kb;
	uint64_t tree_pss_kb;
	uint64_t tree_private_dirty_kb;
	uint64_t tree_nproc;
	uint64_t cgroup_kb;  /* charge of the run's memory cgroup (what `free`
	                        sees the tree use, page cache and kernel memory
	                        included), or MR_NOT_MEASURED */
};

/* Parse one checkpoint record (one line, without its newline; split in
 * place) of case c, given seen[0..c->nckpts-1]: how many records of each
 * checkpoint c declares (in its order) were accepted before it, for the
 * seq check (a count, not a scan of the rows: a case may take millions).
 * Sets *ck to the index of the record's checkpoint among c's (the caller
 * adds one to seen[*ck] when it keeps the row).  Fills row with the
 * figures the case sends (the runner's own are left 0, cgroup_kb
 * MR_NOT_MEASURED); a record must
 * carry the keys the schema marks MR_REC_MUST, and those of MR_REC_RUNNER
 * it may carry are skipped.  A record of the name and seq alone (an
 * original: a script that cannot read its own figures, docs/originals.md)
 * is good too: the caller reads its figures from /proc while the program
 * waits.  Returns 0 (figures sent), 1 (name and seq alone), or -1 with why
 * the record is bad in why.  Exposed for the fuzz target; the run loop calls it. */
int mr_record_parse(char *line, const struct mr_cases_desc *c,
		    const unsigned long *seen, int *ck,
		    struct mr_record *row, char *why, size_t size);

/* The channel's reader: cuts what the case writes into lines.  The caller
 * zeroes it and sets the callbacks. */
struct mr_record_reader {
	char line[MR_RECORD_MAX + 1];
	size_t len;         /* bytes in line: a record begun, not ended */
	int skipping;       /* dropping the rest of an overlong line */
	void (*record)(void *ctx, char *line); /* a whole line, NUL-terminated */
	void (*too_long)(void *ctx); /* a line reached MR_RECORD_MAX bytes: the
	                                rest of it is dropped */
	void (*ack)(void *ctx);      /* after each newline */
	void *ctx;
};

/* Read what fd (non-blocking) holds now, at most 64 KiB (a writer faster
 * than us must not keep us here), and call the callbacks for it.  Returns
 * 0 at EOF, 1 otherwise (a read error counts as all read). */
int mr_record_read(struct mr_record_reader *rd, int fd);

#endif
