#!/usr/bin/env bash
# `compare` replays the script (or the session's log) through the path any
# script takes (issue 14), so:
#  1. every command a script may hold is replayed without compare knowing
#     it: fs define, override, rule, a call continued over lines in a
#     sourced file all reach the replays (their effect shows in the table);
#  2. what would read or write outside the world is left out: a failing
#     `expect` does not stop it, `save` and `export` write no file; `back`,
#     `explore` and `compare` are left out and said to be;
#  3. a `quit` in a sourced file ends the replay, as it ends the script;
#  4. compare FILE and compare of a session that ran FILE give the same
#     cells (the labels aside: the log's calls are the calls' own words).
. "$(dirname "$0")/lib/tmpdir.bash"

cat >part.vfs <<'V'
B: getdents 3 \
    2 &
V
cat >base.vfs <<'V'
fs define myfs iterate exfat_iterate
mkdir /d
mount myfs /d/m
touch /d/m/a /d/m/b
rule rank i_rwsem:normal 1
override file_needs_f_pos_lock 0
spawn A
spawn B
A: open /d/m
B: open /d/m
A: getdents 3 2 &
step A until exfat_iterate
source part.vfs
V
cat >script.vfs <<'V'
source base.vfs
expect race
save saved.vfs
export html page.html
back 1
explore max 10
run
V
out=$("$vfsim" -c 'compare v6.4 v6.5 script.vfs' 2>&1) || fail "compare FILE: $out"
[ ! -e saved.vfs ] && [ ! -e page.html ] || fail "a replay wrote a file"
printf '%s\n' "$out" | grep -q '^not replayed: back,explore$' ||
    fail "back and explore not said: $out"
# the continued call of the sourced file is a row of its own
printf '%s\n' "$out" | grep -q '^. B: getdents 3 2 & ' || fail "the sourced call: $out"
# override 0: f_pos_lock never taken, under either kernel
printf '%s\n' "$out" | grep -Eq '(  |\| )f_pos_lock' && fail "override not replayed: $out"
printf '%s\n' "$out" | grep -q 'skip f_pos_lock' || fail "no skip of f_pos_lock: $out"
# the rule declared is in the replays
printf '%s\n' "$out" | grep -q '^  rules ' || fail "rule not replayed: $out"
# (no fs define: the mount fails and no call has a directory to read)
printf '%s\n' "$out" | grep -q '= 2 \[' || fail "fs define not replayed: $out"

# the same cells from the session's log (what the calls wrote: their own
# words; the steps a foreground call took itself are its own again)
cells() { sed -n '/^  -----/,/^  -----/p' | cut -c 27- ; }
a=$("$vfsim" -c 'compare v6.4 v6.5 base.vfs' | cells)
sess=$("$vfsim" -c 'source base.vfs' -c 'compare v6.4 v6.5' 2>/dev/null |
       sed -n '/^compare v6.4/,$p')
b=$(printf '%s\n' "$sess" | cells)
[ -n "$a" ] && [ "$a" = "$b" ] || fail "FILE and session differ:
$out
---
$sess"
# a quit in a sourced file: the calls after it are not replayed
printf 'spawn A\nA: open /\nsource q.vfs\nA: close 3\n' >outer.vfs
printf 'A: getdents 3 1\nquit\nA: getdents 3 1\n' >q.vfs
out=$("$vfsim" -c 'compare v6.4 v6.5 outer.vfs' 2>&1) || fail "compare with quit: $out"
printf '%s\n' "$out" | grep -q '^compare v6.4 | v6.5: outer.vfs, 2 calls;' ||
    fail "the calls after quit were replayed: $out"
echo "ok: compare replays every command through the script path"
