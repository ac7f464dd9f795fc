#!/usr/bin/env bash
# Declared fields in explore's states (issue 15): on the thieves (v6.5, the
# owner and 2 thieves, 3 calls each of a getdents defined as steps), six
# fields written with the same value by every call leave every count of
# plain explore, explore stateful and explore all as they are without
# fields (each copy of a state keeps its fields' values: the stateful
# search's own copy too), and the sixth written with the caller's
# descriptor (3 or 4: the last writer shows) makes more states.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"

# thieves NFIELDS LAST EXPLORE: LAST the value the sixth field is written
thieves() {
    local nf=$1 last=$2 k t
    echo "kernel v6.5"
    for k in $(seq 1 "$nf"); do
        [ $((k % 2)) = 1 ] && echo "field x$k of file" || echo "field x$k of inode"
    done
    echo "define syscall gd FD"
    echo "  fdget_pos FD"
    echo "  lock i_rwsem of inode read killable"
    echo "  read f_pos of file"
    echo "  write f_pos of file f_pos + 2"
    for k in $(seq 1 "$nf"); do
        v=1; [ "$k" = 6 ] && v=$last
        [ $((k % 2)) = 1 ] && echo "  write x$k of file $v" || echo "  write x$k of inode $v"
    done
    echo "  unlock i_rwsem of inode"
    echo "  fdput_pos"
    echo "end"
    echo "mkdir /d"
    echo "touch /d/a /d/b"
    echo "spawn A"
    echo "A: open /d"
    for t in 1 2; do echo "spawn T$t"; echo "T$t: pidfd_open A"; done
    for k in 1 2 3; do echo "A: gd 3 &"; done
    for t in 1 2; do
        echo "T$t: pidfd_getfd 3 3 &"
        for k in 1 2 3; do echo "T$t: gd 4 &"; done
    done
    echo "$3"
}
counts() { grep -oE '[0-9,]+ (distinct states|transitions|executions)' "$1" | tr -d ,; }
for e in explore "explore stateful" "explore all"; do
    thieves 0 1 "$e" >none.vfs
    thieves 6 1 "$e" >six.vfs
    "$vfsim" -q none.vfs >none.out 2>&1 || fail "$e without fields: $(tail -n 2 none.out)"
    "$vfsim" -q six.vfs >six.out 2>&1 || fail "$e with six fields: $(tail -n 2 six.out)"
    [ -n "$(counts none.out)" ] || fail "$e: no counts in its output: $(cat none.out)"
    [ "$(counts none.out)" = "$(counts six.out)" ] ||
        fail "$e: six fields of one value changed the counts: $(counts none.out | tr '\n' ' ') against $(counts six.out | tr '\n' ' ')"
    echo "ok: $e: the same counts with six fields ($(counts none.out | tr '\n' ' '))"
done
thieves 6 FD "explore stateful" >fd.vfs
"$vfsim" -q fd.vfs >fd.out 2>&1 || fail "the sixth field written FD: $(tail -n 2 fd.out)"
n1=$(counts six.out | head -n 1 | cut -d' ' -f1) n2=$(counts fd.out | head -n 1 | cut -d' ' -f1)
[ "$n2" -gt "$n1" ] || fail "the sixth field's value tells no states apart ($n2 states, $n1 without)"
echo "ok: the sixth field's value tells states apart ($n2 states against $n1)"
