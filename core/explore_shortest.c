/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_shortest.c - the shortest counterexample, of the fewest
 * preemptions, then steps (explore_shortest.h: who runs it).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "explore_stateful.h"
#include "explore_shortest.h"

/* ---- the shortest counterexample (opts.first) ----
 * Step by step from the snapshot, a search in the order of (preemptions,
 * steps): Dijkstra's, with a step costing no preemption when the thread
 * that ran last runs on or cannot run, one otherwise.  A state is told
 * apart by its canonical hash and the thread that ran last, and once a
 * step conflicts with an access the set-up made (below), by its history
 * too, as the stateful search tells it (xs_canon_history: which threads
 * and lock clocks are ordered after each open access); the search then
 * starts again with the clocks on.  Without it two paths to a state, the
 * cheaper one ordering a thread after the set-up's access (taking the
 * lock the set-up's thread let go after it), are one state, the dearer
 * path's race is never tried, and the counterexample printed as the
 * shortest may not be (tests/cli/explore-shortest-history.sh).  At each
 * state searched: a deadlock, a step whose detectors counted a
 * violation, two enabled steps that race (as in expand), or a step whose
 * access conflicts with one the set-up made that some other thread is not
 * ordered after (xs_open_accesses: no state holds both steps enabled, the
 * set-up's was made before the snapshot) give a candidate: the path,
 * completed without preemption (and, for two enabled steps, also with
 * them first, one order and the other), replayed with the race
 * detector's clocks, which tell whether it races; the candidate's cost
 * is the preemptions up to the step where the violation is first
 * reported, and that step.  The search ends when no state left can give
 * a cheaper one.
 *
 * A state searched is its parent's state and one step: the search keeps
 * the states it searched (struct wcache) while states it has yet to
 * search may be made from them, so that making one costs a copy and a
 * step, not its path from the snapshot.  At most KEEP_MAX are kept (the
 * ones needed soonest); a state whose parent's is not kept is made from
 * its nearest ancestor kept (the snapshot at worst).  What the search
 * finds never depends on which are kept. */

struct snode {
	int32_t parent;
	uint8_t tid, last;              /* the step's thread; 255: none */
	uint16_t pre;
	int32_t steps;
	int32_t slot;                   /* its state in the cache; -1: none */
	uint64_t hash;
	uint64_t tree;                  /* xs_tree_hash of its state */
	int32_t ref;                    /* what may be made from its state:
					 * its children not yet searched, and
					 * its children searched, not kept, with
					 * a ref of their own */
	uint8_t later;                  /* its child of no preemption searched
					 * (or none): its state is needed next
					 * by the next preemption's */
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

/* ---- the states kept ----
 * At most KEEP_MAX, each a slot of the cache.  When it is full, a state
 * searched takes the slot of the state kept that is needed last (the
 * largest key of a child it has yet to give: its child of no preemption
 * first, then the others, a preemption later), if that one is needed
 * after it; otherwise it is not kept. */
#define KEEP_MAX 128             /* (a world kept: some 66 KB at 4x4) */

struct wcache {
	struct vfs_world **w;           /* by slot (made when first used) */
	int32_t *free;                  /* the free slots */
	int nfree, n, cap;              /* slots free, made, at most */
	struct sheap last;              /* the kept, by ~need_key (lazily:
					 * an entry whose node is no longer
					 * kept or whose key grew is stale) */
};

static uint64_t need_key(const struct snode *n)
{
	return SKEY(n->pre + n->later, n->steps + 1);
}

/* X needs its parent's state again (it is not kept, or no longer). */
static void wc_ref(struct snode *nd, int32_t x)
{
	while (x > 0 && nd[x].ref++ == 0 && nd[x].slot < 0)
		x = nd[x].parent;
}

/* X's state is no longer needed by one of what its ref counts: when
 * nothing needs it, its slot is freed (or, not kept, its own need of its
 * parent's ends). */
static void wc_unref(struct wcache *wc, struct snode *nd, int32_t x)
{
	while (x > 0 && --nd[x].ref == 0) {
		if (nd[x].slot >= 0) {
			wc->free[wc->nfree++] = nd[x].slot;
			nd[x].slot = -1;
			return;
		}
		x = nd[x].parent;
	}
}

/* A slot for X (made in *W, which the slot's world is swapped with):
 * 0, or 1 when X is not kept, -1 out of memory. */
static int wc_keep(struct wcache *wc, struct snode *nd, int32_t x,
		   struct vfs_world **w)
{
	uint64_t k = need_key(&nd[x]);
	int s = -1;
	if (wc->nfree) {
		s = wc->free[--wc->nfree];
	} else if (wc->n < wc->cap) {
		s = wc->n++;
	} else {
		while (wc->last.n) {
			uint64_t vk = ~wc->last.key[0];
			int32_t v = heap_pop(&wc->last);
			if (nd[v].slot < 0 || need_key(&nd[v]) != vk)
				continue;               /* stale */
			if (vk <= k) {                  /* needed before X */
				if (heap_push(&wc->last, ~vk, v) < 0)
					return -1;
				return 1;
			}
			s = nd[v].slot;
			nd[v].slot = -1;
			wc_ref(nd, nd[v].parent);
			break;
		}
		if (s < 0)
			return 1;
	}
	if (heap_push(&wc->last, ~k, x) < 0) {
		wc->free[wc->nfree++] = s;
		return -1;
	}
	struct vfs_world *t = wc->w[s];
	wc->w[s] = *w;
	*w = t ? t : xs_wnew();
	if (!*w) {
		*w = wc->w[s];
		wc->w[s] = NULL;
		wc->free[wc->nfree++] = s;
		return -1;
	}
	nd[x].slot = s;
	return 0;
}

/* X's need key grew (its child of no preemption was searched). */
static int wc_later(struct wcache *wc, struct snode *nd, int32_t x)
{
	if (x <= 0 || nd[x].later)
		return 0;
	nd[x].later = 1;
	return nd[x].slot < 0 ? 0 : heap_push(&wc->last, ~need_key(&nd[x]), x);
}

/* D a copy of S.  Without the history (clocks off) what a state is and
 * no more, as the stateful search copies (explore_copy.c: no clocks, no
 * report list, no call results; all the worlds here come from the
 * snapshot); with it, or D never made (xs_wnew: no thread), the whole
 * world.  (Whole worlds, a state's and each child's, were 68 M of the
 * 161 M instructions of the shortest search after v6.4's probe, 4
 * thieves of 4 calls; with these and the children's copies back, below,
 * 37 M of 124 M.) */
static bool scopy(struct vfs_world *d, const struct vfs_world *s,
		  uint32_t fixed, bool hist)
{
	if (hist || !d->nthreads)
		return vfs_world_copy(d, s);
	xs_fcopy(d, s, fixed, false);
	return !d->oom || s->oom;
}

/* X's state into W: a copy of its nearest ancestor kept (the snapshot at
 * worst), and the steps from it run again; with HIST the clocks on (the
 * history is part of the state), else off. */
static int wc_make(struct wcache *wc, const struct snode *nd, int32_t x,
		   const struct vfs_world *snap, struct vfs_world *w,
		   uint8_t *path, bool hist, uint32_t fixed)
{
	int32_t y = x;
	int n = 0;
	while (y > 0 && nd[y].slot < 0) {
		path[n++] = nd[y].tid;
		y = nd[y].parent;
	}
	if (!scopy(w, y > 0 ? wc->w[nd[y].slot] : snap, fixed, hist))
		return -1;
	w->det.no_clocks = !hist;
	w->det.open_step = hist ? snap->step : 0;
	while (n > 0)
		vfs_step_noframes(w, path[--n], NULL);
	return xw_lost(w) ? -1 : 0;    /* (a table a step grew: lost) */
}

/* The path of X from the snapshot into PATH (room for its steps). */
static void node_path(const struct snode *nd, int32_t x, uint8_t *path)
{
	for (int i = nd[x].steps; x > 0; x = nd[x].parent)
		path[--i] = nd[x].tid;
}

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
	/* a candidate's prefix is a whole execution: it is followed up to
	 * its first violation only, then completed (the bounded check) */
	bool upto_violation;
};

/* Room for N steps in C's scratch schedule (false: out of memory, said
 * in c->failed). */
static bool sch_room(struct sshort *c, int n)
{
	if (c->capsch >= n)
		return true;
	int cap = n < 512 ? 1024 : n * 2;
	uint8_t *p = realloc(c->sch, (size_t)cap);
	if (!p) {
		c->failed = 1;
		return false;
	}
	c->sch = p;
	c->capsch = cap;
	return true;
}

/* Replay PREFIX (N steps) and complete it without preemption (to its
 * end: every call ends or blocks, so the completion is finite, and the
 * schedule grows as long as it runs); keep it when its violation comes
 * cheaper than the best's. */
static void candidate(struct sshort *c, const uint8_t *prefix, int n)
{
	struct vfs_world *w = c->ev;
	if (!sch_room(c, n + 1))        /* (never NULL: N may be 0) */
		return;
	memcpy(c->sch, prefix, (size_t)n);
	c->failed |= !vfs_world_copy(w, c->snap);
	if (c->failed)
		return;
	int len = 0, pre = 0, vstep = 0, vpre = 0;
	for (;;) {
		int t;
		if (len < n && !(vstep && c->upto_violation)) {
			t = c->sch[len];
			if (!vfs_runnable(w, t))
				return;         /* (cannot happen) */
		} else {
			t = len && vfs_runnable(w, c->sch[len - 1]) ? c->sch[len - 1] : -1;
			for (int i = 0; i < w->nthreads && t < 0; i++)
				if (vfs_runnable(w, i))
					t = i;
			if (t < 0)
				break;
			if (!sch_room(c, len + 1))
				return;
		}
		if (len > 0 && c->sch[len - 1] != t && vfs_runnable(w, c->sch[len - 1]))
			pre++;
		c->sch[len++] = (uint8_t)t;
		vfs_step(w, t, NULL);
		c->failed |= xw_lost(w);       /* (its kinds: the overflow's) */
		if (c->failed)
			return;
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

int xs_shortest(const struct vfs_world *snap, uint32_t viol,
		    struct sknobs *kn, uint8_t **sched, int *len, int *pre,
		    int *steps, uint32_t *kinds, uint64_t *visited)
{
	struct sshort c = { .snap = snap, .viol = viol ? viol : VX_DEFAULT_VIOLATIONS };
	struct snode *nd = NULL;
	size_t nn = 0, capn = 0;
	struct sheap hp = { 0 };
	struct xset closed = { 0 };
	struct sbuf b = { 0 };
	struct xhash hx = { 0 }, hw = { 0 };
	struct xmovers xm;
	struct xobs obs[XMAXT] = { 0 };
	struct vfs_world *Wtmp = xs_wnew(), *K = NULL;
	struct wcache wc = { 0 };
	uint8_t *path = NULL;
	int cappath = 0, rc = 0;
	uint32_t fixed = 0;
	uint64_t polls = 0;
	struct xopen *open = NULL;
	int nopen = 0;
	/* the history, off until a step conflicts with an open access
	 * (xs_canon_history reads of its struct xst the snapshot and the
	 * open accesses only) */
	struct xst hs = { .snap = snap };
	bool hist = false;

	memset(&xm, 0, sizeof xm);
	*visited = 0;
	c.ev = xs_wnew();
	b.cap = xs_canon_bound(snap, true) * 2;
	b.p = malloc(b.cap);
	wc.cap = kn->keep > 0 ? kn->keep : KEEP_MAX;
	wc.w = calloc((size_t)wc.cap, sizeof *wc.w);
	wc.free = malloc((size_t)wc.cap * sizeof *wc.free);
	if (!Wtmp || !c.ev || !b.p || !wc.w || !wc.free)
		goto oom;
	/* the set-up's accesses a step may race with: no state holds two
	 * steps enabled that race then, the step is a candidate itself */
	if ((c.viol & DK_BIT(DK_RACE)) && (nopen = xs_open_accesses(snap, &open)) < 0)
		goto oom;
	hs.open = open;
	hs.nopen = nopen;
	for (int i = 0; i < snap->nthreads; i++)
		if (snap->threads[i].state != TS_FREE)
			fixed |= 1u << i;
	capn = 4096;
	if (!(nd = malloc(capn * sizeof *nd)))
		goto oom;
again:
	nd[0] = (struct snode){ -1, 255, 255, 0, 0, -1, 0, xs_tree_hash(&b, snap), 0, 0 };
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
		xs_pace_wait(kn, *visited);
		int32_t x = heap_pop(&hp);
		struct snode N = nd[x];
		int seen = x ? xset_add(&closed, N.hash) : 1;
		if (seen < 0)
			goto oom;
		if (x && nd[N.parent].pre == N.pre && wc_later(&wc, nd, N.parent) < 0)
			goto oom;
		if (!seen) {
			wc_unref(&wc, nd, N.parent);
			continue;       /* reached before, as cheaply */
		}
		++*visited;
		__atomic_store_n(&kn->told_states, *visited, __ATOMIC_RELAXED);
		__atomic_store_n(&kn->told_pre, (int)N.pre, __ATOMIC_RELAXED);
		__atomic_store_n(&kn->told_steps, (int)N.steps, __ATOMIC_RELAXED);
		if (cappath < N.steps + 2) {
			cappath = (N.steps + 2) * 2;
			uint8_t *p = realloc(path, (size_t)cappath);
			if (!p)
				goto oom;
			path = p;
		}
		/* the state: made from its nearest ancestor kept, then kept
		 * if it is needed before the others kept */
		if (wc_make(&wc, nd, x, snap, Wtmp, path, hist, fixed) < 0)
			goto oom;
		int kept = x ? wc_keep(&wc, nd, x, &Wtmp) : 1;
		if (kept < 0)
			goto oom;
		struct vfs_world *W = kept ? Wtmp : wc.w[nd[x].slot];
		node_path(nd, x, path);
		int last = N.last, nrun = 0;
		int run[XMAXT];
		for (int t = 0; t < W->nthreads; t++)
			if (vfs_runnable(W, t))
				run[nrun++] = t;
		if (!nrun) {
			if (vfs_all_blocked(W))
				candidate(&c, path, N.steps);
			goto done;
		}
		bool lastrun = last != 255 && vfs_runnable(W, last);
		/* its components' hashes: its children's are hashed from them
		 * (only the components a step changed hashed again) */
		if (xs_hash_reserve(&hw, W) < 0)
			goto oom;
		xs_state_hash(&b, &hw, W, N.tree, fixed, hist ? &hs : NULL, NULL,
			      NULL, XTOUCH_ALL);
		int kt = -1;    /* K: W but for thread KT's step; -1: not W's */
		for (int r = 0; r < nrun; r++) {
			int t = run[r];
			struct xobs *o = &obs[r];
			struct xacc *acc = o->acc;
			size_t cap = o->cap;
			memset(o, 0, sizeof *o);
			o->acc = acc;
			o->cap = cap;
			o->xm = &xm;
			o->open = open;
			o->nopen = nopen;
			int opened = 0;
			o->need_hist = &opened;
			struct vfs_sink sink = { xs_obs_sink, o };
			if (!K && !(K = xs_wnew()))
				goto oom;
			/* (K made W again: after the child before, only what
			 * its step touched, K being W's when its marks were
			 * cleared, as the stateful search copies back) */
			if (kt >= 0 && !hist)
				xs_fcopy_back(K, W, fixed, false, xs_touched(K, kt).threads);
			else
				scopy(K, W, fixed, hist);
			xs_touch_clear(K);      /* (what the step touches) */
			uint64_t ni = inode_stamp(K);
			vfs_step_noframes(K, t, &sink);
			kt = t;
			if (o->over || xw_lost(K))     /* (K's copy or step) */
				goto oom;
			if (opened && !hist)
				goto history;
			int p = N.pre + (lastrun && t != last);
			path[N.steps] = (uint8_t)t;
			if (opened || (counts_kinds(W, K) & c.viol))
				candidate(&c, path, N.steps + 1);
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
			/* the tree hashed again only when the step may have
			 * changed it (as the stateful search does) */
			uint64_t tr = tree_clean(K, t, ni) ? N.tree :
				      xs_tree_hash(&b, K);
			if (xs_hash_reserve(&hx, K) < 0)
				goto oom;
			uint64_t h = xmix(xs_state_hash(&b, &hx, K, tr, fixed,
							hist ? &hs : NULL, W, &hw,
							xs_touched(K, t)) ^
					  (uint64_t)(t + 1) * 0x9e3779b97f4a7c15ull);
			if (!h)
				h = 1;
			nd[nn] = (struct snode){ x, (uint8_t)t, (uint8_t)t, (uint16_t)p,
						 N.steps + 1, -1, h, tr, 0, 0 };
			if (heap_push(&hp, SKEY(p, N.steps + 1), (int32_t)nn) < 0)
				goto oom;
			nn++;
			nd[x].ref++;
		}
		/* races: two enabled steps, the current thread's first */
		if (!(c.viol & DK_BIT(DK_RACE)))
			goto done;
		for (int i = 0; i < nrun; i++)
			for (int j = i + 1; j < nrun; j++) {
				if (!xs_steps_race(&obs[i], &obs[j]))
					continue;
				int a = run[i], bb = run[j];
				if (bb == last) {
					int t = a;
					a = bb;
					bb = t;
				}
				candidate(&c, path, N.steps);
				path[N.steps] = (uint8_t)a;
				path[N.steps + 1] = (uint8_t)bb;
				candidate(&c, path, N.steps + 2);
				path[N.steps] = (uint8_t)bb;
				path[N.steps + 1] = (uint8_t)a;
				candidate(&c, path, N.steps + 2);
				i = j = nrun;   /* one pair per state */
			}
done:
		/* its state, kept, no longer needs its parent's; not kept,
		 * its children are made from its parent's */
		if (!nd[x].ref && nd[x].slot >= 0) {
			wc.free[wc.nfree++] = nd[x].slot;
			nd[x].slot = -1;
		}
		if (!nd[x].ref || nd[x].slot >= 0)
			wc_unref(&wc, nd, N.parent);
		continue;
history:
		/* a step conflicts with an open access: the search starts
		 * again from the snapshot with the clocks on, each state told
		 * apart by its history too (as the stateful search does), and
		 * what it found so far forgotten: the counterexample is the
		 * one the search with the history finds, whatever the search
		 * without it met first */
		hist = true;
		free(c.best);
		c.best = NULL;
		c.have = false;
		hp.n = 0;
		xset_free(&closed);
		wc.last.n = 0;
		for (wc.nfree = 0; wc.nfree < wc.n; wc.nfree++)
			wc.free[wc.nfree] = wc.nfree;
		goto again;
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
	free(open);
	free(c.best);
	free(c.sch);
	vfs_world_free(c.ev);
	vfs_world_free(Wtmp);
	for (int i = 0; wc.w && i < wc.n; i++)
		vfs_world_free(wc.w[i]);
	free(wc.w);
	free(wc.free);
	free(wc.last.key);
	free(wc.last.idx);
	vfs_world_free(K);
	free(nd);
	free(hp.key);
	free(hp.idx);
	xset_free(&closed);
	free(b.p);
	free(hx.h);
	free(hw.h);
	free(path);
	for (int i = 0; i < XMAXT; i++)
		free(obs[i].acc);
	return rc;
}

int vfs_explore_shortest(const struct vfs_world *snap, uint32_t viol,
			 int maxpre, uint64_t limit, volatile sig_atomic_t *stop,
			 uint8_t **sched, int *len, int *pre, int *steps,
			 uint32_t *kinds, uint64_t *visited)
{
	struct sknobs kn = { .maxpre = maxpre, .limit = limit, .stop = stop };
	return xs_shortest(snap, viol, &kn, sched, len, pre, steps, kinds, visited);
}

/* ---- the fewest preemptions, by the clocks (iterative bounding) ----
 * The step-by-step search above decides a race between two steps enabled
 * at one state (and a step against the set-up's accesses); a race the
 * clocks see between two steps far apart in a run, never both enabled in
 * a run of fewer preemptions, it meets only at the preemptions of a run
 * where they are.  The bounded search (explore.c, bound K: every
 * interleaving of at most K preemptions, replayed with the clocks, the
 * detector `explore bound K` uses) is the reference: for K from 0 up to
 * the preemptions *PRE of the counterexample found (*SCHED, *LEN, *STEPS,
 * *KINDS), the first K at which it finds a violation of VIOL gives the
 * counterexample: of fewest steps to the violation among its violating
 * executions and the one given (on a tie the one given, then the first
 * in the bounded search's order), completed without preemption as
 * candidate() does.  (Both count a preemption
 * alike: a switch away from a thread that could still run; the bound
 * counts a whole execution's, the cost those up to the violation, and an
 * execution completed without preemption has no more.)  At K = *PRE only
 * fewer steps would do: the runs end at *STEPS (opts.end_at_depth, each
 * prefix an execution that candidate() completes), a search of the
 * prefixes instead of every execution, so the check of a counterexample
 * of no preemption at size costs a blink, not XS_BOUND_STEPS (12 thieves
 * of 4 calls, v6.4: the whole answer 3.3 s -> 0.2 s user).  At most LIMIT
 * executions in all (0: XS_KEEP_MAX in all; each K keeps its
 * executions' schedules, XS_KEEP_MAX at the most) and XS_BOUND_STEPS steps
 * in all (steps, not executions: what a check costs is bounded however
 * long an execution is).  FROM: the K it starts at, every execution of
 * fewer preemptions known clean (the preemption-bounded probe searched
 * them, explore_stateful_run.c).  *CHECKED: the preemptions below
 * which every execution was searched, or -1 (the bounded search failed
 * or was stopped at 0); *EXACT: the K of the answer searched to its end,
 * so it has the fewest steps too; *USED (when not NULL): the executions
 * run (and cut by sleep sets) added.  Returns 1 when the counterexample was
 * replaced, 0 when not, -1 out of memory.  PO: the caller's options, whose
 * stop flag stops it and whose progress callback it calls (a check of
 * many executions runs seconds: its progress line is the bounded
 * search's, its seconds counted from T0, when the caller's search began,
 * as the lines before it were), or NULL. */
struct fwd_progress {
	const struct vfs_explore_opts *po;
	double off;             /* seconds from the caller's start to ours */
};

static void fwd_progress(void *ctx, const struct vfs_explore_progress *p)
{
	const struct fwd_progress *f = ctx;
	struct vfs_explore_progress q = *p;
	q.seconds += f->off;
	f->po->progress(f->po->progress_ctx, &q);
}

int xs_fewest_bounded(const struct vfs_world *snap, uint32_t viol, uint64_t limit,
		      const struct vfs_explore_opts *po, double t0, uint8_t **sched,
		      int *len, int *pre, int *steps, uint32_t *kinds, int *checked,
		      bool *exact)
{
	return xs_fewest_from(snap, viol, 0, limit, po, t0, sched, len, pre, steps,
			      kinds, checked, exact, NULL);
}

int xs_fewest_from(const struct vfs_world *snap, uint32_t viol, int from,
		   uint64_t limit, const struct vfs_explore_opts *po, double t0,
		   uint8_t **sched, int *len, int *pre, int *steps, uint32_t *kinds,
		   int *checked, bool *exact, uint64_t *used)
{
	struct sshort c = { .snap = snap, .viol = viol ? viol : VX_DEFAULT_VIOLATIONS,
			    .have = true, .bpre = *pre, .bsteps = *steps,
			    .upto_violation = true };
	uint64_t left = limit ? limit : XS_KEEP_MAX, lsteps = XS_BOUND_STEPS;
	volatile sig_atomic_t *stop = po ? po->stop : NULL;
	int rc = 0;
	*checked = from > 0 ? from : -1;
	*exact = false;
	if (!(c.ev = xs_wnew()))
		return -1;
	for (int k = from; k <= *pre && left > 0 && lsteps > 0 && !(stop && *stop); k++) {
		struct vfs_explore_opts o;
		struct vfs_explore_result r;
		vfs_explore_opts_init(&o);
		o.bound = k;
		o.jobs = 1;
		/* every execution's schedule kept, so no violating one is
		 * passed over: at most XS_KEEP_MAX of them, the work bounded
		 * there too (past it the check is cut, so not exact) */
		o.max = left < XS_KEEP_MAX ? left : XS_KEEP_MAX;
		o.keep = (uint32_t)o.max;
		o.max_steps = lsteps;
		/* at the counterexample's preemptions, only fewer steps to
		 * the violation would do: no run past its steps (each
		 * prefix an execution; candidate() completes it) */
		if (k == *pre && *steps > 0) {
			o.max_depth = *steps;
			o.end_at_depth = 1;
		}
		o.violations = c.viol;
		o.stop = stop;
		struct fwd_progress fw = { po, po ? xnow() - t0 : 0 };
		if (po && po->progress) {
			o.progress = fwd_progress;
			o.progress_ctx = &fw;
		}
		if (vfs_explore(snap, &o, &r) < 0) {
			rc = -1;
			break;
		}
		uint64_t n = r.executions + r.redundant;
		left = n < left ? left - n : 0;
		if (used)
			*used += n;
		lsteps = r.steps < lsteps ? lsteps - r.steps : 0;
		bool cut = !r.complete && r.cut != XCUT_BOUND;
		for (uint64_t e = 1; e <= r.executions && r.have_cex && !c.failed; e++) {
			const uint8_t *s;
			int n = vfs_explore_schedule(&r, e, &s);
			if (n < 0 || !(vfs_explore_kinds(&r, e) & c.viol))
				continue;
			candidate(&c, s, n);
		}
		bool found = r.have_cex;
		vfs_explore_result_free(&r);
		if (c.failed) {
			rc = -1;
			break;
		}
		if (found || k == *pre) {
			*checked = k;
			*exact = !cut;
			break;
		}
		if (cut)
			break;
		*checked = k + 1;
	}
	if (c.best && rc == 0) {
		free(*sched);
		*sched = c.best;
		c.best = NULL;
		*len = c.blen;
		*pre = c.bpre;
		*steps = c.bsteps;
		*kinds = c.bkinds;
		rc = 1;
	}
	free(c.best);
	free(c.sch);
	vfs_world_free(c.ev);
	return rc;
}
