/* board: the CPU a session's own runs use, shared by its workers.
 *
 * A run's other_cpu_ms (proc/machine.h) is meant to count the rest of the
 * machine: another job, a browser, a loop someone left running.  Under -j
 * the runs beside it are the session's own, and /proc/stat cannot tell
 * them from a stranger: with two runs on two CPUs each saw the other's
 * whole CPU as "other programs", so an idle machine looked busy to every
 * run that had company, and which runs had company changed from one
 * check to the next (bench/flaky.sh: jemalloc's minflt rows held in one
 * check and were skipped as "measured on a busy machine" in the next).
 *
 * So a session opens a board before its workers fork: one counter per
 * worker and one for the runner, in a shared anonymous mapping.  Each
 * counter only grows: a worker adds to its slot the CPU its run has used
 * so far (its own, its reaped children's, and the live case's from
 * /proc/PID/stat, at every sample), the runner its own at every turn of
 * its loop.  A run then takes the growth of every slot but its own off
 * the machine's busy time.  What the board says late is misplaced by up
 * to a sample (--interval, 10 ms by default) of each CPU a run beside
 * used: CPU said just after a run began counts against it, CPU not yet
 * said when it ends counts as the machine's, so a short run's reading
 * errs either way (check/values.h says how a run is judged busy despite
 * it).
 *
 * Without a board (-j 1, or the mapping refused) there is no other run
 * and nothing is taken off.
 */
#ifndef MR_BOARD_H
#define MR_BOARD_H

#include <stdint.h>

/* Open a board of nslot worker slots (and the runner's) for this process
 * and the workers it will fork.  Returns 0, or -errno (no board: runs
 * count each other as the machine's). */
int mr_board_open(int nslot);

/* user + system ms of getrusage(who) (0 when it fails): the one CPU
 * count of a process the board and proc/machine.c take. */
uint64_t mr_board_usage_ms(int who);

/* Close this process's board (the runner's, after its workers are gone). */
void mr_board_close(void);

/* In a worker, right after the fork: this process adds to slot i from now
 * on (its run's CPU starts at 0). */
void mr_board_take(int slot);

/* In a worker: its run has used ms so far (kept if less than what was
 * already said, so a slot never shrinks). */
void mr_board_say(uint64_t ms);

/* In the runner: say its own CPU so far (RUSAGE_SELF: the workers say
 * theirs). */
void mr_board_say_runner(void);

/* Non-zero when this process has a board to say its CPU on. */
int mr_board_saying(void);

/* The CPU in ms every slot but this process's own has said, or 0 without
 * a board. */
uint64_t mr_board_others(void);

#endif
