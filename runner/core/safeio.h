/* safeio: opening the files of a results directory, which may come from
 * anywhere (a CI artifact, a tarball, a colleague's machine).
 *
 * Every file of a results directory is opened through here: relative to
 * the directory's own descriptor, one path component at a time, never
 * following a symbolic link (of the file or of a directory on the way),
 * never leaving the directory (no "..", nothing absolute), never blocking
 * (a FIFO), and only when it is a regular file.  What is read from it is
 * bounded: a whole-file reader gets a size cap, a log tail reads only the
 * end of the file.  The directory itself is the one the user named: a
 * symbolic link there ("results/latest") is followed.
 *
 * The refusals read "DIR/REL: WHY: refusing to read it", WHY being one of
 *   not a regular file (a symbolic link)      (or a FIFO, a directory, ...)
 *   outside the results directory (logs is a symbolic link)
 *   not a path inside the results directory
 *   12.3 MiB, more than the 1 MiB a results file may have
 */
#ifndef MR_SAFEIO_H
#define MR_SAFEIO_H

#include <stdio.h>
#include <sys/types.h>

/* Size caps of the whole-file readers, in bytes.  Each is far above what
 * a run writes (env.tsv: a few KiB; runs.tsv: about 200 bytes a run,
 * checkpoints.tsv 300 bytes a checkpoint, series.tsv 60 bytes a sample)
 * and low enough that a results file is never a way to exhaust memory. */
#define MR_SIO_ENV_MAX   ((off_t)1 << 20)   /* env.tsv */
#define MR_SIO_TSV_MAX   ((off_t)256 << 20) /* runs.tsv, checkpoints.tsv */
#define MR_SIO_SERIES_MAX ((off_t)1 << 30)  /* series.tsv: hours of samples */
#define MR_SIO_IMAGE_MAX ((off_t)64 << 20)  /* a chart embedded in report.html */
/* A log merge copies: the runner writes at most MR_SPAWN_LOG_MAX (16 MiB)
 * of a case's output, plus its own few lines. */
#define MR_SIO_LOG_MAX   ((off_t)32 << 20)

/* A log tail is taken from at most the last this many bytes. */
#define MR_SIO_TAIL_MAX  ((size_t)64 << 10)

/* The longest WHY (see above), with its NUL. */
#define MR_SIO_WHY 160

/* dir + "/" + rel, without doubled slashes (as messages name a file).
 * Fresh string. */
char *mr_sio_path(const char *dir, const char *rel);

/* Open rel inside dir for reading, as above; cap > 0 refuses a larger
 * file.  Returns the descriptor (O_RDONLY | O_CLOEXEC, blocking), its
 * size in *size when size is not NULL; -ENOENT when there is no such file
 * (and nothing else is wrong); any other -errno with the reason in why
 * (MR_SIO_WHY bytes).  Nothing is printed. */
int mr_sio_open(const char *dir, const char *rel, off_t cap, off_t *size,
		char *why);

/* The same for appending (O_WRONLY | O_APPEND), with no cap. */
int mr_sio_open_append(const char *dir, const char *rel, char *why);

/* mr_sio_open as a stdio stream that yields at most cap bytes (a read
 * beyond fails with EFBIG, should the file grow while it is read).
 * Returns NULL with errno ENOENT when there is no such file (nothing
 * printed), or NULL after printing "DIR/REL: WHY: refusing to read it"
 * (errno EPERM). */
FILE *mr_sio_fopen(const char *dir, const char *rel, off_t cap);

/* The last n lines of the log rel inside dir, from its last
 * MR_SIO_TAIL_MAX bytes at most (read with pread: a huge log costs
 * nothing), control characters but tab replaced by '?'; each line ends
 * in '\n'.  A log that is refused gives the one line "(log not shown:
 * WHY)"; a missing one "".  Fresh string. */
char *mr_sio_tail(const char *dir, const char *rel, int n);

/* mr_sio_tail of path, a file inside root ("root/rel"); a path not under
 * root is refused. */
char *mr_sio_tail_under(const char *root, const char *path, int n);

/* Print the last n lines of the log at path, each preceded by prefix
 * ("# " for TAP): mr_sio_tail of path's last component inside its
 * folder (never through a symbolic link, only a regular file, only its
 * last MR_SIO_TAIL_MAX bytes, control characters but tab replaced by
 * '?' so that a case's junk cannot drive a terminal).  Nothing when
 * there is no file, a one-line note when it is refused. */
void mr_sio_print_tail(FILE *out, const char *path, int n, const char *prefix);

/* Create (or reuse) the directory rel inside dir, every component a real
 * directory, never a symbolic link.  0, or -errno with the reason in
 * why. */
int mr_sio_mkdir(const char *dir, const char *rel, char *why);

/* Remove whatever file or symbolic link is at rel inside dir (never
 * following one on the way).  0 (also when there was nothing), or -errno
 * with the reason in why. */
int mr_sio_unlink(const char *dir, const char *rel, char *why);

#endif
