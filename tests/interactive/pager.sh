#!/usr/bin/env bash
# Long output at a terminal goes through $PAGER; not with --no-pager, not
# when it fits the screen, and never off a terminal.
. "$(dirname "$0")/lib/tmux.bash"
export T_ROWS=30
export PAGER=$t_tmp/pager
printf '#!/bin/sh\necho "(paged by the test pager)"\nexec cat\n' >"$PAGER"
chmod +x "$PAGER"

start
# clear: the visible screen is emptied (what scrolled away may stay in history)
typein 'echo before-clear'
keys Enter
wait_line '^before-clear$'
typein 'clear'
keys Enter
visible_has() { tm capture-pane -p -t "$t_pane" | grep -q -- "$1"; }
poll "$T_TIMEOUT" eval '! visible_has before-clear' || fail "clear left the screen as it was"
typein 'help quit'              # short: straight to the screen
keys Enter
wait_for "leave vfsim (also 'q'"
typein 'help'
keys Enter
wait_for '(paged by the test pager)'
wait_for "'help COMMAND' says more"
[ "$(t_count '(paged by the test pager)')" -eq 1 ] || fail "the short help was paged"
typein 'quit'
keys Enter
wait_exit
t_cleanup

t_tmp=$(mktemp -d)
start --no-pager
typein 'help'
keys Enter
wait_for "'help COMMAND' says more"
t_has '(paged by the test pager)' && fail "--no-pager paged"
typein 'quit'
keys Enter
wait_exit

out=$("$VFSIM" -c help </dev/null | cat)
case $out in *'(paged by the test pager)'*) fail "paged off a terminal" ;; esac
exit 0
