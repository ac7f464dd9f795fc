/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore.h - the exploration engine: every interleaving of the pending
 * calls of a world, with dynamic partial-order reduction, on POSIX threads.
 *
 * The world given is a snapshot: it is never changed.  Each execution runs
 * every thread with work (vfs_has_work) to the end, or until every live
 * thread is blocked (a deadlock).  An execution is given by its schedule:
 * the index of the thread that ran each step, in order.
 *
 * Modes:
 *   default  source-set DPOR (Abdulla et al., POPL 2014) with sleep sets:
 *            every Mazurkiewicz trace of the steps at least once, and never
 *            two complete executions of one trace.  Two steps conflict when
 *            they touch the same lock (every lock operation counts as a
 *            write), or the same field of one object with at least one
 *            write (atomic f_count accesses included), or hand out entries
 *            of one open directory, or allocate the same kind of object.
 *   naive    every interleaving, no reduction.
 *   bound K  every interleaving with at most K preemptions (a switch away
 *            from a thread that could still run), no reduction.
 *
 * Results are identical whatever the number of workers: the search tree is
 * split at a fixed depth (chosen from the world, not from `jobs`) into
 * subtrees, explored in parallel and merged in their order.  Executions are
 * numbered from 1 in that order (depth first, lower thread index first).
 *
 * No terminal I/O: progress goes to a callback, results to a struct.
 */
#ifndef VFSIM_EXPLORE_H
#define VFSIM_EXPLORE_H

#include <signal.h>
#include "vfs_detect.h"
#include "vfs_world.h"

/*
 * What can go wrong in an execution: the detector kinds (enum vfs_kind,
 * core/vfs_detect.h), a kind mask of DK_BIT(kind).  A kind happened in an
 * execution when a detector reported it during the execution, except
 * DK_DEADLOCK: the execution ended with every live thread blocked and
 * work left; DK_OVERFLOW: a detector's table filled (core/vfs_limits.h),
 * its verdicts are refused.  The violations unless told otherwise: the
 * rows' own (vfs_kinds[].violation).
 */
#define VX_DEFAULT_VIOLATIONS vfs_kind_violations()

struct vfs_explore_progress {
	uint64_t executions;    /* complete executions so far */
	uint64_t steps;         /* steps run so far (replays included) */
	double seconds;         /* since the start */
	double rate;            /* executions per second */
	uint64_t estimate;      /* estimated total executions, 0 if unknown */
	uint64_t violating;     /* executions with a violation so far */
	/* stateful: executions stay 0; states so far, and the search
	 * number (a new search when the guessed locking was wrong) */
	bool stateful;
	uint64_t states;
	int round;
	int depth;              /* the deepest state or execution so far */
	/* the shortest counterexample's search (opts.first), told once it
	 * runs alone (the stateful search over): states so far, and the
	 * preemptions and steps (depth) of the states searched now, below
	 * which every state is searched */
	bool shortening;
	int preemptions;
	/* shortening: the kind (enum vfs_kind) it searches the shortest
	 * counterexample of (after a search with several workers, one
	 * for each kind they found), or -1: any violation */
	int kind;
};
typedef void vfs_explore_progress_fn(void *ctx,
				     const struct vfs_explore_progress *p);

struct vfs_explore_opts {
	uint64_t max;           /* stop after this much work: executions and
				 * explorations cut by the sleep sets (DPOR),
				 * states (stateful); 0: no cap.  With a cap the
				 * DPOR search runs in one worker (the first N
				 * executions are those of the uncapped run).
				 * Stateful: one budget its parts share, in
				 * order (the result's units_*): the probe's
				 * executions, the searches' states (plain
				 * explore: half for the stateful search, half
				 * for the step-by-step search beside it), then
				 * the check's executions */
	int jobs;               /* worker threads; <= 0: online CPUs */
	int naive;              /* no reduction */
	int bound;              /* < 0: none; else at most this many preemptions */
	uint32_t violations;    /* DK_BIT mask; 0: VX_DEFAULT_VIOLATIONS */
	uint32_t keep;          /* schedules kept: the first KEEP executions and
				 * the first KEEP violating ones; 0: 10000 */
	int max_depth;          /* steps per execution; 0: 100000 */
	/* Stateful search (core/explore_stateful*.c): every distinct state once
	 * instead of every execution; proves the absence of violations,
	 * counts states and transitions, no executions or outcomes. */
	int stateful;
	int state_bits;         /* visited table of 2^bits hashes, fixed; 0:
				 * from 2^14, growing in place up to 2^30 */
	int learn_runs;         /* random runs the locking is guessed from;
				 * 0: until they teach nothing new (tests set
				 * it low to make the guess wrong on purpose) */
	/* Stateful: stop at the first violation (kinds in `violations`),
	 * then search step by step, fewest preemptions first, then fewest
	 * steps, for the shortest counterexample (vfs_explore_shortest). */
	int first;
	/* Stateful: the outcome of each terminal state (what DPOR hashes)
	 * is part of the state, and the distinct outcomes are counted and
	 * kept (one schedule each, the first `keep`). */
	int outcomes;
	/* Stateful: no sleep sets (tests compare the states visited with
	 * and without them; not a user's knob). */
	int no_sleep;
	/* Stateful, several workers with sleep sets: the frontier's items
	 * per worker (0: SPLIT_PER_JOB), so that tests start several
	 * workers, and ranks, on small graphs (not a user's knob). */
	int test_split;
	/* Executions (bound, dpor, naive): stop once this many steps have
	 * run, checked at each execution's end and where a sleep set ends
	 * one (the one under way runs to its end: at least one execution;
	 * a run cut by the depth limit is counted at the next end; cut
	 * XCUT_MAX); 0: no cap.  Like max, in one worker. */
	uint64_t max_steps;
	/* Executions: stop at the end of the first violating execution
	 * (cut XCUT_FOUND), in one worker. */
	int stop_at_violation;
	/* Executions: a run that reaches max_depth steps ends there, an
	 * execution of its own (its kinds those of its steps so far), not a
	 * cut (XCUT_DEPTH): the check of fewest steps to a violation
	 * (explore_shortest.c) needs no run past the best it has. */
	int end_at_depth;
	/* Polled by the search: set it (from a SIGINT handler) to stop. */
	volatile sig_atomic_t *stop;
	/* Called from the calling thread at most every ~0.5 s. */
	vfs_explore_progress_fn *progress;
	void *progress_ctx;
};
/* jobs = online CPUs, no cap, DPOR, no bound. */
void vfs_explore_opts_init(struct vfs_explore_opts *o);

enum vfs_xcut { XCUT_NONE, XCUT_MAX, XCUT_BOUND, XCUT_STOP, XCUT_DEPTH,
		XCUT_ERROR, XCUT_TABLE /* stateful: the visited table is full */,
		XCUT_FOUND /* stateful, opts.first: stopped at a violation */ };

struct vfs_explore_priv;
struct vfs_explore_result {
	uint64_t executions;    /* complete executions run (and numbered) */
	uint64_t redundant;     /* explorations cut by the sleep sets (DPOR)
				 * before completing: not executions */
	uint64_t steps;         /* steps run, replays included */
	uint64_t outcomes;      /* distinct outcomes among the executions */
	/* A fingerprint of the set of outcomes (order-free): equal sets give
	 * equal digests.  An outcome: each completed call's return value (and
	 * the entries getdents handed it, the bytes read returned) plus the
	 * final f_pos of every open file. */
	uint64_t outcome_digest;
	bool complete;          /* every interleaving covered (no cut) */
	uint8_t cut;            /* enum vfs_xcut: why not complete */
	uint64_t violating;     /* executions with a violation */
	uint64_t kind_execs[DK__COUNT]; /* executions with each kind */
	/* The limits (1u << VL_*, core/vfs_limits.h) whose tables filled in
	 * what was explored (DK_OVERFLOW): vfs_limit_name, vfs_limit_value */
	uint32_t overflowed;
	uint32_t violations;    /* the mask used */
	int max_preemptions;    /* the most seen in one execution */
	/* The counterexample: among the violating executions, one with the
	 * fewest preemptions; the first such in execution order. */
	bool have_cex;
	uint64_t cex_index;     /* its execution number, from 1 */
	int cex_preemptions;
	uint32_t cex_kinds;     /* DK_BIT mask of what happened in it */
	int cex_len;
	uint8_t *cex_schedule;  /* thread index per step */
	double seconds;
	int jobs;               /* workers (stateful: given, started or not) */
	int subtrees;           /* pieces the search was split into */
	uint64_t retaken;       /* (stateful, several workers with sleep
				 * sets) states expanded again by a lower
				 * rank: the rank code at work */
	int early_items;        /* (stateful, several workers with sleep
				 * sets) items taken while the frontier was
				 * still being made */
	int split_depth;
	uint64_t kept_first;    /* schedules 1..kept_first are kept */
	/* Stateful mode only (executions and outcomes stay 0; violating is
	 * the number of violating transitions and deadlocked states; each
	 * kind_execs[k] counts them per kind; the counterexample, when any,
	 * is a complete execution: cex_index 1, kept alone). */
	bool stateful;
	uint64_t states;        /* distinct states (identical whatever jobs) */
	uint64_t transitions;   /* transitions of the reduced state graph */
	uint64_t matched;       /* transitions into a state already visited */
	uint64_t probes;        /* steps run (transitions + POR probes) */
	uint64_t local_steps;   /* transitions taken alone (local: POR) */
	int state_depth;        /* longest path of the reduced graph seen */
	double collision_p;     /* bound on P(two states share a 64-bit hash) */
	int rounds;             /* searches run: 1 + those the discipline
				 * (core/explore_movers.c) had to start again */
	int demoted;            /* locations found breaking the guess */
	int learn_runs;         /* random executions the guess was made from */
	int visible_locs;       /* locations whose accesses are visible */
	int hidden_locs;        /* locations a discipline covers */
	/* the split (stateful, the last round): states each of the first
	 * VFS_XWORKERS workers visited, and its thread's CPU seconds in the
	 * search (the first worker's without the breadth-first top) */
#define VFS_XWORKERS 8
	uint64_t worker_states[VFS_XWORKERS];
	double worker_cpu[VFS_XWORKERS];
	/* opts.first: the counterexample is the shortest one (fewest
	 * preemptions, then fewest steps to the violation, completed
	 * without preemption); cex_steps: the steps to the violation;
	 * short_nodes: the states that search visited (0: not run, or it
	 * gave up and cex_schedule is the search's own) */
	bool cex_shortest;
	int cex_steps;
	/* the bounded search's check of the counterexample (the races of
	 * the clocks, explore_shortest.c "the fewest preemptions"): every
	 * execution of fewer than cex_checked preemptions was searched and
	 * has none; -1: not checked (no violation, or stopped) */
	int cex_checked;
	uint64_t short_nodes;
	/* Plain explore (opts.first): the preemption-bounded probe run
	 * before the stateful search (explore_stateful_run.c), its
	 * executions and steps, and the bound it reached (probe_found: it
	 * found the violation, at most probe_bound preemptions, every
	 * execution of fewer searched; the stateful search was not run) */
	bool probe_found;
	int probe_bound;
	/* found by the probe's one delay (explore_probe.c, delay_probe):
	 * probe_bound is then the bound below which every execution was
	 * searched, not the find's */
	bool probe_delay;
	uint64_t probe_delays;  /* the executions it ran with one delay */
	uint64_t probe_execs, probe_steps;
	double probe_seconds;   /* from the start to the probe's end */
	/* The work done, in the units max counts (one budget the parts
	 * share): the probe's executions, the searches' states (the
	 * stateful search's, every round's, and the step-by-step
	 * search's; DPOR, naive, bound: executions and the explorations
	 * cut by the sleep sets), the check's executions (the fewest
	 * preemptions after a find) */
	uint64_t units_probe, units_search, units_check;
	/* The first counterexample of each kind found (NULL: none). */
	uint8_t *kind_sched[DK__COUNT];
	int kind_len[DK__COUNT];
	/* One schedule per distinct outcome (DPOR: among the kept
	 * executions; stateful with opts.outcomes: the first `keep`). */
	int nout_sched;
	uint8_t **out_sched;
	int *out_len;
	struct vfs_explore_priv *priv;  /* the schedule table */
};

/*
 * Explore from SNAP.  Returns 0, or -1 with errno set (ENOMEM: out of
 * memory in any of its searches, which never answers short of it).  Free R with vfs_explore_result_free.
 * Threads created here block SIGINT (pthread_sigmask).
 */
int vfs_explore(const struct vfs_world *snap, const struct vfs_explore_opts *o,
		struct vfs_explore_result *r);
/* Free what the search left beside R's answers (its subtrees' tables):
 * once R's report is out, so that a stopped search answers without
 * waiting for it.  R stays whole; vfs_explore_result_free does it too. */
void vfs_explore_result_trim(struct vfs_explore_result *r);
void vfs_explore_result_free(struct vfs_explore_result *r);

/*
 * The schedule of execution K (from 1), when kept: the first `keep`
 * executions, the first `keep` violating ones, and the counterexample.
 * Returns its length, or -1 when not kept.  *SCHED stays valid until the
 * result is freed.
 */
int vfs_explore_schedule(const struct vfs_explore_result *r, uint64_t k,
			 const uint8_t **sched);
/* Kind mask (DK_BIT) of execution K when its schedule is kept, else 0. */
uint32_t vfs_explore_kinds(const struct vfs_explore_result *r, uint64_t k);

/*
 * Replay SCHED (LEN steps) into W, which the caller has made a copy of the
 * snapshot (vfs_world_copy).  Events go to SINK (may be NULL).  Returns the
 * number of steps run; fewer than LEN when step i names a thread that is
 * not runnable (the schedule does not fit this world).
 */
int vfs_explore_replay(struct vfs_world *w, const uint8_t *sched, int len,
		       const struct vfs_sink *sink);

/*
 * The shortest counterexample from SNAP: a search step by step, fewest
 * preemptions first, then fewest steps to a violation of a kind in
 * VIOL (duplicate, dead directory and the other counted reports on the
 * step; deadlock at a state; races: two enabled steps that conflict with
 * no common lock, then checked by replay with the race detector's
 * clocks).  The schedule is completed without preemption (the running
 * thread goes on, else the lowest runnable).  At most MAXPRE preemptions
 * (< 0: any) and NODES states (0: 2,000,000).  Returns 1 and fills
 * *SCHED (malloc'd), *LEN, *PRE, *STEPS, *KINDS; 0 when none was found
 * within the limits; -1 out of memory.  *VISITED: the states seen.
 */
int vfs_explore_shortest(const struct vfs_world *snap, uint32_t viol,
			 int maxpre, uint64_t nodes, volatile sig_atomic_t *stop,
			 uint8_t **sched, int *len, int *pre, int *steps,
			 uint32_t *kinds, uint64_t *visited);

/* Preemptions of SCHED from SNAP: switches away from a thread that could
 * still run.  *VSTEP: the step (from 1) after which a kind of VIOL was
 * first reported (0: never), when VSTEP is not NULL.  -1: out of memory
 * (the replay's world, or a detector's table in it). */
int vfs_explore_preemptions(const struct vfs_world *snap, const uint8_t *sched,
			    int len, uint32_t viol, int *vstep);

/* Outcome and violations of a finished execution (after replay): the
 * kinds (DK_BIT) that happened since SNAP. */
uint32_t vfs_explore_kinds_of(const struct vfs_world *snap,
			      const struct vfs_world *w);

#endif
