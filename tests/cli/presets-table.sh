#!/usr/bin/env bash
# The kernels' rows are data (issue 14): core/presets.tbl, which
# scripts/presets.awk (after scripts/tbl.awk) makes into the C the build
# compiles.  Each preset of the table is one of `kernel list`, in its
# order, and under `kernel PRESET` `set` shows each knob with the table's value in the preset's
# column; a table that does not fit stops the generator with FILE:LINE:
# a value its knob lacks, a row a value short, a row without its summary
# line, a knob after the presets.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
tbl=$top/core/presets.tbl
gen() { awk -f "$top/scripts/tbl.awk" -f "$top/scripts/presets.awk" "$1" >/dev/null 2>gen.err; }

# the table's knobs in order, and a preset's row as `set` prints it
awk '$1 == "knob" { print $2 }' "$tbl" >knobs
awk '$1 == "preset" { print $2 }' "$tbl" >presets
[ "$(wc -l <knobs)" -ge 10 ] && [ "$(wc -l <presets)" -ge 10 ] ||
    fail "the table read as $(wc -l <knobs) knobs and $(wc -l <presets) presets"
echo 'kernel list' | "$vfsim" -q 2>&1 | sed 's/^\*/ /' | awk '{ print $1 }' >listed
cmp -s presets listed || fail "kernel list is not the table's presets: $(diff presets listed)"

while read -r p; do echo "kernel $p"; echo "echo == $p"; echo set; done <presets >s.vfs
"$vfsim" -q s.vfs </dev/null 2>&1 | awk '/^== / { p = $2; next } { print p, $1, $2 }' >shown
awk 'NR == FNR { knob[++n] = $1; next }
     $1 == "preset" { for (k = 1; k <= n; k++) print $2, knob[k], $(3 + k) }' knobs "$tbl" >want
cmp -s want shown || fail "set under each preset is not the table: $(diff want shown | head)"

# `help set` lists every knob, in the table's order, with its help line
awk '$1 == "knob" { k = $2; getline; sub(/^\t/, ""); print k, $0 }' "$tbl" >knobhelp
echo 'help set' | "$vfsim" -q 2>&1 | awk '/^Knobs are/ { on = 1; next } on && /^  [a-z]/ { k = $1; sub(/^  [^ ]+ +/, ""); print k, $0 }' >helped
cmp -s knobhelp helped || fail "help set is not the table's knobs: $(diff knobhelp helped | head)"

# what stops the generator
gen "$tbl" || fail "the table itself: $(cat gen.err)"
sed '/^preset v6.4 /s/ count / cnt /' "$tbl" >bad.tbl
gen bad.tbl && fail "a value fpos-lock lacks was taken"
grep -q '^bad.tbl:[0-9]*: knob fpos-lock has no value cnt$' gen.err || fail "unknown value: $(cat gen.err)"
sed '/^preset v6.4 /s/ exec_update_lock$//' "$tbl" >bad.tbl
gen bad.tbl && fail "a row a value short was taken"
grep -q '^bad.tbl:[0-9]*: preset NAME ERA and a value for each' gen.err || fail "short row: $(cat gen.err)"
sed '/^preset v6.4 /{n;d;}' "$tbl" >bad.tbl
gen bad.tbl && fail "a preset without its summary was taken"
grep -q '^bad.tbl:[0-9]*: the preset above has no indented line' gen.err || fail "no summary: $(cat gen.err)"
{ cat "$tbl"; printf 'knob late late off on\n\tafter the presets\n'; } >bad.tbl
gen bad.tbl && fail "a knob after the presets was taken"
grep -q '^bad.tbl:[0-9]*: a knob after the presets' gen.err || fail "late knob: $(cat gen.err)"
echo "ok: $(wc -l <presets) presets x $(wc -l <knobs) knobs as core/presets.tbl says, help set lists them; 4 bad tables refused"
