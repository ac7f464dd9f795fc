/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_obs.c - one step of the stateful search, watched: the events a
 * step emits, seen through the explorer's sink (xs_obs_sink), give its
 * footprint for the reduction (what it read and wrote, which locks it
 * took) and the accesses the race check compares (xs_steps_race).
 */
#include <stdlib.h>
#include <string.h>
#include "explore_stateful.h"

/* ---- one step, watched ---- */


/* Without clocks: an access that conflicts with one of the snapshot's
 * open accesses means the search must start again with the clocks. */
static __attribute__((noinline)) void obs_open(struct xobs *o,
					       const struct vfs_event *ev)
{
	if ((ev->op != OP_READ && ev->op != OP_WRITE) || !vfs_access_checked(ev))
		return;
	for (int i = 0; i < o->nopen; i++)
		if (o->open[i].field == ev->field && o->open[i].obj == ev->obj &&
		    o->open[i].tid != ev->tid &&
		    (o->open[i].write || ev->op == OP_WRITE))
			__atomic_store_n(o->need_hist, 1, __ATOMIC_RELAXED);
}

/* The accesses a race may involve: those of visible locations (an access
 * that keeps the discipline is ordered by it) that core/race.c checks,
 * each with the locks its thread held. */
static __attribute__((noinline)) void obs_access(struct xobs *o,
						 const struct vfs_world *w,
						 const struct vfs_event *ev)
{
	if ((ev->op != OP_READ && ev->op != OP_WRITE) || !vfs_access_checked(ev))
		return;
	if (o->nacc == o->cap) {
		struct xacc *g = grow_array(o->acc, &o->cap, o->nacc + 1,
					    sizeof *o->acc, XACC_FIRST);
		if (!g) {
			o->over = 1;
			return;
		}
		o->acc = g;
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

/* What an event past the sink's filters adds: its footprint, its class,
 * its access; here for all but the common event (xs_obs_sink): an open
 * access to check, no memo, an entry to fill (E: NULL) or a class that
 * reads the thread.  (the sleep sets' footprint is the memo entry's too:
 * one lookup for both) */
static __attribute__((noinline)) void obs_event(struct xobs *o,
						const struct vfs_world *w,
						const struct vfs_event *ev,
						struct xmemo_e *e)
{
	if (o->nopen)
		obs_open(o, ev);
	int vis_access, c;
	if (o->memo) {
		if (!e)
			e = xm_memo_entry(o->xm, o->memo, w, ev);
		if (o->fp)
			xfp_add_entry(o->fp, o->fppos, e);
		c = xm_memo_class(o->xm, e, w, ev, &vis_access);
	} else {
		if (o->fp)
			xfp_event(o->fp, ev);
		c = xm_event(o->xm, w, ev, &vis_access);
	}
	if (c > o->cls)
		o->cls = (uint8_t)c;
	if (c != XM_B && vis_access)
		obs_access(o, w, ev);
}

/* (the common event, a memo hit whose class is the same whatever thread
 * makes it and no access a race may involve (a lock's event, a visible
 * one's too: obs_access would keep nothing of it), or a mover by its
 * thread (a field under the lock its thread holds), calls nothing: its
 * path needs no register saved; the others go to obs_event) */
void xs_obs_sink(void *ctx, const struct vfs_world *w,
		 const struct vfs_event *ev)
{
	struct xobs *o = ctx;
	if (xs_obs_covered(ev)) {
		/* (covered for DPOR's footprint too, the sleep sets': by
		 * the same key, as strong, before the step ends; but for an
		 * entry of an iterator whose directory is not known, which
		 * conflicts with all) */
		if (o->fp && ev->op == OP_ENTER && ev->dir < 0)
			xfp_event(o->fp, ev);
		return;
	}
	if (ev->op == OP_EMIT) {
		/* the pass's next entry, right after the last (no lock
		 * taken or dropped between): the same locations (the entry
		 * itself is none), the same class, the footprint the last
		 * one added */
		bool next = ev->seq == o->emit_seq + 1 && ev->step == o->emit_step &&
			    ev->file == o->emit_file && ev->dir == o->emit_dir;
		o->emit_seq = ev->seq;
		o->emit_step = ev->step;
		o->emit_file = ev->file;
		o->emit_dir = ev->dir;
		if (next)
			return;
	}
	if (o->nopen || !o->memo) {
		obs_event(o, w, ev, NULL);
		return;
	}
	uint64_t k[3];
	struct xmemo_e *e = xm_memo_slot(o->memo, ev, k);
	if (!xm_memo_hit(e, k)) {
		obs_event(o, w, ev, NULL);
		return;
	}
	int c = e->fixed;
	if (e->gen != o->xm->gen ||
	    (c < 0 ? !xm_memo_mover(e, w, ev) : c != XM_B && e->fixed_acc)) {
		obs_event(o, w, ev, e);
		return;
	}
	if (c > o->cls)
		o->cls = (uint8_t)c;
	if (o->fp)
		xfp_add_entry(o->fp, o->fppos, e);
}

/* Two enabled steps race: a common location, a write, no lock held by
 * both with one of them holding it exclusively. */
bool xs_steps_race(const struct xobs *x, const struct xobs *y)
{
	for (uint32_t i = 0; i < x->nacc; i++)
		for (uint32_t j = 0; j < y->nacc; j++) {
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

/* A race of two of level L's enabled blocks, of the successors ACCM has
 * (those whose blocks made accesses a race may involve; a sleeping
 * thread's block: what it did where it was run): both up to their
 * visible steps, one after the other, reported (the first pair only). */
void xs_race_check(struct sworker *s, const struct lvl *L, uint32_t accm)
{
	const struct xobs *ob[XMAXT];
	int ix[XMAXT], na = 0;
	for (; accm; accm &= accm - 1) {
		int i = __builtin_ctz(accm);
		ob[na] = L->asleep[i] ?
			 &s->lv[L->sref_d[L->tid[i]]].obs[L->sref_i[L->tid[i]]] :
			 &L->obs[i];
		ix[na++] = i;
	}
	for (int a = 0; a < na; a++)
		for (int b = a + 1; b < na; b++)
			if (xs_steps_race(ob[a], ob[b])) {
				int i = ix[a], j = ix[b];
				uint8_t ex[2 * MAXBLOCK];
				int nx = 0;
				for (int q = 0; q < L->ncut[i]; q++)
					ex[nx++] = L->tid[i];
				for (int q = 0; q < L->ncut[j]; q++)
					ex[nx++] = L->tid[j];
				xs_violation(s, L->plen, ex, nx, DK_BIT(DK_RACE));
				return;
			}
}
