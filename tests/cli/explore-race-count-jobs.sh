#!/usr/bin/env bash
# The stateful search counts violating transitions and states (issue 12):
# a count of the state graph, so one worker and several must give the
# same.  Here the set-up's own accesses (the opens before explore) turn
# the vector clocks on, and B steals C's fd 3 and lists it while C reads
# it: one race, B's iterate_dir write of f_pos against C's ksys_read read,
# found at the one state where both are enabled.  The clocks also saw it,
# or not, on the transitions that ran the second of the two, as the path
# by which the search first reached their state happened to order them:
# "race in 2" with one worker, "race in 3" with two (jobs-race-count.vfs,
# shrunk).  Now the clocks count only the races with the set-up's
# accesses, a property of the state (its history); the races of two
# steps of the search are the compared steps' (explore_stateful.h,
# counts_kinds).  Same for `explore all`.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"

cat >steal.vfs <<'V'
kernel v5.6
mkdir /d /e
spawn A
spawn B
spawn C
A: open /d
B: open /d
C: open /d
A: getdents 3 1 &
B: pidfd_open A
B: pidfd_getfd 4 3 &
B: getdents 5 1 &
B: pidfd_open C
B: pidfd_getfd 6 3 &
B: getdents 7 1 &
C: read 3 1 &
V
for e in stateful all; do
    for j in 1 2 3; do
        { cat steal.vfs; echo "explore $e jobs $j"; } >run.vfs
        NO_COLOR=1 "$vfsim" -q run.vfs </dev/null >out.$e.$j 2>&1
        grep -q '^explored 37 distinct states' out.$e.$j ||
            fail "explore $e jobs $j: not 37 states: $(head -n 20 out.$e.$j)"
        v=$(grep ' violating transitions or states' out.$e.$j)
        [ "$v" = "1 violating transitions or states: race in 1" ] ||
            fail "explore $e jobs $j: '$v', expected one race (at one state)"
    done
done
echo "ok: explore stateful and all count one race with 1, 2 and 3 workers"
