#!/usr/bin/env bash
# History is appended to $VFSIM_HISTFILE and read back by the next session.
. "$(dirname "$0")/lib/tmux.bash"
needs_editor
export VFSIM_HISTFILE=$t_tmp/hist/vfsim-history
mkdir -p "$t_tmp/hist"
start
typein 'echo remembered-line-1'
keys Enter
wait_line '^remembered-line-1$'
typein 'quit'
keys Enter
wait_exit
grep -qxF 'echo remembered-line-1' "$VFSIM_HISTFILE" ||
    fail "the history file does not have the line: $(cat "$VFSIM_HISTFILE" 2>&1)"

# a second session: Up, Up finds the line before "quit"
tm kill-server
start
keys Up
wait_line "$PROMPT_RE"'quit$'
keys Up
wait_line "$PROMPT_RE"'echo remembered-line-1$'
keys Enter
wait_count 'remembered-line-1' 2
wait_line '^remembered-line-1$'
typein 'quit'
keys Enter
wait_exit
[ "$(grep -cxF 'echo remembered-line-1' "$VFSIM_HISTFILE")" -ge 2 ] ||
    fail "the recalled line was not appended again"
