/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_print.c - the summary of an explore, one printer per engine:
 * plain explore (a proof, or the shortest counterexample), the stateful
 * search (states, transitions, the kinds of violation found) and DPOR
 * (executions, outcomes, the first counterexample).
 */
#include "explore_print.h"
#include "fns.h"

static void print_kinds(struct session *s, const struct vfs_explore_result *r)
{
	for (int k = 0, n = 0; k < DK__COUNT; k++)
		if (r->kind_execs[k])
			out(s, "%s%s in %llu", n++ ? ", " : " ", vfs_kind_name(k),
			    (unsigned long long)r->kind_execs[k]);
	out(s, "\n");
}

/* "no violation in NONE", or how many WHAT and of which kinds: whether
 * there were any.  (A search refused for its size says nothing here: the
 * caller says why.) */
static bool say_violations(struct session *s, const struct vfs_explore_result *r,
			   const char *none, const char *what)
{
	if (!r->violating) {
		if (!r->kind_execs[DK_OVERFLOW])
			out(s, "no violation in %s\n", none);
		return false;
	}
	out(s, "%s%llu %s:%s", color_on(s, "\033[1;31m"), (unsigned long long)r->violating,
	    what, color_off(s));
	print_kinds(s, r);
	return true;
}


/* Plain explore: is any violation reachable?  A proof, or the shortest
 * counterexample with its schedule token. */
void explore_print_default(struct session *s, const struct xstate *x)
{
	const struct vfs_explore_result *r = &x->r;
	if (!r->have_cex) {
		if (r->kind_execs[DK_OVERFLOW])
			return;         /* (refused by the caller) */
		if (r->complete) {
			out(s, "no violation is reachable: %llu distinct states, %llu transitions "
			    "in %.2f s, every reachable state (P(hash collision) < %.1g)\n",
			    (unsigned long long)r->states, (unsigned long long)r->transitions,
			    r->seconds, r->collision_p);
			return;
		}
		out(s, "no violation in the %llu states explored", (unsigned long long)r->states);
		/* (the probe's work, what it covered too) */
		/* (those of one delay: a preemption at most) */
		int pb = r->probe_delays && r->probe_bound < 1 ? 1 : r->probe_bound;
		if (r->probe_execs)
			out(s, ", nor in the %llu executions of at most %d preemption%s "
			    "the preemption-bounded probe ran", (unsigned long long)r->probe_execs,
			    pb, pb == 1 ? "" : "s");
		out(s, "\n");
		return;
	}
	/* the kinds found: the counterexample's, and those of one of more
	 * preemptions it replaced (core/explore_stateful_run.c, fewest) */
	uint32_t kinds = r->cex_kinds;
	for (int k = 0; k < DK__COUNT; k++)
		if (r->kind_execs[k])
			kinds |= DK_BIT(k);
	out(s, "%sa violation is reachable:%s", color_on(s, "\033[1;31m"), color_off(s));
	for (int k = 0, n = 0; k < DK__COUNT; k++)
		if ((kinds & r->violations) >> k & 1)
			out(s, "%s%s", n++ ? ", " : " ", vfs_kind_name(k));
	/* only counts that the input and jobs fix: the step-by-step search
	 * runs to its own end, but the stateful search beside it is stopped
	 * when the other finds one, after as many states as timing gave it */
	if (r->probe_delay)
		out(s, " (found in %.2f s by the preemption-bounded probe, a thread held back "
		    "once: %llu execution%s, %llu steps; then %llu state%s step by step)\n",
		    r->probe_seconds, (unsigned long long)r->probe_execs,
		    r->probe_execs == 1 ? "" : "s", (unsigned long long)r->probe_steps,
		    (unsigned long long)r->short_nodes, r->short_nodes == 1 ? "" : "s");
	else if (r->probe_found)
		out(s, " (found in %.2f s by the preemption-bounded probe at %d preemption%s: "
		    "%llu execution%s, %llu steps; then %llu state%s step by step)\n",
		    r->probe_seconds, r->probe_bound, r->probe_bound == 1 ? "" : "s",
		    (unsigned long long)r->probe_execs, r->probe_execs == 1 ? "" : "s",
		    (unsigned long long)r->probe_steps,
		    (unsigned long long)r->short_nodes, r->short_nodes == 1 ? "" : "s");
	else if (r->cex_shortest)
		out(s, " (found in %.2f s: %llu states searched step by step)\n",
		    r->seconds, (unsigned long long)r->short_nodes);
	else if (r->jobs == 1)
		out(s, " (found in %.2f s: %llu states, %llu more step by step)\n", r->seconds,
		    (unsigned long long)r->states, (unsigned long long)r->short_nodes);
	else
		out(s, " (found in %.2f s)\n", r->seconds);
	out(s, "%s counterexample: %d preemption%s, the violation at step %d (%d step%s "
	    "in);\n", r->cex_shortest ? "the shortest" : "a", r->cex_preemptions,
	    r->cex_preemptions == 1 ? "" : "s", vfs_world_step(x->snap) + r->cex_steps, r->cex_steps,
	    r->cex_steps == 1 ? "" : "s");
	/* (the bounded search cut short by its limit: what it checked) */
	if (!r->cex_shortest && r->cex_checked > 0)
		out(s, "none of fewer than %d preemption%s (every execution up to there "
		    "searched, not those of %d);\n", r->cex_checked,
		    r->cex_checked == 1 ? "" : "s", r->cex_checked);
	out(s, "'explore replay 1' steps through it, 'explore all' counts them all:\n");
	explore_print_cex(s, x, r->cex_steps ? r->cex_steps : r->cex_len);
}

void explore_print_stateful(struct session *s, const struct xstate *x, int engine,
			   const struct vfs_explore_opts *o)
{
	const struct vfs_explore_result *r = &x->r;
	out(s, "explored %llu distinct states, %llu transitions in %.2f s (%s, %d job%s; "
	    "states told apart by a 64-bit hash: P(collision) < %.1g)\n",
	    (unsigned long long)r->states, (unsigned long long)r->transitions,
	    r->seconds, r->complete ? "every reachable state" : "cut short",
	    r->jobs, r->jobs == 1 ? "" : "s", r->collision_p);
	if (o->naive)
		out(s, "step by step: every access visible (naive)\n");
	else
		out(s, "a transition is a block of %.1f steps on average: %d "
		    "location%s hidden by the locking that orders them, %d visible"
		    "%s\n", r->transitions ? (double)r->probes / (double)r->transitions : 0.0,
		    r->hidden_locs, r->hidden_locs == 1 ? "" : "s", r->visible_locs,
		    r->rounds > 1 ? " (the first guess was wrong: searched again)" : "");
	if (engine == ENG_ALL)
		out(s, "%llu distinct outcome%s ('explore outcomes' lists them)\n",
		    (unsigned long long)r->outcomes, r->outcomes == 1 ? "" : "s");
	if (!say_violations(s, r, r->complete ? "any reachable state" : "any explored state",
			    "violating transitions or states"))
		return;
	if (r->have_cex && r->jobs > 1 && !r->cex_shortest) {
		/* (the step-by-step search gave up: the path a worker kept
		 * depends on which worker reached each state first) */
		out(s, "a path to it, as a worker found it (another run may show another; "
		    "'explore save FILE' writes it):\n");
		explore_print_cex(s, x, r->cex_len);
	} else if (r->have_cex && !r->cex_shortest && r->cex_checked > 0) {
		/* (the bounded search's check cut short by its limit) */
		out(s, "a path to it of %d preemption%s, none of fewer (every execution up "
		    "to there searched, not those of %d; 'explore save FILE' writes it):\n",
		    r->cex_preemptions, r->cex_preemptions == 1 ? "" : "s", r->cex_checked);
		explore_print_cex(s, x, r->cex_len);
	} else if (r->have_cex && !r->cex_shortest) {
		/* (the step-by-step search did not find it within its
		 * limit: the search's own path, of fewest blocks, which may
		 * not be of fewest preemptions) */
		out(s, "a path to it of fewest blocks (the step-by-step search for the "
		    "shortest did not find it; 'explore save FILE' writes it):\n");
		explore_print_cex(s, x, r->cex_len);
	} else if (r->have_cex) {
		out(s, "a shortest path to it ('explore save FILE' writes it):\n");
		explore_print_cex(s, x, r->cex_len);
	}
}

void explore_print_dpor(struct session *s, const struct xstate *x,
			const struct vfs_explore_opts *o)
{
	const struct vfs_explore_result *r = &x->r;
	static const char *const cuts[] = { "complete", "stopped at max", "bounded",
		"interrupted", "too deep", "failed" };
	out(s, "explored %llu execution%s%s in %.2f s (%s%s, %d job%s): %llu distinct "
	    "outcome%s\n", (unsigned long long)r->executions, r->executions == 1 ? "" : "s",
	    o->naive ? " naively" : "", r->seconds, r->complete ? "every interleaving" :
	    cuts[r->cut < 6 ? r->cut : 5], r->complete || r->cut != XCUT_BOUND ? "" : " by preemptions",
	    r->jobs, r->jobs == 1 ? "" : "s", (unsigned long long)r->outcomes,
	    r->outcomes == 1 ? "" : "s");
	if (!say_violations(s, r, r->complete ? "any execution" : "any explored execution",
			    r->violating == 1 ? "violating execution" : "violating executions"))
		return;
	if (r->have_cex) {
		out(s, "first counterexample: execution %llu, %d preemption%s "
		    "('explore replay %llu' to step through it)\n",
		    (unsigned long long)r->cex_index, r->cex_preemptions,
		    r->cex_preemptions == 1 ? "" : "s", (unsigned long long)r->cex_index);
		explore_print_cex(s, x, r->cex_len);
	}
}

/* max N is one budget the parts of a search share (core/explore.h,
 * opts.max): what each used, in its units, "N units: P by the probe, S
 * by the search, C by the check" (the engines of executions: the search
 * alone) */
void explore_print_units(struct session *s, const struct xstate *x,
			 const struct vfs_explore_opts *o)
{
	const struct vfs_explore_result *r = &x->r;
	if (!o->max)
		return;
	unsigned long long n = r->units_probe + r->units_search + r->units_check;
	if (!r->stateful) {
		out(s, "max %llu: %llu units (executions) by the search\n",
		    (unsigned long long)o->max, n);
		return;
	}
	out(s, "max %llu: %llu units: %llu by the probe (executions), %llu by the search "
	    "(states), %llu by the check (executions)\n", (unsigned long long)o->max, n,
	    (unsigned long long)r->units_probe, (unsigned long long)r->units_search,
	    (unsigned long long)r->units_check);
}
