/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_stateful_viol.c - what the stateful search (explore_stateful.c)
 * reports: a violation it found, counted by kind, and its path completed
 * into a schedule and kept when it is the best counterexample so far or
 * the first of one of its kinds; an outcome (explore all); its progress.
 */
#include <stdlib.h>
#include <string.h>
#include "explore_stateful.h"

/* The path (PLEN steps, then the threads EXTRA) completed, lowest
 * runnable thread first: a malloc'd schedule, its length in *LEN, the
 * kinds it shows in *KINDS.  NULL when out of memory. */
static uint8_t *complete_path(struct sworker *s, int plen, const uint8_t *extra,
			      int nx, int *len_out, uint32_t *kinds)
{
	struct vfs_world *w = s->scratch;
	if (!w && !(w = s->scratch = xs_wnew()))
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
	if (!vfs_world_copy(w, s->st->snap)) {
		free(sch);
		return NULL;
	}
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
	if (xw_lost(w)) {       /* (a detector's table: its kinds unknown) */
		free(sch);
		return NULL;
	}
	*len_out = len;
	*kinds = xkinds_of(s->st->snap, w);
	s->overflowed |= xoverflowed(s->st->snap, w);
	return sch;
}

/* Record a violation found after PLEN steps of the path (then the threads
 * EXTRA): the schedule is completed, lowest runnable thread first, and
 * kept when it is the shortest so far, or the first of one of its kinds. */
void xs_violation(struct sworker *s, int plen, const uint8_t *extra, int nx,
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
	/* (a kind found with no schedule to replay: the search fails) */
	for (int k = 0; k < DK__COUNT; k++)
		if ((kinds >> k & 1) && !s->kcex[k]) {
			if (xsched_dup(&s->kcex[k], sch, len) < 0)
				s->failed = 1;
			s->kcexlen[k] = len;
		}
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

/* opts.outcomes: a terminal state's outcome H, reached by PLEN steps of
 * the path: counted, and its path kept when it is new. */
int xs_outcome(struct sworker *s, uint64_t h, int plen)
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
		if (rc == 0 && xsched_dup(&st->osched[st->nosched], s->path, plen) < 0)
			rc = -1;        /* (an outcome with no schedule) */
		else if (rc == 0)
			st->olen[st->nosched++] = plen;
	}
	pthread_mutex_unlock(&st->omu);
	return rc;
}

/* Progress: every worker adds what it did to the shared counters; the
 * first, which runs in the calling thread, tells at most every 0.5 s. */
void xs_report(struct sworker *s)
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
	double t = xnow();
	if (t - st->last_report < 0.5)
		return;
	st->last_report = t;
	struct vfs_explore_progress p = { .stateful = true,
		.states = __atomic_load_n(&st->live_states, __ATOMIC_RELAXED),
		.violating = __atomic_load_n(&st->live_viol, __ATOMIC_RELAXED),
		.round = st->xm.rounds + 1, .depth = s->maxdepth };
	xprogress_tell(&st->o, &p, st->t0, st->t0, t, p.states);
}
