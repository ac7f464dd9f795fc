#!/usr/bin/env bash
# `explore bound K` turns the partial-order reduction off (preemption
# bounding needs every interleaving): it says so instead of silently doing
# many times the work (issue 17).
. "$(dirname "$0")/lib/tmux.bash"
start
for l in 'mkdir /d' 'spawn A' 'spawn B' 'A: open /d' 'A: getdents 3 1 &' 'A: getdents 3 1 &'; do
    typein "$l"
    keys Enter
done
typein 'explore bound 1'
keys Enter
wait_line '^bound 1: the reduction is off \(preemption bounding needs every interleaving, as naive\)$'
wait_line '^explored [0-9]+ executions? in '
typein 'quit'
keys Enter
wait_exit
