#!/usr/bin/env bash
# bench-fields.sh: what declared fields (`field NAME of file|inode`) cost
# explore (issue 15: nothing when none is declared).  On the thieves (v6.5,
# the owner and THIEVES thieves, CALLS getdents-like calls each, 30 files,
# `explore stateful jobs 1`) with the built-in getdents, then with a
# getdents defined as steps that also writes 0, 4 and 6 declared fields
# (half of files, half of inodes; one value each, so the states are the
# same), the instructions callgrind counts (valgrind: exact, unlike time on
# a loaded machine) for this tree and for BENCH_BASE (default main) built
# beside it; a tree that refuses a count of fields says so.  Then user CPU
# time of the built-in run at 4x4 (90,000 states), min of ROUNDS, both
# trees alternating.
# Numbers only: nothing fails on them.
#
#   THIEVES=3 CALLS=4 ROUNDS=5 BENCH_BASE=main
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
base=${BENCH_BASE:-main}
n=${THIEVES:-3} calls=${CALLS:-4} rounds=${ROUNDS:-5}
command -v valgrind >/dev/null || { echo "bench-fields: valgrind is needed"; exit 2; }
. "$top/scripts/bench-base-tree.bash"
base_tree fields-base
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

. "$top/scripts/bench-thieves.bash"
# fields NFIELDS (-1: the built-in getdents): the thieves
fields() {
    local nf=$1 k defs=""
    [ "$nf" -lt 0 ] && { thieves "$n" ""; return; }
    for k in $(seq 1 "$nf"); do
        [ $((k % 2)) = 1 ] && defs+="field x$k of file"$'\n' || defs+="field x$k of inode"$'\n'
    done
    defs+="define syscall gd FD
  fdget_pos FD
  lock i_rwsem of inode read killable
  read f_pos of file
  read dir of inode
  write f_pos of file f_pos + 2"$'\n'
    for k in $(seq 1 "$nf"); do
        [ $((k % 2)) = 1 ] && defs+="  write x$k of file 1"$'\n' || defs+="  write x$k of inode 1"$'\n'
    done
    defs+="  unlock i_rwsem of inode
  fdput_pos
  return 2
end"
    thieves "$n" "$defs" gd
}
ir() {  # ir VFSIM FILE: "INSTRUCTIONS STATES", or "refused" / "failed"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" -q "$2" \
        >"$tmp/out" 2>"$tmp/err"
    local i s
    i=$(sed -nE 's/.*Collected : ([0-9]+).*/\1/p' "$tmp/err")
    s=$(sed -nE 's/^explored ([0-9,]+) distinct states.*/\1/p' "$tmp/out" | tr -d ,)
    if grep -q "too many fields" "$tmp/out" "$tmp/err"; then echo refused
    elif [ -z "$s" ]; then echo failed
    else echo "$i $s"; fi
}
echo "fields: thieves=$n calls=$calls, instructions (callgrind) this tree / $base ($rev)"
for nf in -1 0 4 6; do
    fields "$nf" >"$tmp/s.vfs"
    read -r bi bs < <(ir build/vfsim "$tmp/s.vfs")
    read -r ai as < <(ir "$dir/build/vfsim" "$tmp/s.vfs")
    what=$([ "$nf" -lt 0 ] && echo "built-in getdents" || echo "defined, $nf fields")
    if [ "$ai" = refused ] || [ "$ai" = failed ]; then
        echo "  $what: states=$bs this=$bi $base=$ai"
    else
        echo "  $what: states=$bs/$as this=$bi $base=$ai ratio=$(awk -v a="$bi" -v b="$ai" 'BEGIN { printf "%.4f", a / b }')"
    fi
done
n=4 calls=4 fields -1 >"$tmp/b.vfs"
: >"$tmp/tb"; : >"$tmp/ta"
for _ in $(seq 1 "$rounds"); do
    /usr/bin/time -f %U -o "$tmp/t" build/vfsim -q "$tmp/b.vfs" >/dev/null && cat "$tmp/t" >>"$tmp/tb"
    /usr/bin/time -f %U -o "$tmp/t" "$dir/build/vfsim" -q "$tmp/b.vfs" >/dev/null && cat "$tmp/t" >>"$tmp/ta"
done
echo "  built-in getdents 4x4, user seconds min of $rounds: this=$(sort -g "$tmp/tb" | head -n 1) $base=$(sort -g "$tmp/ta" | head -n 1)"
