#!/usr/bin/env bash
# Two sessions share a history file (issue 17): one appends line after line
# while the other, at each exit, trims the file to its last 1000 lines.
# Under flock no appended line is lost, and the trimmed file stays 0600
# (it used to be read, rewritten and renamed without a lock: 20 lines of
# 150 lost, and the file became 0644).
set -u
vfsim=${VFSIM:?VFSIM names the binary}
command -v script >/dev/null || { echo "skip: no script(1) for a terminal"; exit 77; }
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export VFSIM_HISTFILE=$d/history HOME=$d XDG_STATE_HOME=$d INPUTRC=/dev/null TERM=dumb
unset NO_COLOR
# a session at a terminal (history is kept only there), typing FILE's lines
session() { script -qfc "$vfsim -q" /dev/null <"$1" >/dev/null 2>&1; }

# long old lines: a trim reads and writes megabytes, a window an append hits
pad=$(printf 'x%.0s' $(seq 1 4000))
seq -f "echo old-%g $pad" 1 1100 >"$VFSIM_HISTFILE"
chmod 600 "$VFSIM_HISTFILE"
# the long session types while the short ones come and go
mkfifo "$d/long"
session "$d/long" &
long=$!
{ for i in $(seq 1 150); do echo "echo appended-$i"; sleep 0.05; done; echo quit; } >"$d/long" &
for i in $(seq 1 20); do
    { seq -f "echo trim-$i-%g" 1 3; echo quit; } >"$d/short"
    session "$d/short"
done
wait "$long"
for i in $(seq 1 150); do
    grep -qxF "echo appended-$i" "$VFSIM_HISTFILE" || lost="${lost:-} appended-$i"
done
for i in $(seq 1 20); do
    for j in 1 2 3; do
        grep -qxF "echo trim-$i-$j" "$VFSIM_HISTFILE" || lost="${lost:-} trim-$i-$j"
    done
done
[ -z "${lost:-}" ] || fail "lines lost from the history:${lost}"
[ "$(stat -c %a "$VFSIM_HISTFILE")" = 600 ] ||
    fail "the history file is $(stat -c %a "$VFSIM_HISTFILE"), not 600"
grep -q '^echo old-1 ' "$VFSIM_HISTFILE" && fail "the history was never trimmed"
exit 0
