/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_run.c - step, run, back: running the pending calls. */
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include "commands.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_thread.h"

#ifdef VFSIM_FUZZ                /* tests/fuzz: a small budget, not a hang */
#define RUN_LIMIT 2000L
#else
#define RUN_LIMIT 10000000L     /* steps one `run` may take */
#endif

static int blocked_msg(struct session *s, int tid)
{
	char why[256];
	session_blocked_line(s, tid, why, sizeof why);
	out(s, "%s%s%s\n", color_on(s, "\033[33m"), why, color_off(s));
	return 0;
}

/* With the trace off, `step` still says what it ran (as gdb says where it
 * stopped): the last thing the thread did in its last step, and what comes
 * next.  A step that finished the call has its result line already. */
static void say_step(struct session *s, int tid, size_t ev_from, bool done)
{
	if (s->trace != TRACE_OFF || s->quiet || done || tid < 0)
		return;
	const struct vfs_event *last = NULL;
	for (size_t i = ev_from; i < s->nev; i++)
		if (s->ev[i].tid == tid)
			last = &s->ev[i];
	char th[32], buf[512], what[512];
	vfs_thread_name(s->w, tid, th, sizeof th);
	if (!last) {
		out(s, "%s took a step\n", th);
		return;
	}
	vfs_event_text(s->w, last, buf, sizeof buf);
	/* the trace line without its step and thread columns, blanks folded */
	const char *p = buf;
	for (int col = 0; col < 2; col++) {
		while (*p == ' ')
			p++;
		while (*p && *p != ' ')
			p++;
	}
	size_t o = 0;
	for (; *p && o + 1 < sizeof what; p++)
		if (*p != ' ' || (o && what[o - 1] != ' '))
			what[o++] = *p;
	while (o && what[o - 1] == ' ')
		o--;
	what[o] = 0;
	bool en;
	int next = vfs_thread_state(s->w, tid) == TS_BLOCKED ? 0 : vfs_next_fn(s->w, tid, &en);
	out(s, "step %d %s: %s%s%s%s%s\n", last->step, th, what, next ? "; next: " : "",
	    next && en ? "enter " : "", next ? vfs_fn_name(next) : "",
	    next && !en ? " goes on" : "");
}

static void report_stuck(struct session *s)
{
	detect_print_stuck(s);  /* cmd_detect.c: the wait-for cycle, lockdep-style */
}

static int step_until(struct session *s, int tid, const char *fname)
{
	int fn = vfs_fn_lookup(fname);
	char th[32];
	vfs_thread_name(s->w, tid, th, sizeof th);
	if (fn == 0) {
		const char *names[VFN__COUNT];
		for (int i = 0; i < VFN__COUNT; i++)
			names[i] = vfs_fn_name(i);
		return cli_unknown(s, "unknown kernel function", fname, names + 1,
				   VFN__COUNT - 1, NULL);
	}
	for (long n = 0; n < RUN_LIMIT; n++) {
		bool enters;
		if (vfs_thread_state(s->w, tid) == TS_BLOCKED) {
			char why[VFS_PATH_MAX + 64];
			session_blocked_on(s, tid, why, sizeof why);
			session_note(s, "%s before %s", why, fname);
			out(s, "%s stopped before %s: ", th, fname);
			return blocked_msg(s, tid);
		}
		if (!vfs_runnable(s->w, tid)) {
			session_note(s, "%s never entered %s", th, fname);
			out(s, "%s: its pending calls are done; it never entered %s\n", th, fname);
			return 0;
		}
		if (vfs_next_fn(s->w, tid, &enters) == fn && enters) {
			out(s, "%s is about to enter %s%s\n", th, fname,
			    n ? "" : " (already)");
			return 0;
		}
		session_step(s, tid);
		if ((n & 1023) == 1023 && session_interrupted(s)) {
			out(s, "interrupted\n");
			return 0;
		}
	}
	return 0;
}

/* All digits (a sign allowed): a number, however long, not a name. */
static bool numeric(const char *w)
{
	w += *w == '-' || *w == '+';
	return *w && strspn(w, "0123456789") == strlen(w);
}

const char c_step_help[] =
	"'step' runs one step of the scheduler's choice; 'step A' one of A's;\n"
	"'step A 5' five. 'step A until ext4_readdir' runs A until it is about to\n"
	"enter that kernel function (or says why it stopped before).";

HANDLER(c_step)
{
	int tid = -1, ai = 0;
	long long n = 1;
	for (int i = 0; i < c->argc && i < 2; i++)
		if (numeric(c->argv[i]) && parse_num(c->argv[i], &n) < 0)
			return cli_error(s, "step: N '%s' is out of range (at most %lld)",
					 c->argv[i], LLONG_MAX);
	n = 1;
	if (ai < c->argc && parse_num(c->argv[ai], &n) < 0) {
		if (resolve_thread(s, c->argv[ai], &tid) < 0)
			return -1;
		ai++;
		n = 1;
	}
	if (ai < c->argc && !strcmp(c->argv[ai], "until")) {
		if (tid < 0)
			return cli_error(s, "step until: name the thread (step THREAD until FUNC)");
		if (ai + 2 != c->argc)  /* (a thread named "until": the schema took it for N) */
			return cli_error(s, "step THREAD until FUNC: one function name");
		return step_until(s, tid, c->argv[ai + 1]);
	}
	if (ai < c->argc && parse_num(c->argv[ai++], &n) < 0)
		return cli_error(s, "step: N must be a number, not '%s'", c->argv[ai - 1]);
	if (ai < c->argc)
		return cli_error(s, "step: too many arguments (step [THREAD] [N])");
	if (n < 0)
		return cli_error(s, "step: N must not be negative");
	int last_tid = -1, given = 0;
	size_t last_ev = s->nev;
	bool last_done = false;
	for (long long i = 0; i < n; i++) {
		if (i + 1 == n)
			last_ev = s->nev;
		if (tid >= 0) {
			char th[32];
			vfs_thread_name(s->w, tid, th, sizeof th);
			if (vfs_thread_state(s->w, tid) == TS_BLOCKED && s->watch) {
				/* compare: blocked under this kernel and not the
				 * other's; the scheduler takes the step */
				if (!given++) {
					char why[VFS_PATH_MAX + 64];
					session_blocked_on(s, tid, why, sizeof why);
					session_note(s, "%s: the scheduler ran instead", why);
				}
				bool done;
				if (session_sched_step(s, &done) < 0) {
					session_note(s, "nothing runnable");
					return 0;
				}
				continue;
			}
			if (vfs_thread_state(s->w, tid) == TS_BLOCKED) {
				char why[256];
				session_blocked_line(s, tid, why, sizeof why);
				return cli_error(s, "step: %s cannot run: %s", th, why);
			}
			if (!vfs_runnable(s->w, tid) && s->watch) {
				session_note(s, "%s had nothing left: %lld of %lld steps not run",
					     th, n - i, n);
				return 0;
			}
			if (!vfs_runnable(s->w, tid))
				return cli_error(s, "step: %s has nothing to run", th);
			last_done = session_step(s, tid);
			last_tid = tid;
		} else {
			bool done;
			int t = session_sched_step(s, &done);
			if (t < 0) {
				if (i == 0)
					out(s, "nothing is runnable\n");
				report_stuck(s);
				return 0;
			}
			last_tid = t;
			last_done = done;
		}
	}
	say_step(s, last_tid, last_ev, last_done);
	return 0;
}

/* A hidden knob for the interactive tests: VFSIM_TEST_STEP_DELAY_US makes
 * each step of `run` that much slower, so that a test can press Ctrl-C
 * during a run. */
static useconds_t step_delay(void)
{
	static long us = -1;
	if (us < 0) {
		const char *e = getenv("VFSIM_TEST_STEP_DELAY_US");
		us = e ? atol(e) : 0;
		if (us < 0 || us > 1000000)
			us = 0;
	}
	return (useconds_t)us;
}

HANDLER(c_run)
{
	int tid = -1;
	useconds_t delay = step_delay();
	if (c->argc && resolve_thread(s, c->argv[0], &tid) < 0)
		return -1;
	for (long n = 0;; n++) {
		if (n >= RUN_LIMIT) {
			out(s, "run: stopped after %ld steps\n", RUN_LIMIT);
			return 0;
		}
		if (delay)
			usleep(delay);
		if (session_interrupted(s)) {   /* a flag: cheap to test each step */
			out(s, "interrupted after %ld steps; the world is as it was then\n", n);
			return 0;
		}
		if (tid >= 0) {
			if (!vfs_runnable(s->w, tid)) {
				if (vfs_thread_state(s->w, tid) == TS_BLOCKED)
					blocked_msg(s, tid);
				return 0;
			}
			session_step(s, tid);
		} else {
			bool done;
			if (session_sched_step(s, &done) < 0)
				break;
		}
	}
	report_stuck(s);
	return 0;
}

HANDLER(c_back)
{
	long long n = 1;
	if (c->argc && (parse_num(c->argv[0], &n) < 0 || n < 0))
		return cli_error(s, "back: N must be a number of steps");
	size_t steps = 0;
	for (size_t i = 0; i < s->nlog; i++)
		steps += s->log[i].kind == REC_STEP;
	if ((size_t)n > steps)
		n = (long long)steps;
	session_replay(s, (size_t)n);
	out(s, "back %lld step%s: now at step %d\n", n, n == 1 ? "" : "s", vfs_world_step(s->w));
	return 0;
}
