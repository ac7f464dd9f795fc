/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness_explore.h - what the explorers' unit tests share
 * (test_explore.c, test_explore_agree.c): the pidfd_getfd thieves, a DPOR
 * or stateful search with the options they vary, and the cap of a capped
 * search on a kernel with the bug.
 */
#ifndef VFSIM_TEST_HARNESS_EXPLORE_H
#define VFSIM_TEST_HARNESS_EXPLORE_H

#include "harness.h"
#include "explore.h"

/* A owns /d (fd 3); each thief has a pidfd on A (fd 3), then pending:
 * A: getdents 3 2; thief: pidfd_getfd 3 3, getdents 4 2. */
static inline struct h *thieves(const char *preset, int n, int files)
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

static inline void explore(const struct vfs_world *w, int jobs, int naive,
		    uint64_t max, struct vfs_explore_result *r)
{
	struct vfs_explore_opts o;
	vfs_explore_opts_init(&o);
	o.jobs = jobs;
	o.naive = naive;
	o.max = max;
	assert_int_equal(vfs_explore(w, &o, r), 0);
}

/* The cap of the capped search with three thieves on a kernel with the
 * bug: v6.4's half a million executions have duplicates from the first
 * 20000 on (the first 3000 only races).  Where pidfd_getfd's exec lock is
 * a mutex (v5.6: cred_guard_mutex) the thieves' checks are serialised and
 * DPOR first runs the orders of their critical sections (with the
 * blocked-then-woken variants of each): some 10 million executions, the
 * first duplicate past execution 37,000. */
static inline uint64_t found_cap(const char *preset)
{
	const struct vfs_preset *p = vfs_preset_lookup(preset);
	assert_non_null(p);
	return vfs_exec_locks[p->k.exec_lock].kind == LK_MUTEX ? 50000 : 20000;
}

/* the stateful search (opts.stateful) */
static inline void stateful_opts(struct vfs_explore_opts *o, int jobs)
{
	vfs_explore_opts_init(o);
	o->jobs = jobs;
	o->stateful = 1;
}

static inline void explore_state(const struct vfs_world *w, int jobs,
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

#endif
