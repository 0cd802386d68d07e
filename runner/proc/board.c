/* board: the CPU a session's own runs use, shared by its workers — see
 * board.h. */
#include "proc/board.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/resource.h>

/* The mapping: nslot workers' counters, then the runner's. */
static _Atomic uint64_t *slots;
static int nslots;      /* the workers' and the runner's */
static int mine = -1;   /* the slot this process adds to */
static uint64_t base;   /* that slot's count when this process took it */
static uint64_t runner0; /* the runner's CPU when it opened the board */

uint64_t
mr_board_usage_ms(int who)
{
	struct rusage ru;

	if (getrusage(who, &ru) < 0)
		return 0;
	return (uint64_t)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000u +
	       (uint64_t)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000u;
}

int
mr_board_open(int nslot)
{
	void *p;

	mr_board_close();
	if (nslot < 1)
		return -EINVAL;
	p = mmap(NULL, (size_t)(nslot + 1) * sizeof *slots, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	slots = p;
	nslots = nslot + 1;
	for (int i = 0; i < nslots; i++)
		atomic_init(&slots[i], 0);
	mine = nslot; /* the runner's: what it used before is no run's */
	base = 0;
	runner0 = mr_board_usage_ms(RUSAGE_SELF);
	return 0;
}

void
mr_board_close(void)
{
	if (slots)
		munmap((void *)slots, (size_t)nslots * sizeof *slots);
	slots = NULL;
	nslots = 0;
	mine = -1;
}

void
mr_board_take(int slot)
{
	if (!slots || slot < 0 || slot >= nslots - 1)
		return;
	mine = slot;
	/* the slot's earlier workers are reaped: what they said stays said */
	base = atomic_load(&slots[slot]);
}

void
mr_board_say(uint64_t ms)
{
	uint64_t want, now;

	if (!slots || mine < 0)
		return;
	want = base + ms;
	now = atomic_load(&slots[mine]);
	/* only this process writes its slot: a plain compare is enough */
	if (want > now)
		atomic_store(&slots[mine], want);
}

void
mr_board_say_runner(void)
{
	uint64_t now = mr_board_usage_ms(RUSAGE_SELF);

	if (slots && mine == nslots - 1 && now >= runner0)
		mr_board_say(now - runner0);
}

int
mr_board_saying(void)
{
	return slots && mine >= 0;
}

uint64_t
mr_board_others(void)
{
	uint64_t sum = 0;

	for (int i = 0; slots && i < nslots; i++)
		if (i != mine)
			sum += atomic_load(&slots[i]);
	return sum;
}
