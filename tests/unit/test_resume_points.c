/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_resume_points.c - the kernel paths as one C function per kernel
 * function (issue 14): the table of resume points (core/internal.h's
 * VFS_RP_LIST) names each one "function:step" once, every step runs in
 * the C function its name says, a getdents64 walks iterate_dir's steps
 * in fs/readdir.c's order, and rmdir and rename walk do_rmdir's and
 * do_renameat2's in fs/namei.c's; every trace event names the step it
 * happened in as `where` named it (vfs_event_point), a woken thread's
 * the step it blocked in.
 */
#include "harness.h"
#include "internal.h"

/* Every resume point: a "function:step" name, unique, whose function is
 * the C function that runs it; a kernel function or a resolver. */
static void test_table(void **state)
{
	(void)state;
	for (int i = 0; i < RP__COUNT; i++) {
		const struct vfs_rp_desc *d = &vfs_rps[i];
		const char *colon = strchr(d->name, ':');
		assert_non_null(colon);
		assert_non_null(d->run);
		assert_true(colon[1] != 0);
		assert_true(d->resolve || d->fn != VFN_none || i == RP_IDLE ||
			    i == RP(do_syscall_64, exit));
		for (int j = 0; j < i; j++) {
			assert_string_not_equal(d->name, vfs_rps[j].name);
			/* one function's points are together in the list */
			if (vfs_rps[j].run == d->run)
				assert_ptr_equal(vfs_rps[i - 1].run, d->run);
		}
	}
	assert_string_equal(vfs_rps[RP_IDLE].name, "do_syscall_64:idle");
	assert_string_equal(vfs_rps[RP(iterate_dir, lock)].name,
			    "iterate_dir:lock");
	assert_ptr_equal(vfs_rps[RP(iterate_dir, lock)].run, iterate_dir);
	assert_ptr_equal(vfs_rps[RP(wrap_directory_iterator, up_read)].run,
			 wrap_directory_iterator);
}

/* Step thread TID until its call ends, noting where each step resumes. */
static int walk(struct h *h, int tid, const char **names, int max)
{
	int n = 0;
	names[n++] = vfs_resume_point_name(h->w, tid);
	while (vfs_has_work(h->w, tid) && n < max) {
		vfs_step(h->w, tid, NULL);
		names[n++] = vfs_resume_point_name(h->w, tid);
	}
	return n;
}

static void expect_walk(const char **got, int n, const char *const *want)
{
	int i = 0;
	if (getenv("SHOW_WALK"))
		for (int k = 0; k < n; k++)
			printf("# %s\n", got[k]);
	for (; want[i]; i++) {
		if (i >= n)
			fail_msg("step %d: ended, expected %s", i, want[i]);
		if (strcmp(got[i], want[i]))
			fail_msg("step %d: %s, expected %s", i, got[i], want[i]);
	}
	assert_int_equal(n, i);
}

/* getdents64 on v6.4 (ext4: ->iterate_shared, no wrapper) and on v6.5
 * over a filesystem the wrapper serves (ceph has only ->iterate): the
 * steps of fdget_pos, iterate_dir (and wrap_directory_iterator) and
 * fdput_pos, in the kernel's order. */
static void test_getdents_walk(void **state)
{
	(void)state;
	/* v6.4: a directory open once, file_count 1: no f_pos_lock */
	static const char *const shared[] = {
		"do_syscall_64:idle", "fdget_pos:enter",
		"fdget_pos:needs_f_pos_lock", "iterate_dir:enter", "iterate_dir:lock",
		"iterate_dir:deaddir", "iterate_dir:iterate",
		"iterate_dir:set_pos", "iterate_dir:unlock",
		"fdput_pos:unlock", "do_syscall_64:idle", NULL };
	/* v6.5: a directory with ->iterate_shared (the wrapper's) takes
	 * f_pos_lock whatever its count (file_needs_f_pos_lock) */
	static const char *const wrapped[] = {
		"do_syscall_64:idle", "fdget_pos:enter",
		"fdget_pos:needs_f_pos_lock", "fdget_pos:lock",
		"iterate_dir:enter", "iterate_dir:lock",
		"iterate_dir:deaddir", "wrap_directory_iterator:enter",
		"wrap_directory_iterator:up_read",
		"wrap_directory_iterator:down_write",
		"wrap_directory_iterator:deaddir", "iterate_dir:iterate",
		"wrap_directory_iterator:downgrade", "iterate_dir:set_pos",
		"iterate_dir:unlock", "fdput_pos:unlock", "do_syscall_64:idle",
		NULL };
	const char *got[64];

	struct h *h = h_new("v6.4");
	h_mkdir(h, "/d");
	int t = h_spawn(h, "A", 0);
	int fd = (int)h_do(h, t, C_OPEN("/d", VO_RDONLY));
	assert_true(fd >= 0);
	h_submit(h, t, C_GETDENTS(fd, -1));
	expect_walk(got, walk(h, t, got, 64), shared);
	h_free(h);

	h = h_new("v6.5");
	h_mount(h, "ceph", "/c");
	t = h_spawn(h, "A", 0);
	fd = (int)h_do(h, t, C_OPEN("/c", VO_RDONLY));
	assert_true(fd >= 0);
	h_submit(h, t, C_GETDENTS(fd, -1));
	expect_walk(got, walk(h, t, got, 64), wrapped);
	h_free(h);
}

/* rmdir and a cross-directory rename of a file over another: each
 * call's own kernel function, its steps in fs/namei.c's order (the
 * parents locked, the lookup, the victims, the change, the unlocks) */
static void test_namei_walk(void **state)
{
	(void)state;
	static const char *const rmdir[] = {
		"do_syscall_64:idle", "do_rmdir:parentat", "do_rmdir:lock_parent",
		"do_rmdir:lookup", "do_rmdir:vfs_rmdir", "do_rmdir:lock_victim",
		"do_rmdir:rmdir", "do_rmdir:unlock_victim", "do_rmdir:unlock_parent",
		"do_syscall_64:idle", NULL };
	static const char *const rename[] = {
		"do_syscall_64:idle", "do_renameat2:parentat",
		"do_renameat2:rename_mutex", "do_renameat2:lock_parent",
		"do_renameat2:lock_parent2", "do_renameat2:lookup",
		"do_renameat2:vfs_rename", "do_renameat2:lock_victim",
		"do_renameat2:lock_victim2", "do_renameat2:rename",
		"do_renameat2:unlock_victim2", "do_renameat2:unlock_victim",
		"do_renameat2:unlock_parent", "do_renameat2:unlock_parent2",
		"do_renameat2:rename_mutex_unlock", "do_syscall_64:idle", NULL };
	const char *got[64];

	struct h *h = h_new("mainline");
	h_mkdir(h, "/a");
	h_mkdir(h, "/b");
	h_mkdir(h, "/a/e");
	h_touch(h, "/a/x");
	h_touch(h, "/b/y");
	int t = h_spawn(h, "A", 0);
	h_submit(h, t, C_RMDIR("/a/e"));
	expect_walk(got, walk(h, t, got, 64), rmdir);
	assert_int_equal(h->w->threads[t].rec.ret, 0);
	h_submit(h, t, C_RENAME("/a/x", "/b/y"));
	expect_walk(got, walk(h, t, got, 64), rename);
	assert_int_equal(h->w->threads[t].rec.ret, 0);
	assert_true(vfs_path_lookup(h->w, "/b/y") >= 0);
	assert_int_equal(vfs_path_lookup(h->w, "/a/x"), -1);
	h_free(h);
}

/* Every resume point of every built-in kernel function: the name an
 * event made in its step shows (vfs_event_point) is the one `where`
 * gives a thread resuming there (one table), "function:step" of the C
 * function that runs it; past the table: "?". */
static void test_point_names(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int t = h_spawn(h, "A", 0);
	struct vfs_thread *th = &h->w->threads[t];
	for (int i = 0; i < RP__COUNT; i++) {
		struct vfs_event ev = { .rp = (uint8_t)i };
		const char *name = vfs_event_point(h->w, &ev);
		th->f.pc = (uint16_t)i;
		assert_string_equal(name, vfs_resume_point_name(h->w, t));
		const char *colon = strchr(name, ':');
		assert_non_null(colon);
		assert_true(colon > name && colon[1]);
		for (int j = 0; j < RP__COUNT; j++)     /* its C function's */
			if (vfs_rps[j].run == vfs_rps[i].run)
				assert_memory_equal(vfs_rps[j].name, name,
						    (size_t)(colon - name + 1));
	}
	th->f.pc = RP_IDLE;
	if (RP__COUNT < 256) {
		struct vfs_event past = { .rp = (uint8_t)RP__COUNT };
		assert_string_equal(vfs_event_point(h->w, &past), "?");
	}
	h_free(h);
}

/* Step TID to the end of its call: each event of each step carries the
 * name `where` gave before it (a call's first step, between calls
 * "do_syscall_64:idle": do_syscall_64:enter), or, once the step returned
 * to a point that runs in the step returning to it (do_syscall_64:exit),
 * that point's; the number of events of kernel function FN whose point
 * is AT, *ELSEWHERE of those at other points. */
static int walk_points(struct h *h, int tid, const char *at, int fn,
		       int *elsewhere)
{
	int n = 0;
	*elsewhere = 0;
	while (vfs_has_work(h->w, tid)) {
		char want[64];
		snprintf(want, sizeof want, "%s", vfs_resume_point_name(h->w, tid));
		if (!strcmp(want, "do_syscall_64:idle"))
			snprintf(want, sizeof want, "do_syscall_64:enter");
		size_t mark = h_mark(h);
		h_step(h, tid);
		for (size_t i = mark; i < h->log.n; i++) {
			const struct vfs_event *e = &h->log.ev[i];
			if (vfs_rps[e->rp].inline_ret)
				snprintf(want, sizeof want, "%s", vfs_event_point(h->w, e));
			if (strcmp(vfs_event_point(h->w, e), want))
				fail_msg("event %zu (%s %s): at %s, in the step of %s", i,
					 vfs_fn_name(e->fn), vfs_op_name(e->op),
					 vfs_event_point(h->w, e), want);
			n += e->fn == fn && !strcmp(want, at);
			*elsewhere += e->fn == fn && strcmp(want, at);
		}
	}
	return n;
}

/* A getdents64 under v6.5, native (ext4) and wrapped (ceph): the
 * iterator entered in iterate_dir:iterate, the wrapper's locks in its
 * own steps; a thread that slept on f_pos_lock wakes holding it in the
 * step it blocked in, fdget_pos:lock, and resumes at fdget_pos:locked. */
static void test_event_points(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	h_mount(h, "ceph", "/c");
	int a = h_spawn(h, "A", 0), other;
	int fd = (int)h_do(h, a, C_OPEN("/d", VO_RDONLY));
	h_submit(h, a, C_GETDENTS(fd, -1));
	/* enter, dir and cursor read, "." and "..", cursor written, exit */
	assert_int_equal(walk_points(h, a, "iterate_dir:iterate",
				     VFN_ext4_readdir, &other), 7);
	assert_int_equal(other, 0);
	int cfd = (int)h_do(h, a, C_OPEN("/c", VO_RDONLY));
	h_submit(h, a, C_GETDENTS(cfd, -1));
	assert_true(walk_points(h, a, "iterate_dir:iterate", VFN_ceph_readdir,
				&other) >= 2);
	assert_int_equal(other, 0);
	h_submit(h, a, C_GETDENTS(cfd, -1));
	assert_int_equal(walk_points(h, a, "wrap_directory_iterator:down_write",
				     VFN_down_write, &other), 1);
	assert_int_equal(other, 0);

	/* A and its clone A.2 list /d through one file: A.2 sleeps */
	assert_true(h_do(h, a, C_CLONE()) > 0);
	int a2 = h_tid(h, "A.2");
	h_submit(h, a, C_GETDENTS(fd, -1));
	h_until(h, a, VFN_iterate_dir);
	h_submit(h, a2, C_GETDENTS(fd, -1));
	assert_int_equal(h_finish(h, a2), H_BLOCKED);
	assert_string_equal(vfs_resume_point_name(h->w, a2), "fdget_pos:locked");
	size_t mark = h_mark(h);
	h_finish(h, a);
	int woken = 0;
	for (size_t i = mark; i < h->log.n; i++) {
		const struct vfs_event *e = &h->log.ev[i];
		if (e->tid == a2) {
			assert_true(e->op == OP_WAKE || e->op == OP_ACQUIRE);
			assert_int_equal(e->cls, LC_F_POS_LOCK);
			assert_string_equal(vfs_event_point(h->w, e), "fdget_pos:lock");
			woken++;
		} else if (e->op == OP_RELEASE && e->cls == LC_F_POS_LOCK) {
			assert_string_equal(vfs_event_point(h->w, e), "fdput_pos:unlock");
		}
	}
	assert_int_equal(woken, 2);
	assert_int_equal(walk_points(h, a2, "fdget_pos:locked", VFN_fdget_pos,
				     &other), 1);
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_getdents_walk),
		cmocka_unit_test(test_namei_walk),
		cmocka_unit_test(test_point_names),
		cmocka_unit_test(test_event_points),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
