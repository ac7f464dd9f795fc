/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_locking.c - the wait queues of kernel/locking (kernel-reference.md
 * section 8), driven through real kernel paths:
 *   rw_semaphore: a waiting writer holds back new readers (FIFO); a
 *   writer at the head is woken alone; a writer's release wakes all the
 *   queued readers together; downgrade_write wakes the readers at the head;
 *   mutex: FIFO, and the lock is handed to the first waiter (no stealing);
 *   pidfd_getfd's lock on the target (kernel/pid.c __pidfd_fget), per era:
 *   cred_guard_mutex (v5.6), exec_update_mutex (v5.10), exec_update_lock
 *   read (v6.5), held around ptrace_may_access and fget_task and released
 *   before receive_fd installs the file.
 */
#include "harness.h"

static const struct vfs_lock *ilock(struct h *h, const char *path)
{
	return &h->w->ilocks[vfs_path_lookup(h->w, path)];
}

/* Threads woken (OP_WAKE) since MARK, as a bit mask, all in one step? */
static unsigned woken(struct h *h, size_t mark, int *nsteps)
{
	unsigned m = 0;
	int32_t last = -1;
	*nsteps = 0;
	for (size_t i = mark; i < h->log.n; i++) {
		const struct vfs_event *e = &h->log.ev[i];
		if (e->op != OP_WAKE)
			continue;
		m |= 1u << e->tid;
		if (e->step != last) {
			(*nsteps)++;
			last = e->step;
		}
	}
	return m;
}

static void test_rwsem_fifo(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	h_touch(h, "/d/a");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	int C = h_spawn(h, "C", 0), D = h_spawn(h, "D", 0);
	int E = h_spawn(h, "E", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, C, C_OPEN("/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, D, C_OPEN("/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, E, C_OPEN("/d", VO_RDONLY)), 3);
	const struct vfs_lock *l = ilock(h, "/d");
	vfs_lid_t lid = VFS_LID(LID_INODE, vfs_path_lookup(h->w, "/d"));

	/* a reader holds */
	h_submit(h, A, C_GETDENTS(3, 10));
	h_until(h, A, VFN_ext4_readdir);
	assert_int_equal(l->nreaders, 1);
	assert_int_equal(l->owner, -1);

	/* with nobody waiting, a second reader gets in at once */
	size_t mark = h_mark(h);
	h_submit(h, E, C_GETDENTS(3, 10));
	h_until(h, E, VFN_ext4_readdir);
	assert_int_equal(l->nreaders, 2);
	assert_int_equal(h_nev(h, mark, E, OP_BLOCK, LC_NONE), 0);
	assert_int_equal(h_finish(h, E), 3);
	assert_int_equal(l->nreaders, 1);

	/* a writer waits for the reader */
	mark = h_mark(h);
	assert_true(h_do(h, B, C_MKDIR("/d/x")) == H_BLOCKED);
	assert_int_equal(h->w->threads[B].wait_lock, lid);
	assert_int_equal(h->w->threads[B].wait_mode, M_WRITE);
	assert_int_equal(h_nev(h, mark, B, OP_BLOCK, LC_I_RWSEM_DIR), 1);
	for (size_t i = mark; i < h->log.n; i++)
		if (h->log.ev[i].op == OP_BLOCK)
			assert_int_equal(h->log.ev[i].other, A);  /* held by A */

	/* a new reader queues behind the writer, although only a reader
	 * holds the lock */
	assert_true(h_do(h, C, C_GETDENTS(3, 10)) == H_BLOCKED);
	assert_true(h_do(h, D, C_GETDENTS(3, 10)) == H_BLOCKED);
	assert_int_equal(l->nreaders, 1);
	assert_int_equal(h->w->threads[C].wait_mode, M_READ);
	assert_int_equal(l->wait_head, B);
	assert_int_equal(h->w->threads[B].wait_next, C);
	assert_int_equal(h->w->threads[C].wait_next, D);
	assert_int_equal(l->wait_tail, D);

	/* the reader's release wakes the writer alone, holding the lock */
	mark = h_mark(h);
	assert_int_equal(h_finish(h, A), 3);
	int nsteps;
	assert_int_equal(woken(h, mark, &nsteps), 1u << B);
	assert_int_equal(l->owner, B);
	assert_int_equal(l->nreaders, 0);
	assert_int_equal(h->w->threads[B].state, TS_RUNNING);
	assert_int_equal(h->w->threads[C].state, TS_BLOCKED);
	assert_int_equal(h->w->threads[D].state, TS_BLOCKED);
	assert_false(vfs_runnable(h->w, C));

	/* the writer's release wakes both queued readers, in one step */
	mark = h_mark(h);
	assert_int_equal(h_finish(h, B), 0);
	assert_int_equal(woken(h, mark, &nsteps), (1u << C) | (1u << D));
	assert_int_equal(nsteps, 1);
	assert_int_equal(l->nreaders, 2);
	assert_int_equal(l->owner, -1);
	assert_int_equal(l->wait_head, -1);
	assert_int_equal(h_finish(h, C), 4);    /* . .. a x */
	assert_int_equal(h_finish(h, D), 4);
	assert_int_equal(l->nreaders, 0);
	h_free(h);
}

static void test_rwsem_downgrade(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_mount(h, "exfat", "/x");
	h_touch(h, "/x/a");
	int A = h_spawn(h, "A", 0), C = h_spawn(h, "C", 0);
	int D = h_spawn(h, "D", 0), E = h_spawn(h, "E", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/x", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, C, C_OPEN("/x", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, D, C_OPEN("/x", VO_RDONLY)), 3);
	const struct vfs_lock *l = ilock(h, "/x");

	/* A inside the wrapper, holding the lock for writing */
	h_submit(h, A, C_GETDENTS(3, 10));
	h_until(h, A, VFN_exfat_iterate);
	assert_int_equal(l->owner, A);
	/* two readers, then a writer, queue */
	assert_true(h_do(h, C, C_GETDENTS(3, 10)) == H_BLOCKED);
	assert_true(h_do(h, D, C_GETDENTS(3, 10)) == H_BLOCKED);
	assert_true(h_do(h, E, C_MKDIR("/x/n")) == H_BLOCKED);

	/* downgrade_write: A keeps it for reading, the readers at the head
	 * come in with it, the writer behind them keeps waiting */
	h_until(h, A, VFN_downgrade_write);
	size_t mark = h_mark(h);
	h_step(h, A);
	assert_int_equal(h_nev(h, mark, A, OP_DOWNGRADE, LC_I_RWSEM_DIR), 1);
	int nsteps;
	assert_int_equal(woken(h, mark, &nsteps), (1u << C) | (1u << D));
	assert_int_equal(l->owner, -1);
	assert_int_equal(l->nreaders, 3);
	assert_int_equal(h->w->threads[E].state, TS_BLOCKED);
	assert_int_equal(l->wait_head, E);

	/* everybody completes: no lost wake-up, no deadlock */
	h_run(h, 10000);
	assert_int_equal(h->w->threads[A].rec.ret, 3);
	/* C and D went on in the wrapper: up_read, then down_write queued
	 * behind E's mkdir, so their exfat_iterate sees "n" */
	assert_int_equal(h->w->threads[C].rec.ret, 4);
	assert_int_equal(h->w->threads[D].rec.ret, 4);
	assert_int_equal(h->w->threads[E].rec.ret, 0);
	assert_int_equal(l->owner, -1);
	assert_int_equal(l->nreaders, 0);
	assert_int_equal(l->wait_head, -1);
	assert_int_equal(vfs_report_count(h->w, DK_DEADLOCK, 0), 0);
	h_free(h);
}

static void test_mutex_handoff(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	h_touch(h, "/d/a");
	h_touch(h, "/d/b");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	for (int i = 0; i < 3; i++)
		assert_true(h_do(h, A, C_CLONE()) > 0);
	int A2 = h_tid(h, "A.2"), A3 = h_tid(h, "A.3"), A4 = h_tid(h, "A.4");
	int file = h_file(h, A, 3);
	const struct vfs_lock *l = &h->w->files[file].f_pos_lock;

	h_submit(h, A, C_GETDENTS(3, 1));
	h_until(h, A, VFN_ext4_readdir);
	assert_int_equal(l->owner, A);
	assert_true(h_do(h, A2, C_GETDENTS(3, 1)) == H_BLOCKED);
	assert_true(h_do(h, A3, C_GETDENTS(3, 1)) == H_BLOCKED);
	assert_int_equal(h->w->threads[A2].wait_lock, VFS_LID(LID_FILE_POS, file));
	assert_int_equal(l->wait_head, A2);
	assert_int_equal(l->wait_tail, A3);

	/* the release hands the mutex to the first waiter */
	assert_int_equal(h_finish(h, A), 1);
	assert_int_equal(l->owner, A2);
	assert_int_equal(h->w->threads[A2].state, TS_RUNNING);
	assert_int_equal(h->w->threads[A3].state, TS_BLOCKED);
	/* a newcomer cannot steal it before A.2 runs */
	assert_true(h_do(h, A4, C_GETDENTS(3, 1)) == H_BLOCKED);
	assert_int_equal(l->wait_tail, A4);

	/* in order: each one continues where the previous left f_pos */
	char buf[64];
	assert_int_equal(h_finish(h, A2), 1);
	h_entries(h, A2, buf, sizeof buf);
	assert_string_equal(buf, "..");
	assert_int_equal(l->owner, A3);
	assert_int_equal(h_finish(h, A3), 1);
	h_entries(h, A3, buf, sizeof buf);
	assert_string_equal(buf, "a");
	assert_int_equal(l->owner, A4);
	assert_int_equal(h_finish(h, A4), 1);
	h_entries(h, A4, buf, sizeof buf);
	assert_string_equal(buf, "b");
	assert_int_equal(l->owner, -1);
	assert_int_equal(l->wait_head, -1);
	assert_int_equal(vfs_report_count(h->w, DK_DUPLICATE, 0), 0);
	assert_int_equal(vfs_report_count(h->w, DK_RACE, 0), 0);
	h_free(h);
}

/* Index in the log (from MARK) of TID's first event OP in FN, or -1. */
static long ev_at(struct h *h, size_t mark, int tid, int op, int fn)
{
	for (size_t i = mark; i < h->log.n; i++) {
		const struct vfs_event *e = &h->log.ev[i];
		if (e->tid == tid && e->op == op && e->fn == fn)
			return (long)i;
	}
	return -1;
}

static const struct {
	const char *preset;
	int cls, lock_fn, unlock_fn;
	bool shared;            /* a rwsem taken for reading */
} exec_eras[] = {
	{ "v5.6",  LC_CRED_GUARD_MUTEX, VFN_mutex_lock_killable,
	  VFN_mutex_unlock, false },
	{ "v5.10", LC_EXEC_UPDATE_MUTEX, VFN_mutex_lock_killable,
	  VFN_mutex_unlock, false },
	{ "v6.5",  LC_EXEC_UPDATE_LOCK, VFN_down_read_killable,
	  VFN_up_read, true },
};

static void test_exec_update_lock(void **state)
{
	(void)state;
	for (size_t k = 0; k < sizeof exec_eras / sizeof exec_eras[0]; k++) {
		const char *pre = exec_eras[k].preset;
		int cls = exec_eras[k].cls;
		struct h *h = h_new(pre);
		h_touch(h, "/f");
		int A = h_spawn(h, "A", 1000), B = h_spawn(h, "B", 0);
		int C = h_spawn(h, "C", 0), D = h_spawn(h, "D", 2000);
		assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY)), 3);
		assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
		assert_int_equal(h_do(h, C, C_PIDFD_OPEN(h_pid(h, A))), 3);
		assert_int_equal(h_do(h, D, C_PIDFD_OPEN(h_pid(h, A))), 3);
		int pa = h->w->threads[A].proc, pb = h->w->threads[B].proc;
		const struct vfs_lock *l = &h->w->procs[pa].exec_lock;
		vfs_lid_t lid = VFS_LID(LID_EXEC, pa);

		/* B holds A's lock when it checks permission and takes the
		 * file */
		size_t mark = h_mark(h);
		h_submit(h, B, C_PIDFD_GETFD(3, 3));
		h_until(h, B, VFN_ptrace_may_access);
		assert_int_equal(vfs_lock_class(h->w, lid), cls);
		assert_int_equal(h_nev(h, mark, B, OP_ACQUIRE, cls), 1);
		long acq = ev_at(h, mark, B, OP_ACQUIRE, exec_eras[k].lock_fn);
		assert_true(acq >= 0);
		assert_int_equal(h->log.ev[acq].lock, lid);
		assert_int_equal(h->log.ev[acq].mode,
				 exec_eras[k].shared ? M_READ : M_EXCL);
		if (exec_eras[k].shared)
			assert_int_equal(l->nreaders, 1);
		else
			assert_int_equal(l->owner, B);

		/* a second thief: another reader gets in; a mutex makes it
		 * wait, killably */
		h_submit(h, C, C_PIDFD_GETFD(3, 3));
		h_step(h, C);
		h_step(h, C);
		if (exec_eras[k].shared) {
			assert_int_equal(h->w->threads[C].state, TS_RUNNING);
			assert_int_equal(l->nreaders, 2);
		} else {
			assert_int_equal(h->w->threads[C].state, TS_BLOCKED);
			assert_int_equal(h->w->threads[C].wait_lock, lid);
			assert_int_equal(vfs_next_fn(h->w, C, NULL),
					 VFN_mutex_lock_killable);
		}

		/* released before receive_fd: B's new fd is not there yet */
		h_until(h, B, VFN_receive_fd);
		long getf = ev_at(h, mark, B, OP_EXIT, VFN_fget_task);
		long rel = ev_at(h, mark, B, OP_RELEASE, exec_eras[k].unlock_fn);
		assert_true(acq < getf && getf < rel);
		assert_int_equal(h->log.ev[rel].lock, lid);
		assert_int_equal(vfs_fd_file(h->w, pb, 4), -1);
		assert_int_equal(ev_at(h, mark, B, OP_ENTER, VFN_receive_fd), -1);
		if (exec_eras[k].shared)
			assert_int_equal(l->nreaders, 1);       /* C's */
		else
			assert_int_equal(l->owner, C);          /* handed over */
		assert_int_equal(h_finish(h, B), 4);
		assert_true(ev_at(h, mark, B, OP_ENTER, VFN_receive_fd) > rel);
		assert_int_equal(h_finish(h, C), 4);
		assert_int_equal(l->owner, -1);
		assert_int_equal(l->nreaders, 0);

		/* no permission: EPERM, and the lock is released all the same */
		mark = h_mark(h);
		assert_int_equal(h_do(h, D, C_PIDFD_GETFD(3, 3)), -VE_PERM);
		assert_int_equal(h_nev(h, mark, D, OP_ACQUIRE, cls), 1);
		assert_int_equal(h_nev(h, mark, D, OP_RELEASE, cls), 1);
		assert_int_equal(ev_at(h, mark, D, OP_ENTER, VFN_fget_task), -1);
		assert_int_equal(l->owner, -1);
		assert_int_equal(l->nreaders, 0);
		/* ... and a bad target fd: EBADF after the release */
		mark = h_mark(h);
		assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 9)), -VE_BADF);
		assert_int_equal(h_nev(h, mark, B, OP_RELEASE, cls), 1);
		assert_int_equal(l->nreaders, 0);
		assert_int_equal(l->owner, -1);
		h_free(h);
	}
}

/* A fatal signal ends the killable wait for the mutex: -EINTR. */
static void test_exec_mutex_killable(void **state)
{
	(void)state;
	struct h *h = h_new("v5.10");
	h_touch(h, "/f");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	int C = h_spawn(h, "C", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
	assert_int_equal(h_do(h, C, C_PIDFD_OPEN(h_pid(h, A))), 3);
	h_submit(h, B, C_PIDFD_GETFD(3, 3));
	h_until(h, B, VFN_fget_task);
	assert_true(h_do(h, C, C_PIDFD_GETFD(3, 3)) == H_BLOCKED);
	assert_int_equal(vfs_kill(h->w, h->w->threads[C].proc, &h->sink), 1);
	assert_int_equal(h->w->threads[C].rec.ret, -VE_INTR);
	const struct vfs_lock *l = &h->w->procs[h->w->threads[A].proc].exec_lock;
	assert_int_equal(l->wait_head, -1);
	assert_int_equal(l->owner, B);
	assert_int_equal(h_finish(h, B), 4);
	assert_int_equal(l->owner, -1);
	h_free(h);
}

/* What the shell's views read of the locks and of a thread (`locks`,
 * `where`, `fds`, `ps`, `expect took`) comes through accessors, which
 * must say what the layouts hold: a reader A inside ext4_readdir, a
 * writer B queued behind it, A's next call queued. */
static void test_view_accessors(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	int d = vfs_path_lookup(h->w, "/d");
	vfs_lid_t lid = VFS_LID(LID_INODE, d), fpos = vfs_file_pos_lock(h_file(h, A, 3));
	h_submit(h, A, C_GETDENTS(3, 10));
	h_until(h, A, VFN_ext4_readdir);
	assert_true(h_do(h, B, C_MKDIR("/d/x")) == H_BLOCKED);
	h_submit(h, A, C_LSEEK(3, 0, 0));

	/* the lock: busy, no exclusive owner, B waits for write */
	assert_true(vfs_lock_busy(h->w, lid));
	assert_int_equal(vfs_lock_owner(h->w, lid), -1);
	int mode = -1;
	assert_int_equal(vfs_lock_waiter(h->w, lid, 0, &mode), B);
	assert_int_equal(mode, M_WRITE);
	assert_int_equal(vfs_lock_waiter(h->w, lid, 1, &mode), -1);
	assert_int_equal(vfs_lock_owner(h->w, fpos), A);
	assert_true(vfs_lock_of_file(fpos));
	assert_false(vfs_lock_of_file(lid));

	/* every lock once: 2 per open file, 1 per inode, the rename mutex, 1
	 * per process; the inode's and the file's among them */
	int n = 0, seen_i = 0, seen_f = 0;
	for (vfs_lid_t l = 0; vfs_lock_next(h->w, &l); n++) {
		seen_i += l == lid;
		seen_f += l == fpos;
	}
	assert_int_equal(n, 2 * 1 + h->w->ninodes + 1 + h->w->nprocs);
	assert_int_equal(seen_i, 1);
	assert_int_equal(seen_f, 1);
	assert_false(vfs_lock_busy(h->w, VFS_LID(LID_RENAME, 0)));

	/* A's locks: f_pos_lock from fdget_pos, which returned; i_rwsem read,
	 * taken in the frame it belongs to */
	struct vfs_held_lock hl;
	int k, got_f = 0, got_i = 0;
	for (k = 0; vfs_thread_held(h->w, A, k, &hl); k++) {
		assert_true(hl.frame >= 0 && hl.frame < vfs_thread_nframes(h->w, A));
		if (hl.lock == fpos) {
			got_f = 1;
			assert_true(hl.returned);
			assert_int_equal(hl.fn, VFN_fdget_pos);
		} else if (hl.lock == lid) {
			got_i = 1;
			assert_false(hl.returned);
			assert_int_equal(hl.mode, M_READ);
			assert_int_equal(vfs_thread_frame_fn(h->w, A, hl.frame), hl.fn);
		}
	}
	assert_int_equal(k, 2);
	assert_true(got_f && got_i);
	assert_int_equal(vfs_thread_frame_fn(h->w, A, 0), VFN_getdents64);
	assert_false(vfs_thread_held(h->w, B, 0, &hl));

	/* the queue, the call record, the fd table */
	assert_int_equal(vfs_thread_npending(h->w, A), 1);
	assert_int_equal(vfs_thread_npending(h->w, B), 0);
	assert_true(vfs_call_took(h->w, A, LC_I_RWSEM_DIR, M_READ));
	assert_true(vfs_call_took(h->w, A, LC_I_RWSEM_DIR, -1));
	assert_false(vfs_call_took(h->w, A, LC_I_RWSEM_DIR, M_WRITE));
	assert_true(vfs_call_took(h->w, A, LC_F_POS_LOCK, -1));
	assert_false(vfs_call_took(h->w, A, LC_RENAME_MUTEX, -1));
	int nfds = 0, shared = 0;
	assert_true(vfs_proc_fdtable(h->w, h->w->threads[A].proc, &nfds, &shared) >= 0);
	assert_int_equal(nfds, 4);
	assert_int_equal(shared, 1);
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rwsem_fifo),
		cmocka_unit_test(test_rwsem_downgrade),
		cmocka_unit_test(test_mutex_handoff),
		cmocka_unit_test(test_exec_update_lock),
		cmocka_unit_test(test_exec_mutex_killable),
		cmocka_unit_test(test_view_accessors),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
