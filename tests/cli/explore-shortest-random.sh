#!/usr/bin/env bash
# The shortest counterexample has the fewest preemptions by the clocks'
# definition of a race (issue 12): whatever plain `explore` prints as
# "the shortest counterexample: P preemptions", `explore bound P-1` (every
# interleaving of fewer preemptions, with the clocks: the reference)
# finds no violation and `explore bound P` finds one.  The step-by-step
# search alone decides a race between two steps enabled at one state and
# missed races between steps far apart in a run: before, 12 of the 14
# counterexamples of these 100 scenarios printed as "the shortest" had 1
# preemption where bound 0 finds a violation.
# 100 random scenarios of explore-sleep-random.sh's generator, from a
# fixed seed (SHORTEST_RANDOM_N, SHORTEST_RANDOM_SEED: how many, which).
# Then /work/notes' farrace: a race of steps 32 and 47, 0 preemptions,
# printed as one of 1 preemption before.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/cli/lib/scenario.bash"

n=${SHORTEST_RANDOM_N:-100}
RANDOM=${SHORTEST_RANDOM_SEED:-15}

bad=0 ncex=0
for ((i = 1; i <= n; i++)); do
    scenario_random >s$i.vfs
    scenario_vfsim s$i.vfs explore >out
    line=$(grep 'counterexample: [0-9]* preemption' out) || continue
    grep -q '^the shortest counterexample: ' out ||
        fail "scenario $i: not the shortest: $line"
    p=$(sed -n 's/^the shortest counterexample: \([0-9]*\) preemption.*/\1/p' out)
    ncex=$((ncex + 1))
    if ((p > 0)) && scenario_vfsim s$i.vfs "explore bound $((p - 1))" | grep -q 'violating execution'; then
        echo "scenario $i: $line, but bound $((p - 1)) finds one:"
        cat s$i.vfs
        bad=$((bad + 1))
        continue
    fi
    scenario_vfsim s$i.vfs "explore bound $p" | grep -q 'violating execution' || {
        echo "scenario $i: $line, but bound $p finds none:"
        cat s$i.vfs
        bad=$((bad + 1))
    }
done
[ "$bad" = 0 ] || fail "$bad of $ncex counterexamples are not of the fewest preemptions"
((ncex > 0)) || fail "none of the $n scenarios has a counterexample"

# farrace: A and B list /d on their own fds 3; B lists its fd 3 twice,
# A steals B's fd 3 and lists it: B's second write of f_pos and A's read
# race when B runs first to its end (0 preemptions)
{ scenario_head v6.4 2; cat <<'V'
A: open /d
B: open /d
B: open /g
A: pidfd_open B
A: pidfd_getfd 4 3 &
A: getdents 5 2 &
B: getdents 3 2 &
B: getdents 3 2 &
V
} >farrace.vfs
scenario_vfsim farrace.vfs explore >out
grep -q '^the shortest counterexample: 0 preemptions, the violation at step 47 ' out ||
    fail "farrace: $(grep counterexample out)"
grep -q '^schedule: B\*20 A\*17$' out || fail "farrace: $(grep '^schedule' out)"
echo "ok: $n random scenarios, $ncex counterexamples of the fewest preemptions (explore bound agrees); farrace"
