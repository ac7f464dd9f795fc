#!/usr/bin/env bash
# difftest.sh: the differential harness: vfsim against the host kernel.
#
#   scripts/difftest.sh [-n COUNT] [-s SEED] [-v VFSIM] [-k PRESET] [FS...]
#
# For each filesystem (ext4 and tmpfs unless named): tests/difftest/gen.py
# writes COUNT random sequential scenarios (5000 by default), vfsim runs
# them, build/difftest-runner performs the same calls with real system
# calls in a fresh directory (ext4: under /tmp or /work, whichever `stat -f`
# says is ext2/ext3/ext4; tmpfs: a tmpfs mounted per scenario, root only),
# and tests/difftest/compare.py compares the answers.  Prints, per
# filesystem, a "PASS difftest/FS" or "FAIL difftest/FS" line (or "SKIP
# difftest/FS: why") after the counts: scenarios, calls compared, mismatches
# per class, declared simplifications (tests/difftest/SIMPLIFICATIONS).
# Exit status 0 when no filesystem had a mismatch.  `make difftest` runs it;
# `make check` runs 200 scenarios per filesystem through the ASan build.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2

count=5000 seed=${DIFFTEST_SEED:-1} vfsim=build/vfsim preset=mainline
while getopts n:s:v:k: o; do
    case $o in
    n) count=$OPTARG ;;
    s) seed=$OPTARG ;;
    v) vfsim=$OPTARG ;;
    k) preset=$OPTARG ;;
    *) echo "usage: $0 [-n COUNT] [-s SEED] [-v VFSIM] [-k PRESET] [FS...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- ext4 tmpfs
runner=build/difftest-runner
for f in "$vfsim" "$runner"; do
    [ -x "$f" ] || { echo "difftest: $f is not built (make $f)" >&2; exit 2; }
done

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
bad=0

# an ext4 directory for the runner, or nothing
ext4_dir() {
    local d
    for d in "${TMPDIR:-/tmp}" /tmp /work; do
        [ -d "$d" ] && [ -w "$d" ] || continue
        case $(stat -f -c %T "$d" 2>/dev/null) in
        ext2/ext3|ext4) mktemp -d "$d/difftest.XXXXXX"; return ;;
        esac
    done
}

for fs in "$@"; do
    case $fs in
    ext4)  base=$(ext4_dir)
           if [ -z "$base" ]; then echo "SKIP difftest/ext4: no writable ext4 directory"; continue; fi ;;
    tmpfs) if [ "$(id -u)" -ne 0 ]; then
               echo "SKIP difftest/tmpfs: mounting a tmpfs needs root"; continue
           fi
           base=$(mktemp -d) ;;
    *)     echo "difftest: unknown filesystem '$fs' (ext4, tmpfs)" >&2; exit 2 ;;
    esac
    python3 tests/difftest/gen.py --fs "$fs" --seed "$seed" --count "$count" \
        --preset "$preset" >"$tmp/$fs.vfs" || exit 2
    NO_COLOR=1 "$vfsim" "$tmp/$fs.vfs" </dev/null >"$tmp/$fs.vfsim" 2>"$tmp/$fs.err"
    rc=$?
    "$runner" "$base" "$tmp/$fs.vfs" >"$tmp/$fs.host" 2>>"$tmp/$fs.err"
    rrc=$?
    rm -rf "$base"
    if [ "$rc" -ne 0 ] || [ "$rrc" -ne 0 ] || [ -s "$tmp/$fs.err" ]; then
        sed 's/^/    /' "$tmp/$fs.err" | head -n 20
        echo "FAIL difftest/$fs (vfsim exit $rc, runner exit $rrc)"
        bad=1
        continue
    fi
    if python3 tests/difftest/compare.py --fs "$fs" "$tmp/$fs.vfs" "$tmp/$fs.vfsim" \
            "$tmp/$fs.host"; then
        echo "PASS difftest/$fs"
    else
        echo "FAIL difftest/$fs (seed $seed; scripts/difftest.sh -n $count -s $seed $fs)"
        bad=1
    fi
done
exit $bad
