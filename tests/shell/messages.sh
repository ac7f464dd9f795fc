#!/usr/bin/env bash
# A signal during a script run: the earlier output is kept (stdout to a
# file, fully buffered), a one-line note, exit 128+N (130 for SIGINT).
set -u
: "${VFSIM:?}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../interactive/lib/long-script.bash"
# a sign, outside stdout, that the run begins: the file save writes
long_script "$tmp/long.vfs" "save $tmp/marker"
for sig in INT TERM; do
    rm -f "$tmp/marker"
    VFSIM_TEST_STEP_DELAY_US=20000 "$VFSIM" "$tmp/long.vfs" >"$tmp/out" 2>"$tmp/err" &
    pid=$!
    for _ in $(seq 1 400); do     # until it is inside the run (20 s at most)
        [ -f "$tmp/marker" ] && break
        sleep 0.05
    done
    [ -f "$tmp/marker" ] || { echo "FAIL: the script never reached its run"; exit 1; }
    kill -"$sig" $pid
    wait $pid; rc=$?
    want=130; [ "$sig" = TERM ] && want=143
    [ "$rc" -eq "$want" ] || { echo "FAIL: SIG$sig: exit $rc, not $want"; cat "$tmp/err"; exit 1; }
    grep -qx 'before-the-run' "$tmp/out" || { echo "FAIL: SIG$sig: earlier output lost"; exit 1; }
    grep -q 'after-the-run' "$tmp/out" && { echo "FAIL: SIG$sig: the script went on"; exit 1; }
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "stopped by SIG$sig after .*long.vfs:[0-9]*; the output so far is kept" "$tmp/err" ||
        { echo "FAIL: SIG$sig: the note:"; cat "$tmp/err"; exit 1; }
    echo "ok: SIG$sig: exit $rc, $(wc -l <"$tmp/out") lines kept, one note"
done
