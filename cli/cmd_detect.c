/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_detect.c - what the detectors found: `reports` (every report, in
 * detail), `lockdep` (the lock-order graph and its reports), and the
 * deadlock text printed when run/step end with every live thread blocked.
 */
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "fns.h"
#include "vfs_detect.h"
#include "vfs_thread.h"

#define DETAIL_MAX 8192

static void print_report(struct session *s, const struct vfs_report *r, int i)
{
	char *buf = malloc(DETAIL_MAX);
	if (!buf)
		return;
	vfs_report_detail(s->w, r, buf, DETAIL_MAX);
	out(s, "%s#%d %s:%s%s%s\n", color_on(s, "\033[1m"), i + 1,
	    vfs_kinds[r->kind].title, color_off(s), r->nlinks ? "" : " ",
	    r->nlinks ? "" : buf);
	if (r->nlinks)
		out(s, "%s\n", buf);
	free(buf);
}

const char c_reports_help[] =
	"Races (vector clocks), duplicate and skipped entries per pass of an open\n"
	"directory, iteration of a dead directory, deadlocks (the wait-for cycle,\n"
	"shown as lockdep's \"Possible unsafe locking scenario\" with the threads\n"
	"as columns) and lock-order problems (a cycle in the lock-class graph, or\n"
	"a rank of directory-locking.rst broken), even when no deadlock happened,\n"
	"and the script's own rules broken ('rule').\n"
	"Each report is also printed as it fires, one line with '!', while\n"
	"commands, scripts and lessons run; 'reports live off' stops that.";

HANDLER(c_reports)
{
	const struct vfs_world *w = s->w;
	int only = -1;
	if (c->argc && !strcmp(c->argv[0], "live")) {
		if (c->argc == 1) {
			out(s, "reports live %s\n", s->live_reports ? "on" : "off");
			return 0;
		}
		s->live_reports = !strcmp(c->argv[1], "on");
		s->reports_seen = vfs_world_detect(w)->nreports; /* from now on */
		return 0;
	}
	if (c->argc) {
		/* the kind's word, or its heading ("dead directory") */
		for (int k = 0; k < DK__REPORTS; k++)
			if (!strcmp(c->argv[0], vfs_kinds[k].name) ||
			    !strcmp(c->argv[0], vfs_kinds[k].title))
				only = k;
		if (only < 0) {
			char kinds[256];
			size_t o = 0;
			for (int k = 0; k < DK__REPORTS; k++)
				o += (size_t)snprintf(kinds + o, sizeof kinds - o, "%s%s",
						      k == 0 ? "" : k == DK__REPORTS - 1 ?
						      " or " : ", ", vfs_kinds[k].name);
			return cli_error(s, "reports: %s, not '%s'", kinds, c->argv[0]);
		}
	}
	const struct vfs_detect *det = vfs_world_detect(w);
	if (!det->enabled)
		out(s, "(the detectors are off)\n");
	int shown = 0;
	for (int i = 0; i < det->nreports; i++)
		if (only < 0 || det->reports[i].kind == only) {
			print_report(s, &det->reports[i], i);
			shown++;
		}
	unsigned total = 0;
	for (int k = 0; k < DK__REPORTS; k++)
		if (only < 0 || k == only)
			total += det->counts[k];
	if (!shown)
		out(s, "no reports\n");
	else if (total > (unsigned)shown)
		out(s, "(%u reports in all; the same finding repeated, or past the "
		    "first %d, is counted, not kept)\n", total, VFS_MAX_REPORTS);
	return 0;
}

const char c_lockdep_help[] =
	"The graph: an edge A -> B for every lock key B taken while holding A,\n"
	"with the first thread, kernel function and step that did it. Keys are\n"
	"lock classes with the kernel's nesting subclass (/1 I_MUTEX_PARENT,\n"
	"/2 I_MUTEX_CHILD, /3 I_MUTEX_XATTR, /4 I_MUTEX_NONDIR2, /5\n"
	"I_MUTEX_PARENT2: include/linux/fs.h's numbers). 'lockdep reports'\n"
	"prints each lock-order report as lockdep would; 'lockdep graph' the\n"
	"graph alone, and plain 'lockdep' the graph and one line per problem.";

HANDLER(c_lockdep)
{
	const struct vfs_world *w = s->w;
	char *buf = malloc(DETAIL_MAX);
	if (!buf)
		return cli_errno(s, "lockdep", NULL, -VE_NOMEM);
	bool all = c->argc && !strcmp(c->argv[0], "reports");
	bool graph = c->argc && !strcmp(c->argv[0], "graph");
	if (c->argc && !all && !graph)
		return free(buf), cli_error(s, "lockdep [graph|reports]");
	if (!all) {
		vfs_lockdep_graph_text(w, buf, DETAIL_MAX);
		out(s, "lock order (lockdep keys; \"/N\": nesting subclass):\n%s", buf);
	}
	if (graph) {            /* the graph alone: its edges, no verdict */
		free(buf);
		return 0;
	}
	int n = 0;
	const struct vfs_detect *det = vfs_world_detect(w);
	for (int i = 0; i < det->nreports; i++)
		if (det->reports[i].kind == DK_LOCKORDER) {
			if (all) {
				print_report(s, &det->reports[i], i);
			} else {
				vfs_report_text(w, &det->reports[i], buf, DETAIL_MAX);
				out(s, "%s!%s %s\n", color_on(s, "\033[1;31m"), color_off(s), buf);
			}
			n++;
		}
	if (!n)
		out(s, "no lock-order problem seen\n");
	else if (!all)
		out(s, "('lockdep reports' prints them as lockdep would)\n");
	free(buf);
	return 0;
}

/* run/step ended with every live thread blocked: say why, as lockdep would. */
void detect_tell_overflow(struct session *s)
{
	uint32_t fresh = vfs_world_overflow_news(s->w);
	for (int l = VL_NONE + 1; l < VL__COUNT; l++)
		if (fresh >> l & 1) {
			char buf[200];
			vfs_overflow_text(s->w, l, buf, sizeof buf);
			fflush(stdout);
			fprintf(stderr, "%s\n", buf);
		}
}

void detect_print_stuck(struct session *s)
{
	const struct vfs_world *w = s->w;
	struct vfs_report r;
	if (!vfs_all_blocked(w))
		return;
	out(s, "%severy live thread is blocked:%s\n", color_on(s, "\033[1;31m"),
	    color_off(s));
	char why[512];
	for (int i = 0; i < vfs_world_nthreads(w); i++)
		if (vfs_thread_state(w, i) == TS_BLOCKED) {
			vfs_blocked_why(w, i, why, sizeof why);
			out(s, "  %s%s%s\n", color_on(s, "\033[33m"), why, color_off(s));
		}
	if (!vfs_deadlock_find(w, -1, &r)) {
		out(s, "no wait-for cycle was found (a thread waits for a lock "
		    "nobody can release)\n");
		return;
	}
	char *buf = malloc(DETAIL_MAX);
	if (!buf)
		return;
	vfs_report_detail(w, &r, buf, DETAIL_MAX);
	out(s, "%s\n", buf);
	free(buf);
}
