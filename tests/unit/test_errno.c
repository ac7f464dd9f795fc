/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_errno.c - every errno the modelled system calls give, with the
 * kernel's numbers (kernel-reference.md sections 2, 4, 5 and 7).
 */
#include "harness.h"

/* /d with a, b; /f a regular file; /e an empty directory; A (uid 1000)
 * has /d at 3 and /f at 4. */
static struct h *world(const char *preset, int *A)
{
	struct h *h = h_new(preset);
	h_mkdir(h, "/d");
	h_touch(h, "/d/a");
	h_touch(h, "/d/b");
	h_touch(h, "/f");
	h_mkdir(h, "/e");
	*A = h_spawn(h, "A", 1000);
	assert_int_equal(h_do(h, *A, C_OPEN("/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, *A, C_OPEN("/f", VO_RDWR)), 4);
	return h;
}

static void test_ebadf(void **state)
{
	(void)state;
	int A;
	struct h *h = world("v6.5", &A);
	assert_int_equal(h_do(h, A, C_CLOSE(99)), -VE_BADF);
	assert_int_equal(h_do(h, A, C_CLOSE(-1)), -VE_BADF);
	assert_int_equal(h_do(h, A, C_DUP(99)), -VE_BADF);
	assert_int_equal(h_do(h, A, C_DUP2(99, 5)), -VE_BADF);
	assert_int_equal(h_do(h, A, C_GETDENTS(99, 10)), -VE_BADF);
	assert_int_equal(h_do(h, A, C_READ(99, 10)), -VE_BADF);
	assert_int_equal(h_do(h, A, C_LSEEK(99, 0, VSEEK_SET)), -VE_BADF);
	assert_int_equal(h_do(h, A, C_WRITE(99, "x")), -VE_BADF);
	assert_int_equal(h_do(h, A, C_PREAD(99, 1, 0)), -VE_BADF);
	/* a closed descriptor is bad too */
	assert_int_equal(h_do(h, A, C_CLOSE(4)), 0);
	assert_int_equal(h_do(h, A, C_READ(4, 1)), -VE_BADF);
	assert_int_equal(h_do(h, A, C_CLOSE(4)), -VE_BADF);
	/* pidfd_getfd: the first argument is not a pidfd */
	assert_int_equal(h_do(h, A, C_PIDFD_GETFD(3, 3)), -VE_BADF);
	/* ... or the target has no such descriptor */
	int B = h_spawn(h, "B", 1000);
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
	assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 77)), -VE_BADF);
	assert_int_equal(h_do(h, B, C_PIDFD_GETFD(9, 3)), -VE_BADF);
	/* read on a file opened write-only */
	assert_int_equal(h_do(h, A, C_OPEN("/f", VO_WRONLY)), 4);
	assert_int_equal(h_do(h, A, C_READ(4, 1)), -VE_BADF);
	/* a bad fd does not change the world's files */
	assert_int_equal(h_count(h, A, 3), 1);
	h_free(h);
}

static void test_enotdir(void **state)
{
	(void)state;
	int A;
	struct h *h = world("v6.5", &A);
	assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY | VO_DIRECTORY)),
			 -VE_NOTDIR);
	assert_int_equal(h_do(h, A, C_GETDENTS(4, 10)), -VE_NOTDIR);
	assert_int_equal(h_do(h, A, C_OPEN("/f/x", VO_RDONLY)), -VE_NOTDIR);
	assert_int_equal(h_do(h, A, C_RMDIR("/f")), -VE_NOTDIR);
	/* the failed open freed its reserved descriptor */
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY | VO_DIRECTORY)), 5);
	h_free(h);
}

static void test_eisdir(void **state)
{
	(void)state;
	int A;
	struct h *h = world("v6.5", &A);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_WRONLY)), -VE_ISDIR);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDWR)), -VE_ISDIR);
	assert_int_equal(h_do(h, A, C_READ(3, 10)), -VE_ISDIR);   /* ext4 */
	assert_int_equal(h_do(h, A, C_UNLINK("/d")), -VE_ISDIR);
	/* read() on a directory still went through fdget_pos, and f_pos did
	 * not move */
	assert_int_equal(h->w->files[h_file(h, A, 3)].f_pos, 0);
	h_free(h);
}

static void test_enoent(void **state)
{
	(void)state;
	int A;
	struct h *h = world("v6.5", &A);
	int B = h_spawn(h, "B", 1000);
	assert_int_equal(h_do(h, A, C_OPEN("/nope", VO_RDONLY)), -VE_NOENT);
	assert_int_equal(h_do(h, A, C_OPEN("/d/nope", VO_RDONLY)), -VE_NOENT);
	assert_int_equal(h_do(h, A, C_UNLINK("/d/nope")), -VE_NOENT);
	assert_int_equal(h_do(h, A, C_RMDIR("/nope")), -VE_NOENT);
	assert_int_equal(h_do(h, A, C_MKDIR("/nope/x")), -VE_NOENT);

	/* getdents on a directory removed by rmdir: IS_DEADDIR */
	assert_int_equal(h_do(h, A, C_OPEN("/e", VO_RDONLY)), 5);
	assert_int_equal(h_do(h, B, C_RMDIR("/e")), 0);
	assert_int_equal(h_do(h, A, C_GETDENTS(5, 10)), -VE_NOENT);

	/* mkdir in a dead directory: the lookup found /g alive, rmdir
	 * killed it before mkdir got the parent's lock */
	h_mkdir(h, "/g");
	h_submit(h, A, C_MKDIR("/g/x"));
	h_step(h, A);                       /* the syscall entry */
	h_step(h, A);                       /* the lookup of the parent */
	assert_int_equal(h->w->threads[A].f.namei.parent, vfs_path_lookup(h->w, "/g"));
	assert_int_equal(h_do(h, B, C_RMDIR("/g")), 0);
	assert_int_equal(h_finish(h, A), -VE_NOENT);
	h_free(h);
}

static void test_eperm(void **state)
{
	(void)state;
	int A;
	struct h *h = world("v6.5", &A);
	int B = h_spawn(h, "B", 2000), R = h_spawn(h, "R", 0);
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
	assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 3)), -VE_PERM);
	assert_int_equal(h_count(h, A, 3), 1);      /* no reference taken */
	/* uid 0 may */
	assert_int_equal(h_do(h, R, C_PIDFD_OPEN(h_pid(h, A))), 3);
	assert_int_equal(h_do(h, R, C_PIDFD_GETFD(3, 3)), 4);
	/* and a non-root caller may not take root's files */
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, R))), 4);
	assert_int_equal(h_do(h, B, C_PIDFD_GETFD(4, 4)), -VE_PERM);
	h_free(h);
}

static void test_emfile(void **state)
{
	(void)state;
	int A;
	struct h *h = world("v6.5", &A);
	/* (model) at most VFS_MAX_FILES open files exist, so fill the table
	 * with dup: every descriptor 5 .. 1023 */
	for (int fd = 5; fd < VFS_NR_OPEN; fd++) {
		int64_t r = h_do(h, A, C_DUP(3));
		if (r != fd)
			fail_msg("dup gave %lld, expected %d", (long long)r, fd);
	}
	assert_int_equal(h_count(h, A, 3), 1 + (VFS_NR_OPEN - 5));
	assert_int_equal(h_do(h, A, C_DUP(3)), -VE_MFILE);
	assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY)), -VE_MFILE);
	int B = h_spawn(h, "B", 1000);
	(void)B;
	assert_int_equal(h_do(h, A, C_PIDFD_OPEN(h_pid(h, B))), -VE_MFILE);
	/* the failed dup did not keep its reference */
	assert_int_equal(h_count(h, A, 3), 1 + (VFS_NR_OPEN - 5));
	/* one close, one open */
	assert_int_equal(h_do(h, A, C_CLOSE(700)), 0);
	assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY)), 700);
	h_free(h);
}

static void test_enosys(void **state)
{
	(void)state;
	static const char *const old[] = { "v3.13", "v4.6", "v4.7" };
	for (int i = 0; i < 3; i++) {
		int A;
		struct h *h = world(old[i], &A);
		int B = h_spawn(h, "B", 1000);
		assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), -VE_NOSYS);
		assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 3)), -VE_NOSYS);
		h_free(h);
	}
	/* and v5.6 has them */
	int A;
	struct h *h = world("v5.6", &A);
	int B = h_spawn(h, "B", 1000);
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
	h_free(h);
}

static void test_einval(void **state)
{
	(void)state;
	int A;
	struct h *h = world("v6.5", &A);
	assert_int_equal(h_do(h, A, C_LSEEK(4, 0, 3)), -VE_INVAL);    /* whence */
	assert_int_equal(h_do(h, A, C_LSEEK(4, 0, -1)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_LSEEK(4, -1, VSEEK_SET)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_LSEEK(4, -1, VSEEK_CUR)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_LSEEK(4, -1, VSEEK_END)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_LSEEK(3, -1, VSEEK_SET)), -VE_INVAL);
	/* nothing moved */
	assert_int_equal(h->w->files[h_file(h, A, 4)].f_pos, 0);
	assert_int_equal(h_do(h, A, C_LSEEK(4, 5, VSEEK_SET)), 5);
	assert_int_equal(h_do(h, A, C_LSEEK(4, -6, VSEEK_CUR)), -VE_INVAL);
	assert_int_equal(h->w->files[h_file(h, A, 4)].f_pos, 5);
	/* getdents with no room for one entry */
	assert_int_equal(h_do(h, A, C_GETDENTS(3, 0)), -VE_INVAL);
	/* rmdir of "." */
	assert_int_equal(h_do(h, A, C_RMDIR("/d/.")), -VE_INVAL);
	h_free(h);
}

static void test_esrch(void **state)
{
	(void)state;
	int A;
	struct h *h = world("v6.5", &A);
	assert_int_equal(h_do(h, A, C_PIDFD_OPEN(9999)), -VE_SRCH);
	assert_int_equal(h_do(h, A, C_PIDFD_OPEN(0)), -VE_INVAL); /* pid <= 0 */
	assert_int_equal(h_do(h, A, C_PIDFD_OPEN(-1)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_PIDFD_OPEN(h_pid(h, A))), 5);
	h_free(h);
}

static void test_eexist_enotempty(void **state)
{
	(void)state;
	int A;
	struct h *h = world("v6.5", &A);
	assert_int_equal(h_do(h, A, C_MKDIR("/d")), -VE_EXIST);
	assert_int_equal(h_do(h, A, C_MKDIR("/d/a")), -VE_EXIST);
	assert_int_equal(h_do(h, A, C_MKDIR("/d/n")), 0);
	assert_int_equal(h_do(h, A, C_MKDIR("/d/n")), -VE_EXIST);
	assert_int_equal(h_do(h, A, C_RMDIR("/d")), -VE_NOTEMPTY);
	assert_int_equal(h_do(h, A, C_RMDIR("/d/n")), 0);
	assert_int_equal(h_do(h, A, C_UNLINK("/d/a")), 0);
	assert_int_equal(h_do(h, A, C_UNLINK("/d/b")), 0);
	assert_int_equal(h_do(h, A, C_RMDIR("/d")), 0);
	assert_int_equal(vfs_path_lookup(h->w, "/d"), -1);
	h_free(h);
}

/* Offsets near 2^63 (issue 17): checked sums with the kernel's answers,
 * rw_verify_area and vfs_setpos (EINVAL past ext4's s_maxbytes), EFBIG for
 * a write past the data vfsim keeps. pwrite64 at LLONG_MAX used to write
 * outside the file's data. */
static void test_offsets_int64(void **state)
{
	(void)state;
	int A;
	struct h *h = world("v6.5", &A);
	const int64_t ext4_max = ((INT64_C(1) << 32) - 1) << 12;
	assert_int_equal(h_do(h, A, h_c(SYS_PWRITE, 4, 0, INT64_MAX, "xyz", NULL)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_PREAD(4, 2, INT64_MAX - 1)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_LSEEK(4, INT64_MAX, VSEEK_SET)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_LSEEK(4, 1, VSEEK_SET)), 1);
	assert_int_equal(h_do(h, A, C_LSEEK(4, INT64_MAX, VSEEK_CUR)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_LSEEK(4, INT64_MAX, VSEEK_END)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_LSEEK(4, ext4_max, VSEEK_SET)), ext4_max);
	assert_int_equal(h_do(h, A, C_WRITE(4, "x")), -VE_FBIG);
	/* a write of nothing there extends nothing */
	assert_int_equal(h_do(h, A, C_WRITE(4, "")), 0);
	assert_int_equal(h_do(h, A, C_LSEEK(4, -1, VSEEK_END)), -VE_INVAL);
	assert_string_equal(vfs_errno_name(VE_FBIG), "EFBIG");
	assert_string_equal(vfs_errno_name(VE_OVERFLOW), "EOVERFLOW");
	assert_int_equal(vfs_errno_lookup("EFBIG"), VE_FBIG);
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ebadf),
		cmocka_unit_test(test_enotdir),
		cmocka_unit_test(test_eisdir),
		cmocka_unit_test(test_enoent),
		cmocka_unit_test(test_eperm),
		cmocka_unit_test(test_emfile),
		cmocka_unit_test(test_enosys),
		cmocka_unit_test(test_einval),
		cmocka_unit_test(test_esrch),
		cmocka_unit_test(test_eexist_enotempty),
		cmocka_unit_test(test_offsets_int64),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
