/* mr_proc: memory figures of any process, read from /proc.
 *
 * Used both inside measured cases and by the runner, so every function here
 * reads with open/read/close into a caller-owned or stack buffer: no stdio,
 * no malloc (an interposed allocator would see it and the figures would
 * include our own allocations).
 *
 * All figures are in KiB.  Every function returns 0 on success or -errno:
 * -ENOENT when the process is gone (its /proc directory no longer exists),
 * -ESRCH when it is a zombie (or a kernel thread): it has no memory map, so
 * statm reads all zeros, status has no Vm lines and smaps_rollup is empty;
 * -EPROTO when the file does not have the expected shape (a line without its
 * " kB" unit, a missing field, a number that overflows 64 bits).
 *
 * Thread safety: every function only uses its arguments and the stack (the
 * page size is cached once with an atomic store), so any thread may call.
 */
#ifndef MR_PROC_H
#define MR_PROC_H

#include <stdint.h>
#include <sys/types.h>

/* /proc/PID/statm: cheap (no page-table walk), fit for sampling. */
struct mr_statm {
	uint64_t vsz_kb;    /* total program size (VmSize) */
	uint64_t rss_kb;    /* resident set size (VmRSS) */
	uint64_t shared_kb; /* resident file-backed and shmem pages */
};

/* /proc/PID/status: a few lines that statm does not carry. */
struct mr_status {
	uint64_t vsz_kb;    /* VmSize */
	uint64_t rss_kb;    /* VmRSS */
	uint64_t hwm_kb;    /* VmHWM: peak RSS so far */
	uint64_t anon_kb;   /* RssAnon */
	uint64_t swap_kb;   /* VmSwap */
	uint64_t threads;   /* Threads */
};

/* /proc/PID/smaps_rollup: walks every mapping's page tables, so it costs
 * time in proportion to the mapped and resident memory: read it at
 * checkpoints, not in a tight sampling loop. */
struct mr_rollup {
	uint64_t rss_kb;           /* Rss */
	uint64_t pss_kb;           /* Pss: shared pages divided among sharers */
	uint64_t private_clean_kb; /* Private_Clean */
	uint64_t private_dirty_kb; /* Private_Dirty */
	uint64_t shared_dirty_kb;  /* Shared_Dirty (copy-on-write pages after fork) */
	uint64_t anon_kb;          /* Anonymous */
	uint64_t lazyfree_kb;      /* LazyFree: MADV_FREE'd, not yet reclaimed */
	uint64_t swap_kb;          /* Swap */
	uint64_t anon_huge_kb;     /* AnonHugePages: anonymous memory in
	                              transparent huge pages (0 where the
	                              kernel has no THP and no such line) */
};

/* Read /proc/PID/statm (pid 0 means the calling process). */
int mr_proc_statm(pid_t pid, struct mr_statm *out);

/* Read /proc/PID/status (pid 0 means the calling process). */
int mr_proc_status(pid_t pid, struct mr_status *out);

/* Read /proc/PID/smaps_rollup (pid 0 means the calling process).
 * -EPROTO if a field we need is missing or is not in kB. */
int mr_proc_rollup(pid_t pid, struct mr_rollup *out);

/* The number of mappings of PID (pid 0: the calling process): the lines
 * of /proc/PID/maps, counted as the file is read in chunks of a stack
 * buffer, never held whole (60,000 mappings are 5 MB of text).  The
 * kernel has no cheaper count (status and smaps_rollup carry none); the
 * read formats every mapping and takes the process's mmap lock, about
 * 0.5 ms per 1,000 mappings: read it at checkpoints, not per sample.
 * Bounded: more lines than MR_MAPS_MAX (above any vm.max_map_count, an
 * int) is -EFBIG.  -ESRCH when the file is empty (a zombie has no mm). */
int mr_proc_maps(pid_t pid, uint64_t *out);

/* More mappings than vm.max_map_count (an int) can allow. */
#define MR_MAPS_MAX 2147483647u

/* The lines of the file at path into *out, read in chunks of a stack
 * buffer of MR_PROC_LINES_CHUNK bytes: every newline, and a last line
 * without one.
 * Returns 0, -EFBIG past max lines, or -errno from open or read.  Opened
 * O_NONBLOCK, so a FIFO in its place cannot block.  mr_proc_maps's
 * reader, exposed for tests (tests/unit/lines.c). */
int mr_proc_count_lines(const char *path, uint64_t max, uint64_t *out);
#define MR_PROC_LINES_CHUNK 8192

/* Parse the text of a status or smaps_rollup file already in memory
 * (exposed for tests and fuzzing; the readers above call these). */
int mr_proc_parse_status(const char *text, size_t len, struct mr_status *out);
int mr_proc_parse_rollup(const char *text, size_t len, struct mr_rollup *out);

/* /proc/PID/stat: the fields the runner reads (lib/mr_pstat.c). */
struct mr_pstat {
	char state;          /* field 3: R, S, D, Z, X, ... */
	long ppid;           /* 4 */
	long pgrp;           /* 5 */
	unsigned long flags; /* 9: PF_* (PF_EXITING 0x4) */
	uint64_t minflt;     /* 10 */
	uint64_t majflt;     /* 12 */
	uint64_t utime;      /* 14, clock ticks */
	uint64_t stime;      /* 15, clock ticks */
	uint64_t cutime;     /* 16: its reaped children's, clock ticks */
	uint64_t cstime;     /* 17 */
	uint64_t start;      /* 22: start time, clock ticks after boot */
};

/* Read /proc/PID/stat (pid 0: the calling process).  A zombie's file
 * still reads (its state 'Z'); -ENOENT when the process is gone,
 * -EPROTO when a field up to the start time is missing or not a
 * number. */
int mr_proc_stat(pid_t pid, struct mr_pstat *out);

/* Parse the text of a stat file already in memory.  The command name
 * (field 2, in parentheses) may hold anything, spaces and ')' included:
 * the fields start after the last ')'. */
int mr_proc_parse_stat(const char *text, size_t len, struct mr_pstat *out);

/* Children of every thread of PID, from /proc/PID/task/TID/children.
 * Stores up to max pids in out; returns how many exist (may be > max),
 * -ENOTSUP when the kernel lacks CONFIG_PROC_CHILDREN, -ESRCH/-ENOENT when
 * the process is gone, -EPROTO (or -EFBIG) when a children file is not a
 * list of pids, or the threads' files list more than MR_PID_MAX_LIMIT
 * (see struct mr_pidlist_parser: then nothing of the call is to be
 * trusted, the caller must treat the tree as unknown), or -errno.  Walk
 * the tree by calling it again on each child (grandchildren are not
 * listed).  Every pid stored was read whole and is in 2..MR_PID_MAX_LIMIT:
 * never 0 or 1.
 *
 * The one function here that allocates: it lists /proc/PID/task with
 * opendir, which mallocs its DIR.  Only the runner calls it (to measure a
 * case's process tree from outside); a measured case must not. */
int mr_proc_children(pid_t pid, pid_t *out, int max);

/* The largest pid any kernel hands out (PID_MAX_LIMIT on 64-bit, the
 * ceiling of /proc/sys/kernel/pid_max). */
#define MR_PID_MAX_LIMIT 4194304

/* The most bytes a list of pids can take: every pid exists once, in at
 * most 7 digits and a separator.  More is not a children file. */
#define MR_PIDLIST_MAX_BYTES ((size_t)8 * MR_PID_MAX_LIMIT)

/* A streaming parser of a children file, fed in chunks of any size as the
 * file is read: allocation-free, no I/O.  The kernel writes "%d " per
 * child; what is accepted is a list of pids separated by runs of spaces
 * and newlines (leading, trailing or none at the end of the file).  A
 * number ends only at a separator or at the end of the file (finish), so
 * where the chunks are cut never changes the result.  Anything else makes
 * the whole file -EPROTO rather than a guess: any other byte, a pid of 0
 * or 1 (no process, and init, which is nobody's child in its namespace),
 * a leading zero (the kernel never writes one), a pid above
 * MR_PID_MAX_LIMIT (so no overflow); more than MR_PIDLIST_MAX_BYTES bytes
 * is -EFBIG.  The first error sticks: later feeds are ignored.
 *
 * Use: mr_pidlist_init, mr_pidlist_feed for each chunk in order, then
 * mr_pidlist_finish.  The fields are the parser's own: read them only
 * through finish. */
struct mr_pidlist_parser {
	pid_t *out;   /* caller's array: whole pids go here, in file order */
	int max;      /* capacity of out (0: count only) */
	int count;    /* whole pids read so far (may exceed max) */
	uint32_t cur; /* value of the number being read */
	int digits;   /* digits of cur so far; 0 between numbers */
	size_t bytes; /* bytes fed so far */
	int err;      /* 0, or the first error: -EPROTO or -EFBIG */
};

/* Start a parse that stores up to max pids in out (max <= 0: none). */
void mr_pidlist_init(struct mr_pidlist_parser *p, pid_t *out, int max);

/* Parse the next len bytes of the file.  Returns 0, or the parse's error
 * (-EPROTO, -EFBIG) once it has one: the caller may stop reading then. */
int mr_pidlist_feed(struct mr_pidlist_parser *p, const char *chunk, size_t len);

/* End of file: ends a last number that had no separator after it.
 * Returns how many pids the file lists (out holds the first min(that,
 * max) of them), or the parse's error; out's contents are then unspecified
 * beyond this: they are still only pids read whole and in range. */
int mr_pidlist_finish(struct mr_pidlist_parser *p);

/* Read the file at path (a children file) with the parser above, in
 * chunks.  Returns what mr_pidlist_finish returns, or -errno from open or
 * read.  Opened O_NONBLOCK so a FIFO in its place cannot block (-EAGAIN
 * when it has a writer and no data); reads at most MR_PIDLIST_MAX_BYTES
 * (+1 to see the excess). */
int mr_proc_read_pids(const char *path, pid_t *out, int max);

/* Read a whole small file into buf (NUL-terminated); returns its length or
 * -errno; -EFBIG if it does not fit in size-1 bytes. */
long mr_proc_read(const char *path, char *buf, size_t size);

#endif
