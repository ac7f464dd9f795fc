#!/usr/bin/env bash
# A bad line at the prompt changes nothing: 'mkdir /d /d/NAME-TOO-LONG' makes
# neither (it used to keep /d without logging it, so 'back' then rebuilt a
# world without /d and replayed steps of calls that no longer fitted), and
# the session goes on; 'back' gives the world it had.
. "$(dirname "$0")/lib/tmux.bash"
start
# (NAME_MAX is 255: a 256-byte name is too long)
x256=$(printf 'x%.0s' $(seq 256))
long=/d/$x256
typein "mkdir /d $long"
keys Enter
wait_for 'name too long'
typein 'ls /d'
keys Enter
wait_for 'ls: /d: no such file or directory'
typein 'mkdir /e'
keys Enter
typein 'spawn A'
keys Enter
typein 'A: open /e &'
keys Enter
typein 'step 2'
keys Enter
typein "mkdir /f /f/$x256"
keys Enter
wait_count 'name too long' 2
typein 'back'
keys Enter
wait_for 'back 1 step: now at step 1'
typein 'run'
keys Enter
wait_for 'A: openat("/e", O_RDONLY) = 3'
typein 'ls /f'
keys Enter
wait_for 'ls: /f: no such file or directory'
typein 'quit'
keys Enter
wait_exit
