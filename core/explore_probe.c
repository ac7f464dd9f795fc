/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_probe.c - the searches around plain explore's stateful one
 * (explore_stateful_run.c): the preemption-bounded probe before it, the
 * step-by-step search for the shortest counterexample beside it and
 * after it, and the check of fewest preemptions after a find; and the
 * budget of `max N` they share with it (xs_spend).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "explore_probe.h"

/* ---- the start of the search beside ----
 * It waits until the stateful search has searched BESIDE_AFTER states
 * (16,000; then at most PACE_BASE + states / PACE_DIV of its own, as
 * before).  From the start, it cost a small proof about as much again
 * (v6.5, 3 thieves of 3 calls: a proof of 3,584 states, beside it up to
 * 2,000 and an eighth of those step by step: 30 M of the process's 88 M
 * instructions, its 128 worlds allocated and cleared).  What it finds is
 * the same: it runs to its own end whenever the stateful search found a
 * violation or was cut short.  The price: a violation the stateful search
 * finds within BESIDE_AFTER states waits for the states it would have
 * searched beside by then (4,000 at most), and one only it finds comes at
 * most BESIDE_AFTER stateful states later.  Quit (a proof) or unpaced
 * (the stateful search is over) while it waits, it is told at once: the
 * proof is not kept waiting for its thread's end. */
#define BESIDE_AFTER (PACE_BASE * PACE_DIV)

/* ---- its pace ----
 * A state of its own costs it more than a state costs the stateful
 * search (each a step, every runnable thread's child made and hashed,
 * and its frontier, the next preemptions' states, kept: 5x3 v6.5 about
 * 3 us against 1.5; 6x3 5 us, and 800,000 states waiting for 229,000
 * searched), so a count of states alone gave it a quarter of the
 * process's CPU and more memory as a proof grew: plain explore's proof
 * at 6x3 took 2.2 s against the stateful search's 1.5 alone, 200 MB
 * against 86.  So it also waits while its CPU is more than 1 / PACE_DIV
 * of what the rest of the process took since its first state (looked at
 * every 64 states and each ms it waits).  What waiting takes it is not
 * its CPU, or a search that waits beside an idle rest would wait for
 * ever: over_cpu's WAITING is its CPU when the wait began (< 0: none). */
static bool over_cpu(struct sknobs *kn, double waiting)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return false;   /* (no such clock: paced by states alone) */
	double own = xthread_cpu(), all = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	if (!kn->cpu0) {        /* (the rest's since: a session's earlier
				 * commands are not this search's) */
		kn->cpu0 = all > 0 ? all : 1e-9;
		kn->own0 = own;
	}
	double work = own - kn->waited - (waiting >= 0 ? own - waiting : 0);
	return work * PACE_DIV > (all - kn->cpu0) - (own - kn->own0);
}

void xs_pace_wait(struct sknobs *kn, uint64_t visited)
{
	const uint64_t *pace;
	double w0 = -1;         /* its CPU when it began to wait */
	for (bool cpu = !(visited & 63);
	     (pace = __atomic_load_n(&kn->pace, __ATOMIC_ACQUIRE)) &&
	     !__atomic_load_n(&kn->quit, __ATOMIC_RELAXED) && !(kn->stop && *kn->stop);
	     cpu = true) {
		if (visited <= PACE_BASE + __atomic_load_n(pace, __ATOMIC_RELAXED) / PACE_DIV &&
		    !(cpu && over_cpu(kn, w0)))
			break;
		if (w0 < 0)
			w0 = xthread_cpu();
		struct timespec ts = { 0, 1000000 };    /* 1 ms */
		nanosleep(&ts, NULL);
	}
	if (w0 >= 0)
		kn->waited += xthread_cpu() - w0;
}

/* false: told to quit before it started */
static bool beside_wait(struct sprobe *p)
{
	bool go;
	pthread_mutex_lock(&p->mu);
	for (;;) {
		const uint64_t *pace = __atomic_load_n(&p->kn.pace, __ATOMIC_ACQUIRE);
		if (__atomic_load_n(&p->kn.quit, __ATOMIC_RELAXED)) {
			go = false;
			break;
		}
		if (!pace || (p->kn.stop && *p->kn.stop) ||
		    __atomic_load_n(pace, __ATOMIC_RELAXED) >= BESIDE_AFTER) {
			go = true;
			break;
		}
		/* (the states are counted, not told: looked at every ms) */
		struct timespec ts = xdeadline(CLOCK_MONOTONIC, 1);
		pthread_cond_timedwait(&p->cv, &p->mu, &ts);
	}
	pthread_mutex_unlock(&p->mu);
	return go;
}

bool xs_probe_start(pthread_t *th, struct sprobe *p)
{
	pthread_condattr_t ca;
	if (pthread_condattr_init(&ca) != 0)
		return false;
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	int e = pthread_cond_init(&p->cv, &ca);
	pthread_condattr_destroy(&ca);
	if (e != 0)
		return false;
	if (pthread_mutex_init(&p->mu, NULL) != 0) {
		pthread_cond_destroy(&p->cv);
		return false;
	}
	p->beside = true;
	if (xpool_start(th, 0, 1, xs_probe_main, p, 0, true) == 1)
		return true;
	p->beside = false;
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	return false;
}

/* QUIT: the stateful search proved it, the search beside stops; else it
 * goes on unpaced, alone */
void xs_probe_tell(struct sprobe *p, bool quit)
{
	pthread_mutex_lock(&p->mu);
	if (quit)
		__atomic_store_n(&p->kn.quit, 1, __ATOMIC_RELAXED);
	else
		__atomic_store_n(&p->kn.pace, NULL, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

void xs_probe_join(pthread_t th, struct sprobe *p)
{
	pthread_join(th, NULL);
	pthread_mutex_destroy(&p->mu);
	pthread_cond_destroy(&p->cv);
	p->beside = false;
}

void *xs_probe_main(void *arg)
{
	struct sprobe *p = arg;
	if (p->beside && !beside_wait(p)) {
		p->rc = 0;
		p->visited = 0;
		__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
		return NULL;
	}
	p->rc = xs_shortest(p->st->snap, p->viol, &p->kn, &p->sched, &p->len,
			 &p->pre, &p->steps, &p->kinds, &p->visited);
	if (p->rc > 0 && p->found)
		__atomic_store_n(p->found, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&p->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* The probe alone, the stateful search over: its end waited for, and
 * what it does told every half second as the stateful search tells its
 * own (the states it searched, the preemptions and steps it is at, its
 * rate), so that a long search for the shortest counterexample is not a
 * silent one.  (Polled, as the probe's own pace is; only when someone
 * listens: opts.progress.) */
void xs_probe_wait(struct xst *st, struct sprobe *p)
{
	double last = xnow();
	while (!__atomic_load_n(&p->done, __ATOMIC_ACQUIRE)) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };  /* 10 ms */
		nanosleep(&ts, NULL);
		double t = xnow();
		if (t - last < 0.5)
			continue;
		last = t;
		struct vfs_explore_progress pr = {
			.stateful = true, .shortening = true,
			.states = __atomic_load_n(&p->kn.told_states, __ATOMIC_RELAXED),
			.preemptions = __atomic_load_n(&p->kn.told_pre, __ATOMIC_RELAXED),
			.depth = __atomic_load_n(&p->kn.told_steps, __ATOMIC_RELAXED),
			.round = st->xm.rounds + 1, .kind = p->kind };
		xprogress_tell(&st->o, &pr, st->t0, p->since, t, pr.states);
	}
}

/* The kinds of KINDS found, each with a copy of schedule S (N steps) as
 * its own ('explore replay KIND'), replacing what R had of them; -1: out
 * of memory (a kind found with no schedule to replay: the search fails
 * instead).  CLEAR: R's other kinds forgotten first. */
int xs_kinds_take(struct vfs_explore_result *r, bool clear, uint32_t kinds,
		  const uint8_t *s, int n)
{
	for (int k = 0; k < DK__COUNT; k++) {
		if (!clear && !(kinds >> k & 1))
			continue;
		free(r->kind_sched[k]);
		r->kind_sched[k] = NULL;
		r->kind_len[k] = 0;
		r->kind_execs[k] = kinds >> k & 1;
		if (!(kinds >> k & 1))
			continue;
		if (xsched_dup(&r->kind_sched[k], s, n) < 0)
			return -1;
		r->kind_len[k] = n;
	}
	return 0;
}

/* The shortest search's counterexample (P's, found) as R's: its
 * schedule taken from P; a search cut short (stop, its limit) found
 * one, not the shortest */
void xs_take_short(struct vfs_explore_result *r, struct sprobe *p,
		   const struct vfs_explore_opts *o)
{
	free(r->cex_schedule);
	r->cex_schedule = p->sched;
	p->sched = NULL;
	r->have_cex = true;
	r->cex_index = 1;
	r->cex_len = p->len;
	r->cex_preemptions = p->pre;
	r->cex_steps = p->steps;
	r->cex_kinds = p->kinds;
	r->cex_shortest = !(o->stop && *o->stop) &&
			  p->visited < (p->kn.limit ? p->kn.limit : 2000000);
	r->violating = 1;
}


/* A shortest search alone, the stateful search over (redo_cex's): in a
 * thread of its own while this one tells its progress (probe_wait), so
 * that it is no silent search; here when no one listens (no thread to
 * start and wait for) or no thread can be made. */
int xs_probe_alone(struct xst *st, struct sprobe *p)
{
	pthread_t th;
	p->since = xnow();
	if (!st->o.progress || xpool_start(&th, 0, 1, xs_probe_main, p, 0, true) != 1) {
		xs_probe_main(p);
		return p->rc;
	}
	xs_probe_wait(st, p);
	pthread_join(th, NULL);
	return p->rc;
}


/* ---- the preemption-bounded probe (plain explore) ----
 * The stateful search goes depth first: at size (twelve thieves of four
 * calls under v6.4) it gets lost deep in the graph, and the step-by-step
 * search beside it is stuck in its first layer, while most races of a
 * broken kernel need no preemption, or one.  So before them the bounded
 * search (explore.c, bound K: the executions of at most K preemptions,
 * with the clocks) runs for K = 0, then 1 (when every execution of 0 was
 * searched), stopped at its first violating execution, PROBE_STEPS steps
 * in all (checked at an execution's end: at least one execution), and at
 * most max executions at each K: on a proof it costs a few dozen
 * executions (v6.5, 3 thieves of 3 calls: +6% instructions, 4 x 4: +2%).
 * Alone and first, so that
 * what it finds depends on the input only.  1: it found a violation
 * (*SCHED, *LEN, *KINDS, at *K preemptions at most, every execution of
 * fewer searched, none violating); 0: none (R's probe counts say how
 * far it went); -1: out of memory. */
#define PROBE_STEPS 2048
#define PROBE_MAXK 1

/* ---- one delay (delay bounding) ----
 * At size, the executions of no preemption are too many for the probe's
 * steps (they differ in the order the threads run in, one after the
 * other), so the bound K = 1 never runs, and a violation that needs one
 * preemption (an ABBA deadlock, a duplicate) is left to the searches
 * that get lost there.  Delay bounding (Emmi, Qadeer and Rakamaric,
 * POPL 2011) takes one scheduler, round robin without preemption (the
 * running thread goes on while it can, then the next in index order,
 * cyclically), and a budget of delays: a delay at step I holds that
 * step's thread back, the next in the order runs instead.  With no delay
 * there is one execution; with one, one per step: the deadlock needs its
 * first thread held back between its two locks, and every thread that
 * runs meanwhile runs to its end, so a handful of executions where K = 1
 * is factorial.  The steps tried alternate from the last and from the
 * first (a scenario's racy pair may come first or last in the order);
 * each run starts from a copy of the delay-free run taken every
 * DELAY_EVERY steps, runs to its end with the clocks, and is checked as
 * the bounded search checks one.  At most the steps of DELAY_RUNS
 * delay-free runs (DELAY_MAX at the most) and what max leaves: a small
 * proof pays a few thousand steps (v6.5, 3 thieves of 3 calls: +5%
 * instructions, 4 x 4: +1%), twelve thieves of four calls some 20,000;
 * deterministic, as the rest of the probe.  1: found (*SCHED, *LEN,
 * *KINDS), 0: none, -1: out of memory. */
#define DELAY_RUNS 32
#define DELAY_MAX 262144
#define DELAY_EVERY 32

/* the round robin's next thread: CUR while it can run (unless SKIP), else
 * the next that can in index order after it, cyclically; -1: none */
static int rr_next(const struct vfs_world *w, int cur, int skip)
{
	int n = w->nthreads;
	if (cur >= 0 && cur != skip && vfs_runnable(w, cur))
		return cur;
	for (int j = 1; j <= n; j++) {
		int t = ((cur < 0 ? -1 : cur) + j + n) % n;
		if (t != skip && vfs_runnable(w, t))
			return t;
	}
	return -1;
}

/* Run W on from step AT of SCHED (room for MAXLEN) by the round robin,
 * the thread of step AT held back when DELAY; the steps run added to
 * *STEPS.  Returns the length. */
static int rr_run(struct vfs_world *w, uint8_t *sched, int at, int maxlen,
		  bool delay, uint64_t *steps)
{
	int cur = at ? sched[at - 1] : -1, n = at;
	if (delay) {
		int held = rr_next(w, cur, -1);
		cur = rr_next(w, held, held);
		if (cur < 0)
			return -1;      /* (no other thread can run: no delay) */
		sched[n++] = (uint8_t)cur;
		vfs_step(w, cur, NULL);
	}
	for (; n < maxlen && (cur = rr_next(w, cur, -1)) >= 0; n++) {
		sched[n] = (uint8_t)cur;
		vfs_step(w, cur, NULL);
	}
	*steps += (uint64_t)(n - at);
	return n;
}

static int delay_probe(struct xst *st, struct vfs_explore_result *r,
		       uint8_t **sched, int *len, uint32_t *kinds)
{
	const struct vfs_explore_opts *po = &st->o;
	int maxlen = st->maxdepth, rc = 0, ncp = 0;
	uint64_t steps = 0;
	uint8_t *canon = malloc((size_t)maxlen), *s = malloc((size_t)maxlen);
	struct vfs_world *w = vfs_world_dup(st->snap), **cp = NULL;
	if (!canon || !s || !w)
		goto oom;
	/* the run of no delay, copies of it on the way */
	int k = 0;
	for (int cur = -1; k < maxlen && (cur = rr_next(w, cur, -1)) >= 0; k++) {
		if (k % DELAY_EVERY == 0) {
			struct vfs_world **c = realloc(cp, sizeof *cp * (size_t)(ncp + 1));
			if (!c)
				goto oom;
			cp = c;
			if (!(cp[ncp] = vfs_world_dup(w)))
				goto oom;
			ncp++;
		}
		canon[k] = (uint8_t)cur;
		vfs_step(w, cur, NULL);
	}
	/* (w->oom: a detector's table a step grew was lost, and with it
	 * what the run's kinds say) */
	if (xw_lost(w))
		goto oom;
	steps += (uint64_t)k;
	xs_spend(st, &r->units_probe, 1);
	r->probe_execs++;
	uint32_t got = xkinds_of(st->snap, w) & st->viol;
	uint64_t budget = (uint64_t)k * DELAY_RUNS < DELAY_MAX ? (uint64_t)k * DELAY_RUNS :
			  DELAY_MAX;
	int n = k;
	memcpy(s, canon, (size_t)k);
	/* (j = 0, 1, 2 ...: the steps k - 1, 0, k - 2, 1 ..., each once) */
	for (int j = 0; !got && j < k && steps < budget && !xs_spent(st) &&
	     !(po->stop && *po->stop); j++) {
		int at = j % 2 ? j / 2 : k - 1 - j / 2;
		const struct vfs_world *c = cp[at / DELAY_EVERY];
		if (!xwcopy_spawn(w, c))
			goto oom;
		int from = at / DELAY_EVERY * DELAY_EVERY;
		memcpy(s, canon, (size_t)at);
		vfs_explore_replay(w, canon + from, at - from, NULL);
		steps += (uint64_t)(at - from);
		if ((n = rr_run(w, s, at, maxlen, true, &steps)) < 0)
			continue;
		if (xw_lost(w))
			goto oom;
		xs_spend(st, &r->units_probe, 1);
		r->probe_execs++;
		r->probe_delays++;
		got = xkinds_of(st->snap, w) & st->viol;
	}
	r->probe_steps += steps;
	if (got) {
		*kinds = xkinds_of(st->snap, w);
		*len = n;
		*sched = s;
		s = NULL;
		rc = 1;
	}
	goto out;
oom:
	rc = -1;
out:
	for (int i = 0; i < ncp; i++)
		vfs_world_free(cp[i]);
	free(cp);
	vfs_world_free(w);
	free(canon);
	free(s);
	return rc;
}

int xs_bounded_probe(struct xst *st, struct vfs_explore_result *r,
		     uint8_t **sched, int *len, uint32_t *kinds, int *k)
{
	const struct vfs_explore_opts *po = &st->o;
	uint64_t left = PROBE_STEPS;
	for (*k = 0; *k <= PROBE_MAXK && !(po->stop && *po->stop) && !xs_spent(st); ++*k) {
		struct vfs_explore_opts o;
		struct vfs_explore_result b;
		vfs_explore_opts_init(&o);
		o.bound = *k;
		o.jobs = 1;
		o.max = xs_limit(st);
		o.max_steps = left ? left : 1;
		o.stop_at_violation = 1;
		o.violations = st->viol;
		o.stop = po->stop;
		/* (no progress line: PROBE_STEPS steps are over in a blink,
		 * and its one worker then runs in this thread) */
		/* (out of memory anywhere in its search: no answer, never
		 * "none at K") */
		if (vfs_explore(st->snap, &o, &b) < 0)
			return -1;
		r->probe_execs += b.executions;
		xs_spend(st, &r->units_probe, b.executions + b.redundant);
		r->probe_steps += b.steps;
		r->probe_bound = *k;
		left = b.steps < left ? left - b.steps : 0;
		bool found = b.have_cex;
		if (found) {
			*sched = b.cex_schedule;
			*len = b.cex_len;
			*kinds = b.cex_kinds;
			b.cex_schedule = NULL;
		}
		bool complete = b.complete || b.cut == XCUT_BOUND;
		vfs_explore_result_free(&b);
		if (found)
			return 1;
		if (!complete)
			break;
	}
	/* (every execution of at most PROBE_MAXK searched: no delay) */
	if (*k > PROBE_MAXK || (po->stop && *po->stop) || xs_spent(st))
		return 0;
	int f = delay_probe(st, r, sched, len, kinds);
	if (f > 0)
		r->probe_delay = true;
	return f;
}

/* The probe's violation as the answer, the stateful search not run:
 * then the step-by-step search alone, at most PROBE_SHORT states (a
 * small scenario's whole graph: its counterexample and kinds as when
 * it ran beside the stateful search, a duplicate a preemption deep
 * beside the probe's race of none), else the probe's execution (fewest,
 * below, then gives the counterexample of fewest steps at its K). */
#define PROBE_SHORT 20000

int xs_probe_answer(struct xst *st, struct vfs_explore_result *r,
		    uint8_t *sched, int len, uint32_t kinds, int k)
{
	const struct vfs_explore_opts *o = &st->o;
	r->probe_found = true;
	r->probe_bound = k;
	r->cut = XCUT_FOUND;
	r->complete = false;
	uint64_t lim = xs_limit(st) && xs_limit(st) < PROBE_SHORT ? xs_limit(st) : PROBE_SHORT;
	struct sprobe p = { .st = st, .viol = st->viol, .kind = -1,
			    .kn = { .maxpre = -1, .limit = lim, .stop = o->stop } };
	/* (max spent: the probe's execution is the answer) */
	int rc = xs_spent(st) ? 0 : xs_probe_alone(st, &p);
	if (rc < 0) {
		free(sched);
		return -1;
	}
	r->short_nodes = p.visited;
	xs_spend(st, &r->units_search, p.visited);
	if (rc > 0) {
		/* (as the probe beside the stateful search: xstate_run) */
		xs_take_short(r, &p, o);
		/* (the probe's kinds with its execution, the step-by-step
		 * search's with its counterexample) */
		rc = xs_kinds_take(r, true, kinds & ~p.kinds, sched, len);
		free(sched);
		if (rc < 0 || xs_kinds_take(r, false, p.kinds, r->cex_schedule,
					 r->cex_len) < 0)
			return -1;
		/* (the probe's bound: fewer preemptions are clean) */
		if (r->probe_bound > p.pre)
			r->probe_bound = p.pre;
		return 0;
	}
	r->have_cex = true;
	r->cex_index = 1;
	r->cex_schedule = sched;
	r->cex_len = len;
	r->cex_kinds = kinds;
	r->cex_preemptions = vfs_explore_preemptions(st->snap, sched, len, st->viol,
						     &r->cex_steps);
	r->violating = 1;
	if (r->cex_preemptions < 0)
		return -1;
	return xs_kinds_take(r, true, kinds, sched, len);
}

/* The counterexample of fewest preemptions by the clocks' races, then
 * fewest steps, whatever found the violation: the bounded search from 0
 * preemptions up (xs_fewest_bounded).  Only with a violation: a proof
 * costs nothing more.  It is "the shortest" only when every execution of
 * fewer preemptions, and of its own, was searched (cex_checked: below
 * how many preemptions every one was).  OWN: the kinds' schedules are
 * the counterexample's own (the probe's), its kinds' replaced with it. */
int xs_fewest(struct xst *st, struct vfs_explore_result *r, bool own)
{
	const struct vfs_explore_opts *o = &st->o;
	r->cex_checked = -1;
	if (!r->have_cex || (o->stop && *o->stop) || xs_spent(st))
		return 0;
	bool exact;
	uint64_t used = 0;
	/* (the probe's find: every execution of fewer preemptions is clean) */
	int rc = xs_fewest_from(st->snap, st->viol, r->probe_found ? r->probe_bound : 0,
				xs_limit(st), o, st->t0, &r->cex_schedule, &r->cex_len,
				&r->cex_preemptions, &r->cex_steps, &r->cex_kinds,
				&r->cex_checked, &exact, &used);
	xs_spend(st, &r->units_check, used);
	if (rc < 0)
		return -1;
	r->cex_shortest = exact && r->cex_checked == r->cex_preemptions;
	if (rc == 0 || !own)
		return 0;
	/* a kind of the old one that the new one lacks stays known, with
	 * the old schedule ('explore replay KIND'): it is reachable */
	return xs_kinds_take(r, false, r->cex_kinds, r->cex_schedule, r->cex_len);
}

/* ---- max N: one budget ----
 * A plain explore is a sequence of parts: the probe, the stateful search
 * with the step-by-step search beside it (or, after the probe's find,
 * the step-by-step search alone), then the check of fewest preemptions;
 * `explore stateful` and `all` search, then search again step by step
 * for the shortest counterexamples, then check.  max N is one budget
 * they share, in that order: each part may use what the parts before it
 * left (its own limit below it), and a part that finds none left is not
 * run.  A unit is what bounds each part's work: an execution (the
 * probe, the check: the bounded search's), a state (the searches).  The
 * two searches that run side by side split what is left in two halves
 * fixed before they start (xstate_run), so that what each covers does
 * not depend on which thread ran faster. */
void xs_spend(struct xst *st, uint64_t *part, uint64_t n)
{
	*part += n;
	if (st->capped)
		st->left = n < st->left ? st->left - n : 0;
}

uint64_t xs_limit(const struct xst *st)
{
	return st->capped ? st->left : 0;
}

bool xs_spent(const struct xst *st)
{
	return st->capped && !st->left;
}
