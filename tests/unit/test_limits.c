/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_limits.c - the race detector's tables at and past their bounds
 * (core/vfs_limits.h), fed trace events directly: silent at the edge, then
 * the overflow recorded once with its step, the message, the race verdict
 * refused; and a report made before the overflow still counts.
 */
#include "harness.h"

static struct vfs_event access_ev(int tid, int field, int obj, bool write, int step)
{
	return (struct vfs_event){ .tid = (int8_t)tid,
		.op = write ? OP_WRITE : OP_READ, .fn = VFN_vfs_write,
		.field = (uint8_t)field, .objkind = VOK_INODE, .obj = obj,
		.other = -1, .dir = -1, .step = step };
}

static void lock_op(struct vfs_world *w, int tid, int op, vfs_lid_t lid)
{
	struct vfs_event ev = { .tid = (int8_t)tid, .op = (uint8_t)op,
		.fn = VFN_down_write, .lock = lid, .mode = M_WRITE,
		.objkind = VOK_INODE, .other = -1, .step = w->step };
	vfs_detect_event(w, &ev);
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
	assert_int_equal(vfs_verdict_refused(w, RPT_RACE), VL_NONE);
	w->step = 5000;
	lock_op(w, a, OP_ACQUIRE, VFS_LID(LID_INODE, VFS_MAX_LOCKCLOCKS));
	assert_int_equal(vfs_verdict_refused(w, RPT_RACE), VL_LOCKCLOCKS);
	assert_int_equal(vfs_verdict_refused(w, RPT_DUPLICATE), VL_NONE);
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
	assert_int_equal(vfs_report_count(w, RPT_RACE, FLD_DIR), 1);
	for (int i = 1; i < VFS_MAX_SHADOWS; i++) {
		e = access_ev(a, FLD_SIZE, i, true, 2 + i);
		vfs_detect_event(w, &e);
	}
	assert_int_equal(w->det.nshadows, VFS_MAX_SHADOWS);
	assert_int_equal(w->det.overflowed, 0);
	w->step = 900;
	e = access_ev(a, FLD_SIZE, VFS_MAX_SHADOWS, true, 900);
	vfs_detect_event(w, &e);
	assert_int_equal(vfs_verdict_refused(w, RPT_RACE), VL_SHADOWS);
	expect_text(w, VL_SHADOWS, "vfsim: too many shadow words (limit 128): "
		    "the race detector is off from step 900");
	/* off: B's unordered write of A's field is not judged any more, and
	 * the race found before still counts */
	e = access_ev(b, FLD_SIZE, 1, true, 901);
	vfs_detect_event(w, &e);
	assert_int_equal(vfs_report_count(w, RPT_RACE, FLD_NONE), 1);
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
		cmocka_unit_test(test_limit_names),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
