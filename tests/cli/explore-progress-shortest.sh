#!/usr/bin/env bash
# Plain `explore` runs the search for the shortest counterexample beside
# the stateful one; when the stateful search is over and the shortest
# search still runs alone, that phase has its progress line too (issue
# 12: a line on stderr every 2 s once a search runs past 2 s, off a
# terminal a line each time): the states it searched step by step, its
# rate, the preemptions and steps it is at, the seconds.  The search: the
# thieves scenario with nine thieves of four calls on v6.5 (v5.6's race
# the preemption-bounded probe, run first, finds at once) and `max
# 1000000`, one budget (core/explore_probe.c, xs_spend): what the probe
# leaves, half each for the two searches: the stateful search stops at
# its about 500,000 states, the shortest search (paced to an eighth of
# them until then) goes on alone to its own limit, the other half, about
# 3 s on a quiet machine (with seven thieves the stateful search got fast
# enough that the phase alone ended before 2 s: no line).
# Interrupted once the line came.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/cli/lib/interrupt.bash"

line='^explore: the shortest counterexample: [0-9]+ states step by step, [0-9]+/s, at [0-9]+ preemptions? and [0-9]+ steps, [0-9]+ s$'
thieves_interrupt v6.5 4 'explore max 1000000' "$line" 'the shortest search alone'
# it comes after the stateful search's own lines, if any, never before
first=$(grep -En "$line" err | head -n 1 | cut -d: -f1)
[ -z "$(sed -n "$((first + 1)),\$p" err | grep -E '^explore: [0-9]+ states')" ] ||
    fail "a stateful line after the shortest search's: $(cat err)"
# every line of stderr is a progress line, one whole line each
[ -z "$(grep -Ev "$line|^explore: [0-9]+ states, " err)" ] ||
    fail "other lines on stderr: $(cat err)"
progress_said "$line" 'the shortest search alone'
