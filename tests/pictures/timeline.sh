#!/usr/bin/env bash
# timeline: three threads fit 80 columns; the lock columns show the holds
# and waits; FROM TO limits the rows; colour only when asked for; the
# detectors' reports are marked and listed; bad arguments are script errors.
. "$(dirname "$0")/lib.bash"
three=$(three) race=$(pidfd_race)
"$VFSIM" -q --color never "$three" -c timeline >"$work/three" 2>&1 ||
    { cat "$work/three"; fail "timeline on three readers"; }
wide=$(python3 -c 'import sys; print(max(len(l.rstrip("\n")) for l in open(sys.argv[1], encoding="utf-8")))' "$work/three")
[ "$wide" -le 80 ] && ok "three threads in $wide columns" || fail "three threads take $wide columns"
grep -Eq '^ *step +A +B +C$' "$work/three" && ok "a column per thread" || fail "the header"
grep -q '┃░  down_write waits A' "$work/three" && ok "B or C waits for A's write lock, holding f_pos_lock" ||
    fail "no wait shown"
grep -q '┃█  exfat_iterate' "$work/three" && ok "exfat_iterate under the write lock" ||
    fail "no write lock shown"
grep -q 'i_rwsem read' "$work/three" && ok "a legend" || fail "no legend"
if grep -q $'\033' "$work/three"; then fail "colour with --color never"; else ok "no colour"; fi
"$VFSIM" -q --color always "$three" -c timeline >"$work/color" 2>&1
grep -q $'\033\[' "$work/color" && ok "colour with --color always" || fail "no colour with --color always"

"$VFSIM" -q --color never "$three" -c 'timeline 40 45' >"$work/range" 2>&1
rows=$(grep -cE '^ *[0-9]+[ !]' "$work/range")
[ "$rows" -eq 6 ] && ok "timeline 40 45: six rows" || fail "timeline 40 45: $rows rows"
head -n 2 "$work/range" | grep -qE '^ +40 ' && ok "starting at step 40" || fail "range start"

"$VFSIM" -q --color never "$race" -c timeline >"$work/race" 2>&1
grep -qE '^ +26! .*!ext4_readdir \[\. \.\.\]' "$work/race" && ok "step 26 marked, on B" ||
    fail "the duplicate's step is not marked"
grep -q "^! DUPLICATE '.' (step 26 B, step 30 A)" "$work/race" && ok "the duplicate listed" ||
    fail "the duplicate is not listed"

printf 'timeline x\n' >"$work/bad.vfs"
"$VFSIM" -q "$work/bad.vfs" >"$work/bad" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q 'bad.vfs:1: timeline' "$work/bad" && ok "a bad step number is a script error" ||
    fail "timeline x: exit $rc"
"$VFSIM" -q -c timeline >"$work/empty" 2>&1 && grep -q 'nothing traced' "$work/empty" &&
    ok "an empty trace says so" || fail "timeline with nothing traced"
printf 'export svg x\n' >"$work/bad2.vfs"
"$VFSIM" -q "$work/bad2.vfs" >"$work/bad2" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q "not a format" "$work/bad2" && ok "an unknown format is a script error" ||
    fail "export svg: exit $rc"
done_
