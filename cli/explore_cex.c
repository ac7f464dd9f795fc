/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_cex.c - an explore's counterexample as the shell shows it: a table
 * of its steps with a column per thread (what each step did, in a few
 * words, and what the detectors found), and its schedule as a token
 * ("A*5 B*9 A*3") that `explore replay` and `explore save` read back.
 */
#include <stdlib.h>
#include <string.h>
#include "explore_print.h"
#include "fns.h"
#include "vfs_thread.h"

/* the step column's heading: what its names are made of */
#define POINT_HEAD "function:step"

struct rows {
	struct vfs_event *ev;
	size_t n, cap;
	bool lost;              /* out of memory: an event is missing */
};

static void collect(void *ctx, const struct vfs_world *w, const struct vfs_event *ev)
{
	(void)w;
	struct rows *r = ctx;
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 256;
		struct vfs_event *nv = realloc(r->ev, cap * sizeof *nv);
		if (!nv) {
			r->lost = true;
			return;
		}
		r->ev = nv;
		r->cap = cap;
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
		    e->op == OP_DOWNGRADE || e->op == OP_SKIP || e->op == OP_FAIL) {
			/* (an upgrade: its release, then the acquire it made) */
			if (!best || best->op == OP_ENTER || best->op == OP_EXIT ||
			    best->op == OP_READ || best->op == OP_WRITE ||
			    (best->op == OP_RELEASE && e->op == OP_ACQUIRE &&
			     e->lock == best->lock))
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
	case OP_FAIL:    snprintf(buf, cap, "%s fails", vfs_fn_name(best->fn)); break;
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

/* The table of SCHED's first ROWS steps (all: ROWS >= LEN); what went
 * wrong in the whole of it below.  false: out of memory, nothing printed
 * and the command fails (s->nomem: session.c's undo_nomem says it): a
 * table short of a step's events or of a detector's report would show
 * a counterexample it is not. */
static bool print_table(struct session *s, const struct xstate *x, const uint8_t *sched,
			int len, int rows_max)
{
	struct vfs_world *w = vfs_world_alloc();
	struct rows rows = { 0 };
	/* each step named as `where` names it (iterate_dir:lock): its
	 * thread's first event says which; a step that made none (a `return
	 * ... if` not taken) is where the thread stood before it */
	int nrows = len < rows_max ? len : rows_max;
	const char **point = calloc((size_t)nrows + 1, sizeof *point);
	size_t *evlo = calloc((size_t)nrows + 1, sizeof *evlo);
	if (!w || !evlo || !point || !vfs_world_copy(w, x->snap))
		goto nomem;
	struct vfs_sink sink = { collect, &rows };
	for (int i = 0; i < nrows; i++)
		point[i] = "";
	for (int i = 0; i < len; i++) {
		if (i < nrows && sched[i] < vfs_world_nthreads(w))
			point[i] = vfs_resume_point_name(w, sched[i]);
		if (vfs_explore_replay(w, sched + i, 1, &sink) < 1)
			break;
	}
	if (rows.lost || vfs_world_oom(w) == 1)
		goto nomem;
	/* the threads that take part, as columns */
	int cols[VFS_MAX_THREADS], ncols = 0;
	for (int t = 0; t < vfs_world_nthreads(w); t++)
		for (int i = 0; i < len; i++)
			if (sched[i] == t) {
				cols[ncols++] = t;
				break;
			}
	int first_step = vfs_world_step(x->snap), pw = (int)strlen(POINT_HEAD);
	size_t e = 0;
	for (int i = 0; i < nrows; i++) {
		while (e < rows.n && rows.ev[e].step < first_step + i + 1)
			e++;
		evlo[i] = e;
		for (size_t k = e; k < rows.n && rows.ev[k].step == first_step + i + 1; k++)
			if (rows.ev[k].tid == sched[i]) {
				point[i] = vfs_event_point(w, &rows.ev[k]);
				break;
			}
		if ((int)strlen(point[i]) > pw)
			pw = (int)strlen(point[i]);
	}
	/* the threads' columns share what the screen has beside the step's
	 * (off a terminal: 80 columns beside it) */
	int screen = cli_columns(s), room = (screen > 0 ? screen : 80 + pw + 1) - 6 - pw - 1;
	int width = ncols ? room / ncols - 1 : 20;
	if (width < 18)
		width = 18;
	if (width > 34)
		width = 34;
	char th[32];
	out(s, "%5s %-*s", "step", pw, POINT_HEAD);
	for (int c = 0; c < ncols; c++) {
		vfs_thread_name(w, cols[c], th, sizeof th);
		out(s, " %-*s", width, th);
	}
	out(s, "\n");
	for (int i = 0; i < nrows; i++) {
		int step = first_step + i + 1;
		/* the step's own thread's events */
		struct vfs_event mine[64];
		size_t nm = 0;
		for (size_t k = evlo[i]; k < rows.n && rows.ev[k].step == step && nm < 64; k++)
			if (rows.ev[k].tid == sched[i])
				mine[nm++] = rows.ev[k];
		char label[96];
		step_label(w, mine, nm, label, sizeof label);
		out(s, "%5d %-*s", step, pw, point[i]);
		for (int c = 0; c < ncols; c++)
			out(s, " %-*.*s", width, width, cols[c] == sched[i] ? label : "");
		out(s, "\n");
	}
	free(evlo);
	free(point);
	if (rows_max < len)
		out(s, "%5s then %d more step%s, no preemption: each thread runs on until "
		    "it ends or blocks\n", "", len - rows_max, len - rows_max == 1 ? "" : "s");
	/* what went wrong in it, in the detectors' words */
	const struct vfs_detect *det = vfs_world_detect(w);
	for (int i = vfs_world_detect(x->snap)->nreports; i < det->nreports; i++) {
		char buf[512];
		vfs_report_text(w, &det->reports[i], buf, sizeof buf);
		out(s, "  %s%s%s\n", color_on(s, "\033[31m"), buf, color_off(s));
	}
	if (vfs_all_blocked(w))
		out(s, "  %severy live thread is blocked: deadlock%s\n", color_on(s, "\033[31m"),
		    color_off(s));
	free(rows.ev);
	vfs_world_free(w);
	return true;
nomem:
	free(rows.ev);
	free(evlo);
	free(point);
	vfs_world_free(w);
	s->nomem = 1;
	return false;
}

/* The schedule as a token: thread names and counts, "A*5 B*9 A*3". */
void explore_print_token(struct session *s, const struct vfs_world *w,
			 const uint8_t *sched, int len)
{
	for (int i = 0; i < len;) {
		int j = i;
		while (j < len && sched[j] == sched[i])
			j++;
		char th[32];
		vfs_thread_name(w, sched[i], th, sizeof th);
		out(s, "%s%s*%d", i ? " " : "", th, j - i);
		i = j;
	}
}

/* The counterexample: its table up to step UPTO, then its schedule token. */
void explore_print_cex(struct session *s, const struct xstate *x, int upto)
{
	const struct vfs_explore_result *r = &x->r;
	if (!print_table(s, x, r->cex_schedule, r->cex_len, upto))
		return;
	out(s, "schedule: ");
	explore_print_token(s, x->snap, r->cex_schedule, r->cex_len);
	out(s, "\n");
}
