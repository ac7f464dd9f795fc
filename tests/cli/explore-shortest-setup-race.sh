#!/usr/bin/env bash
# A race with an access of the set-up (issue 12): under v6.4 A lseeks its
# directory fd 3 while it holds the only reference (fdget_pos takes no
# f_pos_lock), then B steals the file with pidfd_getfd and getdents on it
# with the lock: nothing orders the two (the bug 20ea1e7d13c1 mends).  No
# state of the search holds both steps enabled, the read is made before
# explore; the step-by-step search for the shortest once compared only
# two enabled steps and never found it ("a counterexample", "a path to it
# of fewest blocks").  Plain explore, `explore stateful jobs 1` and DPOR
# all report the race of step 41; the first two the shortest
# counterexample, with its preemptions, the same.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/cli/lib/scenario.bash"

# (the kind explore-sleep-random.sh makes at random)
{ scenario_head v6.4 3; cat <<'V'
A: open /d
A: open /d
B: open /e
C: open /e
C: open /f
B: pidfd_open A
B: pidfd_getfd 4 4
C: pidfd_open B
C: pidfd_getfd 5 5
A: lseek 3 0 set &
A: pidfd_open B
A: pidfd_getfd 5 3 &
A: getdents 6 2 &
B: pidfd_open A
B: pidfd_getfd 6 3 &
B: getdents 7 2 &
C: getdents 4 2 &
V
} >setup.vfs
race='race on f_pos of file#1: step 41 A ext4_dir_llseek read \(no locks held\), and step [0-9]+ B iterate_dir write'
engines_find "$race"
for name in explore explore-stateful-jobs-1 explore-dpor; do
    ! grep -q 'a path to it\|^a counterexample' "$name.out" ||
        fail "$name: the step-by-step search did not find it: $(grep 'path to it\|counterexample' "$name.out")"
done
shortest_agree 'the shortest counterexample: 0 preemptions, the violation at step 61'
echo ok
