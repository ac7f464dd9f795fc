#!/usr/bin/env bash
# explore-refused.vfs: exit status 2 and the refusal naming the limits'
# header, not "no violation" (a script: explore's summary line has a time).
set -u
cd "$(dirname "$0")" || exit 1
out=$(NO_COLOR=1 "${VFSIM:-../../build/vfsim}" explore-refused.vfs </dev/null 2>&1); rc=$?
fail() { printf '%s\n' "$out" | tail -n 5; echo "explore-refused: $1"; exit 1; }
[ "$rc" -eq 2 ] || fail "exit status $rc, expected 2"
grep -q "^vfsim: too many directory passes (limit 16): the duplicate detector is off from step" <<<"$out" \
    && fail "the set-up filled no table: the overflow line came from it"
grep -qE "explore-refused.vfs:74: explore: cannot say 'no violation': a detector's table filled in 1 of the explored (executions|states) \(limits: core/vfs_limits.h\)" <<<"$out" \
    || fail "no refusal line"
grep -q "^no violation" <<<"$out" && fail "it answered 'no violation'"
exit 0
