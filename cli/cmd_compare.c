/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_compare.c - `compare PRESET PRESET [FILE]`: replay the session so far
 * (its log, as `save` would write it) or a script under two kernel presets,
 * each in a fresh session, and print call by call the locks each call took
 * and what it returned, side by side, marking what differs.
 *
 * Each replay is the script (FILE, or the session's log written as it was
 * typed: session_save) run line by line in a fresh session, through
 * session_exec_line as any script is, so every command (set-up, `fs
 * define`, `override`, `rule`, any system call) replays without this file
 * knowing it; only the table's CMD_NOREPLAY commands are left out.  The
 * replay is watched (struct session_watch): a thread's call is a row, and
 * the events of the call (locks taken, skipped, waited for) and its result
 * are its items.  A foreground call runs until it returns or blocks, as at
 * the prompt; a pending (&) call is moved on by the same step commands.  A
 * step that cannot be taken under one kernel (the thread is blocked there)
 * is given to the scheduler instead (cmd_run.c, under a watch), and a row
 * says so.  After the script, the scheduler runs whatever is still pending,
 * so that every call has a result.  The script's own `kernel` lines keep the
 * preset (cmd_world.c, under a watch); `set` lines (knob overrides) are kept.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "explore_cli.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"
#include "vfs_thread.h"


#define CMP_WIDTH      100      /* the widest table; narrower on a narrow screen */
#define CMP_LABEL      24
#define CMP_STEP_LIMIT 1000000L

/* What one replay saw of one row: a call, or a command that said how it
 * ran otherwise than asked (a step given to the scheduler). */
struct cell {
	char *items;            /* '\n'-separated */
	size_t len, cap;
	int done;
	int lost;               /* out of memory: an item is missing */
};

enum { ROW_CALL, ROW_NOTE };

struct row {
	int kind;
	int line;               /* which command of the replay made it */
	char *label;
	char thread[32];        /* ROW_CALL: who calls */
	int submitted;
	struct cell cell;
};

struct replay {
	const char *preset;
	struct session *s;
	struct session_watch watch;
	struct row *rows;
	int nrows, caprows;
	int nlines;             /* commands run so far */
	int cur;                /* the row of the call running, or -1 */
	int note_row;           /* the row of the other command running, or -1 */
	int cur_line;
	const char *cur_text;   /* the command running, as written */
	int32_t seq_base;       /* vfs_world_call_seq(w) before the command */
	int *seq_row;           /* a call's seq -> its row + 1 */
	int nseq;
	long after_steps;       /* scheduler steps after the script */
	char skipped[256];      /* commands left out (CMD_NOREPLAY_SAID) */
	int nomem;              /* out of memory: a row or a call is missing */
};

static void cell_add(struct cell *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void cell_add(struct cell *c, const char *fmt, ...)
{
	char buf[VFS_PATH_MAX + 256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	size_t n = strlen(buf);
	if (c->len + n + 2 > c->cap) {
		char *items = realloc(c->items, (c->len + n + 2) * 2);
		if (!items) {
			c->lost = 1;
			return;
		}
		c->items = items;
		c->cap = (c->len + n + 2) * 2;
	}
	if (c->len)
		c->items[c->len++] = '\n';
	memcpy(c->items + c->len, buf, n + 1);
	c->len += n;
}

/* ---- watching one replay (struct session_watch) ---- */

/* A new row (NULL, the replay marked out of memory, when LABEL is NULL or
 * the table cannot grow: compare then fails as a whole). */
static struct row *add_row(struct replay *rp, int kind, char *label)
{
	if (label && rp->nrows == rp->caprows) {
		int cap = rp->caprows ? rp->caprows * 2 : 32;
		struct row *rows = realloc(rp->rows, (size_t)cap * sizeof *rows);
		if (rows) {
			rp->rows = rows;
			rp->caprows = cap;
		}
	}
	if (!label || rp->nrows == rp->caprows) {
		free(label);
		rp->nomem = 1;
		return NULL;
	}
	struct row *r = &rp->rows[rp->nrows++];
	memset(r, 0, sizeof *r);
	r->kind = kind;
	r->line = rp->cur_line;
	r->label = label;
	return r;
}

/* A word of a call as the lexer reads it back: quoted (empty words,
 * blanks, quotes kept), but each $ret bare, as the script has it. */
static void put_word_ret(FILE *f, const char *w)
{
	const char *p;
	if (!*w) {
		fputs("''", f);
		return;
	}
	bool after = false;     /* right after a $ret: "$retx" is not $ret */
	while (*w) {
		p = strstr(w, "$ret");
		size_t n = p ? (size_t)(p - w) : strlen(w);
		bool bare = n && strcspn(w, " \t\r\n#'\"$&\\") >= n &&
			    !(after && (w[0] == '_' || (w[0] >= '0' && w[0] <= '9') ||
					((w[0] | 32) >= 'a' && (w[0] | 32) <= 'z')));
		after = true;
		if (bare) {
			fwrite(w, 1, n, f);
		} else if (n) {
			fputc('\'', f);
			for (size_t i = 0; i < n; i++) {
				if (w[i] == '\'')
					fputs("'\"'\"'", f);
				else
					fputc(w[i], f);
			}
			fputc('\'', f);
		}
		if (!p)
			break;
		fputs("$ret", f);
		w = p + 4;
	}
}

/* The command as the script wrote it ($ret unexpanded): "A: getdents 3 2 &"
 * for a call, "(step B 6)" for another; NULL when out of memory. */
static char *row_label(const struct cmd_call *c, bool call)
{
	struct lex l;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	if (lex(&l, c->line, "$ret") < 0 || !l.nwords) {
		fputs(c->line, f);
	} else {
		fprintf(f, call ? "%s: " : "(", l.thread);
		for (int i = 0; i < l.nwords; i++) {
			if (i)
				fputc(' ', f);
			if (call)
				put_word_ret(f, l.words[i]);
			else
				fputs(l.words[i], f);
		}
		fputs(call ? (l.background ? " &" : "") : ")", f);
	}
	if (fclose(f) != 0 || !text)
		return NULL;
	return text;
}

static void note_skipped(struct replay *rp, const char *name)
{
	char key[40];
	snprintf(key, sizeof key, " %s,", name);
	char have[sizeof rp->skipped + 2];
	snprintf(have, sizeof have, " %s", rp->skipped);
	if (strstr(have, key))
		return;
	size_t o = strlen(rp->skipped);
	snprintf(rp->skipped + o, sizeof rp->skipped - o, "%s,", name);
}

/* The calls the command before this one submitted are its row's. */
static void end_command(struct replay *rp)
{
	const struct vfs_world *w = rp->s->w;
	if (vfs_world_call_seq(w) < rp->seq_base)  /* `reset`: numbering anew */
		memset(rp->seq_row, 0, (size_t)rp->nseq * sizeof *rp->seq_row);
	if (rp->cur >= 0 && vfs_world_call_seq(w) > rp->seq_base) {
		if (vfs_world_call_seq(w) >= rp->nseq) {
			int nn = vfs_world_call_seq(w) * 2 + 16;
			int *sr = realloc(rp->seq_row, (size_t)nn * sizeof *sr);
			if (!sr) {
				rp->nomem = 1;
				return;
			}
			rp->seq_row = sr;
			memset(rp->seq_row + rp->nseq, 0,
			       (size_t)(nn - rp->nseq) * sizeof *rp->seq_row);
			rp->nseq = nn;
		}
		for (int32_t q = rp->seq_base + 1; q <= vfs_world_call_seq(w); q++)
			rp->seq_row[q] = rp->cur + 1;
		rp->rows[rp->cur].submitted = 1;
	}
	rp->cur = rp->note_row = -1;
	rp->seq_base = vfs_world_call_seq(w);
}

static int watch_command(void *ctx, struct session *s, const struct cmd_entry *e,
			 const struct cmd_call *c)
{
	struct replay *rp = ctx;
	end_command(rp);
	rp->cur_line = ++rp->nlines;
	rp->cur_text = c->line;
	s->errors = 0;          /* a command that fails under one kernel: go on */
	if (e->flags & (CMD_NOREPLAY | CMD_NOREPLAY_SAID)) {
		if (e->flags & CMD_NOREPLAY_SAID)
			note_skipped(rp, e->name);
		return 1;
	}
	if (c->thread[0]) {
		struct row *r = add_row(rp, ROW_CALL, row_label(c, true));
		if (r)
			snprintf(r->thread, sizeof r->thread, "%s", c->thread);
		rp->cur = r ? rp->nrows - 1 : -1;
	}
	return 0;
}

static int row_of_thread(struct replay *rp, int tid)
{
	int32_t seq = vfs_thread_call(rp->s->w, tid)->seq;
	if (seq > rp->seq_base)
		return rp->cur;         /* submitted by the command running */
	if (seq < 0 || seq >= rp->nseq)
		return -1;
	return rp->seq_row[seq] - 1;
}

static void lock_item(const struct vfs_world *w, const struct vfs_event *ev,
		      char *buf, size_t n)
{
	switch (ev->cls) {
	case LC_F_POS_LOCK: snprintf(buf, n, "f_pos_lock"); return;
	case LC_F_LOCK:     snprintf(buf, n, "f_lock"); return;
	case LC_RENAME_MUTEX: snprintf(buf, n, "rename_mutex"); return;
	case LC_D_UPDATE: {
		char ln[VFS_PATH_MAX + 32];
		vfs_lock_name(w, ev->lock, ln, sizeof ln);
		snprintf(buf, n, "%s", ln);
		return;
	}
	default: {
		char ln[VFS_PATH_MAX + 32];
		vfs_lock_name(w, ev->lock, ln, sizeof ln);
		snprintf(buf, n, "%s %s", ln, vfs_mode_name(ev->mode));
	}
	}
}

/* An event: an item of the call it belongs to, when it took, skipped,
 * waited for or downgraded a lock. */
static void watch_event(void *ctx, struct session *s, const struct vfs_event *ev)
{
	struct replay *rp = ctx;
	const struct vfs_world *w = s->w;
	if (ev->tid < 0 || ev->tid >= vfs_world_nthreads(w))
		return;
	int k = row_of_thread(rp, ev->tid);
	if (k < 0)
		return;
	struct cell *c = &rp->rows[k].cell;
	char it[VFS_PATH_MAX + 48];
	switch (ev->op) {
	case OP_SKIP:
		cell_add(c, "skip f_pos_lock");
		break;
	case OP_ACQUIRE:
		lock_item(w, ev, it, sizeof it);
		cell_add(c, "%s", it);
		break;
	case OP_BLOCK: {
		char th[32] = "";
		lock_item(w, ev, it, sizeof it);
		if (ev->other >= 0)
			vfs_thread_name(w, ev->other, th, sizeof th);
		cell_add(c, "waits: %s%s%s%s", it, *th ? " (" : "", th, *th ? ")" : "");
		break;
	}
	case OP_DOWNGRADE:
		lock_item(w, ev, it, sizeof it);
		cell_add(c, "downgrade to %s", it);
		break;
	default:
		break;
	}
}

static void watch_result(void *ctx, struct session *s, int tid)
{
	struct replay *rp = ctx;
	const struct vfs_world *w = s->w;
	int k = row_of_thread(rp, tid);
	if (k < 0)
		return;
	struct cell *c = &rp->rows[k].cell;
	char ret[32], extra[512] = "";
	int64_t r = vfs_call_ret(w, tid);
	unsigned flags = vfs_sys[vfs_thread_call(w, tid)->sys].flags;
	vfs_ret_text(r, ret, sizeof ret);
	if ((flags & VSYS_DIRENTS) && r >= 0) {
		extra[0] = ' ';
		vfs_rec_entries_text(w, tid, extra + 1, sizeof extra - 1);
	} else if ((flags & VSYS_READS) && r > 0) {
		snprintf(extra, sizeof extra, " \"%.40s\"", vfs_call_text(w, tid));
	}
	cell_add(c, "= %s%s", ret, extra);
	c->done = 1;
}

/* A command ran otherwise than asked: its row says how. */
static void watch_note(void *ctx, struct session *s, const char *text)
{
	struct replay *rp = ctx;
	(void)s;
	if (rp->cur >= 0) {
		cell_add(&rp->rows[rp->cur].cell, "%s", text);
		return;
	}
	if (rp->note_row < 0) {
		struct cmd_call c = { .line = rp->cur_text ? rp->cur_text : "" };
		if (!add_row(rp, ROW_NOTE, row_label(&c, false)))
			return;
		rp->note_row = rp->nrows - 1;
	}
	cell_add(&rp->rows[rp->note_row].cell, "%s", text);
}

/* ---- replaying under one preset ---- */

/* The script (the session's log written as typed, or FILE) run line by
 * line in a fresh session under the preset, through session_exec_line as
 * any script is, watched. */
static int replay(struct session *parent, struct replay *rp, FILE *in, const char *name)
{
	struct session *s = session_new();
	if (!s)
		return cli_errno(parent, "compare", NULL, -VE_NOMEM);
	rp->s = s;
	s->silent = 1;
	s->quiet = 1;
	s->color = 0;
	s->interrupted = parent->interrupted;
	rp->cur = rp->note_row = -1;
	char kl[64];
	snprintf(kl, sizeof kl, "kernel %s", rp->preset);
	/* (watched for out of memory only, said here: the line sets the
	 * preset, the kernel not pinned yet) */
	struct session_watch quiet = { 0 };
	s->watch = &quiet;
	int kr = session_exec_line(s, kl);
	s->watch = NULL;
	if (quiet.nomem)
		return cli_errno(parent, "compare", NULL, -VE_NOMEM);
	if (kr < 0)
		return -1;
	rp->watch = (struct session_watch){ .ctx = rp, .pin_kernel = true,
		.command = watch_command,
		.event = watch_event, .result = watch_result, .note = watch_note };
	s->watch = &rp->watch;
	char fname[VFS_PATH_MAX + 32];
	snprintf(fname, sizeof fname, "%s (under %s)", name, rp->preset);
	struct script_reader r;
	script_reader_init(&r, in, fname);
	int got;
	while (!s->quit && (got = script_reader_next(&r)) != 0) {
		if (got < 0) {
			script_reader_error(s, &r);
			break;
		}
		script_reader_exec(s, &r);
	}
	script_reader_free(&r);
	end_command(rp);
	/* every call gets a result: the scheduler runs what is left */
	bool done;
	while (rp->after_steps < CMP_STEP_LIMIT && session_sched_step(s, &done) >= 0)
		rp->after_steps++;
	for (int i = 0; i < rp->nrows; i++) {
		struct row *row = &rp->rows[i];
		if (row->kind != ROW_CALL || row->cell.done)
			continue;
		int tid = vfs_thread_by_name(s->w, row->thread);
		if (!row->submitted) {
			cell_add(&row->cell, "not run (see the error above)");
		} else if (tid >= 0 && vfs_thread_state(s->w, tid) == TS_BLOCKED &&
			   row_of_thread(rp, tid) == i) {
			char why[VFS_PATH_MAX + 64];
			session_blocked_on(s, tid, why, sizeof why);
			cell_add(&row->cell, "never returns: %s", why);
		} else {
			cell_add(&row->cell, "never ran");
		}
	}
	s->watch = NULL;
	return 0;
}

static void replay_free(struct replay *rp)
{
	for (int i = 0; i < rp->nrows; i++) {
		free(rp->rows[i].label);
		free(rp->rows[i].cell.items);
	}
	free(rp->rows);
	free(rp->seq_row);
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
		const struct vfs_stats *st = vfs_world_stats(w);
		unsigned acq = 0;
		for (int c = 0; c < LC__COUNT; c++)
			acq += st->acquire[c];
		snprintf(buf, n, "%u locks, %u atomics, %u calls", acq, st->atomics, st->calls);
		break;
	}
	case 5: {                               /* the script's rules */
		int nr = vfs_report_count(w, DK_RULE, FLD_NONE), any = 0;
		if (!nr) {
			snprintf(buf, n, "none broken");
			break;
		}
		o += (size_t)snprintf(buf, n, "%d broken:", nr);
		const struct vfs_detect *det = vfs_world_detect(w);
		for (int i = 0; i < vfs_nrules(w); i++) {
			bool hit = false;
			for (int r = 0; r < det->nreports && !hit; r++)
				hit = det->reports[r].kind == DK_RULE && det->reports[r].rule == i;
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

static void print_rows(struct session *s, const struct row *a, const struct row *b,
		       int *ndiff)
{
	const struct row *r = a ? a : b;
	const char *l = a && a->cell.items ? a->cell.items : "";
	const char *rr = b && b->cell.items ? b->cell.items : "";
	if (r->kind != ROW_CALL && !*l && !*rr)
		return;
	int diff = strcmp(l, rr) != 0;
	*ndiff += diff;
	print_row(s, diff, r->label, l, rr);
}

const char c_compare_help[] =
	"Runs this session (its log, as it was typed) or FILE line by line under\n"
	"each preset in a fresh session, as a script runs (expect, save, export and\n"
	"lessons left out; back, explore and compare too, and said), and prints\n"
	"call by call the locks taken (acquisitions with class and mode, skips of\n"
	"f_pos_lock, waits) and the results side by side; * marks what differs.\n"
	"Foreground calls run until they return or block; pending (&) calls follow\n"
	"the same step commands where they can: a step of a thread that is blocked\n"
	"under one kernel goes to the scheduler instead, and the column says so.\n"
	"Then the scheduler runs what is left. The script's 'kernel' lines are\n"
	"replaced by the presets; its 'set' lines are kept. Example: compare v6.4\n"
	"v6.5";

HANDLER(c_compare)
{
	const char *names[2] = { c->argv[0], c->argv[1] };
	for (int i = 0; i < 2; i++)
		if (presets_tbl_find(s, "compare: no preset", names[i], false) < 0)
			return -1;
	/* what both replay: FILE, or this session's log as it was typed */
	const char *path = c->argc > 2 ? c->argv[2] : NULL;
	const char *what = path ? path : "this session";
	char *text = NULL;
	size_t len = 0;
	if (path) {
		FILE *f = fopen(path, "r");
		if (!f)
			return cli_error(s, "compare: cannot open '%s': %s", path, strerror(errno));
		fclose(f);
	} else {
		FILE *f = open_memstream(&text, &len);
		if (!f || session_save(s, f, true) < 0 || fclose(f) != 0 || !text)
			return cli_errno(s, "compare", NULL, -VE_NOMEM);
	}
	struct replay rp[2] = { { .preset = names[0] }, { .preset = names[1] } };
	int rc = 0, ncalls = 0;
	for (int i = 0; i < 2 && !rc; i++) {
		FILE *in = path ? fopen(path, "r") : fmemopen(text, len ? len : 1, "r");
		if (!in) {
			rc = cli_error(s, "compare: cannot open '%s': %s", what, strerror(errno));
			break;
		}
		rc = replay(s, &rp[i], in, path ? path : "compare");
		fclose(in);
		for (int k = 0; !i && k < rp[0].nrows; k++)
			ncalls += rp[0].rows[k].kind == ROW_CALL;
		if (!i && !rc && !ncalls && !rp[0].nomem && !rp[0].watch.nomem) {
			out(s, "compare: %s has no system calls to compare yet\n", what);
			replay_free(&rp[0]);
			free(text);
			return 0;
		}
		if (!i && !rc && explore_cli_active(s))
			out(s, "compare: one schedule of the pending calls (the scheduler's), "
			    "not the explored ones;\n  'explore replay K' first to compare "
			    "execution K's calls\n");
	}
	free(text);
	for (int i = 0; i < 2 && !rc; i++) {
		bool lost = rp[i].nomem || rp[i].watch.nomem;
		for (int k = 0; k < rp[i].nrows; k++)
			lost |= rp[i].rows[k].cell.lost;
		if (lost)       /* (a table with a hole would compare wrongly) */
			rc = cli_errno(s, "compare", NULL, -VE_NOMEM);
	}
	if (rc < 0) {
		for (int i = 0; i < 2; i++)
			replay_free(&rp[i]);
		return -1;
	}

	int ndiff = 0;
	out(s, "compare %s | %s: %s, %d call%s; * marks a difference\n", names[0], names[1],
	    what, ncalls, ncalls == 1 ? "" : "s");
	int kl = rp[0].watch.kernel_lines;
	if (kl)
		out(s, "(its 'kernel' line%s replaced by each preset; 'set' lines kept)\n",
		    kl == 1 ? " is" : "s are");
	char h1[CMP_WIDTH], h2[CMP_WIDTH];
	snprintf(h1, sizeof h1, "under %s", names[0]);
	snprintf(h2, sizeof h2, "under %s", names[1]);
	print_row(s, 0, "call", h1, h2);
	char rule[CMP_WIDTH + 1];
	int lw, cw, width = cmp_width(s, &lw, &cw);
	memset(rule, '-', (size_t)width - 2);
	rule[width - 2] = 0;
	out(s, "  %s\n", rule);
	/* the rows of both, by the command that made them */
	for (int i = 0, j = 0; i < rp[0].nrows || j < rp[1].nrows;) {
		const struct row *a = i < rp[0].nrows ? &rp[0].rows[i] : NULL;
		const struct row *b = j < rp[1].nrows ? &rp[1].rows[j] : NULL;
		if (a && b && a->line != b->line) {
			if (a->line < b->line)
				b = NULL;
			else
				a = NULL;
		}
		print_rows(s, a, b, &ndiff);
		i += a != NULL;
		j += b != NULL;
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
	if (rp[0].skipped[0]) {
		rp[0].skipped[strlen(rp[0].skipped) - 1] = 0;
		out(s, "not replayed: %s\n", rp[0].skipped);
	}
	out(s, ndiff ? "%d row%s differ%s.\n" : "no difference.\n", ndiff,
	    ndiff == 1 ? "" : "s", ndiff == 1 ? "s" : "");
	for (int i = 0; i < 2; i++)
		replay_free(&rp[i]);
	return 0;
}
