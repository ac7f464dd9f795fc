#!/usr/bin/env bash
# An error message is one line written whole, FILE:LINE: first, whatever
# the length of FILE's name: a script in a directory 350 characters deep
# names it in full (the message was first built in a 300-byte buffer).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"

deep=$(printf 'x%.0s' $(seq 1 200))/$(printf 'y%.0s' $(seq 1 150))
mkdir -p "$deep"
printf 'mkdir /d\nbogus\n' >"$deep/s.vfs"
out=$("$vfsim" "$PWD/$deep/s.vfs" 2>&1 </dev/null); rc=$?
[ "$rc" -eq 2 ] || fail "exit status $rc, expected 2"
want="$PWD/$deep/s.vfs:2: unknown command 'bogus' (try 'help')"
[ "$out" = "$want" ] || fail "got: $out"
echo "ok: the message names a ${#want}-character path whole"
