#!/usr/bin/env bash
# Ctrl-D at an empty prompt leaves cleanly (status 0), after finishing the line.
. "$(dirname "$0")/lib/tmux.bash"
start -c 'spawn A' -i
typein 'ps'
keys Enter
wait_line '^A +100 '
keys C-d
wait_exit
[ "$exit_status" = 0 ] || fail "exit status $exit_status after Ctrl-D"
