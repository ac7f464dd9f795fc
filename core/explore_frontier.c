/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_frontier.c - the frontier of the stateful search: the states
 * its workers share out (explore_stateful_run.c), the snapshot alone with
 * one worker, else made breadth first here (without sleep sets) or by the
 * one-worker search cut at a depth (with them: xs_top, explore_stateful.c;
 * explore_sleep.c).
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "explore_stateful.h"

void xs_item_world(const struct xst *st, struct vfs_world *w)
{
	/* races: compared steps (explore_stateful.c), and the clocks only
	 * for races with the snapshot's own accesses */
	w->det.no_clocks = !st->hist;
	w->det.open_step = st->hist ? st->snap->step : 0;
}

/* (under st->imu: workers may be taking items) */
static int add_item(struct xst *st, const struct vfs_world *w, uint64_t h,
		    uint64_t tree, uint64_t acc, const uint8_t *path, int plen,
		    int depth)
{
	struct xitem_s *it = GROW_PUSH(st->items, st->nitems, st->capitems, 64);
	if (!it)
		return -1;
	it->w = w ? xs_wnew() : NULL;
	it->path = malloc((size_t)plen + 1);
	if ((w && !it->w) || !it->path) {
		vfs_world_free(it->w);
		free(it->path);
		return -1;
	}
	if (w && !vfs_world_copy(it->w, w)) {
		vfs_world_free(it->w);
		free(it->path);
		return -1;
	}
	if (w)
		xs_item_world(st, it->w);
	if (plen)
		memcpy(it->path, path, (size_t)plen);
	it->plen = plen;
	it->depth = depth;
	it->hash = h;
	it->tree = tree;
	it->acc = acc;
	it->slp = 0;
	it->zz = NULL;
	it->switches = 0;
	for (int k = 1; k < plen; k++)
		it->switches += path[k] != path[k - 1];
	st->nitems++;
	return 0;
}

int xs_add_item(struct xst *st, const struct vfs_world *w, uint64_t h,
		uint64_t tree, uint64_t acc, const uint8_t *path, int plen,
		int depth)
{
	pthread_mutex_lock(&st->imu);
	int r = add_item(st, w, h, tree, acc, path, plen, depth);
	pthread_mutex_unlock(&st->imu);
	return r;
}

/* The order the workers take the items in: the fewest switches between
 * threads on the item's path first, then the least index.  Any order is
 * sound (explore_sleep.c: an item's rank is its index, whenever it is
 * searched); the order sets how much is searched twice.  A search that
 * reaches a state before a search of a lesser rank, which would have
 * reached it first with one worker, makes that one expand it again, and
 * everything below it that the first took (lvl.first false: retaken).
 * In index order, while one worker searched a large item the other ran
 * through the items after it, small ones whose states the large one
 * reached later: 5 x 3 v6.5, two workers, 14,600 to 30,300 states
 * retaken, 443,000 to 477,000 transitions for one worker's 415,209.  The
 * large items are those with few switches (their threads run long
 * blocks, as the least paths do: 1,276 items at depth 8, the 100 with
 * one switch hold 117,005 states of 229,376, the 21 with five 140), and
 * the items after them mostly end in their states; taken first, the
 * large ones run beside each other, which share little, and the small
 * ones after, into states already ranked lower: 1,900 to 2,600 retaken,
 * 419,800 to 421,100 transitions.  Where the items are few, large and
 * overlapping it does worse: a low-rank item with more switches, taken
 * late, expands again what the items after it searched (v5.6 3 x 3
 * searched whole, 759 items for 12.4 M states: 25.0 M transitions in
 * index order, 30.0 M; bench/README.md, stop 38).  Without sleep sets
 * there are no ranks, and the order changes only who searches what.
 * Each count's cursor only moves forward (items are added at the end,
 * in index order), so all the takes of a search cost the items times
 * XS_SWITCHES. */
int xs_take_item(struct xst *st)
{
	for (int k = 0; k < XS_SWITCHES; k++) {
		int *c = &st->swnext[k];
		for (; *c < st->nitems; ++*c) {
			int n = st->items[*c].switches;
			if ((n < XS_SWITCHES - 1 ? n : XS_SWITCHES - 1) == k) {
				st->ntaken++;
				return (*c)++;
			}
		}
	}
	return -1;
}

void xs_free_items(struct xst *st, int from, int to)
{
	for (int i = from; i < to; i++) {
		struct xitem_s *it = &st->items[i];
		vfs_world_free(it->w);
		free(it->path);
		for (int k = 0; it->zz && k < __builtin_popcount(it->slp); k++)
			free(it->zz[k].acc);
		free(it->zz);
	}
}

/* The snapshot, the one item, put in the visited set by worker S (its
 * buffer kept when big enough: top_sleep's tries, xs_worker_restart). */
int xs_root_item(struct xst *st, struct sworker *s)
{
	struct sbuf *b = &s->buf;
	size_t need = xs_canon_bound(st->snap, true) * 2;
	if (b->cap < need) {
		free(b->p);
		b->cap = need;
		if (!(b->p = malloc(b->cap)))
			return -1;
	}
	uint64_t t0 = xs_tree_hash(b, st->snap);
	struct xhash x = { 0 };
	if (xs_hash_reserve(&x, st->snap) < 0)
		return -1;
	uint64_t h = xs_state_hash(b, &x, st->snap, t0, st->fixed,
				   st->hist ? st : NULL, NULL, NULL, XTOUCH_ALL);
	free(x.h);
	if (vt_insert(&st->vt, h, s->id) == -2)
		return -1;
	return xs_add_item(st, st->snap, h, t0, 0, NULL, 0, 0);
}

/* The frontier: breadth first from the snapshot until it has SPLIT
 * states (or the graph ends); worker 0's buffers do the expanding. */
int xs_top_bfs(struct xst *st, struct sworker *s)
{
	if (xs_root_item(st, s) < 0)
		return -1;
	int lo = 0;
	/* one worker: no frontier (the graph does not depend on it) */
	int split = st->jobs > 1 ? SPLIT_PER_JOB * st->jobs : 1;
	while (st->nitems - lo < split && lo < st->nitems) {
		int hi = st->nitems;
		for (int k = lo; k < hi; k++) {
			struct xitem_s *it = &st->items[k];
			int d = it->depth;
			if (xs_lv_grow(s, d + 2) < 0 || xs_path_grow(s, it->plen + 1) < 0)
				return -1;
			memcpy(s->path, it->path, (size_t)it->plen);
			s->lv[d].state = it->w;
			s->lv[d].hash = it->hash;
			s->lv[d].tree = it->tree;
			s->lv[d].acc = it->acc;
			s->lv[d].plen = it->plen;
			s->lv[d].slp = 0;
			s->lv[d].first = true;
			if (xs_level_hash(s, d, false, -1) < 0 || xs_expand(s, d) < 0)
				return -1;
			struct lvl *L = &s->lv[d];
			if (!xs_count_node(s, L))
				goto keep;
			for (int i = 0; i < L->n; i++) {
				bool take = false;
				int np, r = xs_reach(s, L, i, &np, &take);
				if (r == XR_ERROR)
					return -1;
				if (r == XR_CUT)
					goto keep;
				if (r == XR_SEEN)
					continue;
				struct vfs_world *W = xs_regen_next(s, d, i);
				/* (add_item moves items: L stays valid) */
				if (!W || xs_add_item(st, W, L->h[i], L->tr[i], L->sacc[i],
						   s->path, np, d + 1) < 0)
					return -1;
			}
		}
		/* expanded: no longer part of the frontier */
		xs_free_items(st, lo, hi);
		lo = hi;
	}
keep:   /* the frontier only (cut short: the level being expanded too) */
	memmove(st->items, st->items + lo, sizeof *st->items * (size_t)(st->nitems - lo));
	st->nitems -= lo;
	return 0;
}

/* The threads asleep at IT, its level BASE's: what their blocks did,
 * put in level BASE - 1 (a level this search never reaches), as a
 * successor each. */
int xs_item_sleepers(struct sworker *s, const struct xitem_s *it, int base)
{
	struct lvl *P = &s->lv[base - 1], *L = &s->lv[base];
	int k = 0;
	for (uint32_t m = it->slp; m; m &= m - 1, k++) {
		int u = __builtin_ctz(m);
		const struct xsleeper *z = &it->zz[k];
		struct xobs *o = &P->obs[u];
		if (z->nacc > o->cap) {
			struct xacc *a = realloc(o->acc, sizeof *a * z->nacc);
			if (!a)
				return -1;
			o->acc = a;
			o->cap = z->nacc;
		}
		if (z->nacc)
			memcpy(o->acc, z->acc, sizeof *o->acc * z->nacc);
		o->nacc = z->nacc;
		P->fp[u] = z->fp;
		P->cup[u] = z->cup;
		P->nst[u] = z->nst;
		P->ncut[u] = z->ncut;
		P->kinds[u] = z->kinds;
		L->sref_d[u] = base - 1;
		L->sref_i[u] = (uint8_t)u;
	}
	L->slp = it->slp;
	return 0;
}

/* Level D's successor I (level D + 1 made: its sleep set) as a frontier
 * item (xs_top): its state, path (NP steps) and the threads asleep there
 * with their blocks. */
int xs_make_item(struct sworker *s, int d, int i, int np)
{
	struct xst *st = s->st;
	const struct lvl *L = &s->lv[d], *C = &s->lv[d + 1];
	int n = __builtin_popcount(C->slp);
	struct xsleeper *zz = n ? calloc((size_t)n, sizeof *zz) : NULL;
	if (n && !zz)
		return -1;
	int k = 0;
	for (uint32_t m = C->slp; m; m &= m - 1, k++) {
		int u = __builtin_ctz(m);
		const struct lvl *R = &s->lv[C->sref_d[u]];
		int j = C->sref_i[u];
		struct xsleeper *z = &zz[k];
		const struct xobs *o = &R->obs[j];
		z->fp = R->fp[j];
		z->cup = R->cup[j];
		z->nst = R->nst[j];
		z->ncut = R->ncut[j];
		z->kinds = R->kinds[j];
		z->nacc = o->nacc;
		if (o->nacc) {
			if (!(z->acc = malloc(sizeof *z->acc * o->nacc))) {
				while (k >= 0)
					free(zz[k--].acc);
				free(zz);
				return -1;
			}
			memcpy(z->acc, o->acc, sizeof *z->acc * o->nacc);
		}
	}
	/* (its state not kept: made again from its path, xs_item_state;
	 * complete before a worker can take it) */
	pthread_mutex_lock(&st->imu);
	int r = add_item(st, NULL, L->h[i], L->tr[i], L->sacc[i], s->path, np, d + 1);
	if (r == 0) {
		struct xitem_s *it = &st->items[st->nitems - 1];
		it->slp = C->slp;
		it->zz = zz;
		pthread_cond_signal(&st->icv);
	}
	int items = st->nitems;
	pthread_mutex_unlock(&st->imu);
	if (r < 0) {
		for (k = 0; k < n; k++)
			free(zz[k].acc);
		free(zz);
		return -1;
	}
	s->rank = (uint32_t)items;
	if (st->early && !st->started && items >= st->early) {
		xs_start_early(st);
		for (bool taken = st->started < 2; xs_early_wait && !taken;) {
			pthread_mutex_lock(&st->imu);
			taken = st->ntaken > 0 || xs_stopped(s);
			pthread_mutex_unlock(&st->imu);
			sched_yield();
		}
	}
	return 0;
}

bool xs_early_wait;

/* IT's state when not kept (xs_top's items: a world each would cost
 * more than the search's table): the snapshot stepped along its path, in
 * the worker's buffer; NULL when out of memory. */
struct vfs_world *xs_item_state(struct sworker *s, const struct xitem_s *it)
{
	if (it->w)
		return it->w;
	if (!s->itemw && !(s->itemw = xs_wnew()))
		return NULL;
	if (!vfs_world_copy(s->itemw, s->st->snap))
		return NULL;
	xs_item_world(s->st, s->itemw);
	for (int k = 0; k < it->plen; k++)
		vfs_step(s->itemw, it->path[k], NULL);
	return xw_lost(s->itemw) ? NULL : s->itemw;
}
