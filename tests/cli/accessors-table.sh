#!/usr/bin/env bash
# The fields the shell reads are data (issue 14): core/accessors.tbl, an
# accessor a row under its object, which scripts/accessors.awk (after
# scripts/tbl.awk, as presets.awk) makes into an X-list per object
# (build/gen/accessors.inc).  Each list is declared in one public header,
# whose comment names each of its accessors (a newcomer reading vfs_file.h
# finds them), and defined in one file of core/; the shell's accessors
# answer as the fields are (a file's f_pos, a thread's state, a call's
# result); a table that does not fit stops the generator with FILE:LINE:
# a row before any object, a word missing, a name twice, a row without
# its comment line, an object without rows.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
tbl=$top/core/accessors.tbl
gen() { awk -f "$top/scripts/tbl.awk" -f "$top/scripts/accessors.awk" "$1" >gen.out 2>gen.err; }

gen "$tbl" || fail "the table itself: $(cat gen.err)"
lists=$(awk '$1 == "object" { print $2 }' "$tbl")
[ "$(printf '%s\n' "$lists" | wc -l)" -ge 5 ] || fail "the table read as objects: $lists"
nrows=0
for l in $lists; do
    grep -q "^#define $l(X) \\\\$" gen.out || fail "$l is not in the generated lists"
    decl=$(grep -l "^$l(VFS_ACCESSOR_DECL)$" "$top"/core/*.h)
    def=$(grep -l "^$l(VFS_ACCESSOR_DEF)$" "$top"/core/*.c)
    [ "$(printf '%s' "$decl" | grep -c .)" -eq 1 ] || fail "$l declared in: ${decl:-no header}"
    [ "$(printf '%s' "$def" | grep -c .)" -eq 1 ] || fail "$l defined in: ${def:-no file}"
    names=$(awk -v l="$l" '/^[ \t]*(#|$)/ || /^\t/ { next } $1 == "object" { on = $2 == l; next } on { print $1 }' "$tbl")
    [ -n "$names" ] || fail "$l has no rows"
    # the header's comment says where the rows are and names each accessor
    grep -q "\`object $l\`" "$decl" && grep -q 'core/accessors.tbl' "$decl" ||
        fail "${decl##*/} does not say where $l's rows are"
    for n in $names; do
        grep -qw "$n" "$decl" || fail "${decl##*/} does not name $n (a row of $l)"
        nrows=$((nrows + 1))
    done
done

# the accessors read the fields: `files` (a file's number, inode, f_pos,
# f_count, f_mode) after getdents handed out one entry, `ps` (a process's
# pid and uid, a thread's kernel tid and state)
cat >s.vfs <<'VFS'
kernel v6.5
mkdir /d
touch /d/a /d/b
spawn A
A: open /d
run
A: getdents 3 1
run
files
ps
VFS
"$vfsim" -q s.vfs </dev/null >out 2>&1 || fail "the script: $(cat out)"
grep -qE '^file#1 +/d +1 +1 +READ\|ATOMIC_POS ' out || fail "files after one entry: $(cat out)"
grep -qE '^A +100 +0 +100 +idle' out || fail "ps: $(cat out)"

# what stops the generator
bad() { gen bad.tbl && fail "$1 was taken"; grep -q "^bad.tbl:[0-9]*: $2" gen.err || fail "$1: $(cat gen.err)"; }
sed '0,/^object /s/^object .*/# (no object)/; 0,/^\t.*/{/^\tfile slot/d}' "$tbl" >bad.tbl
bad "a row before any object" 'a row before the first object'
sed '/^vfs_file_id /s/ id .*/ id/' "$tbl" >bad.tbl
bad "a row without its type" 'NAME FIELD TYPE...'
sed '/^vfs_file_id /s/^vfs_file_id /vfs_file_kind /' "$tbl" >bad.tbl
bad "a name twice" 'accessor vfs_file_kind twice'
sed '/^vfs_file_id /{n;d;}' "$tbl" >bad.tbl
bad "a row without its comment" 'the row above has no indented line'
{ cat "$tbl"; printf 'object VFS_EMPTY_FIELDS files\n\tnothing\n'; } >bad.tbl
bad "an object without rows" 'object VFS_EMPTY_FIELDS has no rows'
echo "ok: $(printf '%s\n' "$lists" | wc -l) objects, $nrows accessors as core/accessors.tbl says, each list declared once and defined once; 5 bad tables refused"
