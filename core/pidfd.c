/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pidfd.c - pidfd_open and pidfd_getfd (kernel/pid.c, since v5.6).
 *
 * pidfd_getfd takes a *real* reference on the target's file (fget_task)
 * and installs it in the caller: after that the owner's file_count is 2,
 * but an owner already inside getdents checked it when it was 1.
 */
#include "internal.h"

void site_PO_DO(struct vx *x)
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
		proc_fdt(w, x->t->proc)->fd[fd] = 0;
		sys_return(x, fi);
		return;
	}
	w->files[fi].pid = (int32_t)pid;
	/* pidfd_create: O_RDWR, so write reaches vfs_write's EINVAL */
	w->files[fi].f_mode = FMODE_READ | FMODE_WRITE;
	struct vfs_fdtable *t = proc_fdt(w, x->t->proc);
	t->fd[fd] = (uint16_t)(FD_CLOEXEC_BIT | (fi + 1));
	access_fdt(x, VFN_pidfd_open, w->procs[x->t->proc].fdt, true);
	sys_return(x, fd);
}

void site_PG_CHECK(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	struct vfs_call *c = cur_call(x);
	fn_enter(x, VFN_ptrace_may_access);
	if (!w->k.pidfd_getfd) {
		fn_exit(x, VFN_ptrace_may_access, -VE_NOSYS);
		sys_return(x, -VE_NOSYS);
		return;
	}
	int pf = fd_lookup(w, x->t->proc, c->a[0]);
	if (pf < 0 || w->files[pf].kind != FK_PIDFD) {
		fn_exit(x, VFN_ptrace_may_access, -VE_BADF);
		sys_return(x, -VE_BADF);
		return;
	}
	int target = vfs_proc_by_pid(w, w->files[pf].pid);
	if (target < 0) {
		fn_exit(x, VFN_ptrace_may_access, -VE_SRCH);
		sys_return(x, -VE_SRCH);
		return;
	}
	/* (model) PTRACE_MODE_ATTACH_REALCREDS: same uid, or uid 0 */
	int uid = w->procs[x->t->proc].uid;
	if (uid != 0 && uid != w->procs[target].uid) {
		fn_exit(x, VFN_ptrace_may_access, -VE_PERM);
		sys_return(x, -VE_PERM);
		return;
	}
	fn_exit(x, VFN_ptrace_may_access, 0);
	f->newproc = target;
	go(x, SITE_PG_FGET);
}

void site_PG_FGET(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	int target = f->newproc;
	fn_enter(x, VFN_fget_task);
	if (w->procs[target].fdt < 0) {
		/* exited: exit_files() left ->files NULL, fget_task finds
		 * nothing; since v6.9 __pidfd_fget says ESRCH for a task with
		 * PF_EXITING ("that really means ESRCH"), EBADF before */
		int64_t e = w->k.era >= VFS_ERA(6, 9) ? -VE_SRCH : -VE_BADF;
		fn_exit(x, VFN_fget_task, e);
		sys_return(x, e);
		return;
	}
	access_fdt(x, VFN_fget_task, w->procs[target].fdt, false);
	int fi = fd_lookup(w, target, cur_call(x)->a[1]);
	if (fi < 0) {
		fn_exit(x, VFN_fget_task, -VE_BADF);
		sys_return(x, -VE_BADF);
		return;
	}
	file_get(x, VFN_fget_task, fi);         /* a real reference */
	f->file = fi;
	fn_exit(x, VFN_fget_task, 0);
	go(x, SITE_PG_RECEIVE);
}

void site_PG_RECEIVE(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	int proc = x->t->proc;
	fn_enter(x, VFN_receive_fd);
	int fd = alloc_fd(w, proc, true);       /* O_CLOEXEC */
	access_fdt(x, VFN_receive_fd, w->procs[proc].fdt, true);
	if (fd < 0) {
		file_put(x, VFN_receive_fd, f->file);
		fn_exit(x, VFN_receive_fd, fd);
		sys_return(x, fd);
		return;
	}
	struct vfs_fdtable *t = proc_fdt(w, proc);
	t->fd[fd] = (uint16_t)(FD_CLOEXEC_BIT | (f->file + 1));
	fn_exit(x, VFN_receive_fd, fd);
	sys_return(x, fd);
}
