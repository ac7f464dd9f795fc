#!/usr/bin/env bash
# Ctrl-C during plain `explore` (the stateful search and, beside it, the
# step-by-step search for the shortest counterexample) stops both: the
# first line says the search was cut short, no counterexample is claimed,
# and a later `expect no ...` fails with that reason (issue 12).  The
# search: seven thieves with four calls each on v6.5, a proof of many
# seconds (on v5.6 it took some nine seconds to its counterexample until
# the preemption-bounded probe, run first, found v5.6's race at once).
. "$(dirname "$0")/lib/tmux.bash"
. "$(dirname "$0")/lib/thieves.bash"
script=$t_tmp/thieves.vfs
thieves_script "$script" v6.5 4 B C D E F G H
start -i "$script"
typein 'explore'
keys Enter
# the progress line shows it is searching: interrupt it
wait_line 'explore: [0-9]+ states'
keys C-c
wait_line '^stopped after [0-9]+ states \(interrupted\): not a proof$'
t_has 'shortest counterexample' && fail "a counterexample claimed after Ctrl-C"
typein 'expect no duplicate'
keys Enter
wait_line 'no duplicate entry: stopped after [0-9]+ states \(interrupted\): not a proof'
alive_then_quit
