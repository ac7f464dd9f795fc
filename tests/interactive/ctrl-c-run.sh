#!/usr/bin/env bash
# Ctrl-C during a long `run` returns to the prompt; the world is intact.
# VFSIM_TEST_STEP_DELAY_US (a hidden test knob) makes each step of `run` slow.
. "$(dirname "$0")/lib/tmux.bash"
script=$t_tmp/long.vfs
{
    echo 'mkdir /d'
    for i in $(seq 1 20); do echo "touch /d/f$i"; done
    echo 'spawn A'
    echo 'A: open /d'
    for i in $(seq 2 8); do echo 'A: clone'; done
    for t in A A.2 A.3 A.4 A.5 A.6 A.7 A.8; do
        for k in 1 2 3 4; do echo "$t: getdents 3 1 &"; done
    done
    echo 'sched random 1'
} >"$script"
export VFSIM_TEST_STEP_DELAY_US=20000    # 50 steps a second: the run takes minutes
start -i "$script"
typein 'run'
keys Enter
# let it get going, then interrupt it
poll 10 t_has_line '= 1 \[' || fail "the run produced no result"
keys C-c
wait_line 'interrupted after [0-9]+ steps'
wait_count 'vfsim v6.5>' 2
typein 'ps'
keys Enter
wait_line '^A\.8 +100 '
typein 'step A'
keys Enter
alive_then_quit
