#!/usr/bin/env bash
# The same input gives the same answer every run (issue 12): on the racy
# v6.4 pidfd thieves, plain explore (its stateful search and the
# step-by-step shortest search beside it, which used to race), plain
# explore with two jobs and `explore stateful jobs 2` (two workers sharing
# the visited table) print byte for byte the same verdict, counts,
# counterexample table and schedule token in 10 runs each, and so do the
# replays of what they found (`explore replay 1`, `explore replay
# duplicate`).  Only the seconds a search took are left out, and with two
# workers in the stateful search the transitions it took (sleep sets with
# several workers expand a state again when a search of a lesser rank
# reaches it after another: how often depends on timing; core/
# explore_sleep.c).
# norm E: explore_norm, and E's transitions when E has two workers
norm() {
    if [ "$1" = 'explore stateful jobs 2' ]; then
        explore_norm | sed -E 's/, [0-9]+ transitions/, N transitions/'
    else
        explore_norm
    fi
}
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"

setup() {
    cat <<'V'
kernel v6.4
mkdir /d
touch /d/a /d/b /d/c
spawn A
spawn B
spawn C
A: open /d
B: pidfd_open A
C: pidfd_open A
A: getdents 3 2 &
A: getdents 3 2 &
B: pidfd_getfd 3 3 &
B: getdents 4 2 &
C: pidfd_getfd 3 3 &
C: getdents 4 2 &
V
}
for e in explore 'explore jobs 2' 'explore stateful jobs 2'; do
    name=${e// /-}
    { setup; echo "$e"; echo "explore replay 1"; echo "explore replay duplicate"; } >"$name.vfs"
    for i in $(seq 1 10); do
        NO_COLOR=1 "$vfsim" -q "$name.vfs" </dev/null 2>&1 | norm "$e" >"$name.$i"
        grep -q 'schedule: ' "$name.$i" || fail "$e: no counterexample: $(head -n 20 "$name.$i")"
        grep -q 'duplicate entry' "$name.$i" || fail "$e: the replay shows no duplicate"
        cmp -s "$name.1" "$name.$i" ||
            fail "$e: run $i differs from run 1: $(diff "$name.1" "$name.$i" | head -n 8)"
    done
    echo "ok: $e: 10 runs alike ($(grep -m1 -o 'schedule: .*' "$name.1"))"
done

# A race only the set-up's clocks reveal: the stateful search's
# counterexample has fewer preemptions than the step-by-step search's own
# best candidate, and bounding the step-by-step search by it (once it was
# known, i.e. after a time that varies) made its count vary: "31, 106 or
# 120 more step by step" under load.  Run beside a busy loop.
busy() { while :; do :; done; }
busy & b1=$!
busy & b2=$!
trap 'kill $b1 $b2 2>/dev/null; rm -rf "$d"' EXIT
for i in $(seq 1 10); do
    NO_COLOR=1 "$vfsim" -q "$top/tests/scenarios/explore-stateful-history-race.vfs" </dev/null 2>&1 |
        explore_norm >"hist.$i"
    grep -q 'a violation is reachable' "hist.$i" || fail "history race: no violation: $(head -n 20 "hist.$i")"
    cmp -s "hist.1" "hist.$i" ||
        fail "history race: run $i differs from run 1: $(diff "hist.1" "hist.$i" | head -n 8)"
done
kill $b1 $b2 2>/dev/null
echo "ok: the history race: 10 runs alike under load ($(grep -m1 -o 'found in.*' "hist.1"))"
