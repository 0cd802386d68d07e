/* record: checkpoint records — see record.h. */
#include "proto/record.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/drain.h"
#include "core/util.h"

/* A whole number: digits only, fits in 64 bits. */
static int
parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (*s < '0' || *s > '9' || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* "ckpt NAME SEQ key=value..." with every metric present and numeric, or
 * "ckpt NAME SEQ" alone (a program that cannot read its own figures). */
int
mr_record_parse(char *line, const struct mr_cases_desc *c,
		const unsigned long *seen, int *ck,
		struct mr_record *row, char *why, size_t size)
{
	char *f[64];
	unsigned long have = 0;
	uint64_t seq;
	int nf, k, j, i;

	memset(row, 0, sizeof *row);
	row->cgroup_kb = MR_NOT_MEASURED;
	nf = split(line, '\t', f, 64);
	if (strcmp(f[0], MR_RECORD_TAG) != 0) {
		snprintf(why, size, "does not start with '" MR_RECORD_TAG "'");
		return -1;
	}
	if (nf < 3) {
		snprintf(why, size, "no name and seq");
		return -1;
	}
	/* a case declares a handful of names: a scan of them is cheap */
	for (i = 0; i < c->nckpts; i++)
		if (strcmp(c->ckpts[i].name, f[1]) == 0)
			break;
	if (i == c->nckpts) {
		snprintf(why, size, "checkpoint '%.40s' not declared by the case", f[1]);
		return -1;
	}
	*ck = i;
	if (parse_u64(f[2], &seq) < 0 || seq != seen[i] + 1) {
		snprintf(why, size, "%.40s: seq '%.20s', want %lu", f[1], f[2], seen[i] + 1);
		return -1;
	}
	snprintf(row->name, sizeof row->name, "%s", f[1]);
	row->seq = (unsigned long)seq;
	if (nf == 3)
		return 1; /* the runner reads the figures (an original) */
	for (k = 3; k < nf; k++) {
		char *eq = strchr(f[k], '=');
		uint64_t v;

		if (!eq) {
			snprintf(why, size, "%.40s: field '%.40s' is not key=value", f[1], f[k]);
			return -1;
		}
		*eq = '\0';
		if (parse_u64(eq + 1, &v) < 0) {
			snprintf(why, size, "%.40s: %.40s='%.40s' is not a number", f[1], f[k], eq + 1);
			return -1;
		}
		for (j = 0; j < MR_NCKPT_KEYS; j++)
			if (strcmp(f[k], mr_ckpt_keys[j]) == 0)
				break;
		if (j == MR_NCKPT_KEYS || !(MR_CKPT_KEYS_MUST & (1ul << j)))
			continue; /* a newer lib's metric, or one the runner reads */
		if (have & (1ul << j)) {
			snprintf(why, size, "%.40s: %.40s given twice", f[1], f[k]);
			return -1;
		}
		have |= 1ul << j;
		if (j == 0)
			row->t_us = v;
		else
			row->v[j] = v;
	}
	for (j = 0; j < MR_NCKPT_KEYS; j++) {
		if ((MR_CKPT_KEYS_MUST & (1ul << j)) && !(have & (1ul << j))) {
			snprintf(why, size, "%.40s: no %s", f[1], mr_ckpt_keys[j]);
			return -1;
		}
	}
	return 0;
}

/* Feed bytes read from the checkpoint pipe; each complete line is a
 * record and gets one ack, good or bad (the case is waiting for it). */
static void
feed(void *ctx, const char *p, size_t n)
{
	struct mr_record_reader *rd = ctx;
	size_t i;

	for (i = 0; i < n; i++) {
		char c = p[i];

		if (c == '\n') {
			if (rd->skipping) {
				rd->skipping = 0;
			} else {
				rd->line[rd->len] = '\0';
				rd->record(rd->ctx, rd->line);
			}
			rd->len = 0;
			rd->ack(rd->ctx);
			continue;
		}
		if (rd->skipping)
			continue;
		if (rd->len == MR_RECORD_MAX - 1) {
			rd->too_long(rd->ctx);
			rd->skipping = 1;
			continue;
		}
		rd->line[rd->len++] = c;
	}
}

int
mr_record_read(struct mr_record_reader *rd, int fd)
{
	char buf[4096];

	/* empty (EAGAIN) or not: 1, only EOF is 0 */
	return mr_drain(fd, buf, sizeof buf, 16, feed, rd) == 0 ? 0 : 1;
}
