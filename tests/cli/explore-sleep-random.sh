#!/usr/bin/env bash
# Sleep sets, one worker against several (issue 12): the stateful search
# skips the blocks that commute with one already taken (core/
# explore_sleep.c); with one worker by the least path, with several by
# ranks, a state expanded again when a search of a lesser rank reaches it
# (tests/unit/test_sleep.c compares both with the search without sleep
# sets).  Either way it must find the same states (the nodes of
# the merged graph), the same verdict, violations and counts, the same
# counterexample and token, and `explore all` the same outcomes.  150 small
# scenarios made at random from a fixed seed (the same ones every run): 2
# or 3 processes under one of six kernels, each opening some of two
# directories and two regular files, some stealing another's fd with
# pidfd_getfd or dup'ing one, then 1 to 3 pending calls each among
# getdents, lseek, read, close, dup and pidfd_getfd, explored with
# `explore stateful` and `explore all`, jobs 1 beside jobs 2 (the
# counterexample too: fewest preemptions, then fewest steps, either way).
# SLEEP_RANDOM_N, SLEEP_RANDOM_SEED: how many, from which seed;
# SLEEP_RANDOM_JOBS: the jobs beside 1 (2).  The jobs run has a frontier
# of SLEEP_RANDOM_SPLIT items per worker (1; VFSIM_TEST_SPLIT: 128 by
# default, which these scenarios never reach), so that several workers
# and their ranks really run here (fewer than 1 in 100 split before).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/cli/lib/scenario.bash"

n=${SLEEP_RANDOM_N:-150}
jobs=${SLEEP_RANDOM_JOBS:-2}
split=${SLEEP_RANDOM_SPLIT:-1}
RANDOM=${SLEEP_RANDOM_SEED:-12}
# norm: an explore's output without what the workers change: the time,
# the transitions taken and the blocks' mean length (sleep sets take
# fewer), the number of jobs; the outcomes as a set (each one line, its
# results sorted, its schedule left out: the first found, their order
# and the order of its calls' results depend on the order of the
# search, on main too)
norm() {
    explore_norm | sed -E 's/, [0-9]+ transitions//; s/[0-9]+ jobs?/J jobs/g;
        /^a transition is a block of/d' |
    awk 'function flush(  i, j, t) {   # an outcome: its lines sorted
             for (i = 2; i <= n; i++)
                 for (j = i; j > 1 && l[j - 1] > l[j]; j--) {
                     t = l[j]; l[j] = l[j - 1]; l[j - 1] = t
                 }
             t = "outcome:"
             for (i = 1; i <= n; i++) t = t l[i]
             if (n >= 0) print t | "sort"
             n = -1
         }
         BEGIN { n = -1 }
         /^outcome [0-9]+: schedule/ { flush(); n = 0; next }
         n >= 0 && /^  / { l[++n] = $0; next }
         { flush(); print }
         END { flush() }'
}

# counts: what jobs 2 must find as jobs 1 does: the states, the verdict
# and the violations' counts, the outcomes, and the shortest
# counterexample (the step-by-step search gives the one the input alone
# fixes, whatever jobs is: its table and its token).  When that search
# does not find it ("a path to it"), the path shown is the search's own,
# which with several workers depends on timing: left out.
counts() {
    if grep -q '^a path to it' "$1"; then
        grep -v '^ \|^schedule: \|^a path to it\|^engine: ' "$1"
    else
        grep -v '^engine: ' "$1"
    fi
}

run() {     # run SCENARIO ENGINE JOBS: the explore's output, normalised
    local outcomes=()
    [ "$2" = all ] && outcomes=("explore outcomes")
    scenario_vfsim "$1" "explore $2 jobs $3" "${outcomes[@]}" |
        sed -n '/^engine: /,$p' | norm
}

bad=0 nstates=0 nviol=0
for ((i = 1; i <= n; i++)); do
    scenario_random >s$i.vfs
    for e in stateful all; do
        run s$i.vfs $e 1 >out.$e.sleep
        VFSIM_TEST_NO_SLEEP=1 run s$i.vfs $e 1 >out.$e.nosleep
        VFSIM_TEST_SPLIT=$split run s$i.vfs $e "$jobs" >out.$e.jobs2
        grep -q '^explored ' out.$e.sleep ||
            fail "scenario $i: explore $e printed no count: $(cat s$i.vfs out.$e.sleep)"
        if ! cmp -s out.$e.sleep out.$e.nosleep; then
            echo "scenario $i, explore $e: with and without sleep sets, one job, differ:"
            cat s$i.vfs
            diff out.$e.sleep out.$e.nosleep | head -n 20
            bad=$((bad + 1))
        fi
        if ! cmp -s <(counts out.$e.sleep) <(counts out.$e.jobs2); then
            echo "scenario $i, explore $e: jobs 1 and jobs $jobs differ:"
            cat s$i.vfs
            diff <(counts out.$e.sleep) <(counts out.$e.jobs2) | head -n 20
            bad=$((bad + 1))
        fi
    done
    s=$(sed -n 's/^explored \([0-9]*\) distinct states.*/\1/p' out.stateful.sleep)
    nstates=$((nstates + s))
    grep -q ' violating transitions or states' out.stateful.sleep && nviol=$((nviol + 1))
done
[ "$bad" = 0 ] || fail "$bad of $((4 * n)) comparisons differ"
echo "ok: $n random scenarios ($nstates states; $nviol with a violation): sleep sets find what the search without them finds"
