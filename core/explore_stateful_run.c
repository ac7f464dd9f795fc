/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_stateful_run.c - one run of the stateful search
 * (vfs_explore with opts.stateful): its workers on the frontier
 * (explore_frontier.c), the rounds of the locking discipline's guess
 * (explore_movers.c), the
 * shortest search beside it (opts.first), and the result from the
 * workers' counts.  One worker's search: explore_stateful.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "explore_probe.h"


/* The outcomes found (opts.outcomes) and their schedules, those the
 * result has not taken */
static void free_outcomes(struct xst *st)
{
	xset_free(&st->out);
	xscheds_free(&st->osched, &st->olen, &st->nosched);
	st->caposched = 0;
}

static void round_reset(struct xst *st, struct sworker *ws, int jobs, bool keep);

/* The frontier with sleep sets (several workers; explore_sleep.c): the
 * search of one worker from the snapshot, its new states at a depth made
 * items, the shallowest of depths 1, 2, 4, 8 ... that gives SPLIT or
 * more (each tried from the start again: on a deep narrow graph one
 * more depth at a time cost states x depth, 3x3 v6.5 jobs 8 0.25 s for
 * 0.03 s at jobs 1), or the whole search (no item).  A try discarded is
 * work done: its states are charged to max (st->o.max, and units) and
 * they and its transitions to the counts printed (st->tries_*). */
static int top_sleep(struct xst *st, struct sworker *ws, int jobs)
{
	int split = (st->o.test_split > 0 ? st->o.test_split : SPLIT_PER_JOB) * jobs;
	for (int cutd = 1;; cutd *= 2) {
		if (xs_root_item(st, &ws[0]) < 0)
			return -1;
		struct xitem_s root = st->items[0];
		st->nitems = 0;
		/* the try that reaches SPLIT items is the last: the other
		 * workers start on them then, while this one makes the rest
		 * (explore_sleep.c: sound whatever the timing); not with max,
		 * whose charge of a try needs it whole */
		st->early = st->capped ? 0 : split;
		st->making = true;
		int r = xs_top(&ws[0], &root, cutd);
		pthread_mutex_lock(&st->imu);
		st->making = false;
		st->early = 0;
		pthread_cond_broadcast(&st->icv);
		pthread_mutex_unlock(&st->imu);
		vfs_world_free(root.w);
		free(root.path);
		if (r < 0)
			return -1;
		if (st->started || !st->nitems || st->nitems >= split ||
		    xs_stopped(&ws[0]) || ws[0].cut || cutd > st->maxdepth)
			return 0;
		uint64_t n = ws[0].states;
		if (st->capped && n >= st->o.max) {
			/* (none left for the workers: this try is the search) */
			__atomic_store_n(&st->abort, ABORT_MAX, __ATOMIC_RELAXED);
			return 0;
		}
		st->tries_states += n;
		st->tries_tr += ws[0].transitions;
		st->o.max -= st->capped ? n : 0;
		round_reset(st, ws, jobs, true);
	}
}

void xs_start_early(struct xst *st)
{
	st->started = xpool_start(st->th, 1, st->jobs, xs_worker_main, st->ws,
				  sizeof *st->ws, false);
}


/* One search of the whole graph with the discipline as it stands. */
static int round_run(struct xst *st, struct sworker *ws, int jobs, int *made)
{
	int rc = 0;
	*made = 0;
	st->ranked = st->sleep && jobs > 1;
	st->ws = ws;
	if ((st->ranked ? top_sleep(st, ws, jobs) : xs_top_bfs(st, &ws[0])) < 0)
		rc = -1;
	if (ws[0].failed)
		rc = -1;
	if (rc < 0 && st->started)      /* (the workers started stop) */
		__atomic_store_n(&st->abort, ABORT_ERROR, __ATOMIC_RELAXED);
	int m = st->started;
	if (!m && rc == 0 && jobs > 1 && st->nitems > 1 && !xs_stopped(&ws[0]))
		m = xpool_start(st->th, 1, jobs, xs_worker_main, ws, sizeof *ws, false);
	if (rc == 0)
		xs_worker_main(&ws[0]);
	for (int i = 1; i < m; i++)
		pthread_join(st->th[i], NULL);
	st->started = 0;
	*made = m;
	return rc;
}

/* Every worker's search and the states so far dropped; KEEP (a try of
 * top_sleep's, the discipline unchanged): worker 0's buffers kept. */
static void round_reset(struct xst *st, struct sworker *ws, int jobs, bool keep)
{
	if (xs_state_hook)
		xs_state_hook(0);       /* (the states so far do not count) */
	/* (atomic: the shortest search and the progress line read them) */
	__atomic_store_n(&st->live_states, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st->live_viol, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&st->visited, 0, __ATOMIC_RELAXED);
	free_outcomes(st);
	xs_free_items(st, 0, st->nitems);
	st->nitems = 0;
	st->ntaken = 0;
	memset(st->swnext, 0, sizeof st->swnext);
	st->early_items = 0;
	for (int i = 0; i < jobs; i++) {
		struct sworker *s = &ws[i];
		if (keep && !i) {
			xs_worker_restart(s);
			continue;
		}
		xs_worker_free(s);
		memset(s, 0, sizeof *s);
		s->st = st;
		s->id = i;
	}
	vt_clear(&st->vt);
}

/* The counterexample of the stateful search (r, from the workers'
 * best) and the one of each kind they found, again by the
 * step-by-step search; 1: all redone, 0: some kept as the workers found
 * them. */
static int redo_cex(struct xst *st, struct sworker *ws, int jobs,
		    struct vfs_explore_result *r)
{
	const struct vfs_explore_opts *o = &st->o;
	int all = 1;
	for (int k = -1; k < DK__COUNT; k++) {
		bool found = k < 0 && r->have_cex;
		for (int i = 0; i < jobs && k >= 0; i++)
			found |= ws[i].kcex[k] != NULL;
		if (!found)
			continue;
		struct sprobe p = { .st = st, .viol = k < 0 ? st->viol : DK_BIT(k),
				    .kind = k, .kn = {
					.maxpre = k < 0 ? r->cex_preemptions : -1,
					.limit = xs_limit(st), .stop = o->stop } };
		/* (max spent: the workers' own kept) */
		int rc = xs_spent(st) ? 0 : xs_probe_alone(st, &p);
		xs_spend(st, &r->units_search, p.visited);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			all = 0;
			continue;
		}
		if (k < 0) {
			free(r->cex_schedule);
			r->cex_schedule = p.sched;
			r->cex_len = p.len;
			r->cex_kinds = p.kinds;
			r->cex_preemptions = p.pre;
			r->cex_steps = p.steps;
			r->cex_shortest = true;
			continue;
		}
		for (int i = 0; i < jobs; i++) {
			free(ws[i].kcex[k]);
			ws[i].kcex[k] = NULL;
		}
		ws[0].kcex[k] = p.sched;
		ws[0].kcexlen[k] = p.len;
	}
	return all;
}

int xstate_run(const struct vfs_world *snap, const struct vfs_explore_opts *o,
	       struct vfs_explore_result *r)
{
	double t0 = xnow();
	/* (aligned: the visited table's busy lines in it are each one
	 * worker's, struct vbusy) */
	struct xst *st = aligned_alloc(64, sizeof *st);
	if (st)
		memset(st, 0, sizeof *st);
	/* By default a worker on every online CPU, plain explore's too: the
	 * shortest search beside it (opts.first) is paced to an eighth of
	 * its states (explore_probe.c), so a CPU kept for it idled most of
	 * a proof (5x3 v6.5 on two CPUs: 0.28 s with one worker, 0.23 s
	 * with two and the search beside as a third thread); the scheduler
	 * gives that thread its share, so it is not starved as it was at a
	 * lower priority. */
	int jobs = o->jobs > 0 ? o->jobs : xonline_cpus();
	if (jobs < 1)
		jobs = 1;
	if (jobs > MAX_WORKERS)
		jobs = MAX_WORKERS;
	/* each worker's struct on lines of its own: its counters and
	 * caches, written per state, shared a line with the next one's
	 * st, read per state (calloc aligns to 16) */
	struct sworker *ws = aligned_alloc(64, (size_t)jobs * sizeof *ws);
	int rc = 0;
	if (ws)
		memset(ws, 0, (size_t)jobs * sizeof *ws);

	memset(r, 0, sizeof *r);
	r->stateful = true;
	if (!st || !ws) {
		free(st);
		free(ws);
		errno = ENOMEM;
		return -1;
	}
	st->snap = snap;
	st->o = *o;
	pthread_mutex_init(&st->omu, NULL);
	pthread_mutex_init(&st->imu, NULL);
	pthread_cond_init(&st->icv, NULL);
	st->t0 = st->last_report = t0;
	st->viol = o->violations ? o->violations : VX_DEFAULT_VIOLATIONS;
	st->maxdepth = o->max_depth > 0 ? o->max_depth : 100000;
	/* the visited table: STATE_BITS fixed, or from 2^14 slots, growing
	 * in place up to 2^30 */
	st->maxbits = o->state_bits > 0 ? o->state_bits : 30;
	if (st->maxbits < 10)
		st->maxbits = 10;
	if (st->maxbits > 34)
		st->maxbits = 34;
	st->bits = o->state_bits > 0 ? st->maxbits : 14;
	st->nopen = xs_open_accesses(snap, &st->open);
	if (st->nopen < 0) {
		free(st);
		free(ws);
		errno = ENOMEM;
		return -1;
	}
	for (int i = 0; i < snap->nthreads; i++)
		if (snap->threads[i].state != TS_FREE)
			st->fixed |= 1u << i;
	st->jobs = jobs;
	/* sleep sets (explore_sleep.c): not with a depth
	 * bound (a block may end at it), nor with the clocks (below); with
	 * several workers, each state's least rank kept */
	st->sleep = !o->no_sleep && o->max_depth <= 0;
	st->fcount = st->sleep && xs_fcount_rule(snap);
	if (vt_alloc(&st->vt, st->bits, st->maxbits, o->state_bits <= 0,
		     jobs) < 0 || (st->sleep && jobs > 1 && vt_own_on(&st->vt) < 0)) {
		vt_free(&st->vt);
		free(st);
		free(ws);
		errno = ENOMEM;
		return -1;
	}
	r->violations = st->viol;
	st->capped = o->max != 0;
	st->left = o->max;
	for (int i = 0; i < jobs; i++) {
		ws[i].st = st;
		ws[i].id = i;
	}
	if (o->first) {
		/* (set when it finds one; -O1 cannot tell) */
		uint8_t *ps = NULL;
		int plen = 0, pk = 0;
		uint32_t pkinds = 0;
		int f = xs_bounded_probe(st, r, &ps, &plen, &pkinds, &pk);
		r->probe_seconds = xnow() - t0;
		if (f < 0) {
			rc = -1;
			goto out;
		}
		if (f > 0) {
			r->jobs = jobs;
			r->rounds = 1;
			if (xs_probe_answer(st, r, ps, plen, pkinds, pk) < 0 ||
			    xs_fewest(st, r, true) < 0)
				rc = -1;
			goto out;
		}
		if (xs_spent(st)) {
			/* (max spent by the probe: no state searched) */
			r->jobs = jobs;
			r->rounds = 1;
			r->cut = XCUT_MAX;
			goto out;
		}
	}
	/* naive: no discipline, every access visible (the step-by-step
	 * graph, but for steps with no event at all) */
	if ((!o->naive && xm_learn(&st->xm, snap, st->maxdepth, o->learn_runs) < 0)) {
		rc = -1;
		goto out;
	}
	int made;
	/* max: what the probe left, half each for the stateful search
	 * (st->o.max, every round's states) and the step-by-step search
	 * beside it (its limit), fixed before they start */
	uint64_t half = o->first ? xs_limit(st) / 2 : 0, before = 0;
	if (st->capped)
		st->o.max = st->left - half;
	uint64_t share = st->o.max;
	struct sprobe probe = { .st = st, .viol = st->viol, .kind = -1, .since = t0,
				.found = &st->probe_found,
				.kn = { .maxpre = -1, .limit = half,
					.stop = o->stop, .pace = &st->live_states } };
	pthread_t pth;
	bool probing = false;
	if (o->first && (!st->capped || half))
		probing = xs_probe_start(&pth, &probe);
	for (;;) {
		rc = round_run(st, ws, jobs, &made);
		if (__atomic_load_n(&st->probe_found, __ATOMIC_RELAXED))
			break;
		if (rc < 0 || (o->stop && *o->stop))
			break;
		if ((st->need_hist && !st->hist && !st->abort) ||
		    (st->xm.violated && !st->abort)) {
			/* another round: the states of this one spent */
			uint64_t n = 0;
			for (int i = 0; i < jobs; i++)
				n += ws[i].states;
			before += n;
			if (st->capped && n >= st->o.max) {
				st->abort = ABORT_MAX;
				break;
			}
			st->o.max -= st->capped ? n : 0;
		}
		if (st->need_hist && !st->hist && !st->abort) {
			/* an access conflicts with the set-up's: clocks on */
			st->hist = true;
			st->sleep = false;
			st->need_hist = 0;
			st->xm.violated = 0;
			st->xm.ndemote = 0;
			round_reset(st, ws, jobs, false);
			continue;
		}
		if (!st->xm.violated || st->abort)
			break;
		/* the guess was wrong somewhere: demote and search again */
		xm_apply(&st->xm);
		round_reset(st, ws, jobs, false);
	}
	bool quit = false;
	if (probing) {
		/* A proof: the probe stops.  Otherwise the probe goes on to
		 * its own end (a counterexample, or its limit, both fixed
		 * before it started): stopping it when the stateful search
		 * stops would make what it found, and so the counterexample
		 * and the counts printed, depend on which thread ran faster.
		 * For the same reason it is not bounded by the preemptions
		 * of the stateful search's counterexample: the states it had
		 * pushed past that bound before it was told depended on
		 * timing, and when its own best candidate costs more than
		 * the bound (a race the clocks of the set-up reveal, say)
		 * it pops them: "31, 106 or 120 more step by step" in
		 * explore-stateful-history-race.vfs under load. */
		bool viol = false, cutshort = st->abort != 0;
		for (int i = 0; i < jobs; i++) {
			viol |= ws[i].cex != NULL;
			cutshort |= ws[i].cut != XCUT_NONE;
		}
		if (rc < 0 || (!viol && !cutshort)) {
			quit = true;
			xs_probe_tell(&probe, true);
		} else {
			/* a violation, or cut short (max) without one: the
			 * probe, alone now, to its own end or limit */
			xs_probe_tell(&probe, false);
			if (o->progress)
				xs_probe_wait(st, &probe);
		}
		xs_probe_join(pth, &probe);
		if (probe.rc < 0)
			rc = -1;
	}
	r->rounds = st->xm.rounds + 1;
	r->demoted = st->xm.demoted;
	r->learn_runs = st->xm.learn_runs;
	xm_count(&st->xm, &r->visible_locs, &r->hidden_locs);
	/* the workers it was given: how many had started when a search
	 * stopped early (a violation the probe found during the split)
	 * depends on timing */
	r->jobs = jobs;
	r->subtrees = st->nitems;
	r->early_items = st->early_items;
	r->transitions = st->tries_tr;
	int best = -1;
	int cut = XCUT_NONE;
	for (int i = 0; i < jobs; i++) {
		struct sworker *s = &ws[i];
		r->states += s->states;
		r->transitions += s->transitions;
		r->matched += s->matched;
		r->probes += s->probes;
		r->local_steps += s->local;
		r->retaken += s->retaken;
		r->violating += s->violating;
		if (i < VFS_XWORKERS) {
			r->worker_states[i] = s->states;
			r->worker_cpu[i] = s->cpu;
		}
		for (int k = 0; k < DK__COUNT; k++)
			r->kind_execs[k] += s->kind_n[k];
		r->overflowed |= s->overflowed;
		if (s->maxdepth > r->state_depth)
			r->state_depth = s->maxdepth;
		if (s->failed)
			rc = -1;
		if (s->cut && (cut == XCUT_NONE || s->cut == XCUT_ERROR ||
			       s->cut == XCUT_TABLE))
			cut = s->cut;
		if (s->cex && (best < 0 || s->cexpre < ws[best].cexpre ||
			       (s->cexpre == ws[best].cexpre &&
				memcmp(s->cex, ws[best].cex, (size_t)s->cexpre) < 0)))
			best = i;
	}
	/* the units, a function of the input: a probe told to quit (a
	 * proof) stopped at a time that depends on timing, so it is charged
	 * the half it was given; a probe that found one ran to its own end
	 * (its count fixed) but may have stopped the stateful search at any
	 * time, so that one is charged its share */
	uint64_t su = before + st->tries_states + r->states;
	if (probing && probe.rc > 0 && st->capped)
		su = share;
	if (probing)
		su += quit ? half : probe.visited;
	xs_spend(st, &r->units_search, su);
	if (st->abort && (cut == XCUT_NONE || cut == XCUT_STOP))
		cut = xs_abort_cut(st->abort);
	if (o->stop && *o->stop && cut == XCUT_NONE)
		cut = XCUT_STOP;
	if (probing && probe.rc > 0 && cut == XCUT_STOP)
		cut = XCUT_FOUND;
	r->cut = (uint8_t)cut;
	r->complete = cut == XCUT_NONE && rc == 0;
	double n = (double)r->states;
	r->collision_p = n * n / 2.0 / 18446744073709551616.0;
	if (best >= 0) {
		struct sworker *s = &ws[best];
		r->have_cex = true;
		r->cex_index = 1;
		r->cex_len = s->cexlen;
		r->cex_kinds = s->cexkinds;
		r->cex_schedule = s->cex;
		s->cex = NULL;
		r->cex_preemptions = vfs_explore_preemptions(snap, r->cex_schedule,
							     r->cex_len, st->viol,
							     &r->cex_steps);
		if (r->cex_preemptions < 0)
			rc = -1;
	}
	/* The counterexample the issue asks for has the fewest preemptions,
	 * then the fewest steps.  The depth-first search keeps the path of
	 * fewest blocks (one worker: the lowest such; several share the
	 * visited table, so the path by which a state is first reached is
	 * whichever worker got there first), which may preempt more.  The
	 * step-by-step search gives the one the input alone fixes (fewest
	 * preemptions, fewest steps, lowest schedule), whatever jobs is, here
	 * for the counterexample and for each kind found; the search's own is
	 * kept only where it gives up (limit). */
	if (!o->first && rc == 0 && !(o->stop && *o->stop) &&
	    redo_cex(st, ws, jobs, r) < 0)
		rc = -1;
	/* the first of each kind, from the lowest worker that has one */
	for (int k = 0; k < DK__COUNT; k++)
		for (int i = 0; i < jobs && !r->kind_sched[k]; i++)
			if (ws[i].kcex[k]) {
				r->kind_sched[k] = ws[i].kcex[k];
				r->kind_len[k] = ws[i].kcexlen[k];
				ws[i].kcex[k] = NULL;
			}
	if (o->outcomes) {
		r->outcomes = st->out.n;
		for (size_t j = 0; j < st->out.cap; j++)
			if (st->out.v[j])
				r->outcome_digest += xmix(st->out.v[j] ^ 0x6f7574636f6d65ull);
		r->out_sched = st->osched;
		r->out_len = st->olen;
		r->nout_sched = st->nosched;
		st->osched = NULL;
		st->olen = NULL;
		st->nosched = 0;
	}
	/* the shortest counterexample, from the probe */
	if (probing && probe.rc > 0) {
		xs_take_short(r, &probe, o);
		/* the kinds, their schedules ('explore replay KIND') and
		 * counts are the probe's alone: what the stateful workers had
		 * found by the time the probe stopped them depends on
		 * timing */
		if (xs_kinds_take(r, true, probe.kinds, r->cex_schedule, probe.len) < 0)
			rc = -1;
	}
	if (probing)
		r->short_nodes = probe.visited;
	free(probe.sched);
	if (rc == 0 && xs_fewest(st, r, probing && probe.rc > 0) < 0)
		rc = -1;
	if (rc < 0 && ws[0].failed == 2)
		rc = 0, r->cut = XCUT_ERROR, r->complete = false;
out:
	for (int i = 0; i < jobs; i++)
		if (ws[i].failed == 2) {
			rc = 0;
			r->cut = XCUT_ERROR;
			r->complete = false;
		}
	xs_free_items(st, 0, st->nitems);
	free(st->items);
	for (int i = 0; i < jobs; i++)
		xs_worker_free(&ws[i]);
	free(ws);
	free_outcomes(st);
	pthread_mutex_destroy(&st->omu);
	pthread_mutex_destroy(&st->imu);
	pthread_cond_destroy(&st->icv);
	vt_free(&st->vt);
	xm_free(&st->xm);
	free(st->open);
	free(st);
	r->seconds = xnow() - t0;
	if (rc < 0) {
		vfs_explore_result_free(r);
		errno = ENOMEM;
	}
	return rc;
}
