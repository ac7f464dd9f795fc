/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * export_dot.c - `export dot FILE`: the lock-order graph, for Graphviz
 * (`dot -Tsvg FILE > graph.svg`).
 *
 * The graph is core/lockdep.c's (vfs_world_detect(w)->ld): nodes are lockdep keys (a
 * lock class with its nesting subclass), an edge A -> B says some thread
 * asked for B while holding A.  Each edge is labelled with the first
 * acquisition that made it: the thread, the step, and the kernel call
 * path of both locks, read off the trace.  Edges on a cycle, and edges
 * that a lock-order report names (a rank broken, a recursive lock), are
 * red: an inversion, whether or not this run deadlocked.  Lock classes
 * taken with nothing else held are nodes without edges.
 */
#include <string.h>
#include "picture.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"

static const char *key_color(int key)
{
	switch (VFS_LD_KEY_CLS(key)) {
	case LC_F_POS_LOCK: return "#E69F00";
	case LC_I_RWSEM_DIR: return "#56B4E9";
	case LC_I_RWSEM: return "#9ad0f0";
	case LC_F_LOCK: return "#009E73";
	default: return "#CC79A7";
	}
}

/* The kernel call path of thread tid at event i: "getdents64 > fdget_pos
 * > mutex_lock". */
static void call_path(const struct pic *p, size_t i, int tid, char *buf, size_t n)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t k = 0; k < p->nspans && o < n; k++) {
		const struct pic_span *sp = &p->spans[k];
		if (sp->kind != PS_FN || sp->tid != tid || sp->ev0 > i ||
		    (!sp->open && sp->ev1 < i))
			continue;
		o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? " > " : "",
				      vfs_fn_name(sp->fn));
	}
	if (i < p->nev && o < n)
		snprintf(buf + o, n - o, "%s%s", o ? " > " : "", vfs_fn_name(p->ev[i].fn));
}

/* The event of a link's acquisition (or attempt), and that of the held
 * lock's acquisition; (size_t)-1 when the trace no longer has them. */
static void link_events(const struct pic *p, const struct vfs_link *l, size_t *want,
			size_t *held)
{
	size_t lo, hi;
	*want = *held = (size_t)-1;
	pic_step_range(p, l->step, &lo, &hi);
	for (size_t i = lo; i < hi; i++)
		if (p->ev[i].tid == l->tid && p->ev[i].lock == l->want &&
		    (p->ev[i].op == OP_ACQUIRE || p->ev[i].op == OP_BLOCK)) {
			*want = i;
			break;
		}
	if (*want == (size_t)-1)
		return;
	for (size_t k = 0; k < p->nspans; k++) {
		const struct pic_span *sp = &p->spans[k];
		if (sp->kind == PS_HOLD && sp->tid == l->tid && sp->lock == l->held &&
		    sp->ev0 < *want && (sp->open || sp->ev1 >= *want))
			*held = sp->ev0;
	}
}

/* A quoted string; newlines end left-justified lines (edges) or centred
 * ones (nodes). */
static void dot_str(FILE *f, const char *s, const char *nl)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s == '\n') {
			fputs(nl, f);
			continue;
		}
		fputc(*s, f);
	}
	fputc('"', f);
}

int export_dot(struct session *s, FILE *f)
{
	const struct vfs_world *w = s->w;
	const struct vfs_detect *det = vfs_world_detect(w);
	const struct vfs_lockdep *ld = &det->ld;
	struct pic p;
	if (pic_build(&p, s) < 0) {
		pic_free(&p);
		return cli_errno(s, "export", NULL, -VE_NOMEM);
	}

	bool used[VFS_LD_KEYS] = { false };
	bool reach[VFS_LD_KEYS][VFS_LD_KEYS];
	memset(reach, 0, sizeof reach);
	for (int i = 0; i < ld->nedges; i++) {
		used[ld->edges[i].from] = used[ld->edges[i].to] = true;
		reach[ld->edges[i].from][ld->edges[i].to] = true;
	}
	for (int k = 0; k < VFS_LD_KEYS; k++)
		for (int i = 0; i < VFS_LD_KEYS; i++)
			for (int j = 0; reach[i][k] && j < VFS_LD_KEYS; j++)
				reach[i][j] |= reach[k][j];
	/* classes taken on their own: a node, unless a subclass of it is one */
	for (int l = 0; l < p.nlocks; l++) {
		int cls = p.locks[l].cls, any = 0;
		for (int sub = 0; sub < VFS_LD_SUBS; sub++)
			any |= used[VFS_LD_KEY(cls, sub)];
		if (!any && cls > 0 && cls < LC__COUNT)
			used[VFS_LD_KEY(cls, 0)] = true;
	}

	fprintf(f, "// vfsim lock-order graph: lockdep keys; an edge A -> B: B was\n"
		   "// asked for while holding A (the first time is its label).\n"
		   "// Red: an inversion (a cycle, or a rank the kernel documents broken).\n"
		   "digraph lock_order {\n"
		   "  graph [rankdir=TB, fontname=\"Helvetica\", fontsize=20, labelloc=t,\n"
		   "         nodesep=0.6, ranksep=0.9, label=");
	char title[256];
	snprintf(title, sizeof title, "lock order: kernel %s%s%s",
		 vfs_presets[vfs_world_preset(w)].name,
		 vfs_world_knobs_overridden(w) ? " (knobs changed)" : "",
		 !det->enabled ? " (detectors off: no graph)" :
		 ld->nedges ? "" : " (no lock taken while holding another)");
	dot_str(f, title, "\\n");
	fputs("];\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\","
	      " fontsize=16, penwidth=2];\n  edge [fontname=\"Helvetica\", fontsize=12,"
	      " penwidth=2];\n", f);

	for (int k = 0; k < VFS_LD_KEYS; k++) {
		if (!used[k])
			continue;
		char lab[600];
		size_t o = (size_t)snprintf(lab, sizeof lab, "%s", vfs_ld_key_name(k));
		int n = 0;
		for (int l = 0; l < p.nlocks && o < sizeof lab; l++)
			if (p.locks[l].cls == VFS_LD_KEY_CLS(k) && n++ < 4)
				o += (size_t)snprintf(lab + o, sizeof lab - o, "%s%s",
						      n == 1 ? "\n" : ", ", p.locks[l].name);
		if (n > 4 && o < sizeof lab)
			snprintf(lab + o, sizeof lab - o, ", ...");
		fprintf(f, "  k%d [label=", k);
		dot_str(f, lab, "\\n");
		fprintf(f, ", fillcolor=\"%s\"];\n", key_color(k));
	}

	for (int i = 0; i < ld->nedges; i++) {
		const struct vfs_ldedge *e = &ld->edges[i];
		const struct vfs_link *l = &e->first;
		bool cycle = e->from != e->to && reach[e->to][e->from];
		const char *rule = NULL;
		for (int r = 0; r < det->nreports; r++) {
			const struct vfs_report *rp = &det->reports[r];
			if (rp->kind != DK_LOCKORDER)
				continue;
			for (int k = 0; k < rp->nlinks && k < VFS_MAX_LINKS; k++)
				if (rp->link[k].held_key == e->from &&
				    rp->link[k].want_key == e->to)
					rule = vfs_ld_rule_name(rp->rule);
		}
		bool red = cycle || rule;
		char th[32], wp[200], hp[200], lab[900], hn[VFS_PATH_MAX + 32],
			wn[VFS_PATH_MAX + 32];
		size_t we, he;
		link_events(&p, l, &we, &he);
		vfs_thread_name(w, l->tid, th, sizeof th);
		vfs_lock_name(w, l->want, wn, sizeof wn);
		vfs_lock_name(w, l->held, hn, sizeof hn);
		if (we != (size_t)-1)
			vfs_event_lock_name(w, &p.ev[we], wn, sizeof wn);
		if (he != (size_t)-1)
			vfs_event_lock_name(w, &p.ev[he], hn, sizeof hn);
		size_t o = (size_t)snprintf(lab, sizeof lab, "%s%s, step %d:\n",
					    red ? "INVERSION\n" : "", th, l->step);
		if (he != (size_t)-1) {
			call_path(&p, he, l->tid, hp, sizeof hp);
			o += (size_t)snprintf(lab + o, sizeof lab - o,
					      "holds %s (%s, step %d)\n", hn, hp, p.ev[he].step);
		} else {
			o += (size_t)snprintf(lab + o, sizeof lab - o, "holds %s (%s)\n", hn,
					      vfs_mode_name(l->held_mode));
		}
		if (we != (size_t)-1) {
			call_path(&p, we, l->tid, wp, sizeof wp);
			o += (size_t)snprintf(lab + o, sizeof lab - o, "takes %s (%s)\n", wn, wp);
		} else {
			o += (size_t)snprintf(lab + o, sizeof lab - o, "takes %s in %s\n", wn,
					      vfs_fn_name(l->fn));
		}
		if (e->count > 1 && o < sizeof lab)
			o += (size_t)snprintf(lab + o, sizeof lab - o, "(%u times)\n", e->count);
		if (rule && o < sizeof lab)
			snprintf(lab + o, sizeof lab - o, "%s\n", rule);
		fprintf(f, "  k%d -> k%d [label=", e->from, e->to);
		dot_str(f, lab, "\\l");
		if (red)
			fputs(", color=\"#D00000\", fontcolor=\"#D00000\", penwidth=4", f);
		else if (e->from == e->to)
			fputs(", style=dashed", f);
		fputs("];\n", f);
	}
	/* reports whose pair is no edge of the graph (a lock asked for while
	 * held, say): a red edge of their own */
	for (int r = 0; r < det->nreports; r++) {
		const struct vfs_report *rp = &det->reports[r];
		if (rp->kind != DK_LOCKORDER || !rp->nlinks)
			continue;
		const struct vfs_link *l = &rp->link[0];
		bool have = false;
		for (int i = 0; i < ld->nedges; i++)
			have |= ld->edges[i].from == l->held_key && ld->edges[i].to == l->want_key;
		if (have || l->held_key >= VFS_LD_KEYS || l->want_key >= VFS_LD_KEYS)
			continue;
		char th[32], lab[600], hn[VFS_PATH_MAX + 32], wn[VFS_PATH_MAX + 32];
		vfs_thread_name(w, l->tid, th, sizeof th);
		vfs_lock_name(w, l->held, hn, sizeof hn);
		vfs_lock_name(w, l->want, wn, sizeof wn);
		snprintf(lab, sizeof lab, "INVERSION\n%s, step %d:\nholds %s (%s)\n"
			 "asks for %s (%s) in %s\n%s\n", th, l->step, hn,
			 vfs_mode_name(l->held_mode), wn, vfs_mode_name(l->want_mode),
			 vfs_fn_name(l->fn), vfs_ld_rule_name(rp->rule));
		for (int k = 0; k < 2; k++) {
			int key = k ? l->want_key : l->held_key;
			if (!used[key]) {
				used[key] = true;
				fprintf(f, "  k%d [label=", key);
				dot_str(f, vfs_ld_key_name(key), "\\n");
				fprintf(f, ", fillcolor=\"%s\"];\n", key_color(key));
			}
		}
		fprintf(f, "  k%d -> k%d [label=", l->held_key, l->want_key);
		dot_str(f, lab, "\\l");
		fputs(", color=\"#D00000\", fontcolor=\"#D00000\", penwidth=4];\n", f);
	}
	if (ld->overflow)
		fputs("  full [shape=note, label=\"the graph is full: later dependencies "
		      "were not recorded\"];\n", f);
	fputs("}\n", f);
	pic_free(&p);
	return 0;
}
