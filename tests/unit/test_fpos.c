/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fpos.c - does fdget_pos take f_pos_lock?  Every preset x (regular
 * file, directory) x (one reference, after dup, after fork, in a clone
 * thread, after another process's pidfd_getfd), read on the file and
 * getdents on the directory.
 *
 * The expected answers come from kernel-reference.md section 1, written
 * here as an independent table: nothing below asks the core how it
 * decides.
 */
#include "harness.h"

/* file_needs_f_pos_lock, by era (kernel-reference.md section 1) */
enum rule {
	R_NONE,         /* before v3.14: no f_pos_lock at all */
	R_COUNT,        /* v3.14 .. v6.4: file_count > 1 */
	R_ALWAYS,       /* 20ea1e7d13c1 */
	R_COUNT_OR_DIR, /* 797964253d35: count > 1 || S_ISDIR */
	R_COUNT_OR_ITER,/* 7d84d1b9af63 (v6.5): count > 1 || ->iterate_shared */
};

static const struct era {
	const char *preset;
	enum rule rule;
	bool dir_atomic;        /* FMODE_ATOMIC_POS on directories (v4.7) */
	bool pidfd;             /* pidfd_open/pidfd_getfd exist (v5.6) */
} eras[] = {
	{ "v3.13",        R_NONE,          false, false },
	{ "v4.6",         R_COUNT,         false, false },
	{ "v4.7",         R_COUNT,         true,  false },
	{ "v5.6",         R_COUNT,         true,  true  },
	{ "v5.10",        R_COUNT,         true,  true  },
	{ "v6.4",         R_COUNT,         true,  true  },
	{ "20ea1e7d13c1", R_ALWAYS,        true,  true  },
	{ "797964253d35", R_COUNT_OR_DIR,  true,  true  },
	{ "3e3271549670", R_COUNT_OR_DIR,  true,  true  },
	{ "v6.5",         R_COUNT_OR_ITER, true,  true  },
	{ "mainline",     R_COUNT_OR_ITER, true,  true  },
};
#define NERAS ((int)(sizeof eras / sizeof eras[0]))

enum how { ONE, DUP, FORK, CLONE, PIDFD, NHOW };
static const char *const how_name[NHOW] = { "one reference", "after dup",
	"after fork", "in a clone thread", "after pidfd_getfd" };

enum outcome { NO_LOCK_AT_ALL, SKIPS, TAKES };

/* The directory is on ext4, which has ->iterate_shared since v4.7. */
static enum outcome expected(const struct era *e, bool dir, bool many)
{
	if (e->rule == R_NONE)
		return NO_LOCK_AT_ALL;
	if (dir && !e->dir_atomic)
		return SKIPS;           /* no FMODE_ATOMIC_POS: never locks */
	switch (e->rule) {
	case R_ALWAYS:
		return TAKES;
	case R_COUNT_OR_DIR:
		return dir || many ? TAKES : SKIPS;
	case R_COUNT_OR_ITER:
		return dir || many ? TAKES : SKIPS;     /* ext4: iterate_shared */
	default:
		return many ? TAKES : SKIPS;
	}
}

static void one_case(const struct era *e, bool dir, enum how how)
{
	struct h *h = h_new(e->preset);
	h_dir_abc(h);
	h_touch(h, "/f");
	int A = h_spawn(h, "A", 1000), actor = A;
	assert_int_equal(h_do(h, A, C_OPEN(dir ? "/d" : "/f", VO_RDONLY)), 3);

	switch (how) {
	case ONE:
		break;
	case DUP:
		assert_int_equal(h_do(h, A, C_DUP(3)), 4);
		break;
	case FORK:
		assert_true(h_do(h, A, C_FORK("C")) > 0);
		break;
	case CLONE:
		assert_true(h_do(h, A, C_CLONE()) > 0);
		actor = h_tid(h, "A.2");
		break;
	case PIDFD: {
		int B = h_spawn(h, "B", 1000);
		int64_t pfd = h_do(h, B, C_PIDFD_OPEN(h_pid(h, A)));
		if (!e->pidfd) {
			/* the syscalls do not exist yet */
			assert_int_equal(pfd, -VE_NOSYS);
			assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 3)), -VE_NOSYS);
			assert_int_equal(h_count(h, A, 3), 1);
			h_free(h);
			return;
		}
		assert_int_equal(pfd, 3);
		assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 3)), 4);
		break;
	}
	default:
		break;
	}

	size_t mark = h_mark(h);
	int64_t ret = h_do(h, actor, dir ? C_GETDENTS(3, 100) : C_READ(3, 10));
	assert_int_equal(ret, dir ? 5 : 0);     /* . .. a b c / empty file */

	const struct vfs_callrec *r = &h->w->threads[actor].rec;
	int acq = h_nev(h, mark, actor, OP_ACQUIRE, LC_F_POS_LOCK);
	int rel = h_nev(h, mark, actor, OP_RELEASE, LC_F_POS_LOCK);
	int skip = h_nev(h, mark, actor, OP_SKIP, LC_F_POS_LOCK);
	bool took = r->took & (1u << (LC_F_POS_LOCK * 4 + M_EXCL));
	enum outcome want = expected(e, dir, how != ONE);
	enum outcome got = acq == 1 && rel == 1 && !skip && took && !r->skipped_fpos ?
		TAKES : !acq && !rel && skip == 1 && !took && r->skipped_fpos ? SKIPS :
		!acq && !rel && !skip && !took && !r->skipped_fpos ? NO_LOCK_AT_ALL : -1;
	static const char *const oname[] = { "no f_pos lock at all", "skips",
		"takes" };
	if ((int)got != (int)want)
		fail_msg("%s, %s %s: expected %s f_pos_lock, got acquire=%d "
			 "release=%d skip=%d took=%d skipped_fpos=%d", e->preset,
			 dir ? "getdents on a directory" : "read on a regular file",
			 how_name[how], oname[want], acq, rel, skip, took,
			 r->skipped_fpos);
	h_free(h);
}

static void test_era(void **state)
{
	const struct era *e = *state;
	for (int how = 0; how < NHOW; how++) {
		one_case(e, false, (enum how)how);
		one_case(e, true, (enum how)how);
	}
}

/* The table above must name every preset, in the core's order. */
static void test_table_covers_presets(void **state)
{
	(void)state;
	assert_int_equal(vfs_npresets, NERAS);
	for (int i = 0; i < NERAS; i++)
		assert_string_equal(vfs_presets[i].name, eras[i].preset);
}

/* An exfat directory (no ->iterate_shared of its own): v6.4 skips with one
 * reference; v6.5 locks, through the wrapper's ->iterate_shared. */
static void test_exfat_dir(void **state)
{
	(void)state;
	static const struct { const char *preset; bool takes; } c[] = {
		{ "v6.4", false }, { "797964253d35", true }, { "v6.5", true },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct h *h = h_new(c[i].preset);
		h_mount(h, "exfat", "/x");
		h_touch(h, "/x/a");
		int A = h_spawn(h, "A", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/x", VO_RDONLY)), 3);
		size_t mark = h_mark(h);
		assert_int_equal(h_do(h, A, C_GETDENTS(3, 10)), 3);
		assert_int_equal(h_nev(h, mark, A, OP_ACQUIRE, LC_F_POS_LOCK),
				 c[i].takes);
		assert_int_equal(h_nev(h, mark, A, OP_SKIP, LC_F_POS_LOCK),
				 !c[i].takes);
		h_free(h);
	}
}

int main(void)
{
	static struct CMUnitTest tests[NERAS + 2];
	static char names[NERAS][48];
	for (int i = 0; i < NERAS; i++) {
		snprintf(names[i], sizeof names[i], "fpos_lock_%s", eras[i].preset);
		tests[i] = (struct CMUnitTest)cmocka_unit_test_prestate(test_era,
			(void *)&eras[i]);
		tests[i].name = names[i];
	}
	tests[NERAS] = (struct CMUnitTest)cmocka_unit_test(test_table_covers_presets);
	tests[NERAS + 1] = (struct CMUnitTest)cmocka_unit_test(test_exfat_dir);
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
