/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_limits.c - the detectors' tables at and past their bounds
 * (core/vfs_limits.h), fed trace events directly or driven through the
 * kernel's own lock and function-entry helpers where no system call gets
 * that far: silent at the edge, then the overflow recorded once with its
 * step, the message, the verdicts it decides refused (and only those);
 * a report made before the overflow still counts.  (Bounds a scenario can
 * reach are tests/limits/ goldens: passes, offsets, shadows, the deadlock
 * table, the chain links.)
 */
#include "harness.h"
#include "internal.h"          /* lock_acquire, fn_enter: struct vx */

static struct vfs_event access_ev(int tid, int field, int obj, bool write, int step)
{
	return (struct vfs_event){ .tid = (int8_t)tid,
		.op = write ? OP_WRITE : OP_READ, .fn = VFN_vfs_write,
		.field = (uint8_t)field, .objkind = VOK_INODE, .obj = obj,
		.dir = -1, .step = step };
}

static void lock_op(struct vfs_world *w, int tid, int op, vfs_lid_t lid)
{
	struct vfs_event ev = { .tid = (int8_t)tid, .op = (uint8_t)op,
		.fn = VFN_down_write, .lock = lid, .mode = M_WRITE,
		.objkind = VOK_INODE, .other = -1, .step = w->step };
	vfs_detect_event(w, &ev);
}

/* Thread TID holds one lock of class CLS taken with subclass SUB (what
 * grant() records), and acquires WANT with subclass WSUB: one lockdep
 * dependency, held key -> wanted key. */
static void nest(struct vfs_world *w, int tid, vfs_lid_t held, int cls, int sub,
		 vfs_lid_t want, int wsub)
{
	struct vfs_thread *t = &w->threads[tid];
	t->held[0] = (struct vfs_held){ .lock = held, .mode = M_EXCL,
		.cls = (uint8_t)cls, .fn = VFN_mutex_lock, .sub = (uint8_t)sub };
	t->held[1] = (struct vfs_held){ .lock = want, .mode = M_EXCL,
		.cls = (uint8_t)vfs_lock_class(w, want), .fn = VFN_mutex_lock,
		.sub = (uint8_t)wsub };
	t->nheld = 2;           /* on acquire the wanted lock is already held */
	struct vfs_event ev = { .tid = (int8_t)tid, .op = OP_ACQUIRE,
		.fn = VFN_mutex_lock, .lock = want, .mode = M_EXCL,
		.cls = (uint8_t)vfs_lock_class(w, want), .subclass = (uint8_t)wsub,
		.step = w->step };
	vfs_detect_event(w, &ev);
	t->nheld = 0;
}

/* HELD (of class CLS) in each subclass while taking each of WANT in each:
 * 16 x NWANT dependencies, a step each. */
static void nest_all(struct vfs_world *w, int tid, vfs_lid_t held, int cls,
		     const vfs_lid_t *want, int nwant)
{
	for (int hs = 0; hs < 4; hs++)
		for (int c = 0; c < nwant; c++)
			for (int ws = 0; ws < 4; ws++) {
				w->step++;
				nest(w, tid, held, cls, hs, want[c], ws);
			}
}

/* No verdict of any kind refused. */
static void none_refused(const struct vfs_world *w)
{
	for (int k = 0; k < DK__REPORTS; k++)
		assert_int_equal(vfs_verdict_refused(w, k), VL_NONE);
}

static void expect_text(const struct vfs_world *w, int limit, const char *want)
{
	char buf[200];
	vfs_overflow_text(w, limit, buf, sizeof buf);
	assert_string_equal(buf, want);
}

static void test_lockclocks_edge(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int a = h_spawn(h, "A", 0);
	struct vfs_world *w = h->w;
	for (int i = 0; i < VFS_MAX_LOCKCLOCKS; i++) {
		w->step = i + 1;
		lock_op(w, a, OP_ACQUIRE, VFS_LID(LID_INODE, i));
		lock_op(w, a, OP_RELEASE, VFS_LID(LID_INODE, i));
	}
	assert_int_equal(w->det.overflowed, 0);   /* at the edge: silent */
	assert_int_equal(vfs_verdict_refused(w, DK_RACE), VL_NONE);
	w->step = 5000;
	lock_op(w, a, OP_ACQUIRE, VFS_LID(LID_INODE, VFS_MAX_LOCKCLOCKS));
	assert_int_equal(vfs_verdict_refused(w, DK_RACE), VL_LOCKCLOCKS);
	assert_int_equal(vfs_verdict_refused(w, DK_DUPLICATE), VL_NONE);
	assert_int_equal(w->det.overflow_step[VL_LOCKCLOCKS], 5000);
	w->step = 6000;         /* recorded once: the first step stays */
	lock_op(w, a, OP_ACQUIRE, VFS_LID(LID_INODE, VFS_MAX_LOCKCLOCKS + 1));
	assert_int_equal(w->det.overflow_step[VL_LOCKCLOCKS], 5000);
	expect_text(w, VL_LOCKCLOCKS, "vfsim: too many lock clocks (limit 1024): "
		    "the race detector is off from step 5000");
	h_free(h);
}

static void test_shadows_edge(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int a = h_spawn(h, "A", 0), b = h_spawn(h, "B", 0);
	struct vfs_world *w = h->w;
	/* a real race first: unordered writes of one field by A and B */
	struct vfs_event e = access_ev(a, FLD_DIR, 0, true, 1);
	vfs_detect_event(w, &e);
	e = access_ev(b, FLD_DIR, 0, true, 2);
	vfs_detect_event(w, &e);
	assert_int_equal(vfs_report_count(w, DK_RACE, FLD_DIR), 1);
	for (int i = 1; i < VFS_MAX_SHADOWS; i++) {
		e = access_ev(a, FLD_SIZE, i, true, 2 + i);
		vfs_detect_event(w, &e);
	}
	assert_int_equal(w->det.nshadows, VFS_MAX_SHADOWS);
	assert_int_equal(w->det.overflowed, 0);
	w->step = 900;
	e = access_ev(a, FLD_SIZE, VFS_MAX_SHADOWS, true, 900);
	vfs_detect_event(w, &e);
	assert_int_equal(vfs_verdict_refused(w, DK_RACE), VL_SHADOWS);
	expect_text(w, VL_SHADOWS, "vfsim: too many shadow words (limit 128): "
		    "the race detector is off from step 900");
	/* off: B's unordered write of A's field is not judged any more, and
	 * the race found before still counts */
	e = access_ev(b, FLD_SIZE, 1, true, 901);
	vfs_detect_event(w, &e);
	assert_int_equal(vfs_report_count(w, DK_RACE, FLD_NONE), 1);
	h_free(h);
}

/* A directory /d and a file /f that thread TID opened: lock ids of every
 * class (the reports name them). */
struct locks { vfs_lid_t fpos, rename, dir, nondir, flock; };

static struct locks some_locks(struct h *h, int tid)
{
	h_mkdir(h, "/d");
	h_touch(h, "/f");
	assert_int_equal(h_do(h, tid, C_OPEN("/f", VO_RDONLY)), 3);
	int file = h_file(h, tid, 3);
	return (struct locks){ .fpos = VFS_LID(LID_FILE_POS, file),
		.rename = VFS_LID(LID_RENAME, 0),
		.dir = VFS_LID(LID_INODE, vfs_path_lookup(h->w, "/d")),
		.nondir = VFS_LID(LID_INODE, vfs_path_lookup(h->w, "/f")),
		.flock = VFS_LID(LID_FILE_LOCK, file) };
}

/* lockdep's dependency graph (VFS_MAX_LDEDGES 48): s_vfs_rename_mutex in
 * its four subclasses held while taking an f_pos_lock, a directory's and a
 * file's i_rwsem in theirs is 4 x 12 distinct dependencies that break no
 * rule and close no cycle: at the edge, silent and "no lock-order
 * problem" is an answer; one more (f_pos_lock -> directory) fills it. */
static void test_ldedges_edge(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int a = h_spawn(h, "A", 0);
	struct vfs_world *w = h->w;
	struct locks k = some_locks(h, a);
	vfs_lid_t want[3] = { k.fpos, k.dir, k.nondir };
	nest_all(w, a, k.rename, LC_RENAME_MUTEX, want, 3);
	assert_int_equal(w->det.ld.nedges, VFS_MAX_LDEDGES);
	assert_int_equal(w->det.overflowed, 0);         /* at the edge: silent */
	assert_int_equal(vfs_report_count(w, DK_LOCKORDER, FLD_NONE), 0);
	none_refused(w);
	w->step = 700;
	nest(w, a, k.fpos, LC_F_POS_LOCK, 0, k.dir, 0);
	assert_int_equal(w->det.ld.nedges, VFS_MAX_LDEDGES);
	assert_true(w->det.ld.overflow);
	assert_int_equal(vfs_verdict_refused(w, DK_LOCKORDER), VL_LDEDGES);
	assert_int_equal(vfs_verdict_refused(w, DK_RACE), VL_NONE);
	assert_int_equal(vfs_verdict_refused(w, DK_DEADLOCK), VL_NONE);
	expect_text(w, VL_LDEDGES, "vfsim: too many lock dependencies (limit 48): "
		    "lockdep is off from step 700");
	/* off: a lock taken under a spinlock is no longer judged, and the
	 * first step stays */
	w->step = 701;
	nest(w, a, k.flock, LC_F_LOCK, 0, k.nondir, 0);
	assert_int_equal(vfs_report_count(w, DK_LOCKORDER, FLD_NONE), 0);
	assert_int_equal(w->det.overflow_step[VL_LDEDGES], 700);
	h_free(h);
}

/* lockdep's record of the reports it made (VFS_MAX_LDSEEN 32), which keeps
 * one report per rule and pair of keys: f_lock (a spinlock) in its four
 * subclasses held while taking an f_pos_lock or a directory's i_rwsem in
 * theirs is 32 distinct "nothing sleeps under a spinlock" reports; the
 * 33rd distinct one fills it.  A repeat is no new report. */
static void test_ldseen_edge(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int a = h_spawn(h, "A", 0);
	struct vfs_world *w = h->w;
	struct locks k = some_locks(h, a);
	vfs_lid_t want[2] = { k.fpos, k.dir };
	nest_all(w, a, k.flock, LC_F_LOCK, want, 2);
	nest(w, a, k.flock, LC_F_LOCK, 0, k.fpos, 0);   /* a repeat */
	assert_int_equal(w->det.ld.nseen, VFS_MAX_LDSEEN);
	assert_int_equal(vfs_report_count(w, DK_LOCKORDER, FLD_NONE), 32);
	assert_int_equal(w->det.overflowed, 0);
	none_refused(w);
	w->step = 800;
	nest(w, a, k.flock, LC_F_LOCK, 0, k.nondir, 0);
	assert_int_equal(vfs_verdict_refused(w, DK_LOCKORDER), VL_LDSEEN);
	assert_int_equal(vfs_verdict_refused(w, DK_DUPLICATE), VL_NONE);
	expect_text(w, VL_LDSEEN, "vfsim: too many lock-order reports (limit 32): "
		    "lockdep is off from step 800");
	/* the one that filled it is still told, then lockdep is off */
	int n = vfs_report_count(w, DK_LOCKORDER, FLD_NONE);
	assert_int_equal(n, 33);
	w->step = 801;
	nest(w, a, k.flock, LC_F_LOCK, 1, k.nondir, 1);
	assert_int_equal(vfs_report_count(w, DK_LOCKORDER, FLD_NONE), n);
	assert_int_equal(w->det.overflow_step[VL_LDSEEN], 800);
	h_free(h);
}

/* Locks one thread holds (VFS_MAX_HELD 8), through grant() as a kernel
 * path takes them: eight i_rwsems of eight files are recorded; the ninth
 * is taken but not recorded, so lockdep, which judges an acquisition by
 * what is held, goes off. */
static void test_held_edge(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int a = h_spawn(h, "A", 0);
	struct vfs_world *w = h->w;
	int ino[VFS_MAX_HELD + 2];
	for (int i = 0; i < VFS_MAX_HELD + 2; i++) {
		char path[16];
		snprintf(path, sizeof path, "/f%d", i);
		h_touch(h, path);
		ino[i] = vfs_path_lookup(w, path);
	}
	struct vx x = { .w = w, .t = &w->threads[a], .tid = a, .sink = &h->sink };
	for (int i = 0; i < VFS_MAX_HELD; i++) {
		w->step = i + 1;
		assert_true(lock_acquire(&x, VFN_down_write,
					 VFS_LID(LID_INODE, ino[i]), M_WRITE));
	}
	assert_int_equal(w->threads[a].nheld, VFS_MAX_HELD);
	assert_int_equal(w->det.overflowed, 0);
	none_refused(w);
	w->step = 900;
	assert_true(lock_acquire(&x, VFN_down_write,
				 VFS_LID(LID_INODE, ino[VFS_MAX_HELD]), M_WRITE));
	assert_int_equal(w->threads[a].nheld, VFS_MAX_HELD);
	assert_int_equal(vfs_verdict_refused(w, DK_LOCKORDER), VL_HELD);
	assert_int_equal(vfs_verdict_refused(w, DK_RACE), VL_NONE);
	expect_text(w, VL_HELD, "vfsim: too many locks held by one thread (limit 8): "
		    "lockdep is off from step 900");
	w->step = 901;
	assert_true(lock_acquire(&x, VFN_down_write,
				 VFS_LID(LID_INODE, ino[VFS_MAX_HELD + 1]), M_WRITE));
	assert_int_equal(w->det.overflow_step[VL_HELD], 900);
	h_free(h);
}

/* Kernel functions nested (VFS_MAX_FNSTACK 8), through fn_enter as a path
 * enters them: eight are on the stack; the ninth's entry is traced but
 * not stacked, so the function a lock is recorded under may be wrong.  No
 * verdict depends on it: none is refused, and the message says so. */
static void test_fnstack_edge(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int a = h_spawn(h, "A", 0);
	struct vfs_world *w = h->w;
	struct vx x = { .w = w, .t = &w->threads[a], .tid = a, .sink = &h->sink };
	size_t mark = h->log.n;
	for (int i = 0; i < VFS_MAX_FNSTACK; i++) {
		w->step = i + 1;
		fn_enter(&x, VFN_iterate_dir);
	}
	assert_int_equal(w->threads[a].nfn, VFS_MAX_FNSTACK);
	assert_int_equal(w->det.overflowed, 0);
	w->step = 1000;
	fn_enter(&x, VFN_vfs_read);
	assert_int_equal(w->threads[a].nfn, VFS_MAX_FNSTACK);
	assert_int_equal(h_nev(h, mark, a, OP_ENTER, LC_NONE), VFS_MAX_FNSTACK + 1);
	assert_true(w->det.overflowed & 1u << VL_FNSTACK);
	none_refused(w);
	expect_text(w, VL_FNSTACK, "vfsim: too many nested kernel functions "
		    "(limit 8): the trace's function of a lock is unreliable "
		    "from step 1000");
	w->step = 1001;
	fn_enter(&x, VFN_vfs_read);
	assert_int_equal(w->det.overflow_step[VL_FNSTACK], 1000);
	h_free(h);
}

static void test_limit_names(void **state)
{
	(void)state;
	for (int l = VL_NONE + 1; l < VL__COUNT; l++) {
		assert_string_not_equal(vfs_limit_name(l), "?");
		assert_true(vfs_limit_value(l) > 0);
	}
	assert_string_equal(vfs_limit_name(VL_NONE), "?");
	assert_int_equal(vfs_limit_value(VL_PASSES), VFS_MAX_PASSES);
	assert_int_equal(vfs_limit_value(VL_HELD), VFS_MAX_HELD);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lockclocks_edge),
		cmocka_unit_test(test_shadows_edge),
		cmocka_unit_test(test_ldedges_edge),
		cmocka_unit_test(test_ldseen_edge),
		cmocka_unit_test(test_held_edge),
		cmocka_unit_test(test_fnstack_edge),
		cmocka_unit_test(test_limit_names),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
