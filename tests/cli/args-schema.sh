#!/usr/bin/env bash
# A command's words are checked by its synopsis, its argument schema
# (cli/argspec.c, issue 14), before its handler runs (and an expect
# condition's by the condition's row): a keyword the
# synopsis does not have where it says one comes, words missing or left
# over, are answered "NAME: unexpected 'WORD' (usage: ALTERNATIVE)" or
# "NAME: missing words after 'WORD' (usage: ...)" at that word, for
# every command alike; and a form the synopsis allows is not refused.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
n=0
# stops SCRIPT LINE MESSAGE: SCRIPT stops at its line 2, LINE, with MESSAGE
stops() {
    printf '%s\n' "$1" >s.vfs
    out=$(NO_COLOR=1 "$vfsim" s.vfs 2>&1 </dev/null); rc=$?
    [ "$rc" -eq 2 ] || fail "'$2': exit status $rc, expected 2 ($out)"
    [ "$out" = "s.vfs:2: $3" ] || fail "'$2': got '$out', expected 's.vfs:2: $3'"
    n=$((n + 1))
}
# refused LINE MESSAGE: a command line (after `spawn A`)
refused() { stops "$(printf 'spawn A\n%s\necho not reached' "$1")" "$1" "$2"; }
# refused_step STEP MESSAGE: a step of `define`'s body, by its row's synopsis
refused_step() { stops "$(printf 'define syscall s FD\n%s\nend' "$1")" "$1" "$2"; }
# taken LINE: the synopsis allows LINE; it runs
taken() {
    printf 'spawn A\nmkdir /d\nA: open /d\nA: getdents 3 1 &\n%s\necho done\n' "$1" >s.vfs
    out=$(NO_COLOR=1 "$vfsim" s.vfs 2>&1 </dev/null)
    case $out in *done) ;; *) fail "'$1' was refused: $out" ;; esac
    n=$((n + 1))
}
refused 'rule lockorder f_pos_lock after i_rwsem' "column 27: rule: unexpected 'after' (usage: lockorder A before B)"
refused 'rule lockorder f_pos_lock' "column 16: rule: missing words after 'f_pos_lock' (usage: lockorder A before B)"
refused 'rule rank f_pos_lock 1 2' "column 24: rule: unexpected '2' (usage: rank LOCK N)"
refused 'rule entries once per' "column 19: rule: missing words after 'per' (usage: entries once per pass)"
refused 'rule remove' "column 6: rule: missing words after 'remove' (usage: remove all|RULE...)"
refused 'rule remove lockorder f_pos_lock after i_rwsem' "column 34: rule: unexpected 'after' (usage: lockorder A before B)"
refused 'fs list x' "column 9: fs: unexpected 'x' (usage: list)"
refused 'sched random' "column 7: sched: missing words after 'random' (usage: random SEED)"
refused 'sched rr 1' "column 10: sched: unexpected '1' (usage: rr)"
refused 'reports race x' "column 14: reports: unexpected 'x' (usage: race|duplicate|skipped|deaddir|deadlock|lockorder|rule)"
refused 'reports live maybe' "column 14: reports: unexpected 'maybe' (usage: live [on|off])"
refused 'explore save' "column 9: explore: missing words after 'save' (usage: save FILE [K])"
refused 'explore outcomes 1' "column 18: explore: unexpected '1' (usage: outcomes)"
refused 'kernel list v6.5' 'kernel: too many arguments (usage: kernel [list|PRESET])'
refused 'A: mkdir /x /y' 'mkdir: too many arguments (usage: THREAD: mkdir PATH)'
refused 'expect took A' 'expect took: missing arguments (usage: expect took THREAD LOCK [MODE])'
refused 'expect skipped A i_rwsem' "column 18: expect skipped: unexpected 'i_rwsem' (usage: THREAD f_pos_lock)"
refused 'expect no skipped A' 'expect no skipped: too many arguments (usage: expect no skipped)'
refused 'expect deadlock now' 'expect deadlock: too many arguments (usage: expect deadlock)'
refused 'expect no race f_pos cursor' 'expect no race: too many arguments (usage: expect no race [FIELD])'
refused_step 'write f_pos of file 1 * 2' "column 23: define: unexpected '*' (usage: write FIELD of OBJECT VALUE [+|- VALUE])"
refused_step 'emit entries of file from 0' "column 17: define: unexpected 'file' (usage: emit entries of inode from VALUE [max VALUE])"
refused_step 'fdput 3' "column 7: define: unexpected '3' (usage: fdput)"
refused_step 'return 0 when 1 == 1' "column 10: define: unexpected 'when' (usage: return VALUE [if VALUE CMP VALUE])"
taken 'set fpos-lock'
taken 'reports live'
taken 'reports live off'
taken 'sched fifo'
taken 'sched random 7'
taken 'fs list'
taken 'rule lockorder f_pos_lock before i_rwsem'
taken 'explore jobs 1 max 5 stateful'
taken 'mkdir /x /y'
taken 'expect no deadlock'
taken 'expect no skipped'
echo "ok: $n lines checked by their command's synopsis"
