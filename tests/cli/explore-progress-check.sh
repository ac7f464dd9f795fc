#!/usr/bin/env bash
# Once plain `explore` has a counterexample, the bounded search checks it
# has the fewest preemptions (core/explore_shortest.c, xs_fewest_bounded:
# every execution of 0 preemptions, then 1, ... up to XS_BOUND_STEPS
# steps).  With nine thieves of two calls under v6.4 that check
# alone runs its 10,000,000 steps of 0 preemptions (10! orders), a few
# seconds, after a search of under a second: it has the progress line of
# the bounded search (issue 12: a line on stderr every 2 s once a search
# runs past 2 s), and Ctrl-C once the line came stops it with the answer
# the searches had: a counterexample, the prompt's world kept.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/cli/lib/interrupt.bash"

line='^explore: [0-9]+ executions, [0-9]+/s, [0-9]+ s'
thieves_interrupt v6.4 2 'explore' "$line" 'the check'
grep -q '^a violation is reachable' out || fail "no verdict after the stop: $(cat out)"
grep -Eq '^(a|the shortest) counterexample: [0-9]+ preemptions?' out ||
    fail "no counterexample after the stop: $(cat out)"
progress_said "$line" 'the check'
