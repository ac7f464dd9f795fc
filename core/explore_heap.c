/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_heap.c - the explorers' heap on huge pages.
 *
 * A search allocates its worlds (13 KB each, most of it the detectors'), its
 * levels and checkpoints as it goes deeper, then copies into them; the
 * first touch of every 4 KB page of them is a page fault, and on this
 * project's machines (paravirtualized guests) one costs about 7 us.  A 3x3
 * v6.5 proof by plain `explore` took 1,499 faults for 3,584 states: more
 * than half of its 25 ms of CPU (perf stat -e page-faults,task-clock
 * build/explore-bench -k v6.5 -t 3 -c 3 -f 30 -p 2 -F).  So before a
 * search the heap is grown by HEAP_PAD at once and the growth advised
 * MADV_HUGEPAGE (transparent huge pages in `madvise` mode, Debian's
 * default): a fault per 2 MB.  glibc's malloc is told to keep what it
 * frees (no trim below 2 x HEAP_PAD), to serve blocks up to HEAP_PAD from
 * the heap rather than from mappings of their own, and to keep one arena,
 * so that the workers' buffers come from the advised heap too (their
 * allocations are few: buffers are kept and reused).  What `GLIBC_TUNABLES=
 * glibc.malloc.hugetlb=1` does, asked for by the program.  Under a
 * sanitizer or valgrind, whose malloc is not glibc's, the heap does not
 * grow and nothing is advised; without transparent huge pages the advice
 * fails and the rest is harmless.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include "explore_int.h"

#define HEAP_PAD ((size_t)32 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

static pthread_mutex_t heap_mu = PTHREAD_MUTEX_INITIALIZER;
static bool tuned;              /* malloc told, the heap grown */
static uintptr_t heap_to;       /* advised up to here */

void xheap_huge(void)
{
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE) && defined(M_ARENA_MAX)
	pthread_mutex_lock(&heap_mu);
	if (!tuned) {
		mallopt(M_MMAP_THRESHOLD, (int)HEAP_PAD);
		mallopt(M_TOP_PAD, (int)HEAP_PAD);
		mallopt(M_TRIM_THRESHOLD, (int)(2 * HEAP_PAD));
		mallopt(M_ARENA_MAX, 1);
		tuned = true;
		heap_to = (uintptr_t)sbrk(0);
		/* (volatile: a malloc freed at once may be left out) */
		void *volatile p = malloc(HEAP_PAD / 2);
		free(p);
	}
	/* the heap grown since: advised too (what brk adds after the
	 * advice is an area of its own, without it) */
	uintptr_t end = (uintptr_t)sbrk(0);
	uintptr_t a = (heap_to + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t b = end & ~(HUGE_PAGE - 1);
	if (b > a && madvise((void *)a, b - a, MADV_HUGEPAGE) == 0)
		heap_to = b;
	pthread_mutex_unlock(&heap_mu);
#endif
}
