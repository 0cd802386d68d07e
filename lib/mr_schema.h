/* mr_schema: what a case and the runner must agree on, written once.
 *
 * The keys of a checkpoint record (docs/formats.md), the variables that
 * carry the checkpoint channel, and the rules for the names of cases,
 * checkpoints and parameters (with the parameter names the runner keeps
 * for its own axes).  Included by lib/ (mr_case.c, mr_ckpt.c), by the
 * runner's schema (runner/proto/schema.h) and by its readers, as
 * mr_exit.h is; it includes nothing, and its rules are inline so that
 * neither side links the other's objects.
 */
#ifndef MR_SCHEMA_H
#define MR_SCHEMA_H

/* --- the checkpoint record ------------------------------------------------ */

/* A record: "ckpt\tNAME\tSEQ\tkey=value...\n", one write. */
#define MR_RECORD_TAG "ckpt"

/* The keys a record carries (runner/proto/schema.h's table says which the
 * runner needs and which it reads itself). */
#define MR_RECKEY_T_US "t_us" /* the case's clock since its start */
#define MR_RECKEY_RSS_KB "rss_kb"
#define MR_RECKEY_VSZ_KB "vsz_kb"
#define MR_RECKEY_PSS_KB "pss_kb"
#define MR_RECKEY_PRIVATE_CLEAN_KB "private_clean_kb"
#define MR_RECKEY_PRIVATE_DIRTY_KB "private_dirty_kb"
#define MR_RECKEY_SHARED_DIRTY_KB "shared_dirty_kb"
#define MR_RECKEY_ANON_KB "anon_kb"
#define MR_RECKEY_ANON_HUGE_KB "anon_huge_kb"
#define MR_RECKEY_LAZYFREE_KB "lazyfree_kb"
#define MR_RECKEY_SWAP_KB "swap_kb"
#define MR_RECKEY_HWM_KB "hwm_kb"
#define MR_RECKEY_MAPS "maps"
#define MR_RECKEY_USER_MS "user_ms"
#define MR_RECKEY_SYS_MS "sys_ms"
#define MR_RECKEY_MINFLT "minflt"
#define MR_RECKEY_MAJFLT "majflt"

/* The environment variables naming the channel's fds: the case writes
 * records to the first and reads one ack per record from the second. */
#define MR_ENV_CKPT_FD_VAR "MEMREPRO_CKPT_FD"
#define MR_ENV_ACK_FD_VAR "MEMREPRO_ACK_FD"

/* --- names ---------------------------------------------------------------- */

/* The longest case name (a file name, a results directory's key). */
#define MR_CASE_NAME_MAX 64
/* The longest checkpoint name (lib numbers each name it sees; the runner
 * keeps it in a row of checkpoints.tsv). */
#define MR_CKPT_NAME_MAX 63

/* The words of the rules, for messages. */
#define MR_CASE_NAME_RULE "[a-z0-9][a-z0-9-]{0,63}"
#define MR_CKPT_NAME_RULE "[a-z0-9_-]{1,63}"
#define MR_PARAM_NAME_RULE "[a-z0-9_]+"
/* The parameter names the runner's own axes take (glibc: its tunables,
 * glibc.<ns>.<name>, and any name beginning so). */
#define MR_PARAM_RESERVED "allocator, runtime, libc, kernel, pressure, glibc*"

static inline int mr_name_lower_digit(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* Non-zero when s is a case name: MR_CASE_NAME_RULE. */
static inline int mr_name_case(const char *s)
{
	int n;

	if (!mr_name_lower_digit(s[0]))
		return 0;
	for (n = 1; s[n]; n++)
		if (n >= MR_CASE_NAME_MAX || !(mr_name_lower_digit(s[n]) || s[n] == '-'))
			return 0;
	return 1;
}

/* Non-zero when s is a checkpoint name: MR_CKPT_NAME_RULE. */
static inline int mr_name_checkpoint(const char *s)
{
	int n;

	for (n = 0; s[n]; n++)
		if (n >= MR_CKPT_NAME_MAX ||
		    !(mr_name_lower_digit(s[n]) || s[n] == '_' || s[n] == '-'))
			return 0;
	return n > 0;
}

/* Non-zero when s is one of MR_PARAM_RESERVED. */
static inline int mr_name_reserved(const char *s)
{
	static const char *const words[] = { "allocator", "runtime", "libc", "kernel",
					     "pressure" };
	unsigned i, k;

	for (i = 0; i < sizeof words / sizeof *words; i++) {
		for (k = 0; words[i][k] && s[k] == words[i][k]; k++)
			;
		if (!words[i][k] && !s[k])
			return 1;
	}
	for (k = 0; "glibc"[k] && s[k] == "glibc"[k]; k++)
		;
	return k == 5;
}

/* Non-zero when s has a parameter name's form: MR_PARAM_NAME_RULE (a
 * reserved name has it too: see mr_name_param). */
static inline int mr_name_param_form(const char *s)
{
	int n;

	for (n = 0; s[n]; n++)
		if (!(mr_name_lower_digit(s[n]) || s[n] == '_'))
			return 0;
	return n > 0;
}

/* Non-zero when a case may declare a parameter named s: its form, and not
 * reserved. */
static inline int mr_name_param(const char *s)
{
	return mr_name_param_form(s) && !mr_name_reserved(s);
}

#endif
