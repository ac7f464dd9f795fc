/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_movers.c - which steps the stateful search may run back to back
 * without giving other threads a turn: a locking discipline, guessed,
 * then proven by the search itself.
 *
 * Lipton's reduction: a step that commutes with every step of every other
 * thread (a "both-mover") may be glued to the thread's next step; a
 * thread's run of such steps followed by one step that does not commute
 * (visible) is one transition, and every execution can be reordered into
 * those blocks without changing any thread's view or the final state.
 * Which accesses commute is a locking question, so the search first
 * guesses a discipline per location (a field of one object, an open
 * directory's pass, a lock) from a few random executions:
 *
 *   single    only one thread ever touches it (B's own fd table);
 *   read-only nobody writes it (A's fd table after the set-up, S_DEAD of
 *             a directory nobody removes), or a lock only ever taken
 *             shared (i_rwsem when every caller iterates with
 *             ->iterate_shared): down_read and up_read commute then;
 *   locked    every access holds lock L, exclusively when it writes
 *             (f_pos under f_pos_lock in v6.5).
 *
 * Anything else, anything not seen while guessing, every blocking, wake-up
 * and allocation, is visible.  Releasing a visible lock that nobody waits
 * for is a left-mover: whatever another thread did just before it, it
 * could have done just after.  A block is then B* (N or L) (B or L)*:
 * invisible steps, one visible step, then releases and invisible steps
 * up to (not including) the thread's next visible step.  An access that fits its location's
 * discipline cannot race: the discipline orders it against every other
 * thread's access, so it commutes with the steps that can run beside it.
 *
 * The guess is checked at every access the search runs, inside blocks
 * too.  A violation (an access by a second thread, a write, an access
 * without the lock) demotes the location to visible and the search starts
 * again.  When a search ends with no violation, the discipline holds in
 * every execution, not only in the reduced ones (Stoller and Cohen,
 * "Optimistic synchronization-based state-space reduction", TACAS 2003):
 * the shortest execution that breaks it is, but for its last step, one
 * that keeps it, so it reorders into blocks the search ran, and the
 * breaking step is then the next step of a block the search ran too.
 * Demotions only ever remove locations that some execution really
 * violates, so the final discipline, and with it the reduced state graph,
 * does not depend on the order in which the workers found them.
 */
#include <stdlib.h>
#include <string.h>
#include "explore_stateful.h"
#include "footprint.h"

#define KLOCKBIT 0x80000000u
#define FLD_PASS 0x7f           /* the detector's pass of an open directory */

static inline uint32_t kfld(int field, int objkind, int obj)
{
	return (uint32_t)field << 24 | (uint32_t)objkind << 20 |
	       ((uint32_t)obj & 0xfffff);
}

static inline uint32_t klock(vfs_lid_t lid) { return KLOCKBIT | lid; }

static struct xmloc *slot(const struct xmovers *m, uint32_t key)
{
	/* (the product's high half folded down: a key's field and object
	 * kind are its top bits, and the low bits of a product never see
	 * them, so every field of one object had the same home slot) */
	uint32_t h = key * 0x9e3779b1u;
	uint32_t i = (h ^ h >> 16) & m->mask;
	for (;;) {
		struct xmloc *l = &m->t[i];
		if (l->key == key || !l->key)
			return l;
		i = (i + 1) & m->mask;
	}
}

static const struct xmloc *find(const struct xmovers *m, uint32_t key)
{
	if (!m->t)
		return NULL;
	const struct xmloc *l = slot(m, key);
	return l->key ? l : NULL;
}

/* ---- guessing: statistics over random executions ---- */

static void intersect(vfs_lid_t *set, uint8_t *n, const struct vfs_thread *t,
		      bool excl_only)
{
	uint8_t k = 0;
	for (int i = 0; i < *n; i++) {
		int mode;
		if (thread_holds(t, set[i], &mode) && (!excl_only || mode != M_READ))
			set[k++] = set[i];
	}
	*n = k;
}

static void seed_set(vfs_lid_t *set, uint8_t *n, const struct vfs_thread *t,
		     bool excl_only)
{
	*n = 0;
	for (int i = 0; i < t->nheld; i++)
		if (!excl_only || t->held[i].mode != M_READ)
			set[(*n)++] = t->held[i].lock;
}

static void intersect_n(struct xmovers *m, vfs_lid_t *set, uint8_t *n,
			const struct vfs_thread *t, bool excl_only)
{
	uint8_t before = *n;
	intersect(set, n, t, excl_only);
	if (*n != before)
		m->changes++;
}

static void learn_access(struct xmovers *m, const struct vfs_world *w, int tid,
			 uint32_t key, bool write)
{
	struct xmloc *l = slot(m, key);
	if (!l->key) {
		if (m->n + 1 > (int)(m->mask + 1) / 2)
			return;         /* (full: it stays visible) */
		l->key = key;
		m->n++;
		m->changes++;
	}
	const struct vfs_thread *t = &w->threads[tid];
	if (!(l->tids >> tid & 1)) {
		l->tids |= 1u << tid;
		m->changes++;
	}
	if (!l->seen) {
		seed_set(l->any, &l->nany, t, false);
		l->seen = 1;
	} else {
		intersect_n(m, l->any, &l->nany, t, false);
	}
	if (write) {
		if (!l->written) {
			seed_set(l->excl, &l->nexcl, t, true);
			l->written = 1;
			m->changes++;
		} else {
			intersect_n(m, l->excl, &l->nexcl, t, true);
		}
	}
}

/* The locations an event touches, as keys; *write for each. */
static int ev_keys(const struct vfs_world *w, const struct vfs_event *ev,
		   uint32_t key[2], bool write[2])
{
	(void)w;
	/* the locations, as the movers' discipline treats them
	 * (core/footprint.c) */
	struct vfs_loc loc[VFS_FOOTPRINT_MAX];
	int n = vfs_footprint(ev, loc), k = 0;
	for (int i = 0; i < n; i++) {
		const struct vfs_loc *l = &loc[i];
		switch (vfs_loc_use[l->why][VC_MOVERS]) {
		case LU_IGNORE:
			continue;
		case LU_VISIBLE:
			return -1;
		}
		key[k] = l->kind == LOC_LOCK ? klock(l->lock) :
			 l->kind == LOC_PASS ? kfld(FLD_PASS, VOK_FILE, l->obj) :
			 kfld(l->field, l->objkind, l->obj);
		write[k++] = l->write;
	}
	return n < 0 ? -1 : k;
}

static void learn_sink(void *ctx, const struct vfs_world *w,
		       const struct vfs_event *ev)
{
	struct xmovers *m = ctx;
	uint32_t key[2];
	bool write[2];
	int n = ev_keys(w, ev, key, write);
	for (int i = 0; i < n; i++)
		learn_access(m, w, ev->tid, key[i], write[i]);
}

static void decide(struct xmloc *l)
{
	if (__builtin_popcount(l->tids) == 1) {
		l->cls = XM_SINGLE;
		l->tid = (int8_t)__builtin_ctz(l->tids);
	} else if (!l->written) {
		l->cls = XM_RDONLY;
	} else if (!(l->key & KLOCKBIT)) {
		l->cls = XM_VISIBLE;
		/* a lock held at every access, exclusively at every write */
		for (int i = 0; i < l->nany && l->cls == XM_VISIBLE; i++)
			for (int j = 0; j < l->nexcl; j++)
				if (l->any[i] == l->excl[j]) {
					l->cls = XM_LOCKED;
					l->lock = l->any[i];
					break;
				}
	} else {
		l->cls = XM_VISIBLE;
	}
}

int xm_learn(struct xmovers *m, const struct vfs_world *snap, int maxdepth,
	     int runs)
{
	memset(m, 0, sizeof *m);
	m->mask = 1023;         /* 512 locations, then visible */
	m->t = calloc(m->mask + 1, sizeof *m->t);
	struct vfs_world *w = calloc(1, sizeof *w);
	if (!m->t || !w) {
		vfs_world_free(w);
		xm_free(m);
		return -1;
	}
	pthread_mutex_init(&m->mu, NULL);
	m->inited = 1;
	struct vfs_sink sink = { learn_sink, m };
	uint64_t rng = 0x853c49e6748fea9bull;
	/* batches of runs until one teaches nothing new (a wrong guess
	 * costs a search, a run costs a few microseconds) */
	int r = 0;
	for (;;) {
		uint64_t before = m->changes;
		for (int end = r + (runs > 0 ? runs : XM_BATCH); r < end; r++) {
			if (!vfs_world_copy(w, snap)) {
				vfs_world_free(w);
				xm_free(m);
				return -1;
			}
			w->det.no_clocks = 1;
			/* even runs switch threads at random every step, odd
			 * runs keep a thread for a random stretch (the long
			 * critical sections a fair coin rarely leaves whole) */
			int cur = -1, left = 0;
			for (int d = 0; d < maxdepth; d++) {
				int en[XMAXT], n = 0;
				for (int t = 0; t < w->nthreads; t++)
					if (vfs_runnable(w, t))
						en[n++] = t;
				if (!n)
					break;
				int t = en[xorshift64(&rng) % (uint64_t)n];
				if (r & 1) {
					if (left > 0 && cur >= 0 && vfs_runnable(w, cur))
						t = cur, left--;
					else
						cur = t, left = (int)(xorshift64(&rng) % 24);
				}
				vfs_step(w, t, &sink);
			}
			if (xw_lost(w)) {       /* (a run short of a table) */
				vfs_world_free(w);
				xm_free(m);
				return -1;
			}
		}
		if (runs > 0 || (m->changes == before && r >= 2 * XM_BATCH) ||
		    r >= XM_MAXRUNS)
			break;
	}
	m->learn_runs = r;
	vfs_world_free(w);
	for (uint32_t i = 0; i <= m->mask; i++)
		if (m->t[i].key)
			decide(&m->t[i]);
	return 0;
}

void xm_free(struct xmovers *m)
{
	if (m->inited)
		pthread_mutex_destroy(&m->mu);
	free(m->t);
	memset(m, 0, sizeof *m);
}

/* ---- checking, during the search ---- */

void xm_violated(struct xmovers *m, uint32_t key)
{
	pthread_mutex_lock(&m->mu);
	int i = 0;
	while (i < m->ndemote && m->demote[i] != key)
		i++;
	if (i == m->ndemote && m->ndemote < XM_MAXDEMOTE)
		m->demote[m->ndemote++] = key;
	pthread_mutex_unlock(&m->mu);
	__atomic_store_n(&m->violated, 1, __ATOMIC_RELAXED);
}

int xm_event(struct xmovers *m, const struct vfs_world *w,
	     const struct vfs_event *ev, int *vis_access)
{
	uint32_t key[2];
	bool wr[2];
	uint8_t write[2] = { 0, 0 };
	const struct xmloc *l[2] = { NULL, NULL };
	int n = ev_keys(w, ev, key, wr);
	for (int i = 0; i < n; i++) {
		l[i] = find(m, key[i]);
		write[i] = wr[i];
	}
	return xm_classify(m, w, ev, n, key, write, l, vis_access);
}

/* (apart: the memo's hits, inline in the search's sink, need none of
 * its registers) */
void xm_memo_fill(struct xmovers *m, struct xmemo_e *e, const struct vfs_world *w,
		  const struct vfs_event *ev, uint64_t k0, uint64_t k1, uint64_t k2)
{
	bool wr[2];
	int n = ev_keys(w, ev, e->key, wr);
	e->k[0] = k0;
	e->k[1] = k1;
	e->k[2] = k2;
	e->used = 1;
	e->n = (int8_t)n;
	for (int i = 0; i < n; i++) {
		e->l[i] = find(m, e->key[i]);
		e->write[i] = wr[i];
	}
	/* (xm_classify's answer, where it reads nothing of the thread) */
	int cls = n < 0 ? XM_N : XM_B;
	e->fixed_vis = 0;
	for (int i = 0; i < n && cls >= 0; i++) {
		int c = xm_loc_fixed(e->l[i], ev->op, e->write[i]);
		if (c < 0)
			cls = -1;
		else if (c > cls)
			cls = c;
		if (i == 0 && c > XM_B)
			e->fixed_vis = 1;
	}
	e->fixed = (int8_t)cls;
	e->fixed_acc = e->fixed_vis &&
		       (ev->op == OP_READ || ev->op == OP_WRITE) &&
		       vfs_access_checked(ev);
	e->gen = m->gen;
	e->fpn = (int8_t)xfp_keys(ev, e->fpk);
	for (int i = 0; i < e->fpn; i++)
		e->fpb[i] = (uint8_t)xfp_bitno(XKEY(e->fpk[i]));
}

int xm_apply(struct xmovers *m)
{
	int n = m->ndemote;
	for (int i = 0; i < n; i++) {
		struct xmloc *l = slot(m, m->demote[i]);
		if (l->key)
			l->cls = XM_VISIBLE;
	}
	m->ndemote = 0;
	m->violated = 0;
	m->gen++;
	m->rounds++;
	m->demoted += n;
	return n;
}

void xm_count(const struct xmovers *m, int *visible, int *hidden)
{
	*visible = *hidden = 0;
	if (!m->t)
		return;
	for (uint32_t i = 0; i <= m->mask; i++)
		if (m->t[i].key) {
			if (m->t[i].cls == XM_VISIBLE)
				(*visible)++;
			else
				(*hidden)++;
		}
}
