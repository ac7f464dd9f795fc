/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_visited.c - the stateful search's visited set: the 64-bit
 * hashes of the states seen (explore_state.c), shared by its workers.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "explore_stateful.h"

/* ---- Huge pages ----
 * The table is touched at random, one line per transition, and at 5 x 3
 * grows to 6 MB through 64 shards doubling six times: some 2,100 of the
 * search's 2,800 page faults with one worker, 4,900 with two (perf record
 * -e page-faults), and a fault of a 4 KB page costs about 7 us here (a
 * paravirtualized guest: 8% of the two-worker run's CPU in the kernel).
 * So the arrays a doubling makes come from mappings aligned to 2 MB
 * and advised MADV_HUGEPAGE (transparent huge pages in `madvise` mode,
 * Debian's default; elsewhere the advice is a no-op): a fault per 2 MB.
 * A table that never doubles maps nothing.  An array given back (the
 * old one of a doubling) is kept for the next shard to reach its size,
 * so the mappings hold at most about twice the table; they are unmapped
 * with it. */

static int log2_of(size_t n)
{
	return 63 - __builtin_clzll((unsigned long long)n);
}

static struct vchunk *chunk_of(const struct varena *a, const void *p)
{
	for (size_t i = 0; i < a->n; i++)
		if ((const char *)p >= a->c[i].base &&
		    (const char *)p < a->c[i].base + a->c[i].size)
			return &a->c[i];
	return NULL;
}

/* A mapping of SIZE bytes (a multiple of VT_HUGE) at a multiple of
 * VT_HUGE, or NULL. */
static void *map_huge(size_t size)
{
	size_t over = size + VT_HUGE;
	char *p = mmap(NULL, over, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	char *q = (char *)(((uintptr_t)p + VT_HUGE - 1) & ~(uintptr_t)(VT_HUGE - 1));
	if (q > p)
		munmap(p, (size_t)(q - p));
	if (q + size < p + over)
		munmap(q + size, (size_t)(p + over - (q + size)));
#ifdef MADV_HUGEPAGE
	(void)madvise(q, size, MADV_HUGEPAGE);
#endif
	return q;
}

/* N zeroed bytes (a power of two) for a shard's array; from the huge
 * mappings when HUGE (a doubling's). */
static void *vt_mem_alloc(struct vtable *t, size_t n, bool huge)
{
	struct varena *a = &t->mem;
	void *p = NULL;
	pthread_mutex_lock(&a->mu);
	int k = log2_of(n);
	if (a->freel[k]) {
		p = a->freel[k];
		a->freel[k] = *(void **)p;
		memset(p, 0, n);
		a->reused++;
	} else if (!huge) {
		p = calloc(1, n);
	} else {
		struct vchunk *c = a->n ? &a->c[a->n - 1] : NULL;
		if (!c || c->size - c->used < n) {
			size_t size = c && c->size * 2 > VT_HUGE ? c->size * 2 : VT_HUGE;
			while (size < n)
				size *= 2;
			c = GROW_PUSH(a->c, a->n, a->cap, 4);
			char *base = c ? map_huge(size) : NULL;
			if (!base) {
				pthread_mutex_unlock(&a->mu);
				return NULL;
			}
			*c = (struct vchunk){ .base = base, .size = size };
			a->n++;
		}
		p = c->base + c->used;  /* (fresh from the kernel: zero) */
		c->used += n;
	}
	pthread_mutex_unlock(&a->mu);
	return p;
}

/* P, N bytes from vt_mem_alloc, given back. */
static void vt_mem_free(struct vtable *t, void *p, size_t n)
{
	struct varena *a = &t->mem;
	if (!p)
		return;
	pthread_mutex_lock(&a->mu);
	if (chunk_of(a, p)) {
		int k = log2_of(n);
		*(void **)p = a->freel[k];
		a->freel[k] = p;
	} else {
		free(p);
	}
	pthread_mutex_unlock(&a->mu);
}

/* ---- the visited set: 64-bit hashes, grown in place ----
 * Shards by the hash's top bits, each an open-addressing table of its own
 * that doubles (rehashed by the worker that fills it, under the shard's
 * lock) when half full: the search goes on where it was, instead of
 * starting again in a bigger table.  With one worker nothing else touches
 * the table and no lock is taken; with several, an insert claims its slot
 * by compare-and-swap and takes no lock (vt_insert_cas).  A fixed size (opts.state_bits) is one
 * shard that never grows: full at 7/8, as before. */



int vt_alloc(struct vtable *t, int bits, int maxbits, bool grow,
	     int workers)
{
	int sb = grow ? VT_SHARD_BITS : 0;
	if (bits - sb < 4)
		sb = bits - 4 > 0 ? bits - 4 : 0;
	memset(t, 0, sizeof *t);
	pthread_mutex_init(&t->mem.mu, NULL);
	t->nsh = 1 << sb;
	t->shift = 64 - sb;
	t->workers = workers > 1 ? workers : 1;
	t->maxmask = (1ull << (maxbits - sb)) - 1;
	t->limit = (t->maxmask + 1) / 8 * 7;
	t->sh = aligned_alloc(64, sizeof *t->sh * (size_t)t->nsh);
	if (!t->sh)
		return -1;
	memset(t->sh, 0, sizeof *t->sh * (size_t)t->nsh);
	for (int i = 0; i < t->nsh; i++) {
		struct vshard *v = &t->sh[i];
		pthread_mutex_init(&v->mu, NULL);
		v->mask = (1ull << (bits - sb)) - 1;
		v->grow_at = v->mask < t->maxmask ? (v->mask + 1) / 2 : t->limit;
		if (!(v->slot = vt_mem_alloc(t, (v->mask + 1) * sizeof *v->slot, false)))
			return -1;
	}
	return 0;
}

void vt_free(struct vtable *t)
{
	for (int i = 0; t->sh && i < t->nsh; i++) {
		struct vshard *v = &t->sh[i];
		vt_mem_free(t, v->slot, (v->mask + 1) * sizeof *v->slot);
		vt_mem_free(t, v->own, (v->mask + 1) * sizeof *v->own);
		pthread_mutex_destroy(&v->mu);
	}
	free(t->sh);
	t->sh = NULL;
	for (size_t i = 0; i < t->mem.n; i++)
		munmap(t->mem.c[i].base, t->mem.c[i].size);
	free(t->mem.c);
	t->mem.c = NULL;
	t->mem.n = t->mem.cap = 0;
	memset(t->mem.freel, 0, sizeof t->mem.freel);
	pthread_mutex_destroy(&t->mem.mu);
}

/* Every shard empty again (its size kept). */
void vt_clear(struct vtable *t)
{
	for (int i = 0; i < t->nsh; i++) {
		memset(t->sh[i].slot, 0, sizeof *t->sh[i].slot * (t->sh[i].mask + 1));
		if (t->sh[i].own)
			memset(t->sh[i].own, 0, sizeof *t->sh[i].own * (t->sh[i].mask + 1));
		t->sh[i].n = 0;
	}
	for (int w = 0; w < MAX_WORKERS; w++)
		memset(t->busy[w].pend, 0, sizeof t->busy[w].pend);
}


/* The ranks beside the hashes, every shard's: 4 bytes a slot. */
int vt_own_on(struct vtable *t)
{
	for (int i = 0; i < t->nsh; i++)
		if (!(t->sh[i].own = vt_mem_alloc(t, (t->sh[i].mask + 1) *
						   sizeof *t->sh[i].own, false)))
			return -1;
	return 0;
}

/* Shard V at twice its size: every hash moved to its new home (with its
 * rank). */
static int vt_double(struct vtable *t, struct vshard *v)
{
	uint64_t m = v->mask * 2 + 1;
	uint64_t *n = vt_mem_alloc(t, (m + 1) * sizeof *n, true);
	uint32_t *no = v->own ? vt_mem_alloc(t, (m + 1) * sizeof *no, true) : NULL;
	if (!n || (v->own && !no)) {
		vt_mem_free(t, n, (m + 1) * sizeof *n);
		return -1;
	}
	for (uint64_t i = 0; i <= v->mask; i++) {
		uint64_t h = v->slot[i];
		if (!h)
			continue;
		uint64_t j = vt_home(h) & m;
		while (n[j])
			j = (j + 1) & m;
		n[j] = h;
		if (no)
			no[j] = v->own[i];
	}
	vt_mem_free(t, v->slot, (v->mask + 1) * sizeof *v->slot);
	vt_mem_free(t, v->own, (v->mask + 1) * sizeof *v->own);
	/* (atomic: vt_prefetch reads them without the lock) */
	__atomic_store_n(&v->own, no, __ATOMIC_RELAXED);
	__atomic_store_n(&v->slot, n, __ATOMIC_RELAXED);
	__atomic_store_n(&v->mask, m, __ATOMIC_RELAXED);
	__atomic_store_n(&v->grow_at, m < t->maxmask ? (m + 1) / 2 : t->limit,
			 __ATOMIC_RELAXED);
	return 0;
}

int vt_insert_in(struct vtable *t, struct vshard *v, uint64_t h)
{
	uint64_t i = vt_home(h) & v->mask;
	for (;;) {
		uint64_t x = v->slot[i];
		if (x == h)
			return 0;
		if (!x)
			break;
		i = (i + 1) & v->mask;
	}
	if (v->n >= v->grow_at) {
		if (v->mask >= t->maxmask)
			return -1;      /* at its largest, 7/8 full */
		if (vt_double(t, v) < 0)
			return -2;
		for (i = vt_home(h) & v->mask; v->slot[i]; i = (i + 1) & v->mask)
			;
	}
	v->slot[i] = h;
	v->n++;
	return 1;
}



/* Several workers (t->workers > 1): each insert announces its shard in the
 * worker's own line of t->busy and claims an empty slot by
 * compare-and-swap; the worker that fills the shard doubles it under the
 * mutex, with `resizing` set, once no insert is under way in it.  Either
 * the inserter sees `resizing` or the doubler sees its announcement
 * (both sequentially consistent), so no insert lands in a table being
 * moved, and a hash is new to exactly one worker.  With ranks, each is
 * lowered to RANK (+ 1) by compare-and-swap by every worker that finds
 * the hash (*TAKE: it lowered it), and written, a plain store, by the
 * worker it is new to.  That store may land after another worker found
 * the hash, took it as kept by none and wrote a lesser rank: the rank
 * kept is then higher than the least that visited the state.  That is
 * sound: a rank kept is always one that visited, so a search that stops
 * at a rank no greater than its own still stops only where a search of
 * a lesser or equal rank went (explore_sleep.c's proof); a rank too high
 * only makes a later search of a rank between expand the state again.
 * The race is a few instructions wide; a compare-and-swap there, a
 * locked operation on a line the other worker may hold, was a fifth of
 * this function's time with two workers (perf annotate, 5 x 3 v6.5).
 * No worker waits for another. */
static bool own_lower(uint32_t *o, uint32_t rank)
{
	uint32_t x = __atomic_load_n(o, __ATOMIC_RELAXED);
	while (!x || x > rank + 1)
		if (__atomic_compare_exchange_n(o, &x, rank + 1, false,
						__ATOMIC_RELAXED, __ATOMIC_RELAXED))
			return true;
	return false;
}

static int vt_grow_shared(struct vtable *t, struct vshard *v)
{
	int rc = 0, idx = (int)(v - t->sh) + 1;
	pthread_mutex_lock(&v->mu);
	if (__atomic_load_n(&v->n, __ATOMIC_RELAXED) >= v->grow_at &&
	    v->mask < t->maxmask) {
		__atomic_store_n(&v->resizing, 1, __ATOMIC_SEQ_CST);
		for (int w = 0; w < MAX_WORKERS; w++)
			while (__atomic_load_n(&t->busy[w].shard, __ATOMIC_SEQ_CST) == idx)
				sched_yield();
		rc = vt_double(t, v);
		__atomic_store_n(&v->resizing, 0, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&v->mu);
	return rc;
}

int vt_insert_cas(struct vtable *t, struct vshard *v, uint64_t h, int wid,
		  uint32_t rank, bool *take)
{
	int idx = (int)(v - t->sh) + 1;
	int *busy = &t->busy[wid].shard;
	for (;;) {
		__atomic_store_n(busy, idx, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&v->resizing, __ATOMIC_SEQ_CST))
			break;
		/* being doubled: wait for it to end */
		__atomic_store_n(busy, 0, __ATOMIC_RELEASE);
		pthread_mutex_lock(&v->mu);
		pthread_mutex_unlock(&v->mu);
	}
	uint64_t *slot = __atomic_load_n(&v->slot, __ATOMIC_RELAXED);
	uint32_t *own = __atomic_load_n(&v->own, __ATOMIC_RELAXED);
	uint64_t mask = __atomic_load_n(&v->mask, __ATOMIC_RELAXED);
	uint64_t i = vt_home(h) & mask;
	int r = 1;
	for (;;) {
		uint64_t x = __atomic_load_n(&slot[i], __ATOMIC_RELAXED);
		if (x == h) {
			r = 0;
			if (take)
				*take = own_lower(&own[i], rank);
			break;
		}
		if (!x) {
			if (mask >= t->maxmask &&
			    __atomic_load_n(&v->n, __ATOMIC_RELAXED) >= t->limit) {
				r = -1;         /* at its largest, 7/8 full */
				break;
			}
			if (__atomic_compare_exchange_n(&slot[i], &x, h, false,
							__ATOMIC_RELAXED,
							__ATOMIC_RELAXED)) {
				if (take)
					__atomic_store_n(&own[i], rank + 1,
							 __ATOMIC_RELAXED);
				break;
			}
			if (x == h) {           /* another worker's, just now */
				r = 0;
				if (take)
					*take = own_lower(&own[i], rank);
				break;
			}
		}
		i = (i + 1) & mask;
	}
	__atomic_store_n(busy, 0, __ATOMIC_RELEASE);
	if (r != 1)
		return r;
	/* The shard's count, every worker's line: added to once a batch of
	 * the worker's own new hashes, not at each (with two workers the
	 * add found the line in the other CPU's cache about every second
	 * time).  A batch is at most an eighth of the shard's slots over
	 * the workers, so the hashes not yet counted are under an eighth of
	 * the slots: a shard that can grow doubles at most 5/8 full, one
	 * at its largest (a batch of 1: counted at once) fills no more than
	 * 15/16 (its 7/8 limit and those left from when it was half its
	 * size) and never every slot, which the probe above needs. */
	uint64_t k = 1;
	if (t->nsh > 1) {
		uint16_t *p = &t->busy[wid].pend[idx - 1];
		uint64_t b = mask < t->maxmask ?
			     (mask + 1) / (8 * (uint64_t)t->workers) : 1;
		if ((uint64_t)*p + 1 < (b < VT_BATCH ? b : VT_BATCH)) {
			++*p;
			return 1;
		}
		k += *p;
		*p = 0;
	}
	if (__atomic_add_fetch(&v->n, k, __ATOMIC_RELAXED) >=
	    __atomic_load_n(&v->grow_at, __ATOMIC_RELAXED) &&
	    __atomic_load_n(&v->mask, __ATOMIC_RELAXED) < t->maxmask &&
	    vt_grow_shared(t, v) < 0)
		return -2;
	return 1;
}
