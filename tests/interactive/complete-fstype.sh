#!/usr/bin/env bash
# Tab after `mount ` offers the filesystem types the script defined (fs
# define), beside the built-in ones; `fs ` offers list and define.  A bad
# definition at the prompt is one line and the session goes on.
. "$(dirname "$0")/lib/tmux.bash"
needs_editor
start -c 'fs define myexfat iterate exfat_iterate' -i
typein 'mount mye'
keys Tab
wait_line "$PROMPT_RE"'mount myexfat ?$'
typein '/x'
keys Enter
typein 'ls /'
keys Enter
wait_line '^  x/  \(offset 2\)  \[myexfat\]$'
# the built-in ones are still offered
typein 'mount exf'
keys Tab
wait_line "$PROMPT_RE"'mount exfat ?$'
keys C-u
typein 'fs def'
keys Tab
wait_line "$PROMPT_RE"'fs define ?$'
keys C-u
# a bad definition at the prompt: one line, and the session goes on
typein 'fs define bad iterate exfat_iter'
keys Enter
wait_line "^vfsim: column 23: fs define: unknown iterator 'exfat_iter' \\(did you mean 'exfat_iterate'\\?\\)$"
typein 'fs list'
keys Enter
wait_line '^myexfat +exfat_iterate +wrap_directory_iterator .*\(defined in the script\)$'
typein 'quit'
keys Enter
wait_exit
[ "$exit_status" = 0 ] || fail "exit status $exit_status"
