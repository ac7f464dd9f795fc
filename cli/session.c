/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * session.c - one session: its world, the log that rebuilds it, the
 * events it produced, reading scripts line by line with FILE:LINE.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "commands.h"
#include "explore_cli.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"
#include "vfs_thread.h"

#define MAX_SOURCE_DEPTH 16
#define MAX_EVENTS (4u << 20)

/* ---- events ---- */

static void sink_fn(void *ctx, const struct vfs_world *w, const struct vfs_event *ev)
{
	struct session *s = ctx;
	if (s->nev < MAX_EVENTS) {
		if (s->nev == s->capev) {
			/* from small: a session (or a replay of compare's)
			 * that makes few events stays off the allocator's
			 * large-chunk path (a 256 KiB first buffer was an mmap
			 * and a munmap per session) */
			size_t cap = s->capev ? s->capev * 2 : 256;
			struct vfs_event *nev = realloc(s->ev, cap * sizeof *nev);
			if (!nev) {
				/* the command is rolled back (session_exec_line) */
				s->nomem = 1;
				s->ev_dropped++;
				goto told;
			}
			s->ev = nev;
			s->capev = cap;
		}
		s->ev[s->nev++] = *ev;
	} else {
		s->ev_dropped++;
	}
told:
	if (s->watch && s->watch->event)
		s->watch->event(s->watch->ctx, s, ev);
	if (s->replaying || s->silent || s->trace == TRACE_OFF)
		return;
	char buf[512];
	if (s->trace == TRACE_JSONL) {
		vfs_event_jsonl(w, ev, buf, sizeof buf);
		printf("%s\n", buf);   /* the machine's line: always stdout */
	} else {
		(s->trace == TRACE_STEPS ? vfs_event_text_point : vfs_event_text)
			(w, ev, buf, sizeof buf);
		out(s, "%s%s%s\n", color_on(s, "\033[2m"), buf, color_off(s));
	}
}

/* ---- life ---- */

struct session *session_new(void)
{
	cmd_table_init();
	struct session *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	s->w = vfs_world_alloc();
	if (!s->w) {
		free(s);
		return NULL;
	}
	session_reset(s, NULL);
	if (vfs_world_oom(s->w)) {        /* no root: nothing to go on with */
		session_free(s);
		return NULL;
	}
	return s;
}

static void recs_free(struct rec *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].text);
		free(r[i].str[0]);
		free(r[i].str[1]);
	}
}

static void log_clear(struct session *s)
{
	recs_free(s->log, s->nlog);
	s->nlog = 0;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	explore_cli_forget(s);
	define_forget(s);
	log_clear(s);
	free(s->log);
	free(s->ev);
	for (size_t i = 0; i < s->nhist; i++)
		free(s->hist[i]);
	free(s->hist);
	free(s->obuf);
	vfs_world_free(s->w);
	free(s);
}

void session_reset(struct session *s, const struct vfs_preset *p)
{
	define_forget(s);
	explore_cli_forget(s);
	log_clear(s);
	s->nev = 0;
	s->ev_dropped = 0;
	s->have_ret = 0;
	vfs_world_init(s->w, p);
}

/* The world, log and events of *H in the session and the session's in *H. */
static void held_swap(struct session *s, struct session_held *h)
{
	struct session_held t = { s->w, s->log, s->nlog, s->caplog, s->ev, s->nev,
		s->capev, s->ev_dropped, s->have_ret, s->nomem, s->reports_seen, "" };
	memcpy(t.ret, s->ret, sizeof t.ret);
	s->w = h->w;
	s->log = h->log;
	s->nlog = h->nlog;
	s->caplog = h->caplog;
	s->ev = h->ev;
	s->nev = h->nev;
	s->capev = h->capev;
	s->ev_dropped = h->ev_dropped;
	s->have_ret = h->have_ret;
	s->nomem = h->nomem;
	s->reports_seen = h->reports_seen;
	memcpy(s->ret, h->ret, sizeof s->ret);
	*h = t;
}

int session_remake(struct session *s, const struct vfs_preset *p,
		   struct session_held *was)
{
	*was = (struct session_held){ .w = vfs_world_new(p) };
	if (!was->w)
		return -VE_NOMEM;
	held_swap(s, was);
	s->remaking++;
	return 0;
}

int session_remade(struct session *s, struct session_held *was, const char *name)
{
	s->remaking--;
	bool whole = !s->nomem && vfs_world_oom(s->w) != 1;
	if (!whole) {           /* the old world back; the new one goes */
		define_forget(s);       /* (a definition its lines left open) */
		held_swap(s, was);
	}
	recs_free(was->log, was->nlog);
	free(was->log);
	free(was->ev);
	vfs_world_free(was->w);
	if (!whole)
		return cli_errno(s, name, NULL, -VE_NOMEM);
	explore_cli_forget(s);  /* (what it found was of the old world) */
	return 0;
}

/* Room for N more records of the log, grown before the world changes so
 * that what a command did is always logged: -1 when out of memory. */
static int log_room(struct session *s, size_t n)
{
	if (s->nlog + n <= s->caplog)
		return 0;
	size_t cap = s->caplog ? s->caplog : 256;
	while (cap < s->nlog + n)
		cap *= 2;
	struct rec *l = realloc(s->log, cap * sizeof *l);
	if (!l)
		return -1;
	s->log = l;
	s->caplog = cap;
	return 0;
}

/* The log back to its first N records (a command undone). */
static void log_truncate(struct session *s, size_t n)
{
	if (s->nlog > n) {
		recs_free(s->log + n, s->nlog - n);
		s->nlog = n;
	}
}

struct rec *session_log(struct session *s, int kind, int tid, const struct vfs_call *c)
{
	if (s->replaying)
		return NULL;
	if (log_room(s, 1) < 0) {
		s->nomem = 1;
		return NULL;
	}
	struct rec *r = &s->log[s->nlog++];
	memset(r, 0, sizeof *r);
	r->kind = (uint8_t)kind;
	r->tid = (int16_t)tid;
	if (c) {
		for (int i = 0; i < 2; i++)
			if (c->s[i] && !(r->str[i] = strdup(vfs_call_str(s->w, c, i))))
				s->nomem = 1;
		r->call = *c;
	}
	return r;
}

/* A word as the lexer reads it back: bare when it can be, else in '...'
 * with each ' written as '"'"' (never "...", where $ret would expand). */
/* Set-up commands are logged as a canonical line, quoted where needed,
 * whole whatever its length (`back` replays it). */
void session_log_setup(struct session *s, const struct cmd_call *c,
		       const char *name)
{
	char *line = NULL;
	size_t len = 0;
	if (s->replaying)
		return;
	FILE *f = open_memstream(&line, &len);
	if (!f) {
		s->nomem = 1;
		return;
	}
	fputs(name, f);
	for (int i = 0; i < c->argc; i++) {
		fputc(' ', f);
		vfs_print_word(f, c->argv[i]);
	}
	struct rec *r;
	if (fclose(f) != 0 || !line || !(r = session_log(s, REC_SETUP, -1, NULL))) {
		s->nomem = 1;
		free(line);
		return;
	}
	r->text = line;
}

/* Rebuild the world from the log, minus its last DROP_STEPS steps, into a
 * new world (and a new log, new events) that replace the old ones only when
 * it is whole: out of memory (s->nomem) leaves the session as it was. */
void session_replay(struct session *s, size_t drop_steps)
{
	size_t n = s->nlog, keep_steps = 0, total = 0;
	for (size_t i = 0; i < n; i++)
		total += s->log[i].kind == REC_STEP;
	keep_steps = drop_steps > total ? 0 : total - drop_steps;

	struct vfs_world *w = vfs_world_new(vfs_preset_lookup("v6.5"));
	struct rec *old = s->log, *fresh = malloc((n ? n : 1) * sizeof *fresh);
	if (!w || !fresh) {
		vfs_world_free(w);
		free(fresh);
		s->nomem = 1;
		return;
	}
	const struct session was = *s; /* what stays if the replay fails */
	s->w = w;
	s->log = fresh;
	s->nlog = 0;
	s->caplog = n ? n : 1;
	s->ev = NULL;
	s->nev = s->capev = s->ev_dropped = 0;
	s->have_ret = 0;
	s->file = "(replay)";
	s->nomem = 0;
	size_t steps = 0;
	for (size_t i = 0; i < n && !s->nomem && vfs_world_oom(w) != 1; i++) {
		struct rec *r = &old[i];
		if (r->kind == REC_STEP && steps++ >= keep_steps)
			continue;
		s->replaying = 1;
		if (r->kind == REC_SETUP)
			session_exec_line(s, r->text);
		s->replaying = 0;
		if (r->kind == REC_SUBMIT) {
			for (int k = 0; k < 2; k++)
				if (r->str[k] &&
				    vfs_call_set_str(w, &r->call, k, r->str[k]) < 0)
					s->nomem = 1;
			vfs_submit(w, r->tid, &r->call);
			struct rec *nr = session_log(s, REC_SUBMIT, r->tid, &r->call);
			if (nr)
				nr->fg = r->fg;
		} else if (r->kind == REC_STEP) {
			if (r->tid < 0 || r->tid >= vfs_world_nthreads(w) ||
			    !vfs_runnable(w, r->tid))
				continue;       /* a log that no longer fits the world:
						 * never step a thread that has nothing
						 * to run (vfs_step's rule) */
			s->replaying = 1;
			if (r->picked)
				vfs_sched_pick(w);      /* keeps rr/random state exact */
			session_step(s, r->tid);
			s->replaying = 0;
			struct rec *nr = session_log(s, REC_STEP, r->tid, NULL);
			if (nr) {
				nr->picked = r->picked;
				nr->fg = r->fg;
			}
		} else {
			struct rec *nr = session_log(s, REC_SETUP, -1, NULL);
			if (nr && !(nr->text = strdup(r->text)))
				s->nomem = 1;
		}
	}
	s->replaying = 0;
	s->quiet = was.quiet;
	s->trace = was.trace;
	s->file = was.file;
	s->line = was.line;
	bool whole = !s->nomem && vfs_world_oom(w) != 1;
	if (whole) {            /* the new log, world and events stay */
		recs_free(old, n);
		free(old);
		vfs_world_free(was.w);
		free(was.ev);
		return;
	}
	recs_free(s->log, s->nlog);     /* out of memory: the old ones */
	free(s->log);
	vfs_world_free(w);
	free(s->ev);
	define_forget(s);
	void *explore = s->explore;     /* (a replayed `kernel` forgets it) */
	*s = was;
	s->explore = explore;
	s->define = NULL;               /* (none: `back` and undo_nomem) */
	s->nomem = 1;
}

int session_interrupted(struct session *s)
{
	if (s->interrupted && *s->interrupted) {
		*s->interrupted = 0;
		return 1;
	}
	return 0;
}

/* ---- stepping and results ---- */

static void set_ret(struct session *s, int64_t ret)
{
	const char *e = vfs_ret_errno(ret);
	if (e)
		snprintf(s->ret, sizeof s->ret, "%s", e);
	else
		snprintf(s->ret, sizeof s->ret, "%" PRId64, ret);
	s->have_ret = 1;
}

void session_print_result(struct session *s, int tid)
{
	const struct vfs_world *w = s->w;
	const struct vfs_call *rc = vfs_thread_call(w, tid);
	int64_t r = vfs_call_ret(w, tid);
	char th[32], call[256], ret[32], extra[1024] = "";

	set_ret(s, r);
	if (s->quiet || s->replaying)
		return;
	vfs_thread_name(w, tid, th, sizeof th);
	vfs_call_strace(w, rc, call, sizeof call);
	vfs_ret_text(r, ret, sizeof ret);
	if ((vfs_sys[rc->sys].flags & VSYS_DIRENTS) && r >= 0) {
		extra[0] = ' ';
		vfs_rec_entries_text(w, tid, extra + 1, sizeof extra - 1);
	} else if ((vfs_sys[rc->sys].flags & VSYS_READS) && r > 0) {
		char esc[256];
		size_t o = 0;
		/* the bytes read, holes (zeros) too: the first VFS_TEXT_MAX,
		 * which is what the record keeps, then "..." */
		int64_t len = r < VFS_TEXT_MAX ? r : VFS_TEXT_MAX;
		const char *text = vfs_call_text(w, tid);
		for (const char *p = text; p < text + len && o + 5 < sizeof esc; p++) {
			if (*p == '\n') { esc[o++] = '\\'; esc[o++] = 'n'; }
			else if (*p == '"' || *p == '\\') { esc[o++] = '\\'; esc[o++] = *p; }
			else if ((unsigned char)*p < 32) { esc[o++] = '?'; }
			else esc[o++] = *p;
		}
		esc[o] = 0;
		snprintf(extra, sizeof extra, " \"%s\"%s", esc,
			 r > VFS_TEXT_MAX ? "..." : "");
	} else if (rc->sys == SYS_CLONE && r > 0) {
		for (int i = 0; i < vfs_world_nthreads(w); i++)
			if (vfs_thread_ktid(w, i) == r) {
				char nn[32];
				vfs_thread_name(w, i, nn, sizeof nn);
				snprintf(extra, sizeof extra, " (%s)", nn);
			}
	}
	out(s, "%s%s:%s %s = %s%s\n", color_on(s, "\033[1m"), th, color_off(s), call,
	       ret, extra);
}

void session_blocked_line(struct session *s, int tid, char *buf, size_t n)
{
	vfs_blocked_why(s->w, tid, buf, n);     /* core/deadlock.c */
}

void session_live_reports(struct session *s)
{
	const struct vfs_world *w = s->w;
	const struct vfs_detect *det = vfs_world_detect(w);
	if (det->nreports < s->reports_seen)
		s->reports_seen = 0;            /* a new world, or an older one */
	if (!s->live_reports || s->replaying || s->silent) {
		s->reports_seen = det->nreports;
		return;
	}
	char buf[1024];
	for (; s->reports_seen < det->nreports; s->reports_seen++) {
		vfs_report_text(w, &det->reports[s->reports_seen], buf, sizeof buf);
		out(s, "%s!%s %s\n", color_on(s, "\033[1;31m"), color_off(s), buf);
	}
}

bool session_step(struct session *s, int tid)
{
	struct vfs_sink sink = { sink_fn, s };
	bool done = vfs_step(s->w, tid, &sink);
	session_log(s, REC_STEP, tid, NULL);
	if (done) {
		session_print_result(s, tid);
		if (s->watch && s->watch->result)
			s->watch->result(s->watch->ctx, s, tid);
	}
	session_live_reports(s);
	return done;
}

void session_note(struct session *s, const char *fmt, ...)
{
	if (!s->watch || !s->watch->note)
		return;
	char buf[VFS_PATH_MAX + 256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	s->watch->note(s->watch->ctx, s, buf);
}

void session_blocked_on(struct session *s, int tid, char *buf, size_t n)
{
	const struct vfs_world *w = s->w;
	char th[32], ln[VFS_PATH_MAX + 32];
	vfs_thread_name(w, tid, th, sizeof th);
	vfs_lock_name(w, vfs_thread_wait_lock(w, tid), ln, sizeof ln);
	snprintf(buf, n, "%s blocked on %s", th, ln);
}

int session_kill(struct session *s, int proc)
{
	struct vfs_sink sink = { sink_fn, s };
	return vfs_kill(s->w, proc, &sink);
}

int session_sched_step(struct session *s, bool *done)
{
	int tid = vfs_sched_pick(s->w);
	if (tid < 0)
		return -1;
	*done = session_step(s, tid);
	if (!s->replaying && s->nlog)
		s->log[s->nlog - 1].picked = 1;
	return tid;
}

/* ---- lines, files, streams ---- */

/* What a watcher is told a script's own system call is (it has no row
 * of the command table: the script made it) */
static const struct cmd_entry defined_call = {
	.name = "define", .group = "thread", .args = "", .max_args = -1,
	.flags = CMD_THREAD };

/* What a command may have to be rolled back to. */
struct undo {
	size_t nlog;
	int nomem;              /* an enclosing command's (source, lessons) */
	int have_ret;
	char ret[32];
};

static int undo_mark(struct session *s, struct undo *u)
{
	u->nlog = s->nlog;
	u->nomem = s->nomem;
	u->have_ret = s->have_ret;
	memcpy(u->ret, s->ret, sizeof u->ret);
	s->nomem = 0;
	/* room for the records a command makes before its first step, so
	 * that what it did is always logged (session_step grows the log) */
	return s->replaying ? 0 : log_room(s, 2);
}

/*
 * After a command: when memory ran out in it (the log, the events, a step
 * of the world: vfs_world_oom), the command fails and is undone: the log back to
 * what it was, the world rebuilt from it as `back` does, one line
 * "NAME: out of memory" (unless the command failed and said why: the core
 * function's -VE_NOMEM).  A session a `compare` watches is thrown away
 * after it: the line only.
 */
static int undo_nomem(struct session *s, struct undo *u, const char *name, int r)
{
	if (s->replaying || (!s->nomem && vfs_world_oom(s->w) != 1)) {
		s->nomem |= u->nomem;
		return r;
	}
	if (s->remaking) {      /* a line of reset's: reset fails whole */
		s->nomem = 1;
		return -1;
	}
	if (!s->watch) {
		log_truncate(s, u->nlog);
		define_forget(s);       /* the log's open definition comes back */
		s->nomem = 0;
		session_replay(s, 0);
		s->have_ret = u->have_ret;
		memcpy(s->ret, u->ret, sizeof s->ret);
		s->reports_seen = vfs_world_detect(s->w)->nreports;
	}
	if (s->watch) {         /* thrown away after: the watcher says it */
		s->watch->nomem = 1;
		s->nomem = u->nomem;
		return -1;
	}
	if (r == 0)             /* (a command that failed said why) */
		cli_errno(s, name, NULL, -VE_NOMEM);
	if (s->nomem || vfs_world_oom(s->w) == 1) {
		vfs_world_oom_said(s->w);       /* (said once) */
		cli_error(s, "out of memory: the simulated world is incomplete "
			  "from here on ('reset' starts a new one)");
	}
	s->nomem = u->nomem;
	return -1;
}

int session_exec_line(struct session *s, const char *line)
{
	struct lex l;
	if (lex(&l, line, s->have_ret ? s->ret : NULL) < 0)
		return cli_error(s, "column %d: %s", l.errcol, l.err);
	if (!l.nwords)
		return 0;
	if (s->remaking && s->nomem)    /* reset fails: its other lines too */
		return -1;
	struct undo u;
	if (s->define) {        /* a line of a definition (cmd_define.c) */
		int r = undo_mark(s, &u) < 0 ? cli_errno(s, "define", NULL, -VE_NOMEM) :
			define_line(s, &l, line);
		r = undo_nomem(s, &u, "define", r);
		out_flush(s);
		return r;
	}
	const struct cmd_entry *e = cmd_find(l.words[0]);
	/* a system call the script defined: a thread's call (a watching
	 * compare shows it on a row of its own), run by cmd_define.c */
	bool defined = !e && vfs_kfn_lookup(s->w, l.words[0]) >= 0;
	if (!e && !defined) {
		const char *names[256];
		return cli_unknown(s, "unknown command", l.words[0], names,
				   cmd_names(names, 256), "try 'help'");
	}
	struct cmd_call c = { .argc = l.nwords - 1, .argv = l.words + 1,
		.cols = l.cols + 1, .tid = -1, .thread = l.thread,
		.background = l.background, .line = line };
	if (s->watch && s->watch->command &&
	    s->watch->command(s->watch->ctx, s, defined ? &defined_call : e, &c))
		return 0;       /* a replay leaves it out (CMD_NOREPLAY) */
	if (defined) {
		int r = undo_mark(s, &u) < 0 ? cli_errno(s, l.words[0], NULL, -VE_NOMEM) :
			define_call_line(s, &l);
		r = undo_nomem(s, &u, l.words[0], r);
		detect_tell_overflow(s);
		session_live_reports(s);
		out_flush(s);
		return r;
	}
	if (l.thread[0]) {
		if (!(e->flags & CMD_THREAD))
			return cli_error(s, "'%s' is not something a thread does "
					 "(drop '%s:')", e->name, l.thread);
		if (resolve_thread(s, l.thread, &c.tid) < 0)
			return -1;
	} else if (e->sys == SYS_EXIT) {
		return cli_error(s, "exit: quit or Ctrl-D leaves vfsim ('THREAD: exit' "
				 "ends a thread)");
	} else if ((e->flags & CMD_THREAD) && !(e->flags & CMD_WORLD)) {
		return cli_error(s, "'%s' needs a thread: THREAD: %s %s", e->name,
				 e->name, e->args);
	}
	if (cmd_check_args(s, e, &c) < 0)
		return -1;
	int r = undo_mark(s, &u) < 0 ? cli_errno(s, e->name, NULL, -VE_NOMEM) :
		e->fn(s, &c);
	detect_tell_overflow(s);        /* cmd_detect.c: a detector went off */
	if (r == 0 && (e->flags & CMD_LOG) && c.tid < 0)
		session_log_setup(s, &c, e->name);
	r = undo_nomem(s, &u, e->name, r);
	session_live_reports(s);        /* a foreground call's own steps */
	out_flush(s);
	return r;
}

static int run_lines(struct session *s, FILE *in, const char *name)
{
	struct script_reader r;
	int rc = 0, got;
	bool defining = s->define != NULL;
	int ran = 0, shown = 0;         /* lessons N step: commands since the pause */
	const char *ofile = s->file;
	int oline = s->line;

	script_reader_init(&r, in, name);
	while (!s->quit && !s->failed) {
		if (s->stop && *s->stop)
			break;          /* SIGINT/SIGTERM: main says so and exits */
		got = script_reader_next(&r);
		if (got < 0) {
			rc = script_reader_error(s, &r);
			break;
		}
		if (!got)
			break;
		if (s->lesson_step && s->depth == s->lesson_step) {
			/* `lessons N step`: the lesson's comments and commands shown,
			 * a pause before each comment that follows commands */
			const char *p = r.cmd.text + strspn(r.cmd.text, " \t");
			if (*p == '#' && ran) {
				if (lesson_pause(s))
					break;
				ran = 0;
				shown = 1;
			}
			if (*p == '#' && shown)
				out(s, "%s%s%s\n", color_on(s, "\033[2m"), p, color_off(s));
			else if (*p && *p != '#')
				out(s, "%s> %s%s\n", color_on(s, "\033[1m"), p, color_off(s));
			if (*p && *p != '#')
				ran = shown = 1;
		}
		int e = script_reader_exec(s, &r);
		if (s->stop && *s->stop) {
			if (!s->stop_at[0])     /* the innermost script's line */
				snprintf(s->stop_at, sizeof s->stop_at, "%s:%d", name, r.start);
			rc = -1;
			break;
		}
		if (e < 0 || s->errors) {
			rc = -1;
			break;
		}
	}
	if (!defining && s->define && rc == 0 && !s->quit) {
		/* a definition the file began and did not end */
		s->file = name;
		s->line = r.lineno;
		cli_error(s, "define: no 'end' before the end of the file");
		define_forget(s);
		rc = -1;
	}
	script_reader_free(&r);
	s->file = ofile;
	s->line = oline;
	return rc;
}

/* strerror, in the lower case of vfsim's own messages */
const char *errno_text(int e)
{
	static char buf[128];
	snprintf(buf, sizeof buf, "%s", strerror(e));
	if (buf[0] >= 'A' && buf[0] <= 'Z' && !(buf[1] >= 'A' && buf[1] <= 'Z'))
		buf[0] = (char)(buf[0] - 'A' + 'a');
	return buf;
}

int session_source(struct session *s, const char *path)
{
	if (s->depth >= MAX_SOURCE_DEPTH)
		return cli_error(s, "source: nesting deeper than %d (does '%s' source itself?)",
				 MAX_SOURCE_DEPTH, path);
	FILE *f = fopen(path, "r");
	if (!f)
		return cli_error(s, "source: cannot open '%s': %s", path, errno_text(errno));
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return cli_error(s, "source: '%s' is a directory", path);
	}
	char *name = strdup(path);
	if (!name) {
		fclose(f);
		return cli_errno(s, "source", NULL, -VE_NOMEM);
	}
	s->depth++;
	int r = run_lines(s, f, name);
	s->depth--;
	fclose(f);
	free(name);
	return r;
}

int session_run_stream(struct session *s, FILE *in, const char *name)
{
	return run_lines(s, in, name);
}
