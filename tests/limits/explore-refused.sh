#!/usr/bin/env bash
# explore-refused.vfs and variants of it (through stdin): exit status 2 and
# a refusal naming the limit that filled and its value, never "no
# violation" (a script: explore's summary line has a time).
#   stateful   explore-refused.vfs as it is: explore stateful
#   dpor       its last line 'explore dpor'
#   expect     C deadlocks itself in every execution as well (wrapper
#              naive-upgrade), so 'explore dpor' answers with that
#              violation, and 'expect no duplicate' after it is refused
set -u
cd "$(dirname "$0")" || exit 1
vfsim=${VFSIM:-../../build/vfsim}
lim="too many directory passes (limit 16)"
run() { out=$(NO_COLOR=1 "$vfsim" "$@" 2>&1); rc=$?; }
fail() { printf '%s\n' "$out" | tail -n 5; echo "explore-refused ($case): $1"; exit 1; }
# the set-up filled no table itself; nothing said "no violation"
common() {
    [ "$rc" -eq 2 ] || fail "exit status $rc, expected 2"
    grep -q "^vfsim: too many directory passes" <<<"$out" \
        && fail "the set-up filled no table: the overflow line came from it"
    grep -q "^no violation" <<<"$out" && fail "it answered 'no violation'"
    return 0
}

case=stateful
run explore-refused.vfs </dev/null
common
grep -qxF "explore-refused.vfs:77: explore: cannot say 'no violation': a detector's table filled in 1 of the explored states: $lim" <<<"$out" \
    || fail "no refusal line naming the limit"

case=dpor
run < <(sed '$d' explore-refused.vfs; echo 'explore dpor')
common
grep -qxF "<stdin>:77: explore: cannot say 'no violation': a detector's table filled in 1 of the explored executions: $lim" <<<"$out" \
    || fail "no refusal line naming the limit"

case=expect
run < <(sed '$d' explore-refused.vfs | sed '/^A: getdents 3 1 &$/i\
set wrapper naive-upgrade\
mount exfat /mnt\
mkdir /mnt/e\
spawn C\
C: open /mnt/e\
C: getdents 3 &'
        echo 'explore dpor'; echo 'expect deadlock'; echo 'expect no duplicate')
common
grep -qxF "1 violating execution: deadlock in 1, lockorder in 1, overflow in 1" <<<"$out" \
    || fail "explore did not find C's deadlock beside the overflow"
grep -qxF "<stdin>:85: expect no duplicate entry: cannot answer: a detector's table filled in 1 explored execution: $lim" <<<"$out" \
    || fail "no refusal line naming the limit"
exit 0
