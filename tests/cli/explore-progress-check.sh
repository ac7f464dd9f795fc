#!/usr/bin/env bash
# Once plain `explore` has a counterexample, the bounded search checks it
# has the fewest preemptions (core/explore_shortest.c, xs_fewest_bounded:
# every execution of 0 preemptions, then 1, ... up to XS_BOUND_STEPS
# steps).  The ABBA deadlock of two renames without s_vfs_rename_mutex
# beside twelve v6.5 thieves of four calls (tests/cli/explore-probe-
# delay.sh) needs one preemption: the probe finds it at once, and the
# check must search every execution of none (13! orders), its
# 10,000,000 steps, a few seconds (nine v6.4 thieves of two calls did it
# before: their race needs none, and the check now runs no execution
# past the counterexample's steps there).  It has the progress line of
# the bounded search (issue 12: a line on stderr every 2 s once a search
# runs past 2 s), and Ctrl-C once the line came stops it with the answer
# the searches had: a counterexample, the prompt's world kept.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/cli/lib/interrupt.bash"
. "$top/tests/interactive/lib/thieves.bash"

abba_script s.vfs 4 B C D E F G H I J K L M
line='^explore: [0-9]+ executions, [0-9]+/s, [0-9]+ s'
interrupt_at_line s.vfs 'explore' "$line" 'the check'
grep -q '^a violation is reachable' out || fail "no verdict after the stop: $(cat out)"
grep -Eq '^(a|the shortest) counterexample: [0-9]+ preemptions?' out ||
    fail "no counterexample after the stop: $(cat out)"
progress_said "$line" 'the check'
