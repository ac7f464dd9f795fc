/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore.c - the explorer's coordinator: split the search tree at a fixed
 * depth into subtrees (in depth-first order), hand them to worker threads,
 * merge their results in order, keep a table of schedules, replay one.
 *
 * Determinism: the split depth is the first depth at which the top of the
 * tree (explored with full branching and sleep sets) has at least
 * SPLIT_ITEMS leaves; it depends on the world, never on the number of
 * workers.  Each subtree numbers its executions from 1; merging in order
 * gives the global numbers, and a cap (`max N`) is applied on the merged
 * sequence, so every result is the same whatever `jobs` is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "explore_int.h"
#include "grow.h"

#define SPLIT_ITEMS 512
#define SPLIT_MAXDEPTH 24

/* The kept schedules: the items' own tables, moved here in their order
 * (none empty) with what the result keeps of each, numbered globally;
 * the schedules stay in the bytes their worker wrote them to.  And the
 * items themselves until vfs_explore_result_trim: after a long search,
 * freeing their tables takes tens of ms, which the report need not wait
 * for. */
struct vfs_explore_priv {
	struct xtable *kept;    /* global numbers, increasing across them */
	size_t n, cap;
	struct xitem *items;
	int nitems;
};

void vfs_explore_opts_init(struct vfs_explore_opts *o)
{
	memset(o, 0, sizeof *o);
	o->bound = -1;
}

/* ---- containers ---- */

int xset_add(struct xset *s, uint64_t h)
{
	if (s->n * 2 >= s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		uint64_t *v = calloc(cap, sizeof *v);
		if (!v)
			return -1;
		for (size_t i = 0; i < s->cap; i++) {
			if (!s->v[i])
				continue;
			size_t j = s->v[i] & (cap - 1);
			while (v[j])
				j = (j + 1) & (cap - 1);
			v[j] = s->v[i];
		}
		free(s->v);
		s->v = v;
		s->cap = cap;
	}
	size_t j = h & (s->cap - 1);
	while (s->v[j]) {
		if (s->v[j] == h)
			return 0;
		j = (j + 1) & (s->cap - 1);
	}
	s->v[j] = h;
	s->n++;
	return 1;
}

void xset_free(struct xset *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

int xtable_add(struct xtable *t, uint64_t k, uint8_t kinds, const uint8_t *s,
	       uint32_t len)
{
	struct xsched *e = grow_array(t->e, &t->cap, t->n + 1, sizeof *e, 64);
	if (!e)
		return -1;
	t->e = e;
	/* (bytes is never NULL once used, even by empty schedules) */
	uint8_t *b = grow_array(t->bytes, &t->capbytes, t->nbytes + len, 1, 4096);
	if (!b)
		return -1;
	t->bytes = b;
	if (len)        /* an empty schedule: bytes may still be NULL */
		memcpy(t->bytes + t->nbytes, s, len);
	t->e[t->n].k = k;
	t->e[t->n].off = (uint32_t)t->nbytes;
	t->e[t->n].len = len;
	t->e[t->n].kinds = kinds;
	t->n++;
	t->nbytes += len;
	return 0;
}

void xtable_free(struct xtable *t)
{
	free(t->e);
	free(t->bytes);
	memset(t, 0, sizeof *t);
}

/* T's entry numbered K, or NULL (T's numbers increase) */
static const struct xsched *xtable_find(const struct xtable *t, uint64_t k)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->e[mid].k < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->n && t->e[lo].k == k ? &t->e[lo] : NULL;
}

/* ---- what an execution did ---- */

/* An outcome: the sum of these over the calls completed, plus
 * xfinal_hash of the last state (order-free, so that the stateful
 * search can carry it in its states). */
uint64_t xcall_hash(const struct vfs_world *w, int t)
{
	const struct vfs_callrec *r = &w->threads[t].rec;
	uint64_t h = xmix((uint64_t)(uint32_t)r->call.seq ^ ((uint64_t)r->call.sys << 40));
	h = xmix(h ^ (uint64_t)r->ret);
	if (vfs_sys[r->call.sys].flags & VSYS_DIRENTS) {
		h = xmix(h ^ (uint64_t)r->nent);
		const int32_t *ent = vfs_rec_entries(w, t);
		for (int i = 0; i < r->nent; i++)
			h = xmix(h ^ (uint64_t)(uint32_t)ent[i]);
	} else if ((vfs_sys[r->call.sys].flags & VSYS_READS) && r->ret > 0) {
		for (int i = 0; i < r->ret && i < VFS_TEXT_MAX; i++)
			h = xmix(h ^ (uint8_t)r->text[i]);
	}
	return h;
}

uint64_t xfinal_hash(const struct vfs_world *w)
{
	uint64_t h = 0x5151;
	for (int i = 0; i < w->nfiles; i++)
		if (w->files[i].kind != FK_NONE)
			h += xmix(xmix((uint64_t)w->files[i].id) ^
				  (uint64_t)w->files[i].f_pos);
	return h;
}

uint32_t xkinds_of(const struct vfs_world *snap, const struct vfs_world *w)
{
	uint32_t k = 0;
	/* (a deadlock is the end state's, not a report's: below) */
	for (int i = 0; i < DK__REPORTS; i++)
		if (i != DK_DEADLOCK && w->det.counts[i] > snap->det.counts[i])
			k |= DK_BIT(i);
	if (vfs_all_blocked(w))
		k |= DK_BIT(DK_DEADLOCK);
	if (w->det.overflowed != snap->det.overflowed)
		k |= DK_BIT(DK_OVERFLOW);
	return k;
}

uint32_t vfs_explore_kinds_of(const struct vfs_world *snap,
			      const struct vfs_world *w)
{
	return xkinds_of(snap, w);
}

int vfs_explore_replay(struct vfs_world *w, const uint8_t *sched, int len,
		       const struct vfs_sink *sink)
{
	for (int i = 0; i < len; i++) {
		if (sched[i] >= w->nthreads || !vfs_runnable(w, sched[i]))
			return i;
		vfs_step(w, sched[i], sink);
	}
	return len;
}

/* ---- workers ---- */

struct wctx {
	struct xshared *sh;
	int id;
	int failed;
};

static void *worker(void *arg)
{
	struct wctx *c = arg;
	struct xshared *sh = c->sh;
	struct xsearch *s = xsearch_new(sh, c->id);

	if (!s)
		c->failed = 1;
	for (;;) {
		pthread_mutex_lock(&sh->mu);
		int i = sh->next_item++;
		struct xitem *it = i < sh->nitems ? &sh->items[i] : NULL;
		bool skip = false, found = false;
		if (it) {
			it->keep_first = sh->merged_execs < (uint64_t)sh->keep;
			it->keep_viol = sh->merged_viol < (uint64_t)sh->keep;
			/* work past the cap in order is never done: with a
			 * cap there is one worker, so the items before this
			 * one are all merged */
			skip = sh->o.max && sh->merged_units >= sh->o.max;
			it->budget = skip ? 0 : sh->o.max - sh->merged_units;
			found = sh->o.stop_at_violation && sh->merged_viol;
			skip |= found || (sh->o.max_steps &&
					  sh->merged_steps >= sh->o.max_steps);
			it->step_budget = skip ? 0 : sh->o.max_steps - sh->merged_steps;
		}
		pthread_mutex_unlock(&sh->mu);
		if (!it)
			break;
		if (skip)
			it->cut = found ? XCUT_FOUND : XCUT_MAX;
		else if (xsearch_stopped(sh))
			it->cut = XCUT_STOP;
		else if (!s || xsearch_item(s, it) < 0)
			it->failed = 1;
		pthread_mutex_lock(&sh->mu);
		it->done = 1;
		sh->items_done++;
		while (sh->merged_upto < sh->nitems && sh->items[sh->merged_upto].done) {
			sh->merged_execs += sh->items[sh->merged_upto].execs;
			sh->merged_viol += sh->items[sh->merged_upto].violating;
			sh->merged_units += sh->items[sh->merged_upto].execs +
					    sh->items[sh->merged_upto].redundant;
			sh->merged_steps += sh->items[sh->merged_upto].steps;
			sh->merged_upto++;
		}
		pthread_cond_broadcast(&sh->cv);
		pthread_mutex_unlock(&sh->mu);
	}
	xsearch_free(s);
	pthread_mutex_lock(&sh->mu);
	sh->running--;
	pthread_cond_broadcast(&sh->cv);
	pthread_mutex_unlock(&sh->mu);
	return NULL;
}

static void report(struct xshared *sh, double t0)
{
	struct vfs_explore_progress p = { 0 };
	uint64_t done_execs = 0;
	for (int i = 0; i < sh->nworkers; i++) {
		p.executions += __atomic_load_n(&sh->live_execs[i], __ATOMIC_RELAXED);
		p.violating += __atomic_load_n(&sh->live_viol[i], __ATOMIC_RELAXED);
	}
	pthread_mutex_lock(&sh->mu);
	for (int i = 0; i < sh->nitems; i++)
		if (sh->items[i].done) {
			done_execs += sh->items[i].execs;
			p.steps += sh->items[i].steps;
		}
	int nd = sh->items_done;
	pthread_mutex_unlock(&sh->mu);
	if (nd > 0)
		p.estimate = (uint64_t)((double)done_execs / nd * sh->nitems);
	if (p.estimate && p.estimate < p.executions)
		p.estimate = p.executions;
	if (sh->o.max && p.estimate > sh->o.max)
		p.estimate = sh->o.max;
	xprogress_tell(&sh->o, &p, t0, t0, xnow(), p.executions);
}

/* What an item owns */
static void xitem_free(struct xitem *it)
{
	free(it->prefix);
	free(it->slpfp);
	free(it->recs);
	xset_free(&it->out);
	xtable_free(&it->cands);
	xtable_free(&it->kept);
}

/* Split: the top of the tree, deeper until it has SPLIT_ITEMS leaves. */
static int split(struct xshared *sh)
{
	struct xsearch *s = xsearch_new(sh, 0);
	if (!s)
		return -1;
	int rc = 0;
	for (int depth = 1;; depth++) {
		for (int i = 0; i < sh->nitems; i++)
			xitem_free(&sh->items[i]);
		sh->nitems = 0;
		if (xsearch_top(s, depth, &sh->top_cut) < 0) {
			rc = -1;
			break;
		}
		bool deeper = false;
		for (int i = 0; i < sh->nitems && !deeper; i++)
			deeper = sh->items[i].plen == depth;
		sh->split_depth = depth;
		/* (a budget of steps, or the first violation: one worker, the
		 * pieces in order; a deeper split only costs its tops) */
		if (sh->nitems >= SPLIT_ITEMS || !deeper || depth >= SPLIT_MAXDEPTH ||
		    sh->o.max_steps || sh->o.stop_at_violation)
			break;
	}
	xsearch_free(s);
	return rc;
}


static int cut_rank(int c)
{
	/* (a piece stopped at its first violation says so over pieces cut
	 * by the bound, as explore.h documents XCUT_FOUND) */
	static const int r[] = { [XCUT_NONE] = 0, [XCUT_BOUND] = 1,
		[XCUT_FOUND] = 2, [XCUT_DEPTH] = 3, [XCUT_MAX] = 4, [XCUT_STOP] = 5,
		[XCUT_ERROR] = 6, [XCUT_TABLE] = 6 };
	return r[c];
}

static int merge(struct xshared *sh, struct vfs_explore_result *r)
{
	struct xset out = { 0 };
	struct vfs_explore_priv *pv = r->priv;
	uint64_t base = 0;
	uint64_t best_k = 0;
	int best_pre = -1, best_item = -1;
	size_t best_e = 0;
	int cut = sh->top_cut, rc = 0;

	for (int i = 0; i < sh->nitems && rc == 0; i++) {
		struct xitem *it = &sh->items[i];
		/* (out of memory in a piece: the search fails, never a
		 * result short of what the piece would have found) */
		if (it->failed) {
			rc = -1;
			break;
		}
		int c = it->cut;
		r->steps += it->steps;
		if (sh->o.max && base >= sh->o.max) {
			if (it->execs || c != XCUT_NONE)
				c = XCUT_MAX;
			if (cut_rank(c) > cut_rank(cut))
				cut = c;
			continue;
		}
		uint64_t take = it->execs;
		if (sh->o.max && base + take > sh->o.max) {
			take = sh->o.max - base;
			c = XCUT_MAX;
		}
		if (cut_rank(c) > cut_rank(cut))
			cut = c;
		if (take == it->execs) {
			r->redundant += it->redundant;
			r->violating += it->violating;
			for (int k = 0; k < DK__COUNT; k++)
				r->kind_execs[k] += it->kind_execs[k];
			r->overflowed |= it->overflowed;
			if (it->maxpre > r->max_preemptions)
				r->max_preemptions = it->maxpre;
			for (size_t j = 0; j < it->out.cap && rc == 0; j++)
				if (it->out.v[j] && xset_add(&out, it->out.v[j]) < 0)
					rc = -1;
		} else {
			for (uint64_t j = 0; j < take && rc == 0; j++) {
				const struct xrec *x = &it->recs[j];
				for (int k = 0; k < DK__COUNT; k++)
					r->kind_execs[k] += x->kinds >> k & 1;
				r->overflowed |= x->overflowed;
				r->violating += (x->kinds & sh->viol) != 0;
				if (x->pre > r->max_preemptions)
					r->max_preemptions = x->pre;
				if (xset_add(&out, x->hash) < 0)
					rc = -1;
			}
		}
		for (size_t j = 0; j < it->cands.n; j++) {
			uint64_t k = it->cands.e[j].k & ((1ull << 48) - 1);
			int pre = (int)(it->cands.e[j].k >> 48);
			if (k > take)
				break;
			if (best_pre < 0 || pre < best_pre) {
				best_pre = pre;
				best_k = base + k;
				best_item = i;
				best_e = j;
			}
		}
		/* what the result keeps of the item's schedules, in place,
		 * then the table itself: no schedule is copied */
		size_t n = 0;
		for (size_t j = 0; j < it->kept.n; j++) {
			struct xsched e = it->kept.e[j];
			if (e.k > take)
				break;
			bool first = base + e.k <= (uint64_t)sh->keep;
			bool viol = (e.kinds & sh->viol) != 0;
			if (!first && !viol)
				continue;
			e.k += base;
			it->kept.e[n++] = e;
		}
		it->kept.n = n;
		if (n && rc == 0) {
			struct xtable *t = GROW_PUSH(pv->kept, pv->n, pv->cap, 16);
			if (!t) {
				rc = -1;
			} else {
				*t = it->kept;
				pv->n++;
				memset(&it->kept, 0, sizeof it->kept);
			}
		}
		base += take;
	}
	r->executions = base;
	r->outcomes = out.n;
	for (size_t j = 0; j < out.cap; j++)
		if (out.v[j])
			r->outcome_digest += xmix(out.v[j] ^ 0x6f7574636f6d65ull);
	xset_free(&out);
	r->cut = (uint8_t)cut;
	r->complete = cut == XCUT_NONE;
	r->kept_first = base < (uint64_t)sh->keep ? base : (uint64_t)sh->keep;
	if (best_item >= 0 && rc == 0) {
		const struct xitem *it = &sh->items[best_item];
		const struct xsched *e = &it->cands.e[best_e];
		r->have_cex = true;
		r->cex_index = best_k;
		r->cex_preemptions = best_pre;
		r->cex_kinds = e->kinds;
		r->cex_len = (int)e->len;
		r->cex_schedule = malloc(e->len ? e->len : 1);
		if (!r->cex_schedule)
			rc = -1;
		else if (e->len)
			memcpy(r->cex_schedule, it->cands.bytes + e->off, e->len);
	}
	return rc;
}

int vfs_explore(const struct vfs_world *snap, const struct vfs_explore_opts *o,
		struct vfs_explore_result *r)
{
	struct xshared *sh = calloc(1, sizeof *sh);
	struct wctx wc[MAX_WORKERS];
	pthread_t th[MAX_WORKERS];
	double t0 = xnow();
	int rc = 0, made = 0;

	xheap_huge();
	if (o->stateful) {
		free(sh);
		return xstate_run(snap, o, r);
	}
	memset(r, 0, sizeof *r);
	r->priv = calloc(1, sizeof *r->priv);
	if (!sh || !r->priv) {
		free(sh);
		free(r->priv);
		r->priv = NULL;
		errno = ENOMEM;
		return -1;
	}
	sh->snap = snap;
	sh->o = *o;
	if (sh->o.bound >= 0)
		sh->o.naive = 1;
	sh->viol = o->violations ? o->violations : VX_DEFAULT_VIOLATIONS;
	sh->keep = o->keep ? (int)o->keep : 10000;
	sh->maxdepth = o->max_depth > 0 ? o->max_depth : 100000;
	sh->nworkers = o->jobs > 0 ? (o->jobs > MAX_WORKERS ? MAX_WORKERS : o->jobs) :
		       xonline_cpus();
	/* a cap bounds the work, and the executions kept are the first N
	 * of the uncapped run: the subtrees in order, one at a time */
	if (o->max || o->max_steps || o->stop_at_violation)
		sh->nworkers = 1;
	pthread_mutex_init(&sh->mu, NULL);
	pthread_cond_init(&sh->cv, NULL);
	r->violations = sh->viol;

	if (split(sh) < 0) {
		rc = -1;
		goto out;
	}
	r->subtrees = sh->nitems;
	r->split_depth = sh->split_depth;
	if (sh->nworkers > sh->nitems)
		sh->nworkers = sh->nitems > 0 ? sh->nitems : 1;

	sh->running = sh->nworkers;
	for (int i = 0; i < sh->nworkers; i++)
		wc[i] = (struct wctx){ .sh = sh, .id = i };
	/* one worker, and no one to tell how it goes (plain explore's probe,
	 * whose searches are short): it runs here, no thread started and
	 * waited for (twice a proof, a wake-up each, a CPU to wait for on a
	 * busy machine) */
	made = sh->nworkers == 1 && !o->progress ? 0 :
	       xpool_start(th, 0, sh->nworkers, worker, wc, sizeof wc[0], false);
	pthread_mutex_lock(&sh->mu);
	sh->running -= sh->nworkers - made;     /* those never started */
	if (!made) {
		/* no thread at all: run here (SIGINT stays as the caller has it) */
		pthread_mutex_unlock(&sh->mu);
		sh->running = 1;
		wc[0].sh = sh;
		wc[0].id = 0;
		worker(&wc[0]);
		pthread_mutex_lock(&sh->mu);
	}
	double last = t0;
	while (sh->running > 0) {
		struct timespec ts = xdeadline(CLOCK_REALTIME, 100);
		pthread_cond_timedwait(&sh->cv, &sh->mu, &ts);
		if (o->progress && sh->running > 0 && xnow() - last >= 0.5) {
			pthread_mutex_unlock(&sh->mu);
			report(sh, t0);
			last = xnow();
			pthread_mutex_lock(&sh->mu);
		}
	}
	pthread_mutex_unlock(&sh->mu);
	for (int i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	r->jobs = made ? made : 1;
	/* (made 0: the one worker ran here, and may have failed too) */
	for (int i = 0; i < (made ? made : 1); i++)
		if (wc[i].failed)
			rc = -1;
	if (merge(sh, r) < 0)
		rc = -1;
	r->units_search = r->executions + r->redundant;        /* (max's units) */
	/* the first kept counterexample of each kind */
	for (size_t p = 0; rc == 0 && p < r->priv->n; p++) {
		const struct xtable *t = &r->priv->kept[p];
		for (size_t j = 0; rc == 0 && j < t->n; j++) {
			const struct xsched *e = &t->e[j];
			for (int k = 0; k < DK__COUNT && rc == 0; k++)
				if ((e->kinds >> k & 1) && !r->kind_sched[k]) {
					if (xsched_dup(&r->kind_sched[k],
						       t->bytes + e->off,
						       (int)e->len) < 0)
						rc = -1;
					r->kind_len[k] = (int)e->len;
				}
		}
	}
out:
	r->seconds = xnow() - t0;
	r->priv->items = sh->items;     /* (vfs_explore_result_trim) */
	r->priv->nitems = sh->nitems;
	pthread_mutex_destroy(&sh->mu);
	pthread_cond_destroy(&sh->cv);
	free(sh);
	if (rc < 0) {
		vfs_explore_result_free(r);
		errno = ENOMEM;         /* (after the frees: the caller's test) */
	}
	return rc;
}

void vfs_explore_result_trim(struct vfs_explore_result *r)
{
	if (!r->priv)
		return;
	for (int i = 0; i < r->priv->nitems; i++)
		xitem_free(&r->priv->items[i]);
	free(r->priv->items);
	r->priv->items = NULL;
	r->priv->nitems = 0;
}

void vfs_explore_result_free(struct vfs_explore_result *r)
{
	vfs_explore_result_trim(r);
	if (r->priv) {
		for (size_t p = 0; p < r->priv->n; p++)
			xtable_free(&r->priv->kept[p]);
		free(r->priv->kept);
		free(r->priv);
	}
	free(r->cex_schedule);
	r->priv = NULL;
	r->cex_schedule = NULL;
	for (int k = 0; k < DK__COUNT; k++) {
		free(r->kind_sched[k]);
		r->kind_sched[k] = NULL;
	}
	xscheds_free(&r->out_sched, &r->out_len, &r->nout_sched);
}

void xscheds_free(uint8_t ***sched, int **len, int *n)
{
	for (int i = 0; i < *n; i++)
		free((*sched)[i]);
	free(*sched);
	free(*len);
	*sched = NULL;
	*len = NULL;
	*n = 0;
}

int xsched_dup(uint8_t **dst, const uint8_t *src, int len)
{
	*dst = malloc(len > 0 ? (size_t)len : 1);
	if (!*dst)
		return -1;
	if (len > 0)
		memcpy(*dst, src, (size_t)len);
	return 0;
}

int vfs_explore_preemptions(const struct vfs_world *snap, const uint8_t *sched,
			    int len, uint32_t viol, int *vstep)
{
	struct vfs_world *w = vfs_world_dup(snap);
	int pre = 0;
	if (vstep)
		*vstep = 0;
	if (!w)
		return -1;
	for (int k = 0; k < len; k++) {
		int p = sched[k];
		if (p >= w->nthreads || !vfs_runnable(w, p))
			break;
		if (k > 0 && sched[k - 1] != p && vfs_runnable(w, sched[k - 1]))
			pre++;
		vfs_step(w, p, NULL);
		if (vstep && !*vstep && (xkinds_of(snap, w) & viol))
			*vstep = k + 1;
	}
	if (xw_lost(w))        /* (a detector's table: *VSTEP may be wrong) */
		pre = -1;
	vfs_world_free(w);
	return pre;
}

/* Execution K's kept schedule, and in *T the table holding its bytes */
static const struct xsched *find(const struct vfs_explore_result *r, uint64_t k,
				 const struct xtable **t)
{
	if (!r->priv)
		return NULL;
	/* the first table whose last number is K or past it */
	size_t lo = 0, hi = r->priv->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct xtable *m = &r->priv->kept[mid];
		if (m->e[m->n - 1].k < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == r->priv->n)
		return NULL;
	*t = &r->priv->kept[lo];
	return xtable_find(*t, k);
}

int vfs_explore_schedule(const struct vfs_explore_result *r, uint64_t k,
			 const uint8_t **sched)
{
	if (r->have_cex && k == r->cex_index) {
		*sched = r->cex_schedule;
		return r->cex_len;
	}
	const struct xtable *t;
	const struct xsched *e = find(r, k, &t);
	if (!e)
		return -1;
	*sched = t->bytes + e->off;
	return (int)e->len;
}

uint32_t vfs_explore_kinds(const struct vfs_explore_result *r, uint64_t k)
{
	if (r->have_cex && k == r->cex_index)
		return r->cex_kinds;
	const struct xtable *t;
	const struct xsched *e = find(r, k, &t);
	return e ? e->kinds : 0;
}
