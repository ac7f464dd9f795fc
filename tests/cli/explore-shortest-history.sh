#!/usr/bin/env bash
# The shortest search tells states apart by their history too (issue 12).
# Under v6.4 A lseeks its directory /d (fd 3) in the set-up with the only
# reference, so without f_pos_lock: a read of f_pos that B is not ordered
# after.  Then A lseeks the regular file /f it shares with B (f_pos_lock
# taken and let go) and copies its fd 3 to fd 6 (pidfd_getfd on itself);
# B lseeks /f, steals A's fd 6 and getdents on it (a write of /d's f_pos).
# B's write races with A's read only when B took /f's f_pos_lock before A
# did (A's release would order B after A's read), and B reaches the write
# only after A made fd 6: the race needs 1 preemption (B*7 A*13 B*17;
# `explore bound 0` finds none, `bound 1` and naive find it).  The cheaper
# path, A first, reaches the same states but with B ordered after the
# read; the step-by-step search told states apart without that history,
# kept the cheaper path's and printed a counterexample of 2 preemptions
# as the shortest.  Plain explore and `explore stateful jobs 1` now print
# the one of 1 preemption, the same schedule.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/cli/lib/scenario.bash"

{ scenario_head v6.4 2; cat <<'V'
A: open /d
A: open /f
A: lseek 3 0 set
A: pidfd_open A
B: pidfd_open A
B: pidfd_getfd 3 4
A: lseek 4 0 cur &
A: pidfd_getfd 5 3 &
B: lseek 4 0 cur &
B: pidfd_getfd 3 6 &
B: getdents 5 2 &
V
} >setup.vfs
race='race on f_pos of file#1: step 13 A ext4_dir_llseek read \(no locks held\), and step [0-9]+ B iterate_dir write'
# the truth: no race without a preemption, one with 1
explore_run 'explore bound 0'
grep -q '^no violation in any explored execution' explore-bound-0.out ||
    fail "bound 0: $(tail -n 3 explore-bound-0.out)"
explore_run 'explore bound 1'
grep -Eq "$race" explore-bound-1.out || fail "bound 1: $(tail -n 3 explore-bound-1.out)"
grep -Eq '^first counterexample: execution [0-9]+, 1 preemption ' explore-bound-1.out ||
    fail "bound 1: $(grep '^first counterexample' explore-bound-1.out)"
engines_find "$race"
shortest_agree 'the shortest counterexample: 1 preemption, the violation at step 59'
# its token replays to the race
explore_run "explore replay $(sed -n 's/^schedule: //p' explore.out)"
grep -Eq "$race" explore-replay-*.out || fail "replay: $(tail -n 5 explore-replay-*.out)"
echo ok
