#!/usr/bin/env bash
# Output that cannot be written is an error (issue 17): `vfsim script >
# /dev/full` and `vfsim script >&-` exited 0 with no message.
set -u
vfsim=${VFSIM:?VFSIM names the binary}
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
printf 'mkdir /d\nls /\n' >"$d/small.vfs"
# more than a stdio buffer: the write fails before the last flush
{ echo 'mkdir /d'; for i in $(seq 1 300); do echo 'help'; done; } >"$d/big.vfs"

# expect CASE STATUS MESSAGE CMD...: CMD exits STATUS, saying MESSAGE on stderr
expect() {
    local what=$1 want=$2 msg=$3 err rc; shift 3
    err=$("$@" 2>&1 >/dev/null); rc=$?
    [ "$rc" = "$want" ] || fail "$what: exit $rc, not $want (stderr: $err)"
    [ "$err" = "$msg" ] || fail "$what: stderr '$err', not '$msg'"
}
full() { "$@" >/dev/full; }
closed() { "$@" >&-; }
expect '/dev/full' 2 'vfsim: cannot write standard output: no space left on device' \
    full "$vfsim" "$d/small.vfs"
expect '/dev/full, a long output' 2 'vfsim: cannot write standard output: no space left on device' \
    full "$vfsim" "$d/big.vfs"
expect '--check to /dev/full' 2 'vfsim: cannot write standard output: no space left on device' \
    full "$vfsim" --check "$d/small.vfs"
expect 'stdout closed' 2 'vfsim: standard output is closed' closed "$vfsim" "$d/small.vfs"
# and all well when it can be written
"$vfsim" "$d/small.vfs" >/dev/null || fail "a plain run failed"
exit 0
