#!/usr/bin/env bash
# Plain `explore` finds, at size, a violation that needs one preemption
# (issue 12): the ABBA deadlock of two renames without s_vfs_rename_mutex
# (`set rename-lock no-mutex`: R renames /a/x to /b/x, S /b/y to /a/y)
# beside the thieves of v6.5 (twelve of four calls, no violation of
# their own).  `explore bound 0` finds nothing (R, then S, each alone:
# no deadlock), `bound 1` finds it; but the executions of no preemption
# (the orders the fourteen other threads run in) are far more than the
# preemption-bounded probe's steps, so it never got to one preemption,
# and the searches after it took some 45 s of CPU for a counterexample
# of two preemptions.  Now the probe's one delay (core/explore_probe.c,
# delay_probe: a round robin with one thread held back once) finds it:
# the answer says so, the counterexample has at most one preemption and
# its schedule token replays, in a fresh session, to the deadlock.
# (timeout: a search that finds nothing is stopped, SIGTERM, and the test
# fails instead of hanging; no time is asserted.)
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/interactive/lib/thieves.bash"
. "$top/tests/cli/lib/scenario.bash"

abba_script s.vfs 4 B C D E F G H I J K L M
probe_find deadlock ', a thread held back once' deadlock
echo "ok: $(grep -m1 -o 'found in.*' out | sed -E 's/in [0-9.]+ s/in T s/'); $pre preemption(s); the token replays"
