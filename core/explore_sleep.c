/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_sleep.c - the sleep sets of the stateful search with one worker
 * (explore_stateful.c, "Reduction", where their proof is): the threads
 * asleep at a successor, and when two blocks commute at a node (their
 * footprints, or the f_count rule).
 */
#include "explore_stateful.h"

/* The key of file F's f_count in a footprint (F in its low bits). */
#define KFCOUNT(f) KFLD(FLD_F_COUNT, VOK_FILE, f)
#define KFCOUNT_FILE 0x1ffffu

/* A block's footprint FP, from S to W: no file's f_count that it wrote is
 * lower after it (xs_commute). */
bool xs_count_up(const struct xfp *fp, const struct vfs_world *S,
		 const struct vfs_world *W)
{
	for (int i = 0; i < fp->n; i++) {
		uint32_t k = fp->key[i];
		if (!(k & XW) || (k & ~XW & ~KFCOUNT_FILE) != KFCOUNT(0))
			continue;
		int f = (int)(k & KFCOUNT_FILE);
		if (f >= W->nfiles || f >= S->nfiles ||
		    W->files[f].f_count < S->files[f].f_count)
			return false;
	}
	return true;
}

int xs_fcount_min = 2;

/* Node I of E, an override of file_needs_f_pos_lock, is its count and
 * node P, its parent, makes of it an answer that is the same for every
 * count of 2 or more: the count taken as true or false, or compared with
 * a constant on the side where it is the same. */
static bool count_use_same(const struct vfs_expr *e, int p, int i)
{
	const struct vfs_xnode *n = &e->node[p];
	if (n->op == XO_NOT || n->op == XO_AND || n->op == XO_OR)
		return true;
	int o = n->l == i ? n->r : n->l;
	if (e->node[o].op != XO_CONST)
		return false;
	int k = e->node[o].v, op = n->op;
	if (n->l != i)          /* k OP count: count OP' k */
		op = op == XO_LT ? XO_GT : op == XO_GT ? XO_LT :
		     op == XO_LE ? XO_GE : op == XO_GE ? XO_LE : op;
	switch (op) {
	case XO_GT: case XO_LE: case XO_EQ: case XO_NE:
		return k <= 1;
	case XO_GE: case XO_LT:
		return k <= 2;
	}
	return false;
}

/* The f_count rule holds in W's kernel: f_count is read only by
 * file_needs_f_pos_lock's "file_count(file) > 1" and written only by
 * fget's +1 and fput's -1; a script's defined function that reads it, or
 * an override of file_needs_f_pos_lock that asks more of it than whether
 * it is 2 or more, turns it off. */
bool xs_fcount_rule(const struct vfs_world *w)
{
	if (!w->kdefs)
		return true;
	for (int i = 0; i < w->kdefs->nkfns; i++)
		for (int j = 0; j < w->kdefs->kfns[i].nsteps; j++)
			if (w->kdefs->kfns[i].step[j].field == FLD_F_COUNT)
				return false;
	const struct vfs_expr *e = &w->kdefs->overrides[VDEC_FPOS_LOCK];
	for (int i = 0; i < e->n; i++) {
		if (e->node[i].op != XO_VAR || e->node[i].v != VDV_COUNT ||
		    i == e->root)
			continue;       /* (the count alone: true) */
		for (int p = 0; p < e->n; p++) {
			const struct vfs_xnode *n = &e->node[p];
			bool two = n->op != XO_CONST && n->op != XO_VAR &&
				   n->op != XO_NOT;
			if ((n->op != XO_CONST && n->op != XO_VAR && n->l == i) ||
			    (two && n->r == i))
				if (!count_use_same(e, p, i))
					return false;
		}
	}
	return true;
}

/* Blocks A (raising no f_count it wrote: AUP) and B (BUP), both run at
 * node X (a sleeping thread's where it fell asleep), commute at X: their
 * footprints do (xfp_indep), or (st->fcount) they meet only at a file's
 * f_count that one of them reads and the other writes, the writer raises
 * it (or leaves it), and X's is at least 2 (explore_stateful.c,
 * "Reduction"). */
static bool xs_commute(const struct xst *st, const struct vfs_world *X,
		       const struct xfp *a, bool aup, const struct xfp *b,
		       bool bup)
{
	if (xfp_indep(a, b))
		return true;
	if (!st->fcount || a->all || b->all)
		return false;
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++) {
			uint32_t ka = a->key[i], kb = b->key[j];
			if (((ka ^ kb) & ~XW) || !((ka | kb) & XW))
				continue;
			uint32_t k = ka & ~XW;
			int f = (int)(k & KFCOUNT_FILE);
			if ((k & ~KFCOUNT_FILE) != KFCOUNT(0) || (ka & kb & XW) ||
			    !(ka & XW ? aup : bup) || f >= X->nfiles ||
			    X->files[f].f_count < xs_fcount_min)
				return false;
		}
	return true;
}

/* The sleep set of level D's successor I, as level D + 1's (lv_grow has
 * made room): after a local block, its parent's; else those of its
 * parent's and of the successors taken before it on this visit that
 * commute with its block (each with where its block was run). */
void xs_sleep_child(struct sworker *s, int d, int i)
{
	const struct lvl *L = &s->lv[d];
	struct lvl *C = &s->lv[d + 1];
	uint32_t z = 0;
	if (L->ample) {
		z = L->slp;
	} else {
		const struct xfp *fi = &L->fp[i];
		bool iup = L->cup[i];
		for (uint32_t m = L->slp; m; m &= m - 1) {
			int u = __builtin_ctz(m);
			const struct lvl *R = &s->lv[L->sref_d[u]];
			if (xs_commute(s->st, L->state, &R->fp[L->sref_i[u]],
				       R->cup[L->sref_i[u]], fi, iup)) {
				z |= 1u << u;
				C->sref_d[u] = L->sref_d[u];
				C->sref_i[u] = L->sref_i[u];
			}
		}
		for (int j = 0; j < i; j++) {
			int u = L->tid[j];
			if (L->asleep[j] || !xs_commute(s->st, L->state, &L->fp[j],
							 L->cup[j], fi, iup))
				continue;
			z |= 1u << u;
			C->sref_d[u] = d;
			C->sref_i[u] = (uint8_t)j;
		}
		C->slp = z;
		return;
	}
	for (uint32_t m = z; m; m &= m - 1) {
		int u = __builtin_ctz(m);
		C->sref_d[u] = L->sref_d[u];
		C->sref_i[u] = L->sref_i[u];
	}
	C->slp = z;
}
