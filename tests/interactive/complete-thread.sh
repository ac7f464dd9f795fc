#!/usr/bin/env bash
# Tab completes thread names: after "step", and "NAME:" at the start of a line.
. "$(dirname "$0")/lib/tmux.bash"
needs_editor
start -c 'spawn A' -c 'spawn AB' -c 'spawn Zed' -i
typein 'step Z'
keys Tab
wait_line "$PROMPT_RE"'step Zed$'
keys C-u
# A and AB: the first Tab stops at the common part, the second lists both
typein 'step A'
keys Tab Tab
wait_line '(^| )AB( |$)'
wait_line "$PROMPT_RE"'step A$'
keys C-u
typein 'Ze'
keys Tab
wait_line "$PROMPT_RE"'Zed:$'
keys C-u 'quit' Enter
wait_exit
