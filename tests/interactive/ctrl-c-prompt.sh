#!/usr/bin/env bash
# Ctrl-C at the prompt drops the line being typed and gives a new prompt.
. "$(dirname "$0")/lib/tmux.bash"
start
typein 'echo must-not-run'
wait_for 'echo must-not-run'
keys C-c
wait_count 'vfsim v6.5>' 2
typein 'echo after-ctrl-c'
keys Enter
wait_line '^after-ctrl-c$'
t_has_line '^must-not-run$' && fail "the dropped line ran"
typein 'quit'
keys Enter
wait_exit
[ "$exit_status" = 0 ] || fail "exit status $exit_status"
