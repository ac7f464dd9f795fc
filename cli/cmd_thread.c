/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_thread.c - "THREAD: CALL [&]": turn the words into a system call,
 * queue it on the thread, and (without &) run the thread until that call
 * returns or blocks.
 */
#include <string.h>
#include "commands.h"

#define READ_DEFAULT 4096     /* `read FD` without N */

static int num_arg(struct session *s, const struct cmd_call *c, int i,
		   const char *what, int64_t *v)
{
	long long x;
	if (parse_num(c->argv[i], &x) < 0)
		return cli_error(s, "%s: %s must be a number, not '%s'", c->argv[-1],
				 what, c->argv[i]);
	*v = x;
	return 0;
}

/* String I of CALL; a path past PATH_MAX is the kernel's to refuse
 * (ENAMETOOLONG), only a word past the string table's limit is ours. */
static int str_arg(struct session *s, const char *v, struct vfs_call *call,
		   int i, const char *what)
{
	int r = vfs_call_set_str(s->w, call, i, v);
	if (r == -VE_NAMETOOLONG)
		return cli_error(s, "%s too long (%zu characters; at most %d)", what,
				 strlen(v), VFS_CALL_STR_MAX - 1);
	if (r < 0)
		return cli_error(s, "out of memory for the %s", what);
	return 0;
}

static int path_arg(struct session *s, const char *v, struct vfs_call *call, int i)
{
	if (v[0] != '/')
		return cli_error(s, "'%s': paths start with / (there is no working directory)", v);
	return str_arg(s, v, call, i, "path");
}

/* Fill the call from the words; -1 on a bad argument (reported). */
static int build_call(struct session *s, const struct cmd_entry *e,
		      const struct cmd_call *c, struct vfs_call *call)
{
	memset(call, 0, sizeof *call);
	call->sys = (uint8_t)e->sys;
	call->a[1] = -1;        /* "all" for getdents and read */
	switch (e->sys) {
	case SYS_OPEN:
		call->a[1] = VO_RDONLY;
		for (int i = 1; i < c->argc; i++) {
			const char *f = c->argv[i];
			if (!strcmp(f, "rdonly"))
				call->a[1] = (call->a[1] & ~VO_ACCMODE) | VO_RDONLY;
			else if (!strcmp(f, "wronly"))
				call->a[1] = (call->a[1] & ~VO_ACCMODE) | VO_WRONLY;
			else if (!strcmp(f, "rdwr"))
				call->a[1] = (call->a[1] & ~VO_ACCMODE) | VO_RDWR;
			else if (!strcmp(f, "directory"))
				call->a[1] |= VO_DIRECTORY;
			else if (!strcmp(f, "cloexec"))
				call->a[1] |= VO_CLOEXEC;
			else
				return cli_error(s, "open: unknown flag '%s' (rdonly, wronly, "
						 "rdwr, directory, cloexec)", f);
		}
		return path_arg(s, c->argv[0], call, 0);
	case SYS_CREAT: case SYS_MKDIR: case SYS_UNLINK: case SYS_RMDIR:
		call->a[1] = VO_WRONLY;
		return path_arg(s, c->argv[0], call, 0);
	case SYS_RENAME:
		if (path_arg(s, c->argv[0], call, 0) < 0)
			return -1;
		return path_arg(s, c->argv[1], call, 1);
	case SYS_CLOSE: case SYS_DUP:
		return num_arg(s, c, 0, "FD", &call->a[0]);
	case SYS_DUP2: case SYS_PIDFD_GETFD:
		if (num_arg(s, c, 0, e->sys == SYS_DUP2 ? "OLD" : "PIDFD", &call->a[0]) < 0)
			return -1;
		return num_arg(s, c, 1, e->sys == SYS_DUP2 ? "NEW" : "FD", &call->a[1]);
	case SYS_CLONE: case SYS_EXIT:
		return 0;
	case SYS_FORK:
		if (vfs_proc_by_name(s->w, c->argv[0]) >= 0)
			return cli_error(s, "fork: a process named '%s' exists already",
					 c->argv[0]);
		return str_arg(s, c->argv[0], call, 0, "name");
	case SYS_PIDFD_OPEN: {
		int proc, pid;
		if (resolve_proc(s, c->argv[0], &proc, &pid) < 0)
			return -1;
		call->a[0] = pid;
		return 0;
	}
	case SYS_GETDENTS: case SYS_READ:
		if (num_arg(s, c, 0, "FD", &call->a[0]) < 0)
			return -1;
		if (c->argc > 1) {
			if (num_arg(s, c, 1, "N", &call->a[1]) < 0)
				return -1;
			if (call->a[1] < 0)
				return cli_error(s, "%s: N must not be negative", e->name);
		} else if (e->sys == SYS_READ) {
			call->a[1] = READ_DEFAULT;   /* a buffer, as a program passes one */
		}
		return 0;
	case SYS_LSEEK:
		if (num_arg(s, c, 0, "FD", &call->a[0]) < 0 ||
		    num_arg(s, c, 1, "OFFSET", &call->a[1]) < 0)
			return -1;
		call->a[2] = VSEEK_SET;
		if (c->argc > 2) {
			const char *wh = c->argv[2];
			long long v;
			if (!strcmp(wh, "set")) call->a[2] = VSEEK_SET;
			else if (!strcmp(wh, "cur")) call->a[2] = VSEEK_CUR;
			else if (!strcmp(wh, "end")) call->a[2] = VSEEK_END;
			else if (!parse_num(wh, &v)) call->a[2] = v; /* the kernel says EINVAL */
			else
				return cli_error(s, "lseek: whence is set, cur or end, not '%s'", wh);
		}
		return 0;
	case SYS_WRITE:
		if (num_arg(s, c, 0, "FD", &call->a[0]) < 0)
			return -1;
		return str_arg(s, c->argv[1], call, 0, "text");
	case SYS_PREAD:
		if (num_arg(s, c, 0, "FD", &call->a[0]) < 0 ||
		    num_arg(s, c, 1, "N", &call->a[1]) < 0 ||
		    num_arg(s, c, 2, "OFFSET", &call->a[2]) < 0)
			return -1;
		return 0;
	case SYS_PWRITE:
		if (num_arg(s, c, 0, "FD", &call->a[0]) < 0 ||
		    num_arg(s, c, 2, "OFFSET", &call->a[2]) < 0)
			return -1;
		return str_arg(s, c->argv[1], call, 0, "text");
	}
	return cli_error(s, "%s: not a system call", e->name);
}

HANDLER(c_syscall)
{
	const struct cmd_entry *e = cmd_find(c->argv[-1]);
	struct vfs_world *w = s->w;
	struct vfs_call call;
	char th[32];

	vfs_thread_name(w, c->tid, th, sizeof th);
	if (w->threads[c->tid].state == TS_DEAD)
		return cli_error(s, "%s has exited", th);
	if (build_call(s, e, c, &call) < 0)
		return -1;
	if (vfs_submit(w, c->tid, &call) < 0)
		return cli_error(s, "%s has %d calls pending already: step or run them first",
				 th, VFS_MAX_PENDING);
	int32_t seq = w->threads[c->tid].pending[(w->threads[c->tid].pend_head +
				 w->threads[c->tid].npending - 1) % VFS_MAX_PENDING].seq;
	session_log(s, REC_SUBMIT, c->tid, &call);
	s->log[s->nlog - 1].fg = !c->background;
	if (c->background) {
		if (s->interactive && !s->quiet)
			out(s, "%s: %s started (pending; step or run it)\n", th,
			    vfs_sys[call.sys].kname);
		return 0;
	}
	/* Foreground: run this thread until this call returns or it blocks.
	 * Calls queued before it run first, in order. */
	for (long n = 0;; n++) {
		const struct vfs_thread *t = &w->threads[c->tid];
		if (t->state == TS_BLOCKED) {
			char why[256];
			session_blocked_line(s, c->tid, why, sizeof why);
			if (!s->quiet)
				out(s, "%s%s%s\n", color_on(s, "\033[33m"), why, color_off(s));
			return 0;
		}
		if (!vfs_runnable(w, c->tid))
			return 0;
		bool done = session_step(s, c->tid);
		s->log[s->nlog - 1].fg = 1;   /* compare drops these steps */
		t = &w->threads[c->tid];
		if (done && t->rec.call.seq == seq)
			return 0;
		if ((n & 1023) == 1023 && session_interrupted(s)) {
			out(s, "interrupted: %s's call is still pending\n", th);
			return 0;
		}
	}
}
