/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_search.c - one worker's depth-first search of one subtree.
 *
 * Stateless search by replay: the world of the current state is kept in
 * one buffer and stepped in place; every CKSTEP levels a checkpoint copy is
 * kept, and going back to a state copies the checkpoint and replays the
 * schedule from there.
 *
 * Reduction: source-set DPOR with sleep sets (Abdulla, Aronis, Jonsson,
 * Sagonas, "Optimal dynamic partial order reduction", POPL 2014, Alg. 1).
 * Each step's footprint (the locks and fields it touched, from its trace
 * events) gives the happens-before relation as vector clocks over the
 * events of the current execution; for each new event, the events it races
 * with (conflicting, other thread, not already ordered) are looked up per
 * key (last write, reads since) and a thread that starts an equivalent
 * reversed execution is added to the backtrack set of the state before the
 * earlier event, unless one already is there.
 *
 * Access kinds (explore_int.h, xfp_commute; explore_stateful.c, "Access
 * kinds"): DPOR has no node state, so of the kinds it claims only that
 * two steps whose common locations are counters both change by +1s alone
 * (two fgets of one file) commute, in every state: each reads nothing
 * and the sum is the same.  Its sleep sets use that (a thread stays
 * asleep across such a step: the executions it would start are
 * equivalent to ones its own branch explored).  Its races do not: the
 * clocks above take a +1 as a write, which only adds races and so
 * backtracking (sound; clocks that know +1s, a third class per key, ran
 * the same executions on bench/explore-bench v6.4 and v6.5, -t 3 -f 2
 * -c 1 and -t 2 -c 2, for 19% more instructions: not kept).
 *
 * A thread woken by a release resumes holding the lock: its next step
 * happens after the release (an ordering edge that is not a race: it could
 * not run before).  A thread created by a step starts after it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "explore_int.h"
#include "grow.h"
#include "footprint.h"
#include "internal.h"

#define CKSTEP 4                /* levels between checkpoints */
#define NSLOTS 4096             /* keys tracked, then one shared slot */
#define SLOTW (1 + XMAXT)       /* last write, last read per thread */
#define KS_LASTEV(t) (t)
#define KS_PJ(t)     (XMAXT + (t))
#define KS_SLOT(s)   (2 * XMAXT + (s) * SLOTW)
#define SLOT_ALL     NSLOTS     /* "touches everything" steps */
#define SLOT_OVER    (NSLOTS + 1)
#define KS_SIZE      (KS_SLOT(NSLOTS + 2))


enum { MODE_ITEM, MODE_TOP };

struct ulog { int32_t idx, old; };

struct xsearch {
	struct xshared *sh;
	int worker;
	int mode, topdepth, root;
	bool naive;
	int bound;
	bool may_spawn;
	/* per level, capacity cap */
	int cap;
	uint8_t *tid;
	struct xfp *fp;
	uint32_t *clk;          /* cap * XMAXT: 1 + index of the latest event
				 * of each thread that happens before */
	uint32_t *bt, *done, *slp, *en;
	struct xfp *slpfp;      /* cap * slw */
	int slw;                /* its rows: the threads a level may have
				 * (the snapshot's; XMAXT when a call spawns):
				 * 104 bytes each, 850 KB a search at XMAXT */
	uint64_t *acc;
	uint16_t *pre;
	uint8_t *lastrun;
	uint32_t *mark;
	/* undo log of the key state */
	struct ulog *ulog;
	size_t nlog, caplog;
	/* (DPOR's alone: made by its first reset, then each reset undoes
	 * the log, 100 entries or so, not the 540 KB again; ks_logged:
	 * every change since the table was all -1 is in the log) */
	int32_t *ks;
	uint32_t *keys;
	bool ks_logged;
	/* worlds */
	struct vfs_world *cur;
	struct vfs_world **ck;
	int nck;
	int wdepth;
	/* the step being run */
	struct xfp *cfp;
	int steptid;
	uint32_t woken;
	struct vfs_sink sink;
	struct xitem *item;
	struct xitem scratch;   /* the top's counters */
	bool item_stop;
	uint8_t *sched;         /* scratch for keeping schedules */
	int failed;
};

bool xsearch_stopped(const struct xshared *sh)
{
	return sh->o.stop && *sh->o.stop;
}

/* ---- footprints ---- */

/* Location L's key in a footprint. */
static inline uint32_t loc_key(const struct vfs_loc *l)
{
	return l->kind == LOC_LOCK ? KLOCK(l->lock) :
	       l->kind == LOC_PASS ? KPASS(l->obj) :
	       KFLD(l->field, l->objkind, l->obj);
}

/* Location L's kind bits in a footprint (USE: vfs_loc_use's for DPOR; a
 * location every touch of which conflicts is written plainly). */
static inline uint32_t loc_kind(const struct vfs_loc *l, int use)
{
	return use == LU_WRITE ? XW | XPW : xkind_bits(l->write, l->akind);
}

/* (inline, always: DPOR's sink, xfp_event, makes them for every event) */
static inline __attribute__((always_inline)) int
fp_keys(const struct vfs_event *ev, uint32_t key[VFS_FOOTPRINT_MAX])
{
	struct vfs_loc loc[VFS_FOOTPRINT_MAX];
	int n = vfs_footprint(ev, loc), k = 0;
	for (int i = 0; i < n; i++) {
		int use = vfs_loc_use[loc[i].why][VC_DPOR];
		if (use != LU_IGNORE)
			key[k++] = loc_key(&loc[i]) | loc_kind(&loc[i], use);
	}
	return n < 0 ? -1 : k;
}

int xfp_keys(const struct vfs_event *ev, uint32_t key[VFS_FOOTPRINT_MAX])
{
	return fp_keys(ev, key);
}

void xfp_event(struct xfp *f, const struct vfs_event *ev)
{
	uint32_t key[VFS_FOOTPRINT_MAX];
	xfp_add_keys(f, fp_keys(ev, key), key);
}

static void xsink(void *ctx, const struct vfs_world *w,
		  const struct vfs_event *ev)
{
	struct xsearch *s = ctx;
	(void)w;
	if (ev->op == OP_WAKE && ev->tid != s->steptid && ev->tid >= 0)
		s->woken |= 1u << ev->tid;
	xfp_event(s->cfp, ev);
}

/* ---- memory ---- */

#define GROW(p, n) do { \
		void *q_ = realloc((p), sizeof *(p) * (size_t)(n)); \
		if (!q_) \
			return -1; \
		(p) = q_; \
	} while (0)

static int grow(struct xsearch *s, int need)
{
	if (need < s->cap)
		return 0;
	int cap = s->cap ? s->cap : 256;
	while (cap <= need)
		cap *= 2;
	GROW(s->tid, cap);
	GROW(s->fp, cap);
	GROW(s->clk, (size_t)cap * XMAXT);
	GROW(s->bt, cap);
	GROW(s->done, cap);
	GROW(s->slp, cap);
	GROW(s->en, cap);
	GROW(s->slpfp, (size_t)cap * (size_t)s->slw);
	GROW(s->acc, cap);
	GROW(s->pre, cap);
	GROW(s->lastrun, cap);
	GROW(s->mark, cap);
	GROW(s->sched, cap);
	s->cap = cap;
	return 0;
}

static inline void uset(struct xsearch *s, int32_t idx, int32_t v)
{
	if (s->ks[idx] == v)
		return;
	if (s->nlog == s->caplog) {
		size_t c = s->caplog ? s->caplog * 2 : 4096;
		struct ulog *n = realloc(s->ulog, c * sizeof *n);
		if (!n) {
			s->failed = 1;
			s->ks_logged = false;
			s->ks[idx] = v;
			return;
		}
		s->ulog = n;
		s->caplog = c;
	}
	s->ulog[s->nlog].idx = idx;
	s->ulog[s->nlog].old = s->ks[idx];
	s->nlog++;
	s->ks[idx] = v;
}

static void undo_to(struct xsearch *s, size_t mark)
{
	while (s->nlog > mark) {
		s->nlog--;
		s->ks[s->ulog[s->nlog].idx] = s->ulog[s->nlog].old;
	}
}

static int slot_of(struct xsearch *s, uint32_t key)
{
	uint32_t h = (key * 2654435761u) >> 20;
	for (int i = 0; i < 64; i++) {
		uint32_t j = (h + (uint32_t)i) & (NSLOTS - 1);
		if (s->keys[j] == key)
			return (int)j;
		if (!s->keys[j]) {
			s->keys[j] = key;
			return (int)j;
		}
	}
	return SLOT_OVER;       /* shared: more conflicts, still sound */
}

struct xsearch *xsearch_new(struct xshared *sh, int worker)
{
	struct xsearch *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->sh = sh;
	s->worker = worker;
	s->naive = sh->o.naive || sh->o.bound >= 0;
	s->bound = sh->o.bound;
	s->cur = calloc(1, sizeof *s->cur);
	s->sink.fn = xsink;
	s->sink.ctx = s;
	/* a clone/fork may create threads: their clocks must start clean */
	const struct vfs_world *w = sh->snap;
	for (int t = 0; t < w->nthreads && !s->may_spawn; t++)
		for (int i = 0; i < w->threads[t].npending; i++) {
			int sys = w->threads[t].pending[(w->threads[t].pend_head + i) %
							VFS_MAX_PENDING].sys;
			if (vfs_sys[sys].flags & VSYS_SPAWNS)
				s->may_spawn = true;
		}
	s->slw = s->may_spawn || w->nthreads < 1 ? XMAXT : w->nthreads;
	if (!s->cur || grow(s, 256) < 0) {
		xsearch_free(s);
		return NULL;
	}
	return s;
}

void xsearch_free(struct xsearch *s)
{
	if (!s)
		return;
	free(s->tid); free(s->fp); free(s->clk); free(s->bt); free(s->done);
	free(s->slp); free(s->en); free(s->slpfp); free(s->acc); free(s->pre);
	free(s->lastrun); free(s->mark); free(s->sched);
	free(s->ulog); free(s->ks); free(s->keys); vfs_world_free(s->cur);
	for (int i = 0; i < s->nck; i++)
		vfs_world_free(s->ck[i]);
	free(s->ck);
	free(s);
}

/* false: out of memory (D short of a table: not to be stepped) */
static bool wcopy(struct xsearch *s, struct vfs_world *d,
		  const struct vfs_world *src)
{
	return s->may_spawn ? xwcopy_spawn(d, src) : vfs_world_copy(d, src);
}

static int save_ck(struct xsearch *s, int d)
{
	int i = (d - s->root) / CKSTEP;
	if (i >= s->nck) {
		struct vfs_world **n = realloc(s->ck, sizeof *n * (size_t)(i + 1));
		if (!n)
			return -1;
		s->ck = n;
		while (s->nck <= i) {
			s->ck[s->nck] = calloc(1, sizeof **s->ck);
			if (!s->ck[s->nck])
				return -1;
			s->nck++;
		}
	}
	return wcopy(s, s->ck[i], s->cur) ? 0 : -1;
}

static int restore(struct xsearch *s, int d)
{
	int c = s->root + ((d - s->root) / CKSTEP) * CKSTEP;
	if (!wcopy(s, s->cur, s->ck[(c - s->root) / CKSTEP]))
		return -1;
	for (int j = c; j < d; j++)
		vfs_step(s->cur, s->tid[j], NULL);
	s->item->steps += (uint64_t)(d - c);
	s->wdepth = d;
	return xw_lost(s->cur) ? -1 : 0;
}

/* ---- one step, with the bookkeeping of the reduction ---- */

static void join(uint32_t *c, const uint32_t *o, int n)
{
	for (int i = 0; i < n; i++)
		if (o[i] > c[i])
			c[i] = o[i];
}

static void race_add(struct xsearch *s, int i, int n)
{
	int pi = s->tid[i];
	uint32_t seen = 0, init = 0;
	int firstv[XMAXT];
	int nth = s->cur->nthreads;
	for (int j = i + 1; j < n; j++) {
		const uint32_t *cj = s->clk + (size_t)j * XMAXT;
		if (cj[pi] >= (uint32_t)i + 1)
			continue;       /* happens after e: not in v */
		int r = s->tid[j];
		if (seen >> r & 1)
			continue;
		bool pred = false;
		for (int u = 0; u < nth && !pred; u++)
			pred = (seen >> u & 1) && cj[u] >= (uint32_t)firstv[u] + 1;
		seen |= 1u << r;
		firstv[r] = j;
		if (!pred)
			init |= 1u << r;
	}
	int q = s->tid[n];
	if (!(seen >> q & 1)) {
		const uint32_t *cn = s->clk + (size_t)n * XMAXT;
		bool pred = false;
		for (int u = 0; u < nth && !pred; u++)
			pred = (seen >> u & 1) && cn[u] >= (uint32_t)firstv[u] + 1;
		if (!pred)
			init |= 1u << q;
	}
	if (!init || (init & s->bt[i]))
		return;
	uint32_t awake = init & ~s->slp[i];
	s->bt[i] |= 1u << __builtin_ctz(awake ? awake : init);
}

static int push(struct xsearch *s, int d, int p)
{
	struct vfs_world *w = s->cur;
	int nth0 = w->nthreads;
	uint64_t nino = inode_stamp(w);
	int32_t nfid = w->next_file_id, npid = w->next_pid,
		nfdt = w->nfdt, nprocs = w->nprocs;

	if (grow(s, d + 2) < 0)
		return -1;
	struct xfp *f = &s->fp[d];      /* after grow: it may move s->fp */
	xfp_clear(f);
	s->cfp = f;
	s->steptid = p;
	s->woken = 0;
	s->tid[d] = (uint8_t)p;
	s->pre[d + 1] = (uint16_t)(s->pre[d] +
		(d > 0 && s->lastrun[d] && s->tid[d - 1] != p));
	bool completed = vfs_step(w, p, s->naive ? NULL : &s->sink);
	s->item->steps++;
	s->wdepth = d + 1;
	s->acc[d + 1] = s->acc[d] +
		(completed ? xcall_hash(w, p) : 0);

	if (!s->naive) {
		if (w->next_file_id != nfid) xfp_add(f, KALLOC(1), XW | XPW);
		if (inode_stamp(w) != nino) xfp_add(f, KALLOC(2), XW | XPW);
		if (w->next_pid != npid || w->nthreads != nth0)
			xfp_add(f, KALLOC(3), XW | XPW);
		if (w->nfdt != nfdt || w->nprocs != nprocs)
			xfp_add(f, KALLOC(4), XW | XPW);

		int nth = w->nthreads;
		uint32_t *C = s->clk + (size_t)d * XMAXT, B[XMAXT];
		int races[64], nr = 0;
		int le = s->ks[KS_LASTEV(p)], pj = s->ks[KS_PJ(p)];
		s->mark[d] = (uint32_t)s->nlog;
		if (le >= 0)
			memcpy(C, s->clk + (size_t)le * XMAXT, sizeof *C * XMAXT);
		else
			memset(C, 0, sizeof *C * XMAXT);
		if (pj >= 0) {
			join(C, s->clk + (size_t)pj * XMAXT, nth);
			uset(s, KS_PJ(p), -1);
		}
		memcpy(B, C, sizeof B);
#define RACE(e) do { if (nr < 64) races[nr++] = (e); } while (0)
		if (f->all) {
			/* ordered after everything before it */
			for (int u = 0; u < nth; u++) {
				int e = s->ks[KS_LASTEV(u)];
				if (e < 0)
					continue;
				join(C, s->clk + (size_t)e * XMAXT, nth);
				if (u != p && B[u] < (uint32_t)e + 1)
					RACE(e);
			}
			uset(s, KS_SLOT(SLOT_ALL), d);
		} else {
			int wa = s->ks[KS_SLOT(SLOT_ALL)];
			if (wa >= 0) {
				join(C, s->clk + (size_t)wa * XMAXT, nth);
				if (s->tid[wa] != p && B[s->tid[wa]] < (uint32_t)wa + 1)
					RACE(wa);
			}
			for (int k = 0; k < f->n; k++) {
				int base = KS_SLOT(slot_of(s, XKEY(f->key[k])));
				int lw = s->ks[base];
				if (f->key[k] & XW) {
					bool anyr = false;
					for (int u = 0; u < nth; u++) {
						int r = s->ks[base + 1 + u];
						if (r < 0)
							continue;
						anyr = true;
						join(C, s->clk + (size_t)r * XMAXT, nth);
						if (u != p && B[u] < (uint32_t)r + 1)
							RACE(r);
						uset(s, base + 1 + u, -1);
					}
					if (lw >= 0) {
						join(C, s->clk + (size_t)lw * XMAXT, nth);
						if (!anyr && s->tid[lw] != p &&
						    B[s->tid[lw]] < (uint32_t)lw + 1)
							RACE(lw);
					}
					uset(s, base, d);
				} else {
					if (lw >= 0) {
						join(C, s->clk + (size_t)lw * XMAXT, nth);
						if (s->tid[lw] != p &&
						    B[s->tid[lw]] < (uint32_t)lw + 1)
							RACE(lw);
					}
					uset(s, base + 1 + p, d);
				}
			}
		}
#undef RACE
		C[p] = (uint32_t)d + 1;
		uset(s, KS_LASTEV(p), d);
		for (uint32_t m = s->woken; m; m &= m - 1)
			uset(s, KS_PJ(__builtin_ctz(m)), d);
		for (int t = nth0; t < nth; t++)
			uset(s, KS_LASTEV(t), d);

		if (s->mode == MODE_ITEM)
			for (int r = 0; r < nr; r++)
				if (races[r] >= s->root)
					race_add(s, races[r], d);

		uint32_t ns = 0;
		for (uint32_t m = s->slp[d]; m; m &= m - 1) {
			int r = __builtin_ctz(m);
			const struct xfp *rf = &s->slpfp[(size_t)d * (size_t)s->slw + r];
			if (r != p && xfp_indep(rf, f)) {
				ns |= 1u << r;
				s->slpfp[(size_t)(d + 1) * (size_t)s->slw + r] = *rf;
			}
		}
		s->slp[d + 1] = ns;
	} else {
		s->slp[d + 1] = 0;
	}
	if ((d + 1 - s->root) % CKSTEP == 0 && d + 1 > s->root &&
	    save_ck(s, d + 1) < 0)
		return -1;
	/* (w->oom: a table the step grew, a detector's say, was lost: its
	 * kinds would be the overflow's, not what the step did) */
	return s->failed || xw_lost(w) ? -1 : 0;
}

/* Back from the branch taken at level d. */
static void pop(struct xsearch *s, int d)
{
	if (s->naive)
		return;
	undo_to(s, s->mark[d]);
	int p = s->tid[d];
	s->slp[d] |= 1u << p;
	s->slpfp[(size_t)d * (size_t)s->slw + p] = s->fp[d];
}

/* ---- leaves ---- */

static int add_item(struct xsearch *s, int d)
{
	struct xshared *sh = s->sh;
	struct xitem *it = GROW_PUSH(sh->items, sh->nitems, sh->capitems, 64);
	if (!it)
		return -1;
	memset(it, 0, sizeof *it);
	it->plen = d;
	it->prefix = malloc((size_t)d + 1);
	it->slpfp = malloc(sizeof *it->slpfp * (size_t)s->slw);
	if (!it->prefix || !it->slpfp) {
		free(it->prefix);
		free(it->slpfp);
		return -1;
	}
	memcpy(it->prefix, s->tid, (size_t)d);
	it->slp = s->naive ? 0 : s->slp[d];
	for (uint32_t m = it->slp; m; m &= m - 1) {
		int r = __builtin_ctz(m);
		it->slpfp[r] = s->slpfp[(size_t)d * (size_t)s->slw + r];
	}
	sh->nitems++;
	return 0;
}

static int finish(struct xsearch *s, int d)
{
	struct xshared *sh = s->sh;
	struct xitem *it = s->item;
	const struct vfs_world *w = s->cur;
	uint64_t h = s->acc[d] + xfinal_hash(w);
	uint8_t kinds = (uint8_t)xkinds_of(sh->snap, w);
	int pre = s->pre[d];
	uint64_t k;

	if (!h)
		h = 1;
	k = ++it->execs;
	/* the progress reader (explore.c report()) loads these while we run */
	__atomic_add_fetch(&sh->live_execs[s->worker], 1, __ATOMIC_RELAXED);
	if (pre > it->maxpre)
		it->maxpre = pre;
	for (int i = 0; i < DK__COUNT; i++)
		it->kind_execs[i] += kinds >> i & 1;
	uint32_t ovf = xoverflowed(sh->snap, w);
	it->overflowed |= ovf;
	bool viol = (kinds & sh->viol) != 0;
	if (viol) {
		it->violating++;
		__atomic_add_fetch(&sh->live_viol[s->worker], 1, __ATOMIC_RELAXED);
	}
	if (xset_add(&it->out, h) < 0)
		return -1;
	if (sh->o.max) {
		struct xrec *rec = GROW_PUSH(it->recs, it->nrecs, it->caprecs, 1024);
		if (!rec)
			return -1;
		rec->hash = h;
		rec->pre = (uint16_t)pre;
		rec->kinds = kinds;
		rec->overflowed = ovf;
		it->nrecs++;
	}
	if (viol && (!it->cands.n || (uint64_t)pre < it->cands.e[it->cands.n - 1].k >> 48)) {
		/* k in the low bits, preemptions in the top 16 */
		if (xtable_add(&it->cands, k | (uint64_t)pre << 48, kinds,
			       s->tid, (uint32_t)d) < 0)
			return -1;
	}
	bool keep = (it->keep_first && k <= (uint64_t)sh->keep) ||
		    (viol && it->keep_viol && it->kept_viol < (uint64_t)sh->keep);
	if (keep) {
		if (viol)
			it->kept_viol++;
		if (xtable_add(&it->kept, k, kinds, s->tid, (uint32_t)d) < 0)
			return -1;
	}
	if ((sh->o.max && it->execs + it->redundant >= it->budget) ||
	    (sh->o.max_steps && it->steps >= it->step_budget)) {
		s->item_stop = true;
		it->cut = XCUT_MAX;
	}
	if (viol && sh->o.stop_at_violation) {     /* (explore_stateful_run.c's probe) */
		s->item_stop = true;
		it->cut = XCUT_FOUND;
	}
	return 0;
}

/* The threads enabled at depth d, and whether the last one runs on. */
static uint32_t set_enabled(struct xsearch *s, int d)
{
	const struct vfs_world *w = s->cur;
	uint32_t en = 0;
	for (int t = 0; t < w->nthreads; t++)
		if (vfs_runnable(w, t))
			en |= 1u << t;
	s->en[d] = en;
	s->lastrun[d] = d > 0 && (en >> s->tid[d - 1] & 1);
	return en;
}

/* At state d: 1 when it is a leaf, 0 when bt[d] is set, -1 on error. */
static int enter_state(struct xsearch *s, int d)
{
	uint32_t en = set_enabled(s, d);
	if (s->mode == MODE_TOP && d >= s->topdepth)
		return add_item(s, d) < 0 ? -1 : 1;
	if (!en) {
		if (s->mode == MODE_TOP)
			return add_item(s, d) < 0 ? -1 : 1;
		return finish(s, d) < 0 ? -1 : 1;
	}
	if (d >= s->sh->maxdepth) {
		if (s->mode == MODE_TOP)
			return add_item(s, d) < 0 ? -1 : 1;
		if (s->sh->o.end_at_depth)
			return finish(s, d) < 0 ? -1 : 1;
		s->item->cut = XCUT_DEPTH;
		return 1;
	}
	uint32_t avail = s->naive ? en : en & ~s->slp[d];
	if (!avail) {
		if (s->mode == MODE_TOP)
			return add_item(s, d) < 0 ? -1 : 1;
		s->item->redundant++;
		if ((s->sh->o.max &&
		     s->item->execs + s->item->redundant >= s->item->budget) ||
		    (s->sh->o.max_steps && s->item->steps >= s->item->step_budget)) {
			s->item_stop = true;
			s->item->cut = XCUT_MAX;
		}
		return 1;
	}
	if (s->bound >= 0 && s->lastrun[d] && s->pre[d] >= s->bound) {
		uint32_t only = avail & (1u << s->tid[d - 1]);
		if (only != avail && s->item->cut == XCUT_NONE)
			s->item->cut = XCUT_BOUND;
		avail = only;
	}
	s->bt[d] = (s->naive || s->mode == MODE_TOP) ? avail :
		   1u << __builtin_ctz(avail);
	s->done[d] = 0;
	return 0;
}

static int reset(struct xsearch *s)
{
	if (!s->naive) {
		if (!s->ks)
			s->ks = malloc(sizeof *s->ks * KS_SIZE);
		if (!s->keys)
			s->keys = malloc(sizeof *s->keys * NSLOTS);
		if (!s->ks || !s->keys)
			return -1;
		if (s->ks_logged) {
			undo_to(s, 0);
		} else {
			for (int i = 0; i < KS_SIZE; i++)
				s->ks[i] = -1;
			s->ks_logged = true;
		}
		memset(s->keys, 0, sizeof *s->keys * NSLOTS);
	}
	s->nlog = 0;
	s->failed = 0;
	s->item_stop = false;
	s->acc[0] = 0;
	s->pre[0] = 0;
	s->slp[0] = 0;
	s->lastrun[0] = 0;
	if (!wcopy(s, s->cur, s->sh->snap))
		return -1;
	s->wdepth = 0;
	return 0;
}

static int dfs(struct xsearch *s)
{
	int d = s->root, r;
	uint64_t polls = 0;

	if (save_ck(s, d) < 0)
		return -1;
	r = enter_state(s, d);
	if (r)
		return r < 0 ? -1 : 0;
	for (;;) {
		if ((++polls & 15) == 0 && xsearch_stopped(s->sh)) {
			/* (the top's too: a split cut short is no proof) */
			s->item->cut = XCUT_STOP;
			return 0;
		}
		if (s->item_stop)
			return 0;
		uint32_t cand = s->bt[d] & ~s->done[d] & s->en[d];
		if (!s->naive)
			cand &= ~s->slp[d];
		if (!cand) {
			if (d == s->root)
				return 0;
			d--;
			pop(s, d);
			continue;
		}
		int p = __builtin_ctz(cand);
		s->done[d] |= 1u << p;
		if (s->wdepth != d && restore(s, d) < 0)
			return -1;
		if (push(s, d, p) < 0)
			return -1;
		r = enter_state(s, d + 1);
		if (r < 0)
			return -1;
		if (r) {
			pop(s, d);
			continue;
		}
		d++;
	}
}

int xsearch_item(struct xsearch *s, struct xitem *item)
{
	s->item = item;
	s->mode = MODE_ITEM;
	if (reset(s) < 0)
		return -1;
	/* the prefix: bookkeeping only; races there are covered by the top's
	 * full branching */
	s->root = item->plen;
	for (int d = 0; d < item->plen; d++) {
		set_enabled(s, d);
		s->slp[d] = 0;
		if (push(s, d, item->prefix[d]) < 0)
			return -1;
	}
	s->slp[s->root] = item->slp;
	for (uint32_t m = item->slp; m; m &= m - 1) {
		int r = __builtin_ctz(m);
		s->slpfp[(size_t)s->root * (size_t)s->slw + r] = item->slpfp[r];
	}
	return dfs(s);
}

int xsearch_top(struct xsearch *s, int depth, uint8_t *cut)
{
	int rc;
	memset(&s->scratch, 0, sizeof s->scratch);
	s->item = &s->scratch;
	s->mode = MODE_TOP;
	s->topdepth = depth;
	if (reset(s) < 0)
		return -1;
	s->root = 0;
	rc = dfs(s);
	*cut = s->scratch.cut;
	return rc;
}
