/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_state_hash.c - the stateful search's hash of a state by components
 * (core/explore_state.c, xs_state_hash): a successor's hash made from its
 * parent's, keeping the hashes of the components whose bytes did not
 * change, must be the hash made from nothing, along random walks of
 * scenarios that change every kind of component (threads, files, fd
 * tables, processes, inode locks, passes, the tree, threads made and
 * gone); and a change in one component (a declared field's value too)
 * must change the hash.  The threads a successor hashes again are the
 * one that ran and those its steps touched (w->touched, thread_touch),
 * the files and fd tables those its steps touched (w->touched_files,
 * w->touched_fdts: file_touch, fdt_touch), its processes, inode locks
 * and passes only when a step touched them (w->touched_objs,
 * objs_touch): every other one must be the parent's, at each successor
 * of the walks and of full stateful searches (xs_check_touched counts
 * those that are not); and a successor made its parent again by copying
 * back only what its marks name (xs_fcopy_back) must hash as its parent.
 */
#include "harness.h"
#include "explore.h"
#include "explore_stateful.h"
#include "explore_shortest.h"

/* A owns /d (fd 3); the thieves each take it with pidfd_getfd and list
 * it (the scenario of the issue); B also seeks it. */
static struct h *thieves(const char *preset)
{
	struct h *h = h_new(preset);
	h_mkdir(h, "/d");
	for (int i = 1; i <= 6; i++) {
		char path[16];
		snprintf(path, sizeof path, "/d/f%d", i);
		h_touch(h, path);
	}
	int A = h_spawn(h, "A", 1000);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY | VO_DIRECTORY)), 3);
	int B = h_spawn(h, "B", 1000), C = h_spawn(h, "C", 1000);
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
	assert_int_equal(h_do(h, C, C_PIDFD_OPEN(h_pid(h, A))), 3);
	h_submit(h, A, C_GETDENTS(3, 2));
	h_submit(h, A, C_GETDENTS(3, 2));
	h_submit(h, B, C_PIDFD_GETFD(3, 3));
	h_submit(h, B, C_LSEEK(4, 0, 0));
	h_submit(h, B, C_GETDENTS(4, 2));
	h_submit(h, C, C_PIDFD_GETFD(3, 3));
	h_submit(h, C, C_GETDENTS(4, 2));
	h_submit(h, C, C_CLOSE(4));
	return h;
}

/* The tree changes, descriptors come and go, a thread is made and one
 * exits, a file is written. */
static struct h *tree_ops(void)
{
	struct h *h = h_new("mainline");
	h_mkdir(h, "/a");
	h_mkdir(h, "/b");
	h_touch(h, "/a/x");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/a", VO_RDONLY | VO_DIRECTORY)), 3);
	h_submit(h, A, C_MKDIR("/a/n"));
	h_submit(h, A, C_GETDENTS(3, 2));
	h_submit(h, A, C_RENAME("/a/x", "/b/y"));
	h_submit(h, A, C_DUP(3));
	h_submit(h, A, C_CLONE());
	h_submit(h, B, C_CREAT("/b/z"));
	h_submit(h, B, C_WRITE(3, "hello"));
	h_submit(h, B, C_UNLINK("/b/z"));
	h_submit(h, B, C_RMDIR("/a/n"));
	h_submit(h, B, C_FORK("kid"));
	h_submit(h, B, C_EXIT());
	return h;
}

/* Descriptors come and go in a table two threads share (clone) and in
 * copies of it (fork): dup, dup2 over an open descriptor, close, open, a
 * pidfd's stolen descriptor closed, an exit that drops the table's last
 * reference. */
static struct h *fd_ops(void)
{
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	h_touch(h, "/d/a");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY | VO_DIRECTORY)), 3);
	assert_true(h_do(h, A, C_CLONE()) > 0);
	int A2 = h->w->nthreads - 1;
	int B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
	h_submit(h, A, C_DUP2(3, 5));
	h_submit(h, A, C_CLOSE(5));
	h_submit(h, A, C_FORK("kid"));
	h_submit(h, A, C_LSEEK(3, 1, 0));
	h_submit(h, A2, C_DUP(3));
	h_submit(h, A2, C_OPEN("/d/a", VO_RDONLY));
	h_submit(h, A2, C_CLOSE(3));
	h_submit(h, A2, C_EXIT());
	h_submit(h, B, C_PIDFD_GETFD(3, 3));
	h_submit(h, B, C_GETDENTS(4, 1));
	h_submit(h, B, C_CLOSE(4));
	h_submit(h, B, C_EXIT());
	return h;
}

/* A defined system call bumps a declared field of the file under its
 * f_pos_lock, in three threads sharing the descriptor: they queue on the
 * lock, and each is handed it by another's unlock. */
static struct h *defined_bumpers(void)
{
	struct h *h = h_new("v6.5");
	char err[256];
	int bad, a = h_spawn(h, "A", 0);
	h_mkdir(h, "/d");
	int slot = vfs_ufield_declare(h->w, "fa", KO_FILE, 0, err, sizeof err);
	assert_true(slot >= 0);
	uint8_t fa = vfs_ufield_get(h->w, slot)->fld;
	const struct vfs_kstep body[] = {
		{ .op = KS_FDGET, .a = { KV_PARAM, 0 }, .sub = -1 },
		{ .op = KS_LOCK, .lock = KL_F_POS_LOCK, .obj = KO_FILE, .sub = -1,
		  .mode = M_EXCL },
		{ .op = KS_READ, .field = fa, .obj = KO_FILE, .sub = -1 },
		{ .op = KS_WRITE, .field = fa, .obj = KO_FILE, .sub = -1,
		  .a = { KV_FIELD, fa }, .arith = '+', .b = { KV_CONST, 1 } },
		{ .op = KS_UNLOCK, .lock = KL_F_POS_LOCK, .obj = KO_FILE, .sub = -1 },
		{ .op = KS_FDPUT, .sub = -1 },
		{ .op = KS_RETURN, .a = { KV_FIELD, fa }, .sub = -1 },
	};
	struct vfs_kfn f;
	memset(&f, 0, sizeof f);
	strcpy(f.name, "bump");
	f.syscall = true;
	f.nparams = 1;
	strcpy(f.params[0], "FD");
	f.nsteps = 7;
	memcpy(f.step, body, sizeof body);
	int k = vfs_kfn_define(h->w, &f, &bad, err, sizeof err);
	assert_true(k >= 0);
	assert_int_equal(h_do(h, a, C_OPEN("/d", VO_DIRECTORY)), 3);
	h_do(h, a, C_CLONE());
	h_do(h, a, C_CLONE());
	for (int t = 0; t < h->w->nthreads; t++)
		for (int i = 0; i < 2; i++) {
			struct hcall c = h_c(SYS_DEFINED, 3, 0, 0, NULL, NULL);
			c.c.def = (uint8_t)k;
			h_submit(h, t, c);
		}
	return h;
}

struct hashed {
	struct xhash x;
	uint64_t h, tree;
};

/* Two worlds (a state and its successor), a buffer, three hashes. */
struct bench {
	struct vfs_world *w, *k;
	struct sbuf b;
	struct hashed hw, hk, hf;
};

static void bench_init(struct bench *c, const struct vfs_world *snap)
{
	memset(c, 0, sizeof *c);
	c->w = xs_wnew();
	c->k = xs_wnew();
	assert_true(c->w && c->k);
	c->b.cap = xs_canon_bound(snap, true) * 4 + 4096;
	assert_non_null(c->b.p = malloc(c->b.cap));
}

static void bench_free(struct bench *c)
{
	free(c->hw.x.h);
	free(c->hk.x.h);
	free(c->hf.x.h);
	free(c->b.p);
	vfs_world_free(c->w);
	vfs_world_free(c->k);
}

/* (TOUCHED: what is compared or hashed again, the rest taken as PW's) */
static uint64_t hash_of(struct sbuf *b, struct hashed *o, const struct vfs_world *w,
			uint32_t fixed, const struct vfs_world *pw,
			const struct hashed *p, struct xtouch touched)
{
	assert_int_equal(xs_hash_reserve(&o->x, w), 0);
	o->tree = xs_tree_hash(b, w);
	o->h = xs_state_hash(b, &o->x, w, o->tree, fixed, NULL, pw,
			     p ? &p->x : NULL, touched);
	return o->h;
}

/* B's objects are numbered otherwise than A's: a thread, process, file,
 * file table or inode made or freed (what w->allocs counts). */
static bool allocated(const struct vfs_world *a, const struct vfs_world *b)
{
	return a->nthreads != b->nthreads || a->nprocs != b->nprocs ||
	       a->next_pid != b->next_pid || a->next_file_id != b->next_file_id ||
	       a->nfdt != b->nfdt || a->next_ino != b->next_ino ||
	       a->nfree_inodes != b->nfree_inodes;
}

/* C->k: C->w's successor by thread T, hashed from C->w's components and
 * from nothing, alike: every thread hashed again, and only the one that
 * ran and those its step touched (each other thread checked to be its
 * parent's). */
static uint64_t successor(struct bench *c, int t, uint32_t fixed)
{
	xs_fcopy(c->k, c->w, fixed, false);
	xs_touch_clear(c->k);
	vfs_step(c->k, t, NULL);
	/* (the stateful search's mark of a visible step) */
	assert_int_equal(allocated(c->w, c->k), c->k->allocs != c->w->allocs);
	uint64_t inc = hash_of(&c->b, &c->hk, c->k, fixed, c->w, &c->hw, XTOUCH_ALL);
	uint64_t full = hash_of(&c->b, &c->hf, c->k, fixed, NULL, NULL, XTOUCH_ALL);
	assert_int_equal(inc, full);
	unsigned long miss = xs_touched_misses;
	xs_check_touched = true;
	uint64_t mask = hash_of(&c->b, &c->hk, c->k, fixed, c->w, &c->hw,
				xs_touched(c->k, t));
	xs_check_touched = false;
	if (xs_touched_misses != miss) {
		struct xtouch m = xs_touched(c->k, t);
		fail_msg("thread %d's step wrote a thread, a process, an inode "
			 "lock, a file, an fd table or a pass it did not mark "
			 "(threads %#x files %#x fd tables %#x objects %#x)", t,
			 m.threads, m.files, m.fdts, m.objs);
	}
	assert_int_equal(mask, full);
	assert_int_equal(c->hk.x.n, c->hf.x.n);
	assert_memory_equal(c->hk.x.h, c->hf.x.h, sizeof *c->hk.x.h * (size_t)c->hk.x.n);
	return inc;
}

/* A copied back to B (xs_fcopy_back, xs_fcopy): every thread's frame and
 * what follows it to its call record, as bytes (the copy leaves out the
 * defined functions' part of the frame when the search has none: zero
 * then in every world; the hash leaves it out too when none runs). */
static void frames_copied(const struct vfs_world *a, const struct vfs_world *b)
{
	assert_int_equal(a->nthreads, b->nthreads);
	for (int i = 0; i < a->nthreads; i++)
		assert_memory_equal(&a->threads[i].f, &b->threads[i].f,
				    offsetof(struct vfs_thread, rec) -
				    offsetof(struct vfs_thread, f));
}

/* Random walks from H's world: at each state, every runnable thread's
 * step hashed from the state's components and from nothing. */
static void walk(struct h *h, uint32_t fixed, uint64_t seed)
{
	struct bench c;
	bench_init(&c, h->w);
	uint64_t rng = seed;
	int steps = 0;
	for (int run = 0; run < 20; run++) {
		assert_true(vfs_world_copy(c.w, h->w));
		c.w->det.no_clocks = 1;
		assert_true(vfs_world_copy(c.k, c.w));
		hash_of(&c.b, &c.hw, c.w, fixed, NULL, NULL, XTOUCH_ALL);
		for (int d = 0; d < 400; d++) {
			int run_t[XMAXT], n = 0;
			for (int t = 0; t < c.w->nthreads; t++) {
				if (!vfs_runnable(c.w, t))
					continue;
				run_t[n++] = t;
				/* (a step never leads back to its state) */
				assert_int_not_equal(successor(&c, t, fixed), c.hw.h);
				/* the successor made its parent again by
				 * copying back only the threads it touched */
				xs_fcopy_back(c.k, c.w, fixed, false,
					      c.k->touched | 1u << t);
				if (hash_of(&c.b, &c.hf, c.k, fixed, NULL, NULL,
					    XTOUCH_ALL) != c.hw.h)
					fail_msg("thread %d's step: not undone", t);
				frames_copied(c.k, c.w);
			}
			if (!n)
				break;
			int t = run_t[xorshift64(&rng) % (uint64_t)n];
			successor(&c, t, fixed);
			struct vfs_world *x = c.w;
			c.w = c.k;
			c.k = x;
			struct hashed y = c.hw;
			c.hw = c.hk;
			c.hk = y;
			/* the parent made the successor by copying forward
			 * only what the step marked (the search's next work
			 * buffer, dfs), or all when it made an object */
			xs_fcopy_back(c.k, c.w, fixed, false,
				      xs_fcopy_fwd(c.k, c.w, t));
			if (hash_of(&c.b, &c.hf, c.k, fixed, NULL, NULL,
				    XTOUCH_ALL) != c.hw.h)
				fail_msg("thread %d's step: not copied forward", t);
			frames_copied(c.k, c.w);
			steps++;
		}
	}
	assert_true(steps > 100);
	bench_free(&c);
}

static uint32_t fixed_of(const struct vfs_world *w)
{
	uint32_t f = 0;
	for (int i = 0; i < w->nthreads; i++)
		if (w->threads[i].state != TS_FREE)
			f |= 1u << i;
	return f;
}

static void test_thieves(void **state)
{
	(void)state;
	const char *presets[] = { "v6.4", "v6.5", "v5.6" };
	for (int p = 0; p < 3; p++) {
		struct h *h = thieves(presets[p]);
		walk(h, 0, 0x9e3779b97f4a7c15ull + (uint64_t)p);
		walk(h, fixed_of(h->w), 0x853c49e6748fea9bull + (uint64_t)p);
		h_free(h);
	}
}

/* H's walks, with no queue fixed (seed S0) and all (S1); H freed. */
static void walks(struct h *h, uint64_t s0, uint64_t s1)
{
	walk(h, 0, s0);
	walk(h, fixed_of(h->w), s1);
	h_free(h);
}

static void test_tree_ops(void **state)
{
	(void)state;
	walks(tree_ops(), 7, 11);
}

static void test_defined(void **state)
{
	(void)state;
	walks(defined_bumpers(), 13, 17);
}

static void test_fd_ops(void **state)
{
	(void)state;
	walks(fd_ops(), 19, 23);
}

/* Full stateful searches: at every successor, each thread outside the
 * touched mask is its parent's; and the search that copies back only
 * the touched threads (xs_fcopy_back) finds the graph of the one that
 * copies them all. */
static void search_checked(const struct vfs_world *w, uint64_t min_states)
{
	struct vfs_explore_opts o;
	struct vfs_explore_result r, q;
	vfs_explore_opts_init(&o);
	o.stateful = 1;
	o.jobs = 1;
	xs_touched_misses = 0;
	xs_check_touched = true;
	assert_int_equal(vfs_explore(w, &o, &r), 0);
	xs_check_touched = false;
	assert_true(r.complete);
	assert_true(r.states >= min_states);
	if (xs_touched_misses)
		fail_msg("%lu threads, processes, inode locks, files, fd tables "
			 "or passes written but not marked touched",
			 xs_touched_misses);
	assert_int_equal(vfs_explore(w, &o, &q), 0);
	assert_int_equal(q.states, r.states);
	assert_int_equal(q.transitions, r.transitions);
	assert_int_equal(q.matched, r.matched);
	assert_int_equal(q.violating, r.violating);
	vfs_explore_result_free(&r);
	vfs_explore_result_free(&q);
}

/* The shortest counterexample's search hashes a child from its parent's
 * components too, with the child's touched mask: each thread, process
 * and inode lock outside it is its parent's (it fails when the search
 * hands the thread that ran where the mask belongs). */
static void shortest_checked(const struct vfs_world *w)
{
	struct sknobs kn = { .maxpre = -1, .limit = 20000 };
	uint8_t *sch = NULL;
	int len = 0, pre = 0, steps = 0;
	uint32_t kinds = 0;
	uint64_t seen = 0;
	xs_touched_misses = 0;
	xs_check_touched = true;
	int rc = xs_shortest(w, 0, &kn, &sch, &len, &pre, &steps, &kinds, &seen);
	xs_check_touched = false;
	assert_true(rc >= 0);
	assert_true(seen > 100);
	free(sch);
	if (xs_touched_misses)
		fail_msg("the shortest search took %lu threads, processes or "
			 "inode locks as their parent's that were not",
			 xs_touched_misses);
}

static void test_searches(void **state)
{
	(void)state;
	const char *presets[] = { "v6.4", "v6.5", "v5.6" };
	for (int p = 0; p < 3; p++) {
		struct h *h = thieves(presets[p]);
		search_checked(h->w, 100);
		shortest_checked(h->w);
		h_free(h);
	}
	struct h *h = tree_ops();
	search_checked(h->w, 100);
	h_free(h);
	h = defined_bumpers();
	search_checked(h->w, 50);
	h_free(h);
	h = fd_ops();
	search_checked(h->w, 100);
	h_free(h);
}

/* A thread's last getdents entries pin their inodes (inode_evict_unused):
 * a successor made its parent again (xs_fcopy_back, no outcomes) must
 * hold the parent's entries, not a sibling's (the search read stale and
 * uninitialised ones, valgrind on unlink beside getdents). */
static void test_entries_copied(void **state)
{
	(void)state;
	struct h *h = thieves("v6.5");
	for (int i = 0; i < 200 && h->w->threads[0].rec.nent < 2; i++)
		vfs_step(h->w, 0, NULL);
	int32_t ne = h->w->threads[0].rec.nent;
	assert_true(ne >= 2);
	struct bench c;
	bench_init(&c, h->w);
	assert_true(vfs_world_copy(c.w, h->w) && vfs_world_copy(c.k, c.w));
	xs_touch_clear(c.k);
	/* a sibling's step: other entries in the same slots */
	for (int e = 0; e < ne; e++)
		c.k->rec_ent[0].v[e] = 1000 + e;
	thread_touch(c.k, 0);
	xs_fcopy_back(c.k, c.w, 0, false, 1u << 0);
	assert_int_equal(c.k->threads[0].rec.nent, ne);
	for (int e = 0; e < ne; e++)
		assert_int_equal(c.k->rec_ent[0].v[e], c.w->rec_ent[0].v[e]);
	bench_free(&c);
	h_free(h);
}

/* One byte of one component changed: the hash made from the parent's
 * components sees it (and is the hash made from nothing). */
static void test_one_change(void **state)
{
	(void)state;
	struct h *h = thieves("v6.5");
	/* two declared fields, a file's and an inode's (their values are
	 * rows of the world's own tables, out of the objects) */
	char err[128];
	int sf = vfs_ufield_declare(h->w, "fa", KO_FILE, 0, err, sizeof err);
	int si = vfs_ufield_declare(h->w, "ia", KO_INODE, 0, err, sizeof err);
	assert_true(sf >= 0 && si >= 0);
	/* B's call under way, as in a defined function: its frame and its
	 * values of the declared fields count */
	vfs_step(h->w, 1, NULL);
	h->w->threads[1].f.kfn.kdepth = 1;
	struct bench c;
	bench_init(&c, h->w);
	assert_true(vfs_world_copy(c.w, h->w) && vfs_world_copy(c.k, c.w));
	hash_of(&c.b, &c.hw, c.w, 0, NULL, NULL, XTOUCH_ALL);
	for (int what = 0; what < 8; what++) {
		xs_fcopy(c.k, c.w, 0, false);
		assert_int_equal(hash_of(&c.b, &c.hk, c.k, 0, c.w, &c.hw, XTOUCH_ALL), c.hw.h);
		switch (what) {
		case 0: c.k->files[0].f_pos += 1; break;
		case 1: c.k->threads[1].tnum += 1; break;
		case 2: c.k->procs[0].uid += 1; break;
		case 3: c.k->fdt[1].fd[0] ^= 1; break;
		case 4: c.k->ilocks[0].owner = 1; break;
		case 5: ufield_set(c.k, sf, 0, 7); break;
		case 6: ufield_set(c.k, si, 1, 9); break;
		case 7: ufield_kval_set(c.k, 1, sf, 5); break;
		}
		uint64_t inc = hash_of(&c.b, &c.hk, c.k, 0, c.w, &c.hw, XTOUCH_ALL);
		if (inc == c.hw.h)
			fail_msg("change %d not seen", what);
		assert_int_equal(inc, hash_of(&c.b, &c.hf, c.k, 0, NULL, NULL, XTOUCH_ALL));
	}
	bench_free(&c);
	h_free(h);
}

/* One change in one component, with that component's touch mark only
 * (a thread's bit, a file's, an fd table's, TOUCH_PROCS, TOUCH_ILOCKS,
 * TOUCH_PASSES), the last slot of each table: the hash made from the
 * parent's components hashes it again (a touched component taken as its
 * parent's fails here) and is the hash made from nothing; with no mark
 * it is the parent's (the marks are all it trusts, so the first check is
 * the one that fails). */
static void test_one_touched(void **state)
{
	(void)state;
	struct h *h = thieves("v6.5");
	/* A in its getdents: a pass of the open directory */
	for (int i = 0; i < 200 && !h->w->det.npasses; i++)
		vfs_step(h->w, 0, NULL);
	assert_true(h->w->det.npasses > 0);
	struct bench c;
	bench_init(&c, h->w);
	assert_true(vfs_world_copy(c.w, h->w) && vfs_world_copy(c.k, c.w));
	hash_of(&c.b, &c.hw, c.w, 0, NULL, NULL, XTOUCH_ALL);
	const struct xtouch none = { 0, 0, 0, 0 };
	for (int what = 0; what < 6; what++) {
		xs_fcopy(c.k, c.w, 0, false);
		assert_int_equal(hash_of(&c.b, &c.hk, c.k, 0, c.w, &c.hw, none), c.hw.h);
		struct vfs_world *k = c.k;
		struct xtouch m = none;
		int t = k->nthreads - 1, f = k->nfiles - 1, d = k->nfdt - 1;
		struct vfs_fdtable *fdt = &k->fdt[d];
		struct vfs_pass *p = &k->det.passes[k->det.npasses - 1];
		switch (what) {
		case 0: k->threads[t].tnum += 1; m.threads = 1u << t; break;
		case 1: k->files[f].f_pos += 1; m.files = touch_bit(f); break;
		case 2:
			assert_true(fdt->nfds > 0);
			fdt->fd[fdt->nfds - 1] ^= 1;
			m.fdts = touch_bit(d);
			break;
		case 3: k->procs[k->nprocs - 1].uid += 1; m.objs = TOUCH_PROCS; break;
		case 4: k->ilocks[k->ninodes - 1].owner = 1; m.objs = TOUCH_ILOCKS; break;
		case 5:
			if (!p->hi)
				p->hi = 1;
			p->by[0] = p->by[0] > 0 ? -1 : 1;
			m.objs = TOUCH_PASSES;
			break;
		}
		uint64_t inc = hash_of(&c.b, &c.hk, c.k, 0, c.w, &c.hw, m);
		if (inc == c.hw.h)
			fail_msg("change %d, touched, not hashed again", what);
		assert_int_equal(inc, hash_of(&c.b, &c.hf, c.k, 0, NULL, NULL, XTOUCH_ALL));
		assert_int_equal(hash_of(&c.b, &c.hk, c.k, 0, c.w, &c.hw, none), c.hw.h);
	}
	bench_free(&c);
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thieves),
		cmocka_unit_test(test_tree_ops),
		cmocka_unit_test(test_defined),
		cmocka_unit_test(test_fd_ops),
		cmocka_unit_test(test_searches),
		cmocka_unit_test(test_one_change),
		cmocka_unit_test(test_one_touched),
		cmocka_unit_test(test_entries_copied),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
