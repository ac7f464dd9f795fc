#!/usr/bin/env bash
# A defined copy of v6.5's wrap_directory_iterator, put in the wrapper's
# place (hook wrap_directory_iterator), is the built-in wrapper (issue
# 15): on the wrapper situations (two readers, a reader and rmdir, a
# reader and an lseek of the same file; the kernels that wrap) plain
# explore, explore stateful and explore all give the same verdicts,
# state, transition and execution counts, and the same counterexamples.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
. "$top/tests/cli/lib/wrapper-situations.bash"

# the wrapper as fs/readdir.c has it since 3e3271549670
cat >copy.vfs <<'V'
define function copy_wrap __must_hold(i_rwsem)
  unlock i_rwsem of inode
  lock i_rwsem of inode write
  read dir of inode
  if dead != 0
    downgrade i_rwsem of inode
    return -ENOENT
  end
  iterate
  downgrade i_rwsem of inode
  return ret
end
V
situations() {   # situations HOOK: every situation under every wrapping kernel
    local k s
    for k in 3e3271549670 v6.5 mainline; do
        for fs in exfat ceph; do
            for s in readers rmdir lseek; do
                echo "reset"
                echo "kernel $k"
                [ -n "$1" ] && echo "hook wrap_directory_iterator $1"
                echo "echo ---- $k $fs: $s"
                echo "mount $fs /x"
                wrapper_situation "$s"
                echo "explore dpor jobs 1"
            done
        done
    done
}
situations "" >builtin.vfs
situations copy_wrap >hooked.vfs
NO_COLOR=1 "$vfsim" builtin.vfs </dev/null >a.out 2>&1; a=$?
NO_COLOR=1 "$vfsim" copy.vfs hooked.vfs </dev/null >b.out 2>&1; b=$?
[ "$a" = 0 ] || fail "built-in: exit status $a: $(tail -n 3 a.out)"
[ "$b" = 0 ] || fail "hooked: exit status $b: $(tail -n 3 b.out)"
n=$(grep -c '^explored \|^no violation is reachable' a.out)
[ "$n" -ge 60 ] || fail "only $n explores ran"
# the tables name the function in the wrapper's place: its name, and the
# steps its lines are (the counts and verdicts are the comparison)
norm() { explore_norm | grep -E '^(engine|explored|no violation|a violation|[0-9]+ distinct|[0-9]+ violat|----)'; }
diff <(norm <a.out) <(norm <b.out) >diff.out ||
    fail "the results differ: $(head -n 8 diff.out)"
echo "ok: $n searches alike, the defined wrapper as the built-in one ($(grep -c '^no violation' a.out) proofs)"
