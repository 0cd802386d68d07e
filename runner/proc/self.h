/* self: the runner's own process, as every spawn needs it set up.
 *
 * Its standard fds taken, a child subreaper, SIGPIPE ignored, handlers for
 * SIGINT/SIGTERM/SIGHUP (a run in progress kills its case and returns) and
 * SIGCONT (a run that stood still says so), and the personality flag for
 * address space randomization that cases inherit.  Children get the
 * default dispositions back before exec (mr_child_signals).
 */
#ifndef MR_SELF_H
#define MR_SELF_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* Set to the signal number by the SIGINT/SIGTERM/SIGHUP handler
 * mr_spawn_init installs; a run in progress kills its case and returns
 * -EINTR. */
extern volatile sig_atomic_t mr_spawn_interrupted;

/* Counts the SIGCONTs the runner got: it was stopped (SIGSTOP, Ctrl-Z)
 * and goes on. */
extern volatile sig_atomic_t mr_self_continued;

/* Once, before any spawn: become a child subreaper, ignore SIGPIPE (the
 * case may close the ack pipe), catch SIGINT/SIGTERM/SIGHUP.  Children get the
 * default dispositions back before exec. */
void mr_spawn_init(void);

/* Cases started from now on run with address space randomization on or
 * off: a personality flag (ADDR_NO_RANDOMIZE) the runner sets on itself,
 * inherited across fork and exec.  Writes what they get into buf (at least
 * 128 bytes): "off", "on", "off (kernel.randomize_va_space=0)" or "on
 * (personality: ...)" when off was asked for and refused (a seccomp
 * filter).  Returns 0 when they get what was asked, -1 otherwise. */
int mr_spawn_aslr(int on, char *buf, size_t size);

/* Time the machine spent suspended since boot, in ns (0 when the clocks
 * cannot be read). */
uint64_t mr_self_suspended_ns(void);

#endif
