/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_cli.c - the shell's side of `explore`: options, the progress
 * line, stopping, what `expect` asks of the last explore, and `explore
 * replay K` / `explore save FILE [K]` / `explore outcomes`.  The summary is
 * printed by cli/explore_print.c, the counterexample's table by
 * cli/explore_cex.c.  The engine is core's (core/explore.h); these files
 * only ask and format.
 */
#include "explore.h"
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "commands.h"
#include "explore_cli.h"
#include "explore_print.h"
#include "fns.h"
#include "vfs_file.h"
#include "vfs_thread.h"

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
	int k = kind;
	if (k < 0 || k >= DK__COUNT)
		return 0;
	uint64_t n = x->r.kind_execs[k];
	if (!n && x->r.have_cex && (x->r.cex_kinds >> k & 1))
		n = 1;  /* (the shortest search's: its replay shows it) */
	if (!n && !x->r.complete && x->r.cut == XCUT_FOUND)
		return -1;      /* stopped at another violation: unknown */
	return n > INT32_MAX ? INT32_MAX : (int)n;
}

void explore_cli_limits(const struct session *s, char *buf, size_t n)
{
	vfs_limits_text(xs(s)->r.overflowed, buf, n);
	/* (a table filled only in the shortest counterexample's own search,
	 * which keeps no record of which) */
	if (!buf[0])
		snprintf(buf, n, "a limit of core/vfs_limits.h");
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
	if (r->complete || r->cut == XCUT_FOUND)
		return;         /* (a violation found is an answer, not a cut) */
	if (r->stateful)
		snprintf(x->partial, sizeof x->partial, "stopped after %llu state%s (%s%s): "
			 "not a proof", (unsigned long long)r->states,
			 r->states == 1 ? "" : "s", w, bound);
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

/* "no violation" is not an answer when a detector went off (its table
 * filled, core/vfs_limits.h) in some of what was explored. */
static int no_answer(struct session *s, uint64_t n, const char *what)
{
	char lim[512];
	explore_cli_limits(s, lim, sizeof lim);
	return cli_error(s, "explore: cannot say 'no violation': a detector's table "
			 "filled in %llu of the explored %s: %s",
			 (unsigned long long)n, what, lim);
}

/* ---- the progress line, stopping ---- */

/* Every 2 s once a search has run 2 s, on stderr, on a terminal or not
 * (a line each time off one); not with -q. */
static double last_told;
static bool told;

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
	if (s->quiet || p->seconds < 2.0 || p->seconds - last_told < 2.0)
		return;
	last_told = p->seconds;
	told = true;
	const char *cr = isatty(STDERR_FILENO) ? "\r" : "";
	const char *nl = *cr ? "   " : "\n";
	if (p->shortening)
		fprintf(stderr, "%sexplore: the shortest counterexample%s%s%s: %llu states "
			"step by step, %.0f/s, at %d preemption%s and %d steps, %.0f s%s", cr,
			p->kind >= 0 ? " (" : "", p->kind >= 0 ? vfs_kind_name(p->kind) : "",
			p->kind >= 0 ? ")" : "",
			(unsigned long long)p->states, p->rate, p->preemptions,
			p->preemptions == 1 ? "" : "s", p->depth, p->seconds, nl);
	else if (p->stateful)
		fprintf(stderr, "%sexplore: %llu states, %.0f/s, depth %d, %.0f s%s, "
			"%llu violating%s", cr, (unsigned long long)p->states, p->rate,
			p->depth, p->seconds, p->round > 1 ? " (searching again)" : "",
			(unsigned long long)p->violating, nl);
	else if (p->estimate)
		fprintf(stderr, "%sexplore: %llu executions, %.0f/s, %.0f s, about %llu "
			"in all, %llu violating%s", cr, (unsigned long long)p->executions,
			p->rate, p->seconds, (unsigned long long)p->estimate,
			(unsigned long long)p->violating, nl);
	else
		fprintf(stderr, "%sexplore: %llu executions, %.0f/s, %.0f s, %llu violating%s",
			cr, (unsigned long long)p->executions, p->rate, p->seconds,
			(unsigned long long)p->violating, nl);
	fflush(stderr);
}

/* Ctrl-C and SIGTERM while explore runs: the search stops and reports. */
static volatile sig_atomic_t xstop;
static volatile sig_atomic_t xterm;

static void on_stop(int sig)
{
	xstop = 1;
	if (sig == SIGTERM)
		xterm = 1;
}

static const char *const engine_names[] = { "stateful", "dpor", "naive", "bound", "all" };

/* explore's options that take a number N, and the most N may be */
enum { XNUM_MAX, XNUM_JOBS, XNUM_BOUND, XNUM__COUNT };
static const struct { const char *name; long long most; const char *unit; } xnums[] = {
	[XNUM_MAX] = { "max", LLONG_MAX, "" },
	[XNUM_JOBS] = { "jobs", 64, "" },
	[XNUM_BOUND] = { "bound", 1000, " preemptions" },
};

void explore_cli_options(FILE *f)
{
	for (int k = 0; k < (int)(sizeof engine_names / sizeof *engine_names); k++)
		if (k != ENG_BOUND)     /* (bound K: a number's option) */
			fprintf(f, "xoption\t%s\t-\n", engine_names[k]);
	for (int k = 0; k < XNUM__COUNT; k++)
		fprintf(f, "xoption\t%s\tN\n", xnums[k].name);
}

static int run_explore(struct session *s, const struct cmd_call *c)
{
	struct vfs_explore_opts o;
	int engine = ENG_DEFAULT;
	bool naive = false;
	vfs_explore_opts_init(&o);
	/* a hidden knob for tests/cli/explore-sleep-random.sh: the stateful
	 * search without its sleep sets, to compare what it finds */
	o.no_sleep = getenv("VFSIM_TEST_NO_SLEEP") != NULL;
	/* and one for it to start several workers on small scenarios: the
	 * frontier's items per worker (SPLIT_PER_JOB, 128, by default) */
	const char *split = getenv("VFSIM_TEST_SPLIT");
	o.test_split = split ? atoi(split) : 0;
	for (int i = 0; i < c->argc; i++) {
		const char *a = c->argv[i];
		long long v;
		int e = -1;
		for (int k = 0; k < (int)(sizeof engine_names / sizeof *engine_names); k++)
			if (!strcmp(a, engine_names[k]) && k != ENG_BOUND)
				e = k;
		if (e == ENG_NAIVE) {
			naive = true;
			continue;
		}
		if (e >= 0) {
			if (engine != ENG_DEFAULT && engine != e)
				return cli_error(s, "explore: '%s' and '%s' are two engines: "
						 "choose one", engine_names[engine], a);
			engine = e;
			continue;
		}
		int k = 0;
		while (k < XNUM__COUNT && strcmp(a, xnums[k].name))
			k++;
		if (k < XNUM__COUNT) {  /* its N: the synopsis (cmd_check_args) */
			const char *n = c->argv[++i];
			if (parse_num(n, &v) < 0 || v < 0)
				return cli_error(s, "explore %s: '%s' is not a number from 0 "
						 "to %lld", a, n, LLONG_MAX);
			if (k == XNUM_MAX && !v)
				return cli_error(s, "explore max 0: no execution would run "
						 "(leave max out for no limit)");
			if (v > xnums[k].most)
				return cli_error(s, "explore %s %s: at most %lld%s", a, n,
						 xnums[k].most, xnums[k].unit);
			if (k == XNUM_MAX)
				o.max = (uint64_t)v;
			else if (k == XNUM_JOBS)
				o.jobs = (int)v;
			else
				o.bound = (int)v;
			continue;
		}
		return cli_error(s, "explore: unknown option '%s' (all, stateful, dpor, naive, "
				 "max N, jobs N, bound K; replay K|KIND|TOKEN, save FILE [K], "
				 "outcomes)", a);
	}
	/* the engine, and why */
	const char *why;
	if (o.bound >= 0) {
		if (engine == ENG_STATEFUL || engine == ENG_ALL)
			return cli_error(s, "explore: 'bound K' is for the execution search "
					 "(explore dpor bound K), not '%s'", engine_names[engine]);
		engine = ENG_BOUND;
		why = "every interleaving with at most K preemptions";
	} else if (naive && engine == ENG_DEFAULT) {
		engine = ENG_NAIVE;
		why = "every interleaving, no reduction";
	} else if (engine == ENG_DPOR) {
		why = "each execution once up to independent steps, and its outcome";
	} else if (engine == ENG_STATEFUL) {
		why = "each distinct state once, every violation counted";
	} else if (engine == ENG_ALL) {
		why = "each state once with its results: violations and outcomes";
	} else {
		why = "is any violation reachable?";
	}
	o.naive = naive;
	o.stateful = engine == ENG_DEFAULT || engine == ENG_STATEFUL || engine == ENG_ALL;
	o.first = engine == ENG_DEFAULT;
	o.outcomes = engine == ENG_ALL;
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
#endif
	int work = 0;
	for (int t = 0; t < vfs_world_nthreads(s->w); t++)
		work += vfs_has_work(s->w, t);
	if (!work)
		return cli_error(s, "explore: no pending calls (start some with 'THREAD: CALL &')");
	explore_cli_forget(s);
	struct xstate *x = calloc(1, sizeof *x);
	if (!x || !(x->snap = vfs_world_alloc()) || !vfs_world_copy(x->snap, s->w)) {
		/* (a snapshot short of a table would be explored as a
		 * world it is not) */
		if (x)
			vfs_world_free(x->snap);
		free(x);
		return cli_errno(s, "explore", NULL, -VE_NOMEM);
	}
	x->nlog = s->nlog;
	struct sigaction sa, oint, oterm;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	xstop = xterm = 0;
	sigaction(SIGINT, &sa, &oint);
	sigaction(SIGTERM, &sa, &oterm);
#ifdef VFSIM_FUZZ
	fuzz_stop = 0;
	o.stop = &fuzz_stop;
#else
	o.stop = &xstop;
#endif
	o.progress = progress;
	o.progress_ctx = s;
	last_told = 0;
	told = false;
	int rc = vfs_explore(x->snap, &o, &x->r);
	if (rc == 0 && o.stateful && x->r.cut == XCUT_ERROR && !xstop) {
		/* a cycle in the state graph: the execution search copes */
		vfs_explore_result_free(&x->r);
		engine = ENG_DPOR;
		o.stateful = o.first = o.outcomes = 0;
		why = "the state graph has a cycle: each execution instead";
		rc = vfs_explore(x->snap, &o, &x->r);
	}
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGTERM, &oterm, NULL);
	if (told && isatty(STDERR_FILENO))
		fprintf(stderr, "\n");
	if (rc < 0) {
		int e = errno;
		vfs_world_free(x->snap);
		free(x);
		/* (out of memory in any of its searches: no answer, and the
		 * line every command says it in, "explore: out of memory") */
		if (e == ENOMEM)
			return cli_errno(s, "explore", NULL, -VE_NOMEM);
		return cli_error(s, "explore failed: %s", strerror(e));
	}
	s->explore = x;
	if (s->interrupted)
		*s->interrupted = 0;    /* (the Ctrl-C was explore's) */
	set_partial(x, &o);
	if (x->partial[0])      /* (first: a search cut short is no proof) */
		out(s, "%s%s%s\n", color_on(s, "\033[1;33m"), x->partial, color_off(s));
	out(s, "engine: %s (%d job%s): %s\n", engine == ENG_DEFAULT ?
	    "stateful" : engine_names[engine], x->r.jobs,
	    x->r.jobs == 1 ? "" : "s", why);
	if (engine == ENG_BOUND && !o.naive)
		out(s, "bound %d: the reduction is off (preemption bounding needs every "
		    "interleaving, as naive)\n", o.bound);
	explore_print_units(s, x, &o);
	if (engine == ENG_DEFAULT)
		explore_print_default(s, x);
	else if (o.stateful)
		explore_print_stateful(s, x, engine, &o);
	else
		explore_print_dpor(s, x, &o);
	if (xterm) {
		fflush(stdout);
		signal(SIGTERM, SIG_DFL);
		raise(SIGTERM);
	}
	vfs_explore_result_trim(&x->r);        /* (the report is out) */
	/* (as print_*: the default engine answers by its counterexample) */
	if (!(engine == ENG_DEFAULT ? x->r.have_cex : x->r.violating != 0) &&
	    x->r.kind_execs[DK_OVERFLOW])
		return no_answer(s, x->r.kind_execs[DK_OVERFLOW],
				 o.stateful || engine == ENG_DEFAULT ? "states" : "executions");
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
	if (session_save(s, f, false) < 0)
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

/* 'explore replay TOKEN': thread names with counts ("A*5 B*9 A*3"), from
 * the words W[0..N); the schedule in *OUT (malloc'd), its length; -1 with
 * a message when a word does not parse. */
static int parse_token(struct session *s, const struct vfs_world *w, char **words, int n,
		       uint8_t **out_sched)
{
	size_t cap = 256, len = 0;
	uint8_t *sch = malloc(cap);
	if (!sch)
		return cli_errno(s, NULL, NULL, -VE_NOMEM);
	for (int i = 0; i < n; i++) {
		char name[64];
		const char *star = strchr(words[i], '*');
		size_t nl = star ? (size_t)(star - words[i]) : strlen(words[i]);
		long long count = 1;
		if (!nl || nl >= sizeof name ||
		    (star && (parse_num(star + 1, &count) < 0 || count < 1 || count > 1000000))) {
			free(sch);
			return cli_error(s, "explore replay: '%s' is not THREAD or THREAD*N",
					 words[i]);
		}
		memcpy(name, words[i], nl);
		name[nl] = 0;
		int t = vfs_thread_by_name(w, name);
		if (t < 0) {
			free(sch);
			return cli_error(s, "explore replay: no thread '%s'", name);
		}
		while (count-- > 0) {
			if (len == cap) {
				uint8_t *m = realloc(sch, cap *= 2);
				if (!m) {
					free(sch);
					return cli_errno(s, NULL, NULL, -VE_NOMEM);
				}
				sch = m;
			}
			sch[len++] = (uint8_t)t;
		}
	}
	*out_sched = sch;
	return (int)len;
}

/* Step SCHED (LEN steps) in the session; the log records each step. */
static int step_schedule(struct session *s, const uint8_t *sched, int len)
{
	for (int i = 0; i < len; i++) {
		if (sched[i] >= vfs_world_nthreads(s->w) || !vfs_runnable(s->w, sched[i]))
			return cli_error(s, "explore replay: step %d does not fit: the thread "
					 "cannot run then", i + 1);
		session_step(s, sched[i]);
	}
	return 0;
}

/* The world back where explore started, after an earlier replay. */
static int rewind_replay(struct session *s, struct xstate *x)
{
	if (x->nlog == s->nlog)
		return 0;
	if (!x->replay_len || x->replay_nlog != s->nlog)
		return cli_error(s, "explore: the world has changed since explore; run it again");
	s->explore = NULL;      /* (the log's set-up lines may reset the session) */
	session_replay(s, (size_t)x->replay_len);
	s->explore = x;
	if (s->nlog != x->nlog)
		return cli_error(s, "explore: the world has changed since explore; run it again");
	x->replay_len = 0;
	return 0;
}

static int list_outcomes(struct session *s, struct xstate *x)
{
	const struct vfs_explore_result *r = &x->r;
	if (!r->out_sched)
		return cli_error(s, "explore outcomes: run 'explore all' first (it keeps one "
				 "execution per distinct outcome)");
	struct vfs_world *w = vfs_world_alloc(), *keep = s->w;
	if (!w)
		return cli_errno(s, NULL, NULL, -VE_NOMEM);
	char ret[sizeof s->ret];
	memcpy(ret, s->ret, sizeof ret);
	int have = s->have_ret;
	out(s, "%llu distinct outcome%s (the calls' results, then each open file's f_pos):\n",
	    (unsigned long long)r->outcomes, r->outcomes == 1 ? "" : "s");
	int rc = 0;
	for (int i = 0; i < r->nout_sched && rc == 0; i++) {
		if (!vfs_world_copy(w, x->snap)) {
			rc = cli_errno(s, NULL, NULL, -VE_NOMEM);
			break;
		}
		out(s, "outcome %d: schedule ", i + 1);
		explore_print_token(s, x->snap, r->out_sched[i], r->out_len[i]);
		out(s, "\n");
		s->w = w;       /* the results as the session prints them */
		int quiet = s->quiet;
		s->quiet = 0;
		for (int k = 0; k < r->out_len[i]; k++) {
			int t = r->out_sched[i][k];
			if (!vfs_runnable(w, t))
				break;
			if (vfs_step(w, t, NULL)) {
				out(s, "  ");
				session_print_result(s, t);
			}
		}
		s->w = keep;
		s->quiet = quiet;
		out(s, "  f_pos:");
		for (int f = 0; f < vfs_world_nfiles(w); f++)
			if (vfs_file_kind(w, f) != FK_NONE)
				out(s, " file#%d=%lld", vfs_file_id(w, f),
				    (long long)vfs_file_pos(w, f));
		out(s, "\n");
	}
	if ((uint64_t)r->nout_sched < r->outcomes)
		out(s, "(the first %d are listed)\n", r->nout_sched);
	memcpy(s->ret, ret, sizeof ret);
	s->have_ret = have;
	vfs_world_free(w);
	return rc;
}

const char c_explore_help[] =
	"Explores every interleaving of the pending calls from here and says which\n"
	"engine it used and why.  Plain 'explore' first runs, for 2,048 steps, the\n"
	"executions of no preemption, then of one, or at size those of a round\n"
	"robin with one thread held back once (a broken kernel's race is most\n"
	"often there, at any size); then it visits each distinct state once (as\n"
	"SPIN does) and stops at the first violation; beside it a search, fewest\n"
	"preemptions first, then fewest steps, gives the shortest counterexample:\n"
	"a table with a column per thread, then its schedule token (A*5 B*9 A*3),\n"
	"which 'explore replay TOKEN' steps in any session.  'all' goes on past\n"
	"violations and counts them and the distinct outcomes ('explore outcomes'\n"
	"lists them); 'stateful' counts the violations; 'dpor' runs each execution\n"
	"(partial-order reduction), 'naive' every interleaving, 'bound K' those with\n"
	"at most K preemptions.  'max N' bounds the work to N units, one budget\n"
	"its parts share in turn (the probe's executions, the searches' states,\n"
	"the check's executions; the report says what each used); 'jobs N'\n"
	"workers.  'explore replay K', 'replay KIND' or 'replay TOKEN'\n"
	"makes execution K, the first counterexample of a kind (race, duplicate,\n"
	"deadlock, ...) or the schedule the current state; 'explore save FILE [K]'\n"
	"writes it as a script of steps.  After\n"
	"explore, expect race/duplicate/deadlock speak of what it explored.\n"
	"A search cut short (max, Ctrl-C, a full table) says so in its first line,\n"
	"'stopped after N ...: not a proof', and every later 'expect no ...' about\n"
	"it fails with that line.  A search longer than 2 s prints its progress;\n"
	"Ctrl-C stops it.";

HANDLER(c_explore)
{
	if (!c->argc || (strcmp(c->argv[0], "replay") && strcmp(c->argv[0], "save") &&
			 strcmp(c->argv[0], "outcomes")))
		return run_explore(s, c);
	struct xstate *x = xs(s);
	bool replay = !strcmp(c->argv[0], "replay");
	long long k = x && x->r.have_cex ? (long long)x->r.cex_index : 1;
	/* a token replays in any session, explored or not */
	if (replay && c->argc >= 2 && parse_num(c->argv[1], &k) < 0 &&
	    vfs_kind_lookup(c->argv[1]) < 0) {
		if (x && rewind_replay(s, x) < 0)
			return -1;
		uint8_t *sch = NULL;
		int len = parse_token(s, s->w, (char **)c->argv + 1, c->argc - 1, &sch);
		if (len < 0)
			return -1;
		size_t before = s->nlog;
		int rc = step_schedule(s, sch, len);
		free(sch);
		if (x) {
			x->replay_nlog = s->nlog;
			x->replay_len = (int)(s->nlog - before);
		}
		if (rc < 0)
			return -1;
		out(s, "replayed %d steps: trace, where, back work here\n", len);
		return 0;
	}
	if (!x)
		return cli_error(s, "explore %s: run explore first", c->argv[0]);
	if (!strcmp(c->argv[0], "outcomes"))
		return list_outcomes(s, x);
	if (x->nlog != s->nlog && (!x->replay_len || x->replay_nlog != s->nlog))
		return cli_error(s, "explore %s: the world has changed since explore; run it again",
				 c->argv[0]);
	int ki = replay ? 1 : 2;
	if (c->argc > ki + 1 || c->argc < 2)
		return cli_error(s, "usage: explore replay K|KIND|TOKEN | explore save FILE [K]");
	const uint8_t *sched = NULL;
	int len = -1;
	int kind = c->argc > ki ? vfs_kind_lookup(c->argv[ki]) : -1;
	if (kind >= 0) {
		if (!x->r.kind_sched[kind])
			return cli_error(s, "explore %s: no %s was found", c->argv[0], c->argv[ki]);
		sched = x->r.kind_sched[kind];
		len = x->r.kind_len[kind];
	} else {
		if (c->argc > ki && (parse_num(c->argv[ki], &k) < 0 || k < 1))
			return cli_error(s, "explore %s: K is an execution number from 1, or a "
					 "kind (race, duplicate, deaddir, deadlock, ...)", c->argv[0]);
		len = get_schedule(s, (uint64_t)k, &sched);
		if (len < 0)
			return -1;
	}
	if (replay) {
		uint8_t *copy = malloc((size_t)len + 1);
		if (!copy)
			return cli_errno(s, NULL, NULL, -VE_NOMEM);
		memcpy(copy, sched, (size_t)len);
		if (rewind_replay(s, x) < 0) {
			free(copy);
			return -1;
		}
		int rc = step_schedule(s, copy, len);
		free(copy);
		x->replay_nlog = s->nlog;
		x->replay_len = (int)(s->nlog - x->nlog);
		if (rc < 0)
			return -1;
		if (kind >= 0)
			out(s, "now in the first %s found, after %d steps: trace, where, back work "
			    "here\n", vfs_kind_name(kind), len);
		else
			out(s, "now in execution %lld after %d steps: trace, where, back work here\n",
			    k, len);
		return 0;
	}
	/* the session up to explore, then the steps: a replay undone first */
	bool rewound = x->nlog != s->nlog;
	if (rewind_replay(s, x) < 0)
		return -1;
	struct cex_save cs = { x->snap, sched, len, k };
	if (write_atomic(s, "explore save", c->argv[1], cex_writer, &cs) < 0)
		return -1;
	if (rewound)
		out(s, "(the replay was undone: the world is where explore started)\n");
	const char *path = c->argv[1];
	out(s, "saved execution %lld (%d steps) to %s\n", k, len, path);
	return 0;
}
