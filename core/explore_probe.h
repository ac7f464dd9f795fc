/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_probe.h - private to the stateful search's run
 * (explore_stateful_run.c) and what runs around it (explore_probe.c):
 * the step-by-step search in a thread of its own, the preemption-bounded
 * probe, the answer after its find, the check of fewest preemptions, and
 * the one budget of `max N` they share.
 */
#ifndef VFSIM_EXPLORE_PROBE_H
#define VFSIM_EXPLORE_PROBE_H
#include "explore_stateful.h"
#include "explore_shortest.h"

/* opts.first: the shortest search runs beside the stateful one once that
 * one has searched BESIDE_AFTER states (a violation a few preemptions
 * deep is found there long before a depth-first search backs up to it;
 * a small proof is over before: explore_probe.c).  A counterexample it
 * finds stops the stateful search; a proof by the stateful search stops
 * it.  Else it runs to its own end (its limit fixed before it starts), so
 * that what it finds never depends on which of the two threads ran
 * faster. */
struct sprobe {
	struct xst *st;
	uint32_t viol;                  /* the kinds it searches for */
	int kind;                       /* the progress line's: one kind, or -1 */
	double since;                   /* when it started */
	int *found;                     /* set when it finds one (NULL: nothing) */
	struct sknobs kn;
	int rc;                         /* vfs_explore_shortest's */
	uint8_t *sched;
	int len, pre, steps;
	uint32_t kinds;
	uint64_t visited;
	int done;                       /* atomic: probe_main has returned */
	/* beside (xs_probe_start): its wait for its start, which quit or
	 * unpaced (xs_probe_tell) ends at once */
	bool beside;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};
void *xs_probe_main(void *arg);
bool xs_probe_start(pthread_t *th, struct sprobe *p);
void xs_probe_tell(struct sprobe *p, bool quit);
void xs_probe_join(pthread_t th, struct sprobe *p);
void xs_probe_wait(struct xst *st, struct sprobe *p);
int xs_probe_alone(struct xst *st, struct sprobe *p);
int xs_kinds_take(struct vfs_explore_result *r, bool clear, uint32_t kinds,
		  const uint8_t *s, int n);
void xs_take_short(struct vfs_explore_result *r, struct sprobe *p,
		   const struct vfs_explore_opts *o);
int xs_bounded_probe(struct xst *st, struct vfs_explore_result *r,
		     uint8_t **sched, int *len, uint32_t *kinds, int *k);
int xs_probe_answer(struct xst *st, struct vfs_explore_result *r,
		    uint8_t *sched, int len, uint32_t kinds, int k);
int xs_fewest(struct xst *st, struct vfs_explore_result *r, bool own);
/* The budget: N units spent by a part (*PART: its count in the result);
 * the limit of the next part (0: no max), and whether none is left */
void xs_spend(struct xst *st, uint64_t *part, uint64_t n);
uint64_t xs_limit(const struct xst *st);
bool xs_spent(const struct xst *st);

#endif
