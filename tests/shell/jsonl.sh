#!/usr/bin/env bash
# --trace jsonl (even with -q) and -c 'export jsonl -': stdout holds JSON
# lines only, for every lesson; the human lines go to stderr.
set -u
: "${VFSIM:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
if command -v jq >/dev/null 2>&1; then
    parse() { jq -c . >/dev/null; }
elif command -v python3 >/dev/null 2>&1; then
    parse() { python3 -c 'import json,sys
for n, l in enumerate(sys.stdin, 1):
    json.loads(l)'; }
else
    echo "neither jq nor python3"; exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
for f in "$top"/examples/*.vfs; do
    for how in "--trace jsonl -q" "--trace jsonl" "-q -c export\ jsonl\ -"; do
        eval "set -- $how"
        "$VFSIM" "$@" "$f" >"$tmp/out" 2>"$tmp/err" </dev/null
        parse <"$tmp/out" || { echo "FAIL: $how $f: not JSON:"; grep -v '^{' "$tmp/out" | head; exit 1; }
        n=$((n + 1))
    done
done
# not empty, and the human lines went to stderr
"$VFSIM" --trace jsonl "$top/examples/07-pidfd-getfd-race-v5.6.vfs" >"$tmp/out" 2>"$tmp/err"
[ "$(wc -l <"$tmp/out")" -gt 50 ] || { echo "FAIL: few JSON lines"; exit 1; }
grep -q 'B: getdents64(4, 2) = 2' "$tmp/err" || { echo "FAIL: the result lines are lost"; exit 1; }
echo "ok: $n runs parsed, the result lines on stderr"
