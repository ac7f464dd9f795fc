# bench-base-tree.bash: sourced by the benchmarks that compare this tree
# with another commit.  base_tree NAME: BENCH_BASE (default main) built
# beside this tree in build/bench/NAME (rebuilt when BENCH_BASE moves), and
# this tree's build/vfsim; sets $rev (the base's short hash) and $dir.
base_tree() {
    local base=${BENCH_BASE:-main} make=${MAKE:-make}
    dir=build/bench/$1
    mkdir -p build/bench || exit 2
    rev=$(git rev-parse --short "$base") || exit 2
    if [ ! -x "$dir/build/vfsim" ] || [ "$(cat "$dir.rev" 2>/dev/null)" != "$rev" ]; then
        rm -rf "$dir" && mkdir -p "$dir" || exit 2
        git archive "$rev" | tar -x -C "$dir" || exit 2
        $make -C "$dir" --no-print-directory -s -j2 build/vfsim >"$dir.log" 2>&1 ||
            { tail -20 "$dir.log"; exit 2; }
        echo "$rev" >"$dir.rev"
    fi
    $make --no-print-directory -s build/vfsim || exit 2
}
