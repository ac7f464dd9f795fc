/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_compare.c - `compare PRESET PRESET [FILE]`: replay the session so far
 * (its log, as `save` would write it) or a script under two kernel presets,
 * each in a fresh session, and print call by call the locks each call took
 * and what it returned, side by side, marking what differs.
 *
 * What is replayed is the *calls*, in their order: a foreground call runs
 * until it returns or blocks, as at the prompt; a pending (&) call is moved
 * on by the same step commands as in the original.  A step that cannot be
 * replayed under the other kernel (the thread is blocked there) is given to
 * the scheduler instead, and the column says so.  After the script, the
 * scheduler runs whatever is still pending, so that every call has a result.
 * The script's own `kernel` lines are replaced by the preset; `set` lines
 * (knob overrides) are kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "compare.h"
#include "explore_cli.h"


#define CMP_WIDTH      100      /* the widest table; narrower on a narrow screen */
#define CMP_LABEL      24
#define CMP_STEP_LIMIT 1000000L

/* What one replay saw of one row (a call, or a step command). */
struct cell {
	char *items;            /* '\n'-separated */
	size_t len, cap;
	int done;
};

struct replay {
	const char *preset;
	struct session *s;
	struct cell *cells;     /* one per action */
	int *call_act;          /* call number -> action index */
	int32_t *seq_call;      /* a call's seq in this world -> call number + 1 */
	int nseq;
	size_t ev_seen;
	long after_steps;       /* scheduler steps after the script */
	int ok;
};

static void cell_add(struct cell *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void cell_add(struct cell *c, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	size_t n = strlen(buf);
	if (c->len + n + 2 > c->cap) {
		c->cap = (c->len + n + 2) * 2;
		c->items = xrealloc(c->items, c->cap);
	}
	if (c->len)
		c->items[c->len++] = '\n';
	memcpy(c->items + c->len, buf, n + 1);
	c->len += n;
}

/* ---- replaying under one preset ---- */

static void lock_item(struct replay *rp, const struct vfs_event *ev, char *buf, size_t n)
{
	const struct vfs_world *w = rp->s->w;
	switch (ev->cls) {
	case LC_F_POS_LOCK: snprintf(buf, n, "f_pos_lock"); return;
	case LC_F_LOCK:     snprintf(buf, n, "f_lock"); return;
	case LC_RENAME_MUTEX: snprintf(buf, n, "rename_mutex"); return;
	default: {
		char ln[VFS_PATH_MAX + 32];
		vfs_lock_name(w, ev->lock, ln, sizeof ln);
		snprintf(buf, n, "%s %s", ln, vfs_mode_name(ev->mode));
	}
	}
}

static int call_of_thread(struct replay *rp, int tid)
{
	const struct vfs_thread *t = &rp->s->w->threads[tid];
	int32_t seq = t->rec.call.seq;
	if (seq < 0 || seq >= rp->nseq || !rp->seq_call[seq])
		return -1;
	return rp->seq_call[seq] - 1;
}

/* Turn the events since the last look into items of the calls they belong to. */
static void absorb_events(struct replay *rp)
{
	struct session *s = rp->s;
	for (; rp->ev_seen < s->nev; rp->ev_seen++) {
		const struct vfs_event *ev = &s->ev[rp->ev_seen];
		if (ev->tid < 0 || ev->tid >= s->w->nthreads)
			continue;
		int k = call_of_thread(rp, ev->tid);
		if (k < 0)
			continue;
		struct cell *c = &rp->cells[rp->call_act[k]];
		char it[VFS_PATH_MAX + 48];
		switch (ev->op) {
		case OP_SKIP:
			cell_add(c, "skip f_pos_lock");
			break;
		case OP_ACQUIRE:
			lock_item(rp, ev, it, sizeof it);
			cell_add(c, "%s", it);
			break;
		case OP_BLOCK: {
			char th[32] = "";
			lock_item(rp, ev, it, sizeof it);
			if (ev->other >= 0)
				vfs_thread_name(s->w, ev->other, th, sizeof th);
			cell_add(c, "waits: %s%s%s%s", it, *th ? " (" : "", th, *th ? ")" : "");
			break;
		}
		case OP_DOWNGRADE:
			lock_item(rp, ev, it, sizeof it);
			cell_add(c, "downgrade to %s", it);
			break;
		default:
			break;
		}
	}
}

static void record_result(struct replay *rp, int tid)
{
	const struct vfs_world *w = rp->s->w;
	const struct vfs_callrec *r = &w->threads[tid].rec;
	int k = call_of_thread(rp, tid);
	if (k < 0)
		return;
	struct cell *c = &rp->cells[rp->call_act[k]];
	char ret[32], extra[512] = "";
	vfs_ret_text(r->ret, ret, sizeof ret);
	if ((vfs_sys[r->call.sys].flags & VSYS_DIRENTS) && r->ret >= 0) {
		extra[0] = ' ';
		vfs_rec_entries_text(w, tid, extra + 1, sizeof extra - 1);
	} else if ((vfs_sys[r->call.sys].flags & VSYS_READS) && r->ret > 0) {
		snprintf(extra, sizeof extra, " \"%.40s\"", r->text);
	}
	cell_add(c, "= %s%s", ret, extra);
	c->done = 1;
}

/* One step of tid (or of the scheduler's choice when tid < 0). */
static int rstep(struct replay *rp, int tid)
{
	bool done;
	if (tid < 0) {
		tid = session_sched_step(rp->s, &done);
		if (tid < 0)
			return -1;
	} else {
		done = session_step(rp->s, tid);
	}
	absorb_events(rp);
	if (done)
		record_result(rp, tid);
	return tid;
}

static void why_blocked(struct replay *rp, int tid, char *buf, size_t n)
{
	const struct vfs_world *w = rp->s->w;
	const struct vfs_thread *t = &w->threads[tid];
	char th[32], ln[VFS_PATH_MAX + 32];
	vfs_thread_name(w, tid, th, sizeof th);
	vfs_lock_name(w, t->wait_lock, ln, sizeof ln);
	snprintf(buf, n, "%s blocked on %s", th, ln);
}

static void do_call(struct replay *rp, const struct act *a, struct cell *c)
{
	struct session *s = rp->s;
	int tid = vfs_thread_by_name(s->w, a->thread);
	if (tid < 0 || s->w->threads[tid].state == TS_DEAD) {
		cell_add(c, "not run: no thread %s", a->thread);
		return;
	}
	int before = s->w->threads[tid].npending;
	size_t len = strlen(a->text);
	char *line = xcalloc(len + 3, 1);
	memcpy(line, a->text, len);
	memcpy(line + len, " &", 3);
	int r = session_exec_line(s, line);
	free(line);
	if (r < 0 || s->w->threads[tid].npending == before) {
		cell_add(c, "not run (see the error above)");
		return;
	}
	const struct vfs_thread *t = &s->w->threads[tid];
	int32_t seq = t->pending[(t->pend_head + t->npending - 1) % VFS_MAX_PENDING].seq;
	if (seq >= rp->nseq) {
		int nn = seq * 2 + 16;
		int32_t *p = realloc(rp->seq_call, (size_t)nn * sizeof *p);
		if (!p)
			return;
		memset(p + rp->nseq, 0, (size_t)(nn - rp->nseq) * sizeof *p);
		rp->seq_call = p;
		rp->nseq = nn;
	}
	rp->seq_call[seq] = a->call + 1;
	if (a->bg)
		return;
	for (long n = 0; n < CMP_STEP_LIMIT; n++) {
		t = &s->w->threads[tid];
		if (t->state == TS_BLOCKED || !vfs_runnable(s->w, tid))
			return;
		rstep(rp, tid);
		t = &s->w->threads[tid];
		if (t->rec.done && t->rec.call.seq == seq)
			return;
	}
}

static void do_steps(struct replay *rp, const struct act *a, struct cell *c)
{
	struct vfs_world *w = rp->s->w;
	int tid = -1;
	char why[VFS_PATH_MAX + 64];
	if (a->kind != ACT_SCHED && a->thread[0]) {
		tid = vfs_thread_by_name(w, a->thread);
		if (tid < 0) {
			cell_add(c, "no thread %s here", a->thread);
			return;
		}
	}
	switch (a->kind) {
	case ACT_SCHED:
		for (long i = 0; i < a->n; i++)
			if (rstep(rp, -1) < 0)
				return;         /* everything ran out sooner: nothing to say */
		return;
	case ACT_STEP: {
		long given = 0;
		for (long i = 0; i < a->n; i++) {
			if (w->threads[tid].state == TS_BLOCKED) {
				if (!given++) {
					why_blocked(rp, tid, why, sizeof why);
					cell_add(c, "%s: the scheduler ran instead", why);
				}
				if (rstep(rp, -1) < 0) {
					cell_add(c, "nothing runnable");
					return;
				}
			} else if (!vfs_runnable(w, tid)) {
				cell_add(c, "%s had nothing left: %ld of %ld steps not run",
					 a->thread, a->n - i, a->n);
				return;
			} else {
				rstep(rp, tid);
			}
		}
		return;
	}
	case ACT_UNTIL: {
		int fn = vfs_fn_lookup(a->fn);
		for (long n = 0; n < CMP_STEP_LIMIT; n++) {
			bool enters;
			if (w->threads[tid].state == TS_BLOCKED) {
				why_blocked(rp, tid, why, sizeof why);
				cell_add(c, "%s before %s", why, a->fn);
				return;
			}
			if (!vfs_runnable(w, tid)) {
				cell_add(c, "%s never entered %s", a->thread, a->fn);
				return;
			}
			if (fn && vfs_next_fn(w, tid, &enters) == fn && enters)
				return;
			rstep(rp, tid);
		}
		return;
	}
	case ACT_RUN:
		for (long n = 0; n < CMP_STEP_LIMIT; n++) {
			if (tid >= 0 && !vfs_runnable(w, tid))
				return;
			if (rstep(rp, tid) < 0)
				return;
		}
		return;
	}
}

static int replay(struct session *parent, struct replay *rp, const struct script *sc)
{
	struct session *s = session_new();
	if (!s)
		return cli_error(parent, "compare: out of memory");
	rp->s = s;
	s->silent = 1;
	s->quiet = 1;
	s->color = 0;
	s->interrupted = parent->interrupted;
	rp->cells = xcalloc((size_t)sc->n, sizeof *rp->cells);
	rp->call_act = xcalloc((size_t)sc->ncalls, sizeof *rp->call_act);
	for (int i = 0; i < sc->n; i++)
		if (sc->a[i].kind == ACT_CALL)
			rp->call_act[sc->a[i].call] = i;
	char kl[64];
	snprintf(kl, sizeof kl, "kernel %s", rp->preset);
	char fname[64];
	snprintf(fname, sizeof fname, "compare, under %s", rp->preset);
	s->file = fname;
	if (session_exec_line(s, kl) < 0)
		return -1;
	for (int i = 0; i < sc->n; i++) {
		const struct act *a = &sc->a[i];
		s->line = i + 1;
		switch (a->kind) {
		case ACT_SETUP:
			if (session_exec_line(s, a->text) < 0)
				return -1;
			break;
		case ACT_CALL:
			do_call(rp, a, &rp->cells[i]);
			break;
		default:
			do_steps(rp, a, &rp->cells[i]);
			break;
		}
		s->errors = 0;
	}
	/* every call gets a result: the scheduler runs what is left */
	while (rp->after_steps < CMP_STEP_LIMIT && rstep(rp, -1) >= 0)
		rp->after_steps++;
	for (int i = 0; i < sc->n; i++) {
		const struct act *a = &sc->a[i];
		if (a->kind != ACT_CALL || rp->cells[i].done)
			continue;
		int tid = vfs_thread_by_name(s->w, a->thread);
		if (tid >= 0 && s->w->threads[tid].state == TS_BLOCKED &&
		    call_of_thread(rp, tid) == a->call) {
			char why[VFS_PATH_MAX + 64];
			why_blocked(rp, tid, why, sizeof why);
			cell_add(&rp->cells[i], "never returns: %s", why);
		} else if (rp->cells[i].len == 0 || !strstr(rp->cells[i].items, "not run")) {
			cell_add(&rp->cells[i], "never ran");
		}
	}
	rp->ok = 1;
	return 0;
}

static void replay_free(struct replay *rp, int n)
{
	if (rp->cells)
		for (int i = 0; i < n; i++)
			free(rp->cells[i].items);
	free(rp->cells);
	free(rp->call_act);
	free(rp->seq_call);
	session_free(rp->s);
}

/* ---- printing ---- */

/* The next piece of at most width characters of *p (items split on '\n'),
 * broken at a blank when it can be. */
static int next_piece(const char **p, int width, char *out_)
{
	const char *t = *p;
	if (!t || !*t)
		return 0;
	if (*t == '\n')
		t++;
	size_t n = strcspn(t, "\n");
	if ((int)n > width) {
		size_t cut = (size_t)width;
		while (cut > (size_t)width / 2 && t[cut] != ' ')
			cut--;
		if (t[cut] != ' ')
			cut = (size_t)width;
		memcpy(out_, t, cut);
		out_[cut] = 0;
		t += cut;
		while (*t == ' ')
			t++;
		*p = t;
		return 1;
	}
	memcpy(out_, t, n);
	out_[n] = 0;
	*p = t + n;
	return 1;
}

/* The table's width: CMP_WIDTH, or the screen's below it (60 at least);
 * below 100 columns the call's label is narrower too. */
static int cmp_width(struct session *s, int *label, int *col)
{
	int w = cli_columns(s);
	w = w <= 0 || w > CMP_WIDTH ? CMP_WIDTH : w < 60 ? 60 : w;
	*label = w < CMP_WIDTH ? 18 : CMP_LABEL;
	*col = (w - 2 - *label - 1 - 3) / 2;
	return w;
}

static void print_row(struct session *s, int mark, const char *label,
		      const char *left, const char *right)
{
	const char *pl = label, *pa = left, *pb = right;
	char l[CMP_WIDTH], a[CMP_WIDTH], b[CMP_WIDTH];
	int lw, cw;
	cmp_width(s, &lw, &cw);
	for (int line = 0;; line++) {
		int hl = next_piece(&pl, lw, l);
		int ha = next_piece(&pa, cw, a);
		int hb = next_piece(&pb, cw, b);
		if (!hl && !ha && !hb && line)
			break;
		if (!hl) l[0] = 0;
		if (!ha) a[0] = 0;
		if (!hb) b[0] = 0;
		char row[3 * CMP_WIDTH];
		snprintf(row, sizeof row, "%s %-*s %-*s | %s", !line && mark ? "*" : " ",
			 lw, l, cw, a, b);
		size_t n = strlen(row);
		while (n && row[n - 1] == ' ')
			row[--n] = 0;
		if (!line && mark)
			out(s, "%s%s%s\n", color_on(s, "\033[1m"), row, color_off(s));
		else
			out(s, "%s\n", row);
	}
}

static void summary(struct replay *rp, char *buf, size_t n, int what)
{
	const struct vfs_world *w = rp->s->w;
	size_t o = 0;
	switch (what) {
	case 0: {                               /* races */
		int any = 0;
		for (int f = 1; f < FLD__COUNT; f++)
			if (vfs_report_count(w, DK_RACE, f) > 0) {
				o += (size_t)snprintf(buf + o, n > o ? n - o : 0, "%s%s",
						      any++ ? ", " : "on ", vfs_field_name(f));
			}
		if (!any)
			snprintf(buf, n, vfs_report_count(w, DK_RACE, FLD_NONE) ? "yes" : "none");
		break;
	}
	case 1: {
		int d = vfs_report_count(w, DK_DUPLICATE, FLD_NONE);
		snprintf(buf, n, d ? "yes (%d)" : "none", d);
		break;
	}
	case 2:
		snprintf(buf, n, "%s", vfs_all_blocked(w) ? "yes: every live thread is blocked" : "none");
		break;
	case 3: {
		unsigned acq = 0;
		for (int c = 0; c < LC__COUNT; c++)
			acq += w->stats.acquire[c];
		snprintf(buf, n, "%u locks, %u atomics, %u calls", acq, w->stats.atomics,
			 w->stats.calls);
		break;
	}
	case 5: {                               /* the script's rules */
		int nr = vfs_report_count(w, DK_RULE, FLD_NONE), any = 0;
		if (!nr) {
			snprintf(buf, n, "none broken");
			break;
		}
		o += (size_t)snprintf(buf, n, "%d broken:", nr);
		for (int i = 0; i < vfs_nrules(w); i++) {
			bool hit = false;
			for (int r = 0; r < w->det.nreports && !hit; r++)
				hit = w->det.reports[r].kind == DK_RULE &&
				      w->det.reports[r].rule == i;
			char t[96];
			vfs_rule_text(vfs_rule_get(w, i), t, sizeof t);
			if (hit)
				o += (size_t)snprintf(buf + o, n > o ? n - o : 0, "%s %s",
						      any++ ? "," : "", t);
		}
		break;
	}
	case 4:
		if (rp->after_steps)
			snprintf(buf, n, "%ld steps by the scheduler", rp->after_steps);
		else
			snprintf(buf, n, "nothing was left");
		break;
	}
}

HANDLER(c_compare)
{
	const char *names[2] = { c->argv[0], c->argv[1] };
	for (int i = 0; i < 2; i++)
		if (!vfs_preset_lookup(names[i])) {
			const char *pn[64];
			int np = 0;
			for (int j = 0; j < vfs_npresets && np < 64; j++)
				pn[np++] = vfs_presets[j].name;
			const char *sug = did_you_mean(names[i], pn, np);
			return cli_error(s, "compare: no preset '%s'%s%s%s (see 'kernel list')",
					 names[i], sug ? " (did you mean '" : "", sug ? sug : "",
					 sug ? "'?)" : "");
		}
	struct script sc = { 0 };
	const char *what;
	if (c->argc > 2) {
		if (compare_from_file(s, &sc, c->argv[2], 0) < 0) {
			compare_script_free(&sc);
			return -1;
		}
		what = c->argv[2];
	} else {
		compare_from_log(s, &sc);
		what = "this session";
	}
	if (!sc.ncalls) {
		compare_script_free(&sc);
		out(s, "compare: %s has no system calls to compare yet\n", what);
		return 0;
	}
	if (explore_cli_active(s))
		out(s, "compare: one schedule of the pending calls (the scheduler's), not "
		    "the explored ones;\n  'explore replay K' first to compare execution K's "
		    "calls\n");
	struct replay rp[2] = { { .preset = names[0] }, { .preset = names[1] } };
	int rc = 0;
	for (int i = 0; i < 2 && !rc; i++)
		rc = replay(s, &rp[i], &sc);
	if (rc < 0) {
		for (int i = 0; i < 2; i++)
			replay_free(&rp[i], sc.n);
		compare_script_free(&sc);
		return -1;
	}

	int ndiff = 0;
	out(s, "compare %s | %s: %s, %d call%s; * marks a difference\n", names[0], names[1],
	    what, sc.ncalls, sc.ncalls == 1 ? "" : "s");
	if (sc.kernel_lines)
		out(s, "(its 'kernel' line%s replaced by each preset; 'set' lines kept)\n",
		    sc.kernel_lines == 1 ? " is" : "s are");
	char h1[CMP_WIDTH], h2[CMP_WIDTH];
	snprintf(h1, sizeof h1, "under %s", names[0]);
	snprintf(h2, sizeof h2, "under %s", names[1]);
	print_row(s, 0, "call", h1, h2);
	char rule[CMP_WIDTH + 1];
	int lw, cw, width = cmp_width(s, &lw, &cw);
	memset(rule, '-', (size_t)width - 2);
	rule[width - 2] = 0;
	out(s, "  %s\n", rule);
	for (int i = 0; i < sc.n; i++) {
		const struct act *a = &sc.a[i];
		const char *l = rp[0].cells[i].items ? rp[0].cells[i].items : "";
		const char *r = rp[1].cells[i].items ? rp[1].cells[i].items : "";
		char label[2 * VFS_PATH_MAX + 64];
		switch (a->kind) {
		case ACT_SETUP:
			continue;
		case ACT_CALL:
			snprintf(label, sizeof label, "%s%s", a->text, a->bg ? " &" : "");
			break;
		case ACT_STEP:
			snprintf(label, sizeof label, "(step %s %ld)", a->thread, a->n);
			break;
		case ACT_UNTIL:
			snprintf(label, sizeof label, "(step %s until %s)", a->thread, a->fn);
			break;
		case ACT_SCHED:
			snprintf(label, sizeof label, "(step %ld)", a->n);
			break;
		case ACT_RUN:
			snprintf(label, sizeof label, "(run%s%s)", a->thread[0] ? " " : "",
				 a->thread);
			break;
		}
		if (a->kind != ACT_CALL && !*l && !*r)
			continue;       /* a step replayed as asked, under both */
		int diff = strcmp(l, r) != 0;
		ndiff += diff;
		print_row(s, diff, label, l, r);
	}
	out(s, "  %s\n", rule);
	static const char *const sums[] = { "race", "duplicate entries", "deadlock",
					    "counted", "after the script", "rules" };
	/* (the script's rules' row after deadlock, when it declared any) */
	static const int order[] = { 0, 1, 2, 5, 3, 4 };
	for (int i = 0; i < 6; i++) {
		int k = order[i];
		if (k == 5 && !vfs_nrules(rp[0].s->w))
			continue;
		char a[1024], b[1024];   /* (a row is folded to the screen, never cut) */
		summary(&rp[0], a, sizeof a, k);
		summary(&rp[1], b, sizeof b, k);
		int diff = strcmp(a, b) != 0 && k != 4;
		ndiff += diff;
		print_row(s, diff, sums[k], a, b);
	}
	if (sc.skipped[0]) {
		sc.skipped[strlen(sc.skipped) - 1] = 0;
		out(s, "not replayed: %s\n", sc.skipped);
	}
	out(s, ndiff ? "%d row%s differ%s.\n" : "no difference.\n", ndiff,
	    ndiff == 1 ? "" : "s", ndiff == 1 ? "s" : "");
	for (int i = 0; i < 2; i++)
		replay_free(&rp[i], sc.n);
	compare_script_free(&sc);
	return 0;
}
