#!/usr/bin/env bash
# Tab completes a command after "THREAD: ", and a command at the start.
. "$(dirname "$0")/lib/tmux.bash"
needs_editor
start -c 'spawn A' -c 'mkdir /d' -i
typein 'A: get'
keys Tab
wait_line "$PROMPT_RE"'A: getdents$'
keys C-u
typein 'wh'
keys Tab
wait_line "$PROMPT_RE"'where$'
keys C-u
typein 'kernel v6.'
keys Tab
keys Tab
wait_for 'v6.4'
wait_for 'v6.5'
keys C-u 'quit' Enter
wait_exit
[ "$exit_status" = 0 ] || fail "exit status $exit_status"
