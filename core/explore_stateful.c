/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_stateful.c - the stateful search (`explore stateful`): every
 * distinct state of the world once, as SPIN does, instead of every
 * execution.  It proves the absence of violations; it does not count
 * executions or outcomes (the DPOR search does, core/explore_search.c).
 *
 * What a state is: explore_state.c; the visited set: explore_visited.c;
 * the frontier, the rounds and the result: explore_stateful_run.c.
 *
 * Violations are properties of transitions and states: a step whose
 * detector counts grew (duplicate, dead-directory iteration, skipped,
 * lock order), a state where every live thread with work is blocked
 * (deadlock), and races (below).  A transition is a function of the
 * canonical state and the thread, so checking each transition of each
 * visited state once checks every execution.
 *
 * Races: the vector clocks of core/race.c depend on the history, not the
 * state.  Instead, at each fully expanded state, the steps of every two
 * enabled threads are compared: same field of one object, at least one
 * write (with core/race.c's exclusions: atomics, f_count, the fd table,
 * reads of data and size), and no lock held by both at the accesses with
 * one of them holding it exclusively.  Both steps are enabled, so either
 * can run right after the other with nothing in between: nothing orders
 * them, which is what the vector clocks report.  Conversely the first race
 * of an execution (in vector-clock happens-before) can be brought next to
 * its partner by moving the unordered steps after it, so some reachable
 * state has both enabled; this holds as far as the happens-before of
 * core/race.c covers every dependency (it ignores the FIFO of lock queues
 * and atomics, as the DPOR footprints do not).  Steps taken alone by the
 * reduction touch nothing shared, so every pair is compared at the next
 * fully expanded state with the same steps.
 *
 *
 * Reduction: at each state, the enabled threads' blocks are made in
 * index order; the first that is local (no lock operation, no access to
 * a field, no entry handed out, no allocation, no entry into an iterator:
 * no trace event a detector or DPOR footprint would see) is taken alone,
 * without branching: it commutes with every step of every other thread
 * and is invisible to the properties (an ample set of one transition, as
 * SPIN's partial-order reduction does for local transitions).  The cycle
 * proviso holds trivially: every call terminates and a step never returns
 * a thread to an earlier state, so the state graph is acyclic; the search
 * checks it (a transition back to a state on the depth-first stack is an
 * error, XCUT_ERROR), exactly with one worker, on each worker's own stack
 * with more.
 *
 * The merged graph.  A state whose expansion is one local block taken
 * alone is pre-local; the others (fully expanded: every enabled thread's
 * block visible; or terminal) are its nodes.  From a pre-local state the
 * search follows the chain of local blocks to the first node.  An edge is
 * a node's visible block of a thread T followed by that chain, as SPIN's
 * statement merging folds local statements into one transition and never
 * stores the states between them.  (a) The chains are confluent: two
 * local blocks touch nothing in common and neither changes the other's
 * steps, so the chain from a state ends in one node whatever the order of
 * its local blocks (they terminate and commute: Newman's lemma).  (b) The
 * merged graph is fully expanded: one edge per enabled thread at a node.
 * (c) Independent edges commute: if T's block b and U's block c commute
 * at node X (the dependency below), c is U's block at X.b and all along
 * b's chain (a local block changes nothing c reads), so both orders of
 * the two edges end in the node that ends X.b.c's chain, by (a).  (d) The
 * properties live at nodes and visible blocks: a local block emits nothing
 * a detector counts, races are compared at fully expanded states,
 * deadlocks and outcomes taken at terminal ones.  So the counts are of
 * nodes (xs_count_node): a pre-local state is a step inside an edge.
 *
 * Sleep sets, their access kinds and the proof that every node is
 * still visited, with one worker or several: core/explore_sleep.c.
 *
 *
 * Search: depth first; the successors of a state are made by copying it
 * and stepping the copy (no copy back: the state of the next level is its
 * parent's successor buffer).  The choice of the ample set depends on the
 * state only, so the reduced graph and its number of states do not depend
 * on the order of the search or on the number of workers; the
 * transitions taken do (the sleep sets take fewer with one worker).
 *
 * Parallel: the frontier is the one-worker search cut at a depth (with
 * sleep sets, explore_sleep.c) or a breadth-first top (without: the
 * clocks, a depth bound); workers take frontier states in order and
 * search below them depth first, sharing the visited set (shards of
 * open-addressing tables of hashes and the ranks, grown in place by the
 * worker that fills one).
 */
#include <stdlib.h>
#include <string.h>
#include "explore_stateful.h"

/* ---- the search ---- */


int xs_stopped(struct sworker *s)
{
	return __atomic_load_n(&s->st->abort, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&s->st->xm.violated, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&s->st->probe_found, __ATOMIC_RELAXED) ||
	       __atomic_load_n(&s->st->need_hist, __ATOMIC_RELAXED) ||
	       (s->st->o.stop && *s->st->o.stop);
}


int xs_lv_grow(struct sworker *s, int d)
{
	if (s->lv && d < s->caplv)
		return 0;       /* (the search's every level: no call to memset) */
	size_t cap = (size_t)s->caplv;
	struct lvl *n = grow_array(s->lv, &cap, (size_t)d + 1, sizeof *n, 64);
	if (!n)
		return -1;
	/* (a level's buffers start empty) */
	memset(n + s->caplv, 0, sizeof *n * (cap - (size_t)s->caplv));
	s->lv = n;
	s->caplv = (int)cap;
	return 0;
}

int xs_path_grow(struct sworker *s, int need)
{
	size_t cap = (size_t)s->cappath;
	uint8_t *p = grow_array(s->path, &cap, (size_t)need + 1, 1, 4096);
	if (!p)
		return -1;
	s->path = p;
	s->cappath = (int)cap;
	return 0;
}

/* Hash W, a successor of level L's state by thread T: its components
 * into X; TREE: its tree_hash when known (the parent's), else 0. */
static int hash_state(struct sworker *s, const struct lvl *L, struct xhash *x,
		      const struct vfs_world *W, int t, uint64_t tree, uint64_t acc,
		      uint64_t *tr, uint64_t *h)
{
	if (xs_buf_reserve(&s->buf, s->bufkey, W, !tree) < 0 ||
	    xs_hash_reserve(x, W) < 0)
		return -1;
	*tr = tree ? tree : xs_tree_hash(&s->buf, W);
	*h = xs_state_hash(&s->buf, x, W, *tr, s->st->fixed,
			   s->st->hist ? s->st : NULL, L->state, &L->hx,
			   xs_touched(W, t));
	if (s->st->o.outcomes && acc) {
		*h = xmix(*h ^ acc);
		if (!*h)
			*h = 1;
	}
	return 0;
}

/* Level D's state's components (its hash is known): hashed whole, or
 * from level D - 1's when PARENT (it is that state's successor by thread
 * RAN, remade by xs_regen_next: its touched mask is the block's). */
int xs_level_hash(struct sworker *s, int d, bool parent, int ran)
{
	struct lvl *L = &s->lv[d];
	const struct lvl *P = parent ? &s->lv[d - 1] : NULL;
	if (xs_buf_reserve(&s->buf, s->bufkey, L->state, false) < 0 ||
	    xs_hash_reserve(&L->hx, L->state) < 0)
		return -1;
	xs_state_hash(&s->buf, &L->hx, L->state, L->tree, s->st->fixed,
		      s->st->hist ? s->st : NULL, P ? P->state : NULL,
		      P ? &P->hx : NULL,
		      P ? xs_touched(L->state, ran) : XTOUCH_ALL);
	return 0;
}

/* Level D's successor I: the last one as expand left it, another made
 * again into level D + 1's buffer (lv_grow has made room); NULL when out
 * of memory. */
struct vfs_world *xs_regen_next(struct sworker *s, int d, int i)
{
	const struct lvl *L = &s->lv[d];
	struct lvl *N = &s->lv[d + 1];
	if (i == L->ilast)
		return L->last;
	if (!N->buf) {
		if (!(N->buf = xs_wnew()) || !vfs_world_copy(N->buf, L->state))
			return NULL;
	}
	xs_fcopy(N->buf, L->state, s->st->fixed, s->st->o.outcomes);
	xs_touch_clear(N->buf);
	for (int q = 0; q < L->nst[i]; q++)
		vfs_step(N->buf, L->tid[i], NULL);
	return xw_lost(N->buf) ? NULL : N->buf;
}

/* The work buffer holds level L's last successor: it is kept there (the
 * buffer it replaces was a state of the search's last visit below L,
 * over now). */
static void keep_last(struct sworker *s, struct lvl *L)
{
	struct vfs_world *w = L->last;
	L->last = s->work;
	s->work = w;
	struct xhash x = L->hxlast;
	L->hxlast = s->hxw;
	s->hxw = x;
	xs_spare_kept(s, L->state, L->last, L->tid[L->ilast]);
}

/* Make the successors of level D's state (the reduced set).  A
 * transition is a block of thread T (explore_movers.c): its invisible
 * steps, its first visible step or release, then its releases and
 * invisible steps up to its next visible step (run, seen, and the block
 * run again without it), or to the end of its work. */
int xs_expand(struct sworker *s, int d)
{
	struct lvl *L = &s->lv[d];
	const struct vfs_world *S = L->state;
	struct vfs_sink sink;
	int n = 0, nrun = 0;
	bool sleep = s->st->sleep;
	L->ample = false;
	L->ilast = -1;
	L->n = L->next = 0;
	if (d > s->maxdepth)
		s->maxdepth = d;
	if (L->plen >= s->st->maxdepth) {
		s->cut = XCUT_DEPTH;
		return 0;
	}
	/* the threads of the work buffer that may not be S's: after the
	 * first successor, those its block ran or touched (the spare, a
	 * copy of it before a step, is its state then: W->touched with it) */
	uint32_t wdiff = s->wnear ? s->wdiff : UINT32_MAX;
	uint32_t accm = 0;      /* the successors whose blocks made accesses */
	uint32_t run = 0;       /* S's runnable threads */
	for (int t = 0; t < S->nthreads; t++)
		run |= (uint32_t)xs_runnable(S, t) << t;
	/* the last successor's thread */
	int tlast = run & ~L->slp ? 31 - __builtin_clz(run & ~L->slp) : -1;
	/* a block's steps at most */
	int kmax = s->st->maxdepth - L->plen < MAXBLOCK ?
		   s->st->maxdepth - L->plen : MAXBLOCK;
	for (uint32_t rm = run; rm; rm &= rm - 1) {
		int t = __builtin_ctz(rm);
		L->asleep[n] = 0;
		if (L->slp >> t & 1) {
			/* asleep: its block is the one run where it fell
			 * asleep (nothing since touched what it touches),
			 * not run again; never a local one (those are taken
			 * alone and put no thread to sleep) */
			const struct lvl *R = &s->lv[L->sref_d[t]];
			int j = L->sref_i[t];
			L->asleep[n] = 1;
			L->tid[n] = (uint8_t)t;
			L->nst[n] = R->nst[j];
			L->ncut[n] = R->ncut[j];
			L->kinds[n] = R->kinds[j];
			accm |= (uint32_t)!!R->obs[j].nacc << n;
			n++;
			continue;
		}
		if (!s->work) {
			if (!(s->work = xs_wnew()) || !vfs_world_copy(s->work, S))
				return -1;
		}
		if (!s->memo) {
			if (!(s->memo = calloc(1, sizeof *s->memo)))
				return -1;
			s->memo->mask = XMEMO_SIZE - 1;
		}
		struct vfs_world *W = s->work;
		struct xobs *o = &L->obs[n];
		o->xm = &s->st->xm;
		o->memo = s->memo;
		o->open = s->st->open;
		o->nopen = s->st->hist ? 0 : s->st->nopen;
		o->need_hist = &s->st->need_hist;
		o->shared = o->nacc = o->over = 0;
		o->emit_seq = 0;
		o->fp = sleep ? &L->fp[n] : NULL;
		if (o->fp)
			xfp_clear(o->fp);
		/* before a saved step (put back with its world): what the
		 * block had made, its footprint too (a step not saved is run
		 * again from S, all made again) */
		struct { struct xfp fp; uint64_t acc; uint32_t nacc;
			 uint8_t over; bool dirty; } sv = { 0 };
		/* what no location says: the state's order-dependent parts
		 * (allocations, the tree, lockdep's graph, the passes), S's:
		 * W still holds the sibling made before, whose pass or edges
		 * would hide the block's own (16ef543 read W, and lost states) */
		struct xorder ord0 = xorder_of(S);
		sink.fn = xs_obs_sink;
		sink.ctx = o;
		xs_fcopy_back(W, S, s->st->fixed, s->st->o.outcomes, wdiff);
		xs_touch_clear(W);
		uint64_t acc = L->acc;
		int k = 0, cut = 0;
		bool dirty = false, redo = false;
		bool newcall = true;    /* the next step's call is not yet
					 * known to leave the tree alone */
		/* what the successor is, worked out before a step that may be
		 * the next block's (spec: it was) */
		bool spec = false;
		uint64_t spec_tr = 0, spec_h = 0;
		uint32_t spec_kinds = 0, spec_ovf = 0;
		bool spec_cup = false;
		for (;;) {
			uint16_t allocs = W->allocs;
			/* (its resume point: read only after the block's
			 * visible step) */
			int pc = cut ? W->threads[t].f.pc : 0;
			/* after the block's visible step, before a step where
			 * a visible one was seen before (it may be the next
			 * block's): the last successor's world is kept (a
			 * copy), another's is not, only what it is (its
			 * kinds, limits and hash, worked out now) */
			bool saved = false, specd = false;
			if (!cut || !s->nsite[pc]) {
				/* (the common step: nothing to keep) */
			} else if (t != tlast) {
				spec_kinds = counts_kinds(S, W);
				spec_ovf = xoverflowed(S, W);
				spec_cup = o->fp && xs_count_up(o->fp, S, W);
				if (hash_state(s, L, &s->hxw, W, t, dirty ? 0 : L->tree,
					       acc, &spec_tr, &spec_h) < 0)
					return -1;
				saved = specd = true;
			} else {
				if (!s->spare) {
					if (!(s->spare = xs_wnew()) ||
					    !vfs_world_copy(s->spare, W))
						return -1;
				}
				xs_spare_copy(s, S, W, t);
				saved = true;
			}
			if (saved) {
				sv.nacc = o->nacc;
				sv.over = o->over;
				sv.dirty = dirty;
				sv.acc = acc;
				if (o->fp)
					sv.fp = *o->fp;
			}
			o->cls = XM_B;
			bool done = vfs_step_noframes(W, t, &sink);
			if (done && s->st->o.outcomes)
				acc += xcall_hash(W, t);
			k++;
			s->probes++;
			/* allocations are visible: they number the objects
			 * (and an inode made or freed changes the tree) */
			if (W->allocs != allocs) {
				o->cls = XM_N;
				dirty = true;
			} else if (newcall && !dirty && !tree_clean_call(W, t)) {
				dirty = true;
			}
			newcall = done;         /* (a call's row is its own) */
			if (!cut) {
				if (o->cls != XM_B) {
					cut = k;        /* the block's one non-mover */
					o->shared = 1;
				}
			} else if (o->cls == XM_N) {
				/* the next block's: back to before it */
				k--;
				if (saved) {
					if (specd) {
						spec = true;    /* (W is past it) */
					} else {
						struct vfs_world *tmp = W;
						W = s->work = s->spare;
						s->spare = tmp;
					}
					o->nacc = sv.nacc;
					o->over = sv.over;
					if (o->fp)
						*o->fp = sv.fp;
					dirty = sv.dirty;
					acc = sv.acc;
				} else {
					s->nsite[pc] = 1;
					redo = true;
				}
				break;
			}
			if (k == kmax || !xs_runnable(W, t))
				break;
		}
		if (redo) {
			xs_fcopy_back(W, S, s->st->fixed, s->st->o.outcomes,
				      W->touched | 1u << t);
			xs_touch_clear(W);
			o->nacc = o->over = 0;
			o->emit_seq = 0;
			if (o->fp)
				xfp_clear(o->fp);
			dirty = false;
			acc = L->acc;
			for (int q = 0; q < k; q++) {
				uint64_t ni = inode_stamp(W);
				if (vfs_step_noframes(W, t, &sink) && s->st->o.outcomes)
					acc += xcall_hash(W, t);
				if (!tree_clean(W, t, ni))
					dirty = true;
			}
		}
		if (o->fp) {
			/* a block that made or freed an object, changed the
			 * tree or an order-dependent detector state: dependent
			 * with every other */
			if (dirty || !xorder_same(&ord0, W))
				o->fp->all = 1;
			/* (spec: W is a step past the block) */
			L->cup[n] = spec ? spec_cup : xs_count_up(o->fp, S, W);
			o->fp = NULL;
		}
		/* (out of memory: its accesses, or a table its steps grew, a
		 * detector's say, whose say the successor would lack) */
		if (o->over || xw_lost(W))
			return -1;
		accm |= (uint32_t)!!o->nacc << n;
		wdiff = W->touched | 1u << t;
		L->ncut[n] = (uint8_t)cut;
		L->tid[n] = (uint8_t)t;
		L->nst[n] = (uint8_t)k;
		L->sacc[n] = acc;
		if (spec) {
			L->kinds[n] = (uint8_t)spec_kinds;
			s->overflowed |= spec_ovf;
			L->tr[n] = spec_tr;
			L->h[n] = spec_h;
		} else {
			L->kinds[n] = (uint8_t)counts_kinds(S, W);
			s->overflowed |= xoverflowed(S, W);
			if (hash_state(s, L, &s->hxw, W, t, dirty ? 0 : L->tree, acc,
				       &L->tr[n], &L->h[n]) < 0)
				return -1;
		}
		vt_prefetch(&s->st->vt, L->h[n]);
		if (!o->shared) {
			/* invisible all through: taken alone (an ample set of
			 * one; its steps commute with every other thread's) */
			if (n) {
				L->tid[0] = (uint8_t)t;
				L->nst[0] = L->nst[n];
				L->ncut[0] = L->ncut[n];
				L->kinds[0] = L->kinds[n];
				L->h[0] = L->h[n];
				L->tr[0] = L->tr[n];
				L->sacc[0] = L->sacc[n];
			}
			L->asleep[0] = 0;
			L->ample = true;
			L->ilast = 0;
			L->n = 1;
			s->local++;
			s->transitions++;
			keep_last(s, L);
			return 0;
		}
		L->ilast = n;
		nrun++;
		n++;
	}
	L->n = n;
	s->transitions += (uint64_t)nrun;
	if (nrun)
		keep_last(s, L);
	if (!L->first)
		return 0;       /* (expanded again: what it shows was shown) */
	if (!n) {
		if (vfs_all_blocked(S))
			xs_violation(s, L->plen, NULL, 0, DK_BIT(DK_DEADLOCK));
		if (s->st->o.outcomes && xs_outcome(s, L->acc + xfinal_hash(S), L->plen) < 0)
			return -1;
		return 0;
	}
	if (accm & (accm - 1))
		xs_race_check(s, L, accm);
	return 0;
}

/* The path to level D's successor I: PLEN steps, then its block. */
int xs_path_push(struct sworker *s, const struct lvl *L, int i)
{
	if (xs_path_grow(s, L->plen + L->nst[i] + 1) < 0)
		return -1;
	memset(s->path + L->plen, L->tid[i], L->nst[i]);
	return L->plen + L->nst[i];
}

void (*xs_state_hook)(uint64_t h);

/* One more state visited, H; false (and the search stops) past opts.max. */
bool xs_count_state(struct sworker *s, uint64_t h)
{
	/* (counted for max, here, at every state: the bound is exact
	 * whatever the workers.  The search beside it is paced by the
	 * progress's count instead, added to every 256 transitions: an add
	 * here, on a line every worker writes, passed that line between
	 * the workers' CPUs at every state) */
	uint64_t n = s->st->o.max ?
		     __atomic_add_fetch(&s->st->visited, 1, __ATOMIC_RELAXED) : 0;
	if (s->st->o.max && n > s->st->o.max) {
		__atomic_store_n(&s->st->abort, ABORT_MAX, __ATOMIC_RELAXED);
		return false;
	}
	if (xs_state_hook)
		xs_state_hook(h);
	s->states++;
	return true;
}

uint8_t xs_abort_cut(int abort)
{
	switch (abort) {
	case 0: return XCUT_STOP;
	case ABORT_FIRST: return XCUT_FOUND;
	case ABORT_MAX: return XCUT_MAX;
	case ABORT_ERROR: return XCUT_ERROR;
	}
	return XCUT_TABLE;
}

/* Level D's state, level D - 1's last successor I: level D - 1's own
 * state, never read again (what follows I there is asleep) and the
 * search's (D - 1 above the base: not the frontier's item), made the work
 * buffer, whose first copy of level D's state is then its block's writes
 * only (xs_fcopy_fwd); the buffer it was made the level's. */
static void work_from_parent(struct sworker *s, int d, int i)
{
	struct vfs_world *x = s->lv[d - 1].state, **own;
	if (x == s->lv[d - 2].last)
		own = &s->lv[d - 2].last;
	else if (x == s->lv[d - 1].buf)
		own = &s->lv[d - 1].buf;
	else
		return;
	if (!s->work)
		return;
	*own = s->work;
	s->work = x;
	s->lv[d - 1].state = NULL;
	s->wnear = true;
	s->wdiff = xs_fcopy_fwd(x, s->lv[d].state, s->lv[d - 1].tid[i]);
}

/* Depth-first from IT's state (already in the visited set): at depth
 * BASE (IT->depth), with its path and the threads asleep there. */
static int dfs(struct sworker *s, const struct xitem_s *it)
{
	int base = it->depth, plen = it->plen;
	uint64_t hash = it->hash;
	if (xs_lv_grow(s, base + 1) < 0 || xs_path_grow(s, plen + 1) < 0)
		return -1;
	memcpy(s->path, it->path, (size_t)plen);
	int d = base;
	if (!(s->lv[d].state = xs_item_state(s, it)))
		return -1;
	s->lv[d].hash = hash;
	s->lv[d].tree = it->tree;
	s->lv[d].acc = it->acc;
	s->lv[d].plen = plen;
	s->lv[d].slp = 0;
	s->lv[d].first = true;
	if (it->slp && xs_item_sleepers(s, it, base) < 0)
		return -1;
	if (xs_level_hash(s, d, false, -1) < 0 || xs_expand(s, d) < 0)
		return -1;
	if (!xs_count_node(s, &s->lv[d]))
		return 0;
	/* the states on the stack, counted by their hash's top byte: a
	 * matched state is looked for on the stack only when its count is
	 * not zero */
	uint32_t onstack[256] = { 0 };
	onstack[hash >> 56]++;
	uint64_t polls = 0;
	for (;;) {
		struct lvl *L = &s->lv[d];
		if (L->next == L->n) {
			if (d == base)
				return 0;
			onstack[L->hash >> 56]--;
			d--;
			continue;
		}
		if ((++polls & 255) == 0) {
			if (xs_stopped(s)) {
				if (!s->cut)
					s->cut = xs_abort_cut(__atomic_load_n(
						&s->st->abort, __ATOMIC_RELAXED));
				return 0;
			}
			xs_report(s);
		}
		int i = L->next++, np;
		if (L->asleep[i]) {
			/* asleep: not taken; what its block shows, shown
			 * here as where it was run */
			if (L->kinds[i] && L->first) {
				if ((np = xs_path_push(s, L, i)) < 0)
					return -1;
				xs_violation(s, np, NULL, 0, L->kinds[i]);
			}
			continue;
		}
		bool take = false;
		int r = xs_reach(s, L, i, &np, &take);
		if (r == XR_ERROR)
			return -1;
		if (r == XR_CUT)
			return 0;
		uint64_t tr = L->tr[i], h = L->h[i];
		if (r == XR_SEEN) {
			/* acyclic: never back to a state on the stack */
			for (int k = base; onstack[h >> 56] && k <= d; k++)
				if (s->lv[k].hash == h) {
					s->cut = XCUT_ERROR;
					s->failed = 2;
					return -1;
				}
			/* (ranked: expanded again when this search's rank
			 * is the least so far) */
			if (!take)
				continue;
			s->retaken++;
		}
		if (xs_lv_grow(s, d + 2) < 0)
			return -1;
		if (s->st->sleep)
			xs_sleep_child(s, d, i);
		else
			s->lv[d + 1].slp = 0;
		s->lv[d + 1].first = r == XR_NEW;
		if (d + 1 == s->cutd) {
			/* (xs_top: the frontier) */
			if (xs_make_item(s, d, i, np) < 0)
				return -1;
			continue;
		}
		struct vfs_world *W = xs_regen_next(s, d, i);
		if (!W)
			return -1;
		xs_spare_remade(s, &s->lv[d], i, W);
		d++;
		onstack[h >> 56]++;
		s->lv[d].state = W;
		s->lv[d].hash = h;
		s->lv[d].tree = tr;
		s->lv[d].acc = s->lv[d - 1].sacc[i];
		s->lv[d].plen = np;
		/* the components: the last successor's were kept, another's
		 * are hashed again from its parent's */
		if (i == s->lv[d - 1].ilast) {
			const struct xhash *p = &s->lv[d - 1].hxlast;
			if (xs_hash_reserve(&s->lv[d].hx, W) < 0)
				return -1;
			memcpy(s->lv[d].hx.h, p->h, sizeof *p->h * (size_t)p->n);
		} else if (xs_level_hash(s, d, true, s->lv[d - 1].tid[i]) < 0) {
			return -1;
		}
		if (i == s->lv[d - 1].ilast && d - 1 > base)
			work_from_parent(s, d, i);
		r = xs_expand(s, d);
		s->wnear = false;
		if (r < 0)
			return -1;
		if (!xs_count_node(s, &s->lv[d]))
			return 0;
	}
}

int xs_top(struct sworker *s, const struct xitem_s *root, int cutd)
{
	s->cutd = cutd;
	s->rank = 0;
	int r = dfs(s, root);
	s->cutd = 0;
	return r;
}

void xs_worker_free(struct sworker *s)
{
	for (int d = 0; d < s->caplv; d++) {
		vfs_world_free(s->lv[d].buf);
		vfs_world_free(s->lv[d].last);
		free(s->lv[d].hx.h);
		free(s->lv[d].hxlast.h);
		for (int i = 0; i < XMAXT; i++)
			free(s->lv[d].obs[i].acc);
	}
	free(s->hxw.h);
	free(s->memo);
	vfs_world_free(s->work);
	free(s->lv);
	free(s->path);
	free(s->buf.p);
	free(s->cex);
	for (int k = 0; k < DK__COUNT; k++)
		free(s->kcex[k]);
	vfs_world_free(s->scratch);
	vfs_world_free(s->spare);
	vfs_world_free(s->itemw);
}
/* S to search again from the start (top_sleep's next try, the same
 * discipline): what it found and counted dropped, its buffers kept as
 * they are after a search's pops (a level's worlds hold states of
 * earlier branches there too).  Made anew, their pages would fault in
 * again: ~150 a try, about 1.5 ms of the serial start at 5 x 3. */
void xs_worker_restart(struct sworker *s)
{
	struct sworker k = *s;
	free(s->cex);
	for (int i = 0; i < DK__COUNT; i++)
		free(s->kcex[i]);
	*s = (struct sworker){ .st = k.st, .id = k.id, .lv = k.lv,
			       .caplv = k.caplv, .path = k.path,
			       .cappath = k.cappath, .buf = k.buf, .hxw = k.hxw,
			       .memo = k.memo, .scratch = k.scratch,
			       .work = k.work, .spare = k.spare,
			       .itemw = k.itemw };
	memcpy(s->bufkey, k.bufkey, sizeof s->bufkey);
}

void *xs_worker_main(void *arg)
{
	struct sworker *s = arg;
	struct xst *st = s->st;
	double c0 = xthread_cpu();
	for (;;) {
		/* (a copy: the frontier may be growing the array) */
		struct xitem_s it;
		pthread_mutex_lock(&st->imu);
		while (st->ntaken >= st->nitems && st->making && !xs_stopped(s))
			pthread_cond_wait(&st->icv, &st->imu);
		int i = xs_take_item(st);
		if (i >= 0)
			it = st->items[i];
		st->early_items += i >= 0 && st->making;
		pthread_mutex_unlock(&st->imu);
		if (i < 0 || xs_stopped(s))
			break;
		s->rank = (uint32_t)i;
		if (dfs(s, &it) < 0) {
			if (!s->failed)
				s->failed = 1;
			__atomic_store_n(&st->abort, ABORT_ERROR, __ATOMIC_RELAXED);
			break;
		}
	}
	s->cpu += xthread_cpu() - c0;
	return NULL;
}

