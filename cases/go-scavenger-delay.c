/* go-scavenger-delay: up to Go 1.12 a freed span went back to the kernel
 * only after five minutes unused, found by a scavenge every 2.5 minutes:
 * RSS stayed at its peak for 7.5 minutes after the heap shrank.
 *
 * Source: golang/go#16930, "runtime: make the scavenger more prompt"
 * (Austin Clements, 2016-08-30): "there's a lag of at least five minutes
 * (and potentially much longer) between the Go heap size shrinking and the
 * process' RSS shrinking"; fixed in Go 1.13 by the paced background
 * scavenger of golang/go#30333 ("smarter scavenging", 2019-02-20: "it
 * takes a very long time (on the order of minutes) to return that
 * unneeded memory").  #16930 has no measurement of its own; the
 * best-measured report of that lag in the tracker is golang/go#8832
 * (2014-09-29, Go tip, linux/amd64), chosen because it printed RSS at a
 * fixed interval across the whole wait:
 *   the reporter, `ps u` every 10 seconds: RSS 258,096 KB at first,
 *   258,792 KB "9 minutes later", then "the scavenger frees the memory":
 *   48,776 KB ("It will immediately use 250 MB of RES memory. After about
 *   10 minutes, the scavenger will free 205 MB, showing about 45MB");
 *   Keith Randall (2015-02-09, Go tip), "one line per minute": 255,968,
 *   255,972 (x4), 255,980 (x3) KB, then 46,144 KB from the ninth line on.
 * (The report's other complaint, RSS creeping back up afterwards, was a
 * kernel bug and is not modelled.)
 *
 * In one sentence: the old scavenger returned only spans that had been
 * unused for five minutes, and looked for them every two and a half
 * minutes, so a heap that shrank right after a scavenge kept its pages
 * resident for 7.5 minutes; Go 1.13's scavenger returns them within
 * seconds, paced.
 *
 * Mechanism, after Go 1.4-1.12 (runtime/proc.go sysmon, mheap.go
 * scavenge and freeSpanLocked; read, not copied): sysmon forces a GC
 * when none ran for forcegcperiod (2 minutes), and when 2.5 minutes
 * (scavengelimit / 2) have passed since its last scavenge it calls
 * mheap.scavenge(now, limit = 5 minutes), which madvises (MADV_DONTNEED
 * before Go 1.12) every free span whose unusedsince is more than limit
 * ago.  A span freed by the sweep gets unusedsince = now; coalesced with
 * a free neighbour, the run takes the newest time.  So memory freed at t
 * leaves RSS at the first scavenge after t + 5 min: sysmon's scavenges at
 * 2.5, 5, 7.5 minutes after start find a span freed at start 2.5, 5 (not
 * more than 5) and 7.5 minutes old, and return it at 7.5 minutes: the
 * ninth of Keith Randall's one-minute lines.  From Go 1.13 the background
 * scavenger (mgcscavenge.go) runs after every GC towards a goal of 10 %
 * over the heap in use, paced; the pace golang/go#36218 tried for Go
 * 1.14 ("I tried one (runtime) page per millisecond", which fixed that
 * issue's regression) is 7.8 MiB a second: 205 MB go back in half a
 * minute.
 *
 * What is modelled (lib/mr_goheap.c: 64 MiB arenas, 8 KiB pages, spans,
 * sysUnused):
 *  - at model time 0 (the process's start, when sysmon starts), the
 *    burst: heap_mb MiB of spans of span_kb, written whole; at freed_at_s
 *    (default 0) a GC that leaves kept_mb of them in use and frees the
 *    rest (the report's program: 250 MB of RES at once, 45 MB after);
 *  - then the program idles for minutes, its clock ticking in steps of
 *    TICK_S model seconds; every minute a checkpoint min-N, N minutes
 *    after the start (the report's lines: min-0 is its first);
 *  - scavenger=sysmon (Go 1.4-1.12): sysmon's forced GC every 120 s and
 *    its scavenge every 150 s with the 300 s limit, as above (sysmon
 *    polls every 10 ms at most, so its scavenges fall 150, 300, 450 s
 *    after the start to within milliseconds: here exactly; a span is
 *    returned when more than 300 s old, so not at 300 s);
 *    scavenger=paced (Go 1.13 on): after the GC, 1,000 pages (8 KiB each)
 *    per model second returned until the heap retains at most 110 % of
 *    what is in use.
 *  madvise=dontneed (the default: Go <= 1.11, and Go 1.16 on) or free (Go
 *  1.12-1.15; then RSS never falls here, see go-scavenger.c).
 *
 * Time is scaled: a model second lasts second_us microseconds (default
 * 2,000: the report's ten minutes pass in 1.2 s; quick 100, 0.06 s).  The
 * report's own clock (1,000,000) would make one run last ten minutes and
 * the full matrix (2 scavengers x 4 allocators x 3 repeats) four hours,
 * beyond any suite; the scavenger's rules are kept in model seconds at the
 * report's values (120, 150, 300 s), so the minute at which RSS falls does
 * not depend on the scaling, only the wall time does.  Claims are on the
 * memory at each minute, never on time.
 *
 * Left out: goroutine stacks (the report's memory was freed goroutines'
 * stacks, which the heap holds as spans as well: modelled as spans), the
 * GCs of the burst itself, size classes, the heap-growth scavenging of Go
 * 1.12, what else the runtime holds (the report's ~45 MB after is taken
 * as kept_mb).  The case's heap is its own mmap, so the allocator axis
 * and the THP mode do not change it (the freed spans are whole aligned
 * runs; see go-scavenger.c on huge pages).
 */
#include "mr_case.h"
#include "mr_ckpt.h"
#include "mr_goheap.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static const struct mr_param params[] = {
	{ "scavenger", "sysmon", NULL, "sysmon|paced", "sysmon|paced",
	  "which scavenger returns the free heap: sysmon's 5-minute rule (Go 1.4-1.12), the paced background scavenger (Go 1.13 on)" },
	{ "madvise", "dontneed", NULL, "free|dontneed", NULL,
	  "how pages are returned: MADV_DONTNEED (Go <= 1.11, 1.16 on), MADV_FREE (Go 1.12-1.15)" },
	/* quick: 24 and 4 MiB keep the ratios of the claims (the drop is
	 * 5/6 of the burst either way) */
	{ "heap_mb", "250", "24", "int:1..8192", NULL,
	  "MiB the burst allocates (report: \"250 MB of RES\", 258,096 KB)" },
	{ "kept_mb", "45", "4", "int:0..8192", NULL,
	  "MiB of it still in use after the GC (report: \"about 45MB\" of RES after, 48,776 KB)" },
	{ "span_kb", "32", NULL, "int:8..65536", NULL,
	  "size of each span in KiB (not in the report)" },
	{ "minutes", "10", NULL, "int:1..15", NULL,
	  "model minutes the program idles after the burst (report: about 10)" },
	{ "freed_at_s", "0", NULL, "int:0..895", NULL,
	  "model second at which the GC frees the burst (report: not said; 0: at once)" },
	{ "second_us", "2000", "100", "int:1..1000000", NULL,
	  "real microseconds per model second (the report's: 1000000; see the header)" },
	{ 0 }
};

/* One checkpoint per model minute, up to the largest minutes allowed. */
static const struct mr_checkpoint_desc checkpoints[] = {
	{ "start", "before the burst" },
	{ "min-0", "the burst done and collected: the heap has shrunk (the report's first line)" },
	{ "min-1", "1 minute later" }, { "min-2", "2 minutes later" },
	{ "min-3", "3 minutes later" }, { "min-4", "4 minutes later" },
	{ "min-5", "5 minutes later" }, { "min-6", "6 minutes later" },
	{ "min-7", "7 minutes later" }, { "min-8", "8 minutes later" },
	{ "min-9", "9 minutes later" }, { "min-10", "10 minutes later" },
	{ "min-11", "11 minutes later" }, { "min-12", "12 minutes later" },
	{ "min-13", "13 minutes later" }, { "min-14", "14 minutes later" },
	{ "min-15", "15 minutes later" },
	{ 0 }
};

static const struct mr_case desc = {
	.name = "go-scavenger-delay",
	.title = "Go <= 1.12's scavenger: RSS stays at its peak for 7.5 minutes after the heap shrinks",
	.source = "golang/go#16930 (\"a lag of at least five minutes\", fixed in Go 1.13 by #30333), "
		  "figures of #8832: RSS 258,096 KB, 258,792 KB 9 minutes later, then 48,776 KB; "
		  "one line per minute: 255,968 KB for 8 lines, 46,144 KB from the ninth",
	.params = params,
	.checkpoints = checkpoints,
	.timeout_s = 120,
	.mechanism = "purging",
};

/* Model seconds per step of the clock: every rule of both scavengers
 * falls on a multiple of it (120, 150, 300 s, whole minutes). */
#define TICK_S 5
#define FORCEGC_PERIOD_S 120   /* proc.go forcegcperiod */
#define SCAVENGE_LIMIT_S 300   /* proc.go scavengelimit */
#define PACED_PAGES_PER_S 1000 /* one 8 KiB page per millisecond (Go 1.14) */
#define RETAIN_EXTRA_PERCENT 10

/* The GC that finds all but the first nkept spans dead, at model time t. */
static void gc_free(struct mr_goheap *h, void **roots, size_t nkept, size_t nspans,
		    size_t span_pages, unsigned t, unsigned *gcs)
{
	size_t i;

	for (i = nkept; i < nspans; i++) {
		mr_goheap_free(h, roots[i], span_pages, t);
		roots[i] = NULL;
	}
	(*gcs)++;
}

static void sleep_us(unsigned long long us)
{
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	struct mr_goheap heap;
	size_t span_pages, nspans, nkept, i, roots_len;
	unsigned minutes, freed_at, t, last_scavenge = 0, last_gc = 0, gcs = 0;
	unsigned long long tick_us;
	uint64_t released_at_min[16] = { 0 };
	void **roots;
	int paced;
	char line[512];
	int n;

	mr_case_init(&desc, argc, argv);
	span_pages = ((size_t)mr_param_int("span_kb") * 1024 + MR_GO_PAGE - 1) / MR_GO_PAGE;
	if (span_pages > MR_GO_ARENA_PAGES)
		mr_usage("span_kb=%lld is larger than an arena (%zu KiB)",
			 mr_param_int("span_kb"), MR_GO_ARENA >> 10);
	nspans = ((size_t)mr_param_int("heap_mb") << 20) / (span_pages * MR_GO_PAGE);
	nkept = ((size_t)mr_param_int("kept_mb") << 20) / (span_pages * MR_GO_PAGE);
	if (nspans == 0)
		mr_usage("heap_mb=%lld holds no span of span_kb=%lld",
			 mr_param_int("heap_mb"), mr_param_int("span_kb"));
	if (nkept > nspans)
		mr_usage("kept_mb=%lld is more than heap_mb=%lld",
			 mr_param_int("kept_mb"), mr_param_int("heap_mb"));
	minutes = (unsigned)mr_param_int("minutes");
	freed_at = (unsigned)mr_param_int("freed_at_s");
	if (freed_at % TICK_S || freed_at >= minutes * 60)
		mr_usage("freed_at_s=%u must be a multiple of %d below minutes=%u x 60",
			 freed_at, TICK_S, minutes);
	tick_us = (unsigned long long)mr_param_int("second_us") * TICK_S;
	paced = mr_param_is("scavenger", "paced");

	mr_goheap_init(&heap, mr_param_is("madvise", "free") ? MADV_FREE : MADV_DONTNEED);
	roots_len = nspans * sizeof *roots;
	roots = mmap(NULL, roots_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (roots == MAP_FAILED)
		mr_fail("mmap of %zu roots:", nspans);
	mr_checkpoint("start");

	/* The burst at t = 0; the GC that finds all but kept_mb dead at
	 * freed_at_s. */
	for (i = 0; i < nspans; i++) {
		roots[i] = mr_goheap_alloc(&heap, span_pages);
		memset(roots[i], (int)(i % 251) + 1, span_pages * MR_GO_PAGE);
	}
	mr_keep(roots[nspans - 1]);
	if (freed_at == 0)
		gc_free(&heap, roots, nkept, nspans, span_pages, 0, &gcs);
	mr_checkpoint("min-0");

	for (t = TICK_S; t <= minutes * 60; t += TICK_S) {
		sleep_us(tick_us);
		if (t == freed_at) {
			gc_free(&heap, roots, nkept, nspans, span_pages, t, &gcs);
			last_gc = t;
		}
		if (paced) {
			/* bgscavenge, woken by the GC: towards the goal, at its pace */
			uint64_t goal = heap.inuse_pages * (100 + RETAIN_EXTRA_PERCENT) / 100;
			uint64_t retained = heap.inuse_pages + heap.free_pages;

			if (retained > goal) {
				uint64_t budget = (uint64_t)PACED_PAGES_PER_S * TICK_S;

				(void)mr_goheap_scavenge(&heap, retained - goal < budget ? retained - goal : budget, t, 0);
			}
		} else {
			/* sysmon */
			if (t - last_gc >= FORCEGC_PERIOD_S) {
				gcs++;            /* forced GC: nothing more is dead */
				last_gc = t;
			}
			if (t - last_scavenge >= SCAVENGE_LIMIT_S / 2) {
				(void)mr_goheap_scavenge(&heap, 0, t, SCAVENGE_LIMIT_S + 1);
				last_scavenge = t;
			}
		}
		if (t % 60 == 0) {
			char name[8] = "min-";
			unsigned m = t / 60;

			if (m >= 10) {
				name[4] = (char)('0' + m / 10);
				name[5] = (char)('0' + m % 10);
			} else {
				name[4] = (char)('0' + m);
			}
			released_at_min[m] = heap.released_pages;
			mr_checkpoint(name);
		}
	}

	n = snprintf(line, sizeof line,
		     "go-scavenger-delay: scavenger=%s madvise=%s: %zu MiB allocated, %zu kept, "
		     "%u GCs, %llu madvise calls; HeapReleased at minutes 0..%u:",
		     mr_param("scavenger"), mr_param("madvise"),
		     nspans * span_pages * MR_GO_PAGE >> 20, nkept * span_pages * MR_GO_PAGE >> 20,
		     gcs, (unsigned long long)heap.madvise_calls, minutes);
	for (t = 1; t <= minutes && n > 0 && (size_t)n < sizeof line - 16; t++)
		n += snprintf(line + n, sizeof line - (size_t)n, " %llu",
			      (unsigned long long)(released_at_min[t] * MR_GO_PAGE >> 20));
	if (n > 0 && (size_t)n < sizeof line - 1) {
		line[n++] = '\n';
		(void)!write(1, line, (size_t)n);
	}
	munmap(roots, roots_len);
	return MR_EXIT_OK;
}
