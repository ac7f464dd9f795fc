/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export_chrome.c - `export chrome FILE`: the trace in the Chrome trace
 * event format (JSON object form), for Perfetto (ui.perfetto.dev) and
 * chrome://tracing.
 *
 *   time      1 step = 1 µs: step 17 runs from 17 µs to 18 µs; the events
 *             of one step follow each other inside it, in trace order
 *   threads   a process per simulated process (pid 100, ...), a thread per
 *             simulated thread (tid as `ps` shows it), named "A", "A.2"
 *   slices    system calls and kernel functions as nested B/E slices from
 *             their enter/exit events; lock functions (mutex_lock, up_read,
 *             ...) as short X slices inside them; a blocked lock function
 *             as an X slice "mutex_lock (waiting)" from block to acquire
 *   instants  reads and writes of shared fields, entries handed out,
 *             skipped f_pos locks (category "access")
 *   locks     the process "locks" (pid 1): a track per lock, its holds as X
 *             slices "held by A (read)" and waits "A.2 waits (excl)"
 *   flows     a wake-up is a flow (s/f, category "wake") from the slice of
 *             the thread that released the lock to the waiter's wait
 *   reports   races, duplicates, deadlocks: instant events (category
 *             "report") on the threads and steps involved, and global ones
 */
#include <stdlib.h>
#include <string.h>
#include "picture.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"
#include "vfs_thread.h"

#define LOCKS_PID 1
#define LOCK_TID(lockno, slot) (100000 + (lockno) * 16 + (slot))

struct cw {
	FILE *f;
	int n;                  /* events written */
};

static void sep(struct cw *c)
{
	fputs(c->n++ ? ",\n" : "\n", c->f);
}

static int pid_of(const struct pic *p, int tid)
{
	return vfs_proc_pid(p->w, vfs_thread_proc(p->w, tid));
}

static int tid_of(const struct pic *p, int tid)
{
	return vfs_thread_ktid(p->w, tid);
}

static void head(struct cw *c, const char *ph, const char *name, const char *cat,
		 int pid, int tid, double ts)
{
	sep(c);
	fprintf(c->f, "{\"ph\":\"%s\",\"name\":", ph);
	pic_json_escape(c->f, name);
	if (cat)
		fprintf(c->f, ",\"cat\":\"%s\"", cat);
	fprintf(c->f, ",\"pid\":%d,\"tid\":%d,\"ts\":%.3f", pid, tid, ts);
}

static void meta(struct cw *c, const char *what, int pid, int tid, const char *key,
		 const char *sval, int ival)
{
	sep(c);
	fprintf(c->f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"%s\":",
		what, pid, tid, key);
	if (sval)
		pic_json_escape(c->f, sval);
	else
		fprintf(c->f, "%d", ival);
	fputs("}}", c->f);
}

/* An instant's name: the trace line without its step, thread and function
 * columns, blanks collapsed: "write f_pos file#1 = 2 ". */
static void ev_text(const struct pic *p, size_t i, char *buf, size_t n)
{
	char line[512];
	vfs_event_text(p->w, &p->ev[i], line, sizeof line);
	const char *q = line;
	for (int col = 0; col < 3; col++) {     /* step, thread, function */
		while (*q == ' ')
			q++;
		while (*q && *q != ' ')
			q++;
	}
	size_t o = 0;
	for (; *q && o + 1 < n; q++) {
		if (*q == ' ' && (o == 0 || buf[o - 1] == ' '))
			continue;
		buf[o++] = *q;
	}
	while (o && buf[o - 1] == ' ')
		o--;
	buf[o] = 0;
}

/* An event's args, opened: its world step and the step of its kernel
 * function it happened in ("iterate_dir:iterate", as `where` names it). */
static void args_open(FILE *f, const struct vfs_world *w, const struct vfs_event *e)
{
	fprintf(f, ",\"args\":{\"step\":%d,\"point\":", e->step);
	pic_json_escape(f, vfs_event_point(w, e));
}

int export_chrome(struct session *s, FILE *f)
{
	struct pic p;
	if (pic_build(&p, s) < 0) {
		pic_free(&p);
		return cli_errno(s, "export", NULL, -VE_NOMEM);
	}
	struct cw c = { .f = f };
	double tend = p.nev ? p.step_max + 1 : 0;
	char name[256], th[32], ln[VFS_PATH_MAX + 48], txt[512];

	fputs("{\"otherData\":{\"generator\":\"vfsim\",\"kernel\":", f);
	pic_json_escape(f, vfs_presets[vfs_world_preset(s->w)].name);
	fprintf(f, ",\"knobs_overridden\":%s,\"time\":\"1 step = 1 us\"},\n\"traceEvents\":[",
		vfs_world_knobs_overridden(s->w) ? "true" : "false");

	/* names */
	bool seen_proc[VFS_MAX_PROCS] = { false };
	for (int t = 0; t < p.nthreads; t++) {
		int proc = vfs_thread_proc(s->w, t);
		if (proc < 0 || proc >= VFS_MAX_PROCS)
			continue;
		if (!seen_proc[proc]) {
			seen_proc[proc] = true;
			snprintf(name, sizeof name, "%s", vfs_proc_name(s->w, proc));
			meta(&c, "process_name", pid_of(&p, t), 0, "name", name, 0);
			meta(&c, "process_sort_index", pid_of(&p, t), 0, "sort_index", NULL,
			     proc);
		}
		pic_thread_name(&p, t, th, sizeof th);
		meta(&c, "thread_name", pid_of(&p, t), tid_of(&p, t), "name", th, 0);
		meta(&c, "thread_sort_index", pid_of(&p, t), tid_of(&p, t), "sort_index",
		     NULL, t);
	}
	if (p.nlocks) {
		meta(&c, "process_name", LOCKS_PID, 0, "name", "locks", 0);
		meta(&c, "process_sort_index", LOCKS_PID, 0, "sort_index", NULL, 1000);
	}
	for (int l = 0; l < p.nlocks; l++)
		for (int k = 0; k < p.locks[l].nslots; k++) {
			if (k)
				snprintf(name, sizeof name, "%s (%d)", p.locks[l].name, k + 1);
			else
				snprintf(name, sizeof name, "%s", p.locks[l].name);
			meta(&c, "thread_name", LOCKS_PID, LOCK_TID(l, k), "name", name, 0);
			meta(&c, "thread_sort_index", LOCKS_PID, LOCK_TID(l, k), "sort_index",
			     NULL, l * 16 + k);
		}

	/* which function span starts or ends at each event */
	size_t none = (size_t)-1;
	size_t *starts = calloc(p.nev ? p.nev : 1, sizeof *starts);
	size_t *ends = calloc(p.nev ? p.nev : 1, sizeof *ends);
	size_t *waits = calloc(p.nev ? p.nev : 1, sizeof *waits);
	if (!starts || !ends || !waits) {
		free(starts); free(ends); free(waits);
		pic_free(&p);
		return cli_errno(s, "export chrome", NULL, -VE_NOMEM);
	}
	for (size_t i = 0; i < p.nev; i++)
		starts[i] = ends[i] = waits[i] = none;
	for (size_t i = 0; i < p.nspans; i++) {
		const struct pic_span *sp = &p.spans[i];
		if (sp->kind == PS_FN) {
			starts[sp->ev0] = i;
			if (!sp->open)
				ends[sp->ev1] = i;
		} else if (sp->kind == PS_WAIT) {
			waits[sp->ev0] = i;
		}
	}

	/* the threads: slices and instants, in trace order */
	for (size_t i = 0; i < p.nev; i++) {
		const struct vfs_event *e = &p.ev[i];
		if (e->tid < 0 || e->tid >= p.nthreads)
			continue;
		int pid = pid_of(&p, e->tid), tid = tid_of(&p, e->tid);
		double slot = pic_slot(&p, i);
		switch (e->op) {
		case OP_ENTER:
			if (starts[i] == none)
				break;
			head(&c, "B", vfs_fn_name(e->fn), e->sys ? "syscall" : "kernel",
			     pid, tid, p.ts[i]);
			args_open(f, p.w, e);
			fputs(e->sys ? ",\"syscall\":true}}" : "}}", f);
			break;
		case OP_EXIT:
			if (ends[i] == none)
				break;
			head(&c, "E", vfs_fn_name(e->fn), e->sys ? "syscall" : "kernel",
			     pid, tid, p.ts[i]);
			vfs_ret_text(e->ret, txt, sizeof txt);
			args_open(f, p.w, e);
			fputs(",\"ret\":", f);
			pic_json_escape(f, txt);
			fputs("}}", f);
			break;
		case OP_BLOCK: {
			const struct pic_span *sp = waits[i] != none ? &p.spans[waits[i]] : NULL;
			double t1 = sp && !sp->open ? p.ts[sp->ev1] : tend;
			snprintf(name, sizeof name, "%s (waiting)", vfs_fn_name(e->fn));
			head(&c, "X", name, "wait", pid, tid, p.ts[i]);
			vfs_event_lock_name(p.w, e, ln, sizeof ln);
			fprintf(f, ",\"dur\":%.3f", t1 - p.ts[i]);
			args_open(f, p.w, e);
			fputs(",\"lock\":", f);
			pic_json_escape(f, ln);
			fprintf(f, ",\"mode\":\"%s\"", vfs_mode_name(e->mode));
			if (e->other >= 0) {
				pic_thread_name(&p, e->other, th, sizeof th);
				fputs(",\"holder\":", f);
				pic_json_escape(f, th);
			}
			fputs(sp && sp->open ? ",\"unfinished\":true}}" : "}}", f);
			break;
		}
		case OP_ACQUIRE: case OP_RELEASE: case OP_DOWNGRADE:
			head(&c, "X", vfs_fn_name(e->fn), "lock", pid, tid, p.ts[i]);
			vfs_event_lock_name(p.w, e, ln, sizeof ln);
			fprintf(f, ",\"dur\":%.3f", 0.4 * slot);
			args_open(f, p.w, e);
			fprintf(f, ",\"op\":\"%s\",\"lock\":", vfs_op_name(e->op));
			pic_json_escape(f, ln);
			fprintf(f, ",\"mode\":\"%s\"}}", vfs_mode_name(e->mode));
			break;
		case OP_WAKE: case OP_SKIP: case OP_READ: case OP_WRITE: case OP_EMIT:
		case OP_NOTE:
			ev_text(&p, i, txt, sizeof txt);
			head(&c, "i", txt, "access", pid, tid, p.ts[i]);
			fputs(",\"s\":\"t\"", f);
			args_open(f, p.w, e);
			fprintf(f, ",\"fn\":\"%s\"}}", vfs_fn_name(e->fn));
			break;
		}
	}
	/* calls still going at the end: closed there, innermost first */
	for (size_t i = p.nspans; i-- > 0;) {
		const struct pic_span *sp = &p.spans[i];
		if (sp->kind != PS_FN || !sp->open)
			continue;
		head(&c, "E", vfs_fn_name(sp->fn), sp->sys ? "syscall" : "kernel",
		     pid_of(&p, sp->tid), tid_of(&p, sp->tid), tend);
		fputs(",\"args\":{\"unfinished\":true}}", f);
	}

	/* the locks' tracks */
	for (size_t i = 0; i < p.nspans; i++) {
		const struct pic_span *sp = &p.spans[i];
		if (sp->kind == PS_FN)
			continue;
		double t0 = p.ts[sp->ev0], t1 = sp->open ? tend : p.ts[sp->ev1];
		pic_thread_name(&p, sp->tid, th, sizeof th);
		if (sp->kind == PS_HOLD)
			snprintf(name, sizeof name, "held by %s (%s)", th, vfs_mode_name(sp->mode));
		else
			snprintf(name, sizeof name, "%s waits (%s)", th, vfs_mode_name(sp->mode));
		head(&c, "X", name, sp->kind == PS_HOLD ? "lock" : "wait", LOCKS_PID,
		     LOCK_TID(sp->lockno, sp->slot), t0);
		fprintf(f, ",\"dur\":%.3f,\"args\":{\"lock\":", t1 - t0);
		pic_json_escape(f, p.locks[sp->lockno].name);
		fputs(",\"thread\":", f);
		pic_json_escape(f, th);
		fprintf(f, ",\"mode\":\"%s\",\"from_step\":%d,\"to_step\":%d,\"by\":\"%s\"",
			vfs_mode_name(sp->mode), sp->step0, sp->step1, vfs_fn_name(sp->fn));
		if (!sp->open && sp->endfn)
			fprintf(f, ",\"until\":\"%s\"", vfs_fn_name(sp->endfn));
		fputs(sp->open ? ",\"unfinished\":true}}" : "}}", f);
	}

	/* wake-ups: from the releasing lock function to the waiter's wait */
	for (size_t i = 0; i < p.nwakes; i++) {
		const struct pic_wake *wk = &p.wakes[i];
		if (wk->rel_ev == (size_t)-1 || wk->from < 0)
			continue;
		const struct vfs_event *r = &p.ev[wk->rel_ev];
		vfs_event_lock_name(p.w, r, ln, sizeof ln);
		snprintf(name, sizeof name, "wake-up: %s", ln);
		head(&c, "s", name, "wake", pid_of(&p, wk->from), tid_of(&p, wk->from),
		     p.ts[wk->rel_ev] + 0.1 * pic_slot(&p, wk->rel_ev));
		fprintf(f, ",\"id\":%zu}", i + 1);
		head(&c, "f", name, "wake", pid_of(&p, wk->to), tid_of(&p, wk->to),
		     p.ts[wk->wake_ev]);
		fprintf(f, ",\"bp\":\"e\",\"id\":%zu}", i + 1);
	}

	/* the detectors' reports */
	for (int m = 0; m < p.nmarks; m++) {
		const struct pic_mark *mk = &p.marks[m];
		for (int k = 0; k < mk->npoints; k++) {
			if (mk->tid[k] < 0 || mk->tid[k] >= p.nthreads)
				continue;
			head(&c, "i", mk->title, "report", pid_of(&p, mk->tid[k]),
			     tid_of(&p, mk->tid[k]), mk->step[k] + 0.5);
			fprintf(f, ",\"s\":\"t\",\"args\":{\"kind\":\"%s\",\"step\":%d,\"report\":",
				pic_mark_name(mk->kind), mk->step[k]);
			pic_json_escape(f, mk->text);
			fputs("}}", f);
		}
		double at = mk->npoints ? mk->step[mk->npoints - 1] + 0.5 : tend;
		head(&c, "i", mk->title, "report", LOCKS_PID, 0, at);
		fprintf(f, ",\"s\":\"g\",\"args\":{\"kind\":\"%s\",\"report\":",
			pic_mark_name(mk->kind));
		pic_json_escape(f, mk->text);
		fputs("}}", f);
	}
	fputs("\n]}\n", f);
	free(starts);
	free(ends);
	free(waits);
	pic_free(&p);
	return 0;
}
