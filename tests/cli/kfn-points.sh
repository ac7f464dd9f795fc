#!/usr/bin/env bash
# The names of defined steps (FUNCTION:LABEL, core/defined.c's
# kfn_name_points) are VFS_KFN_POINTS at most in one kernel: their events
# carry the name's number in one byte.  Past the bound a step is named
# defined_step:step, and `define` says so once, when the first step goes
# without a name, with the bound and what it means (issue 14 review):
# names only, the steps run as before.  Five system calls of 23 steps and
# one of 13 use the 128 names exactly (no warning); s7 has none left (the
# warning, naming s7 and its 23 steps), s8 neither (no second warning,
# nor when `back` and `reset` run the lines again).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"

# syscall NAME READS: fdget, READS reads of f_pos, fdput, return (READS + 3 steps)
syscall() {
    echo "define syscall $1 FD"
    echo '  fdget FD'
    for ((i = 0; i < $2; i++)); do echo '  read f_pos of file'; done
    printf '  fdput\n  return 0\nend\n'
}
{
    printf 'kernel v6.5\nmkdir /d\nspawn A\nA: open /d\n'
    for n in 1 2 3 4 5; do syscall s$n 20; done
    syscall s6 10
    echo '# 128 names: the table is full, every step has one'
    syscall s7 20
    syscall s8 3
    printf 'A: s6 3\nA: s7 3\nA: s8 3\ntrace show steps\n'
    printf 'back 1\nreset\n'        # (the lines run again: said once still)
} >points.vfs
NO_COLOR=1 "$vfsim" points.vfs </dev/null >out 2>err; rc=$?
[ "$rc" -eq 0 ] || fail "exit status $rc: $(cat err)"

# the warning: once, at s7's end, with the bound and its meaning
[ "$(grep -c 'too low' err)" -eq 1 ] || fail "not one warning: $(cat err)"
end7=$(grep -n '^define syscall s7 ' points.vfs | cut -d: -f1)
end7=$((end7 + 24))      # its 23 steps, then end
sed -n "${end7}p" points.vfs | grep -qx end || fail "line $end7 is not s7's end"
grep -q "^points.vfs:$end7: warning: define s7: VFS_KFN_POINTS too low! the 128 names of defined steps are used: 23 of s7's steps, and every step defined after, are named defined_step:step" err ||
    fail "the warning: $(cat err)"
grep -q 'names only' err || fail "the warning does not say it is names only: $(cat err)"
[ "$(wc -l <err)" -eq 1 ] || fail "more than the warning on stderr: $(cat err)"

# the names of the steps' events (fdget and fdput are the built-in
# sub-paths'): s6's own to its return (the 128th name), s7's and s8's
# defined_step:step
col() { awk -v fn="$1" '$4 == fn && $5 != "enter" { print $3 }' out; }
[ "$(col s6 | wc -l)" -eq 11 ] || fail "s6: $(col s6 | wc -l) events, not 11: $(cat out)"
[ "$(col s6 | tail -n 1)" = s6:return ] || fail "s6's last step: $(col s6 | tail -n 1)"
[ -z "$(col s6 | grep -v '^s6:')" ] || fail "s6 has a step without its name: $(col s6)"
for fn in s7 s8; do
    [ "$(col $fn | wc -l)" -ge 4 ] || fail "$fn ran no steps: $(cat out)"
    [ -z "$(col $fn | grep -vx 'defined_step:step')" ] ||
        fail "$fn's steps past the bound: $(col $fn | sort -u)"
done
# what they did is the same: every read of f_pos read 0, each call returned 0
grep -q '^A: s7(3) = 0$' out && grep -q '^A: s8(3) = 0$' out || fail "the calls: $(grep '^A:' out)"
echo "ok: 128 named steps, then one warning and defined_step:step"
