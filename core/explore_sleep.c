/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_sleep.c - the sleep sets of the stateful search: the threads
 * asleep at a successor, and when two blocks commute at a node (their
 * footprints, with the kinds of their accesses: xfp_commute).  The
 * merged graph and its nodes: explore_stateful.c, "Reduction".
 *
 * Sleep sets (Godefroid 1996): the blocks of two threads
 * at a node commute when DPOR's dependency says so (vfs_footprint's `dpor`
 * column, every lock operation a write, blocking and waking too), and
 * neither makes or frees an object or changes the tree, lockdep's graph
 * or the duplicate detector's passes (those parts are in the order the
 * blocks ran: xorder, compared with the parent state's).  The successor
 * by thread T inherits, asleep, the threads whose edges were taken before
 * T's at its parent and its parent's sleepers, each when its block
 * commutes with T's; through a chain, all of them (local blocks commute
 * with everything).  A sleeping thread's block is not run (at 4x4 v6.5,
 * 54% of the transitions and 46% of the kernel steps): it is the block
 * run where it fell asleep (nothing since touched what it touches), so
 * its violations are counted and its accesses compared for races as
 * there, at the point where it would have run.
 *
 * Access kinds (core/explore_int.h, xkey_commute: the one dependence
 * function of the sleep sets here and of DPOR's, core/explore_search.c).
 * Each read or write carries its kind, recorded where the kernel path
 * makes it (enum vfs_akind): plain, a counter's +1 or -1, or a threshold
 * test, a read whose answer is the same for every value at or above K.
 * The model has one counter, f_count: fget (+1), fput (-1, which reads its
 * result: the file is freed at 0), file_needs_f_pos_lock's
 * "file_count(file) > 1" (a test, K = 2) and the same read in a script's
 * override of it, a test only when the override asks no more of the count
 * than whether it is 2 or more (xs_fcount_rule; else st->fcount is off
 * and every test is taken as a plain read); a script's defined function
 * that reads f_count records a plain read.  (The other atomics, lock
 * operations, are locks' keys: every operation a write.)  A footprint
 * keeps, per location, the union of its accesses' kinds.  Blocks b of T
 * and c of U at node X, with V the count of a location both touch (one
 * writing), commute there (X.b.c = X.c.b, and each is its own block in
 * the other's successor, which is (c) at X) in these cases, each because
 * a block's steps depend on the count only through its tests (a +1 reads
 * nothing; a -1 is excluded) and the end count is X's plus the changes:
 *  (1) both change it by +1s only, and test it, if at all, where V >= K:
 *      in either order each sees V plus +1s, never below V, so every test
 *      answers as at X; the sums are the same.  With no test, anywhere:
 *      DPOR's claim is this case only (a step's footprint, no node);
 *  (2) b only tests it, c changes it (+1s and -1s, any tests or reads of
 *      its own) and leaves it no lower (xs_count_up), and V >= K: b sees
 *      V or X.c's count, both at or above K; b writes nothing, so c runs
 *      as at X whatever comes first.
 * Everything else on one location is dependent: a plain write, a plain
 * read against a change, a -1 against any change (a 0 and a free in one
 * order only, or its result read), a test below K.  At 4x4 v6.5 the
 * kinds take 154,407 transitions (64,408 into seen states), against
 * 157,296 (67,297) with case (2) alone (the f_count rule before them).
 * The proof below moves a sleeping block U across edges each of which
 * commutes with it at its own node; the footprint U keeps is the one made
 * where it fell asleep, Y, which the rules read at a later node Z with
 * Z's count.  U's block at Z is still the one kept: the edges between met
 * U only where a rule held at their node, and by induction along them,
 * (2) with U changing: the edges only tested, Z's count is Y's; (2) with
 * U testing, or (1): the edges left the count no lower, from a node
 * where it was at least K (their rule's condition), so U's tests, which
 * held at Y where the count was the same as at the first such edge's
 * node, hold at Z; edges that did not touch the count left it as at Y.
 * So the rule, checked with Z's count, says (c) at Z.
 * tests/unit/test_dependence.c: each pair of kinds; tests/unit/
 * test_sleep.c: the same nodes with the kinds, fewer transitions than
 * with the tests taken as plain reads, and nodes lost when tests are
 * made to hold at a count of 1 (v6.4: the reader's test turns).
 *
 * Proof that every node is visited, first by the same path as without
 * sleep sets.  Order the paths from the snapshot (sequences of edges)
 * lexicographically by thread.  Without sleep sets, the depth-first
 * search in thread order with a visited set visits each node first by its
 * least path: the least path to Z is the least path to its last node Y
 * then an edge (a lesser path to Y would give a lesser one to Z), Y is
 * first visited by it (induction), and the search takes Y's edges in
 * thread order then; a node reached earlier would have a lesser path.  (A
 * pre-local state already visited stands for the node its chain ends in,
 * which its first visit reached.)  With sleep sets, let the least path p
 * to Z take at node Y' the edge of a thread U asleep there.  U fell asleep
 * at an earlier node Y of p, where U's edge was taken before p's (U is
 * the smaller thread), and U's block commutes with each edge of p from Y
 * to Y'; by (c) U's edge moved to Y gives a path to the same node that is
 * less than p (they first differ at Y): a contradiction.  So no least path
 * takes a sleeping edge, the search with sleep sets takes every least
 * path in the same order, and by the same induction visits each node
 * first by it, finding the same violations at the same points in the
 * same order (the counterexample and the first of each kind unchanged).
 * In the graph of all states the argument fails: U's edge moved earlier
 * may come before a chain whose lowest local thread is then another (U's
 * next block may be local), so the moved path is not one the reduction
 * takes, and a pre-local state may be missed; the nodes cannot be.
 * With several workers: the frontier is made by the one-worker search
 * itself, cut at a depth (xs_top, explore_stateful_run.c's top_sleep):
 * its new states at that depth are not searched but made items, in the
 * order it finds them (its paths' order), each with its sleep set (the
 * sleeping threads' blocks copied: xsleeper).  Each item's search then
 * has a rank, the item's index, and the frontier's search ranks its
 * states with the number of items found before them; the visited table
 * keeps beside each hash the least rank that reached it (vt_insert_own:
 * a compare-and-swap that only lowers it).  A search that reaches a seen
 * state and lowers its rank expands it again, in full (every thread
 * awake there, with its own sleep sets), showing nothing (lvl.first
 * false: the violations, races, deadlock and count are its first
 * visit's, where every enabled thread's block, run or asleep, is seen);
 * one that finds a rank no greater goes no further.  Proof that every
 * node is still visited: the least path p to Z (from the snapshot, as
 * above) takes no sleeping edge.  The frontier's search takes p up to
 * the cut with p's sleep sets: a state of p it found seen was reached
 * before, by a lesser path (it is depth first, and the items searched
 * while it runs, from the try that reaches SPLIT items on, were all
 * found before: their paths are lesser, and its own rank, the number of
 * items found, exceeds theirs, so it never takes one of their states).  So p's state at the cut is new there, item k with p's sleep
 * set, or p ends before it.  Item k's search, rank k, takes the rest of
 * p: at each state Y of p either Y is new to it, or it lowers Y's rank
 * and expands it again in full with p's sleep set; it cannot find a rank
 * of at most k there, which only a visit by a lesser path leaves (the
 * frontier's before item k was found, item j < k's search, its own
 * earlier), and p is the least path to Y.  So Z is reached.  Nothing here
 * depends on timing, nor on the order the items are taken in (their
 * ranks are their indices: xs_take_item takes the fewest switches
 * first): the nodes, and what is shown at them, are the same for every
 * jobs; the transitions are not (5 x 3 v6.5: 420,000 with two workers,
 * 443,000 to 469,000 in index order, 415,209 with one, 1,200,128
 * without sleep sets before; with
 * the frontier breadth first and its sleep sets empty, 629,336: an item's
 * search then ran the lower threads first, into the states of the items
 * before it, which took them over again).  A frontier at a depth
 * that gives SPLIT_PER_JOB items per worker or more (tried from depth 1
 * up, each from the start: about 2% of the instructions at 5 x 3).
 * Godefroid's state caching (each state's sleep set kept, a state
 * visited again with the threads asleep at every visit before but awake
 * now, with the intersection kept) is sound in any order too, but costs
 * more than the sleep sets save here: a state reached by another last
 * edge has that edge's thread awake (it is never in its child's set),
 * so almost every state is visited again (4 x 4 v6.5, one worker: 76,358
 * visits again for 90,000 states, 248,341 transitions when only the
 * threads newly awake are run; 415,842 when a visit again runs every
 * thread, as the try that measured 385,378 for 404,000 did).
 * Nor can that caching end a lesser rank's visit again: rank k reaching
 * Y with every thread asleep that slept at Y's expansion (by rank j > k)
 * must still expand it.  That expansion does not take every path below
 * Y: it stops at a state of rank j or less, first reached by another
 * path (rank j's own, or a rank between) whose sleep set may hold the
 * thread the least path needs next; rank k's visit lowers that rank and
 * expands it again with the least path's set.  Tried (2026-12-06): it
 * would have ended 99.8% of those visits (5 x 3 v6.5, two workers:
 * 18,416 of 18,449; 451,289 transitions down to 419,243), but lost 8 of
 * the 12,399,643 states of 3 x 3 v5.6 in one run of six with 8 workers.
 * Sleep sets are off with a depth bound (a block may end at it) and
 * with the clocks (the history is part of the state, and not the same
 * in either order).
 * tests/unit/test_sleep.c compares the nodes visited with and without
 * them, tests/cli/explore-sleep-random.sh 200 random scenarios.
 */
#include "explore_stateful.h"

/* A block's footprint FP, from S to W: no file's f_count that it wrote is
 * lower after it (xs_commute). */
bool xs_count_up(const struct xfp *fp, const struct vfs_world *S,
		 const struct vfs_world *W)
{
	if (!(fp->wr & XFP_FCOUNT_BIT))
		return true;    /* (no count written: most blocks) */
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
