#!/usr/bin/env bash
# Issue 16, as a student meets vfsim on an 80-column terminal: the welcome,
# `lessons 7 step` (paused: Enter for the next part, q to stop, commands
# shown), a traced `step` and an untraced one that says what it ran, long
# output through $PAGER, and no line over 80 columns; then Ctrl-C in a long
# script run: the output so far kept, a one-line note, exit status 130.
. "$(dirname "$0")/lib/tmux.bash"
top=$(cd "$(dirname "$0")/../.." && pwd)
export T_COLS=80 T_ROWS=40
export LC_ALL=C.UTF-8           # ${#line} counts characters
pager=$t_tmp/pager
printf '#!/bin/sh\necho "(paged by the test pager)"\nexec cat\n' >"$pager"
chmod +x "$pager"
export PAGER=$pager

start -i "$top/examples/00-welcome.vfs"
wait_for 'Welcome to vfsim'
wait_for 'Or by hand'

# a lesson, paused between its parts, its commands shown
typein 'lessons 7 step'
keys Enter
wait_for '-- Enter: the next part, q: stop the lesson --'
wait_line '^> A: open /d$'
wait_for 'A: openat("/d", O_RDONLY) = 3'
t_has '> A: getdents 3 2 &' && fail "the second part ran before Enter"
keys Enter
wait_line '^> A: getdents 3 2 &$'
wait_line '^> step A until ext4_readdir$'
wait_count '-- Enter: the next part' 2
wait_for '! race on f_pos'                 # the detector, as it fires
typein 'q'
keys Enter
wait_for 'the lesson stops here'
t_has 'C: pidfd_getfd(3, 3) = -1 EPERM' && fail "the lesson went on after q"

# a traced step, then an untraced one that says what it ran
typein 'reset'
keys Enter
for l in 'mkdir /t' 'spawn T' 'T: open /t' 'T: getdents 3 &' 'trace on' 'step T'; do
    typein "$l"
    keys Enter
done
wait_line '^ +[0-9]+ T +getdents64 +enter'
typein 'trace off'
keys Enter
typein 'step T'
keys Enter
wait_line '^step [0-9]+ T: fdget_pos .*; next: '

# long output goes through the pager; nothing is wider than the screen
typein 'help'
keys Enter
wait_for '(paged by the test pager)'
wait_for "'help COMMAND' says more"
typein 'reports'
keys Enter
typein 'echo end-of-screen'
keys Enter
wait_line '^end-of-screen$'
# characters, not bytes (the timeline draws with UTF-8 box characters)
wide=$(screen | while IFS= read -r l; do [ "${#l}" -gt 80 ] && printf '%s\n' "$l"; done)
[ -z "$wide" ] || fail "lines wider than 80 columns: $wide"
typein 'quit'
keys Enter
wait_exit
[ "$exit_status" = 0 ] || fail "exit status $exit_status"
t_cleanup

# Ctrl-C in a long script run: what it printed stays, exit 130
t_tmp=$(mktemp -d)
script=$t_tmp/long.vfs
. "$top/tests/interactive/lib/long-script.bash"
long_script "$script"
export VFSIM_TEST_STEP_DELAY_US=20000
launch "$script"
wait_line ' = 1 \[f'                 # the run is under way
keys C-c
wait_exit
[ "$exit_status" = 130 ] || fail "exit status $exit_status after Ctrl-C, not 130"
wait_line '^before-the-run$'
wait_line 'interrupted after [0-9]+ steps'
wait_line '^vfsim: stopped by SIGINT after .*long.vfs:[0-9]+; the output so far is kept$'
t_has 'after-the-run' && fail "the script went on after Ctrl-C"
exit 0
