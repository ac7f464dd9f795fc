/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_cli.c - the shell's side of `explore`: options, the progress
 * line, the summary, the counterexample as an interleaving table, and
 * `explore replay K` / `explore save FILE [K]`.  The engine is core's
 * (core/explore.h); this file only asks and formats.
 */
#include "vfsim.h"
#include "explore.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "explore_cli.h"

struct xstate {
	struct vfs_world *snap;         /* the world explore started from */
	size_t nlog;                    /* the log's length then */
	struct vfs_explore_result r;
	/* why the search is not a proof ("stopped after N states: not a
	 * proof"), or "" when it covered everything */
	char partial[160];
};

static struct xstate *xs(const struct session *s)
{
	return s->explore;
}

bool explore_cli_active(const struct session *s)
{
	return xs(s) && xs(s)->nlog == s->nlog;
}

int explore_cli_count(const struct session *s, int kind, int field)
{
	(void)field;    /* (per-field counts are not kept per execution) */
	const struct xstate *x = xs(s);
	switch (kind) {
	case RPT_DUPLICATE: return (int)x->r.kind_execs[VX_DUPLICATE];
	case RPT_RACE:      return (int)x->r.kind_execs[VX_RACE];
	case RPT_DEADLOCK:  return (int)x->r.kind_execs[VX_DEADLOCK];
	case RPT_DEADDIR:   return (int)x->r.kind_execs[VX_DEADDIR];
	case RPT_SKIPPED:   return (int)x->r.kind_execs[VX_SKIPPED];
	case RPT_LOCKORDER: return (int)x->r.kind_execs[VX_LOCKORDER];
	}
	return 0;
}

const char *explore_cli_partial(const struct session *s)
{
	const struct xstate *x = xs(s);
	return x && x->partial[0] ? x->partial : NULL;
}

/* The first line of a search cut short, whatever the engine. */
static void set_partial(struct xstate *x, const struct vfs_explore_opts *o)
{
	const struct vfs_explore_result *r = &x->r;
	static const char *const why[] = {
		[XCUT_NONE] = "", [XCUT_MAX] = "at max", [XCUT_BOUND] = "bounded",
		[XCUT_STOP] = "interrupted", [XCUT_DEPTH] = "too deep",
		[XCUT_ERROR] = "failed", [XCUT_TABLE] = "the visited-state table is full",
	};
	const char *w = r->cut < sizeof why / sizeof why[0] ? why[r->cut] : "failed";
	/* Ctrl-C as the table filled: the engine names the table, the user
	 * pressed Ctrl-C */
	if (o->stop && *o->stop)
		w = why[XCUT_STOP];
	char bound[48] = "";
	if (r->cut == XCUT_BOUND)
		snprintf(bound, sizeof bound, " by %d preemption%s", o->bound,
			 o->bound == 1 ? "" : "s");
	else if (r->cut == XCUT_MAX)
		snprintf(bound, sizeof bound, " %llu", (unsigned long long)o->max);
	x->partial[0] = 0;
	if (r->complete)
		return;
	if (r->stateful)
		snprintf(x->partial, sizeof x->partial, "stopped after %llu states (%s%s): "
			 "not a proof", (unsigned long long)r->states, w, bound);
	else
		snprintf(x->partial, sizeof x->partial, "stopped after %llu execution%s "
			 "(%s%s): not a proof", (unsigned long long)r->executions,
			 r->executions == 1 ? "" : "s", w, bound);
}

void explore_cli_forget(struct session *s)
{
	struct xstate *x = xs(s);
	if (!x)
		return;
	vfs_explore_result_free(&x->r);
	vfs_world_free(x->snap);
	free(x);
	s->explore = NULL;
}

/* ---- the progress line ---- */

#ifdef VFSIM_FUZZ
static volatile sig_atomic_t fuzz_stop;
#endif

static void progress(void *ctx, const struct vfs_explore_progress *p)
{
	struct session *s = ctx;
#ifdef VFSIM_FUZZ
	if (p->seconds > 0.25)          /* the first report stops the search */
		fuzz_stop = 1;
#endif
	if (!s->interactive || s->silent)
		return;
	if (p->stateful)
		fprintf(stderr, "\rexplore stateful: %llu states, %.0f/s%s, %llu violating   ",
			(unsigned long long)p->states, p->rate,
			p->round > 1 ? " (searching again)" : "",
			(unsigned long long)p->violating);
	else if (p->estimate)
		fprintf(stderr, "\rexplore: %llu executions, %.0f/s, about %llu in all, "
			"%llu violating   ", (unsigned long long)p->executions, p->rate,
			(unsigned long long)p->estimate, (unsigned long long)p->violating);
	else
		fprintf(stderr, "\rexplore: %llu executions, %.0f/s, %llu violating   ",
			(unsigned long long)p->executions, p->rate,
			(unsigned long long)p->violating);
	fflush(stderr);
}

/* ---- the counterexample as a table: a column per thread ---- */

struct rows {
	struct vfs_event *ev;
	size_t n, cap;
};

static void collect(void *ctx, const struct vfs_world *w, const struct vfs_event *ev)
{
	(void)w;
	struct rows *r = ctx;
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 256;
		struct vfs_event *nv = realloc(r->ev, r->cap * sizeof *nv);
		if (!nv)
			return;
		r->ev = nv;
	}
	r->ev[r->n++] = *ev;
}

/* What one step of one thread did, in a few words. */
static void step_label(const struct vfs_world *w, const struct vfs_event *ev, size_t n,
		       char *buf, size_t cap)
{
	const struct vfs_event *best = NULL;
	int entries = 0;
	for (size_t i = 0; i < n; i++) {
		const struct vfs_event *e = &ev[i];
		if (e->op == OP_ACQUIRE || e->op == OP_BLOCK || e->op == OP_RELEASE ||
		    e->op == OP_DOWNGRADE || e->op == OP_SKIP) {
			if (!best || best->op == OP_ENTER || best->op == OP_EXIT ||
			    best->op == OP_READ || best->op == OP_WRITE)
				best = e;
		} else if (e->op == OP_EMIT) {
			entries++;
		} else if (!best && (e->op == OP_ENTER || e->op == OP_WRITE)) {
			best = e;
		}
	}
	if (!best && n)
		best = &ev[0];
	if (!best) {
		buf[0] = 0;
		return;
	}
	const char *cls = vfs_class_name(best->cls);
	switch (best->op) {
	case OP_ACQUIRE: snprintf(buf, cap, "%s +%s %s", vfs_fn_name(best->fn), cls,
				  vfs_mode_name(best->mode)); break;
	case OP_BLOCK:   snprintf(buf, cap, "%s waits %s", vfs_fn_name(best->fn), cls); break;
	case OP_RELEASE: snprintf(buf, cap, "%s -%s", vfs_fn_name(best->fn), cls); break;
	case OP_DOWNGRADE: snprintf(buf, cap, "downgrade_write"); break;
	case OP_SKIP:    snprintf(buf, cap, "skip f_pos_lock"); break;
	case OP_WRITE:   snprintf(buf, cap, "%s %s=%lld", vfs_fn_name(best->fn),
				  vfs_field_name(best->field), (long long)best->value); break;
	default:
		snprintf(buf, cap, "%s", vfs_fn_name(best->fn));
		if (entries) {
			size_t o = strlen(buf);
			snprintf(buf + o, cap - o, " (%d %s)", entries, entries == 1 ? "entry" : "entries");
		}
	}
	(void)w;
}

static void print_table(struct session *s, const struct xstate *x, const uint8_t *sched,
			int len)
{
	struct vfs_world *w = calloc(1, sizeof *w);
	struct rows rows = { 0 };
	if (!w)
		return;
	vfs_world_copy(w, x->snap);
	struct vfs_sink sink = { collect, &rows };
	vfs_explore_replay(w, sched, len, &sink);
	/* the threads that take part, as columns */
	int cols[VFS_MAX_THREADS], ncols = 0;
	for (int t = 0; t < w->nthreads; t++)
		for (int i = 0; i < len; i++)
			if (sched[i] == t) {
				cols[ncols++] = t;
				break;
			}
	int width = ncols ? (int)((80 - 6) / ncols) - 1 : 20;
	if (width < 18)
		width = 18;
	if (width > 34)
		width = 34;
	char th[32];
	out(s, "%5s", "step");
	for (int c = 0; c < ncols; c++) {
		vfs_thread_name(w, cols[c], th, sizeof th);
		out(s, " %-*s", width, th);
	}
	out(s, "\n");
	size_t e = 0;
	int first_step = x->snap->step;
	for (int i = 0; i < len; i++) {
		int step = first_step + i + 1;
		size_t from = e;
		while (e < rows.n && rows.ev[e].step == step)
			e++;
		/* the step's own thread's events */
		struct vfs_event mine[64];
		size_t nm = 0;
		for (size_t k = from; k < e && nm < 64; k++)
			if (rows.ev[k].tid == sched[i])
				mine[nm++] = rows.ev[k];
		char label[96];
		step_label(w, mine, nm, label, sizeof label);
		bool switched = i > 0 && sched[i] != sched[i - 1];
		out(s, "%5d", step);
		for (int c = 0; c < ncols; c++)
			out(s, " %-*.*s", width, width, cols[c] == sched[i] ? label : "");
		out(s, "%s\n", switched ? "" : "");
	}
	/* what went wrong in it, in the detectors' words */
	for (int i = x->snap->det.nreports; i < w->det.nreports; i++) {
		char buf[512];
		vfs_report_text(w, &w->det.reports[i], buf, sizeof buf);
		out(s, "  %s%s%s\n", color_on(s, "\033[31m"), buf, color_off(s));
	}
	if (vfs_all_blocked(w))
		out(s, "  %severy live thread is blocked: deadlock%s\n", color_on(s, "\033[31m"),
		    color_off(s));
	free(rows.ev);
	vfs_world_free(w);
}

static int run_explore(struct session *s, const struct cmd_call *c)
{
	struct vfs_explore_opts o;
	vfs_explore_opts_init(&o);
	for (int i = 0; i < c->argc; i++) {
		const char *a = c->argv[i];
		long long v;
		if (!strcmp(a, "naive")) {
			o.naive = 1;
			continue;
		}
		if (!strcmp(a, "stateful")) {
			o.stateful = 1;
			continue;
		}
		if (!strcmp(a, "max") || !strcmp(a, "jobs") || !strcmp(a, "bound")) {
			if (i + 1 >= c->argc)
				return cli_error(s, "explore %s: needs a number", a);
			const char *n = c->argv[++i];
			if (parse_num(n, &v) < 0 || v < 0)
				return cli_error(s, "explore %s: '%s' is not a number from 0 "
						 "to %lld", a, n, LLONG_MAX);
			if (!strcmp(a, "max")) {
				if (!v)
					return cli_error(s, "explore max 0: no execution would run "
							 "(leave max out for no limit)");
				o.max = (uint64_t)v;
			} else if (!strcmp(a, "jobs")) {
				if (v > 64)
					return cli_error(s, "explore jobs %s: at most 64", n);
				o.jobs = (int)v;
			} else {
				if (v > 1000)
					return cli_error(s, "explore bound %s: at most 1000 "
							 "preemptions", n);
				o.bound = (int)v;
			}
			continue;
		}
		return cli_error(s, "explore: unknown option '%s' (max N, jobs N, naive, "
				 "bound K, stateful, replay K, save FILE)", a);
	}
	/* the stateful search counts states, not executions or preemptions */
	if (o.stateful && (o.max || o.bound >= 0))
		return cli_error(s, "explore stateful: '%s' bounds the search of executions; "
				 "the stateful one visits every state (Ctrl-C stops it)",
				 o.max ? "max" : "bound");
#ifdef VFSIM_FUZZ
	/* tests/fuzz: explore's size is not what is tested; every search is
	 * bounded in executions, states, depth and time, whatever the engine
	 * (the table of 2^10 states fills: cut short, "table full") */
	if (!o.max || o.max > 20)
		o.max = 20;
	o.state_bits = 10;
	o.learn_runs = 2;
	o.max_depth = 2000;
	o.jobs = 1;
	fuzz_stop = 0;
	o.stop = &fuzz_stop;
#else
	o.stop = s->interrupted;
#endif
	int work = 0;
	for (int t = 0; t < s->w->nthreads; t++)
		work += vfs_has_work(s->w, t);
	if (!work)
		return cli_error(s, "explore: no pending calls (start some with 'THREAD: CALL &')");
	explore_cli_forget(s);
	struct xstate *x = calloc(1, sizeof *x);
	if (!x || !(x->snap = calloc(1, sizeof *x->snap))) {
		free(x);
		return cli_error(s, "explore: out of memory");
	}
	vfs_world_copy(x->snap, s->w);
	x->nlog = s->nlog;
	o.progress = progress;
	o.progress_ctx = s;
	if (vfs_explore(x->snap, &o, &x->r) < 0) {
		int e = errno;
		vfs_world_free(x->snap);
		free(x);
		return cli_error(s, "explore failed: %s", strerror(e));
	}
	s->explore = x;
	if (s->interactive && !s->silent)
		fprintf(stderr, "\r%60s\r", "");
	const struct vfs_explore_result *r = &x->r;
	set_partial(x, &o);
	if (x->partial[0])
		out(s, "%s%s%s\n", color_on(s, "\033[33m"), x->partial, color_off(s));
	if (o.bound >= 0 && !o.naive)
		out(s, "bound %d: the reduction is off (preemption bounding needs every "
		    "interleaving, as naive)\n", o.bound);
	if (r->stateful) {
		out(s, "explored %llu distinct states, %llu transitions in %.2f s (%s, %d job%s; "
		    "states told apart by a 64-bit hash: P(collision) < %.1g)\n",
		    (unsigned long long)r->states, (unsigned long long)r->transitions,
		    r->seconds, r->complete ? "every reachable state" : "cut short",
		    r->jobs, r->jobs == 1 ? "" : "s", r->collision_p);
		if (o.naive)
			out(s, "step by step: every access visible (naive)\n");
		else
			out(s, "a transition is a block of %.1f steps on average: %d "
			    "location%s hidden by the locking that orders them, %d visible"
			    "%s\n", r->transitions ? (double)r->probes / (double)r->transitions : 0.0,
			    r->hidden_locs, r->hidden_locs == 1 ? "" : "s", r->visible_locs,
			    r->rounds > 1 ? " (the first guess was wrong: searched again)" : "");
		if (!r->violating) {
			out(s, "no violation in %s\n", r->complete ? "any reachable state" :
			    "the states explored");
			return 0;
		}
		out(s, "%s%llu violating transitions or states:%s", color_on(s, "\033[1;31m"),
		    (unsigned long long)r->violating, color_off(s));
		for (int k = 0; k < VX__COUNT; k++)
			if (r->kind_execs[k])
				out(s, " %s in %llu", vfs_xkind_name(k),
				    (unsigned long long)r->kind_execs[k]);
		out(s, "\n");
		if (r->have_cex) {
			out(s, "a shortest path to it ('explore save FILE' writes it):\n");
			print_table(s, x, r->cex_schedule, r->cex_len);
		}
		return 0;
	}
	static const char *const cuts[] = { "complete", "stopped at max", "bounded",
		"interrupted", "too deep", "failed" };
	out(s, "explored %llu execution%s%s in %.2f s (%s%s, %d job%s): %llu distinct "
	    "outcome%s\n", (unsigned long long)r->executions, r->executions == 1 ? "" : "s",
	    o.naive ? " naively" : "", r->seconds, r->complete ? "every interleaving" :
	    cuts[r->cut < 6 ? r->cut : 5], r->complete || r->cut != XCUT_BOUND ? "" : " by preemptions",
	    r->jobs, r->jobs == 1 ? "" : "s", (unsigned long long)r->outcomes,
	    r->outcomes == 1 ? "" : "s");
	if (!r->violating) {
		out(s, "no violation in %s execution\n", r->complete ? "any" : "any explored");
		return 0;
	}
	out(s, "%s%llu violating execution%s:%s", color_on(s, "\033[1;31m"),
	    (unsigned long long)r->violating, r->violating == 1 ? "" : "s", color_off(s));
	for (int k = 0; k < VX__COUNT; k++)
		if (r->kind_execs[k])
			out(s, " %s in %llu", vfs_xkind_name(k), (unsigned long long)r->kind_execs[k]);
	out(s, "\n");
	if (r->have_cex) {
		out(s, "first counterexample: execution %llu, %d preemption%s "
		    "('explore replay %llu' to step through it)\n",
		    (unsigned long long)r->cex_index, r->cex_preemptions,
		    r->cex_preemptions == 1 ? "" : "s", (unsigned long long)r->cex_index);
		print_table(s, x, r->cex_schedule, r->cex_len);
	}
	return 0;
}

static int get_schedule(struct session *s, uint64_t k, const uint8_t **sched)
{
	struct xstate *x = xs(s);
	int len = vfs_explore_schedule(&x->r, k, sched);
	if (len < 0)
		return cli_error(s, "explore: execution %llu was not kept (the first %llu and "
				 "the violating ones are)", (unsigned long long)k,
				 (unsigned long long)x->r.kept_first);
	return len;
}

struct cex_save {
	const struct vfs_world *snap;
	const uint8_t *sched;
	int len;
	long long k;
};

/* The session up to explore, then the execution's steps, thread by thread. */
static int cex_writer(struct session *s, FILE *f, void *ctx)
{
	const struct cex_save *cs = ctx;
	if (session_save(s, f) < 0)
		return -1;
	fprintf(f, "# explored execution %lld: the steps, thread by thread\n", cs->k);
	for (int i = 0; i < cs->len;) {
		int j = i;
		while (j + 1 < cs->len && cs->sched[j + 1] == cs->sched[i])
			j++;
		char th[32];
		vfs_thread_name(cs->snap, cs->sched[i], th, sizeof th);
		if (j > i)
			fprintf(f, "step %s %d\n", th, j - i + 1);
		else
			fprintf(f, "step %s\n", th);
		i = j + 1;
	}
	return ferror(f) ? -1 : 0;
}

HANDLER(c_explore)
{
	if (!c->argc || (strcmp(c->argv[0], "replay") && strcmp(c->argv[0], "save")))
		return run_explore(s, c);
	struct xstate *x = xs(s);
	bool replay = !strcmp(c->argv[0], "replay");
	if (!x)
		return cli_error(s, "explore %s: run explore first", c->argv[0]);
	if (x->nlog != s->nlog)
		return cli_error(s, "explore %s: the world has changed since explore; run it again",
				 c->argv[0]);
	long long k = x->r.have_cex ? (long long)x->r.cex_index : 1;
	int ki = replay ? 1 : 2;
	if (c->argc > ki + 1 || (replay && c->argc < 2) || (!replay && c->argc < 2))
		return cli_error(s, "usage: explore replay K | explore save FILE [K]");
	if (c->argc > ki && (parse_num(c->argv[ki], &k) < 0 || k < 1))
		return cli_error(s, "explore %s: K is an execution number from 1", c->argv[0]);
	const uint8_t *sched;
	int len = get_schedule(s, (uint64_t)k, &sched);
	if (len < 0)
		return -1;
	if (replay) {
		uint8_t *copy = malloc((size_t)len + 1);
		if (!copy)
			return cli_error(s, "out of memory");
		memcpy(copy, sched, (size_t)len);
		explore_cli_forget(s);          /* the world moves on */
		for (int i = 0; i < len; i++) {
			if (!vfs_runnable(s->w, copy[i])) {
				free(copy);
				return cli_error(s, "explore replay: step %d does not fit", i + 1);
			}
			session_step(s, copy[i]);
		}
		free(copy);
		out(s, "now in execution %lld after %d steps: trace, where, back work here\n", k, len);
		return 0;
	}
	struct cex_save cs = { x->snap, sched, len, k };
	if (write_atomic(s, "explore save", c->argv[1], cex_writer, &cs) < 0)
		return -1;
	const char *path = c->argv[1];
	out(s, "saved execution %lld (%d steps) to %s\n", k, len, path);
	return 0;
}
