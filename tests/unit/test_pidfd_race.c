/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_pidfd_race.c - the 2023 story at the core level (kernel-reference.md
 * section 1, "The bug in one picture"), one fixed schedule:
 *
 *   A: getdents on its only reference to /d, stopped just before
 *      ext4_readdir (the f_pos check is behind it, ctx->pos read)
 *   B: pidfd_open(A), pidfd_getfd(A's fd): a real reference, count 2
 *   B: getdents on the stolen fd
 *   A: runs on
 *
 * v5.6 .. v6.4: A skipped the f_pos lock, B takes it: both hand out the
 * same entries (a duplicate) and race on f_pos.  From 20ea1e7d13c1 on
 * (and in v6.5, 7d84d1b9af63: directories have ->iterate_shared) A holds
 * the lock, B blocks on it, then continues where A stopped.
 */
#include "harness.h"

struct outcome {
	int64_t a_ret, b_ret;   /* b_ret when B first ran: H_BLOCKED or entries */
	char a_ent[64], b_ent[64];
	int dup, race_fpos, race_all;
	int64_t fpos;
	bool b_blocked_on_fpos;
};

static void story(const char *preset, struct outcome *o)
{
	struct h *h = h_new(preset);
	h_dir_abc(h);
	int A = h_spawn(h, "A", 1000), B = h_spawn(h, "B", 1000);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	int file = h_file(h, A, 3);

	h_submit(h, A, C_GETDENTS(3, 2));
	h_until(h, A, VFN_ext4_readdir);
	assert_int_equal(h->w->files[file].f_count, 1);

	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
	assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 3)), 4);
	assert_int_equal(h->w->files[file].f_count, 2);
	assert_int_equal(h_file(h, B, 4), file);

	o->b_ret = h_do(h, B, C_GETDENTS(4, 2));
	o->b_blocked_on_fpos = o->b_ret == H_BLOCKED &&
		h->w->threads[B].wait_lock == VFS_LID(LID_FILE_POS, file);
	o->a_ret = h_finish(h, A);
	if (o->b_ret == H_BLOCKED)
		assert_int_equal(h_finish(h, B), 2);
	h_entries(h, A, o->a_ent, sizeof o->a_ent);
	h_entries(h, B, o->b_ent, sizeof o->b_ent);
	o->dup = vfs_report_count(h->w, DK_DUPLICATE, 0);
	o->race_fpos = vfs_report_count(h->w, DK_RACE, FLD_F_POS);
	o->race_all = vfs_report_count(h->w, DK_RACE, 0);
	o->fpos = h->w->files[file].f_pos;
	h_free(h);
}

static void test_buggy(void **state)
{
	(void)state;
	static const char *const buggy[] = { "v5.6", "v6.4" };
	for (int i = 0; i < 2; i++) {
		struct outcome o;
		story(buggy[i], &o);
		assert_int_equal(o.b_ret, 2);           /* B was not held back */
		assert_int_equal(o.a_ret, 2);
		assert_string_equal(o.b_ent, ". ..");
		assert_string_equal(o.a_ent, ". ..");   /* the same entries */
		assert_true(o.dup > 0);
		assert_int_equal(o.dup, 2);             /* "." and ".." */
		assert_true(o.race_fpos > 0);
		assert_int_equal(o.fpos, 2);            /* one update lost */
	}
}

static void test_fixed(void **state)
{
	(void)state;
	static const char *const fixed[] = { "20ea1e7d13c1", "797964253d35",
		"3e3271549670", "v6.5", "mainline" };
	for (int i = 0; i < 5; i++) {
		struct outcome o;
		story(fixed[i], &o);
		if (!o.b_blocked_on_fpos)
			fail_msg("%s: the thief did not block on f_pos_lock", fixed[i]);
		assert_int_equal(o.a_ret, 2);
		assert_string_equal(o.a_ent, ". ..");
		assert_string_equal(o.b_ent, "a b");    /* where A stopped */
		assert_int_equal(o.dup, 0);
		assert_int_equal(o.race_fpos, 0);
		assert_int_equal(o.race_all, 0);
		assert_int_equal(o.fpos, 4);
	}
}

/* v6.5 fixed directories only: a regular file with one reference still
 * skips the lock (file_count > 1 || ->iterate_shared), so the same
 * schedule on read() still races on f_pos. */
static void test_regular_file_v65(void **state)
{
	(void)state;
	static const struct { const char *preset; bool races; } c[] = {
		{ "v6.4", true }, { "v6.5", true }, { "20ea1e7d13c1", false },
	};
	for (int i = 0; i < 3; i++) {
		struct h *h = h_new(c[i].preset);
		h_touch(h, "/f");
		int A = h_spawn(h, "A", 1000), B = h_spawn(h, "B", 1000);
		assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDWR)), 3);
		assert_int_equal(h_do(h, A, C_WRITE(3, "abcdef")), 6);
		assert_int_equal(h_do(h, A, C_LSEEK(3, 0, VSEEK_SET)), 0);
		h_submit(h, A, C_READ(3, 3));
		h_until(h, A, VFN_vfs_read);    /* pos = f_pos is behind it */
		assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
		assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 3)), 4);
		int64_t b = h_do(h, B, C_READ(4, 3));
		int64_t a = h_finish(h, A);
		if (b == H_BLOCKED)
			b = h_finish(h, B);
		assert_int_equal(a, 3);
		assert_int_equal(b, 3);
		int races = vfs_report_count(h->w, DK_RACE, FLD_F_POS);
		if (c[i].races) {
			assert_true(races > 0);
			assert_string_equal(h->w->threads[A].rec.text, "abc");
			assert_string_equal(h->w->threads[B].rec.text, "abc");
		} else {
			assert_int_equal(races, 0);
			assert_string_equal(h->w->threads[A].rec.text, "abc");
			assert_string_equal(h->w->threads[B].rec.text, "def");
		}
		h_free(h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buggy),
		cmocka_unit_test(test_fixed),
		cmocka_unit_test(test_regular_file_v65),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
