/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_explore.c - the exploration engine (core/explore.h).
 *
 *  - the pidfd_getfd race: found under v5.6 and v6.4, proven absent
 *    (exhaustively, no bound) under 20ea1e7d13c1, 797964253d35, v6.5 and
 *    mainline, with one, two and three thieves; each counterexample
 *    replays to the same violation;
 *  - the same results with jobs 1 and jobs 2; max, bound and stop;
 *  - plain explore's first violation and the shortest counterexample.
 * The engines' agreement (naive, DPOR, stateful): test_explore_agree.c.
 */
#include <signal.h>
#include <unistd.h>
#include "harness_explore.h"
#include "explore_stateful.h"
#include "explore_shortest.h"   /* xs_shortest: the states it keeps */

/* The counterexample replays, from the snapshot, to what it was said to
 * show; so does every kept schedule that was violating. */
static void check_cex(const struct vfs_world *snap,
		      const struct vfs_explore_result *r, uint32_t want)
{
	struct vfs_world *w = calloc(1, sizeof *w);
	const uint8_t *s;
	assert_non_null(w);
	assert_true(r->have_cex);
	assert_true(r->cex_kinds & want);
	int len = vfs_explore_schedule(r, r->cex_index, &s);
	assert_int_equal(len, r->cex_len);
	vfs_world_copy(w, snap);
	assert_int_equal(vfs_explore_replay(w, s, len, NULL), len);
	for (int t = 0; t < w->nthreads; t++)
		assert_false(vfs_runnable(w, t));
	assert_int_equal(vfs_explore_kinds_of(snap, w), r->cex_kinds);
	/* the fewest preemptions among violating executions: none is needed */
	assert_int_equal(r->cex_preemptions, 0);
	vfs_world_free(w);
}

static void pidfd_found(const char *preset)
{
	for (int n = 1; n <= 3; n++) {
		struct h *h = thieves(preset, n, 2);
		struct vfs_explore_result r;
		explore(h->w, 2, 0, n == 3 ? found_cap(preset) : 0, &r);
		assert_true(r.executions > 0);
		assert_true(r.kind_execs[DK_DUPLICATE] > 0);
		assert_true(r.violating > 0);
		assert_true(n == 3 ? !r.complete && r.cut == XCUT_MAX : r.complete);
		check_cex(h->w, &r, DK_BIT(DK_DUPLICATE) | DK_BIT(DK_RACE));
		vfs_explore_result_free(&r);
		h_free(h);
	}
}

static void test_found_v56(void **state) { (void)state; pidfd_found("v5.6"); }
static void test_found_v64(void **state) { (void)state; pidfd_found("v6.4"); }

static void pidfd_proven(const char *preset)
{
	for (int n = 1; n <= 3; n++) {
		struct h *h = thieves(preset, n, 2);
		struct vfs_explore_result r;
		explore(h->w, 2, 0, 0, &r);
		assert_true(r.complete);
		assert_int_equal(r.cut, XCUT_NONE);
		assert_true(r.executions > 1);
		assert_int_equal(r.violating, 0);
		for (int k = 0; k < DK__COUNT; k++)
			if (k != DK_SKIPPED && k != DK_LOCKORDER)
				assert_int_equal(r.kind_execs[k], 0);
		assert_false(r.have_cex);
		/* the calls take the 4 entries two by two, in any order: 2, 3!,
		 * and 4!/2 (the last two both get nothing) outcomes */
		static const uint64_t outcomes[] = { 0, 2, 6, 12 };
		assert_int_equal(r.outcomes, outcomes[n]);
		vfs_explore_result_free(&r);
		h_free(h);
	}
}

static void test_proven_20ea(void **state) { (void)state; pidfd_proven("20ea1e7d13c1"); }
static void test_proven_7979(void **state) { (void)state; pidfd_proven("797964253d35"); }
static void test_proven_v65(void **state) { (void)state; pidfd_proven("v6.5"); }
static void test_proven_mainline(void **state) { (void)state; pidfd_proven("mainline"); }

/* ---- deterministic whatever the number of workers ---- */

static void same(const struct vfs_explore_result *a,
		 const struct vfs_explore_result *b)
{
	assert_int_equal(a->executions, b->executions);
	assert_int_equal(a->redundant, b->redundant);
	assert_int_equal(a->outcomes, b->outcomes);
	assert_true(a->outcome_digest == b->outcome_digest);
	assert_int_equal(a->violating, b->violating);
	for (int k = 0; k < DK__COUNT; k++)
		assert_int_equal(a->kind_execs[k], b->kind_execs[k]);
	assert_int_equal(a->complete, b->complete);
	assert_int_equal(a->cut, b->cut);
	assert_int_equal(a->have_cex, b->have_cex);
	assert_int_equal(a->cex_index, b->cex_index);
	assert_int_equal(a->cex_len, b->cex_len);
	if (a->have_cex)
		assert_memory_equal(a->cex_schedule, b->cex_schedule,
				    (size_t)a->cex_len);
	uint64_t n = a->executions < 200 ? a->executions : 200;
	for (uint64_t k = 1; k <= n; k++) {
		const uint8_t *sa, *sb;
		int la = vfs_explore_schedule(a, k, &sa);
		int lb = vfs_explore_schedule(b, k, &sb);
		assert_int_equal(la, lb);
		assert_true(la > 0);
		assert_memory_equal(sa, sb, (size_t)la);
	}
}

static void test_jobs(void **state)
{
	(void)state;
	const char *presets[] = { "v6.4", "v6.5" };
	for (int p = 0; p < 2; p++)
		for (int naive = 0; naive <= 1; naive++)
			for (int max = 0; max <= 1; max++) {
				struct h *h = thieves(presets[p], naive ? 1 : 2, 2);
				struct vfs_explore_result a, b;
				uint64_t cap = max ? 1000 : 0;
				explore(h->w, 1, naive, cap, &a);
				explore(h->w, 2, naive, cap, &b);
				assert_int_equal(a.jobs, 1);
				/* a cap runs the subtrees in order, in one worker */
				assert_int_equal(b.jobs, max ? 1 : 2);
				same(&a, &b);
				if (max)
					assert_true(a.executions <= cap);
				vfs_explore_result_free(&a);
				vfs_explore_result_free(&b);
				h_free(h);
			}
}

/* DPOR with two jobs, keeping KEEP (0: the default), STOP (or NULL) */
static void explore_jobs2(const struct vfs_world *w, uint32_t keep,
			  volatile sig_atomic_t *stop, struct vfs_explore_result *r)
{
	struct vfs_explore_opts o;
	vfs_explore_opts_init(&o);
	o.jobs = 2;
	o.keep = keep;
	o.stop = stop;
	assert_int_equal(vfs_explore(w, &o, r), 0);
}

/* The first `keep` executions are kept, and at least the first `keep`
 * violating ones (each subtree keeps its own while fewer were merged),
 * whichever of the hundreds of subtrees ran them; each replays from the
 * snapshot to the kinds the result gives it; an execution not kept has
 * neither schedule nor kinds.  After vfs_explore_result_trim, which frees
 * what the search left beside the answers. */
static void test_kept(void **state)
{
	(void)state;
	struct h *h = thieves("v6.4", 2, 2);
	struct vfs_explore_result r;
	explore_jobs2(h->w, 100, NULL, &r);
	vfs_explore_result_trim(&r);
	assert_true(r.complete);
	assert_true(r.subtrees > 100);
	assert_int_equal(r.kept_first, 100);
	assert_true(r.violating > 200);
	uint64_t kept = 0, viol = 0;
	for (uint64_t k = 1; k <= r.executions; k++) {
		const uint8_t *s;
		int len = vfs_explore_schedule(&r, k, &s);
		uint32_t kinds = vfs_explore_kinds(&r, k);
		if (len < 0) {
			assert_true(k > r.kept_first);
			assert_int_equal(kinds, 0);
			continue;
		}
		struct vfs_world *w = vfs_world_dup(h->w);
		assert_non_null(w);
		assert_int_equal(vfs_explore_replay(w, s, len, NULL), len);
		for (int t = 0; t < w->nthreads; t++)
			assert_false(vfs_runnable(w, t));
		assert_int_equal(vfs_explore_kinds_of(h->w, w), kinds);
		vfs_world_free(w);
		kept++;
		if (kinds & r.violations)
			viol++;
		else
			assert_true(k <= r.kept_first);
	}
	assert_true(viol >= 100);
	assert_true(kept > r.kept_first && kept < r.executions);
	vfs_explore_result_free(&r);
	h_free(h);
}

/* v6.4: A's getdents of two entries borrows the file (f_count 1: no
 * f_pos_lock) while B steals it and seeks it to 0; where A read f_pos (3)
 * before the seek and hands out 3 and 4 after it, ".", ".." and "a" were
 * skipped in the pass the seek began.  The skipped-entry detector speaks
 * in the searches that step without frames (the stateful one, the
 * shortest counterexample's, whose steps give one event of a step's
 * entries to the search) as in DPOR's. */
static void test_skipped_found(void **state)
{
	(void)state;
	struct h *h = h_seek_under_getdents();
	int B = h_tid(h, "B");
	h_submit(h, B, C_PIDFD_GETFD(3, 3));
	h_submit(h, B, C_LSEEK(4, 0, VSEEK_SET));
	struct vfs_explore_result d, a, b;
	explore(h->w, 2, 0, 0, &d);
	explore_state(h->w, 1, &a);
	explore_state(h->w, 2, &b);
	assert_true(d.kind_execs[DK_SKIPPED] > 0);
	assert_true(a.kind_execs[DK_SKIPPED] > 0);
	assert_int_equal(a.kind_execs[DK_SKIPPED], b.kind_execs[DK_SKIPPED]);
	/* the shortest search, asked for it; its schedule replays to it */
	uint8_t *sch;
	int slen, pre, steps;
	uint32_t kinds;
	uint64_t nodes;
	assert_int_equal(vfs_explore_shortest(h->w, DK_BIT(DK_SKIPPED), -1, 0, NULL,
					      &sch, &slen, &pre, &steps, &kinds,
					      &nodes), 1);
	assert_true(kinds & DK_BIT(DK_SKIPPED));
	struct vfs_world *w = vfs_world_dup(h->w);
	assert_non_null(w);
	assert_int_equal(vfs_explore_replay(w, sch, slen, NULL), slen);
	assert_true(vfs_explore_kinds_of(h->w, w) & DK_BIT(DK_SKIPPED));
	vfs_world_free(w);
	free(sch);
	vfs_explore_result_free(&d);
	vfs_explore_result_free(&a);
	vfs_explore_result_free(&b);
	h_free(h);
}

/* bound 0: no preemption, so each thread runs its calls to the end (or
 * until it blocks) before another one runs. */
static void test_bound(void **state)
{
	(void)state;
	struct h *h = thieves("v6.4", 1, 2);
	struct vfs_explore_opts o;
	struct vfs_explore_result r, full;
	vfs_explore_opts_init(&o);
	o.jobs = 2;
	o.bound = 0;
	assert_int_equal(vfs_explore(h->w, &o, &r), 0);
	assert_false(r.complete);
	assert_int_equal(r.cut, XCUT_BOUND);
	assert_int_equal(r.max_preemptions, 0);
	assert_true(r.executions >= 2);
	o.bound = 1;
	assert_int_equal(vfs_explore(h->w, &o, &full), 0);
	assert_true(full.executions > r.executions);
	assert_int_equal(full.max_preemptions, 1);
	/* the race needs A to be preempted between the check and the read */
	assert_true(full.kind_execs[DK_DUPLICATE] > 0);
	assert_int_equal(full.cex_preemptions, 0);
	vfs_explore_result_free(&r);
	vfs_explore_result_free(&full);
	h_free(h);
}


/* ---- plain explore: the first violation, the shortest counterexample ---- */

static void explore_first(const struct vfs_world *w, int jobs,
			  struct vfs_explore_result *r)
{
	struct vfs_explore_opts o;
	stateful_opts(&o, jobs);
	o.first = 1;
	assert_int_equal(vfs_explore(w, &o, r), 0);
}

/* v5.6 and v6.4 break: a race of no preemption (the clocks': A's
 * getdents without f_pos_lock, then the thief's), a duplicate with one
 * (A preempted between the f_count check and its f_pos, the thief in
 * between); the schedule replays to the same violation; the fixed
 * kernels are proven. */
static void first_pidfd(const char *preset, bool broken)
{
	for (int n = 1; n <= 3; n++)
		for (int jobs = 1; jobs <= 2; jobs++) {
			struct h *h = thieves(preset, n, 4);
			struct vfs_explore_result r;
			explore_first(h->w, jobs, &r);
			if (!broken) {
				assert_true(r.complete);
				assert_false(r.have_cex);
				assert_int_equal(r.violating, 0);
			} else {
				/* (a small graph may be searched whole first) */
				assert_true(r.complete || r.cut == XCUT_FOUND);
				assert_true(r.have_cex);
				assert_true(r.cex_shortest);
				assert_true(r.cex_preemptions <= 1);
				/* the duplicate is found, if not in it (the
				 * preemption-bounded probe stops at its first
				 * violation, the race of none; the step-by-step
				 * search after it finds the duplicate in a graph
				 * this small: explore_stateful_run.c) */
				assert_true(r.kind_execs[DK_DUPLICATE] > 0);
				if (r.probe_found) {
					assert_int_equal(r.probe_bound, 0);
					assert_true(r.cex_kinds & DK_BIT(DK_RACE));
				}
				assert_int_equal(vfs_explore_preemptions(h->w, r.cex_schedule,
									 r.cex_len, r.violations,
									 NULL), r.cex_preemptions);
				struct vfs_world *w = vfs_world_dup(h->w);
				assert_non_null(w);
				assert_int_equal(vfs_explore_replay(w, r.cex_schedule, r.cex_len,
								    NULL), r.cex_len);
				assert_int_equal(vfs_explore_kinds_of(h->w, w), r.cex_kinds);
				vfs_world_free(w);
				/* the shortest: no cheaper one in the whole graph
				 * step by step (which sees fewer races) ... */
				uint8_t *sch;
				int len, pre, steps;
				uint32_t kinds;
				uint64_t nodes;
				assert_int_equal(vfs_explore_shortest(h->w, 0, -1, 0, NULL, &sch,
								      &len, &pre, &steps,
								      &kinds, &nodes), 1);
				assert_true(pre > r.cex_preemptions ||
					    (pre == r.cex_preemptions && steps >= r.cex_steps));
				free(sch);
				/* ... nor by the bounded search with the clocks
				 * (the reference): none with fewer preemptions,
				 * one with as many */
				struct vfs_explore_opts ob;
				struct vfs_explore_result rb;
				vfs_explore_opts_init(&ob);
				ob.jobs = 1;
				for (int k = r.cex_preemptions - 1; k <= r.cex_preemptions; k++) {
					if (k < 0)
						continue;
					ob.bound = k;
					assert_int_equal(vfs_explore(h->w, &ob, &rb), 0);
					assert_int_equal(rb.have_cex, k == r.cex_preemptions);
					vfs_explore_result_free(&rb);
				}
				assert_non_null(r.kind_sched[r.probe_found ? DK_RACE :
								      DK_DUPLICATE]);
			}
			vfs_explore_result_free(&r);
			h_free(h);
		}
}

/* The check by the bounded search (xs_fewest_bounded): given the step
 * by step search's counterexample of v6.4 (1 preemption, the duplicate),
 * it finds the race of none; exact when searched to the end, not when its
 * limit cuts bound 0 (one execution: a violation of 0 preemptions, the
 * fewest steps unchecked); stopped, it changes nothing. */
static void test_fewest_bounded(void **state)
{
	(void)state;
	struct h *h = thieves("v6.4", 1, 4);
	uint8_t *s0;
	int len0, pre0, steps0;
	uint32_t kinds0;
	uint64_t nodes;
	assert_int_equal(vfs_explore_shortest(h->w, 0, -1, 0, NULL, &s0, &len0, &pre0,
					      &steps0, &kinds0, &nodes), 1);
	assert_int_equal(pre0, 1);
	int full_steps = 0;
	for (int limit = 0; limit <= 1; limit++) {
		uint8_t *s = malloc((size_t)len0);
		assert_non_null(s);
		memcpy(s, s0, (size_t)len0);
		int len = len0, pre = pre0, steps = steps0, checked;
		uint32_t kinds = kinds0;
		bool exact;
		assert_int_equal(xs_fewest_bounded(h->w, 0, (uint64_t)limit, NULL, 0, &s, &len,
						   &pre, &steps, &kinds, &checked, &exact), 1);
		assert_int_equal(pre, 0);
		assert_int_equal(checked, 0);
		assert_int_equal(exact, limit == 0);
		assert_true(kinds & DK_BIT(DK_RACE));
		assert_int_equal(vfs_explore_preemptions(h->w, s, len, VX_DEFAULT_VIOLATIONS,
							 NULL), 0);
		if (limit == 0)
			full_steps = steps;
		else
			assert_true(steps >= full_steps);
		free(s);
	}
	volatile sig_atomic_t stop = 1;
	struct vfs_explore_opts po;
	vfs_explore_opts_init(&po);
	po.stop = &stop;
	int len = len0, pre = pre0, steps = steps0, checked;
	uint32_t kinds = kinds0;
	bool exact;
	uint8_t *s = s0;
	assert_int_equal(xs_fewest_bounded(h->w, 0, 0, &po, 0, &s, &len, &pre, &steps,
					   &kinds, &checked, &exact), 0);
	assert_ptr_equal(s, s0);
	assert_int_equal(pre, 1);
	assert_int_equal(checked, -1);
	free(s0);
	h_free(h);
}

static void test_first_v56(void **state) { (void)state; first_pidfd("v5.6", true); }
static void test_first_v64(void **state) { (void)state; first_pidfd("v6.4", true); }
static void test_first_20ea(void **state) { (void)state; first_pidfd("20ea1e7d13c1", false); }
static void test_first_7979(void **state) { (void)state; first_pidfd("797964253d35", false); }
static void test_first_v65(void **state) { (void)state; first_pidfd("v6.5", false); }
static void test_first_mainline(void **state) { (void)state; first_pidfd("mainline", false); }

/* Plain explore's shortest search beside the stateful one starts once
 * that one has searched 16,000 states (explore_probe.c, BESIDE_AFTER): a
 * smaller proof searches no state step by step, whatever jobs is and
 * however fast each thread ran (from the start, it searched some before
 * the proof was over, up to 2,000 and an eighth of the proof's). */
static void test_beside_small_proof(void **state)
{
	(void)state;
	for (int jobs = 1; jobs <= 2; jobs++) {
		struct h *h = thieves("v6.5", 4, 30);
		struct vfs_explore_result r;
		explore_first(h->w, jobs, &r);
		assert_true(r.complete);
		assert_false(r.have_cex);
		assert_false(r.probe_found);
		assert_true(r.states > 0 && r.states < 16000);
		assert_int_equal(r.short_nodes, 0);
		vfs_explore_result_free(&r);
		h_free(h);
	}
}

/* Plain explore runs a stateful worker on every online CPU unless told
 * (jobs 0: the default), its shortest search beside them a thread of
 * its own, and proves the same. */
static void test_first_default_jobs(void **state)
{
	(void)state;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct h *h = thieves("v6.5", 3, 4);
	struct vfs_explore_result r;
	explore_first(h->w, 0, &r);
	assert_true(r.complete);
	assert_false(r.have_cex);
	assert_int_equal(r.jobs, cpus < 1 ? 1 : cpus > MAX_WORKERS ? MAX_WORKERS : cpus);
	uint64_t states = r.states;
	vfs_explore_result_free(&r);
	explore_first(h->w, 1, &r);
	assert_int_equal(r.jobs, 1);
	assert_int_equal(r.states, states);
	vfs_explore_result_free(&r);
	h_free(h);
}

/* The shortest search makes each state from its nearest ancestor kept:
 * whichever are kept (one, a few, the default, all), it searches the same
 * states and finds the same counterexample, to the byte. */
static void shortest_kept(const char *preset, int n)
{
	struct h *h = thieves(preset, n, 4);
	static const int keep[] = { 100000, 0, 1, 2, 7 };
	uint8_t *sch0 = NULL;
	int rc0 = 0, len0 = 0, pre0 = 0, steps0 = 0;
	uint32_t kinds0 = 0;
	uint64_t seen0 = 0;
	for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
		/* (the limit: a wrong state kept must not search on
		 * for long) */
		struct sknobs kn = { .maxpre = -1, .limit = 20000, .keep = keep[i] };
		uint8_t *sch = NULL;
		int len = 0, pre = 0, steps = 0;
		uint32_t kinds = 0;
		uint64_t seen = 0;
		int rc = xs_shortest(h->w, 0, &kn, &sch, &len, &pre, &steps, &kinds,
				     &seen);
		assert_true(rc >= 0);
		if (i == 0) {
			rc0 = rc, len0 = len, pre0 = pre, steps0 = steps;
			kinds0 = kinds, seen0 = seen, sch0 = sch;
			assert_true(seen > 128 && seen < 20000);  /* past the
								   * default */
			continue;
		}
		assert_int_equal(rc, rc0);
		assert_int_equal(seen, seen0);
		if (rc > 0) {
			assert_int_equal(len, len0);
			assert_int_equal(pre, pre0);
			assert_int_equal(steps, steps0);
			assert_int_equal(kinds, kinds0);
			assert_memory_equal(sch, sch0, (size_t)len);
		}
		free(sch);
	}
	free(sch0);
	h_free(h);
}

static void test_shortest_kept(void **state)
{
	(void)state;
	shortest_kept("v5.6", 2);
	shortest_kept("v6.4", 3);
	shortest_kept("v6.5", 2);
}

/* max N bounds the work whatever jobs is: DPOR's executions and sleep-set
 * cuts, the stateful search's states. */
static void test_max_bounds(void **state)
{
	(void)state;
	static const int jobs[] = { 1, 2, 8 };
	for (int j = 0; j < 3; j++)
		for (int stateful = 0; stateful <= 1; stateful++) {
			struct h *h = thieves("v6.5", 3, 30);
			h_submit(h, h_tid(h, "A"), C_GETDENTS(3, 2));
			h_submit(h, h_tid(h, "B"), C_GETDENTS(4, 2));
			struct vfs_explore_opts o;
			struct vfs_explore_result r;
			vfs_explore_opts_init(&o);
			o.jobs = jobs[j];
			o.stateful = stateful;
			o.max = stateful ? 100 : 1000;
			assert_int_equal(vfs_explore(h->w, &o, &r), 0);
			assert_false(r.complete);
			assert_int_equal(r.cut, XCUT_MAX);
			if (stateful)
				assert_true(r.states <= o.max);
			else
				assert_true(r.executions + r.redundant <= o.max);
			uint64_t u = r.units_probe + r.units_search + r.units_check;
			/* (several workers: the frontier's tries discarded are
			 * charged too, top_sleep) */
			if (stateful && jobs[j] > 1)
				assert_true(u >= r.states && u <= o.max);
			else
				assert_int_equal(u, stateful ? r.states :
						 r.executions + r.redundant);
			vfs_explore_result_free(&r);
			h_free(h);
		}
}

/* max N is one budget plain explore's parts share (explore_probe.c,
 * xs_spend), whatever jobs is: the probe's executions, the states of the
 * stateful search and of the step-by-step search beside or after it, the
 * check's executions, N in all (before, N each: the probe's executions
 * at each bound, the two searches' states, the check's executions); each
 * part's units at least what it reports of its own work.  A proof cut by
 * max (v6.5) and a race (v6.4, v5.6), with a max below and above what
 * the probe alone uses. */
static void test_max_one_budget(void **state)
{
	(void)state;
	static const char *const kernels[] = { "v6.5", "v6.4", "v5.6" };
	static const int jobs[] = { 1, 2, 8 };
	static const uint64_t maxes[] = { 5, 60, 300 };
	for (int k = 0; k < 3; k++)
		for (int j = 0; j < 3; j++)
			for (int m = 0; m < 3; m++) {
				struct h *h = thieves(kernels[k], 3, 30);
				struct vfs_explore_opts o;
				struct vfs_explore_result r;
				stateful_opts(&o, jobs[j]);
				o.first = 1;
				o.max = maxes[m];
				assert_int_equal(vfs_explore(h->w, &o, &r), 0);
				uint64_t all = r.units_probe + r.units_search + r.units_check;
				assert_true(all <= o.max);
				assert_true(r.units_probe >= r.probe_execs);
				assert_true(r.units_search >= r.states + r.short_nodes);
				assert_true(r.probe_execs + r.states + r.short_nodes <= o.max);
				if (k == 0) {
					assert_false(r.have_cex);
					assert_false(r.complete);
					assert_int_equal(r.cut, XCUT_MAX);
				} else {
					assert_true(r.have_cex);
					assert_true(r.cex_kinds & DK_BIT(DK_RACE));
				}
				vfs_explore_result_free(&r);
				h_free(h);
			}
}

/* Plain explore's preemption-bounded probe (explore_stateful_run.c):
 * on v6.4 it finds the race of no preemption in its first execution, and
 * 'max 1' lets it run that one (the stateful search not run: no state);
 * on v6.5 it finds nothing, is counted in the answer (executions of 0
 * preemptions, then with one delay, at most max of them; its steps
 * within its budget plus an execution, and the delays' within theirs:
 * explore_probe.c, 32 delay-free runs of under 200 steps, each run
 * started under it, from a copy at most 32 steps back) and the stateful
 * search proves it as alone. */
static void test_probe_counts(void **state)
{
	(void)state;
	for (int broken = 0; broken <= 1; broken++)
		for (uint64_t max = 0; max <= 1; max++) {
			struct h *h = thieves(broken ? "v6.4" : "v6.5", 3, 30);
			struct vfs_explore_opts o;
			struct vfs_explore_result r;
			stateful_opts(&o, 1);
			o.first = 1;
			o.max = max;
			assert_int_equal(vfs_explore(h->w, &o, &r), 0);
			assert_int_equal(r.probe_found, broken);
			assert_true(r.probe_execs >= 1);
			if (max)
				assert_true(r.probe_execs <= max);
			assert_true(r.probe_steps <= 2048 + 200 + (r.probe_delays ?
				    33 * 200 + r.probe_delays * (200 + 32) : 0));
			/* (max 1: its one execution spent it, no delay run) */
			assert_int_equal(r.probe_delays > 0, !broken && !max);
			if (broken) {
				assert_int_equal(r.probe_bound, 0);
				assert_int_equal(r.probe_execs, 1);
				assert_int_equal(r.states, 0);
				assert_true(r.have_cex);
				assert_true(r.cex_kinds & DK_BIT(DK_RACE));
				assert_int_equal(r.cex_preemptions, 0);
			} else {
				assert_false(r.have_cex);
				assert_int_equal(r.complete, !max);
				if (!max)
					assert_true(r.probe_execs > 1);
			}
			vfs_explore_result_free(&r);
			h_free(h);
		}
}

/* A violation of one preemption where the executions of none are more
 * than the probe's steps: the ABBA deadlock of two renames without
 * s_vfs_rename_mutex (R: /a/x to /b/x, S: /b/y to /a/y) beside the
 * thieves of v6.5 (no violation of their own).  bound 0 finds none
 * (every execution searched), bound 1 finds it; plain explore's probe
 * finds it with one delay (explore_probe.c, delay_probe), the stateful
 * search not run, and its counterexample, of one preemption (the check
 * completes: the shortest), replays to the deadlock. */
static void test_probe_delay(void **state)
{
	(void)state;
	struct h *h = thieves("v6.5", 3, 30);
	h_knob(h, "rename-lock", "no-mutex");
	h_mkdir(h, "/a");
	h_mkdir(h, "/b");
	h_touch(h, "/a/x");
	h_touch(h, "/b/y");
	h_submit(h, h_spawn(h, "R", 0), C_RENAME("/a/x", "/b/x"));
	h_submit(h, h_spawn(h, "S", 0), C_RENAME("/b/y", "/a/y"));
	struct vfs_explore_opts o;
	struct vfs_explore_result r;
	for (int k = 0; k <= 1; k++) {
		vfs_explore_opts_init(&o);
		o.jobs = 1;
		o.bound = k;
		o.stop_at_violation = 1;
		assert_int_equal(vfs_explore(h->w, &o, &r), 0);
		assert_int_equal(r.have_cex, k == 1);
		if (!k)
			assert_int_equal(r.cut, XCUT_BOUND);
		vfs_explore_result_free(&r);
	}
	stateful_opts(&o, 1);
	o.first = 1;
	assert_int_equal(vfs_explore(h->w, &o, &r), 0);
	assert_true(r.probe_found);
	assert_true(r.probe_delay);
	assert_true(r.probe_delays >= 1);
	assert_int_equal(r.states, 0);
	assert_true(r.have_cex);
	assert_true(r.cex_kinds & DK_BIT(DK_DEADLOCK));
	assert_int_equal(r.cex_preemptions, 1);
	assert_true(r.cex_shortest);
	struct vfs_world *w = vfs_world_dup(h->w);
	assert_non_null(w);
	assert_int_equal(vfs_explore_replay(w, r.cex_schedule, r.cex_len, NULL), r.cex_len);
	assert_true(vfs_explore_kinds_of(h->w, w) & DK_BIT(DK_DEADLOCK));
	vfs_world_free(w);
	vfs_explore_result_free(&r);
	h_free(h);
}

/* bound 0 from H's world in one worker: runs of at most DEPTH steps
 * (0: the default) ending there when END, stopped at a violation when
 * STOP */
static void bound0(struct h *h, int depth, int end, int stop,
		   struct vfs_explore_result *r)
{
	struct vfs_explore_opts o;
	vfs_explore_opts_init(&o);
	o.jobs = 1;
	o.bound = 0;
	o.max_depth = depth;
	o.end_at_depth = end;
	o.stop_at_violation = stop;
	assert_int_equal(vfs_explore(h->w, &o, r), 0);
}

/* opts.end_at_depth (the check of fewest steps, explore_shortest.c):
 * a run reaching max_depth ends there as an execution, its kinds those
 * of its steps so far, not a cut; without it the search is cut "too
 * deep".  v6.4's race of no preemption shows in the prefix of the
 * first execution's steps to it. */
static void test_end_at_depth(void **state)
{
	(void)state;
	struct h *h = thieves("v6.4", 1, 30);
	struct vfs_explore_result r;
	bound0(h, 0, 0, 1, &r);
	assert_true(r.have_cex);
	int vstep;
	vfs_explore_preemptions(h->w, r.cex_schedule, r.cex_len, r.violations, &vstep);
	assert_true(vstep > 1 && vstep < r.cex_len);
	vfs_explore_result_free(&r);
	for (int end = 0; end <= 1; end++)
		for (int d = vstep - 1; d <= vstep; d++) {
			bound0(h, d, end, 0, &r);
			if (end) {
				assert_true(r.complete || r.cut == XCUT_BOUND);
				assert_true(r.executions >= 1);
				/* (the first execution's prefix: the race at vstep) */
				if (d == vstep)
					assert_true(r.violating > 0);
			} else {
				assert_int_equal(r.cut, XCUT_DEPTH);
				assert_int_equal(r.executions, 0);
			}
			vfs_explore_result_free(&r);
		}
	h_free(h);
}

static volatile sig_atomic_t stop_now;

static void test_stop(void **state)
{
	(void)state;
	struct h *h = thieves("v6.4", 3, 2);
	struct vfs_explore_result r;
	stop_now = 1;
	explore_jobs2(h->w, 0, &stop_now, &r);
	assert_false(r.complete);
	assert_int_equal(r.cut, XCUT_STOP);
	vfs_explore_result_free(&r);
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found_v56),
		cmocka_unit_test(test_found_v64),
		cmocka_unit_test(test_proven_20ea),
		cmocka_unit_test(test_proven_7979),
		cmocka_unit_test(test_proven_v65),
		cmocka_unit_test(test_proven_mainline),
		cmocka_unit_test(test_jobs),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_kept),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_skipped_found),
		cmocka_unit_test(test_first_v56),
		cmocka_unit_test(test_first_v64),
		cmocka_unit_test(test_fewest_bounded),
		cmocka_unit_test(test_probe_counts),
		cmocka_unit_test(test_probe_delay),
		cmocka_unit_test(test_end_at_depth),
		cmocka_unit_test(test_first_20ea),
		cmocka_unit_test(test_first_7979),
		cmocka_unit_test(test_first_v65),
		cmocka_unit_test(test_first_mainline),
		cmocka_unit_test(test_beside_small_proof),
		cmocka_unit_test(test_first_default_jobs),
		cmocka_unit_test(test_shortest_kept),
		cmocka_unit_test(test_max_bounds),
		cmocka_unit_test(test_max_one_budget),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
