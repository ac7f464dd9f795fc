#!/usr/bin/env bash
# Plain `explore` finds a broken kernel's race at any size (issue 12):
# twelve thieves of four calls under v6.4, where the stateful search gets
# lost deep in the graph and the step-by-step search stays in its first
# layer (nothing in 100 s before the preemption-bounded probe,
# core/explore_stateful_run.c), while the race needs no preemption.  The
# answer: a violation, found by the probe, a counterexample of at most
# one preemption whose schedule token replays, in a fresh session, to the
# same race.  (timeout: a search that finds nothing is stopped, SIGTERM,
# and the test fails instead of hanging; no time is asserted.)
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/interactive/lib/thieves.bash"
. "$top/tests/cli/lib/scenario.bash"
case $vfsim in /*) ;; *) vfsim=$OLDPWD/$vfsim ;; esac

thieves_script s.vfs v6.4 4 B C D E F G H I J K L M
probe_find race ' at 0 preemptions' 'race f_pos'
# the check of fewest steps at its preemptions runs no execution past
# its steps (core/explore_shortest.c): it completes, where it ran its
# 10,000,000 steps in vain before ("a counterexample", 3 s)
grep -q '^the shortest counterexample: 0 preemptions' out ||
    fail "the check did not complete: $(grep -E '^(a|the shortest) counterexample' out)"
echo "ok: $(grep -m1 -o 'found in.*' out | sed -E 's/in [0-9.]+ s/in T s/'); $pre preemption(s); $token replays"
