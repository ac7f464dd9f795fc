/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_look.c - ps, fds, files, locks, where, trace, stats, history. */
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"
#include "vfs_file.h"
#include "vfs_inode.h"
#include "vfs_thread.h"

static const char *state_name(const struct vfs_world *w, int tid)
{
	switch (vfs_thread_state(w, tid)) {
	case TS_BLOCKED: return "blocked";
	case TS_DEAD: return "exited";
	default: return vfs_has_work(w, tid) ? (vfs_in_call(w, tid) ? "in a call" : "pending") : "idle";
	}
}

HANDLER(c_ps)
{
	(void)c;
	const struct vfs_world *w = s->w;
	out(s, "%-8s %-6s %-5s %-8s %-10s %s\n", "THREAD", "PID", "UID", "TID", "STATE",
	    "CALL");
	for (int i = 0; i < vfs_world_nthreads(w); i++) {
		char th[32], call[64] = "";
		vfs_thread_name(w, i, th, sizeof th);
		if (vfs_in_call(w, i))
			snprintf(call, sizeof call, "%s", call_kname(w, vfs_thread_call(w, i)));
		int queued = vfs_thread_npending(w, i);
		if (queued)
			snprintf(call + strlen(call), sizeof call - strlen(call), "%s+%d queued",
				 *call ? " " : "", queued);
		char line[192];
		size_t n = (size_t)snprintf(line, sizeof line, "%-8s %-6d %-5d %-8d %-10s %s",
					    th, vfs_proc_pid(w, vfs_thread_proc(w, i)),
					    vfs_proc_uid(w, vfs_thread_proc(w, i)),
					    vfs_thread_ktid(w, i), state_name(w, i), call);
		while (n > 0 && n < sizeof line && line[n - 1] == ' ')
			line[--n] = 0;          /* no trailing blanks */
		out(s, "%s\n", line);
		if (vfs_thread_state(w, i) == TS_BLOCKED) {
			char why[512];
			vfs_blocked_why(w, i, why, sizeof why);
			out(s, "         why: %s\n", why);
		}
	}
	return 0;
}

static void describe_file(const struct vfs_world *w, int f, char *buf, size_t n)
{
	if (vfs_file_kind(w, f) == FK_PIDFD) {
		int pid = vfs_file_pidfd_pid(w, f), p = vfs_proc_by_pid(w, pid);
		snprintf(buf, n, "pidfd:[%d]%s%s", pid, p >= 0 ? " " : "",
			 p >= 0 ? vfs_proc_name(w, p) : "");
		return;
	}
	char path[VFS_PATH_MAX];
	int ino = vfs_file_inode(w, f);
	vfs_inode_path(w, ino, path, sizeof path);
	snprintf(buf, n, "%s%s", path, vfs_inode_unlinked(w, ino) ? " (deleted)" : "");
}

static void show_fds(struct session *s, int p)
{
	const struct vfs_world *w = s->w;
	int nfds = 0, shared = 0, t = vfs_proc_fdtable(w, p, &nfds, &shared);
	out(s, "%s (pid %d)%s\n", vfs_proc_name(w, p), vfs_proc_pid(w, p),
	    t < 0 ? ": exited, no descriptors" : "");
	if (t < 0)
		return;
	int shown = 0;
	if (shared > 1)
		out(s, "  table shared by %d threads (files->count %d): lookups take references\n",
		    shared, shared);
	for (int fd = 0; fd < nfds; fd++) {
		bool cloexec;
		int fi = vfs_fd_slot(w, t, fd, &cloexec);
		if (fi == VFD_FREE || fi == VFD_STDIO)
			continue;
		shown++;
		if (fi == VFD_RESERVED) {
			out(s, "  %3d  (being opened)\n", fd);
			continue;
		}
		char d[VFS_PATH_MAX + 32];
		describe_file(w, fi, d, sizeof d);
		out(s, "  %3d  file#%-3d %s%s\n", fd, vfs_file_id(w, fi), d,
		    cloexec ? "  cloexec" : "");
	}
	if (!shown)
		out(s, "  no descriptor open beyond 0-2\n");
}

/* ONE (>= 0) shown, or each of the N, or NONE said when there is none. */
static int one_or_each(struct session *s, int one, int n,
		       void (*show)(struct session *, int), const char *none)
{
	if (one >= 0) {
		show(s, one);
		return 0;
	}
	for (int i = 0; i < n; i++)
		show(s, i);
	if (!n)
		out(s, "%s\n", none);
	return 0;
}

HANDLER(c_fds)
{
	int proc = -1, pid = 0;
	if (c->argc && resolve_proc(s, c->argv[0], &proc, &pid) < 0)
		return -1;
	if (c->argc && proc < 0)
		return cli_error(s, "fds: no process with pid %d", pid);
	return one_or_each(s, proc, vfs_world_nprocs(s->w), show_fds,
			   "no process yet, so no descriptor ('spawn NAME' makes one)");
}

HANDLER(c_files)
{
	(void)c;
	const struct vfs_world *w = s->w;
	/* the fields the script declared on files ('field'), after
	 * F_POS_LOCK, which is then padded to their column */
	int uf[VFS_MAX_UFIELDS], nuf = 0;
	for (int k = 0; k < vfs_nufields(w); k++)
		if (vfs_ufield_get(w, k)->obj == KO_FILE)
			uf[nuf++] = k;
	int lw = nuf ? 16 : 0;
	out(s, "%-8s %-22s %6s %7s %-22s %-*s", "FILE", "OBJECT", "F_POS", "F_COUNT",
	    "F_MODE", lw, "F_POS_LOCK");
	for (int i = 0; i < nuf; i++)
		out(s, " %s", vfs_field_name(vfs_ufield_get(w, uf[i])->fld));
	out(s, "\n");
	for (int f = 0; f < vfs_world_nfiles(w); f++) {
		if (vfs_file_kind(w, f) == FK_NONE)
			continue;
		unsigned fm = vfs_file_mode(w, f);
		char d[VFS_PATH_MAX + 32], id[16], mode[64], lk[40] = "free";
		describe_file(w, f, d, sizeof d);
		snprintf(id, sizeof id, "file#%d", vfs_file_id(w, f));
		snprintf(mode, sizeof mode, "%s%s%s",
			 fm & FMODE_READ ? "READ" : "",
			 fm & FMODE_WRITE ? (fm & FMODE_READ ? "|WRITE" : "WRITE") : "",
			 fm & FMODE_ATOMIC_POS ? "|ATOMIC_POS" : "");
		int owner = vfs_lock_owner(w, vfs_file_pos_lock(f));
		if (owner >= 0) {
			char th[32];
			vfs_thread_name(w, owner, th, sizeof th);
			snprintf(lk, sizeof lk, "held by %s", th);
		}
		out(s, "%-8s %-22s %6lld %7d %-22s %-*s", id, d, (long long)vfs_file_pos(w, f),
		    vfs_file_count(w, f), mode, lw, lk);
		for (int i = 0; i < nuf; i++)
			out(s, " %*lld", (int)strlen(vfs_field_name(
			    vfs_ufield_get(w, uf[i])->fld)),
			    (long long)vfs_ufield_value(w, uf[i], f));
		out(s, "\n");
	}
	return 0;
}

static int show_lock(struct session *s, vfs_lid_t lid)
{
	const struct vfs_world *w = s->w;
	if (!vfs_lock_busy(w, lid))
		return 0;
	char ln[VFS_PATH_MAX + 32], buf[512];
	size_t o = 0;
	vfs_lock_name(w, lid, ln, sizeof ln);
	o += (size_t)snprintf(buf, sizeof buf, "%-28s", ln);
	for (int i = 0; i < vfs_world_nthreads(w); i++) {
		struct vfs_held_lock h;
		for (int k = 0; o < sizeof buf && vfs_thread_held(w, i, k, &h); k++) {
			if (h.lock != lid)
				continue;
			char th[32];
			vfs_thread_name(w, i, th, sizeof th);
			o += (size_t)snprintf(buf + o, sizeof buf - o, " held by %s (%s)", th,
					      vfs_mode_name(h.mode));
		}
	}
	int mode;
	if (vfs_lock_waiter(w, lid, 0, NULL) >= 0 && o < sizeof buf) {
		o += (size_t)snprintf(buf + o, sizeof buf - o, "; waiting:");
		for (int k = 0, c; o < sizeof buf && (c = vfs_lock_waiter(w, lid, k, &mode)) >= 0; k++) {
			char th[32];
			vfs_thread_name(w, c, th, sizeof th);
			o += (size_t)snprintf(buf + o, sizeof buf - o, " %s (%s)", th,
					      vfs_mode_name(mode));
		}
	}
	out(s, "%s\n", buf);
	return 1;
}

HANDLER(c_locks)
{
	(void)c;
	const struct vfs_world *w = s->w;
	int shown = 0;
	for (vfs_lid_t lid = 0; vfs_lock_next(w, &lid); )
		shown += show_lock(s, lid);
	if (!shown)
		out(s, "no lock is held and nobody waits for one\n");
	for (int i = 0; i < vfs_world_nthreads(w); i++)
		if (vfs_thread_state(w, i) == TS_BLOCKED) {
			char why[256];
			session_blocked_line(s, i, why, sizeof why);
			out(s, "why: %s\n", why);
		}
	return 0;
}

static void where_one(struct session *s, int tid)
{
	const struct vfs_world *w = s->w;
	char th[32], call[256] = "";
	vfs_thread_name(w, tid, th, sizeof th);
	int nframes = vfs_thread_nframes(w, tid);
	if (!nframes) {
		bool en;
		int fn = vfs_next_fn(w, tid, &en);
		out(s, "%s: %s%s%s\n", th, state_name(w, tid),
		    fn ? ", next: " : "", fn ? vfs_fn_name(fn) : "");
		return;
	}
	vfs_call_strace(w, vfs_thread_call(w, tid), call, sizeof call);
	out(s, "%s (%s): %s, since step %d\n", th, state_name(w, tid), call,
	    vfs_call_start_step(w, tid));
	for (int i = nframes - 1; i >= 0; i--) {
		out(s, "  #%d %s\n", nframes - 1 - i, vfs_fn_name(vfs_thread_frame_fn(w, tid, i)));
		struct vfs_held_lock h;
		for (int k = 0; vfs_thread_held(w, tid, k, &h); k++) {
			if (h.frame != i)
				continue;
			char ln[VFS_PATH_MAX + 32];
			vfs_lock_name(w, h.lock, ln, sizeof ln);
			if (h.returned)
				out(s, "       holds %s (%s), taken in %s, which returned\n", ln,
				    vfs_mode_name(h.mode), vfs_fn_name(h.fn));
			else
				out(s, "       holds %s (%s), taken here\n", ln,
				    vfs_mode_name(h.mode));
		}
	}
	bool en;
	int next = vfs_next_fn(w, tid, &en);
	/* the step by its kernel function and name (iterate_dir:lock) */
	const char *rp = vfs_resume_point_name(w, tid);
	bool blocked = vfs_thread_state(w, tid) == TS_BLOCKED;
	if (!blocked && next)
		out(s, "  next step: %s%s (%s)\n", en ? "enter " : "",
		    vfs_fn_name(next), rp);
	if (blocked) {
		char why[512];
		vfs_blocked_why(w, tid, why, sizeof why);
		out(s, "  %s\n", why);
		out(s, "  then resumes at %s\n", rp);
	}
}

HANDLER(c_where)
{
	int tid = -1;
	if (c->argc && resolve_thread(s, c->argv[0], &tid) < 0)
		return -1;
	return one_or_each(s, tid, vfs_world_nthreads(s->w), where_one,
			   "no thread yet, so nothing runs ('spawn NAME' makes one)");
}

/* `trace`'s words: a mode of the live trace, or what to do with the kept one */
enum { TW_CLEAR = -1, TW_SHOW = -2, TW_NONE = -3 };
static const struct { const char *word; int what; } trace_words[] = {
	{ "on", TRACE_TEXT }, { "text", TRACE_TEXT }, { "jsonl", TRACE_JSONL },
	{ "steps", TRACE_STEPS }, { "off", TRACE_OFF }, { "clear", TW_CLEAR },
	{ "show", TW_SHOW },
};

const char c_trace_help[] =
	"'trace on' prints each event as it happens; 'trace steps' adds a column,\n"
	"after the thread's, naming the step it happened in as 'where' names a\n"
	"resume point: FUNCTION:STEP, the kernel function's C function in core/\n"
	"and the case of its switch (iterate_dir:iterate, fdget_pos:lock;\n"
	"do_syscall_64:enter is a call's first step).  'trace show [steps] [N]'\n"
	"prints the kept events (the last N), with that column when asked or\n"
	"when the live trace has it; JSON lines (jsonl, 'export jsonl') carry it\n"
	"as \"point\".";

HANDLER(c_trace)
{
	const char *a = c->argc ? c->argv[0] : "show";
	int what = TW_NONE;
	for (size_t i = 0; i < sizeof trace_words / sizeof *trace_words; i++)
		if (!strcmp(a, trace_words[i].word))
			what = trace_words[i].what;
	if (what >= 0) {
		s->trace = what;
		if (what == TRACE_JSONL && !isatty(1))
			s->human_err = 1;       /* stdout: JSON lines from now on */
	} else if (what == TW_CLEAR) {
		s->nev = 0;
	} else if (what == TW_SHOW) {
		long long last = 0;
		/* the step's column: `show steps`, or the live trace's */
		int k = 1;
		bool steps = s->trace == TRACE_STEPS;
		if (c->argc > k && !strcmp(c->argv[k], "steps")) {
			steps = true;
			k++;
		}
		if (c->argc > k && (parse_num(c->argv[k], &last) < 0 || last < 0))
			return cli_error(s, "trace show [steps] [N]: N must be a count of events");
		size_t from = last && (size_t)last < s->nev ? s->nev - (size_t)last : 0;
		char buf[512];
		for (size_t i = from; i < s->nev; i++) {
			(steps ? vfs_event_text_point : vfs_event_text)
				(s->w, &s->ev[i], buf, sizeof buf);
			out(s, "%s\n", buf);
		}
		if (s->ev_dropped)
			out(s, "(%zu later events were not kept)\n", s->ev_dropped);
		if (!s->nev)
			out(s, "the trace is empty: nothing has run yet%s\n",
			    vfs_world_step(s->w) ? " (or since 'trace clear')" : "");
	} else {
		return cli_error(s, "trace: expected on, steps, off, jsonl, show or clear, not '%s'", a);
	}
	return 0;
}

HANDLER(c_stats)
{
	(void)c;
	const struct vfs_stats *st = vfs_world_stats(s->w);
	static const int order[] = { LC_F_POS_LOCK, LC_I_RWSEM_DIR, LC_I_RWSEM, LC_F_LOCK,
		LC_RENAME_MUTEX };
	static const char *const label[] = { "f_pos_lock", "i_rwsem (dirs)",
		"i_rwsem (files)", "f_lock", "rename_mutex" };
	out(s, "%-16s %10s %10s %12s %9s\n", "lock class", "acquired", "contended",
	    "steps waiting", "per call");
	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
		out(s, "%-16s %10u %10u %12u %9.2f\n", label[i], st->acquire[order[i]],
		    st->contended[order[i]], st->wait_steps[order[i]],
		    st->calls ? (double)st->acquire[order[i]] / st->calls : 0.0);
	/* the processes' exec locks: the era's, and any other era's taken
	 * before a `set exec-lock` */
	for (int e = 0; e < EXECLOCK__COUNT; e++) {
		int c = vfs_exec_locks[e].cls;
		if (e != vfs_world_knobs(s->w)->exec_lock && !st->acquire[c] && !st->contended[c])
			continue;
		out(s, "%-16s %10u %10u %12u %9.2f\n", vfs_exec_locks[e].name,
		    st->acquire[c], st->contended[c], st->wait_steps[c],
		    st->calls ? (double)st->acquire[c] / st->calls : 0.0);
	}
	out(s, "calls %u, atomic operations %u (%.2f per call)\n", st->calls, st->atomics,
	    st->calls ? (double)st->atomics / st->calls : 0.0);
	for (int sy = 1; sy < SYS__COUNT; sy++)
		if (st->calls_by_sys[sy])
			out(s, "  %-12s %6u calls %8.2f atomics/call\n", vfs_sys[sy].kname,
			    st->calls_by_sys[sy],
			    (double)st->atomics_by_sys[sy] / st->calls_by_sys[sy]);
	return 0;
}

HANDLER(c_history)
{
	(void)c;
	for (size_t i = 0; i < s->nhist; i++)
		out(s, "%5zu  %s\n", i + 1, s->hist[i]);
	return 0;
}
