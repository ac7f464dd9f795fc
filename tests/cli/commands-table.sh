#!/usr/bin/env bash
# The shell's commands are data (issue 14): cli/commands.tbl, a row per
# command, which scripts/commands.awk (after scripts/tbl.awk, as
# presets.awk and accessors.awk) makes into build/gen/commands.inc: each
# row one entry, in the table's order, its handler and long help named
# from its name, and help's groups from the group rows (`help` lists
# them in that order, each with its title).  A table that does not fit
# stops the generator with FILE:LINE: a word it does not know (a group, a
# flag, LONG), a row a word short, a name twice, a synopsis that is not
# the row's, a row without its help line, a second syscalls row.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
tbl=$top/cli/commands.tbl
gen() { awk -f "$top/scripts/tbl.awk" -f "$top/scripts/commands.awk" "$1" >gen.out 2>gen.err; }

gen "$tbl" || fail "the table itself: $(cat gen.err)"
awk '/^[ \t]*(#|$)/ || /^\t/ { next } $1 != "group" && $1 != "syscalls" { print $1 }' "$tbl" >rows
[ "$(wc -l <rows)" -ge 40 ] || fail "the table read as $(wc -l <rows) rows"
# each row one entry, in order, its handler and long help from its name
grep -o '^	{ \.name = "[a-z_]*"' gen.out | sed 's/.*"\(.*\)"/\1/' >entries
cmp -s rows entries || fail "the entries are not the rows: $(diff rows entries)"
while read -r n; do
    grep -q "\.fn = c_$n, " gen.out || fail "$n's entry does not run c_$n"
done <rows
awk '/^[ \t]*(#|$)/ || /^\t/ { next } $1 != "group" && $1 != "syscalls" && $5 == "long" { print $1 }' "$tbl" >long
[ -s long ] || fail "no row says long"
while read -r n; do
    grep -q "\.long_help = c_${n}_help, " gen.out || fail "$n's entry has not c_${n}_help"
done <long
[ "$(grep -c '\.long_help = c_' gen.out)" -eq "$(wc -l <long)" ] || fail "long helps the rows do not say"
# help's headings are the group rows' titles, in their order
awk '$1 == "group" { getline t; sub(/^\t/, "", t); print t }' "$tbl" >titles
NO_COLOR=1 "$vfsim" -q --no-pager -c help 2>&1 | grep -v '^ ' | head -n "$(wc -l <titles)" >heads
cmp -s titles heads || fail "help's headings are not the groups': $(diff titles heads)"

# what stops the generator
bad() { gen bad.tbl && fail "$1 was taken"; grep -q "^bad.tbl:[0-9]*: $2" gen.err || fail "$1: $(cat gen.err)"; }
sed '/^ls /s/ world / wrld /' "$tbl" >bad.tbl
bad "an unknown group" 'no group wrld'
sed '/^ls /s/ pager / pagr /' "$tbl" >bad.tbl
bad "an unknown flag" 'no flag pagr'
sed '/^ls /s/ -  *-$/ -/' "$tbl" >bad.tbl
bad "a row a word short" 'NAME GROUP FLAGS COMPLETE LONG MAKE: 5 words'
sed '/^ls /s/ -  *-$/ longer -/' "$tbl" >bad.tbl
bad "an unknown LONG" 'LONG is long'
sed 's/^ls /ps /' "$tbl" >bad.tbl
bad "a name twice" 'command ps twice'
sed 's/^\tls \[PATH\]$/\tlist [PATH]/' "$tbl" >bad.tbl
bad "a synopsis that is another's" 'the synopsis line of ls does not begin with ls'
sed '/^ls /{n;n;d;}' "$tbl" >bad.tbl
bad "a row without its help line" 'the command above has 1 of its 2 indented lines'
{ cat "$tbl"; printf 'syscalls thread thread complete_call\n'; } >bad.tbl
bad "a second syscalls row" 'syscalls twice'
# where: the line of the row that does not fit
sed '/^ls /s/ world / wrld /' "$tbl" >bad.tbl
gen bad.tbl
[ "$(cut -d: -f2 gen.err)" = "$(grep -n '^ls ' "$tbl" | cut -d: -f1)" ] || fail "not the row's line: $(cat gen.err)"
echo "ok: $(wc -l <rows) commands as cli/commands.tbl says, $(wc -l <titles) groups; 8 bad tables refused at their line"
