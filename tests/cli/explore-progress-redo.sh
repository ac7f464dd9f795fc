#!/usr/bin/env bash
# `explore stateful` and `explore all` with several workers search again,
# once the stateful search is over, for the shortest counterexample and
# the shortest one of each kind the workers found (the step-by-step
# search, so that they do not depend on which worker got where first).
# That search is no silent one either (issue 12: a line on stderr every
# 2 s once a search runs past 2 s, off a terminal a line each time): the
# states it searched step by step, its rate, the preemptions and steps it
# is at, the seconds; a kind's own search names the kind.  Ctrl-C stops
# it, and explore reports what it covered.
# The scenario: lesson 7's race (A lists /d, B steals the fd with
# pidfd_getfd and lists it, v5.6), beside ten threads that each seek a
# file of their own three times.  Their steps are invisible to the
# others, so the stateful search has some 80 states; the step-by-step
# search interleaves them step by step: `max 600000` states, one budget
# the stateful search and the three searches again (the counterexample,
# the duplicate, the race) share in turn (core/explore_probe.c,
# xs_spend): seconds on a fast machine.  Interrupted once the line came.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/cli/lib/interrupt.bash"

noise_script() {
    local file=$1 n=10 calls=3 i k
    {
        echo 'kernel v5.6'
        echo 'mkdir /d'
        echo 'touch /d/a /d/b /d/c'
        echo 'spawn A'
        echo 'A: open /d'
        echo 'spawn B'
        echo 'B: pidfd_open A'
        for i in $(seq 1 $n); do echo "spawn N$i"; echo "touch /n$i"; echo "N$i: open /n$i"; done
        echo 'A: getdents 3 2 &'
        echo 'B: pidfd_getfd 3 3 &'
        echo 'B: getdents 4 2 &'
        for i in $(seq 1 $n); do
            for k in $(seq 1 $calls); do echo "N$i: lseek 3 0 &"; done
        done
    } >"$file"
}

line='^explore: the shortest counterexample( \((duplicate|race)\))?: [0-9]+ states step by step, [0-9]+/s, at [0-9]+ preemptions? and [0-9]+ steps, [0-9]+ s$'
for engine in stateful all; do
    noise_script s.vfs
    interrupt_at_line s.vfs "explore $engine max 600000 jobs 2" "$line" "the search again (explore $engine)"
    # every line of stderr is a progress line, one whole line each
    [ -z "$(grep -Ev "$line" err)" ] || fail "explore $engine: other lines on stderr: $(cat err)"
    # stopped, it reports what it covered: every state, then the rest
    [ "$rc" -eq 0 ] || fail "explore $engine: exit $rc: $(cat out err)"
    grep -q "^engine: $engine (2 jobs)" out || fail "explore $engine: no report: $(cat out)"
    grep -Eq '^explored [0-9]+ distinct states, .*\(every reachable state, 2 jobs' out ||
        fail "explore $engine: not the whole state graph: $(cat out)"
    progress_said "$line" "the search again (explore $engine)"
done
