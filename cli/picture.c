/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * picture.c - the spans, wake-ups and marks that every picture draws,
 * read off the trace events and the detectors' reports (see picture.h).
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include "picture.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"

/*
 * Out of memory while a picture is built: pic_build answers -VE_NOMEM
 * (the command that asked fails with one line, the session goes on).  The
 * builders are deep and many; rather than a check at each, a failed
 * allocation jumps back to pic_build, the tables made so far staying in
 * *pc for pic_free (a failed realloc keeps the old block there).
 */
static void *pic_alloc(struct pic *pc, void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		longjmp(*(jmp_buf *)pc->nomem, 1);
	return q;
}

void pic_thread_name(const struct pic *p, int tid, char *buf, size_t n)
{
	vfs_thread_name(p->w, tid, buf, n);
}

int pic_lock_col(int cls)
{
	switch (cls) {
	case LC_F_POS_LOCK: return 0;
	case LC_I_RWSEM_DIR: case LC_I_RWSEM: return 1;
	default: return 2;
	}
}

const char *pic_mark_name(int kind)
{
	if (kind >= 0 && kind < DK__COUNT && vfs_kinds[kind].mark)
		return vfs_kinds[kind].mark;
	return kind == PM_STUCK ? "stuck" : "mark";
}

bool pic_mark_at(const struct pic_mark *m, int32_t step, int tid)
{
	for (int i = 0; i < m->npoints; i++)
		if (m->step[i] == step && (tid < 0 || m->tid[i] == tid))
			return true;
	return false;
}

/* ---- building ---- */

bool pic_structural(int op)
{
	return op != OP_READ && op != OP_WRITE && op != OP_EMIT && op != OP_NOTE;
}

double pic_slot(const struct pic *p, size_t i)
{
	size_t lo, hi;
	int ns = 0;
	pic_step_range(p, p->ev[i].step, &lo, &hi);
	for (size_t k = lo; k < hi; k++)
		ns += pic_structural(p->ev[k].op);
	return 1.0 / (ns ? ns : 1);
}

static size_t add_span(struct pic *p, size_t *cap, const struct pic_span *sp)
{
	if (p->nspans == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		p->spans = pic_alloc(p, p->spans, *cap * sizeof *p->spans);
	}
	p->spans[p->nspans] = *sp;
	return p->nspans++;
}

static int lock_index(struct pic *p, int *cap, const struct vfs_event *ev)
{
	int32_t fid = vfs_lock_of_file(ev->lock) ? ev->file_id : 0;
	for (int i = 0; i < p->nlocks; i++)
		if (p->locks[i].lock == ev->lock && p->locks[i].file_id == fid)
			return i;
	if (p->nlocks == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		p->locks = pic_alloc(p, p->locks, (size_t)*cap * sizeof *p->locks);
	}
	struct pic_lock *l = &p->locks[p->nlocks];
	memset(l, 0, sizeof *l);
	l->lock = ev->lock;
	l->file_id = fid;
	l->cls = ev->cls;
	vfs_event_lock_name(p->w, ev, l->name, sizeof l->name);
	return p->nlocks++;
}

static void add_mark(struct pic *p, int kind, const char *title, const char *text)
{
	p->marks = pic_alloc(p, p->marks, (size_t)(p->nmarks + 1) * sizeof *p->marks);
	struct pic_mark *m = &p->marks[p->nmarks++];
	memset(m, 0, sizeof *m);
	m->kind = (uint8_t)kind;
	snprintf(m->title, sizeof m->title, "%s", title);
	snprintf(m->text, sizeof m->text, "%s", text);
}

static void add_point(struct pic_mark *m, int32_t step, int tid)
{
	if (step <= 0 || m->npoints >= PIC_MAX_POINTS)
		return;
	for (int i = 0; i < m->npoints; i++)
		if (m->step[i] == step && m->tid[i] == tid)
			return;
	m->step[m->npoints] = step;
	m->tid[m->npoints++] = (int8_t)tid;
}

/* A mark for report R at the step that found it (B), and at the step it
 * races or repeats (A) when PAIR. */
static void add_report_mark(struct pic *p, int kind, const char *title, const char *text,
			    const struct vfs_report *r, bool pair)
{
	add_mark(p, kind, title, text);
	if (pair)
		add_point(&p->marks[p->nmarks - 1], r->a.step, r->a.tid);
	add_point(&p->marks[p->nmarks - 1], r->b.step, r->b.tid);
}

/* The quoted name in a report's text: "duplicate entry 'x' of ..." */
static void quoted(const char *text, char *buf, size_t n)
{
	const char *a = strchr(text, '\'');
	const char *b = a ? strchr(a + 1, '\'') : NULL;
	if (a && b)
		snprintf(buf, n, " %.*s", (int)(b - a + 1), a);
	else
		buf[0] = 0;
}

static void build_marks(struct pic *p)
{
	const struct vfs_detect *d = vfs_world_detect(p->w);
	bool deadlock = false;
	for (int i = 0; i < d->nreports; i++) {
		const struct vfs_report *r = &d->reports[i];
		char text[400], title[48], q[40];
		vfs_report_text(p->w, r, text, sizeof text);
		quoted(r->text, q, sizeof q);
		switch (r->kind) {
		case DK_RACE:
			snprintf(title, sizeof title, "RACE on %s", vfs_field_name(r->field));
			add_report_mark(p, DK_RACE, title, text, r, true);
			break;
		case DK_DUPLICATE:
			snprintf(title, sizeof title, "DUPLICATE%s", q);
			add_report_mark(p, DK_DUPLICATE, title, text, r, true);
			break;
		case DK_SKIPPED:
			snprintf(title, sizeof title, "SKIPPED%s", q);
			add_report_mark(p, DK_SKIPPED, title, text, r, false);
			break;
		case DK_DEADDIR:
			add_report_mark(p, DK_DEADDIR, "DEAD DIRECTORY", text, r, false);
			break;
		case DK_DEADLOCK:
		case DK_LOCKORDER:
		case DK_RULE:          /* (the script's lock order: drawn as lockdep's) */
			deadlock |= r->kind == DK_DEADLOCK;
			add_mark(p, r->kind, r->kind == DK_DEADLOCK ? "DEADLOCK" :
				 r->kind == DK_RULE ? "RULE BROKEN" : "LOCK ORDER", text);
			for (int k = 0; k < r->nlinks && k < VFS_MAX_LINKS; k++)
				add_point(&p->marks[p->nmarks - 1], r->link[k].step,
					  r->link[k].tid);
			break;
		}
	}
	/* every live thread blocked, and no report said why */
	if (!deadlock && vfs_all_blocked(p->w)) {
		add_mark(p, PM_STUCK, "ALL BLOCKED",
			 "every live thread is blocked: nothing can run");
		for (size_t i = 0; i < p->nspans; i++) {
			const struct pic_span *sp = &p->spans[i];
			if (sp->kind == PS_WAIT && sp->open)
				add_point(&p->marks[p->nmarks - 1], sp->step0, sp->tid);
		}
	}
}

/* Greedy lanes per lock so that its holds and waits never overlap. */
static void assign_slots(struct pic *p)
{
	size_t *end = NULL;
	for (int l = 0; l < p->nlocks; l++) {
		int n = 0;
		for (size_t i = 0; i < p->nspans; i++) {
			struct pic_span *sp = &p->spans[i];
			if (sp->kind == PS_FN || sp->lockno != l)
				continue;
			int k;
			for (k = 0; k < n; k++)
				if (end[k] < sp->ev0)
					break;
			if (k == n) {
				p->slot_end = end = pic_alloc(p, end, (size_t)(n + 1) * sizeof *end);
				n++;
			}
			end[k] = sp->ev1;
			sp->slot = (uint8_t)k;
		}
		p->locks[l].nslots = n ? n : 1;
	}
	free(end);
	p->slot_end = NULL;
}

int pic_build(struct pic *p, const struct session *s)
{
	memset(p, 0, sizeof *p);
	jmp_buf nomem;
	if (setjmp(nomem))
		return -VE_NOMEM;       /* (p keeps what was made: pic_free) */
	p->nomem = &nomem;
	p->w = s->w;
	p->ev = s->ev;
	p->nev = s->nev;
	p->dropped = s->ev_dropped;
	p->step_max = -1;
	if (p->nev) {
		p->step_min = p->ev[0].step;
		p->step_max = p->ev[p->nev - 1].step;
	}
	for (size_t i = 0; i < p->nev; i++) {
		if (p->ev[i].tid >= p->nthreads)
			p->nthreads = p->ev[i].tid + 1;
		if (p->ev[i].step < p->step_min)
			p->step_min = p->ev[i].step;
		if (p->ev[i].step > p->step_max)
			p->step_max = p->ev[i].step;
	}

	/* times: a step's structural events (enter, exit, lock operations)
	 * share it in order, enters early in their slot and exits late, so
	 * that nesting stays strict; reads, writes and emits sit after the
	 * structural event before them */
	p->ts = pic_alloc(p, NULL, (p->nev ? p->nev : 1) * sizeof *p->ts);
	for (size_t lo = 0, hi; lo < p->nev; lo = hi) {
		int ns = 0;
		for (hi = lo; hi < p->nev && p->ev[hi].step == p->ev[lo].step; hi++)
			ns += pic_structural(p->ev[hi].op);
		double n = ns ? ns : 1, k = p->ev[lo].step;
		int j = -1;
		for (size_t i = lo; i < hi; i++) {
			int op = p->ev[i].op;
			if (!pic_structural(op)) {
				p->ts[i] = j < 0 ? k + 0.02 / n : k + (j + 0.97) / n;
				continue;
			}
			j++;
			double f = op == OP_ENTER ? 0.05 : op == OP_EXIT ? 0.95 : 0.5;
			p->ts[i] = k + (j + f) / n;
		}
	}

	size_t cap = 0, wcap = 0;
	int lcap = 0;
	enum { MAXSTACK = 32 };
	size_t stack[VFS_MAX_THREADS][MAXSTACK];
	int depth[VFS_MAX_THREADS] = { 0 };
	for (size_t i = 0; i < p->nev; i++) {
		const struct vfs_event *e = &p->ev[i];
		int t = e->tid;
		if (t < 0 || t >= VFS_MAX_THREADS)
			continue;
		struct pic_span sp = { .tid = (int8_t)t, .fn = e->fn, .ev0 = i, .ev1 = i,
			.step0 = e->step, .step1 = e->step, .other = -1, .lockno = -1 };
		switch (e->op) {
		case OP_ENTER:
			sp.kind = PS_FN;
			sp.sys = e->sys;
			sp.depth = (uint8_t)depth[t];
			sp.open = 1;
			if (depth[t] > p->maxdepth)
				p->maxdepth = depth[t];
			size_t k = add_span(p, &cap, &sp);
			if (depth[t] < MAXSTACK)
				stack[t][depth[t]++] = k;
			break;
		case OP_EXIT:
			for (int d = depth[t] - 1; d >= 0; d--) {
				struct pic_span *o = &p->spans[stack[t][d]];
				if (o->fn != e->fn)
					continue;
				o->ev1 = i;
				o->step1 = e->step;
				o->ret = e->ret;
				o->open = 0;
				depth[t] = d;
				break;
			}
			break;
		case OP_ACQUIRE: case OP_BLOCK:
			/* an acquisition ends this thread's wait for the lock */
			for (size_t j = p->nspans; e->op == OP_ACQUIRE && j-- > 0;) {
				struct pic_span *o = &p->spans[j];
				if (o->kind == PS_WAIT && o->open && o->tid == t &&
				    o->lock == e->lock) {
					o->ev1 = i;
					o->step1 = e->step;
					o->endfn = e->fn;
					o->open = 0;
					break;
				}
			}
			sp.kind = e->op == OP_ACQUIRE ? PS_HOLD : PS_WAIT;
			sp.lock = e->lock;
			sp.file_id = e->file_id;
			sp.cls = e->cls;
			sp.mode = e->mode;
			sp.open = 1;
			sp.other = e->op == OP_BLOCK ? e->other : -1;
			sp.lockno = lock_index(p, &lcap, e);
			add_span(p, &cap, &sp);
			break;
		case OP_RELEASE: case OP_DOWNGRADE:
			for (size_t j = p->nspans; j-- > 0;) {
				struct pic_span *o = &p->spans[j];
				if (o->kind != PS_HOLD || !o->open || o->tid != t ||
				    o->lock != e->lock)
					continue;
				o->ev1 = i;
				o->step1 = e->step;
				o->endfn = e->fn;
				o->open = 0;
				if (e->op == OP_DOWNGRADE) {
					sp.kind = PS_HOLD;
					sp.lock = e->lock;
					sp.file_id = o->file_id;
					sp.cls = o->cls;
					sp.mode = M_READ;
					sp.open = 1;
					sp.lockno = o->lockno;
					add_span(p, &cap, &sp);
				}
				break;
			}
			break;
		case OP_WAKE: {
			struct pic_wake wk = { .rel_ev = (size_t)-1, .wake_ev = i,
				.from = -1, .to = (int8_t)t };
			for (size_t j = i; j-- > 0 && p->ev[j].step >= e->step - 1;) {
				const struct vfs_event *r = &p->ev[j];
				if ((r->op == OP_RELEASE || r->op == OP_DOWNGRADE) &&
				    r->lock == e->lock) {
					wk.rel_ev = j;
					wk.from = r->tid;
					break;
				}
			}
			if (p->nwakes == wcap) {
				wcap = wcap ? wcap * 2 : 16;
				p->wakes = pic_alloc(p, p->wakes, wcap * sizeof *p->wakes);
			}
			p->wakes[p->nwakes++] = wk;
			break;
		}
		default:
			break;
		}
	}
	for (size_t i = 0; i < p->nspans; i++)
		if (p->spans[i].open) {
			p->spans[i].ev1 = p->nev;
			p->spans[i].step1 = p->step_max;
		}
	assign_slots(p);
	build_marks(p);
	p->nomem = NULL;
	return 0;
}

void pic_free(struct pic *p)
{
	free(p->ts);
	free(p->spans);
	free(p->wakes);
	free(p->locks);
	free(p->marks);
	free(p->slot_end);              /* (an assign_slots cut short) */
	memset(p, 0, sizeof *p);
}

void pic_step_range(const struct pic *p, int32_t step, size_t *lo, size_t *hi)
{
	size_t a = 0, b = p->nev;
	while (a < b) {                 /* the first event of the step */
		size_t m = a + (b - a) / 2;
		if (p->ev[m].step < step)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	while (a < p->nev && p->ev[a].step == step)
		a++;
	*hi = a;
}

void pic_held(const struct pic *p, int tid, int32_t step, int col, int *mode,
	      bool *waiting)
{
	*mode = M_NONE;
	*waiting = false;
	for (size_t i = 0; i < p->nspans; i++) {
		const struct pic_span *sp = &p->spans[i];
		if (sp->kind == PS_FN || sp->tid != tid || pic_lock_col(sp->cls) != col ||
		    step < sp->step0 || step > sp->step1)
			continue;
		if (sp->kind == PS_WAIT) {
			*waiting = true;
		} else if (sp->mode == M_WRITE || *mode == M_NONE ||
			   (sp->mode == M_EXCL && *mode == M_READ)) {
			*mode = sp->mode;
		}
	}
}

/* ---- labels ---- */

#define CAT(...) do { int r_ = snprintf(buf + o, o < n ? n - o : 0, __VA_ARGS__); \
	if (r_ > 0) o += (size_t)r_; } while (0)

void pic_label(const struct pic *p, int tid, int32_t step, char *buf, size_t n,
	       int *style, bool terse)
{
	size_t lo, hi, o = 0;
	const struct vfs_event *sysin = NULL, *sysout = NULL, *lk = NULL, *in = NULL,
		*out = NULL, *first = NULL, *skip = NULL, *fpos = NULL;
	int nemit = 0;
	*style = PL_PLAIN;
	buf[0] = 0;
	pic_step_range(p, step, &lo, &hi);
	for (size_t i = lo; i < hi; i++) {
		const struct vfs_event *e = &p->ev[i];
		if (e->tid != tid)
			continue;
		if (!first)
			first = e;
		switch (e->op) {
		case OP_ENTER:
			if (e->sys && !sysin)
				sysin = e;
			in = e;
			break;
		case OP_EXIT:
			if (e->sys)
				sysout = e;
			else if (!out)
				out = e;
			break;
		case OP_ACQUIRE: case OP_RELEASE: case OP_DOWNGRADE:
			if (!lk || lk->op == OP_WAKE)
				lk = e;
			break;
		case OP_BLOCK:
			lk = e;
			break;
		case OP_WAKE:
			if (!lk)
				lk = e;
			break;
		case OP_SKIP:
			skip = e;
			break;
		case OP_READ: case OP_WRITE:
			if (e->field == FLD_F_POS && (!fpos || e->op == OP_WRITE))
				fpos = e;
			break;
		case OP_EMIT:
			nemit++;
			break;
		}
	}
	if (!first)
		return;
	char r[32], th[32];
	if (sysout) {
		vfs_ret_text(sysout->ret, r, sizeof r);
		CAT("%s = %s", vfs_fn_name(sysout->fn), r);
		*style = PL_RETURN;
	} else if (lk && lk->op == OP_BLOCK) {
		CAT("%s", vfs_fn_name(lk->fn));
		if (lk->other == tid) {
			CAT(" waits %s", terse ? "(self)" : "for itself");
		} else if (lk->other >= 0) {
			vfs_thread_name(p->w, lk->other, th, sizeof th);
			CAT(" waits %s%s", terse ? "" : "for ", th);
		} else {
			CAT(" waits");
		}
		*style = PL_WAIT;
	} else if (sysin) {
		CAT("%s", vfs_fn_name(sysin->fn));
		*style = PL_SYSCALL;
	} else if (lk) {
		CAT("%s%s", vfs_fn_name(lk->fn), lk->op == OP_WAKE ||
		    (lk > p->ev + lo && lk[-1].op == OP_WAKE && lk[-1].tid == tid) ?
		    " (woken)" : "");
	} else if (skip) {
		CAT("no f_pos_lock");
	} else if (in) {
		CAT("%s", vfs_fn_name(in->fn));
	} else if (out) {
		vfs_ret_text(out->ret, r, sizeof r);
		CAT("%s = %s", vfs_fn_name(out->fn), r);
	} else {
		CAT("%s", vfs_fn_name(first->fn));
	}
	if (nemit) {
		CAT(" [");
		int k = 0;
		for (size_t i = lo; i < hi; i++) {
			const struct vfs_event *e = &p->ev[i];
			if (e->tid != tid || e->op != OP_EMIT)
				continue;
			char en[VFS_NAME_MAX];
			vfs_event_entry_name(p->w, e, en, sizeof en);
			CAT("%s%s", k++ ? " " : "", en);
		}
		CAT("]");
	} else if (fpos && !sysout && !(lk && lk->op == OP_BLOCK)) {
		CAT(" f_pos%s%" PRId64, fpos->op == OP_WRITE ? ":=" : "=", fpos->value);
	}
}

/* ---- escaping ---- */

void pic_html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f); break;
		}
	}
}

void pic_json_escape(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}
