/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * timeline.c - `timeline [FROM [TO]]`: the trace as a table, a row per
 * step and a column per thread.  Beside each thread, three narrow columns
 * show the locks it holds (f_pos_lock, i_rwsem, f_lock/rename_mutex/exec
 * lock) and
 * the lock it waits for; then what the thread did in that step.  Read off
 * the trace (picture.c); 80 columns hold three threads.  `timeline steps`
 * adds a column after the step's number naming the step as `where` and
 * `trace steps` do (iterate_dir:lock): the case of the kernel function's
 * switch the step's thread ran.
 */
#include <string.h>
#include "commands.h"
#include "picture.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"

#define TEXT_W  21              /* a thread's label, when the screen has room */
#define TEXT_MIN 10             /* the narrowest label, on a narrow screen */

static const char *const C_FPOS = "\033[33m", *const C_READ = "\033[36m",
	*const C_WRITE = "\033[1;34m", *const C_OTHER = "\033[32m",
	*const C_WAIT = "\033[35m", *const C_MARK = "\033[1;31m",
	*const C_SYS = "\033[1m", *const C_RET = "\033[32m", *const C_DIM = "\033[2m";

/* Characters (not bytes) of UTF-8 text. */
static int width(const char *t)
{
	int w = 0;
	for (; *t; t++)
		w += ((unsigned char)*t & 0xc0) != 0x80;
	return w;
}

/* Cut to at most max characters, ending in "…" when cut.  A result
 * ("FN = -1 EPERM") keeps its " = RESULT" whole and cuts the function's
 * name instead: the result is what the reader came for. */
static void fit(char *t, int max)
{
	if (width(t) <= max)
		return;
	char *eq = strstr(t, " = ");
	int tail = eq ? width(eq) : 0;
	int keep = eq && tail + 2 <= max ? max - tail : max;
	char rest[256] = "";
	if (keep < max)
		snprintf(rest, sizeof rest, "%s", eq);
	int w = 0;
	char *c = t;
	for (; *c; c++) {
		if (((unsigned char)*c & 0xc0) != 0x80) {
			if (w == keep - 1)
				break;
			w++;
		}
	}
	strcpy(c, "…");
	strcat(c, rest);
}

static void bar(struct session *s, const struct pic *p, int tid, int32_t step, int col)
{
	int mode;
	bool waiting;
	pic_held(p, tid, step, col, &mode, &waiting);
	if (waiting) {
		out(s, "%s░%s", color_on(s, C_WAIT), color_off(s));
		return;
	}
	if (mode == M_NONE) {
		out(s, " ");
		return;
	}
	const char *g, *c;
	if (col == 0) {
		g = "┃";
		c = C_FPOS;
	} else if (col == 1) {
		g = mode == M_READ ? "║" : "█";
		c = mode == M_READ ? C_READ : C_WRITE;
	} else {
		g = "│";
		c = C_OTHER;
	}
	out(s, "%s%s%s", color_on(s, c), g, color_off(s));
}

/* The step K as `where` names it: the point of its first event, which is
 * the stepping thread's (a thread it wakes has its events after). */
static const char *step_point(const struct pic *p, int32_t k)
{
	size_t lo, hi;
	pic_step_range(p, k, &lo, &hi);
	return lo < hi ? vfs_event_point(p->w, &p->ev[lo]) : "";
}

const char c_timeline_help[] =
	"Each thread's column starts with three narrow lock columns: f_pos_lock (┃),\n"
	"i_rwsem (║ read, █ write), f_lock, rename_mutex or a process's exec lock\n"
	"(│); ░ while it waits for one. Then what it did in that step: the kernel\n"
	"function, the lock it waits for, the entries handed out, the syscall's\n"
	"result. '!' marks the steps of a detector's report, listed below the\n"
	"table. FROM and TO limit the steps shown. 80 columns hold three threads.\n"
	"'timeline steps' adds a column after the step's number naming the step\n"
	"as 'where' and 'trace steps' do: FUNCTION:STEP (iterate_dir:lock).";

HANDLER(c_timeline)
{
	long long a[2] = { 0, 0 };
	bool steps = c->argc && !strcmp(c->argv[0], "steps");
	char *const *argv = c->argv + steps;
	int argc = c->argc - steps;
	if (argc > 2)
		return cli_error(s, "timeline [steps] [FROM [TO]]: too many arguments");
	for (int i = 0; i < argc; i++)
		if (parse_num(argv[i], &a[i]) < 0 || a[i] < 0)
			return cli_error(s, "timeline [steps] [FROM [TO]]: '%s' is not a step number",
					 argv[i]);
	struct pic p;
	if (pic_build(&p, s) < 0) {
		pic_free(&p);
		return cli_errno(s, "timeline", NULL, -VE_NOMEM);
	}
	if (!p.nev) {
		out(s, "timeline: nothing traced yet (threads' calls are traced as they run)\n");
		pic_free(&p);
		return 0;
	}
	int32_t from = argc > 0 ? (int32_t)a[0] : p.step_min;
	int32_t to = argc > 1 ? (int32_t)a[1] : p.step_max;
	if (from < p.step_min)
		from = p.step_min;
	if (to > p.step_max)
		to = p.step_max;
	if (from > to) {
		int32_t lo = p.step_min, hi = p.step_max;  /* pic_free zeroes them */
		pic_free(&p);
		return cli_error(s, "timeline: no steps between %lld and %lld (the trace has "
				 "steps %d to %d)", a[0], argc > 1 ? a[1] : a[0], lo, hi);
	}

	/* the threads that did something */
	int lanes[VFS_MAX_THREADS], nl = 0;
	for (int t = 0; t < p.nthreads; t++)
		for (size_t i = 0; i < p.nev; i++)
			if (p.ev[i].tid == t) {
				lanes[nl++] = t;
				break;
			}

	char th[64];
	int sw = 4;                     /* step numbers' width, then a mark */
	for (int32_t m = p.step_max; m >= 10000; m /= 10)
		sw++;
	/* the steps' column: as wide as the widest name shown */
	int pw = 0;
	for (int32_t k = from; steps && k <= to; k++)
		if ((int)strlen(step_point(&p, k)) > pw)
			pw = (int)strlen(step_point(&p, k));
	if (steps && pw < (int)strlen("function:step"))
		pw = (int)strlen("function:step");
	int lead = sw + 1 + (steps ? pw + 1 : 0);
	/* labels as wide as the screen allows: 80 columns hold three threads */
	int tw = TEXT_W, cols = cli_columns(s);
	if (cols > 0 && nl > 0 && lead + nl * (4 + TEXT_W) > cols)
		tw = (cols - lead) / nl - 4;
	if (tw < TEXT_MIN)
		tw = TEXT_MIN;
	int col_w = 3 + 1 + tw;         /* lock columns, the report mark, label */
	out(s, "%s%*s", color_on(s, C_SYS), sw + 1, "step ");
	if (steps)
		out(s, "%-*s ", pw, "function:step");
	for (int l = 0; l < nl; l++) {
		pic_thread_name(&p, lanes[l], th, sizeof th);
		fit(th, col_w - 4);
		out(s, "%s%*s", th, l + 1 < nl ? col_w - width(th) : 0, "");
	}
	out(s, "%s\n", color_off(s));

	for (int32_t k = from; k <= to; k++) {
		bool marked = false;
		for (int m = 0; m < p.nmarks; m++)
			marked |= pic_mark_at(&p.marks[m], k, -1);
		out(s, "%*d%s%s%s", sw, k, marked ? color_on(s, C_MARK) : "",
		    marked ? "!" : " ", marked ? color_off(s) : "");
		if (steps)
			out(s, "%-*s ", pw, step_point(&p, k));
		for (int l = 0; l < nl; l++) {
			int t = lanes[l], style;
			char lab[256];
			for (int col = 0; col < 3; col++)
				bar(s, &p, t, k, col);
			pic_label(&p, t, k, lab, sizeof lab, &style, true);
			const char *code = style == PL_SYSCALL ? C_SYS : style == PL_WAIT ?
				C_WAIT : style == PL_RETURN ? C_RET : "";
			if (!*lab) {
				int mode;
				bool w0, w1, w2;
				pic_held(&p, t, k, 0, &mode, &w0);
				pic_held(&p, t, k, 1, &mode, &w1);
				pic_held(&p, t, k, 2, &mode, &w2);
				if (w0 || w1 || w2) {
					snprintf(lab, sizeof lab, "waiting");
					code = C_DIM;
				}
			}
			bool here = false;
			for (int m = 0; m < p.nmarks; m++)
				here |= pic_mark_at(&p.marks[m], k, t);
			if (here)
				out(s, "%s!%s", color_on(s, C_MARK), color_off(s));
			else
				out(s, " ");
			fit(lab, tw);
			out(s, "%s%s%s", *code && *lab ? color_on(s, code) : "", lab,
			    *code && *lab ? color_off(s) : "");
			if (l + 1 < nl)
				out(s, "%*s", tw - width(lab), "");
		}
		out(s, "\n");
	}

	out(s, "\nlocks: %s┃%s f_pos_lock  %s║%s i_rwsem read  %s█%s i_rwsem write"
	    "  %s░%s waiting for it\n",
	    color_on(s, C_FPOS), color_off(s), color_on(s, C_READ), color_off(s),
	    color_on(s, C_WRITE), color_off(s), color_on(s, C_WAIT), color_off(s));
	out(s, "       %s│%s f_lock, rename_mutex, a process's exec lock (%s)\n",
	    color_on(s, C_OTHER), color_off(s),
	    vfs_exec_locks[vfs_world_knobs(s->w)->exec_lock].name);
	out(s, "       %s!%s a detector's report, below   %sbold%s a syscall\n",
	    color_on(s, C_MARK), color_off(s), color_on(s, C_SYS), color_off(s));
	for (int m = 0; m < p.nmarks; m++) {
		const struct pic_mark *mk = &p.marks[m];
		char where[160] = "";
		size_t o = 0;
		for (int i = 0; i < mk->npoints && o < sizeof where; i++) {
			pic_thread_name(&p, mk->tid[i], th, sizeof th);
			o += (size_t)snprintf(where + o, sizeof where - o, "%sstep %d %s",
					      i ? ", " : "", mk->step[i], th);
		}
		out(s, "%s!%s %s%s%s%s%s%s: %s\n", color_on(s, C_MARK), color_off(s),
		    color_on(s, C_MARK), mk->title, color_off(s),
		    *where ? " (" : "", where, *where ? ")" : "", mk->text);
	}
	if (p.dropped)
		out(s, "(%zu later events were not kept)\n", p.dropped);
	pic_free(&p);
	return 0;
}
