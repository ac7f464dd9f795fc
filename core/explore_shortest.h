/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_shortest.h - the step-by-step search for the counterexample of
 * fewest preemptions (explore_shortest.c): plain `explore`'s, beside the
 * stateful search (explore_probe.c), `explore replay`'s, and the
 * preemption-bounded search K by K.
 */
#ifndef VFSIM_EXPLORE_SHORTEST_H
#define VFSIM_EXPLORE_SHORTEST_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "explore.h"

struct sknobs {                  /* changed while the search runs: every
				 * access atomic (the other thread's) */
	int maxpre;                     /* < 0: any */
	uint64_t limit;                 /* states; 0: 2,000,000 */
	int quit;                       /* the stateful search is done */
	volatile sig_atomic_t *stop;
	/* paced (xs_pace_wait): at most PACE_BASE + states / PACE_DIV
	 * states of its own, STATES being the stateful search's, and at
	 * most 1 / PACE_DIV of the CPU the rest of the process took (a
	 * proof then costs little more than alone; a violation a
	 * preemption or two deep is still found early); NULL: not paced */
	const uint64_t *pace;
	double cpu0, own0;              /* (xs_pace_wait's, its thread's alone)
					 * the process's CPU and its own at
					 * its first call (0: not yet), and */
	double waited;                  /* its own it took waiting */
	int keep;                       /* states kept at most (explore_shortest.c,
					 * KEEP_MAX); 0: the default */
	/* how far it is, for the progress line: the states it searched,
	 * and the (preemptions, steps) of the last one, below which every
	 * state is searched (written by the search, read by another) */
	uint64_t told_states;
	int told_pre, told_steps;
};
#define PACE_BASE 2000
#define PACE_DIV 8

/* The search beside, having searched VISITED states: back when its pace
 * allows one more (explore_probe.c) */
void xs_pace_wait(struct sknobs *kn, uint64_t visited);
int xs_shortest(const struct vfs_world *snap, uint32_t viol,
		struct sknobs *kn, uint8_t **sched, int *len, int *pre,
		int *steps, uint32_t *kinds, uint64_t *visited);
/* The counterexample of fewest preemptions by the clocks: the bounded
 * search, K from 0 (explore_shortest.c, "the fewest preemptions") */
#define XS_BOUND_STEPS 10000000 /* steps, all K together */
#define XS_KEEP_MAX 1000000     /* executions one K keeps (a max past it
				 * is cut there) */
int xs_fewest_bounded(const struct vfs_world *snap, uint32_t viol, uint64_t limit,
		      const struct vfs_explore_opts *po, double t0, uint8_t **sched,
		      int *len,
		      int *pre, int *steps, uint32_t *kinds, int *checked,
		      bool *exact);
/* The same from K = FROM, fewer preemptions known clean */
int xs_fewest_from(const struct vfs_world *snap, uint32_t viol, int from,
		   uint64_t limit, const struct vfs_explore_opts *po, double t0,
		   uint8_t **sched, int *len, int *pre, int *steps, uint32_t *kinds,
		   int *checked, bool *exact, uint64_t *used);

#endif
