/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_state.c - the stateful search (`explore stateful`): every
 * distinct state of the world once, as SPIN does, instead of every
 * execution.  It proves the absence of violations; it does not count
 * executions or outcomes (the DPOR search does, core/explore_search.c).
 *
 * The canonical state: what determines the future and the checked
 * properties, nothing that only records history.  Threads (state, lock
 * wait, frame: pc and locals, held locks, the function stack, the pending
 * calls, the call in progress), processes, fd tables, files (f_pos,
 * f_count, cursor, f_mode, both locks with their FIFO queues), inodes (the
 * tree, dead flags, sizes, data, i_rwsem), the allocation counters, and
 * for the detectors: per pass of an open directory, which offsets were
 * handed out (given, not given, or before the pass: duplicates are then
 * decided by the state), and lockdep's order graph (edges, reports made,
 * handoffs).  Not in it: w->step, w->seq, call_seq, statistics, the call
 * record's results (entries, return value), the receivers and steps of
 * the pass entries, vector clocks, shadows and reports.
 *
 * Violations are properties of transitions and states: a step whose
 * detector counts grew (duplicate, dead-directory iteration, skipped,
 * lock order), a state where every live thread with work is blocked
 * (deadlock), and races (below).  A transition is a function of the
 * canonical state and the thread, so checking each transition of each
 * visited state once checks every execution.
 *
 * Races: the vector clocks of core/race.c depend on the history, not the
 * state.  Instead, at each fully expanded state, the steps of every two
 * enabled threads are compared: same field of one object, at least one
 * write (with core/race.c's exclusions: atomics, f_count, the fd table,
 * reads of data and size), and no lock held by both at the accesses with
 * one of them holding it exclusively.  Both steps are enabled, so either
 * can run right after the other with nothing in between: nothing orders
 * them, which is what the vector clocks report.  Conversely the first race
 * of an execution (in vector-clock happens-before) can be brought next to
 * its partner by moving the unordered steps after it, so some reachable
 * state has both enabled; this holds as far as the happens-before of
 * core/race.c covers every dependency (it ignores the FIFO of lock queues
 * and atomics, as the DPOR footprints do not).  Steps taken alone by the
 * reduction touch nothing shared, so every pair is compared at the next
 * fully expanded state with the same steps.
 *
 * Hashing: the canonical state is serialised into a buffer (used slots
 * only) and hashed to 64 bits; the visited set keeps the hashes only
 * (hash compaction, as SPIN's -DHC): two distinct states collide with
 * probability about n^2 / 2^65 for n states, reported in the result.
 *
 * Reduction: at each state, the enabled threads are tried in index order;
 * the first whose step is local (no lock operation, no access to a field,
 * no entry handed out, no allocation, no entry into an iterator: no trace
 * event a detector or DPOR footprint would see) is taken alone, without
 * branching: it commutes with every step of every other thread and is
 * invisible to the properties (an ample set of one transition, as SPIN's
 * partial-order reduction does for local transitions).  The cycle proviso
 * holds trivially: every call terminates and a step never returns a
 * thread to an earlier state, so the state graph is acyclic; the search
 * checks it (a transition back to a state on the depth-first stack is an
 * error, XCUT_ERROR), exactly with one worker, on each worker's own stack
 * with more.
 *
 * Search: depth first; the successors of a state are made by copying it
 * and stepping the copy (no copy back: the state of the next level is its
 * parent's successor buffer).  The choice of the ample set depends on the
 * state only, so the reduced graph, its number of states and transitions
 * do not depend on the order of the search or on the number of workers.
 *
 * Parallel: a breadth-first top (SPLIT states, whatever jobs is) gives
 * the frontier; workers take frontier states in order and search below
 * them depth first, sharing the visited set (shards of open-addressing
 * tables of hashes, a lock each, grown in place by the worker that fills
 * one).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "explore_int.h"
#include "internal.h"

#define ABORT_FULL 1
#define ABORT_ERROR 2
#define ABORT_FIRST 3           /* opts.first: a violation was found */
#define ABORT_MAX 4             /* opts.max states were visited */
#define SPLIT_PER_JOB 8         /* frontier states per worker */
#define MAXACC 12               /* checked accesses recorded per step */
#define MAX_WORKERS 64

/* ---- the visited set: 64-bit hashes, grown in place ----
 * Shards by the hash's top bits, each an open-addressing table of its own
 * that doubles (rehashed by the worker that fills it, under the shard's
 * lock) when half full: the search goes on where it was, instead of
 * starting again in a bigger table.  With one worker nothing else touches
 * the table and no lock is taken.  A fixed size (opts.state_bits) is one
 * shard that never grows: full at 7/8, as before. */

#define VT_SHARD_BITS 6                 /* 64 shards when growing */

struct vshard {
	pthread_mutex_t mu;             /* (jobs > 1) the slots and n */
	uint64_t *slot;
	uint64_t mask;
	uint64_t n, grow_at;            /* entries; doubled past grow_at */
} __attribute__((aligned(64)));         /* (a line each: no false sharing) */

struct vtable {
	struct vshard *sh;
	int nsh, shift;                 /* shard = h >> shift (nsh > 1) */
	bool locked;                    /* more than one worker inserts */
	uint64_t maxmask;               /* a shard's largest mask */
	uint64_t limit;                 /* entries per shard at most */
};

static int vt_alloc(struct vtable *t, int bits, int maxbits, bool grow,
		    bool locked)
{
	int sb = grow ? VT_SHARD_BITS : 0;
	if (bits - sb < 4)
		sb = bits - 4 > 0 ? bits - 4 : 0;
	memset(t, 0, sizeof *t);
	t->nsh = 1 << sb;
	t->shift = 64 - sb;
	t->locked = locked;
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
		if (!(v->slot = calloc(v->mask + 1, sizeof *v->slot)))
			return -1;
	}
	return 0;
}

static void vt_free(struct vtable *t)
{
	for (int i = 0; t->sh && i < t->nsh; i++) {
		free(t->sh[i].slot);
		pthread_mutex_destroy(&t->sh[i].mu);
	}
	free(t->sh);
	t->sh = NULL;
}

/* Every shard empty again (its size kept). */
static void vt_clear(struct vtable *t)
{
	for (int i = 0; i < t->nsh; i++) {
		memset(t->sh[i].slot, 0, sizeof *t->sh[i].slot * (t->sh[i].mask + 1));
		t->sh[i].n = 0;
	}
}

static inline uint64_t vt_home(uint64_t h)
{
	return h ^ (h >> 29);
}

/* Shard V at twice its size: every hash moved to its new home. */
static int vt_double(struct vtable *t, struct vshard *v)
{
	uint64_t m = v->mask * 2 + 1;
	uint64_t *n = calloc(m + 1, sizeof *n);
	if (!n)
		return -1;
	for (uint64_t i = 0; i <= v->mask; i++) {
		uint64_t h = v->slot[i];
		if (!h)
			continue;
		uint64_t j = vt_home(h) & m;
		while (n[j])
			j = (j + 1) & m;
		n[j] = h;
	}
	free(v->slot);
	/* (atomic: vt_prefetch reads them without the lock) */
	__atomic_store_n(&v->slot, n, __ATOMIC_RELAXED);
	__atomic_store_n(&v->mask, m, __ATOMIC_RELAXED);
	v->grow_at = m < t->maxmask ? (m + 1) / 2 : t->limit;
	return 0;
}

static int vt_insert_in(struct vtable *t, struct vshard *v, uint64_t h)
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
}

/* 1: new, 0: seen, -1: full, -2: out of memory */
static int vt_insert(struct vtable *t, uint64_t h)
{
	struct vshard *v = &t->sh[t->nsh > 1 ? h >> t->shift : 0];
	if (!t->locked)
		return vt_insert_in(t, v, h);
	pthread_mutex_lock(&v->mu);
	int r = vt_insert_in(t, v, h);
	pthread_mutex_unlock(&v->mu);
	return r;
}

/* ---- serialisation and hashing ---- */

struct sbuf {
	uint8_t *p;
	size_t n, cap;
};

static inline void put(struct sbuf *b, const void *v, size_t n)
{
	memcpy(b->p + b->n, v, n);
	b->n += n;
}
#define PUT(b, x) put((b), &(x), sizeof(x))

static inline void put_lock(struct sbuf *b, const struct vfs_lock *l)
{
	uint8_t v[5] = { l->kind, (uint8_t)l->owner, (uint8_t)l->nreaders,
			 (uint8_t)l->wait_head, (uint8_t)l->wait_tail };
	put(b, v, 5);
}

static inline void put_str(struct sbuf *b, const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	uint8_t len = (uint8_t)n;
	PUT(b, len);
	put(b, s, n);
}

static void put_call(struct sbuf *b, const struct vfs_call *c)
{
	PUT(b, c->sys);
	put(b, c->a, sizeof c->a);
	/* (handles: a search interns nothing, so equal strings have equal
	 * handles in every state of it) */
	if (c->s[0] || c->s[1])
		put(b, c->s, sizeof c->s);
}

static uint64_t hash_buf(const uint8_t *p, size_t n);

/* The inodes but their locks: the tree, names, dead flags, sizes, data. */
static uint64_t tree_hash(struct sbuf *b, const struct vfs_world *w)
{
	b->n = 0;
	for (int i = 0; i < w->ninodes; i++) {
		const struct vfs_inode *n = &w->inodes[i];
		uint8_t h[6] = { n->type, n->dead, n->unlinked, n->is_mountpoint,
				 n->sb, n->freed };
		put(b, h, 6);
		int32_t l[5] = { n->parent, n->first_child, n->last_child,
				 n->next_sibling, n->prev_sibling };
		put(b, l, sizeof l);
		int32_t o[3] = { n->d_off, n->next_off, n->nchildren };
		put(b, o, sizeof o);
		PUT(b, n->size);
		put_str(b, n->name, VFS_NAME_MAX);
		if (n->type == IT_REG && n->data) {
			size_t sz = n->size < 0 ? 0 : (size_t)n->size;
			put(b, n->data->bytes, sz < n->data->cap ? sz : n->data->cap);
		}
	}
	return hash_buf(b->p, b->n);
}

/* A step of a call whose row says it leaves the tree alone (the inodes'
 * locks apart; core/syscalls.c, VSYS_TREE): its successor keeps its
 * parent's tree_hash. */
static bool tree_clean(const struct vfs_world *w, int t, uint64_t stamp0)
{
	return inode_stamp(w) == stamp0 &&
	       !(vfs_sys[w->threads[t].rec.call.sys].flags & VSYS_TREE);
}

/* Bytes needed at most for W's canonical state, and with DATA for its
 * tree_hash too (the files' data: a walk over the inodes, only when the
 * tree is hashed again). */
static size_t canon_bound(const struct vfs_world *w, bool data)
{
	size_t n = 256;
	n += (size_t)w->nprocs * (24 + VFS_NAME_MAX);  /* + exec_lock */
	n += (size_t)w->nthreads * (64 + sizeof(struct vfs_frame) +
		VFS_MAX_HELD * 8 + VFS_MAX_FNSTACK +
		(VFS_MAX_PENDING + 1) * (sizeof(struct vfs_call) + 8));
	n += (size_t)w->nfiles * 48;
	n += (size_t)w->ninodes * (64 + VFS_NAME_MAX);
	for (int i = 0; data && i < w->ninodes; i++)
		if (w->inodes[i].data)
			n += w->inodes[i].data->cap;
	for (int i = 0; i < w->nfdt; i++)
		n += 8 + 2 * (size_t)VFS_NR_OPEN;
	n += (size_t)VFS_MAX_PASSES * (8 + VFS_MAX_PASS_OFFSETS);
	n += sizeof(struct vfs_lockdep);
	n += (size_t)64 * 32 + 16;     /* canon_history: XMAXOPEN entries */
	return n;
}

/* Races with the snapshot's own accesses (made in the set-up): a shadow
 * of the race detector, a write or a read, that some other thread is not
 * yet ordered after is "open".  A search that makes no access conflicting
 * with an open one runs without clocks; the first that does starts the
 * search again with them (as a wrong guess of the discipline does), and
 * the state then holds, per open access, which threads and lock clocks
 * are ordered after it, and which shadows a write has replaced. */
struct xopen { uint8_t field, write; int16_t obj; int8_t tid; uint32_t clock; int sh; };
#define XMAXOPEN 64

static int open_accesses(const struct vfs_world *snap, struct xopen *o)
{
	const struct vfs_detect *d = &snap->det;
	int n = 0;
	if (!d->enabled)
		return 0;
	for (int i = 0; i < d->nshadows && n < XMAXOPEN; i++) {
		const struct vfs_shadow *sh = &d->shadows[i];
		for (int u = -1; u < snap->nthreads && n < XMAXOPEN; u++) {
			const struct vfs_access *a = u < 0 ? &sh->w : &sh->r[u];
			if (!a->step)
				continue;
			bool open = false;
			for (int t = 0; t < snap->nthreads && !open; t++)
				open = t != a->tid && a->clock > d->vc[t][a->tid];
			if (open)
				o[n++] = (struct xopen){ sh->field, u < 0, sh->obj,
							 a->tid, a->clock, i };
		}
	}
	return n;
}

static void canon(struct sbuf *bo, const struct vfs_world *w, uint64_t tree,
		  uint32_t fixed)
{
	/* a local copy of the buffer's cursor: stores through b->p may not
	 * then change b->n, which the compiler otherwise reloads per put */
	struct sbuf lb = *bo, *b = &lb;
	b->n = 0;
	/* allocation counters and sizes */
	int32_t g[7] = { w->next_pid, w->next_file_id,
			 (int32_t)w->nprocs | (int32_t)w->nthreads << 16,
			 w->nfiles, w->ninodes, w->next_ino, w->free_inode };
	put(b, g, sizeof g);
	PUT(b, w->nfdt);
	put_lock(b, &w->rename_mutex);
	for (int i = 0; i < w->nprocs; i++) {
		const struct vfs_proc *p = &w->procs[i];
		uint8_t h[2] = { p->alive, p->exists };
		put(b, h, 2);
		PUT(b, p->pid);
		PUT(b, p->uid);
		PUT(b, p->fdt);
		PUT(b, p->nthreads_made);
		put_str(b, p->name, VFS_NAME_MAX);
		put_lock(b, &p->exec_lock);
	}
	for (int i = 0; i < w->nthreads; i++) {
		const struct vfs_thread *t = &w->threads[i];
		uint8_t h[4] = { t->state, (uint8_t)t->wait_next, t->wait_mode,
				 t->npending };
		put(b, h, 4);
		if (t->state == TS_FREE || t->state == TS_DEAD)
			continue;
		PUT(b, t->wait_lock);
		PUT(b, t->proc);
		PUT(b, t->tnum);
		PUT(b, t->tid);
		/* fixed: the queue is a suffix of the snapshot's */
		if (fixed >> i & 1)
			PUT(b, t->pend_head);
		else
			for (int k = 0; k < t->npending; k++)
				put_call(b, &t->pending[(t->pend_head + k) %
							VFS_MAX_PENDING]);
		PUT(b, t->nheld);
		for (int k = 0; k < t->nheld; k++) {
			const struct vfs_held *hd = &t->held[k];
			uint8_t v[7] = { (uint8_t)hd->lock, (uint8_t)(hd->lock >> 8),
					 hd->mode, hd->cls, hd->fn, hd->frame, hd->sub };
			put(b, v, 7);
		}
		PUT(b, t->nfn);
		put(b, t->fnstack, t->nfn < VFS_MAX_FNSTACK ? t->nfn : VFS_MAX_FNSTACK);
		uint8_t rs[2] = { t->rec.started, t->rec.done };
		put(b, rs, 2);
		const void *frame;
		size_t fsize;
		int pc = vfs_thread_resume_point(w, i, &frame, &fsize);
		if (pc != SITE_IDLE) {
			/* the call in progress: its arguments and its locals
			 * (the frame is cleared whole when a call starts) */
			put(b, frame, fsize);
			if (fixed >> i & 1) {   /* a submitted call: its number */
				PUT(b, t->rec.call.seq);
			} else {
				put_call(b, &t->rec.call);
			}
		} else {
			uint16_t site = (uint16_t)pc;
			PUT(b, site);
		}
	}
	for (int i = 0; i < w->nfiles; i++) {
		const struct vfs_file *f = &w->files[i];
		PUT(b, f->kind);
		if (f->kind == FK_NONE)
			continue;
		PUT(b, f->f_mode);
		PUT(b, f->id);
		PUT(b, f->f_count);
		PUT(b, f->inode);
		PUT(b, f->pid);
		PUT(b, f->f_pos);
		PUT(b, f->cursor);
		put_lock(b, &f->f_pos_lock);
		put_lock(b, &f->f_lock);
	}
	/* the inodes: the tree by its hash (tree_hash), the locks that are
	 * not idle here (an idle lock's kind is set again when taken) */
	PUT(b, tree);
	for (int32_t i = 0; i < w->ninodes; i++) {
		const struct vfs_lock *l = &w->ilocks[i];
		if (l->owner < 0 && !l->nreaders && l->wait_head < 0)
			continue;
		PUT(b, i);
		put_lock(b, l);
	}
	for (int i = 0; i < w->nfdt; i++) {
		const struct vfs_fdtable *t = &w->fdt[i];
		PUT(b, t->count);
		PUT(b, t->nfds);
		put(b, t->fd, sizeof t->fd[0] * (size_t)(t->nfds > 0 ? t->nfds : 0));
	}
	/* the detectors: what decides their future reports */
	const struct vfs_detect *d = &w->det;
	PUT(b, d->npasses);
	for (int i = 0; i < d->npasses; i++) {
		const struct vfs_pass *p = &d->passes[i];
		PUT(b, p->used);
		PUT(b, p->file);
		PUT(b, p->epoch);
		/* given (1), not given (0), before the pass or reported
		 * skipped (2): not who got it, nor when */
		int last = p->hi;       /* (8 at a time: hot) */
		while (last >= 8) {
			uint64_t x;
			memcpy(&x, p->by + last - 8, 8);
			if (x)
				break;
			last -= 8;
		}
		while (last > 0 && !p->by[last - 1])
			last--;
		int16_t nl = (int16_t)last;
		PUT(b, nl);
		uint8_t *v = b->p + b->n;
		for (int k = 0; k < nl; k++)
			v[k] = (uint8_t)((p->by[k] > 0) | (p->by[k] < 0) << 1);
		b->n += (size_t)nl;
	}
	const struct vfs_lockdep *ld = &d->ld;
	uint8_t lh[4] = { ld->nedges, ld->nseen, ld->ndead, ld->overflow };
	put(b, lh, 4);
	PUT(b, d->overflowed);  /* a detector turned off decides nothing more */
	PUT(b, ld->woken);
	put(b, ld->seen, sizeof ld->seen[0] * ld->nseen);
	put(b, ld->dead, sizeof ld->dead[0] * ld->ndead);
	for (int i = 0; i < ld->nedges; i++) {
		uint8_t e[2] = { ld->edges[i].from, ld->edges[i].to };
		put(b, e, 2);
	}
	*bo = lb;
}

static inline uint64_t rotl(uint64_t x, int r)
{
	return (x << r) | (x >> (64 - r));
}

/* xxhash64-style rounds over 8-byte words in four independent lanes (a
 * lane's multiply waits for its previous one: four keep the multiplier
 * busy, twice the bytes per cycle of two), then a full avalanche */
static inline uint64_t hround(uint64_t v, const uint8_t *p)
{
	uint64_t x;
	memcpy(&x, p, 8);
	return rotl(v + x * 0xc2b2ae3d27d4eb4full, 31) * 0x9e3779b185ebca87ull;
}

static uint64_t hash_buf(const uint8_t *p, size_t n)
{
	uint64_t a = 0x60ea27eeadc0b5d6ull, b = 0x2d358dccaa6c78a5ull ^ n,
		 c = 0x8ebc6af09c88c6e3ull, d = 0x589965cc75374cc3ull;
	size_t i = 0;
	for (; i + 32 <= n; i += 32) {
		a = hround(a, p + i);
		b = hround(b, p + i + 8);
		c = hround(c, p + i + 16);
		d = hround(d, p + i + 24);
	}
	uint8_t tail[32] = { 0 };
	memcpy(tail, p + i, n - i);
	a = hround(a, tail);
	b = hround(b, tail + 8);
	c = hround(c, tail + 16);
	d = hround(d, tail + 24);
	uint64_t h = xmix(a ^ rotl(b, 17) ^ rotl(c, 31) ^ rotl(d, 47));
	return h ? h : 1;
}

/* ---- one step, watched ---- */

struct xacc {
	uint32_t loc;           /* field, object kind, object */
	uint8_t write, nl;
	vfs_lid_t lk[VFS_MAX_HELD];
	uint8_t lm[VFS_MAX_HELD];
};

struct xobs {                   /* what the block being run did */
	struct xmovers *xm;
	const struct xopen *open;       /* without clocks: the open accesses */
	int nopen;
	int *need_hist;
	uint8_t cls;            /* the step just run: XM_B, XM_L, XM_N */
	uint8_t shared;         /* the block has a visible step */
	uint8_t nacc, over;
	struct xacc acc[MAXACC];
};

static void obs_sink(void *ctx, const struct vfs_world *w,
		     const struct vfs_event *ev)
{
	struct xobs *o = ctx;
	int vis_access;
	if (ev->op == OP_EXIT || (ev->op == OP_ENTER && !vfs_fn_is_iterator(ev->fn)))
		return;         /* (most events: nothing to the reduction) */
	if (o->nopen && (ev->op == OP_READ || ev->op == OP_WRITE) &&
	    vfs_access_checked(ev))
		for (int i = 0; i < o->nopen; i++)
			if (o->open[i].field == ev->field && o->open[i].obj == ev->obj &&
			    o->open[i].tid != ev->tid &&
			    (o->open[i].write || ev->op == OP_WRITE))
				__atomic_store_n(o->need_hist, 1, __ATOMIC_RELAXED);
	int c = xm_event(o->xm, w, ev, &vis_access);
	if (c > o->cls)
		o->cls = (uint8_t)c;
	if (c == XM_B)
		return;
	/* the accesses a race may involve: those of visible locations (an
	 * access that keeps the discipline is ordered by it) that
	 * core/race.c checks */
	if (!vis_access || (ev->op != OP_READ && ev->op != OP_WRITE) ||
	    !vfs_access_checked(ev))
		return;
	if (o->nacc == MAXACC) {
		o->over = 1;
		return;
	}
	struct xacc *a = &o->acc[o->nacc++];
	const struct vfs_thread *t = &w->threads[ev->tid];
	a->loc = (uint32_t)ev->field << 24 | (uint32_t)ev->objkind << 20 |
		 ((uint32_t)ev->obj & 0xfffff);
	a->write = ev->op == OP_WRITE;
	a->nl = t->nheld;
	for (int i = 0; i < t->nheld; i++) {
		a->lk[i] = t->held[i].lock;
		a->lm[i] = t->held[i].mode;
	}
}

/* Two enabled steps race: a common location, a write, no lock held by
 * both with one of them holding it exclusively. */
static bool steps_race(const struct xobs *x, const struct xobs *y)
{
	if (x->over || y->over)
		return false;   /* (more accesses than kept: not judged) */
	for (int i = 0; i < x->nacc; i++)
		for (int j = 0; j < y->nacc; j++) {
			const struct xacc *a = &x->acc[i], *b = &y->acc[j];
			if (a->loc != b->loc || !(a->write | b->write))
				continue;
			bool ordered = false;
			for (int k = 0; k < a->nl && !ordered; k++)
				for (int l = 0; l < b->nl && !ordered; l++)
					ordered = a->lk[k] == b->lk[l] &&
						  (a->lm[k] != M_READ || b->lm[l] != M_READ);
			if (!ordered)
				return true;
		}
	return false;
}

/* ---- copying: what the stateful search needs of a world ----
 * Like vfs_world_copy, less: no vector clocks (the search's copies run
 * with det.no_clocks), no report list (nreports is pinned at the
 * maximum: the detectors still count, which is all this search reads),
 * no pass steps, no call record entries or text (results, not state).
 * The pending calls of the threads in FIXED are not copied: a search only
 * ever takes calls off their queues, so every copy already holds them.
 * The inodes: the table is shared (a reference), their locks copied.
 * D must have been made by vfs_world_copy once (initialised). */
static void fcopy(struct vfs_world *d, const struct vfs_world *s,
		  uint32_t fixed, bool recs)
{
	int n = s->nthreads;
	/* (not the statistics: counters no step reads) */
	memcpy(d, s, offsetof(struct vfs_world, stats));
	struct vfs_detect *dd = &d->det;
	const struct vfs_detect *sd = &s->det;
	dd->enabled = sd->enabled;
	dd->no_clocks = sd->no_clocks;
	/* (out of memory: the copy says so and keeps no detector tables) */
	bool dok = detect_reserve(dd, sd);
	if (!dok) {
		d->oom = 1;
		dd->nshadows = dd->nlockclocks = 0;
	}
	dd->npasses = dok ? sd->npasses : 0;
	dd->nreports = VFS_MAX_REPORTS;
	memcpy(dd->counts, sd->counts, sizeof dd->counts);
	dd->overflowed = sd->overflowed;
	dd->told = sd->told;
	if (sd->overflowed)
		memcpy(dd->overflow_step, sd->overflow_step, sizeof dd->overflow_step);
	if (!sd->no_clocks && dok) {
		memcpy(dd->race_fields, sd->race_fields, sizeof dd->race_fields);
		dd->nshadows = sd->nshadows;
		dd->nlockclocks = sd->nlockclocks;
		for (int i = 0; i < n; i++)
			memcpy(dd->vc[i], sd->vc[i], sizeof dd->vc[i][0] * (size_t)n);
		for (int i = 0; i < sd->nshadows; i++) {
			memcpy(&dd->shadows[i], &sd->shadows[i],
			       offsetof(struct vfs_shadow, r));
			memcpy(dd->shadows[i].r, sd->shadows[i].r,
			       sizeof sd->shadows[i].r[0] * (size_t)n);
		}
		for (int i = 0; i < sd->nlockclocks; i++) {
			memcpy(&dd->lockclocks[i], &sd->lockclocks[i],
			       offsetof(struct vfs_lockclock, w));
			memcpy(dd->lockclocks[i].w, sd->lockclocks[i].w,
			       sizeof sd->lockclocks[i].w[0] * (size_t)n);
			memcpy(dd->lockclocks[i].r, sd->lockclocks[i].r,
			       sizeof sd->lockclocks[i].r[0] * (size_t)n);
		}
	}
	for (int i = 0; i < dd->npasses; i++)
		memcpy(&dd->passes[i], &sd->passes[i],
		       offsetof(struct vfs_pass, by) + (size_t)sd->passes[i].hi);
	memcpy(&dd->ld, &sd->ld, offsetof(struct vfs_lockdep, edges));
	memcpy(dd->ld.edges, sd->ld.edges, sizeof dd->ld.edges[0] * sd->ld.nedges);
	memcpy(d->procs, s->procs, sizeof d->procs[0] * (size_t)s->nprocs);
	for (int i = 0; i < n; i++) {
		struct vfs_thread *dt = &d->threads[i];
		const struct vfs_thread *st = &s->threads[i];
		memcpy(dt, st, offsetof(struct vfs_thread, pending));
		if (!(fixed >> i & 1))
			for (int k = 0; k < st->npending; k++) {
				int j = (st->pend_head + k) % VFS_MAX_PENDING;
				dt->pending[j] = st->pending[j];
			}
		memcpy(&dt->f, &st->f, offsetof(struct vfs_thread, rec) -
		       offsetof(struct vfs_thread, f));
		/* the call in progress: a copy of a submitted one, never
		 * changed, so its submission number tells it */
		if (dt->rec.call.seq != st->rec.call.seq ||
		    dt->rec.call.sys != st->rec.call.sys)
			dt->rec.call = st->rec.call;
		memcpy(&dt->rec.started, &st->rec.started,
		       offsetof(struct vfs_callrec, text) -
		       offsetof(struct vfs_callrec, started));
		memcpy(&dt->rec.start_step, &st->rec.start_step,
		       sizeof *st - offsetof(struct vfs_thread, rec) -
		       offsetof(struct vfs_callrec, start_step));
		if (recs) {     /* opts.outcomes: the results so far */
			int32_t ne = st->rec.nent > 0 ? st->rec.nent : 0;
			memcpy(dt->rec.text, st->rec.text, sizeof st->rec.text);
			if (ne && s->rec_ent[i].v && s->rec_ent[i].cap >= ne &&
			    world_grow((void **)&d->rec_ent[i].v, &d->rec_ent[i].cap, ne,
				       sizeof *d->rec_ent[i].v))
				memcpy(d->rec_ent[i].v, s->rec_ent[i].v,
				       sizeof *d->rec_ent[i].v * (size_t)ne);
			else if (ne)
				dt->rec.nent = 0;
		}
	}
	memcpy(d->sbs, s->sbs, sizeof d->sbs[0] * (size_t)s->nsb);
	bool ok;
	/* (the inode table is shared, not copied: only the locks are) */
	ok = world_copy_objects(d, s);
	if (!ok)
		d->oom = 1;
}

/* ---- the search ---- */

#define MAXBLOCK 255            /* steps in one transition at most */

struct lvl {
	struct vfs_world *state;        /* this level's state */
	uint64_t hash;
	int plen;                       /* steps from the snapshot to it */
	int n, next;                    /* successors made, next to visit */
	uint8_t tid[XMAXT];             /* successor i: thread, */
	uint8_t nst[XMAXT];             /* steps in the transition, */
	uint8_t ncut[XMAXT];            /* steps up to its visible one, */
	uint8_t kinds[XMAXT];           /* DK_BIT of the transition, */
	uint64_t h[XMAXT], tr[XMAXT];   /* hash and tree_hash of the state */
	uint64_t tree;                  /* tree_hash of this level's state */
	uint64_t acc;                   /* opts.outcomes: the calls' results */
	uint64_t sacc[XMAXT];           /* ... of successor i */
	/* the successors are hashed when made and not kept, but for the
	 * last one (the search mostly finds the others seen: the first new
	 * state below a state is mostly its last successor); another is made
	 * again (its block run again) when the search goes down to it */
	struct vfs_world *buf;          /* this level's state when remade */
	struct vfs_world *last;         /* successor n - 1 */
};

struct xst;

struct sworker {
	struct xst *st;
	int id;
	struct lvl *lv;
	int caplv;
	uint8_t *path;                  /* thread per step from the snapshot */
	int cappath;
	struct xobs obs[XMAXT];
	struct sbuf buf;
	/* counters */
	uint64_t states, transitions, matched, probes, local, violating;
	uint64_t kind_n[DK__COUNT];
	uint32_t kinds;
	uint32_t overflowed;    /* limits whose tables filled (1u << VL_*) */
	int maxdepth;
	uint8_t cut;
	int failed;
	/* the best counterexample: shortest prefix, then lowest schedule */
	uint8_t *cex;
	int cexlen, cexpre;
	uint32_t cexkinds;
	uint8_t *kcex[DK__COUNT];       /* the first of each kind */
	int kcexlen[DK__COUNT];
	struct vfs_world *scratch;
	struct vfs_world *work;         /* where successors are made */
	struct vfs_world *spare;        /* the copy before a maybe-visible step */
	uint8_t nsite[SITE__COUNT];     /* sites seen visible after a block's */
	uint64_t told_states, told_viol;        /* already in the progress */
	double cpu;                     /* seconds of its thread in worker_main */
};

struct xitem_s {                        /* a frontier state */
	struct vfs_world *w;
	uint64_t hash, tree, acc;
	int depth;                      /* transitions from the snapshot */
	int plen;                       /* steps from the snapshot */
	uint8_t *path;
};

struct xst {
	const struct vfs_world *snap;
	struct vfs_explore_opts o;
	uint32_t viol;
	int maxdepth;
	struct xmovers xm;
	int jobs;
	uint32_t fixed;                 /* threads whose pending calls are fixed */
	bool hist;                      /* clocks on: open accesses matter */
	int need_hist;                  /* atomic: an access conflicts with one */
	struct xopen open[XMAXOPEN];
	int nopen;
	uint64_t live_states, live_viol;        /* atomic: progress */
	double t0, last_report;
	int bits, maxbits;              /* the visited table: 2^bits slots at
					 * first, 2^maxbits at most */
	struct vtable vt;
	struct xitem_s *items;
	int nitems, capitems;
	int next_item;                  /* atomic */
	int abort;                      /* ABORT_FULL (the table), ABORT_ERROR;
					 * atomic: every worker reads it */
	int probe_found;                /* atomic: the shortest search found one */
	uint64_t visited;               /* atomic: states, for opts.max */
	/* opts.outcomes: the distinct outcomes, one schedule each */
	pthread_mutex_t omu;
	struct xset out;
	uint8_t **osched;
	int *olen;
	int nosched, caposched;
};

static int stopped(struct sworker *s)
{
	return __atomic_load_n(&s->st->abort, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&s->st->xm.violated, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&s->st->probe_found, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&s->st->need_hist, __ATOMIC_RELAXED) ||
	       (s->st->o.stop && *s->st->o.stop);
}

/* The reports zeroed: the copies pin nreports at the maximum without
 * copying them, and the race detector (clocks on) still reads them. */
static struct vfs_world *wnew(void)
{
	/* (calloc: the heap tables start empty; pages never touched stay
	 * unfaulted) */
	return calloc(1, sizeof(struct vfs_world));
}

static int lv_grow(struct sworker *s, int d)
{
	if (d < s->caplv)
		return 0;
	int c = s->caplv ? s->caplv * 2 : 64;
	while (c <= d)
		c *= 2;
	struct lvl *n = realloc(s->lv, sizeof *n * (size_t)c);
	if (!n)
		return -1;
	s->lv = n;
	memset(s->lv + s->caplv, 0, sizeof *n * (size_t)(c - s->caplv));
	s->caplv = c;
	return 0;
}

static int path_grow(struct sworker *s, int need)
{
	if (need < s->cappath)
		return 0;
	int c = s->cappath ? s->cappath * 2 : 4096;
	while (c <= need)
		c *= 2;
	uint8_t *p = realloc(s->path, (size_t)c);
	if (!p)
		return -1;
	s->path = p;
	s->cappath = c;
	return 0;
}

/* The path (PLEN steps, then the threads EXTRA) completed, lowest
 * runnable thread first: a malloc'd schedule, its length in *LEN, the
 * kinds it shows in *KINDS.  NULL when out of memory. */
static uint8_t *complete_path(struct sworker *s, int plen, const uint8_t *extra,
			      int nx, int *len_out, uint32_t *kinds)
{
	struct vfs_world *w = s->scratch;
	if (!w && !(w = s->scratch = wnew()))
		return NULL;
	int pre = plen + nx;
	size_t cap = (size_t)pre + 1024;
	uint8_t *sch = malloc(cap);
	if (!sch)
		return NULL;
	memcpy(sch, s->path, (size_t)plen);
	if (nx)
		memcpy(sch + plen, extra, (size_t)nx);
	int len = pre;
	vfs_world_copy(w, s->st->snap);
	vfs_explore_replay(w, sch, len, NULL);  /* (it fits: it was run) */
	for (;;) {
		int t = -1;
		for (int i = 0; i < w->nthreads && t < 0; i++)
			if (vfs_runnable(w, i))
				t = i;
		if (t < 0 || len >= s->st->maxdepth)
			break;
		if ((size_t)len == cap) {
			uint8_t *n = realloc(sch, cap * 2);
			if (!n) {
				free(sch);
				return NULL;
			}
			sch = n;
			cap *= 2;
		}
		sch[len++] = (uint8_t)t;
		vfs_step(w, t, NULL);
	}
	*len_out = len;
	*kinds = xkinds_of(s->st->snap, w);
	s->overflowed |= xoverflowed(s->st->snap, w);
	return sch;
}

/* Record a violation found after PLEN steps of the path (then the threads
 * EXTRA): the schedule is completed, lowest runnable thread first, and
 * kept when it is the shortest so far, or the first of one of its kinds. */
static void violation(struct sworker *s, int plen, const uint8_t *extra, int nx,
		      uint32_t kinds)
{
	for (int k = 0; k < DK__COUNT; k++)
		s->kind_n[k] += kinds >> k & 1;
	s->kinds |= kinds;
	/* (what is not a violation is counted by kind only: skipped entries
	 * and lock-order reports unless asked for, a table that filled) */
	if (!(kinds & s->st->viol))
		return;
	s->violating++;
	if (s->st->o.first)
		__atomic_store_n(&s->st->abort, ABORT_FIRST, __ATOMIC_RELAXED);
	int pre = plen + nx;
	bool best = !s->cex || pre < s->cexpre ||
		    (pre == s->cexpre && memcmp(s->path, s->cex, (size_t)plen) < 0);
	bool newkind = false;
	for (int k = 0; k < DK__COUNT; k++)
		newkind |= (kinds >> k & 1) && !s->kcex[k];
	if (!best && !newkind)
		return;
	int len;
	uint32_t got;
	uint8_t *sch = complete_path(s, plen, extra, nx, &len, &got);
	if (!sch) {
		s->failed = 1;
		return;
	}
	for (int k = 0; k < DK__COUNT; k++)
		if ((kinds >> k & 1) && !s->kcex[k] &&
		    xsched_dup(&s->kcex[k], sch, len) == 0)
			s->kcexlen[k] = len;
	if (!best) {
		free(sch);
		return;
	}
	free(s->cex);
	s->cex = sch;
	s->cexlen = len;
	s->cexpre = pre;
	s->cexkinds = got | kinds;
}

static inline uint32_t counts_kinds(const struct vfs_world *a,
				    const struct vfs_world *b)
{
	uint32_t k = 0;
	if (b->det.counts[DK_DUPLICATE] != a->det.counts[DK_DUPLICATE])
		k |= DK_BIT(DK_DUPLICATE);
	if (b->det.counts[DK_DEADDIR] != a->det.counts[DK_DEADDIR])
		k |= DK_BIT(DK_DEADDIR);
	if (b->det.counts[DK_SKIPPED] != a->det.counts[DK_SKIPPED])
		k |= DK_BIT(DK_SKIPPED);
	if (b->det.counts[DK_LOCKORDER] != a->det.counts[DK_LOCKORDER])
		k |= DK_BIT(DK_LOCKORDER);
	if (b->det.counts[DK_RULE] != a->det.counts[DK_RULE])
		k |= DK_BIT(DK_RULE);
	/* (only counted with the clocks on: races with the snapshot's
	 * accesses, or any race the clocks see on this path) */
	if (!b->det.no_clocks && b->det.counts[DK_RACE] != a->det.counts[DK_RACE])
		k |= DK_BIT(DK_RACE);
	if (b->det.overflowed != a->det.overflowed)
		k |= DK_BIT(DK_OVERFLOW);
	return k;
}

static void canon_history(struct sbuf *b, const struct vfs_world *w,
			  const struct xst *st)
{
	const struct vfs_detect *d = &w->det, *sd = &st->snap->det;
	int n = w->nthreads;
	for (int e = 0; e < st->nopen; e++) {
		const struct xopen *x = &st->open[e];
		uint64_t bits[4] = { 0, 0, 0, 0 };      /* threads, then locks */
		int k = 0;
		for (int t = 0; t < n; t++, k++)
			if (d->vc[t][x->tid] >= x->clock)
				bits[k >> 6] |= 1ull << (k & 63);
		for (int i = 0; i < d->nlockclocks && k < 254; i++, k += 2) {
			if (d->lockclocks[i].w[x->tid] >= x->clock)
				bits[k >> 6] |= 1ull << (k & 63);
			if (d->lockclocks[i].r[x->tid] >= x->clock)
				bits[(k + 1) >> 6] |= 1ull << ((k + 1) & 63);
		}
		put(b, bits, sizeof bits[0] * (size_t)((k + 63) / 64));
	}
	uint64_t over[2] = { 0, 0 };
	for (int i = 0; i < sd->nshadows && i < 128; i++)
		if (d->shadows[i].w.step != sd->shadows[i].w.step)
			over[i >> 6] |= 1ull << (i & 63);
	put(b, over, sizeof over);
}

/* Hash W; TREE: its tree_hash when known (the parent's), else 0. */
static int hash_state(struct sworker *s, const struct vfs_world *W,
		      uint64_t tree, uint64_t acc, uint64_t *tr, uint64_t *h)
{
	size_t need = canon_bound(W, !tree);
	if (s->buf.cap < need) {
		free(s->buf.p);
		s->buf.cap = need * 2;
		if (!(s->buf.p = malloc(s->buf.cap)))
			return -1;
	}
	*tr = tree ? tree : tree_hash(&s->buf, W);
	canon(&s->buf, W, *tr, s->st->fixed);
	if (s->st->hist)
		canon_history(&s->buf, W, s->st);
	*h = hash_buf(s->buf.p, s->buf.n);
	if (s->st->o.outcomes && acc) {
		*h = xmix(*h ^ acc);
		if (!*h)
			*h = 1;
	}
	return 0;
}

/* Level D's successor I: the last one as expand left it, another made
 * again into level D + 1's buffer (lv_grow has made room); NULL when out
 * of memory. */
static struct vfs_world *regen_next(struct sworker *s, int d, int i)
{
	const struct lvl *L = &s->lv[d];
	struct lvl *N = &s->lv[d + 1];
	if (i == L->n - 1)
		return L->last;
	if (!N->buf) {
		if (!(N->buf = wnew()))
			return NULL;
		vfs_world_copy(N->buf, L->state);
	}
	fcopy(N->buf, L->state, s->st->fixed, s->st->o.outcomes);
	for (int q = 0; q < L->nst[i]; q++)
		vfs_step(N->buf, L->tid[i], NULL);
	return N->buf;
}

/* opts.outcomes: a terminal state's outcome H, reached by PLEN steps of
 * the path: counted, and its path kept when it is new. */
static int outcome(struct sworker *s, uint64_t h, int plen)
{
	struct xst *st = s->st;
	int rc = 0;
	if (!h)
		h = 1;
	pthread_mutex_lock(&st->omu);
	int r = xset_add(&st->out, h);
	uint32_t keep = st->o.keep ? st->o.keep : 10000;
	if (r < 0) {
		rc = -1;
	} else if (r > 0 && (uint32_t)st->nosched < keep) {
		if (st->nosched == st->caposched) {
			int c = st->caposched ? st->caposched * 2 : 64;
			uint8_t **a = realloc(st->osched, sizeof *a * (size_t)c);
			if (a)
				st->osched = a;
			int *l = realloc(st->olen, sizeof *l * (size_t)c);
			if (l)
				st->olen = l;
			if (!a || !l)
				rc = -1;
			else
				st->caposched = c;
		}
		if (rc == 0 && xsched_dup(&st->osched[st->nosched], s->path, plen) == 0)
			st->olen[st->nosched++] = plen;
	}
	pthread_mutex_unlock(&st->omu);
	return rc;
}

/* The work buffer holds level L's last successor: it is kept there (the
 * buffer it replaces was a state of the search's last visit below L,
 * over now). */
static void keep_last(struct sworker *s, struct lvl *L)
{
	struct vfs_world *w = L->last;
	L->last = s->work;
	s->work = w;
}

/* Make the successors of level D's state (the reduced set).  A
 * transition is a block of thread T (explore_movers.c): its invisible
 * steps, its first visible step or release, then its releases and
 * invisible steps up to its next visible step (run, seen, and the block
 * run again without it), or to the end of its work. */
static int expand(struct sworker *s, int d)
{
	struct lvl *L = &s->lv[d];
	const struct vfs_world *S = L->state;
	struct vfs_sink sink;
	int n = 0;
	L->n = L->next = 0;
	if (d > s->maxdepth)
		s->maxdepth = d;
	if (L->plen >= s->st->maxdepth) {
		s->cut = XCUT_DEPTH;
		return 0;
	}
	for (int t = 0; t < S->nthreads; t++) {
		if (!vfs_runnable(S, t))
			continue;
		if (!s->work) {
			if (!(s->work = wnew()))
				return -1;
			vfs_world_copy(s->work, S);
		}
		struct vfs_world *W = s->work;
		struct xobs *o = &s->obs[n];
		o->xm = &s->st->xm;
		o->open = s->st->open;
		o->nopen = s->st->hist ? 0 : s->st->nopen;
		o->need_hist = &s->st->need_hist;
		o->shared = o->nacc = o->over = 0;
		sink.fn = obs_sink;
		sink.ctx = o;
		fcopy(W, S, s->st->fixed, s->st->o.outcomes);
		uint64_t acc = L->acc;
		int k = 0, cut = 0;
		bool dirty = false, redo = false;
		for (;;) {
			int nth = W->nthreads, nf = W->next_file_id,
			    np = W->next_pid, nfdt = W->nfdt, npr = W->nprocs;
			uint64_t ni = inode_stamp(W);
			int pc = vfs_thread_resume_point(W, t, NULL, NULL);
			/* after the block's visible step, keep a copy before a
			 * step where a visible one was seen before: it may be
			 * the next block's */
			bool saved = false;
			uint8_t nacc = o->nacc, over = o->over;
			bool dirty0 = dirty;
			if (cut && s->nsite[pc]) {
				if (!s->spare) {
					if (!(s->spare = wnew()))
						return -1;
					vfs_world_copy(s->spare, W);
				}
				fcopy(s->spare, W, s->st->fixed, s->st->o.outcomes);
				saved = true;
			}
			o->cls = XM_B;
			uint64_t acc0 = acc;
			if (vfs_step(W, t, &sink) && s->st->o.outcomes)
				acc += xcall_hash(W, t);
			k++;
			s->probes++;
			/* allocations are visible: they number the objects */
			if (W->nthreads != nth || W->next_file_id != nf ||
			    inode_stamp(W) != ni || W->next_pid != np ||
			    W->nfdt != nfdt || W->nprocs != npr)
				o->cls = XM_N;
			if (!tree_clean(W, t, ni))
				dirty = true;
			if (!cut) {
				if (o->cls != XM_B) {
					cut = k;        /* the block's one non-mover */
					o->shared = 1;
				}
			} else if (o->cls == XM_N) {
				/* the next block's: back to before it */
				k--;
				if (saved) {
					struct vfs_world *tmp = W;
					W = s->work = s->spare;
					s->spare = tmp;
					o->nacc = nacc;
					o->over = over;
					dirty = dirty0;
					acc = acc0;
				} else {
					s->nsite[pc] = 1;
					redo = true;
				}
				break;
			}
			if (k == MAXBLOCK || L->plen + k >= s->st->maxdepth ||
			    !vfs_runnable(W, t))
				break;
		}
		if (redo) {
			fcopy(W, S, s->st->fixed, s->st->o.outcomes);
			o->nacc = o->over = 0;
			dirty = false;
			acc = L->acc;
			for (int q = 0; q < k; q++) {
				uint64_t ni = inode_stamp(W);
				if (vfs_step(W, t, &sink) && s->st->o.outcomes)
					acc += xcall_hash(W, t);
				if (!tree_clean(W, t, ni))
					dirty = true;
			}
		}
		L->ncut[n] = (uint8_t)cut;
		L->tid[n] = (uint8_t)t;
		L->nst[n] = (uint8_t)k;
		L->kinds[n] = (uint8_t)counts_kinds(S, W);
		s->overflowed |= xoverflowed(S, W);
		L->sacc[n] = acc;
		if (hash_state(s, W, dirty ? 0 : L->tree, acc, &L->tr[n], &L->h[n]) < 0)
			return -1;
		vt_prefetch(&s->st->vt, L->h[n]);
		if (!o->shared) {
			/* invisible all through: taken alone (an ample set of
			 * one; its steps commute with every other thread's) */
			if (n) {
				L->tid[0] = (uint8_t)t;
				L->nst[0] = L->nst[n];
				L->ncut[0] = L->ncut[n];
				L->kinds[0] = L->kinds[n];
				L->h[0] = L->h[n];
				L->tr[0] = L->tr[n];
				L->sacc[0] = L->sacc[n];
			}
			L->n = 1;
			s->local++;
			s->transitions++;
			keep_last(s, L);
			return 0;
		}
		n++;
	}
	L->n = n;
	s->transitions += (uint64_t)n;
	if (n)
		keep_last(s, L);
	if (!n) {
		if (vfs_all_blocked(S))
			violation(s, L->plen, NULL, 0, DK_BIT(DK_DEADLOCK));
		if (s->st->o.outcomes && outcome(s, L->acc + xfinal_hash(S), L->plen) < 0)
			return -1;
		return 0;
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (steps_race(&s->obs[i], &s->obs[j])) {
				/* both blocks up to their visible steps, one
				 * after the other: those are the racing ones */
				uint8_t ex[2 * MAXBLOCK];
				int nx = 0;
				for (int q = 0; q < L->ncut[i]; q++)
					ex[nx++] = L->tid[i];
				for (int q = 0; q < L->ncut[j]; q++)
					ex[nx++] = L->tid[j];
				violation(s, L->plen, ex, nx, DK_BIT(DK_RACE));
				i = n;  /* one per state */
				break;
			}
	return 0;
}


static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Progress: every worker adds what it did to the shared counters; the
 * first, which runs in the calling thread, tells at most every 0.5 s. */
static void report(struct sworker *s)
{
	struct xst *st = s->st;
	__atomic_add_fetch(&st->live_states, s->states - s->told_states,
			   __ATOMIC_RELAXED);
	__atomic_add_fetch(&st->live_viol, s->violating - s->told_viol,
			   __ATOMIC_RELAXED);
	s->told_states = s->states;
	s->told_viol = s->violating;
	if (s->id || !st->o.progress)
		return;
	double t = now_s();
	if (t - st->last_report < 0.5)
		return;
	st->last_report = t;
	struct vfs_explore_progress p = { .stateful = true,
		.states = __atomic_load_n(&st->live_states, __ATOMIC_RELAXED),
		.violating = __atomic_load_n(&st->live_viol, __ATOMIC_RELAXED),
		.seconds = t - st->t0, .round = st->xm.rounds + 1,
		.depth = s->maxdepth };
	p.rate = p.seconds > 0 ? (double)p.states / p.seconds : 0;
	st->o.progress(st->o.progress_ctx, &p);
}

/* The path to level D's successor I: PLEN steps, then its block. */
static int path_push(struct sworker *s, const struct lvl *L, int i)
{
	if (path_grow(s, L->plen + L->nst[i] + 1) < 0)
		return -1;
	memset(s->path + L->plen, L->tid[i], L->nst[i]);
	return L->plen + L->nst[i];
}

/* One more state visited; false (and the search stops) past opts.max. */
static bool count_state(struct sworker *s)
{
	/* (counted for max, and for the pace of the search beside it) */
	uint64_t n = s->st->o.max || s->st->o.first ?
		     __atomic_add_fetch(&s->st->visited, 1, __ATOMIC_RELAXED) : 0;
	if (s->st->o.max && n > s->st->o.max) {
		__atomic_store_n(&s->st->abort, ABORT_MAX, __ATOMIC_RELAXED);
		return false;
	}
	s->states++;
	return true;
}

static uint8_t abort_cut(int abort)
{
	switch (abort) {
	case 0: return XCUT_STOP;
	case ABORT_FIRST: return XCUT_FOUND;
	case ABORT_MAX: return XCUT_MAX;
	case ABORT_ERROR: return XCUT_ERROR;
	}
	return XCUT_TABLE;
}

/* Depth-first from STATE (already in the visited set), at depth BASE
 * with PATH (PLEN steps) leading to it. */
static int dfs(struct sworker *s, struct vfs_world *state, uint64_t hash,
	       uint64_t tree, uint64_t acc, const uint8_t *path, int plen, int base)
{
	if (lv_grow(s, base + 1) < 0 || path_grow(s, plen + 1) < 0)
		return -1;
	memcpy(s->path, path, (size_t)plen);
	int d = base;
	s->lv[d].state = state;
	s->lv[d].hash = hash;
	s->lv[d].tree = tree;
	s->lv[d].acc = acc;
	s->lv[d].plen = plen;
	if (expand(s, d) < 0)
		return -1;
	uint64_t polls = 0;
	for (;;) {
		struct lvl *L = &s->lv[d];
		if (L->next == L->n) {
			if (d == base)
				return 0;
			d--;
			continue;
		}
		if ((++polls & 255) == 0) {
			if (stopped(s)) {
				if (!s->cut)
					s->cut = abort_cut(__atomic_load_n(
						&s->st->abort, __ATOMIC_RELAXED));
				return 0;
			}
			report(s);
		}
		int i = L->next++;
		int np = path_push(s, L, i);
		if (np < 0)
			return -1;
		if (L->kinds[i])
			violation(s, np, NULL, 0, L->kinds[i]);
		uint64_t tr = L->tr[i], h = L->h[i];
		int r = vt_insert(&s->st->vt, h);
		if (r == -2)
			return -1;
		if (r < 0) {
			__atomic_store_n(&s->st->abort, ABORT_FULL, __ATOMIC_RELAXED);
			s->cut = XCUT_TABLE;
			return 0;
		}
		if (!r) {
			s->matched++;
			/* acyclic: never back to a state on the stack */
			for (int k = base; k <= d; k++)
				if (s->lv[k].hash == h) {
					s->cut = XCUT_ERROR;
					s->failed = 2;
					return -1;
				}
			continue;
		}
		if (!count_state(s)) {
			s->cut = XCUT_MAX;
			return 0;
		}
		if (lv_grow(s, d + 2) < 0)
			return -1;
		struct vfs_world *W = regen_next(s, d, i);
		if (!W)
			return -1;
		d++;
		s->lv[d].state = W;
		s->lv[d].hash = h;
		s->lv[d].tree = tr;
		s->lv[d].acc = s->lv[d - 1].sacc[i];
		s->lv[d].plen = np;
		if (expand(s, d) < 0)
			return -1;
	}
}

static void worker_free(struct sworker *s)
{
	for (int d = 0; d < s->caplv; d++) {
		vfs_world_free(s->lv[d].buf);
		vfs_world_free(s->lv[d].last);
	}
	vfs_world_free(s->work);
	free(s->lv);
	free(s->path);
	free(s->buf.p);
	free(s->cex);
	for (int k = 0; k < DK__COUNT; k++)
		free(s->kcex[k]);
	vfs_world_free(s->scratch);
	vfs_world_free(s->spare);
}

static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *worker_main(void *arg)
{
	struct sworker *s = arg;
	struct xst *st = s->st;
	double c0 = thread_cpu();
	for (;;) {
		int i = __atomic_fetch_add(&st->next_item, 1, __ATOMIC_RELAXED);
		if (i >= st->nitems || stopped(s))
			break;
		struct xitem_s *it = &st->items[i];
		if (dfs(s, it->w, it->hash, it->tree, it->acc, it->path, it->plen,
			it->depth) < 0) {
			if (!s->failed)
				s->failed = 1;
			__atomic_store_n(&st->abort, ABORT_ERROR, __ATOMIC_RELAXED);
			break;
		}
	}
	s->cpu += thread_cpu() - c0;
	return NULL;
}


static int add_item(struct xst *st, const struct vfs_world *w, uint64_t h,
		    uint64_t tree, uint64_t acc, const uint8_t *path, int plen,
		    int depth)
{
	if (st->nitems == st->capitems) {
		int c = st->capitems ? st->capitems * 2 : 64;
		struct xitem_s *n = realloc(st->items, sizeof *n * (size_t)c);
		if (!n)
			return -1;
		st->items = n;
		st->capitems = c;
	}
	struct xitem_s *it = &st->items[st->nitems];
	it->w = wnew();
	it->path = malloc((size_t)plen + 1);
	if (!it->w || !it->path) {
		vfs_world_free(it->w);
		free(it->path);
		return -1;
	}
	vfs_world_copy(it->w, w);
	/* races: compared steps (below), and the clocks only for races
	 * with the snapshot's own accesses */
	it->w->det.no_clocks = !st->hist;
	if (plen)
		memcpy(it->path, path, (size_t)plen);
	it->plen = plen;
	it->depth = depth;
	it->hash = h;
	it->tree = tree;
	it->acc = acc;
	st->nitems++;
	return 0;
}

static void free_items(struct xst *st, int from, int to)
{
	for (int i = from; i < to; i++) {
		vfs_world_free(st->items[i].w);
		free(st->items[i].path);
	}
}

/* The frontier: breadth first from the snapshot until it has SPLIT
 * states (or the graph ends); worker 0's buffers do the expanding. */
static int top(struct xst *st, struct sworker *s)
{
	struct sbuf *b = &s->buf;
	b->cap = canon_bound(st->snap, true) * 2;
	if (!(b->p = malloc(b->cap)))
		return -1;
	uint64_t t0 = tree_hash(b, st->snap);
	canon(b, st->snap, t0, st->fixed);
	if (st->hist)
		canon_history(b, st->snap, st);
	uint64_t h = hash_buf(b->p, b->n);
	if (vt_insert(&st->vt, h) == -2)
		return -1;
	if (!count_state(s))
		return 0;
	if (add_item(st, st->snap, h, t0, 0, NULL, 0, 0) < 0)
		return -1;
	int lo = 0;
	/* one worker: no frontier (the graph does not depend on it) */
	int split = st->jobs > 1 ? SPLIT_PER_JOB * st->jobs : 1;
	while (st->nitems - lo < split && lo < st->nitems) {
		int hi = st->nitems;
		for (int k = lo; k < hi; k++) {
			struct xitem_s *it = &st->items[k];
			int d = it->depth;
			if (lv_grow(s, d + 2) < 0 || path_grow(s, it->plen + 1) < 0)
				return -1;
			memcpy(s->path, it->path, (size_t)it->plen);
			s->lv[d].state = it->w;
			s->lv[d].hash = it->hash;
			s->lv[d].tree = it->tree;
			s->lv[d].acc = it->acc;
			s->lv[d].plen = it->plen;
			if (expand(s, d) < 0)
				return -1;
			struct lvl *L = &s->lv[d];
			for (int i = 0; i < L->n; i++) {
				int np = path_push(s, L, i);
				if (np < 0)
					return -1;
				if (L->kinds[i])
					violation(s, np, NULL, 0, L->kinds[i]);
				uint64_t tr = L->tr[i], hh = L->h[i];
				int r = vt_insert(&st->vt, hh);
				if (r == -2)
					return -1;
				if (r < 0) {
					__atomic_store_n(&st->abort, ABORT_FULL, __ATOMIC_RELAXED);
					s->cut = XCUT_TABLE;
					goto keep;
				}
				if (!r) {
					s->matched++;
					continue;
				}
				if (!count_state(s)) {
					s->cut = XCUT_MAX;
					goto keep;
				}
				struct vfs_world *W = regen_next(s, d, i);
				/* (add_item moves items: L stays valid) */
				if (!W || add_item(st, W, hh, tr, L->sacc[i], s->path, np,
						   d + 1) < 0)
					return -1;
			}
		}
		/* expanded: no longer part of the frontier */
		free_items(st, lo, hi);
		lo = hi;
	}
keep:   /* the frontier only (cut short: the level being expanded too) */
	memmove(st->items, st->items + lo, sizeof *st->items * (size_t)(st->nitems - lo));
	st->nitems -= lo;
	return 0;
}

struct sknobs {                  /* changed while the search runs: every
				 * access atomic (the other thread's) */
	int maxpre;                     /* < 0: any */
	uint64_t limit;                 /* states; 0: 2,000,000 */
	int quit;                       /* the stateful search is done */
	volatile sig_atomic_t *stop;
	/* paced: at most PACE_BASE + states / PACE_DIV states of its own,
	 * STATES being the stateful search's (a proof then costs little
	 * more than alone; a violation a preemption or two deep is still
	 * found early); NULL: not paced */
	const uint64_t *pace;
};
#define PACE_BASE 2000
#define PACE_DIV 8

static int shortest(const struct vfs_world *snap, uint32_t viol,
		    struct sknobs *kn, uint8_t **sched, int *len, int *pre,
		    int *steps, uint32_t *kinds, uint64_t *visited);

/* opts.first: the shortest search runs beside the stateful one from the
 * start (a violation a few preemptions deep is found there long before a
 * depth-first search backs up to it).  A counterexample it finds stops
 * the stateful search; a proof by the stateful search stops it.  Else it
 * runs to its own end (its limit fixed before it starts), so that what it
 * finds never depends on which of the two threads ran faster. */
struct sprobe {
	struct xst *st;
	struct sknobs kn;
	int rc;                         /* vfs_explore_shortest's */
	uint8_t *sched;
	int len, pre, steps;
	uint32_t kinds;
	uint64_t visited;
};

static void *probe_main(void *arg)
{
	struct sprobe *p = arg;
	p->rc = shortest(p->st->snap, p->st->viol, &p->kn, &p->sched, &p->len,
			 &p->pre, &p->steps, &p->kinds, &p->visited);
	if (p->rc > 0)
		__atomic_store_n(&p->st->probe_found, 1, __ATOMIC_RELAXED);
	return NULL;
}

/* One search of the whole graph with the discipline as it stands. */
static int round_run(struct xst *st, struct sworker *ws, int jobs, int *made)
{
	int rc = 0;
	*made = 0;
	if (top(st, &ws[0]) < 0)
		return -1;
	if (ws[0].failed)
		rc = -1;
	pthread_t th[MAX_WORKERS];
	int m = 0;
	if (rc == 0 && jobs > 1 && st->nitems > 1 && !stopped(&ws[0])) {
		sigset_t block, old;
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		pthread_sigmask(SIG_BLOCK, &block, &old);
		for (m = 1; m < jobs; m++)
			if (pthread_create(&th[m], NULL, worker_main, &ws[m]) != 0)
				break;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (rc == 0)
		worker_main(&ws[0]);
	for (int i = 1; i < m; i++)
		pthread_join(th[i], NULL);
	*made = m;
	return rc;
}

static void round_reset(struct xst *st, struct sworker *ws, int jobs)
{
	/* (atomic: the shortest search and the progress line read them) */
	__atomic_store_n(&st->live_states, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st->live_viol, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st->visited, 0, __ATOMIC_RELAXED);
	xset_free(&st->out);
	for (int i = 0; i < st->nosched; i++)
		free(st->osched[i]);
	st->nosched = 0;
	free_items(st, 0, st->nitems);
	st->nitems = 0;
	st->next_item = 0;
	for (int i = 0; i < jobs; i++) {
		struct sworker *s = &ws[i];
		worker_free(s);
		memset(s, 0, sizeof *s);
		s->st = st;
		s->id = i;
	}
	vt_clear(&st->vt);
}

/* The counterexample of a search with several workers (r, from the
 * workers' best) and the one of each kind they found, again by the
 * step-by-step search; 1: all redone, 0: some kept as the workers found
 * them. */
static int redo_cex(const struct vfs_world *snap, const struct vfs_explore_opts *o,
		    uint32_t viol, struct sworker *ws, int jobs,
		    struct vfs_explore_result *r)
{
	int all = 1;
	for (int k = -1; k < DK__COUNT; k++) {
		bool found = k < 0 && r->have_cex;
		for (int i = 0; i < jobs && k >= 0; i++)
			found |= ws[i].kcex[k] != NULL;
		if (!found)
			continue;
		struct sknobs kn = { .maxpre = k < 0 ? r->cex_preemptions : -1,
				     .limit = o->max, .stop = o->stop };
		uint8_t *sch = NULL;
		int len, pre, steps, rc;
		uint32_t kinds;
		uint64_t seen;
		rc = shortest(snap, k < 0 ? viol : DK_BIT(k), &kn, &sch, &len, &pre,
			      &steps, &kinds, &seen);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			all = 0;
			continue;
		}
		if (k < 0) {
			free(r->cex_schedule);
			r->cex_schedule = sch;
			r->cex_len = len;
			r->cex_kinds = kinds;
			r->cex_preemptions = pre;
			r->cex_steps = steps;
			r->cex_shortest = true;
			continue;
		}
		for (int i = 0; i < jobs; i++) {
			free(ws[i].kcex[k]);
			ws[i].kcex[k] = NULL;
		}
		ws[0].kcex[k] = sch;
		ws[0].kcexlen[k] = len;
	}
	return all;
}

int xstate_run(const struct vfs_world *snap, const struct vfs_explore_opts *o,
	       struct vfs_explore_result *r)
{
	double t0 = now_s();
	struct xst *st = calloc(1, sizeof *st);
	int jobs = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (o->first && o->jobs <= 0)
		jobs--;         /* a CPU for the shortest search beside it */
	if (jobs < 1)
		jobs = 1;
	if (jobs > MAX_WORKERS)
		jobs = MAX_WORKERS;
	struct sworker *ws = calloc((size_t)jobs, sizeof *ws);
	int rc = 0;

	memset(r, 0, sizeof *r);
	r->stateful = true;
	if (!st || !ws) {
		free(st);
		free(ws);
		errno = ENOMEM;
		return -1;
	}
	st->snap = snap;
	st->o = *o;
	pthread_mutex_init(&st->omu, NULL);
	st->t0 = st->last_report = t0;
	st->viol = o->violations ? o->violations : VX_DEFAULT_VIOLATIONS;
	st->maxdepth = o->max_depth > 0 ? o->max_depth : 100000;
	/* the visited table: STATE_BITS fixed, or from 2^14 slots, growing
	 * in place up to 2^30 */
	st->maxbits = o->state_bits > 0 ? o->state_bits : 30;
	if (st->maxbits < 10)
		st->maxbits = 10;
	if (st->maxbits > 34)
		st->maxbits = 34;
	st->bits = o->state_bits > 0 ? st->maxbits : 14;
	st->nopen = open_accesses(snap, st->open);
	for (int i = 0; i < snap->nthreads; i++)
		if (snap->threads[i].state != TS_FREE)
			st->fixed |= 1u << i;
	st->jobs = jobs;
	if (vt_alloc(&st->vt, st->bits, st->maxbits, o->state_bits <= 0,
		     jobs > 1) < 0) {
		vt_free(&st->vt);
		free(st);
		free(ws);
		errno = ENOMEM;
		return -1;
	}
	r->violations = st->viol;
	for (int i = 0; i < jobs; i++) {
		ws[i].st = st;
		ws[i].id = i;
	}
	/* naive: no discipline, every access visible (the step-by-step
	 * graph, but for steps with no event at all) */
	if ((!o->naive && xm_learn(&st->xm, snap, st->maxdepth, o->learn_runs) < 0)) {
		rc = -1;
		goto out;
	}
	int made;
	/* (max bounds it too: at most that many states of its own) */
	struct sprobe probe = { .st = st, .kn = { .maxpre = -1, .limit = o->max,
						  .stop = o->stop, .pace = &st->visited } };
	pthread_t pth;
	bool probing = false;
	if (o->first) {
		sigset_t block, old;
		sigemptyset(&block);
		sigaddset(&block, SIGINT);
		sigaddset(&block, SIGTERM);
		pthread_sigmask(SIG_BLOCK, &block, &old);
		probing = pthread_create(&pth, NULL, probe_main, &probe) == 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	for (;;) {
		rc = round_run(st, ws, jobs, &made);
		if (__atomic_load_n(&st->probe_found, __ATOMIC_RELAXED))
			break;
		if (rc < 0 || (o->stop && *o->stop))
			break;
		if (st->need_hist && !st->hist && !st->abort) {
			/* an access conflicts with the set-up's: clocks on */
			st->hist = true;
			st->need_hist = 0;
			st->xm.violated = 0;
			st->xm.ndemote = 0;
			round_reset(st, ws, jobs);
			continue;
		}
		if (!st->xm.violated || st->abort)
			break;
		/* the guess was wrong somewhere: demote and search again */
		xm_apply(&st->xm);
		round_reset(st, ws, jobs);
	}
	if (probing) {
		/* A proof: the probe stops.  Otherwise the probe goes on to
		 * its own end (a counterexample, or its limit, both fixed
		 * before it started): stopping it when the stateful search
		 * stops would make what it found, and so the counterexample
		 * and the counts printed, depend on which thread ran faster.
		 * For the same reason it is not bounded by the preemptions
		 * of the stateful search's counterexample: the states it had
		 * pushed past that bound before it was told depended on
		 * timing, and when its own best candidate costs more than
		 * the bound (a race the clocks of the set-up reveal, say)
		 * it pops them: "31, 106 or 120 more step by step" in
		 * explore-stateful-history-race.vfs under load. */
		bool viol = false, cutshort = st->abort != 0;
		for (int i = 0; i < jobs; i++) {
			viol |= ws[i].cex != NULL;
			cutshort |= ws[i].cut != XCUT_NONE;
		}
		if (rc < 0 || (!viol && !cutshort)) {
			__atomic_store_n(&probe.kn.quit, 1, __ATOMIC_RELAXED);
		} else {
			/* a violation, or cut short (max) without one: the
			 * probe, alone now, to its own end or limit */
			__atomic_store_n(&probe.kn.pace, NULL, __ATOMIC_RELEASE);
		}
		pthread_join(pth, NULL);
		if (probe.rc < 0)
			rc = -1;
	}
	r->rounds = st->xm.rounds + 1;
	r->demoted = st->xm.demoted;
	r->learn_runs = st->xm.learn_runs;
	xm_count(&st->xm, &r->visible_locs, &r->hidden_locs);
	/* the workers it was given: how many had started when a search
	 * stopped early (a violation the probe found during the split)
	 * depends on timing */
	r->jobs = jobs;
	r->subtrees = st->nitems;
	int best = -1;
	int cut = XCUT_NONE;
	for (int i = 0; i < jobs; i++) {
		struct sworker *s = &ws[i];
		r->states += s->states;
		r->transitions += s->transitions;
		r->matched += s->matched;
		r->probes += s->probes;
		r->local_steps += s->local;
		r->violating += s->violating;
		if (i < VFS_XWORKERS) {
			r->worker_states[i] = s->states;
			r->worker_cpu[i] = s->cpu;
		}
		for (int k = 0; k < DK__COUNT; k++)
			r->kind_execs[k] += s->kind_n[k];
		r->overflowed |= s->overflowed;
		if (s->maxdepth > r->state_depth)
			r->state_depth = s->maxdepth;
		if (s->failed)
			rc = -1;
		if (s->cut && (cut == XCUT_NONE || s->cut == XCUT_ERROR ||
			       s->cut == XCUT_TABLE))
			cut = s->cut;
		if (s->cex && (best < 0 || s->cexpre < ws[best].cexpre ||
			       (s->cexpre == ws[best].cexpre &&
				memcmp(s->cex, ws[best].cex, (size_t)s->cexpre) < 0)))
			best = i;
	}
	if (st->abort && (cut == XCUT_NONE || cut == XCUT_STOP))
		cut = abort_cut(st->abort);
	if (o->stop && *o->stop && cut == XCUT_NONE)
		cut = XCUT_STOP;
	if (probing && probe.rc > 0 && cut == XCUT_STOP)
		cut = XCUT_FOUND;
	r->cut = (uint8_t)cut;
	r->complete = cut == XCUT_NONE && rc == 0;
	double n = (double)r->states;
	r->collision_p = n * n / 2.0 / 18446744073709551616.0;
	if (best >= 0) {
		struct sworker *s = &ws[best];
		r->have_cex = true;
		r->cex_index = 1;
		r->cex_len = s->cexlen;
		r->cex_kinds = s->cexkinds;
		r->cex_schedule = s->cex;
		s->cex = NULL;
		r->cex_preemptions = vfs_explore_preemptions(snap, r->cex_schedule,
							     r->cex_len, st->viol,
							     &r->cex_steps);
	}
	/* Several workers share the visited table: the path by which a
	 * state is first reached, and so the counterexamples they keep, is
	 * whichever worker got there first.  The step-by-step search gives
	 * ones that depend on the input alone (fewest preemptions, fewest
	 * steps, lowest schedule), here for the counterexample and for each
	 * kind found; a worker's is kept only where it gives up (limit). */
	if (!o->first && jobs > 1 && rc == 0 && !(o->stop && *o->stop) &&
	    redo_cex(snap, o, st->viol, ws, jobs, r) < 0)
		rc = -1;
	/* the first of each kind, from the lowest worker that has one */
	for (int k = 0; k < DK__COUNT; k++)
		for (int i = 0; i < jobs && !r->kind_sched[k]; i++)
			if (ws[i].kcex[k]) {
				r->kind_sched[k] = ws[i].kcex[k];
				r->kind_len[k] = ws[i].kcexlen[k];
				ws[i].kcex[k] = NULL;
			}
	if (o->outcomes) {
		r->outcomes = st->out.n;
		for (size_t j = 0; j < st->out.cap; j++)
			if (st->out.v[j])
				r->outcome_digest += xmix(st->out.v[j] ^ 0x6f7574636f6d65ull);
		r->out_sched = st->osched;
		r->out_len = st->olen;
		r->nout_sched = st->nosched;
		st->osched = NULL;
		st->olen = NULL;
		st->nosched = 0;
	}
	/* the shortest counterexample, from the probe */
	if (probing && probe.rc > 0) {
		free(r->cex_schedule);
		r->cex_schedule = probe.sched;
		probe.sched = NULL;
		r->have_cex = true;
		r->cex_index = 1;
		r->cex_len = probe.len;
		r->cex_preemptions = probe.pre;
		r->cex_steps = probe.steps;
		r->cex_kinds = probe.kinds;
		/* (a search cut short found one, not the shortest) */
		r->cex_shortest = !(o->stop && *o->stop) &&
				  probe.visited < (probe.kn.limit ? probe.kn.limit : 2000000);
		/* the kinds, their schedules ('explore replay KIND') and
		 * counts are the probe's alone: what the stateful workers had
		 * found by the time the probe stopped them depends on
		 * timing */
		r->violating = 1;
		for (int k = 0; k < DK__COUNT; k++) {
			free(r->kind_sched[k]);
			r->kind_sched[k] = NULL;
			r->kind_len[k] = 0;
			r->kind_execs[k] = probe.kinds >> k & 1;
			if ((probe.kinds >> k & 1) &&
			    xsched_dup(&r->kind_sched[k], r->cex_schedule, probe.len) == 0)
				r->kind_len[k] = probe.len;
		}
	}
	if (probing)
		r->short_nodes = probe.visited;
	free(probe.sched);
	if (rc < 0 && ws[0].failed == 2)
		rc = 0, r->cut = XCUT_ERROR, r->complete = false;
out:
	for (int i = 0; i < jobs; i++)
		if (ws[i].failed == 2) {
			rc = 0;
			r->cut = XCUT_ERROR;
			r->complete = false;
		}
	free_items(st, 0, st->nitems);
	free(st->items);
	for (int i = 0; i < jobs; i++)
		worker_free(&ws[i]);
	free(ws);
	xset_free(&st->out);
	for (int i = 0; i < st->nosched; i++)
		free(st->osched[i]);
	free(st->osched);
	free(st->olen);
	pthread_mutex_destroy(&st->omu);
	vt_free(&st->vt);
	xm_free(&st->xm);
	free(st);
	r->seconds = now_s() - t0;
	if (rc < 0) {
		vfs_explore_result_free(r);
		errno = ENOMEM;
	}
	return rc;
}

/* ---- the shortest counterexample (opts.first) ----
 * Step by step from the snapshot, a search in the order of (preemptions,
 * steps): Dijkstra's, with a step costing no preemption when the thread
 * that ran last runs on or cannot run, one otherwise.  A state is told
 * apart by its canonical hash and the thread that ran last.  At each
 * state searched: a deadlock, a step whose detectors counted a
 * violation, or two enabled steps that race (as in expand) give a
 * candidate: the path, completed without preemption (and, for a race,
 * also with the two racing steps first, one order and the other),
 * replayed with the race detector's clocks; the candidate's cost is the
 * preemptions up to the step where the violation is first reported, and
 * that step.  The search ends when no state left can give a cheaper one. */

struct snode {
	int32_t parent;
	uint8_t tid, last;              /* the step's thread; 255: none */
	uint16_t pre;
	int32_t steps;
	uint64_t hash;
};

struct sheap {
	uint64_t *key;                  /* (pre << 32 | steps) << 24 ... */
	int32_t *idx;
	size_t n, cap;
};

/* By key, then by node number: the order never depends on the heap's. */
static inline bool hbefore(uint64_t ka, int32_t ia, uint64_t kb, int32_t ib)
{
	return ka < kb || (ka == kb && ia < ib);
}

static inline void hset(struct sheap *h, size_t i, uint64_t k, int32_t x)
{
	h->key[i] = k;
	h->idx[i] = x;
}

static int heap_push(struct sheap *h, uint64_t key, int32_t idx)
{
	if (h->n == h->cap) {
		size_t c = h->cap ? h->cap * 2 : 4096;
		uint64_t *k = realloc(h->key, c * sizeof *k);
		if (k)
			h->key = k;
		int32_t *x = realloc(h->idx, c * sizeof *x);
		if (x)
			h->idx = x;
		if (!k || !x)
			return -1;
		h->cap = c;
	}
	size_t i = h->n++;
	while (i > 0 && hbefore(key, idx, h->key[(i - 1) / 2], h->idx[(i - 1) / 2])) {
		hset(h, i, h->key[(i - 1) / 2], h->idx[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	hset(h, i, key, idx);
	return 0;
}

static int32_t heap_pop(struct sheap *h)
{
	int32_t top = h->idx[0];
	uint64_t k = h->key[--h->n];
	int32_t x = h->idx[h->n];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && hbefore(h->key[c + 1], h->idx[c + 1], h->key[c], h->idx[c]))
			c++;
		if (!hbefore(h->key[c], h->idx[c], k, x))
			break;
		hset(h, i, h->key[c], h->idx[c]);
		i = c;
	}
	hset(h, i, k, x);
	return top;
}

#define SKEY(pre, steps) ((uint64_t)(pre) << 32 | (uint32_t)(steps))

struct sshort {
	const struct vfs_world *snap;
	uint32_t viol;
	struct vfs_world *ev;           /* candidates are replayed here */
	uint8_t *sch;                   /* scratch schedule */
	int capsch;
	/* the best so far */
	uint8_t *best;
	int blen, bpre, bsteps;
	uint32_t bkinds;
	bool have;
	int failed;
};

/* Replay PREFIX (N steps) and complete it without preemption; keep it
 * when its violation comes cheaper than the best's. */
static void candidate(struct sshort *c, const uint8_t *prefix, int n, int maxdepth)
{
	struct vfs_world *w = c->ev;
	if (c->capsch < n + 1024) {
		int cap = (n + 1024) * 2;
		uint8_t *p = realloc(c->sch, (size_t)cap);
		if (!p) {
			c->failed = 1;
			return;
		}
		c->sch = p;
		c->capsch = cap;
	}
	memcpy(c->sch, prefix, (size_t)n);
	vfs_world_copy(w, c->snap);
	int len = 0, pre = 0, vstep = 0, vpre = 0;
	for (;;) {
		int t;
		if (len < n) {
			t = c->sch[len];
			if (!vfs_runnable(w, t))
				return;         /* (cannot happen) */
		} else {
			t = len && vfs_runnable(w, c->sch[len - 1]) ? c->sch[len - 1] : -1;
			for (int i = 0; i < w->nthreads && t < 0; i++)
				if (vfs_runnable(w, i))
					t = i;
			if (t < 0 || len >= maxdepth || len + 1 >= c->capsch)
				break;
		}
		if (len > 0 && c->sch[len - 1] != t && vfs_runnable(w, c->sch[len - 1]))
			pre++;
		c->sch[len++] = (uint8_t)t;
		vfs_step(w, t, NULL);
		if (!vstep && (xkinds_of(c->snap, w) & c->viol)) {
			vstep = len;
			vpre = pre;
			if (c->have && SKEY(vpre, vstep) >= SKEY(c->bpre, c->bsteps))
				return;
		}
	}
	if (!vstep && vfs_all_blocked(w) && (c->viol & DK_BIT(DK_DEADLOCK))) {
		vstep = len;
		vpre = pre;
	}
	if (!vstep || (c->have && SKEY(vpre, vstep) >= SKEY(c->bpre, c->bsteps)))
		return;
	uint8_t *b = malloc((size_t)len);
	if (!b) {
		c->failed = 1;
		return;
	}
	memcpy(b, c->sch, (size_t)len);
	free(c->best);
	c->best = b;
	c->blen = len;
	c->bpre = vpre;
	c->bsteps = vstep;
	c->bkinds = xkinds_of(c->snap, w);
	c->have = true;
}

static int shortest(const struct vfs_world *snap, uint32_t viol,
		    struct sknobs *kn, uint8_t **sched, int *len, int *pre,
		    int *steps, uint32_t *kinds, uint64_t *visited)
{
	struct sshort c = { .snap = snap, .viol = viol ? viol : VX_DEFAULT_VIOLATIONS };
	struct snode *nd = NULL;
	size_t nn = 0, capn = 0;
	struct sheap hp = { 0 };
	struct xset closed = { 0 };
	struct sbuf b = { 0 };
	struct xmovers xm;
	struct xobs obs[XMAXT];
	struct vfs_world *W = wnew(), *K[XMAXT] = { 0 };
	uint8_t *path = NULL;
	int cappath = 0, dummy = 0, rc = 0;
	uint32_t fixed = 0;
	uint64_t polls = 0;

	memset(&xm, 0, sizeof xm);
	*visited = 0;
	c.ev = wnew();
	b.cap = canon_bound(snap, true) * 2;
	b.p = malloc(b.cap);
	if (!W || !c.ev || !b.p)
		goto oom;
	for (int i = 0; i < snap->nthreads; i++)
		if (snap->threads[i].state != TS_FREE)
			fixed |= 1u << i;
	capn = 4096;
	if (!(nd = malloc(capn * sizeof *nd)))
		goto oom;
	nd[0] = (struct snode){ -1, 255, 255, 0, 0, 0 };
	nn = 1;
	if (heap_push(&hp, SKEY(0, 0), 0) < 0)
		goto oom;
	while (hp.n && !c.failed) {
		if (c.have && hp.key[0] >= SKEY(c.bpre, c.bsteps))
			break;
		uint64_t limit = __atomic_load_n(&kn->limit, __ATOMIC_RELAXED);
		int quit = __atomic_load_n(&kn->quit, __ATOMIC_RELAXED);
		if (*visited >= (limit ? limit : 2000000) ||
		    ((++polls & 15) == 0 && (quit || (kn->stop && *kn->stop))))
			break;
		const uint64_t *pace;
		while ((pace = __atomic_load_n(&kn->pace, __ATOMIC_ACQUIRE)) &&
		       !__atomic_load_n(&kn->quit, __ATOMIC_RELAXED) &&
		       !(kn->stop && *kn->stop) &&
		       *visited > PACE_BASE + __atomic_load_n(pace, __ATOMIC_RELAXED) /
				  PACE_DIV) {
			struct timespec ts = { 0, 1000000 };    /* 1 ms */
			nanosleep(&ts, NULL);
		}
		int32_t x = heap_pop(&hp);
		struct snode N = nd[x];
		int seen = x ? xset_add(&closed, N.hash) : 1;
		if (seen < 0)
			goto oom;
		if (!seen)
			continue;       /* reached before, as cheaply */
		++*visited;
		/* the state: the path replayed */
		if (cappath < N.steps + 2) {
			cappath = (N.steps + 2) * 2;
			uint8_t *p = realloc(path, (size_t)cappath);
			if (!p)
				goto oom;
			path = p;
		}
		for (int32_t y = x, i = N.steps; y > 0; y = nd[y].parent)
			path[--i] = nd[y].tid;
		vfs_world_copy(W, snap);
		W->det.no_clocks = 1;
		vfs_explore_replay(W, path, N.steps, NULL);
		int last = N.last, nrun = 0;
		int run[XMAXT];
		for (int t = 0; t < W->nthreads; t++)
			if (vfs_runnable(W, t))
				run[nrun++] = t;
		if (!nrun) {
			if (vfs_all_blocked(W))
				candidate(&c, path, N.steps, 100000);
			continue;
		}
		bool lastrun = last != 255 && vfs_runnable(W, last);
		for (int r = 0; r < nrun; r++) {
			int t = run[r];
			struct xobs *o = &obs[r];
			memset(o, 0, sizeof *o);
			o->xm = &xm;
			o->need_hist = &dummy;
			struct vfs_sink sink = { obs_sink, o };
			if (!K[r] && !(K[r] = wnew()))
				goto oom;
			vfs_world_copy(K[r], W);
			vfs_step(K[r], t, &sink);
			int p = N.pre + (lastrun && t != last);
			path[N.steps] = (uint8_t)t;
			if (counts_kinds(W, K[r]) & c.viol)
				candidate(&c, path, N.steps + 1, 100000);
			int maxpre = __atomic_load_n(&kn->maxpre, __ATOMIC_RELAXED);
			if (maxpre >= 0 && p > maxpre)
				continue;
			if (nn == capn) {
				struct snode *q = realloc(nd, 2 * capn * sizeof *nd);
				if (!q)
					goto oom;
				nd = q;
				capn *= 2;
			}
			uint64_t h = tree_hash(&b, K[r]);
			canon(&b, K[r], h, fixed);
			h = xmix(hash_buf(b.p, b.n) ^ (uint64_t)(t + 1) * 0x9e3779b97f4a7c15ull);
			if (!h)
				h = 1;
			nd[nn] = (struct snode){ x, (uint8_t)t, (uint8_t)t, (uint16_t)p,
						 N.steps + 1, h };
			if (heap_push(&hp, SKEY(p, N.steps + 1), (int32_t)nn) < 0)
				goto oom;
			nn++;
		}
		/* races: two enabled steps, the current thread's first */
		if (!(c.viol & DK_BIT(DK_RACE)))
			continue;
		for (int i = 0; i < nrun; i++)
			for (int j = i + 1; j < nrun; j++) {
				if (!steps_race(&obs[i], &obs[j]))
					continue;
				int a = run[i], bb = run[j];
				if (bb == last) {
					int t = a;
					a = bb;
					bb = t;
				}
				candidate(&c, path, N.steps, 100000);
				path[N.steps] = (uint8_t)a;
				path[N.steps + 1] = (uint8_t)bb;
				candidate(&c, path, N.steps + 2, 100000);
				path[N.steps] = (uint8_t)bb;
				path[N.steps + 1] = (uint8_t)a;
				candidate(&c, path, N.steps + 2, 100000);
				i = j = nrun;   /* one pair per state */
			}
	}
	if (c.failed)
		goto oom;
	if (c.have) {
		*sched = c.best;
		c.best = NULL;
		*len = c.blen;
		*pre = c.bpre;
		*steps = c.bsteps;
		*kinds = c.bkinds;
		rc = 1;
	}
	goto out;
oom:
	rc = -1;
out:
	free(c.best);
	free(c.sch);
	vfs_world_free(c.ev);
	vfs_world_free(W);
	for (int i = 0; i < XMAXT; i++)
		vfs_world_free(K[i]);
	free(nd);
	free(hp.key);
	free(hp.idx);
	xset_free(&closed);
	free(b.p);
	free(path);
	return rc;
}

int vfs_explore_shortest(const struct vfs_world *snap, uint32_t viol,
			 int maxpre, uint64_t limit, volatile sig_atomic_t *stop,
			 uint8_t **sched, int *len, int *pre, int *steps,
			 uint32_t *kinds, uint64_t *visited)
{
	struct sknobs kn = { .maxpre = maxpre, .limit = limit, .stop = stop };
	return shortest(snap, viol, &kn, sched, len, pre, steps, kinds, visited);
}
