/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_detect.c - the deadlock and lock-order detectors (core/deadlock.c,
 * core/lockdep.c), each on the scenario it exists for and on its fixed
 * twin; no false report on a long random run under v6.5; and the cost
 * that 20ea1e7d13c1 added to reads of regular files, in `stats` terms.
 */
#include "harness.h"

static int nkind(struct h *h, int kind)
{
	return vfs_report_count(h->w, kind, FLD_NONE);
}

static const struct vfs_report *find(struct h *h, int kind, int rule, int nlinks)
{
	for (int i = 0; i < h->w->det.nreports; i++) {
		const struct vfs_report *r = &h->w->det.reports[i];
		if (r->kind == kind && (rule < 0 || r->rule == rule) &&
		    (nlinks < 0 || r->nlinks == nlinks))
			return r;
	}
	return NULL;
}


static void detail_has(struct h *h, const struct vfs_report *r, const char *what)
{
	static char buf[8192];
	vfs_report_detail(h->w, r, buf, sizeof buf);
	if (!strstr(buf, what))
		fail_msg("report detail lacks '%s':\n%s", what, buf);
}

/* ---- wrapper naive-upgrade ---- */

static struct h *wrapped_dir(const char *wrapper)
{
	struct h *h = h_new("v6.5");
	h_knob(h, "wrapper", wrapper);
	h_mount(h, "exfat", "/x");
	h_mkdir(h, "/x/d");
	h_touch(h, "/x/d/f");
	return h;
}

static void test_naive_upgrade_self(void **state)
{
	(void)state;
	struct h *h = wrapped_dir("naive-upgrade");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/x/d", VO_RDONLY)), 3);
	assert_true(h_do(h, A, C_GETDENTS(3, -1)) == H_BLOCKED);
	assert_true(vfs_all_blocked(h->w));
	assert_int_equal(nkind(h, DK_DEADLOCK), 1);
	const struct vfs_report *r = find(h, DK_DEADLOCK, -1, 1);
	assert_non_null(r);
	assert_int_equal(r->link[0].tid, A);
	assert_int_equal(r->link[0].held_mode, M_READ);
	assert_int_equal(r->link[0].want_mode, M_WRITE);
	detail_has(h, r, "Possible unsafe locking scenario");
	detail_has(h, r, "*** DEADLOCK ***");
	detail_has(h, r, "cannot be upgraded");
	assert_non_null(find(h, DK_LOCKORDER, LDR_SAME_LOCK, -1));
	/* the cycle is there on demand too */
	struct vfs_report now;
	assert_true(vfs_deadlock_find(h->w, -1, &now));
	h_free(h);
}

static void test_naive_upgrade_two_readers(void **state)
{
	(void)state;
	struct h *h = wrapped_dir("naive-upgrade");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/x/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, B, C_OPEN("/x/d", VO_RDONLY)), 3);
	h_submit(h, A, C_GETDENTS(3, -1));
	h_submit(h, B, C_GETDENTS(3, -1));
	h_until(h, A, VFN_wrap_directory_iterator);
	h_until(h, B, VFN_wrap_directory_iterator);
	assert_true(h_finish(h, A) == H_BLOCKED);
	assert_true(h_finish(h, B) == H_BLOCKED);
	assert_true(vfs_all_blocked(h->w));
	const struct vfs_report *r = find(h, DK_DEADLOCK, -1, 2);
	assert_non_null(r);
	uint32_t set = 1u << r->link[0].tid | 1u << r->link[1].tid;
	assert_int_equal(set, 1u << A | 1u << B);
	detail_has(h, r, "*** DEADLOCK ***");
	h_free(h);
}

static void test_correct_wrapper_twin(void **state)
{
	(void)state;
	struct h *h = wrapped_dir("correct");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/x/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, B, C_OPEN("/x/d", VO_RDONLY)), 3);
	h_submit(h, A, C_GETDENTS(3, -1));
	h_submit(h, B, C_GETDENTS(3, -1));
	h_until(h, A, VFN_wrap_directory_iterator);
	h_until(h, B, VFN_wrap_directory_iterator);
	h_run(h, 1000);
	assert_int_equal(h->w->threads[A].rec.ret, 3);
	assert_int_equal(h->w->threads[B].rec.ret, 3);
	assert_int_equal(nkind(h, DK_DEADLOCK), 0);
	assert_int_equal(nkind(h, DK_LOCKORDER), 0);
	h_free(h);
}

/* ---- wrapper no-recheck: iterating a dead directory ---- */

static void rmdir_in_window(const char *wrapper, int64_t want_ret, int want_dead)
{
	struct h *h = h_new("v6.5");
	h_knob(h, "wrapper", wrapper);
	h_mount(h, "exfat", "/x");
	h_mkdir(h, "/x/e");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/x/e", VO_RDONLY)), 3);
	h_submit(h, A, C_GETDENTS(3, -1));
	h_until(h, A, VFN_down_write);
	assert_int_equal(h_do(h, B, C_RMDIR("/x/e")), 0);
	assert_int_equal(h_finish(h, A), want_ret);
	assert_int_equal(nkind(h, DK_DEADDIR), want_dead);
	assert_int_equal(nkind(h, DK_DEADLOCK), 0);
	assert_int_equal(nkind(h, DK_LOCKORDER), 0);
	h_free(h);
}

static void test_wrapper_rmdir(void **state)
{
	(void)state;
	rmdir_in_window("correct", -VE_NOENT, 0);
	rmdir_in_window("no-recheck", 2, 1);
}

/* ---- ABBA: cross-directory renames without s_vfs_rename_mutex ---- */


static void test_rename_abba_deadlock(void **state)
{
	(void)state;
	struct h *h = h_two_dirs("no-mutex");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	h_submit(h, A, C_RENAME("/a/x", "/b/x"));
	h_submit(h, B, C_RENAME("/b/y", "/a/y"));
	h_until(h, A, VFN_down_write);
	h_step(h, A);                   /* A holds /a */
	h_until(h, B, VFN_down_write);
	h_step(h, B);                   /* B holds /b */
	assert_true(h_finish(h, A) == H_BLOCKED);
	assert_true(h_finish(h, B) == H_BLOCKED);
	assert_true(vfs_all_blocked(h->w));
	const struct vfs_report *r = find(h, DK_DEADLOCK, -1, 2);
	assert_non_null(r);
	detail_has(h, r, "/a i_rwsem");
	detail_has(h, r, "/b i_rwsem");
	/* the rank that was broken, named */
	r = find(h, DK_LOCKORDER, LDR_TWO_DIRS, -1);
	assert_non_null(r);
	detail_has(h, r, "s_vfs_rename_mutex");
	/* and lockdep's own view: one key nested without annotation */
	assert_non_null(find(h, DK_LOCKORDER, LDR_RECURSIVE, -1));
	h_free(h);
}

static void renames_one_after_the_other(const char *renlock, int want_lo)
{
	struct h *h = h_two_dirs(renlock);
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, A, C_RENAME("/a/x", "/b/x")), 0);
	assert_int_equal(h_do(h, B, C_RENAME("/b/y", "/a/y")), 0);
	assert_int_equal(nkind(h, DK_DEADLOCK), 0);
	assert_false(vfs_all_blocked(h->w));
	if (want_lo)
		assert_non_null(find(h, DK_LOCKORDER, LDR_TWO_DIRS, -1));
	else
		assert_int_equal(nkind(h, DK_LOCKORDER), 0);
	h_free(h);
}

static void test_rename_order_without_deadlock(void **state)
{
	(void)state;
	renames_one_after_the_other("no-mutex", 1);    /* reported all the same */
	renames_one_after_the_other("correct", 0);     /* the fixed twin */
}

/* ---- a writer queued among readers is not a deadlock ---- */

static void test_writer_queued_no_false_deadlock(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	h_touch(h, "/d/a");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0), C = h_spawn(h, "C", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, C, C_OPEN("/d", VO_RDONLY)), 3);
	h_submit(h, A, C_GETDENTS(3, -1));
	h_until(h, A, VFN_ext4_readdir);        /* A holds /d shared */
	assert_true(h_do(h, B, C_MKDIR("/d/n")) == H_BLOCKED);
	assert_true(h_do(h, C, C_GETDENTS(3, -1)) == H_BLOCKED);
	char why[512];
	vfs_blocked_why(h->w, C, why, sizeof why);
	assert_non_null(strstr(why, "queued behind B (write)"));
	struct vfs_report r;
	assert_false(vfs_deadlock_find(h->w, -1, &r));
	assert_int_equal(nkind(h, DK_DEADLOCK), 0);
	h_run(h, 1000);
	assert_int_equal(h->w->threads[B].rec.ret, 0);
	assert_int_equal(h->w->threads[C].rec.ret, 4);
	assert_int_equal(nkind(h, DK_DEADLOCK), 0);
	assert_int_equal(nkind(h, DK_LOCKORDER), 0);
	h_free(h);
}

/* ---- the class graph: a cycle, from a deliberately wrong acquisition ---- */

static void test_lockdep_cycle(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, A, C_GETDENTS(3, -1)), 2);
	/* ordinary: f_pos_lock -> i_rwsem of a directory, no report */
	assert_true(h->w->det.ld.nedges >= 1);
	assert_int_equal(nkind(h, DK_LOCKORDER), 0);
	/* no path of the model takes the two the other way round (ordinary
	 * calls cannot make a class inversion); forge one: A holds /d's
	 * i_rwsem and asks for the f_pos lock */
	struct vfs_world *w = h->w;
	int d = vfs_path_lookup(w, "/d"), f = h_file(h, A, 3);
	struct vfs_thread *t = &w->threads[A];
	t->held[0] = (struct vfs_held){ .lock = VFS_LID(LID_INODE, d), .mode = M_READ,
		.cls = LC_I_RWSEM_DIR };
	t->nheld = 1;
	struct vfs_event ev = { .step = w->step, .tid = (int8_t)A, .op = OP_BLOCK,
		.fn = VFN_mutex_lock, .cls = LC_F_POS_LOCK, .mode = M_EXCL,
		.lock = VFS_LID(LID_FILE_POS, f), .other = -1 };
	vfs_detect_event(w, &ev);
	t->nheld = 0;
	const struct vfs_report *r = find(h, DK_LOCKORDER, LDR_CYCLE, 2);
	assert_non_null(r);
	assert_non_null(strstr(r->text, "circular"));
	detail_has(h, r, "the existing dependency chain");
	detail_has(h, r, "*** DEADLOCK ***");
	assert_non_null(find(h, DK_LOCKORDER, LDR_FPOS_UNDER_INODE, -1));
	static char graph[4096];
	vfs_lockdep_graph_text(w, graph, sizeof graph);
	assert_non_null(strstr(graph, "&f->f_pos_lock"));
	h_free(h);
}

/* ---- no false report on a long random run under v6.5 ---- */

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const char *const dirs[] = { "/d/s1", "/d/s2", "/x/s1", "/t/s1",
	"/o/s1", "/e/s1", "/d/s1/u", "/e/s1/u" };
static const char *const renames[][2] = {
	{ "/d/a", "/d/z" }, { "/d/z", "/d/a" }, { "/d/s1", "/e/s1" },
	{ "/e/s1", "/d/s1" }, { "/x/a", "/x/y" }, { "/x/y", "/x/a" },
	{ "/d/b", "/e/b" }, { "/e/b", "/d/b" }, { "/d/s2", "/e/s1/u" },
	{ "/e/s1/u", "/d/s2" },
};

static struct hcall random_call(uint64_t *s, int nfds)
{
	int fd = 3 + (int)(rnd(s) % (uint64_t)nfds);
	switch (rnd(s) % 12) {
	case 0: case 1: case 2:
		return C_GETDENTS(fd, (int64_t)(rnd(s) % 4));
	case 3: case 4:
		return C_LSEEK(fd, (int64_t)(rnd(s) % 6) - 1, (int64_t)(rnd(s) % 3));
	case 5:
		return C_READ(fd, (int64_t)(rnd(s) % 8));
	case 6:
		return C_WRITE(fd, "xy");
	case 7:
		return C_MKDIR(dirs[rnd(s) % 8]);
	case 8:
		return C_RMDIR(dirs[rnd(s) % 8]);
	case 9: {
		int k = (int)(rnd(s) % 10);
		return C_RENAME(renames[k][0], renames[k][1]);
	}
	case 10:
		return C_DUP(fd);
	default:
		return C_CLOSE(fd + 6);  /* dups, never the base descriptors */
	}
}

/* The random runs' world: directories, files, three filesystems mounted,
 * threads A and C with six of them open each (C's first is A's /d, by
 * pidfd_getfd), A's clone and fork B; its scheduler random by SEED. */
static struct h *random_world(const char *preset, uint64_t seed)
{
	struct h *h = h_new(preset);
	struct vfs_world *w = h->w;
	static const char *const files[] = { "/d/a", "/d/b", "/f" };
	h->log.keep = false;
	h_mkdir(h, "/d");
	h_mkdir(h, "/e");
	for (int i = 0; i < 3; i++)
		h_touch(h, files[i]);
	h_mount(h, "exfat", "/x");
	h_touch(h, "/x/a");
	h_mount(h, "tmpfs", "/t");
	h_mount(h, "overlayfs", "/o");
	int A = h_spawn(h, "A", 0), C = h_spawn(h, "C", 0);
	static const char *const opens[] = { "/d", "/f", "/x", "/t", "/o", "/e" };
	for (int i = 0; i < 6; i++) {
		assert_int_equal(h_do(h, A, C_OPEN(opens[i], i == 1 ? VO_RDWR :
						    VO_RDONLY)), 3 + i);
		assert_int_equal(h_do(h, C, C_OPEN(opens[i], i == 1 ? VO_RDWR :
						    VO_RDONLY)), 3 + i);
	}
	assert_int_equal(h_do(h, C, C_PIDFD_OPEN(h_pid(h, A))), 9);
	assert_int_equal(h_do(h, C, C_PIDFD_GETFD(9, 3)), 10);
	assert_int_equal(h_do(h, C, C_DUP2(10, 3)), 3);    /* C lists A's /d */
	assert_true(h_do(h, A, C_CLONE()) > 0);
	assert_true(h_do(h, A, C_FORK("B")) > 0);
	w->sched = VSCHED_RANDOM;
	w->rng = seed * 0x9e3779b97f4a7c15ull + 7;
	return h;
}

/* STEPS steps of random calls (by SEED); false: all blocked first */
static bool random_run(struct h *h, uint64_t seed, int steps)
{
	struct vfs_world *w = h->w;
	uint64_t s = seed * 977 + 1;
	for (int n = 0; n < steps;) {
		for (int t = 0; t < w->nthreads; t++)
			if (!vfs_has_work(w, t) && rnd(&s) % 2 == 0) {
				assert_int_equal(h_vsubmit(w, t, random_call(&s, 6)), 0);
			}
		int t = vfs_sched_pick(w);
		if (t < 0) {
			if (vfs_all_blocked(w))
				return false;
			continue;
		}
		vfs_step(w, t, &h->sink);
		n++;
	}
	return true;
}

static void test_random_v65_no_reports(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct h *h = random_world("v6.5", seed);
		struct vfs_world *w = h->w;
		assert_true(random_run(h, seed, 10000));
		h_run(h, 100000);
		assert_false(vfs_all_blocked(w));
		for (int k = 0; k < DK__REPORTS; k++)
			if (nkind(h, k)) {
				char buf[1024] = "";
				for (int i = 0; i < w->det.nreports; i++)
					if (w->det.reports[i].kind == k)
						vfs_report_text(w, &w->det.reports[i], buf,
								sizeof buf);
				for (int i = 0; i < w->det.nreports; i++) { vfs_report_text(w, &w->det.reports[i], buf, sizeof buf); print_message("%s\n", buf); }
				fail_msg("seed %llu: %d reports of kind %d: %s",
					 (unsigned long long)seed, nkind(h, k), k, buf);
			}
		/* the run did lock things while holding others */
		assert_true(w->det.ld.nedges >= 4);
		h_free(h);
	}
}

/* lockdep's short way for an order it has seen (core/lockdep.c
 * known_order: one lock held, no rank broken, the edge there, only its
 * count) against check, which every acquire took before (the tests'
 * lockdep_slow_only): the same graph, counts, first links and
 * reports on random runs, also where renames break the ranks (the
 * rename-lock knob's no-mutex) */
extern bool lockdep_slow_only;
extern _Thread_local unsigned long lockdep_short_ways;

/* Forged acquires of directory locks (as in test_lockdep_cycle): A
 * holding /d as a parent takes /d/s, then holding /e as a parent takes
 * /d/s again: the second pair has the first's keys, an order seen
 * before, but breaks the directories' rank (/e is not an ancestor). */
static struct h *forged_dirs(bool slow)
{
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	h_mkdir(h, "/d/s");
	h_mkdir(h, "/e");
	int A = h_spawn(h, "A", 0);
	struct vfs_world *w = h->w;
	struct vfs_thread *t = &w->threads[A];
	int s = vfs_path_lookup(w, "/d/s");
	const char *const parents[] = { "/d", "/e", "/d", "/e" };
	lockdep_slow_only = slow;
	for (int i = 0; i < 4; i++) {
		t->held[0] = (struct vfs_held){ .lock = VFS_LID(LID_INODE,
			vfs_path_lookup(w, parents[i])), .mode = M_WRITE,
			.cls = LC_I_RWSEM_DIR, .sub = LDSUB_PARENT };
		t->held[1] = (struct vfs_held){ .lock = VFS_LID(LID_INODE, s),
			.mode = M_WRITE, .cls = LC_I_RWSEM_DIR };
		t->nheld = 2;
		struct vfs_event ev = { .step = w->step, .tid = (int8_t)A,
			.op = OP_ACQUIRE, .fn = VFN_down_write, .cls = LC_I_RWSEM_DIR,
			.mode = M_WRITE, .lock = VFS_LID(LID_INODE, s), .other = -1 };
		vfs_detect_event(w, &ev);
	}
	lockdep_slow_only = false;
	t->nheld = 0;
	return h;
}

static void test_lockdep_short_way(void **state)
{
	(void)state;
	struct h *f = forged_dirs(false), *g = forged_dirs(true);
	assert_int_equal(f->w->det.ld.nedges, 1);
	assert_int_equal(f->w->det.ld.edges[0].count, 4);
	assert_int_equal(g->w->det.ld.edges[0].count, 4);
	assert_int_equal(nkind(f, DK_LOCKORDER), 1);
	assert_int_equal(nkind(g, DK_LOCKORDER), 1);
	assert_non_null(find(f, DK_LOCKORDER, LDR_TWO_DIRS, -1));
	assert_string_equal(f->w->det.reports[0].text, g->w->det.reports[0].text);
	h_free(f);
	h_free(g);
	for (int v = 0; v < 2; v++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct h *h[2];
			bool ran[2];
			for (int slow = 0; slow < 2; slow++) {
				h[slow] = random_world("v6.5", seed);
				if (v)
					h_knob(h[slow], "rename-lock", "no-mutex");
				lockdep_slow_only = slow;
				unsigned long n0 = lockdep_short_ways;
				ran[slow] = random_run(h[slow], seed, 4000);
				lockdep_slow_only = false;
				/* (the short way taken, and only when allowed) */
				if (slow)
					assert_true(lockdep_short_ways == n0);
				else
					assert_true(lockdep_short_ways > n0 + 10);
			}
			const struct vfs_detect *a = &h[0]->w->det, *b = &h[1]->w->det;
			assert_int_equal(ran[0], ran[1]);
			assert_int_equal(h[0]->w->step, h[1]->w->step);
			assert_int_equal(a->ld.nedges, b->ld.nedges);
			assert_int_equal(a->ld.nseen, b->ld.nseen);
			assert_memory_equal(a->ld.seen, b->ld.seen,
					    sizeof a->ld.seen[0] * a->ld.nseen);
			uint32_t sum = 0;
			for (int i = 0; i < a->ld.nedges; i++) {
				const struct vfs_ldedge *x = &a->ld.edges[i], *y = &b->ld.edges[i];
				assert_int_equal(x->from, y->from);
				assert_int_equal(x->to, y->to);
				assert_int_equal(x->count, y->count);
				assert_memory_equal(&x->first, &y->first, sizeof x->first);
				sum += x->count;
			}
			/* (orders seen again, counted the short way) */
			assert_true(a->ld.nedges >= 4 && sum > 10u * a->ld.nedges);
			assert_memory_equal(a->counts, b->counts, sizeof a->counts);
			assert_int_equal(a->nreports, b->nreports);
			for (int i = 0; i < a->nreports; i++)
				assert_string_equal(a->reports[i].text, b->reports[i].text);
			if (v)  /* (the no-mutex runs broke a rank) */
				assert_true(a->counts[DK_LOCKORDER] > 0);
			h_free(h[0]);
			h_free(h[1]);
		}
}

/* ---- the cost side (kernel-reference section 9) ---- */

static void reads(const char *preset, uint32_t *fpos_acq, double *atomics_per_read)
{
	struct h *h = h_new(preset);
	h->log.keep = false;
	h_touch(h, "/f");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY)), 3);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(h_do(h, A, C_READ(3, 4)), 0);
	const struct vfs_stats *st = &h->w->stats;
	assert_int_equal(st->calls_by_sys[SYS_READ], 1000);
	*fpos_acq = st->acquire[LC_F_POS_LOCK];
	*atomics_per_read = (double)st->atomics_by_sys[SYS_READ] / 1000.0;
	assert_int_equal(st->contended[LC_F_POS_LOCK], 0);
	h_free(h);
}

static void test_stats_read_cost(void **state)
{
	(void)state;
	uint32_t acq;
	double at;
	/* v6.4: file_needs_f_pos_lock reads f_count (counted as one atomic
	 * access), finds 1, takes no lock */
	reads("v6.4", &acq, &at);
	assert_int_equal(acq, 0);
	assert_true(at == 1.0);
	/* 20ea1e7d13c1: no count check, mutex_lock + mutex_unlock per read */
	reads("20ea1e7d13c1", &acq, &at);
	assert_int_equal(acq, 1000);
	assert_true(at == 2.0);
	reads("797964253d35", &acq, &at);
	assert_int_equal(acq, 0);
	reads("v6.5", &acq, &at);
	assert_int_equal(acq, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_naive_upgrade_self),
		cmocka_unit_test(test_naive_upgrade_two_readers),
		cmocka_unit_test(test_correct_wrapper_twin),
		cmocka_unit_test(test_wrapper_rmdir),
		cmocka_unit_test(test_rename_abba_deadlock),
		cmocka_unit_test(test_rename_order_without_deadlock),
		cmocka_unit_test(test_writer_queued_no_false_deadlock),
		cmocka_unit_test(test_lockdep_cycle),
		cmocka_unit_test(test_random_v65_no_reports),
		cmocka_unit_test(test_lockdep_short_way),
		cmocka_unit_test(test_stats_read_cost),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
