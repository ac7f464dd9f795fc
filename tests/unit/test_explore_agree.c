/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_explore_agree.c - the explorers agree (core/explore.h): on small
 * scenarios naive enumeration and DPOR find the same set of outcomes, DPOR
 * with fewer executions; the stateful search (reduced by its blocks, and
 * step by step) gives DPOR's verdicts on the pidfd_getfd thieves under
 * every preset and on the small scenarios, the same with jobs 1 and 2;
 * explore all gives DPOR's outcomes.  The searches' own bounds, tokens
 * and counterexamples: test_explore.c.
 */
#include "harness_explore.h"

/* ---- naive and reduced agree ---- */

/* v6.4: A's /f (fd 3) holds DATA, its offset back at 0; B has stolen it
 * with pidfd_getfd (B's fd 4). */
static struct h *stolen_file(const char *data, int *A, int *B)
{
	struct h *h = h_new("v6.4");
	h_touch(h, "/f");
	*A = h_spawn(h, "A", 0);
	*B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, *A, C_OPEN("/f", VO_RDWR)), 3);
	assert_int_equal(h_do(h, *A, C_WRITE(3, data)), (int64_t)strlen(data));
	assert_int_equal(h_do(h, *A, C_LSEEK(3, 0, VSEEK_SET)), 0);
	assert_int_equal(h_do(h, *B, C_PIDFD_OPEN(h_pid(h, *A))), 3);
	assert_int_equal(h_do(h, *B, C_PIDFD_GETFD(3, 3)), 4);
	return h;
}

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
		h = stolen_file("xyz", &A, &B);
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
		h = stolen_file("ab", &A, &B);
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
		assert_true(a.transitions <= b.transitions);    /* (sleep sets: one worker) */
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
		assert_true(a.transitions <= b.transitions);    /* (sleep sets: one worker) */
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

static void test_stateful_v56(void **state) { (void)state; stateful_agrees("v5.6"); }
static void test_stateful_v64(void **state) { (void)state; stateful_agrees("v6.4"); }
static void test_stateful_20ea(void **state) { (void)state; stateful_agrees("20ea1e7d13c1"); }
static void test_stateful_7979(void **state) { (void)state; stateful_agrees("797964253d35"); }
static void test_stateful_v65(void **state) { (void)state; stateful_agrees("v6.5"); }
static void test_stateful_mainline(void **state) { (void)state; stateful_agrees("mainline"); }

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_naive_agrees),
		cmocka_unit_test(test_stateful_v56),
		cmocka_unit_test(test_stateful_v64),
		cmocka_unit_test(test_stateful_20ea),
		cmocka_unit_test(test_stateful_7979),
		cmocka_unit_test(test_stateful_v65),
		cmocka_unit_test(test_stateful_mainline),
		cmocka_unit_test(test_stateful_blocks_agree),
		cmocka_unit_test(test_all_outcomes),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
