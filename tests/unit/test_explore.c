/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_explore.c - the exploration engine (core/explore.h).
 *
 *  - the pidfd_getfd race: found under v5.6 and v6.4, proven absent
 *    (exhaustively, no bound) under 20ea1e7d13c1, 797964253d35, v6.5 and
 *    mainline, with one, two and three thieves; each counterexample
 *    replays to the same violation;
 *  - naive enumeration and the reduced search find the same set of
 *    outcomes on small scenarios, the reduced one with fewer executions;
 *  - the same results with jobs 1 and jobs 2; max, bound and stop.
 */
#include <signal.h>
#include "harness.h"
#include "explore.h"
#include "explore_stateful.h"   /* xs_shortest: the states it keeps */

/* A owns /d (fd 3); each thief has a pidfd on A (fd 3), then pending:
 * A: getdents 3 2; thief: pidfd_getfd 3 3, getdents 4 2. */
static struct h *thieves(const char *preset, int n, int files)
{
	struct h *h = h_new(preset);
	char path[32];
	h_mkdir(h, "/d");
	for (int i = 1; i <= files; i++) {
		snprintf(path, sizeof path, "/d/f%d", i);
		h_touch(h, path);
	}
	int A = h_spawn(h, "A", 1000);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY | VO_DIRECTORY)), 3);
	int t[4];
	for (int i = 0; i < n; i++) {
		char name[2] = { (char)('B' + i), 0 };
		t[i] = h_spawn(h, name, 1000);
		assert_int_equal(h_do(h, t[i], C_PIDFD_OPEN(h_pid(h, A))), 3);
	}
	h_submit(h, A, C_GETDENTS(3, 2));
	for (int i = 0; i < n; i++) {
		h_submit(h, t[i], C_PIDFD_GETFD(3, 3));
		h_submit(h, t[i], C_GETDENTS(4, 2));
	}
	return h;
}

static void explore(const struct vfs_world *w, int jobs, int naive,
		    uint64_t max, struct vfs_explore_result *r)
{
	struct vfs_explore_opts o;
	vfs_explore_opts_init(&o);
	o.jobs = jobs;
	o.naive = naive;
	o.max = max;
	assert_int_equal(vfs_explore(w, &o, r), 0);
}

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

/* The cap of the capped search with three thieves on a kernel with the
 * bug: v6.4's half a million executions have duplicates from the first
 * 20000 on (the first 3000 only races).  Where pidfd_getfd's exec lock is
 * a mutex (v5.6: cred_guard_mutex) the thieves' checks are serialised and
 * DPOR first runs the orders of their critical sections (with the
 * blocked-then-woken variants of each): some 10 million executions, the
 * first duplicate past execution 37,000. */
static uint64_t found_cap(const char *preset)
{
	const struct vfs_preset *p = vfs_preset_lookup(preset);
	assert_non_null(p);
	return vfs_exec_locks[p->k.exec_lock].kind == LK_MUTEX ? 50000 : 20000;
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

/* ---- naive and reduced agree ---- */

/* Small scenarios: few steps, so that naive enumeration stays small. */
static struct h *scenario(int i)
{
	struct h *h;
	int A, B;
	switch (i) {
	case 0: /* v3.13: getdents and lseek on one shared file, no f_pos lock */
		h = h_new("v3.13");
		h_mkdir(h, "/d");
		h_touch(h, "/d/a");
		A = h_spawn(h, "A", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
		assert_int_equal(h_do(h, A, C_CLONE()) > 0, 1);
		B = h_tid(h, "A.2");
		h_submit(h, A, C_GETDENTS(3, 1));
		h_submit(h, B, C_LSEEK(3, 0, VSEEK_SET));
		return h;
	case 1: /* read and lseek on a stolen regular file (v6.4) */
		h = h_new("v6.4");
		h_touch(h, "/f");
		A = h_spawn(h, "A", 0);
		B = h_spawn(h, "B", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDWR)), 3);
		assert_int_equal(h_do(h, A, C_WRITE(3, "xyz")), 3);
		assert_int_equal(h_do(h, A, C_LSEEK(3, 0, VSEEK_SET)), 0);
		assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
		assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 3)), 4);
		h_submit(h, A, C_READ(3, 1));
		h_submit(h, B, C_LSEEK(4, 2, VSEEK_SET));
		return h;
	case 2: /* mkdir against getdents of the parent (v6.5) */
		h = h_new("v6.5");
		h_mkdir(h, "/d");
		A = h_spawn(h, "A", 0);
		B = h_spawn(h, "B", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
		assert_int_equal(h_do(h, A, C_GETDENTS(3, 2)), 2);
		h_submit(h, A, C_GETDENTS(3, 4));
		h_submit(h, B, C_MKDIR("/d/x"));
		return h;
	case 3: /* rmdir against getdents of the victim (v6.5) */
		h = h_new("v6.5");
		h_mkdir(h, "/d/s");
		A = h_spawn(h, "A", 0);
		B = h_spawn(h, "B", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/d/s", VO_RDONLY)), 3);
		h_submit(h, A, C_GETDENTS(3, 4));
		h_submit(h, B, C_RMDIR("/d/s"));
		return h;
	case 4: /* read against write on one stolen file (v6.4) */
		h = h_new("v6.4");
		h_touch(h, "/f");
		A = h_spawn(h, "A", 0);
		B = h_spawn(h, "B", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDWR)), 3);
		assert_int_equal(h_do(h, A, C_WRITE(3, "ab")), 2);
		assert_int_equal(h_do(h, A, C_LSEEK(3, 0, VSEEK_SET)), 0);
		assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
		assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 3)), 4);
		h_submit(h, A, C_READ(3, 2));
		h_submit(h, B, C_WRITE(4, "q"));
		return h;
	case 5: /* mkdir and rmdir of one name (v6.5) */
		h = h_new("v6.5");
		h_mkdir(h, "/d");
		A = h_spawn(h, "A", 0);
		B = h_spawn(h, "B", 0);
		h_submit(h, A, C_MKDIR("/d/x"));
		h_submit(h, B, C_RMDIR("/d/x"));
		return h;
	case 6: /* three threads: lseeks on two files of their own, one mkdir */
		h = h_new("v6.5");
		h_touch(h, "/f");
		A = h_spawn(h, "A", 0);
		B = h_spawn(h, "B", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY)), 3);
		assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
		h_submit(h, A, C_LSEEK(3, 1, VSEEK_SET));
		h_submit(h, B, C_PIDFD_GETFD(3, 3));
		return h;
	default:
		return NULL;
	}
}

static void test_naive_agrees(void **state)
{
	(void)state;
	for (int i = 0; i < 7; i++) {
		struct h *h = scenario(i);
		struct vfs_explore_result n, d;
		explore(h->w, 2, 1, 0, &n);
		explore(h->w, 2, 0, 0, &d);
		if (getenv("TEST_EXPLORE_VERBOSE"))
			fprintf(stderr, "scenario %d: naive %llu executions, "
				"dpor %llu (+%llu redundant), %llu outcomes\n", i,
				(unsigned long long)n.executions,
				(unsigned long long)d.executions,
				(unsigned long long)d.redundant,
				(unsigned long long)n.outcomes);
		assert_true(n.complete);
		assert_true(d.complete);
		assert_int_equal(n.outcomes, d.outcomes);
		assert_true(n.outcome_digest == d.outcome_digest);
		assert_true(d.executions < n.executions);
		/* the same kinds of trouble show up in both */
		for (int k = 0; k < DK__COUNT; k++)
			assert_int_equal(n.kind_execs[k] > 0, d.kind_execs[k] > 0);
		vfs_explore_result_free(&n);
		vfs_explore_result_free(&d);
		h_free(h);
	}
}

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

/* ---- the stateful search (opts.stateful) ---- */

static void stateful_opts(struct vfs_explore_opts *o, int jobs)
{
	vfs_explore_opts_init(o);
	o->jobs = jobs;
	o->stateful = 1;
}

static void explore_state(const struct vfs_world *w, int jobs,
			  struct vfs_explore_result *r)
{
	struct vfs_explore_opts o;
	stateful_opts(&o, jobs);
	o.state_bits = 16;
	assert_int_equal(vfs_explore(w, &o, r), 0);
	assert_true(r->stateful);
	assert_true(r->complete);
	assert_true(r->states > 1);
	assert_true(r->transitions >= r->states - 1);
}

/* The stateful verdicts are DPOR's: for each kind, some violation or
 * none; the counterexample replays to a violation; the same number of
 * states and transitions with jobs 1 and 2.  Found (v5.6, v6.4) and
 * proven (the fixes), one to three thieves; DPOR capped at three
 * thieves for the found kernels, as above (a cap can only miss kinds). */
static void stateful_agrees(const char *preset)
{
	for (int n = 1; n <= 3; n++) {
		struct h *h = thieves(preset, n, 2);
		struct vfs_explore_result d, a, b;
		bool found = !strcmp(preset, "v5.6") || !strcmp(preset, "v6.4");
		explore(h->w, 2, 0, found && n == 3 ? found_cap(preset) : 0, &d);
		explore_state(h->w, 1, &a);
		explore_state(h->w, 2, &b);
		static const int kinds[] = { DK_DUPLICATE, DK_RACE, DK_DEADDIR,
					     DK_DEADLOCK };
		for (int i = 0; i < 4; i++) {
			int k = kinds[i];
			assert_int_equal(a.kind_execs[k] > 0, b.kind_execs[k] > 0);
			if (d.complete || !d.kind_execs[k])
				assert_int_equal(d.kind_execs[k] > 0, a.kind_execs[k] > 0);
			else
				assert_true(a.kind_execs[k] > 0);
		}
		assert_int_equal(found, a.kind_execs[DK_DUPLICATE] > 0);
		assert_int_equal(a.states, b.states);
		assert_int_equal(a.transitions, b.transitions);
		/* the split: every state visited by one worker */
		assert_int_equal(a.worker_states[0], a.states);
		uint64_t split = 0;
		for (int i = 0; i < b.jobs && i < VFS_XWORKERS; i++) {
			split += b.worker_states[i];
			assert_true(b.worker_cpu[i] >= 0);
		}
		assert_int_equal(split, b.states);
		assert_int_equal(a.violating > 0, found);
		assert_int_equal(a.have_cex, found);
		if (found) {
			struct vfs_world *w = calloc(1, sizeof *w);
			const uint8_t *sc;
			assert_non_null(w);
			int len = vfs_explore_schedule(&a, a.cex_index, &sc);
			assert_int_equal(len, a.cex_len);
			vfs_world_copy(w, h->w);
			assert_int_equal(vfs_explore_replay(w, sc, len, NULL), len);
			for (int t = 0; t < w->nthreads; t++)
				assert_false(vfs_runnable(w, t));
			assert_true(vfs_explore_kinds_of(h->w, w) &
				    (DK_BIT(DK_DUPLICATE) | DK_BIT(DK_RACE)));
			vfs_world_free(w);
		}
		vfs_explore_result_free(&d);
		vfs_explore_result_free(&a);
		vfs_explore_result_free(&b);
		h_free(h);
	}
}

/* More small scenarios for the stateful search: the wrapper's variants
 * (deadlock, dead directory), crossing renames, descriptors closed and
 * replaced under a getdents, and the thieves under v6.4 (where the
 * guessed discipline is wrong at first: f_pos without f_pos_lock). */
static struct h *more_scenario(int i)
{
	struct h *h;
	int A, B;
	switch (i) {
	case 0: /* naive-upgrade: two readers wait for each other */
		h = h_new("v6.5");
		h->w->k.wrapper = WRAP_NAIVE_UPGRADE;
		h_mount(h, "exfat", "/x");
		h_mkdir(h, "/x/d");
		h_touch(h, "/x/d/a");
		A = h_spawn(h, "A", 0);
		B = h_spawn(h, "B", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/x/d", VO_RDONLY)), 3);
		assert_int_equal(h_do(h, B, C_OPEN("/x/d", VO_RDONLY)), 3);
		h_submit(h, A, C_GETDENTS(3, 2));
		h_submit(h, B, C_GETDENTS(3, 2));
		return h;
	case 1: /* no-recheck: rmdir while the wrapper dropped the lock */
		h = h_new("v6.5");
		h->w->k.wrapper = WRAP_NO_RECHECK;
		h_mount(h, "exfat", "/x");
		h_mkdir(h, "/x/d");
		A = h_spawn(h, "A", 0);
		B = h_spawn(h, "B", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/x/d", VO_RDONLY)), 3);
		h_submit(h, A, C_GETDENTS(3, 4));
		h_submit(h, B, C_RMDIR("/x/d"));
		return h;
	case 2: /* crossing renames */
		h = h_new("v6.5");
		h_mkdir(h, "/a");
		h_mkdir(h, "/b");
		h_touch(h, "/a/x");
		h_touch(h, "/b/y");
		A = h_spawn(h, "A", 0);
		B = h_spawn(h, "B", 0);
		h_submit(h, A, C_RENAME("/a/x", "/b/x"));
		h_submit(h, B, C_RENAME("/b/y", "/a/y"));
		return h;
	case 3: /* dup2 over the descriptor a getdents uses, then close */
		h = h_new("v6.5");
		h_mkdir(h, "/d");
		h_touch(h, "/d/a");
		h_touch(h, "/f");
		A = h_spawn(h, "A", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
		assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY)), 4);
		assert_int_equal(h_do(h, A, C_CLONE()) > 0, 1);
		B = h_tid(h, "A.2");
		h_submit(h, A, C_GETDENTS(3, 2));
		h_submit(h, A, C_GETDENTS(3, 2));
		h_submit(h, B, C_DUP2(4, 3));
		h_submit(h, B, C_CLOSE(4));
		return h;
	case 4: /* the thieves under v6.4, one call each */
		return thieves("v6.4", 2, 2);
	case 5: /* v3.13: two clones reading one file, one writing */
		h = h_new("v3.13");
		h_touch(h, "/f");
		A = h_spawn(h, "A", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDWR)), 3);
		assert_int_equal(h_do(h, A, C_CLONE()) > 0, 1);
		B = h_tid(h, "A.2");
		h_submit(h, A, C_WRITE(3, "ab"));
		h_submit(h, B, C_READ(3, 1));
		h_submit(h, B, C_WRITE(3, "c"));
		return h;
	default:
		return NULL;
	}
}

static void explore_state_naive(const struct vfs_world *w,
				struct vfs_explore_result *r)
{
	struct vfs_explore_opts o;
	vfs_explore_opts_init(&o);
	o.jobs = 1;
	o.stateful = 1;
	o.naive = 1;
	assert_int_equal(vfs_explore(w, &o, r), 0);
	assert_true(r->complete);
	assert_int_equal(r->rounds, 1);
	assert_int_equal(r->hidden_locs, 0);
}

/* The blocks (core/explore_movers.c) keep every verdict: on every small
 * scenario, the reduced stateful search, the step-by-step one (naive:
 * no discipline) and DPOR find the same kinds of violation; the blocks
 * make no more states than the steps; the guess, when wrong, is put
 * right by a new round; the same counts with jobs 1 and 2. */
static void test_stateful_blocks_agree(void **state)
{
	(void)state;
	int fewer = 0, demoted = 0;
	for (int i = 0; i < 13; i++) {
		struct h *h = i < 7 ? scenario(i) : more_scenario(i - 7);
		assert_non_null(h);
		struct vfs_explore_result d, n, a, b;
		explore(h->w, 2, 0, 0, &d);
		assert_true(d.complete);
		explore_state_naive(h->w, &n);
		explore_state(h->w, 1, &a);
		explore_state(h->w, 2, &b);
		/* a guess from one random run: wrong somewhere, put right */
		struct vfs_explore_result g;
		struct vfs_explore_opts o;
		vfs_explore_opts_init(&o);
		o.jobs = 2;
		o.stateful = 1;
		o.learn_runs = 1;
		assert_int_equal(vfs_explore(h->w, &o, &g), 0);
		assert_true(g.complete);
		assert_int_equal(g.rounds > 1, g.demoted > 0);
		demoted += g.demoted > 0;
		if (getenv("TEST_EXPLORE_VERBOSE"))
			fprintf(stderr, "scenario %d: dpor %llu executions; steps %llu "
				"states; blocks %llu states, %d rounds, %d hidden, "
				"%d visible; one-run guess: %d demoted; kinds %x %x %x\n", i,
				(unsigned long long)d.executions,
				(unsigned long long)n.states,
				(unsigned long long)a.states, a.rounds,
				a.hidden_locs, a.visible_locs, g.demoted,
				(unsigned)vfs_explore_kinds(&d, d.cex_index),
				n.cex_kinds, a.cex_kinds);
		static const int kinds[] = { DK_DUPLICATE, DK_RACE, DK_DEADDIR,
					     DK_DEADLOCK };
		for (int k = 0; k < 4; k++) {
			int x = kinds[k];
			assert_int_equal(d.kind_execs[x] > 0, n.kind_execs[x] > 0);
			assert_int_equal(d.kind_execs[x] > 0, a.kind_execs[x] > 0);
			assert_int_equal(a.kind_execs[x], b.kind_execs[x]);
			assert_int_equal(d.kind_execs[x] > 0, g.kind_execs[x] > 0);
		}
		assert_true(a.states <= n.states);
		fewer += a.states < n.states;
		assert_int_equal(a.states, b.states);
		assert_int_equal(a.transitions, b.transitions);
		assert_int_equal(a.rounds, b.rounds);
		assert_int_equal(a.have_cex, a.violating > 0 &&
				 (a.cex_kinds & VX_DEFAULT_VIOLATIONS) != 0);
		vfs_explore_result_free(&d);
		vfs_explore_result_free(&n);
		vfs_explore_result_free(&a);
		vfs_explore_result_free(&b);
		vfs_explore_result_free(&g);
		h_free(h);
	}
	/* the reduction does something, and the re-rounds are exercised */
	assert_true(fewer >= 8);
	assert_true(demoted >= 1);
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

static void test_stateful_v56(void **state) { (void)state; stateful_agrees("v5.6"); }
static void test_stateful_v64(void **state) { (void)state; stateful_agrees("v6.4"); }
static void test_stateful_20ea(void **state) { (void)state; stateful_agrees("20ea1e7d13c1"); }
static void test_stateful_7979(void **state) { (void)state; stateful_agrees("797964253d35"); }
static void test_stateful_v65(void **state) { (void)state; stateful_agrees("v6.5"); }
static void test_stateful_mainline(void **state) { (void)state; stateful_agrees("mainline"); }

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

/* v5.6 and v6.4 break with one preemption (A preempted between the
 * f_count check and its f_pos, the thief in between), and the schedule
 * replays to the same violation; the fixed kernels are proven. */
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
				assert_true(r.cex_kinds & DK_BIT(DK_DUPLICATE));
				assert_int_equal(vfs_explore_preemptions(h->w, r.cex_schedule,
									 r.cex_len, r.violations,
									 NULL), r.cex_preemptions);
				struct vfs_world *w = vfs_world_dup(h->w);
				assert_non_null(w);
				assert_int_equal(vfs_explore_replay(w, r.cex_schedule, r.cex_len,
								    NULL), r.cex_len);
				assert_int_equal(vfs_explore_kinds_of(h->w, w), r.cex_kinds);
				vfs_world_free(w);
				/* the shortest: no cheaper one in the whole graph */
				uint8_t *sch;
				int len, pre, steps;
				uint32_t kinds;
				uint64_t nodes;
				assert_int_equal(vfs_explore_shortest(h->w, 0, -1, 0, NULL, &sch,
								      &len, &pre, &steps,
								      &kinds, &nodes), 1);
				assert_int_equal(pre, r.cex_preemptions);
				assert_int_equal(steps, r.cex_steps);
				free(sch);
				assert_non_null(r.kind_sched[DK_DUPLICATE]);
			}
			vfs_explore_result_free(&r);
			h_free(h);
		}
}

static void test_first_v56(void **state) { (void)state; first_pidfd("v5.6", true); }
static void test_first_v64(void **state) { (void)state; first_pidfd("v6.4", true); }
static void test_first_20ea(void **state) { (void)state; first_pidfd("20ea1e7d13c1", false); }
static void test_first_7979(void **state) { (void)state; first_pidfd("797964253d35", false); }
static void test_first_v65(void **state) { (void)state; first_pidfd("v6.5", false); }
static void test_first_mainline(void **state) { (void)state; first_pidfd("mainline", false); }

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
			vfs_explore_result_free(&r);
			h_free(h);
		}
}

/* explore all (stateful, the results in the states) and DPOR agree on
 * the set of outcomes over the small scenarios; each outcome kept replays
 * to a terminal state. */
static void test_all_outcomes(void **state)
{
	(void)state;
	for (int i = 0; i < 13; i++) {
		struct h *h = i < 7 ? scenario(i) : more_scenario(i - 7);
		struct vfs_explore_result d, a;
		explore(h->w, 2, 0, 0, &d);
		struct vfs_explore_opts o;
		stateful_opts(&o, 2);
		o.outcomes = 1;
		assert_int_equal(vfs_explore(h->w, &o, &a), 0);
		assert_true(d.complete);
		assert_true(a.complete);
		if (getenv("TEST_EXPLORE_VERBOSE"))
			fprintf(stderr, "scenario %d: dpor %llu outcomes, all %llu\n", i,
				(unsigned long long)d.outcomes, (unsigned long long)a.outcomes);
		assert_int_equal(d.outcomes, a.outcomes);
		assert_true(d.outcome_digest == a.outcome_digest);
		assert_int_equal(a.nout_sched, (int)a.outcomes);
		for (int k = 0; k < a.nout_sched; k++) {
			struct vfs_world *w = vfs_world_dup(h->w);
			assert_non_null(w);
			assert_int_equal(vfs_explore_replay(w, a.out_sched[k], a.out_len[k], NULL),
					 a.out_len[k]);
			for (int t = 0; t < w->nthreads; t++)
				assert_false(vfs_runnable(w, t));
			vfs_world_free(w);
		}
		vfs_explore_result_free(&d);
		vfs_explore_result_free(&a);
		h_free(h);
	}
}

static volatile sig_atomic_t stop_now;

static void test_stop(void **state)
{
	(void)state;
	struct h *h = thieves("v6.4", 3, 2);
	struct vfs_explore_opts o;
	struct vfs_explore_result r;
	vfs_explore_opts_init(&o);
	o.jobs = 2;
	stop_now = 1;
	o.stop = &stop_now;
	assert_int_equal(vfs_explore(h->w, &o, &r), 0);
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
		cmocka_unit_test(test_naive_agrees),
		cmocka_unit_test(test_jobs),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_stateful_v56),
		cmocka_unit_test(test_stateful_v64),
		cmocka_unit_test(test_stateful_20ea),
		cmocka_unit_test(test_stateful_7979),
		cmocka_unit_test(test_stateful_v65),
		cmocka_unit_test(test_stateful_mainline),
		cmocka_unit_test(test_stateful_blocks_agree),
		cmocka_unit_test(test_skipped_found),
		cmocka_unit_test(test_first_v56),
		cmocka_unit_test(test_first_v64),
		cmocka_unit_test(test_first_20ea),
		cmocka_unit_test(test_first_7979),
		cmocka_unit_test(test_first_v65),
		cmocka_unit_test(test_first_mainline),
		cmocka_unit_test(test_shortest_kept),
		cmocka_unit_test(test_max_bounds),
		cmocka_unit_test(test_all_outcomes),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
