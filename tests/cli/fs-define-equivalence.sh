#!/usr/bin/env bash
# A filesystem type defined in the script from the parts (fs define) is the
# built-in one when its row is the same (issue 15):
#  1. every lesson, scenario and conformance sample that mounts a built-in
#     legacy filesystem (->iterate, wrapped from v6.5 on) gives byte for
#     byte the same trace (--trace jsonl) with a defined copy mounted
#     instead, the same other output (the type's name aside) and the same
#     exit status (explore with the default jobs in both runs: its
#     counterexample is the same for the same input and jobs, issue 12);
#  2. on the wrapper situations (two readers, a reader and rmdir, a reader
#     and an lseek of the same file; wrapper correct, no-recheck and
#     naive-upgrade; the presets before, at and after the wrapper) plain
#     explore, explore stateful and explore all give the same verdicts,
#     state, transition and execution counts for the copy as for the
#     built-in type.
# (ntfs is left out: its row is swapped by the ntfs3 knob, which a defined
# row does not follow.)
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/cli/lib/wrapper-situations.bash"

# each legacy type as a kernel developer would define it: its directories'
# file_operations (core/fstypes.c has the built-in rows)
cat >defs.vfs <<'V'
fs define ceph_copy iterate ceph_readdir llseek ceph_dir_llseek read ceph_read_dir
fs define coda_copy iterate coda_readdir llseek generic_file_llseek read generic_read_dir
fs define exfat_copy iterate exfat_iterate llseek generic_file_llseek read generic_read_dir
fs define jfs_copy iterate jfs_readdir llseek generic_file_llseek read generic_read_dir
fs define ocfs2_copy iterate ocfs2_readdir llseek generic_file_llseek read generic_read_dir
fs define overlayfs_copy \
	iterate ovl_iterate \
	llseek ovl_dir_llseek \
	read generic_read_dir \
	maxbytes MAX_LFS_FILESIZE
fs define vboxsf_copy iterate vboxsf_dir_iterate
V
legacy='ceph|coda|exfat|jfs|ocfs2|overlayfs|vboxsf'
# the other output: the copies' names back to the built-in ones, fs list's
# rows of the defined types and what varies between two explores left out
norm() {
    sed -E "s/\\<($legacy)_copy\\>/\\1/g; /\\(defined in the script\\)\$/d" | explore_norm
}
compared=0

# ---- 1. traces ----
mkdir copy
for f in "$top"/examples/*.vfs "$top"/tests/scenarios/*.vfs \
         "$top"/../shared/conformance/*.vfs; do
    [ -f "$f" ] && grep -Eq "^mount ($legacy) " "$f" || continue
    name=$(basename "$f")
    sed -E "s/^mount ($legacy) /mount \\1_copy /" "$f" >"copy/$name"
    cp "$f" "plain-$name"
    (cd "$(dirname "$f")" && NO_COLOR=1 "$vfsim" --trace jsonl "$d/plain-$name" \
        </dev/null >"$d/a.out" 2>&1); a=$?
    (cd "$(dirname "$f")" && NO_COLOR=1 "$vfsim" --trace jsonl "$d/defs.vfs" "$d/copy/$name" \
        </dev/null >"$d/b.out" 2>&1); b=$?
    [ "$a" = "$b" ] || fail "$name: exit status $a built in, $b defined"
    grep '^{' a.out >a.trace; grep '^{' b.out >b.trace
    [ -s a.trace ] || fail "$name: no trace"
    cmp -s a.trace b.trace ||
        fail "$name: the traces differ: $(diff a.trace b.trace | head -n 6)"
    grep -v '^{' a.out >a.rest; grep -v '^{' b.out >b.rest
    diff <(sed "s|$d/plain-||" a.rest | norm) <(sed "s|$d/copy/||" b.rest | norm) >diff.out ||
        fail "$name: the output differs: $(head -n 6 diff.out)"
    grep -q '_copy' b.trace && fail "$name: the copy's name in the trace"
    echo "ok: $name: $(wc -l <a.trace) trace events alike"
    compared=$((compared + 1))
done
[ "$compared" -ge 15 ] || fail "only $compared scripts mount a legacy filesystem"

# ---- 2. explore on the wrapper situations ----
situations() {   # situations FSTYPE: every situation under every kernel
    local fs=$1 k w s
    for k in v4.6 v6.4 3e3271549670 v6.5 mainline; do
        for w in correct no-recheck naive-upgrade; do
            case $k in v4.6|v6.4) [ "$w" = correct ] || continue ;; esac
            for s in readers rmdir lseek; do
                echo "reset"
                echo "kernel $k"
                echo "set wrapper $w"
                echo "echo ---- $k wrapper $w: $s"
                echo "mount $fs /x"
                wrapper_situation "$s"
            done
        done
    done
}
for fs in exfat ceph overlayfs; do
    situations "$fs" >"x-$fs.vfs"
    situations "${fs}_copy" >"x-${fs}_copy.vfs"
    NO_COLOR=1 "$vfsim" "x-$fs.vfs" </dev/null >a.out 2>&1; a=$?
    NO_COLOR=1 "$vfsim" defs.vfs "x-${fs}_copy.vfs" </dev/null >b.out 2>&1; b=$?
    [ "$a" = "$b" ] || fail "explore $fs: exit status $a built in, $b defined"
    [ "$a" = 0 ] || fail "explore $fs: exit status $a: $(tail -n 3 a.out)"
    diff <(norm <a.out) <(norm <b.out) >diff.out ||
        fail "explore $fs: the results differ: $(head -n 8 diff.out)"
    n=$(grep -c '^explored ' a.out)
    [ "$n" -ge 60 ] || fail "explore $fs: only $n explores ran"
    grep -q 'deadlock' a.out && grep -q 'deaddir' a.out ||
        fail "explore $fs: no deadlock or dead directory found anywhere"
    echo "ok: explore $fs: $n searches alike ($(grep '^explored ' a.out |
        sed -E 's/^explored ([0-9,]+) .*/\1/' | tr -d , | paste -sd+ | bc) states or executions)"
done
echo "ok: a defined copy of each legacy filesystem is the built-in one"
