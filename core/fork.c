/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fork.c - clone(CLONE_FILES), fork and exit (kernel/fork.c, kernel/exit.c).
 * clone shares the fd table (files->count + 1): from then on every fdget
 * in that process takes a real reference.  fork copies the table and takes
 * one reference per open file (dup_fd).
 */
#include "internal.h"

/* The new thread starts with its parent's view of time (happens-before). */
static void spawn_event(struct vx *x, int child)
{
	struct vfs_event ev = { .tid = (int8_t)x->tid, .op = OP_NOTE,
		.fn = VFN_copy_process, .other = (int8_t)child,
		.note = "new task" };
	emit(x, &ev);
}

static int new_thread(struct vfs_world *w, int proc)
{
	bool reused;
	int t = thread_slot(w, &reused);
	if (t < 0)
		return t;
	struct vfs_thread *th = &w->threads[t];
	thread_touch(w, t);
	objs_touch(w, TOUCH_PROCS);     /* (nthreads_made) */
	memset(th, 0, sizeof *th);
	th->state = TS_IDLE;
	th->proc = (int16_t)proc;
	th->tnum = ++w->procs[proc].nthreads_made;
	w->allocs++;
	th->tid = w->next_pid++;
	th->wait_next = -1;
	/* a fresh clock (as proc_new does): a copied world may hold a stale
	 * row here; copy_process's event then joins the parent's clock in.
	 * A reused slot's row goes on (thread_slot). */
	if (!reused)
		memset(w->det.vc[t], 0, sizeof w->det.vc[t]);
	else
		w->det.vc[t][t]++;
	th->rec.done = 1;
	return t;
}

/*
 * copy_process (kernel/fork.c), one step for each way in: clone with
 * CLONE_FILES shares the table (copy_files: files->count + 1), fork
 * copies it (dup_fd).
 */
KERNEL_FN(copy_process)
{
	struct vfs_world *w = x->w;
	int proc = x->t->proc;

	switch (f->pc) {
	case RP(copy_process, clone_files): {
		fn_enter(x, VFN_copy_process);
		int t = new_thread(w, proc);
		x->t = &w->threads[x->tid];     /* (the array may have moved) */
		if (t < 0) {
			sys_return_from(x, VFN_copy_process, t);
			return;
		}
		fdt_touch(w, w->procs[proc].fdt);
		proc_fdt(w, proc)->count++;     /* CLONE_FILES: the same table */
		access_fdt(x, VFN_copy_process, w->procs[proc].fdt, true);
		spawn_event(x, t);
		sys_return_from(x, VFN_copy_process, w->threads[t].tid);
		return;
	}
	case RP(copy_process, dup_fd): {
		fn_enter(x, VFN_copy_process);
		int nt = fdt_new(w);
		int child = nt < 0 ? nt :
			    proc_new(w, vfs_call_str(w, cur_call(x), 0),
				     w->procs[proc].uid, nt);
		x->t = &w->threads[x->tid];     /* (the array may have moved) */
		if (child < 0) {
			if (nt >= 0)
				w->nfdt--;      /* (the table just made, unused) */
			sys_return_from(x, VFN_copy_process, child);
			return;
		}
		/* dup_fd: the child gets a copy, one more reference per file */
		fn_enter(x, VFN_dup_fd);
		struct vfs_fdtable *src = proc_fdt(w, proc), *dst = &w->fdt[nt];
		access_fdt(x, VFN_dup_fd, w->procs[proc].fdt, false);
		dst->count = 1;
		dst->nfds = src->nfds;
		for (int i = 0; i < src->nfds; i++) {
			unsigned v = src->fd[i] & ~FD_CLOEXEC_BIT;
			if (v == FD_RESERVED) {         /* an open in progress stays the parent's */
				dst->fd[i] = 0;
				continue;
			}
			dst->fd[i] = src->fd[i];
			if (v && v != FD_STDIO)         /* stdio: taken, but no file */
				file_get(x, VFN_dup_fd, (int)v - 1);
		}
		fn_exit(x, VFN_dup_fd, 0);
		int ct = w->nthreads - 1;
		spawn_event(x, ct);
		sys_return_from(x, VFN_copy_process, w->procs[child].pid);
		return;
	}
	}
}


/* do_exit (kernel/exit.c): one step, RP(do_exit, exit_files) */
KERNEL_FN(do_exit)
{
	struct vfs_world *w = x->w;
	struct vfs_thread *t = x->t;
	int proc = t->proc;
	fn_enter(x, VFN_do_exit);
	struct vfs_fdtable *ft = proc_fdt(w, proc);
	if (ft)
		fdt_touch(w, w->procs[proc].fdt);
	/* exit_files: the last task using the table closes every file */
	if (ft && --ft->count == 0) {
		fn_enter(x, VFN_put_files_struct);
		for (int i = 0; i < ft->nfds; i++) {
			unsigned v = ft->fd[i] & ~FD_CLOEXEC_BIT;
			ft->fd[i] = 0;
			if (v && v != FD_RESERVED && v != FD_STDIO)
				file_put(x, VFN_put_files_struct, (int)v - 1);
		}
		fn_exit(x, VFN_put_files_struct, 0);
	}
	if (ft)
		access_fdt(x, VFN_do_exit, w->procs[proc].fdt, true);
	t->npending = 0;        /* nothing after exit runs */
	bool others = false;
	for (int i = 0; i < w->nthreads; i++)
		others |= i != x->tid && w->threads[i].proc == proc &&
			  w->threads[i].state != TS_DEAD;
	if (!others) {
		w->procs[proc].alive = 0;
		w->procs[proc].fdt = -1;
		objs_touch(w, TOUCH_PROCS);
	}
	sys_return_from(x, VFN_do_exit, 0);
	t->state = TS_DEAD;
}
