/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * signal.c - a fatal signal (SIGKILL) as the kernel paths here see it:
 * killable sleeps end with -EINTR, the rest finish, then do_exit.
 */
#include "internal.h"

int vfs_kill(struct vfs_world *w, int proc, const struct vfs_sink *sink)
{
	int interrupted = 0, any = 0;
	if (proc < 0 || proc >= w->nprocs || !w->procs[proc].alive)
		return -VE_SRCH;
	for (int i = 0; i < w->nthreads; i++) {
		struct vfs_thread *t = &w->threads[i];
		if (t->proc != proc || t->state == TS_FREE || t->state == TS_DEAD)
			continue;
		struct vx x = { .w = w, .t = t, .tid = i, .sink = sink,
			.rp = thread_rp(t) };
		any = 1;
		thread_touch(w, i);
		t->npending = 0;        /* nothing queued runs any more */
		t->pend_head = 0;
		if (t->state == TS_BLOCKED) {
			if (iterate_dir_kill_wait(&x)) {
				interrupted++;
			} else if (pidfd_getfd_kill_wait(&x)) {
				interrupted++;
			} else if (kfn_kill_wait(&x)) {
				interrupted++;
			} else {
				note(&x, t->nfn ? t->fnstack[t->nfn - 1] : VFN_none,
				     "fatal signal pending: this wait is not killable, "
				     "the thread sleeps on until it gets the lock");
			}
		}
		struct vfs_call exitc = { .sys = SYS_EXIT };
		vfs_submit(w, i, &exitc);
	}
	return any ? interrupted : -VE_SRCH;
}
