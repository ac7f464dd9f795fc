#!/usr/bin/env bash
# Tab completes a path of the simulated tree (not of the host's).
. "$(dirname "$0")/lib/tmux.bash"
needs_editor
start -c 'mkdir /d/sub /dummy-not' -c 'touch /d/sub/file' -c 'spawn A' -i
typein 'A: open /d'
keys Tab Tab
wait_for 'dummy-not/'
keys C-u
typein 'A: open /d/'
keys Tab
wait_line "$PROMPT_RE"'A: open /d/sub/$'
keys Tab
wait_line "$PROMPT_RE"'A: open /d/sub/file$'
keys Enter
wait_for 'A: openat("/d/sub/file", O_RDONLY) = 3'
typein 'quit'
keys Enter
wait_exit
