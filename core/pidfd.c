/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pidfd.c - pidfd_open and pidfd_getfd (kernel/pid.c, since v5.6).
 *
 * pidfd_getfd takes a *real* reference on the target's file (fget_task)
 * and installs it in the caller: after that the owner's file_count is 2,
 * but an owner already inside getdents checked it when it was 1.
 *
 * The permission check and fget_task run under the target's lock against
 * exec (the era's: vfs_exec_locks); the file is installed once that lock
 * is released.
 */
#include "internal.h"

/* pidfd_open (kernel/pid.c): one step, RP(pidfd_open, enter) */
KERNEL_FN(pidfd_open)
{
	struct vfs_world *w = x->w;
	int64_t pid = cur_call(x)->a[0];
	if (!w->k.pidfd_getfd) {
		sys_return(x, -VE_NOSYS);
		return;
	}
	if (pid <= 0) {         /* kernel/pid.c: "if (pid <= 0) return -EINVAL" */
		sys_return(x, -VE_INVAL);
		return;
	}
	int p = pid > INT32_MAX ? -1 : vfs_proc_by_pid(w, (int)pid);
	if (p < 0) {
		sys_return(x, -VE_SRCH);
		return;
	}
	int fd = alloc_fd(w, x->t->proc, true);
	if (fd < 0) {
		sys_return(x, fd);
		return;
	}
	int fi = file_alloc(w, FK_PIDFD);
	if (fi < 0) {
		fdt_touch(w, w->procs[x->t->proc].fdt);
		proc_fdt(w, x->t->proc)->fd[fd] = 0;
		sys_return(x, fi);
		return;
	}
	w->files[fi].pid = (int32_t)pid;
	/* pidfd_create: O_RDWR, so write reaches vfs_write's EINVAL */
	w->files[fi].f_mode = FMODE_READ | FMODE_WRITE;
	struct vfs_fdtable *t = proc_fdt(w, x->t->proc);
	fdt_touch(w, w->procs[x->t->proc].fdt);
	t->fd[fd] = (uint16_t)(FD_CLOEXEC_BIT | (fi + 1));
	access_fdt(x, VFN_pidfd_open, w->procs[x->t->proc].fdt, true);
	sys_return(x, fd);
}


/* The target's lock against exec, as this kernel names and takes it. */
static const struct vfs_exec_lock_desc *exec_lock(const struct vfs_world *w)
{
	return &vfs_exec_locks[w->k.exec_lock];
}

int pidfd_exec_lock_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	(void)t;
	return exec_lock(w)->lock_fn;
}

int pidfd_exec_unlock_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	(void)t;
	return exec_lock(w)->unlock_fn;
}

/* A fatal signal while the thread sleeps in the killable wait for the
 * exec lock (it resumes at ptrace_may_access once the lock is handed over):
 * __pidfd_fget returns the -EINTR of mutex_lock_killable /
 * down_read_killable. */
bool pidfd_getfd_kill_wait(struct vx *x)
{
	if (x->t->f.pc != RP(pidfd_getfd, ptrace_may_access) || !lock_wait_abort(x))
		return false;
	sys_return_from(x, VFN___pidfd_fget, -VE_INTR);
	return true;
}

/*
 * pidfd_getfd (sys_pidfd_getfd and __pidfd_fget, kernel/pid.c): the
 * pidfd (EBADF if it is none), its task (get_pid_task: ESRCH once
 * reaped), then __pidfd_fget, which first takes
 * the target's lock against exec: mutex_lock_killable(cred_guard_mutex)
 * in v5.6 (8649c322f75c), mutex_lock_killable(exec_update_mutex) from
 * v5.7 (501f9328bf5c), down_read_killable(exec_update_lock) from v5.11
 * (f7cfd871ae0c).  Held so that the target cannot exec a setuid program
 * between the permission check and fget_task: the files taken belong to
 * the credentials that were checked.  Steps exec_lock to exec_unlock are
 * __pidfd_fget's; receive_fd is pidfd_getfd's again.
 */
KERNEL_FN(pidfd_getfd)
{
	struct vfs_world *w = x->w;

	switch (f->pc) {
	case RP(pidfd_getfd, exec_lock): {
		struct vfs_call *c = cur_call(x);
		if (!w->k.pidfd_getfd) {
			sys_return(x, -VE_NOSYS);
			return;
		}
		int pf = fd_lookup(w, x->t->proc, c->a[0]);
		if (pf < 0 || w->files[pf].kind != FK_PIDFD) {
			sys_return(x, -VE_BADF);
			return;
		}
		int target = vfs_proc_by_pid(w, w->files[pf].pid);
		if (target < 0) {
			sys_return(x, -VE_SRCH);
			return;
		}
		f->pidfd_getfd.task = target;
		fn_enter(x, VFN___pidfd_fget);
		go(x, RP(pidfd_getfd, ptrace_may_access));
		lock_acquire(x, exec_lock(w)->lock_fn, VFS_LID(LID_EXEC, target),
			     exec_lock(w)->mode);
		return;
	}
	case RP(pidfd_getfd, ptrace_may_access): {
		int target = f->pidfd_getfd.task;
		fn_enter(x, VFN_ptrace_may_access);
		/* (model) PTRACE_MODE_ATTACH_REALCREDS: same uid, or uid 0 */
		int uid = w->procs[x->t->proc].uid;
		if (uid != 0 && uid != w->procs[target].uid) {
			f->res = -VE_PERM;
			fn_exit(x, VFN_ptrace_may_access, f->res);
			go(x, RP(pidfd_getfd, exec_unlock));
			return;
		}
		fn_exit(x, VFN_ptrace_may_access, 0);
		go(x, RP(pidfd_getfd, fget_task));
		return;
	}
	case RP(pidfd_getfd, fget_task): {
		int target = f->pidfd_getfd.task;
		fn_enter(x, VFN_fget_task);
		go(x, RP(pidfd_getfd, exec_unlock));
		if (w->procs[target].fdt < 0) {
			/* exited: exit_files() left ->files NULL, fget_task finds
			 * nothing (EBADF; see exec_unlock for ESRCH) */
			f->res = -VE_BADF;
			fn_exit(x, VFN_fget_task, f->res);
			return;
		}
		access_fdt(x, VFN_fget_task, w->procs[target].fdt, false);
		int fi = fd_lookup(w, target, cur_call(x)->a[1]);
		if (fi < 0) {
			f->res = -VE_BADF;
			fn_exit(x, VFN_fget_task, f->res);
			return;
		}
		file_get(x, VFN_fget_task, fi);         /* a real reference */
		f->file = fi;
		fn_exit(x, VFN_fget_task, 0);
		return;
	}
	/* up_read / mutex_unlock: the check and the reference are done; the fd
	 * is installed (receive_fd) after the lock is dropped, as __pidfd_fget
	 * returns before pidfd_getfd calls receive_fd. */
	case RP(pidfd_getfd, exec_unlock):
		lock_release(x, exec_lock(w)->unlock_fn, VFS_LID(LID_EXEC, f->pidfd_getfd.task));
		/* no file from a task with PF_EXITING: since v6.9 __pidfd_fget says
		 * ESRCH ("that really means ESRCH"), after the unlock; EBADF before */
		if (f->res == -VE_BADF && w->procs[f->pidfd_getfd.task].fdt < 0 &&
		    w->k.era >= VFS_ERA(6, 9))
			f->res = -VE_SRCH;
		fn_exit(x, VFN___pidfd_fget, f->res);
		if (f->res < 0)
			sys_return(x, f->res);
		else
			go(x, RP(pidfd_getfd, receive_fd));
		return;
	case RP(pidfd_getfd, receive_fd): {
		int proc = x->t->proc;
		fn_enter(x, VFN_receive_fd);
		int fd = alloc_fd(w, proc, true);       /* O_CLOEXEC */
		access_fdt(x, VFN_receive_fd, w->procs[proc].fdt, true);
		if (fd < 0) {
			file_put(x, VFN_receive_fd, f->file);
			sys_return_from(x, VFN_receive_fd, fd);
			return;
		}
		struct vfs_fdtable *t = proc_fdt(w, proc);
		fdt_touch(w, w->procs[proc].fdt);
		t->fd[fd] = (uint16_t)(FD_CLOEXEC_BIT | (f->file + 1));
		sys_return_from(x, VFN_receive_fd, fd);
		return;
	}
	}
}

