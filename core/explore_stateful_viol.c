/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_stateful_viol.c - a violation the stateful search found
 * (explore_stateful.c): counted by kind, and its path completed into a
 * schedule and kept when it is the best counterexample so far or the
 * first of one of its kinds.
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
