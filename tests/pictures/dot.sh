#!/usr/bin/env bash
# export dot: Graphviz accepts the lock-order graph; f_pos_lock -> i_rwsem
# is an edge labelled with its first path; the naive read-to-write upgrade
# is a red inversion.  The SVGs go to build/pictures-test/ too.
. "$(dirname "$0")/lib.bash"
command -v dot >/dev/null || { echo "no dot (graphviz): skipped" >&2; exit 77; }
mkdir -p "$shots" || exit 2

"$VFSIM" -q "$(pidfd_race)" -c "export dot $work/race.dot" >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "vfsim on the race scenario"; }
"$VFSIM" -q "$(upgrade)" -c "export dot $work/upgrade.dot" >"$work/out" 2>&1
"$VFSIM" -q -c "export dot $work/empty.dot" >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "vfsim with nothing traced"; }

for f in race upgrade empty; do
    if dot -Tsvg "$work/$f.dot" -o "$shots/$f-locks.svg" 2>"$work/err" && [ ! -s "$work/err" ]; then
        ok "dot -Tsvg $f.dot"
    else
        cat "$work/err" >&2
        fail "dot -Tsvg $f.dot"
    fi
done
grep -q '^digraph lock_order' "$work/race.dot" && ok "a digraph" || fail "not a digraph"
grep -Eq 'k8 -> k16 \[label="[^"]*B, step [0-9]+:\\lholds file#1 f_pos_lock \(getdents64 > fdget_pos > mutex_lock' \
    "$work/race.dot" && ok "f_pos_lock -> i_rwsem, first taken by B in getdents64" ||
    fail "the f_pos_lock -> i_rwsem edge and its path"
grep -q 'D00000' "$work/race.dot" && fail "race.dot: no inversion expected" || ok "race.dot: no inversion"
grep -Eq 'k16 -> k16 \[label="INVERSION[^"]*", color="#D00000"' "$work/upgrade.dot" &&
    ok "the upgrade is a red self-inversion of i_rwsem" || fail "upgrade.dot: no red edge"
grep -q 'no lock taken while holding another' "$work/empty.dot" && ok "an empty graph says so" ||
    fail "empty.dot"
done_
