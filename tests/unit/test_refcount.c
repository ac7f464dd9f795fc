/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_refcount.c - f_count after open, dup, dup2 over an open fd, fork,
 * clone, pidfd_getfd, close and exit (kernel-reference.md sections 1-3),
 * and the light lookup of __fget_light: no reference in a single-threaded
 * process, a real one (taken and dropped) in a thread sharing the table.
 */
#include "harness.h"

static int fcount(struct h *h, int file)
{
	return h->w->files[file].kind == FK_NONE ? 0 : h->w->files[file].f_count;
}

static void test_counts(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	h_touch(h, "/f");
	h_touch(h, "/g");
	int A = h_spawn(h, "A", 1000);

	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	int d = h_file(h, A, 3);
	assert_int_equal(fcount(h, d), 1);
	assert_int_equal(h->w->files[d].id, 1);

	assert_int_equal(h_do(h, A, C_DUP(3)), 4);
	assert_int_equal(h_file(h, A, 4), d);
	assert_int_equal(fcount(h, d), 2);

	/* dup2 over an open fd: the new target +1, the old one -1 */
	assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY)), 5);
	int f = h_file(h, A, 5);
	assert_int_equal(h_do(h, A, C_DUP(5)), 6);
	assert_int_equal(fcount(h, f), 2);
	assert_int_equal(h_do(h, A, C_DUP2(3, 6)), 6);
	assert_int_equal(fcount(h, d), 3);
	assert_int_equal(fcount(h, f), 1);
	assert_int_equal(h_file(h, A, 6), d);
	/* dup2 onto itself changes nothing */
	assert_int_equal(h_do(h, A, C_DUP2(3, 3)), 3);
	assert_int_equal(fcount(h, d), 3);
	/* dup2 over the last reference frees it */
	assert_int_equal(h_do(h, A, C_DUP2(3, 5)), 5);
	assert_int_equal(fcount(h, d), 4);
	assert_int_equal(fcount(h, f), 0);
	assert_int_equal(h->w->files[f].kind, FK_NONE);
	/* close */
	assert_int_equal(h_do(h, A, C_CLOSE(5)), 0);
	assert_int_equal(h_do(h, A, C_CLOSE(6)), 0);
	assert_int_equal(fcount(h, d), 2);

	/* clone: the fd table is shared, no file count changes */
	int fdt = h->w->procs[h->w->threads[A].proc].fdt;
	assert_int_equal(h->w->fdt[fdt].count, 1);
	assert_true(h_do(h, A, C_CLONE()) > 0);
	assert_int_equal(fcount(h, d), 2);
	assert_int_equal(h->w->fdt[fdt].count, 2);
	int A2 = h_tid(h, "A.2");
	assert_int_equal(h->w->procs[h->w->threads[A2].proc].fdt, fdt);

	/* fork: one more reference per open fd (3 and 4 both -> d) */
	assert_int_equal(h_do(h, A, C_OPEN("/g", VO_RDONLY)), 5);
	int g = h_file(h, A, 5);
	int64_t cpid = h_do(h, A, C_FORK("C"));
	assert_int_equal(cpid, h->w->next_pid - 1);
	assert_int_equal(fcount(h, d), 4);
	assert_int_equal(fcount(h, g), 2);
	int C = h_tid(h, "C");
	assert_int_equal(h_file(h, C, 3), d);
	assert_int_equal(h_file(h, C, 5), g);

	/* pidfd_getfd: a real reference, installed with O_CLOEXEC */
	int B = h_spawn(h, "B", 1000);
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
	int pf = h_file(h, B, 3);
	assert_int_equal(fcount(h, pf), 1);
	assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 5)), 4);
	assert_int_equal(h_file(h, B, 4), g);
	assert_int_equal(fcount(h, g), 3);
	int bt = h->w->procs[h->w->threads[B].proc].fdt;
	bool cloexec = false;
	assert_int_equal(vfs_fd_slot(h->w, bt, 4, &cloexec), g);
	assert_true(cloexec);
	cloexec = false;
	assert_int_equal(vfs_fd_slot(h->w, bt, 3, &cloexec), pf);
	assert_true(cloexec);           /* pidfd_create: always O_CLOEXEC */
	assert_int_equal(vfs_fd_slot(h->w, bt, 0, &cloexec), VFD_STDIO);
	assert_false(cloexec);

	/* exit of the forked child: all its references dropped */
	assert_int_equal(h_do(h, C, C_EXIT()), 0);
	assert_int_equal(fcount(h, d), 2);
	assert_int_equal(fcount(h, g), 2);
	assert_int_equal(h->w->threads[C].state, TS_DEAD);

	/* one thread of A exits: the table is still used by the other */
	assert_int_equal(h_do(h, A2, C_EXIT()), 0);
	assert_int_equal(h->w->fdt[fdt].count, 1);
	assert_int_equal(fcount(h, d), 2);
	/* the last one: A's references go, B's stays */
	assert_int_equal(h_do(h, A, C_EXIT()), 0);
	assert_int_equal(fcount(h, d), 0);
	assert_int_equal(h->w->files[d].kind, FK_NONE);
	assert_int_equal(fcount(h, g), 1);
	/* B exits: the pidfd and the stolen file are freed */
	assert_int_equal(h_do(h, B, C_EXIT()), 0);
	assert_int_equal(fcount(h, g), 0);
	assert_int_equal(fcount(h, pf), 0);
	h_free(h);
}

/* f_count writes (OP_WRITE of FLD_F_COUNT) of TID since MARK, values in V */
static int count_writes(struct h *h, size_t mark, int tid, int64_t *v, int max)
{
	int n = 0;
	for (size_t i = mark; i < h->log.n; i++) {
		const struct vfs_event *e = &h->log.ev[i];
		if (e->tid == tid && e->op == OP_WRITE && e->field == FLD_F_COUNT) {
			if (n < max)
				v[n] = e->value;
			n++;
		}
	}
	return n;
}

static void test_light_lookup(void **state)
{
	(void)state;
	static const int sys[] = { SYS_GETDENTS, SYS_LSEEK, SYS_READ };
	for (size_t k = 0; k < 3; k++) {
		struct h *h = h_new("v6.4");
		h_mkdir(h, "/d");
		h_touch(h, "/d/a");
		int A = h_spawn(h, "A", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
		struct hcall c = h_c(sys[k], 3, 10, 0, NULL, NULL);
		if (sys[k] == SYS_LSEEK)
			c = C_LSEEK(3, 0, VSEEK_SET);
		int64_t v[8];

		/* single-threaded: __fget_light borrows, no f_count write */
		size_t mark = h_mark(h);
		h_do(h, A, c);
		assert_int_equal(count_writes(h, mark, A, v, 8), 0);
		assert_int_equal(h_count(h, A, 3), 1);
		/* ... and with one reference v6.4 skips the f_pos lock */
		assert_int_equal(h_nev(h, mark, A, OP_SKIP, LC_F_POS_LOCK), 1);

		/* in a clone thread: a real reference, 1 -> 2 -> 1 */
		assert_true(h_do(h, A, C_CLONE()) > 0);
		int A2 = h_tid(h, "A.2");
		mark = h_mark(h);
		h_do(h, A2, c);
		assert_int_equal(count_writes(h, mark, A2, v, 8), 2);
		assert_int_equal(v[0], 2);
		assert_int_equal(v[1], 1);
		assert_int_equal(h_count(h, A, 3), 1);
		/* count 2 at the check: the f_pos lock is taken */
		assert_int_equal(h_nev(h, mark, A2, OP_ACQUIRE, LC_F_POS_LOCK), 1);
		/* the first thread, now sharing its table, takes one too */
		mark = h_mark(h);
		h_do(h, A, c);
		assert_int_equal(count_writes(h, mark, A, v, 8), 2);
		h_free(h);
	}
}

/* pread takes a plain fdget: no f_pos lock, even with two references */
static void test_pread_fdget(void **state)
{
	(void)state;
	struct h *h = h_new("20ea1e7d13c1");
	h_touch(h, "/f");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, A, C_DUP(3)), 4);
	size_t mark = h_mark(h);
	assert_int_equal(h_do(h, A, C_PREAD(3, 4, 0)), 0);
	assert_int_equal(h_nev(h, mark, A, OP_ACQUIRE, LC_F_POS_LOCK), 0);
	assert_int_equal(h_nev(h, mark, A, OP_SKIP, LC_F_POS_LOCK), 0);
	/* while read always locks under 20ea1e7d13c1 */
	assert_int_equal(h_do(h, A, C_CLOSE(4)), 0);
	mark = h_mark(h);
	assert_int_equal(h_do(h, A, C_READ(3, 4)), 0);
	assert_int_equal(h_nev(h, mark, A, OP_ACQUIRE, LC_F_POS_LOCK), 1);
	h_free(h);
}

/* dup2 onto a descriptor that an open in another thread has reserved but
 * not installed yet: the kernel's do_dup2 says EBUSY (fd_is_open, no
 * file) - also when that open asked for O_CLOEXEC. */
static void test_dup2_onto_reserved(void **state)
{
	(void)state;
	for (int cloexec = 0; cloexec < 2; cloexec++) {
		struct h *h = h_new("v6.5");
		h_mkdir(h, "/d");
		h_touch(h, "/f");
		int A = h_spawn(h, "A", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY)), 3);
		assert_true(h_do(h, A, C_CLONE()) > 0);
		int A2 = h_tid(h, "A.2");
		h_submit(h, A2, C_OPEN("/d", VO_RDONLY | (cloexec ? VO_CLOEXEC : 0)));
		h_until(h, A2, VFN_do_dentry_open);     /* fd 4 reserved */
		int f = h_file(h, A, 3);
		assert_int_equal(h_do(h, A, C_DUP2(3, 4)), -VE_BUSY);
		assert_int_equal(h->w->files[f].f_count, 1);
		assert_int_equal(h_finish(h, A2), 4);
		assert_int_equal(h_file(h, A, 4), h_file(h, A2, 4));
		assert_true(h_file(h, A, 4) != f);
		assert_int_equal(h->w->files[f].f_count, 1);
		h_free(h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_light_lookup),
		cmocka_unit_test(test_pread_fdget),
		cmocka_unit_test(test_dup2_onto_reserved),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
