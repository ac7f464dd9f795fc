/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export_html.c - `export html FILE`: the timeline as one self-contained
 * page (inline SVG, CSS and a little JS; nothing fetched), made to be read
 * on a projector: large type, high contrast, colour-blind-safe colours.
 *
 * Time runs down, a row per step; each thread is a lane (a column).  In a
 * lane: three narrow lock columns (f_pos_lock, i_rwsem, other locks) with
 * the holds as coloured bars and the waits hatched; the kernel functions
 * as nested boxes; what the thread did in each step as a label.  Wake-ups
 * are arrows from the releasing lane to the woken one.  The detectors'
 * reports are red bands over their steps, a "!" on the threads involved,
 * and a badge in the right margin.  Hovering shows details; clicking a
 * row (or the arrow keys) shows that step's trace lines.
 *
 * Element classes the tests rely on: g.lane[data-thread] per thread,
 * .mark.mark-KIND[data-step][data-thread] per report point (KIND: race,
 * duplicate, skipped, deaddir, deadlock, lockorder, stuck), .fn boxes,
 * .hold and .wait bars, .wake arrows; body[data-ready] once the script ran.
 */
#include <stdlib.h>
#include <string.h>
#include "picture.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"
#include "vfs_thread.h"

#define ROWH    34
#define TOP     64
#define STEPW   84
#define LANEW   460
#define LOCKX   10              /* the lock columns, from the lane's left */
#define LOCKW   18
#define LOCKGAP 8
#define FNX     (LOCKX + 3 * (LOCKW + LOCKGAP) + 6)
#define INDENT  12
#define MARKW   320

static const char *lock_color(int cls, int mode)
{
	switch (pic_lock_col(cls)) {
	case 0: return "#E69F00";
	case 1: return mode == M_READ ? "#56B4E9" : "#0050A0";
	default: return "#009E73";
	}
}

static const char *hatch_of(int cls)
{
	switch (pic_lock_col(cls)) {
	case 0: return "hatch-fpos";
	case 1: return "hatch-irwsem";
	default: return "hatch-other";
	}
}

struct hw {
	FILE *f;
	const struct pic *p;
	int32_t from, to;
	int lanes[VFS_MAX_THREADS], nl;
	int lane_of[VFS_MAX_THREADS];
};

static double row_y(const struct hw *h, int32_t step)
{
	return TOP + (double)(step - h->from) * ROWH;
}

/* Whether a span of KIND of thread tid shows in the window, and its steps
 * there [*a, *b]. */
static bool span_shown(const struct hw *h, const struct pic_span *sp, int kind, int tid,
		       int32_t *a, int32_t *b)
{
	if (sp->kind != kind || sp->tid != tid || sp->step1 < h->from || sp->step0 > h->to)
		return false;
	*a = sp->step0 < h->from ? h->from : sp->step0;
	*b = sp->step1 > h->to ? h->to : sp->step1;
	return true;
}

/* The next span of KIND of tid that shows in the window, from *i on (0 to
 * begin), and its steps there; NULL after the last. */
static const struct pic_span *next_shown(const struct hw *h, const struct pic *p, size_t *i,
					 int kind, int tid, int32_t *a, int32_t *b)
{
	while (*i < p->nspans) {
		const struct pic_span *sp = &p->spans[(*i)++];
		if (span_shown(h, sp, kind, tid, a, b))
			return sp;
	}
	return NULL;
}

static double lane_x(const struct hw *h, int tid)
{
	return STEPW + (double)h->lane_of[tid] * LANEW;
}

/* <title> and data-tip for one element: opened by the caller's "<tag ..." */
static void tip(FILE *f, const char *text)
{
	fputs(" data-tip=\"", f);
	pic_html_escape(f, text);
	fputs("\"><title>", f);
	pic_html_escape(f, text);
	fputs("</title>", f);
}

/* The end of a <rect ...: its tip, and the element closed. */
static void rect_end(FILE *f, const char *text)
{
	tip(f, text);
	fputs("</rect>\n", f);
}

/* A JSON string that is safe inside <script>. */
static void js_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '<' || c == '>' || c == '&')
			fprintf(f, "\\u%04x", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* The depth of the innermost function thread tid is in during step k. */
static int depth_at(const struct pic *p, int tid, int32_t k)
{
	int d = -1;
	for (size_t i = 0; i < p->nspans; i++) {
		const struct pic_span *sp = &p->spans[i];
		if (sp->kind == PS_FN && sp->tid == tid && sp->step0 <= k && k <= sp->step1 &&
		    sp->depth > d)
			d = sp->depth;
	}
	return d;
}

static const char *css =
	"body{margin:0;font:20px/1.35 \"DejaVu Sans\",\"Liberation Sans\",Arial,sans-serif;"
	"color:#000;background:#fff}\n"
	"header{padding:14px 24px 8px;border-bottom:3px solid #000}\n"
	"h1{font-size:32px;margin:0 0 4px}\n"
	".sub{font-size:20px;color:#222}\n"
	".legend{display:flex;flex-wrap:wrap;gap:6px 22px;margin:10px 0 4px;font-size:19px}\n"
	".legend span{display:inline-flex;align-items:center;gap:8px}\n"
	".sw{display:inline-block;width:22px;height:22px;border:2px solid #000}\n"
	"#reports{margin:8px 0 4px;padding-left:0;list-style:none}\n"
	"#reports li{margin:4px 0;font-size:20px}\n"
	"#reports b{color:#fff;background:#D00000;padding:1px 8px;border-radius:4px;"
	"margin-right:8px}\n"
	"main{padding:8px 12px 120px;overflow-x:auto}\n"
	"svg text{font-family:\"DejaVu Sans\",\"Liberation Sans\",Arial,sans-serif}\n"
	".lane-name{font-size:28px;font-weight:bold}\n"
	".stepno{font-size:18px;fill:#333}\n"
	".lbl{font-size:18px;paint-order:stroke;stroke:#fff;stroke-width:5px;"
	"stroke-linejoin:round}\n"
	".lbl.sys{font-weight:bold}\n"
	".lbl.ret{font-weight:bold;fill:#005a32}\n"
	".lbl.wait{font-weight:bold;fill:#7a0060}\n"
	".row.cur{fill:#fff2a8 !important}\n"
	".badge{font-size:19px;font-weight:bold;fill:#D00000}\n"
	"#tip{position:fixed;display:none;max-width:720px;background:#000;color:#fff;"
	"font-size:19px;padding:8px 12px;border-radius:6px;pointer-events:none;"
	"white-space:pre-wrap;z-index:10}\n"
	"#details{position:fixed;left:0;right:0;bottom:0;background:#f4f4f4;"
	"border-top:3px solid #000;font:18px/1.3 \"DejaVu Sans Mono\",monospace;"
	"padding:6px 16px;max-height:30vh;overflow:auto;white-space:pre}\n"
	"#details:empty{display:none}\n"
	"@media print{#details,#tip{display:none}}\n";

static const char *script =
	"(function(){\n"
	"var tip=document.getElementById('tip');\n"
	"document.querySelectorAll('[data-tip]').forEach(function(el){\n"
	"  var t=el.querySelector(':scope > title'); if(t) t.remove();\n"
	"  el.addEventListener('mousemove',function(e){tip.textContent=el.dataset.tip;"
	"tip.style.display='block';\n"
	"    var x=e.clientX+18,y=e.clientY+18;"
	"if(x+tip.offsetWidth>innerWidth)x=innerWidth-tip.offsetWidth-8;"
	"if(y+tip.offsetHeight>innerHeight)y=e.clientY-tip.offsetHeight-12;\n"
	"    tip.style.left=x+'px';tip.style.top=y+'px';});\n"
	"  el.addEventListener('mouseleave',function(){tip.style.display='none';});\n"
	"});\n"
	"var det=document.getElementById('details'),cur=null;\n"
	"function show(k){if(!(k in STEPS))return;cur=k;\n"
	"  document.querySelectorAll('.row.cur').forEach(function(r){r.classList.remove('cur');});\n"
	"  var r=document.querySelector('.row[data-step=\"'+k+'\"]');"
	"if(r){r.classList.add('cur');r.scrollIntoView({block:'nearest'});}\n"
	"  det.textContent='step '+k+'\\n'+STEPS[k].join('\\n');}\n"
	"document.querySelectorAll('.row').forEach(function(r){r.addEventListener('click',"
	"function(){show(+r.dataset.step);});});\n"
	"document.addEventListener('keydown',function(e){var ks=Object.keys(STEPS).map(Number);\n"
	"  if(!ks.length)return;var i=cur===null?-1:ks.indexOf(cur);\n"
	"  if(e.key==='ArrowDown'||e.key==='ArrowRight'||e.key==='j'){show(ks[Math.min(i+1,ks.length-1)]);e.preventDefault();}\n"
	"  else if(e.key==='ArrowUp'||e.key==='ArrowLeft'||e.key==='k'){show(ks[Math.max(i-1,0)]);e.preventDefault();}\n"
	"  else if(e.key==='Escape'){det.textContent='';cur=null;"
	"document.querySelectorAll('.row.cur').forEach(function(r){r.classList.remove('cur');});}});\n"
	"document.getElementById('nmarks').textContent="
	"document.querySelectorAll('svg .mark').length;\n"
	"document.body.dataset.ready='1';\n"
	"})();\n";

static void defs(FILE *f)
{
	static const struct { const char *id, *color; } h[] = {
		{ "hatch-fpos", "#E69F00" }, { "hatch-irwsem", "#0050A0" },
		{ "hatch-other", "#009E73" },
	};
	fputs("<defs>\n", f);
	for (size_t i = 0; i < sizeof h / sizeof h[0]; i++)
		fprintf(f, "<pattern id=\"%s\" patternUnits=\"userSpaceOnUse\" width=\"12\" "
			"height=\"12\" patternTransform=\"rotate(45)\"><rect width=\"12\" "
			"height=\"12\" fill=\"#fff\"/><rect width=\"5\" height=\"12\" "
			"fill=\"%s\"/></pattern>\n", h[i].id, h[i].color);
	fputs("<marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" "
	      "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\">"
	      "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#7a0060\"/></marker>\n</defs>\n", f);
}

static void lane(struct hw *h, int tid)
{
	FILE *f = h->f;
	const struct pic *p = h->p;
	double x0 = lane_x(h, tid), fx = x0 + FNX, fw = LANEW - FNX - 40;
	double ytop = row_y(h, h->from), ybot = row_y(h, h->to + 1);
	char th[32], t[900], ln[VFS_PATH_MAX + 48];
	pic_thread_name(p, tid, th, sizeof th);

	fprintf(f, "<g class=\"lane\" id=\"lane-%d\" data-thread=\"", tid);
	pic_html_escape(f, th);
	fprintf(f, "\">\n<clipPath id=\"clip-%d\"><rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
		"height=\"%.0f\"/></clipPath>\n", tid, x0, ytop, (double)LANEW - 30,
		ybot - ytop);
	fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#000\" "
		"stroke-width=\"2\"/>\n", x0, ytop - 44, x0, ybot);
	fprintf(f, "<text class=\"lane-name\" x=\"%.0f\" y=\"%.0f\">", x0 + 12, ytop - 16);
	pic_html_escape(f, th);
	fprintf(f, "<tspan font-size=\"18\" font-weight=\"normal\" dx=\"10\">pid %d, tid %d"
		"</tspan></text>\n", vfs_proc_pid(p->w, vfs_thread_proc(p->w, tid)),
		vfs_thread_ktid(p->w, tid));
	fprintf(f, "<g clip-path=\"url(#clip-%d)\">\n", tid);

	const struct pic_span *sp;
	int32_t a, b;
	/* kernel functions, outermost first */
	for (size_t i = 0; (sp = next_shown(h, p, &i, PS_FN, tid, &a, &b));) {
		static const char *const fill[] = { "#ffffff", "#eeeeee", "#e0e0e0",
			"#d2d2d2", "#c6c6c6", "#bababa" };
		int d = sp->depth;
		char r[32];
		vfs_ret_text(sp->ret, r, sizeof r);
		if (sp->open)
			snprintf(t, sizeof t, "%s: %s, steps %d to %d, still running",
				 th, vfs_fn_name(sp->fn), sp->step0, sp->step1);
		else
			snprintf(t, sizeof t, "%s: %s, steps %d to %d, returned %s", th,
				 vfs_fn_name(sp->fn), sp->step0, sp->step1, r);
		fprintf(f, "<rect class=\"fn%s\" data-fn=\"%s\" x=\"%.0f\" y=\"%.0f\" "
			"width=\"%.0f\" height=\"%.0f\" rx=\"5\" fill=\"%s\" stroke=\"%s\" "
			"stroke-width=\"%s\"%s",
			sp->sys ? " sys" : "", vfs_fn_name(sp->fn), fx + d * INDENT,
			row_y(h, a) + 2, fw - d * INDENT, row_y(h, b + 1) - row_y(h, a) - 4,
			fill[d < 5 ? d : 5], d ? "#555" : "#000", d ? "1.5" : "2.5",
			sp->open ? " stroke-dasharray=\"8 5\"" : "");
		rect_end(f, t);
	}
	/* waits: hatched over the functions, and in the lock column */
	for (size_t i = 0; (sp = next_shown(h, p, &i, PS_WAIT, tid, &a, &b));) {
		char other[32] = "";
		if (sp->other >= 0)
			pic_thread_name(p, sp->other, other, sizeof other);
		snprintf(t, sizeof t, "%s waits in %s for %s (%s)%s%s, steps %d to %d%s", th,
			 vfs_fn_name(sp->fn), p->locks[sp->lockno].name,
			 vfs_mode_name(sp->mode), *other ? ", held by " : "", other,
			 sp->step0, sp->step1, sp->open ? ", still waiting" : "");
		double y = row_y(h, a) + 1, hh = row_y(h, b + 1) - row_y(h, a) - 2;
		fprintf(f, "<rect class=\"wait\" x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
			"height=\"%.0f\" fill=\"url(#%s)\" fill-opacity=\"0.4\" stroke=\"#7a0060\" "
			"stroke-width=\"2.5\" stroke-dasharray=\"6 4\"", fx + 4, y, fw - 8, hh,
			hatch_of(sp->cls));
		rect_end(f, t);
		int col = pic_lock_col(sp->cls);
		fprintf(f, "<rect class=\"wait-bar\" x=\"%.0f\" y=\"%.0f\" width=\"%d\" "
			"height=\"%.0f\" fill=\"url(#%s)\" stroke=\"#7a0060\" stroke-width=\"2\"",
			x0 + LOCKX + col * (LOCKW + LOCKGAP), y, LOCKW, hh, hatch_of(sp->cls));
		rect_end(f, t);
	}
	/* lock holds */
	for (size_t i = 0; (sp = next_shown(h, p, &i, PS_HOLD, tid, &a, &b));) {
		int col = pic_lock_col(sp->cls);
		/* a second lock of the column held at once (rename, rmdir: parent
		 * and victim) is drawn narrower, inside the first */
		int inner = 0;
		for (const struct pic_span *o = p->spans; o < sp; o++) {
			if (o->kind == PS_HOLD && o->tid == tid && pic_lock_col(o->cls) == col &&
			    o->ev1 > sp->ev0)
				inner++;
		}
		if (inner > 2)
			inner = 2;
		if (sp->open)
			snprintf(t, sizeof t, "%s holds %s (%s) from step %d (%s), still held",
				 th, p->locks[sp->lockno].name, vfs_mode_name(sp->mode),
				 sp->step0, vfs_fn_name(sp->fn));
		else
			snprintf(t, sizeof t, "%s holds %s (%s), steps %d to %d (%s to %s)", th,
				 p->locks[sp->lockno].name, vfs_mode_name(sp->mode), sp->step0,
				 sp->step1, vfs_fn_name(sp->fn), vfs_fn_name(sp->endfn));
		double y = row_y(h, a) + 3, hh = row_y(h, b + 1) - row_y(h, a) - 6;
		fprintf(f, "<rect class=\"hold\" data-lock=\"");
		pic_html_escape(f, p->locks[sp->lockno].name);
		fprintf(f, "\" data-mode=\"%s\" x=\"%.0f\" y=\"%.0f\" width=\"%d\" height=\"%.0f\" "
			"rx=\"4\" fill=\"%s\" stroke=\"#000\" stroke-width=\"1.5\"",
			vfs_mode_name(sp->mode), x0 + LOCKX + col * (LOCKW + LOCKGAP) + inner * 5,
			y + inner * 4, LOCKW - inner * 10, hh - inner * 8,
			lock_color(sp->cls, sp->mode));
		rect_end(f, t);
	}
	/* a label per step */
	for (int32_t k = h->from; k <= h->to; k++) {
		char lab[300];
		int style;
		pic_label(p, tid, k, lab, sizeof lab, &style, false);
		if (!*lab)
			continue;
		int d = depth_at(p, tid, k);
		size_t lo, hi, o = 0;
		pic_step_range(p, k, &lo, &hi);
		o += (size_t)snprintf(t + o, sizeof t - o, "step %d, %s:", k, th);
		for (size_t i = lo; i < hi && o < sizeof t; i++) {
			if (p->ev[i].tid != tid)
				continue;
			char line[400];
			/* with the step's FUNCTION:STEP (`trace steps`) */
			vfs_event_text_point(p->w, &p->ev[i], line, sizeof line);
			const char *q = line + 13;      /* past the step and thread */
			while (*q == ' ')
				q++;
			o += (size_t)snprintf(t + o, sizeof t - o, "\n%s", q);
		}
		static const char *const cls[] = { "", " sys", " wait", " ret" };
		fprintf(f, "<text class=\"lbl%s\" data-step=\"%d\" x=\"%.0f\" y=\"%.0f\"",
			cls[style], k, fx + (d < 0 ? 0 : d) * INDENT + 8,
			row_y(h, k) + ROWH / 2 + 6);
		fputs(" data-tip=\"", f);
		pic_html_escape(f, t);
		fputs("\">", f);
		pic_html_escape(f, lab);
		fputs("<title>", f);
		pic_html_escape(f, t);
		fputs("</title></text>\n", f);
	}
	fputs("</g>\n</g>\n", f);
	(void)ln;
}

int export_html(struct session *s, FILE *f, const char *title)
{
	struct pic p;
	if (pic_build(&p, s) < 0) {
		pic_free(&p);
		return cli_errno(s, "export", NULL, -VE_NOMEM);
	}
	struct hw h = { .f = f, .p = &p, .from = p.step_min, .to = p.step_max };
	const struct vfs_world *w = s->w;
	for (int t = 0; t < p.nthreads; t++) {
		h.lane_of[t] = -1;
		for (size_t i = 0; i < p.nev; i++)
			if (p.ev[i].tid == t) {
				h.lane_of[t] = h.nl;
				h.lanes[h.nl++] = t;
				break;
			}
	}
	char th[32], buf[600];

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n"
	      "<meta name=\"generator\" content=\"vfsim\">\n<title>vfsim: ", f);
	pic_html_escape(f, title);
	fputs("</title>\n<style>\n", f);
	fputs(css, f);
	fputs("</style>\n</head>\n<body>\n<header>\n<h1>vfsim timeline: ", f);
	pic_html_escape(f, title);
	fputs("</h1>\n<div class=\"sub\">kernel <b>", f);
	pic_html_escape(f, vfs_presets[vfs_world_preset(w)].name);
	fputs("</b>", f);
	if (vfs_world_knobs_overridden(w))
		fputs(" (knobs changed)", f);
	fprintf(f, ", %d thread%s, steps %d to %d, %zu trace events%s. "
		"Time runs down, a row per step. Hover for details; click a row or use "
		"the arrow keys to read a step's trace.</div>\n",
		h.nl, h.nl == 1 ? "" : "s", p.step_min, p.step_max, p.nev,
		p.dropped ? " (later events were not kept)" : "");
	fputs("<div class=\"legend\">"
	      "<span><i class=\"sw\" style=\"background:#E69F00\"></i>f_pos_lock held</span>"
	      "<span><i class=\"sw\" style=\"background:#56B4E9\"></i>i_rwsem read</span>"
	      "<span><i class=\"sw\" style=\"background:#0050A0\"></i>i_rwsem write / i_mutex</span>"
	      "<span><i class=\"sw\" style=\"background:#009E73\"></i>f_lock, rename_mutex, exec lock</span>"
	      "<span><i class=\"sw\" style=\"background:repeating-linear-gradient(45deg,#7a0060 0 4px,#fff 4px 9px)\"></i>waiting for a lock</span>"
	      "<span><i class=\"sw\" style=\"background:#fff;border-radius:4px\"></i>kernel function (nested)</span>"
	      "<span><i class=\"sw\" style=\"background:#D00000;border-radius:50%\"></i>a detector's report</span>"
	      "</div>\n", f);
	fprintf(f, "<ul id=\"reports\" data-count=\"%d\">", p.nmarks);
	for (int m = 0; m < p.nmarks; m++) {
		const struct pic_mark *mk = &p.marks[m];
		fprintf(f, "<li class=\"report report-%s\"><b>", pic_mark_name(mk->kind));
		pic_html_escape(f, mk->title);
		fputs("</b>", f);
		for (int k = 0; k < mk->npoints; k++) {
			pic_thread_name(&p, mk->tid[k], th, sizeof th);
			snprintf(buf, sizeof buf, "%sstep %d (%s)", k ? ", " : "", mk->step[k], th);
			pic_html_escape(f, buf);
		}
		fputs(mk->npoints ? ": " : "", f);
		pic_html_escape(f, mk->text);
		fputs("</li>", f);
	}
	if (!p.nmarks)
		fputs("<li class=\"report report-none\">No race, duplicate or deadlock was "
		      "reported in this run.</li>", f);
	fputs("</ul>\n<span hidden id=\"nmarks\"></span>\n</header>\n<main>\n", f);

	/* each report's badge: on the first free row from its first step */
	int32_t *badge = calloc((size_t)(p.nmarks ? p.nmarks : 1), sizeof *badge);
	int32_t last_row = h.to;
	for (int m = 0; badge && m < p.nmarks; m++) {
		int32_t lo = INT32_MAX;
		for (int k = 0; k < p.marks[m].npoints; k++)
			if (p.marks[m].step[k] >= h.from && p.marks[m].step[k] <= h.to &&
			    p.marks[m].step[k] < lo)
				lo = p.marks[m].step[k];
		if (lo == INT32_MAX) {
			badge[m] = -1;
			continue;
		}
		for (bool clash = true; clash;) {
			clash = false;
			for (int u = 0; u < m; u++)
				if (badge[u] == lo) {
					clash = true;
					lo++;
				}
		}
		badge[m] = lo;
		if (lo > last_row)
			last_row = lo;
	}
	if (!p.nev) {
		fputs("<p>Nothing was traced: run some calls first.</p>\n", f);
	} else {
		int nrows = last_row - h.from + 1;
		double width = STEPW + h.nl * LANEW + MARKW, height = TOP + nrows * ROWH + 20;
		fprintf(f, "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" "
			"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
			"role=\"img\" aria-label=\"timeline\">\n", width, height, width, height);
		defs(f);
		/* rows: zebra stripes, clickable; step numbers */
		fprintf(f, "<text class=\"stepno\" x=\"8\" y=\"%d\" font-weight=\"bold\">step</text>\n",
			TOP - 16);
		for (int32_t k = h.from; k <= h.to; k++) {
			fprintf(f, "<rect class=\"row\" data-step=\"%d\" x=\"0\" y=\"%.0f\" "
				"width=\"%.0f\" height=\"%d\" fill=\"%s\"/>\n", k, row_y(&h, k),
				width - MARKW, ROWH, (k - h.from) % 2 ? "#f6f6f6" : "#ffffff");
			fprintf(f, "<text class=\"stepno\" x=\"%d\" y=\"%.0f\" "
				"text-anchor=\"end\">%d</text>\n", STEPW - 16,
				row_y(&h, k) + ROWH / 2 + 6, k);
		}
		/* report bands, under everything else */
		for (int m = 0; m < p.nmarks; m++)
			for (int k = 0; k < p.marks[m].npoints; k++) {
				int32_t st = p.marks[m].step[k];
				if (st < h.from || st > h.to)
					continue;
				fprintf(f, "<rect class=\"band\" x=\"0\" y=\"%.0f\" width=\"%.0f\" "
					"height=\"%d\" fill=\"#D00000\" fill-opacity=\"0.13\"/>\n",
					row_y(&h, st), width - MARKW + 40, ROWH);
			}
		for (int l = 0; l < h.nl; l++)
			lane(&h, h.lanes[l]);
		/* wake-ups: from the releasing lane to the woken one */
		for (size_t i = 0; i < p.nwakes; i++) {
			const struct pic_wake *wk = &p.wakes[i];
			if (wk->from < 0 || wk->rel_ev == (size_t)-1 || wk->from == wk->to)
				continue;
			const struct vfs_event *r = &p.ev[wk->rel_ev], *e = &p.ev[wk->wake_ev];
			if (e->step < h.from || e->step > h.to || h.lane_of[wk->from] < 0 ||
			    h.lane_of[wk->to] < 0)
				continue;
			int col = pic_lock_col(r->cls);
			double x1 = lane_x(&h, wk->from) + LOCKX + col * (LOCKW + LOCKGAP) + LOCKW / 2;
			double x2 = lane_x(&h, wk->to) + LOCKX + col * (LOCKW + LOCKGAP) + LOCKW / 2;
			double y1 = row_y(&h, r->step) + ROWH / 2, y2 = row_y(&h, e->step) + ROWH / 2;
			char ln[VFS_PATH_MAX + 48], a[32], b[32], t[300];
			vfs_event_lock_name(w, r, ln, sizeof ln);
			pic_thread_name(&p, wk->from, a, sizeof a);
			pic_thread_name(&p, wk->to, b, sizeof b);
			snprintf(t, sizeof t, "step %d: %s releases %s in %s and wakes %s", e->step,
				 a, ln, vfs_fn_name(r->fn), b);
			fprintf(f, "<path class=\"wake\" d=\"M%.0f,%.0f C%.0f,%.0f %.0f,%.0f %.0f,%.0f\" "
				"fill=\"none\" stroke=\"#7a0060\" stroke-width=\"3\" "
				"marker-end=\"url(#arrow)\"", x1, y1, (x1 + x2) / 2, y1 - 26,
				(x1 + x2) / 2, y2 - 26, x2 + (x2 > x1 ? -4 : 4), y2);
			tip(f, t);
			fputs("</path>\n", f);
		}
		/* reports: a "!" on each thread and step, a badge in the margin */
		double mx = STEPW + h.nl * LANEW + 10;
		for (int m = 0; m < p.nmarks; m++) {
			const struct pic_mark *mk = &p.marks[m];
			int32_t lo = INT32_MAX, hi = -1;
			for (int k = 0; k < mk->npoints; k++) {
				int32_t st = mk->step[k];
				int t = mk->tid[k];
				if (st < h.from || st > h.to)
					continue;
				lo = st < lo ? st : lo;
				hi = st > hi ? st : hi;
				if (t < 0 || t >= p.nthreads || h.lane_of[t] < 0)
					continue;
				pic_thread_name(&p, t, th, sizeof th);
				double cx = lane_x(&h, t) + LANEW - 22, cy = row_y(&h, st) + ROWH / 2;
				fprintf(f, "<g class=\"mark mark-%s\" data-step=\"%d\" data-thread=\"",
					pic_mark_name(mk->kind), st);
				pic_html_escape(f, th);
				fputc('"', f);
				snprintf(buf, sizeof buf, "%s, step %d, %s: %s", mk->title, st, th,
					 mk->text);
				tip(f, buf);
				fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"14\" fill=\"#D00000\" "
					"stroke=\"#000\" stroke-width=\"1.5\"/><text x=\"%.0f\" y=\"%.0f\" "
					"text-anchor=\"middle\" font-size=\"22\" font-weight=\"bold\" "
					"fill=\"#fff\">!</text></g>\n", cx, cy, cx, cy + 8);
			}
			if (hi < 0)
				continue;
			int32_t row = badge ? badge[m] : lo;
			if (row < 0)
				continue;
			double bx = mx + 4 + (m % 5) * 8;
			fprintf(f, "<g class=\"badge-group mark-%s\"", pic_mark_name(mk->kind));
			tip(f, mk->text);
			fprintf(f, "<path d=\"M%.0f,%.0f h-10 V%.0f h10\" fill=\"none\" "
				"stroke=\"#D00000\" stroke-width=\"4\"/>",
				bx + 10, row_y(&h, lo) + 6, row_y(&h, hi + 1) - 6);
			fprintf(f, "<text class=\"badge\" x=\"%.0f\" y=\"%.0f\">", mx + 60,
				row_y(&h, row) + ROWH / 2 + 7);
			pic_html_escape(f, mk->title);
			fputs("<tspan font-weight=\"normal\">", f);
			for (int k = 0, any = 0; k < mk->npoints; k++)
				if (mk->step[k] >= h.from && mk->step[k] <= h.to)
					fprintf(f, "%s%d", any++ ? ", " : " (", mk->step[k]);
			fputs(")</tspan>", f);
			fputs("</text></g>\n", f);
		}
		fputs("</svg>\n", f);
	}
	fputs("</main>\n<div id=\"tip\"></div>\n<div id=\"details\"></div>\n<script>\n"
	      "var STEPS={", f);
	for (int32_t k = h.from; p.nev && k <= h.to; k++) {
		size_t lo, hi;
		pic_step_range(&p, k, &lo, &hi);
		fprintf(f, "%s\n%d:[", k == h.from ? "" : ",", k);
		for (size_t i = lo; i < hi; i++) {
			vfs_event_text_point(w, &p.ev[i], buf, sizeof buf);
			if (i > lo)
				fputc(',', f);
			js_str(f, buf);
		}
		fputc(']', f);
	}
	fputs("};\n", f);
	fputs(script, f);
	free(badge);
	fputs("</script>\n</body>\n</html>\n", f);
	pic_free(&p);
	return 0;
}
