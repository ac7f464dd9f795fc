/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_visited.h - the stateful search's visited set
 * (explore_visited.c): the hashes of the states seen, in shards grown in
 * place, shared by the workers, and with several workers and sleep sets
 * each state's rank (explore_sleep.c).
 */
#ifndef VFSIM_EXPLORE_VISITED_H
#define VFSIM_EXPLORE_VISITED_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include "explore_int.h"

/* ---- the visited set (explore_visited.c) ---- */

#define VT_SHARD_BITS 6                 /* 64 shards when growing */

struct vshard {
	pthread_mutex_t mu;             /* (jobs > 1) held while it doubles */
	uint64_t *slot;
	uint32_t *own;                  /* (vt_own_on) beside each slot, the
					 * least rank that visited its state,
					 * + 1 (0: not yet written) */
	uint64_t mask;
	uint64_t grow_at;               /* doubled past grow_at entries */
	int resizing;                   /* (jobs > 1) atomic: being doubled */
	/* entries: a line of its own, since every insert of a new hash
	 * writes it while every insert reads the line above (with both
	 * on one line, the other worker's next insert there missed:
	 * perf annotate of vt_insert_cas, two workers) */
	uint64_t n __attribute__((aligned(64)));
} __attribute__((aligned(64)));         /* (lines of its own: no false sharing) */

/* A worker's new hashes not yet added to their shard's count, at most
 * VT_BATCH a shard (vt_insert_cas) */
#define VT_BATCH 32

struct vbusy {                          /* a worker's insert under way */
	int shard;                      /* atomic: its shard + 1, or 0 */
	/* its new hashes not yet in each shard's n: written and read by
	 * its worker only */
	uint16_t pend[1 << VT_SHARD_BITS];
} __attribute__((aligned(64)));         /* (lines of its own) */

/* Where the arrays of the shards' doublings live (explore_visited.c,
 * "Huge pages"): mappings aligned to 2 MB that the kernel may back with
 * huge pages, carved from the front; an array given back is kept for the
 * next of its size. */
#define VT_HUGE ((size_t)2 << 20)
struct vchunk {
	char *base;
	size_t size, used;
};
struct varena {
	pthread_mutex_t mu;             /* (shards double concurrently) */
	struct vchunk *c;
	size_t n, cap;
	void *freel[64];                /* arrays given back, by log2 of size */
	uint64_t reused;                /* (tests) arrays given back, taken again */
};

struct vtable {
	struct vshard *sh;
	struct varena mem;
	int nsh, shift;                 /* shard = h >> shift (nsh > 1) */
	int workers;                    /* how many insert (several: by
					 * compare-and-swap, vt_insert_cas) */
	uint64_t maxmask;               /* a shard's largest mask */
	uint64_t limit;                 /* entries per shard at most */
	struct vbusy busy[MAX_WORKERS];
};

/* WORKERS: how many insert (more than one: vt_insert_cas) */
int vt_alloc(struct vtable *t, int bits, int maxbits, bool grow, int workers);
void vt_free(struct vtable *t);
void vt_clear(struct vtable *t);
int vt_insert_in(struct vtable *t, struct vshard *v, uint64_t h);
int vt_insert_cas(struct vtable *t, struct vshard *v, uint64_t h, int wid,
		  uint32_t rank, bool *take);
/* Sleep sets with several workers (explore_sleep.c, "With several
 * workers"): beside each hash, the least rank (the frontier
 * item of the search) that visited its state. */
int vt_own_on(struct vtable *t);

static inline uint64_t vt_home(uint64_t h)
{
	return h ^ (h >> 29);
}

/* Shard V's entries: its count and the workers' hashes not yet in it. */
static inline uint64_t vt_entries(const struct vtable *t, const struct vshard *v)
{
	uint64_t n = v->n;
	for (int w = 0; t->nsh > 1 && w < MAX_WORKERS; w++)
		n += t->busy[w].pend[v - t->sh];
	return n;
}

/* Bring H's home slot into the cache: the search looks it up after the
 * state's other successors are made.  Without the lock (a worker may be
 * doubling the shard: a stale address is only a wasted prefetch, which
 * never faults). */
static inline void vt_prefetch(const struct vtable *t, uint64_t h)
{
	const struct vshard *v = &t->sh[t->nsh > 1 ? h >> t->shift : 0];
	uintptr_t slot = (uintptr_t)__atomic_load_n(&v->slot, __ATOMIC_RELAXED);
	uint64_t mask = __atomic_load_n(&v->mask, __ATOMIC_RELAXED);
	__builtin_prefetch((const void *)(slot + (vt_home(h) & mask) * 8));
	/* (and its rank's, kept: read too when the hash is found) */
	uintptr_t own = (uintptr_t)__atomic_load_n(&v->own, __ATOMIC_RELAXED);
	if (own)
		__builtin_prefetch((const void *)(own + (vt_home(h) & mask) * 4));
}

/* Worker WID inserts H: 1: new, 0: seen, -1: full, -2: out of memory.
 * Several workers insert by compare-and-swap into the slot, the shard's
 * mutex only to double it (explore_visited.c). */
static inline int vt_insert(struct vtable *t, uint64_t h, int wid)
{
	struct vshard *v = &t->sh[t->nsh > 1 ? h >> t->shift : 0];
	if (t->workers < 2)
		return vt_insert_in(t, v, h);
	return vt_insert_cas(t, v, h, wid, 0, NULL);
}

/* The same with the ranks kept (vt_own_on, several workers): H reached
 * by a search of rank RANK, kept as its state's when less than the one
 * kept (a compare-and-swap); *TAKE: seen, and RANK is less than every
 * rank kept so far (the state is this search's to expand again). */
static inline int vt_insert_own(struct vtable *t, uint64_t h, int wid,
				uint32_t rank, bool *take)
{
	struct vshard *v = &t->sh[t->nsh > 1 ? h >> t->shift : 0];
	*take = false;
	return vt_insert_cas(t, v, h, wid, rank, take);
}

#endif
