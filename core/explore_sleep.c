/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_sleep.c - the sleep sets of the stateful search with one worker
 * (explore_stateful.c, "Reduction", where their proof is): the threads
 * asleep at a successor, and when two blocks commute at a node (their
 * footprints, with the kinds of their accesses: xfp_commute).
 */
#include "explore_stateful.h"

/* A block's footprint FP, from S to W: no file's f_count that it wrote is
 * lower after it (xs_commute). */
bool xs_count_up(const struct xfp *fp, const struct vfs_world *S,
		 const struct vfs_world *W)
{
	for (int i = 0; i < fp->n; i++) {
		uint32_t k = fp->key[i];
		if (!(k & XW) || (XKEY(k) & ~KFCOUNT_FILE) != KFCOUNT(0))
			continue;
		int f = (int)(k & KFCOUNT_FILE);
		if (f >= W->nfiles || f >= S->nfiles ||
		    W->files[f].f_count < S->files[f].f_count)
			return false;
	}
	return true;
}

int xs_fcount_min = VFS_COUNT_TEST_MIN;

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

/* The tests of f_count (VAK_TEST: file_needs_f_pos_lock's read) are
 * threshold tests in W's kernel: its override of file_needs_f_pos_lock, if
 * any, asks no more of the count than whether it is 2 or more.  (A
 * script's defined function that reads f_count records a plain read, which
 * xkey_commute keeps dependent with every change.) */
bool xs_fcount_rule(const struct vfs_world *w)
{
	if (!w->kdefs)
		return true;
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
 * node X (where the sleeping one's block was made), commute at X: by
 * the access kinds (xfp_commute; explore_stateful.c, "Access kinds"),
 * with X's counts, and the tests taken as threshold tests only when the
 * kernel's are (st->fcount). */
static inline bool xs_commute(const struct xst *st, const struct vfs_world *X,
			      const struct xfp *a, bool aup, const struct xfp *b,
			      bool bup)
{
	return xfp_commute(a, aup, b, bup, X, st->fcount ? xs_fcount_min : 0);
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
