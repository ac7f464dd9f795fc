/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_thread.c - "THREAD: CALL [&]": turn the words into a system call,
 * queue it on the thread, and (without &) run the thread until that call
 * returns or blocks.
 */
#include <string.h>
#include "commands.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_thread.h"

/* Fill the call from the words, as its row says (core/syscalls.c); -1 on
 * a bad argument (reported). */
static int build_call(struct session *s, const struct cmd_entry *e,
		      const struct cmd_call *c, struct vfs_call *call)
{
	char err[256];
	int r = vfs_call_parse(s->w, e->sys, c->argc, c->argv, call, err, sizeof err);
	if (r == VCP_NOPROC) {          /* its did-you-mean */
		int proc, pid;
		return resolve_proc(s, err, &proc, &pid) < 0 ? -1 :
		       cli_error(s, "unknown process '%s'", err);
	}
	if (r == -VE_NOMEM)             /* (the one policy: cli_errno) */
		return cli_errno(s, e->name, NULL, r);
	return r < 0 ? cli_error(s, "%s", err) : 0;
}

/* The kernel's name of the call: its row's, or the definition's. */
const char *call_kname(const struct vfs_world *w, const struct vfs_call *c)
{
	return c->sys == SYS_DEFINED ? vfs_fn_name(vfs_call_fn(w, c)) :
	       vfs_sys[c->sys].kname;
}

HANDLER(c_syscall)
{
	const struct cmd_entry *e = cmd_find(c->argv[-1]);
	struct vfs_call call;
	char th[32];

	vfs_thread_name(s->w, c->tid, th, sizeof th);
	if (vfs_thread_state(s->w, c->tid) == TS_DEAD)
		return cli_error(s, "%s has exited", th);
	if (build_call(s, e, c, &call) < 0)
		return -1;
	return thread_run_call(s, c, &call);
}


int thread_run_call(struct session *s, const struct cmd_call *c,
		    struct vfs_call *cp)
{
	struct vfs_world *w = s->w;
	struct vfs_call call = *cp;
	char th[32];

	vfs_thread_name(w, c->tid, th, sizeof th);
	int32_t seq = vfs_submit(w, c->tid, &call);
	if (seq == -VE_AGAIN)
		return cli_error(s, "%s has %d calls pending already: step or run them first",
				 th, VFS_MAX_PENDING);
	if (seq < 0)
		return cli_error(s, "%s has exited", th);
	session_log(s, REC_SUBMIT, c->tid, &call);
	s->log[s->nlog - 1].fg = !c->background;
	if (c->background) {
		if (s->interactive && !s->quiet)
			out(s, "%s: %s started (pending; step or run it)\n", th,
			    call_kname(w, &call));
		return 0;
	}
	/* Foreground: run this thread until this call returns or it blocks.
	 * Calls queued before it run first, in order. */
	for (long n = 0;; n++) {
		if (vfs_thread_state(w, c->tid) == TS_BLOCKED) {
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
		if (done && vfs_thread_call(w, c->tid)->seq == seq)
			return 0;
		if ((n & 1023) == 1023 && session_interrupted(s)) {
			out(s, "interrupted: %s's call is still pending\n", th);
			return 0;
		}
	}
}
