/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_print.h - private to `explore` (cli/explore_cli.c,
 * cli/explore_cex.c, cli/explore_print.c): what the shell keeps of the last
 * explore, the engines the options choose, and the printers of its results
 * and counterexamples.
 */
#ifndef VFSIM_CLI_EXPLORE_PRINT_H
#define VFSIM_CLI_EXPLORE_PRINT_H
#include "explore.h"
#include "cli.h"

struct xstate {
	struct vfs_world *snap;         /* the world explore started from */
	size_t nlog;                    /* the log's length then */
	struct vfs_explore_result r;
	/* after 'explore replay': the log's length then and the steps it
	 * made, so that another replay or save can start from the snapshot */
	size_t replay_nlog;
	int replay_len;
	/* why the search is not a proof ("stopped after N states: not a
	 * proof"), or "" when it covered everything */
	char partial[160];
};

enum { ENG_DEFAULT = -1, ENG_STATEFUL, ENG_DPOR, ENG_NAIVE, ENG_BOUND, ENG_ALL };

/* The counterexample: its table up to step UPTO, then its schedule token. */
void explore_print_cex(struct session *s, const struct xstate *x, int upto);
/* The schedule as a token: thread names and counts, "A*5 B*9 A*3". */
void explore_print_token(struct session *s, const struct vfs_world *w,
			 const uint8_t *sched, int len);

/* The result of each engine: plain explore (a proof or the shortest
 * counterexample), the stateful search, DPOR. */
void explore_print_default(struct session *s, const struct xstate *x);
void explore_print_stateful(struct session *s, const struct xstate *x, int engine,
			    const struct vfs_explore_opts *o);
void explore_print_dpor(struct session *s, const struct xstate *x,
			const struct vfs_explore_opts *o);
/* With max N: the units of work each part used of that one budget. */
void explore_print_units(struct session *s, const struct xstate *x,
			 const struct vfs_explore_opts *o);
#endif
