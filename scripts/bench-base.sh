#!/usr/bin/env bash
# bench-base.sh: the core replay and the shell's memory, this tree against a
# baseline commit built beside it, in one run (numbers and ratios, no
# verdict on timing).  BENCH_BASE=COMMIT picks the baseline (default: the
# last commit before the world's tables became growable heap arrays).
#
#   core    bench/core_bench.c of each tree against its own libvfscore.a:
#           steps/s with and without the detectors, peak resident memory;
#           the two binaries alternate, best of ROUNDS rounds each
#   prompt  peak resident memory of `vfsim -q -c quit` and of the first
#           lesson run to its end, each tree's own build
#   views   instructions (callgrind) of each tree's vfsim on a view-heavy
#           script: VIEW_ROUNDS rounds of four calls, each step followed by
#           where, locks, files, fds and ps (the shell reads the world
#           through core's accessors: issue 14 allows +2%)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
base=${BENCH_BASE:-cd59d92}
rounds=${ROUNDS:-3}
calls=${BENCH_CALLS:-1000000}
out=build/bench
dir=$out/base-$base
MAKE=${MAKE:-make}
CC=${CC:-cc}
mkdir -p "$out"

if [ ! -x "$dir/build/vfsim" ] || [ ! -x "$dir/core_bench" ]; then
    rm -rf "$dir" && mkdir -p "$dir" || exit 2
    git archive "$base" | tar -x -C "$dir" || { echo "bench-base: no commit $base" >&2; exit 2; }
    $MAKE -C "$dir" --no-print-directory -s -j2 build/vfsim build/libvfscore.a \
        >"$dir.log" 2>&1 || { tail -20 "$dir.log"; exit 2; }
    $CC -std=c11 -O2 -g -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$dir/core" -I"$dir/build/gen" \
        -pthread -o "$dir/core_bench" "$dir/bench/core_bench.c" \
        "$dir/build/libvfscore.a" -lm || exit 2
fi
$MAKE --no-print-directory -s build/vfsim build/libvfscore.a || exit 2
$CC -std=c11 -O2 -g -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Icore -Ibuild/gen -pthread \
    -o "$out/core_bench" bench/core_bench.c build/libvfscore.a -lm || exit 2

# field VALUE-LINE: "detectors on:  N steps in S s = X M steps/s" -> X
rate() { sed -nE "s/.*$1: .* = ([0-9.]+) M steps\/s.*/\1/p"; }
rss()  { sed -nE 's/.*peak resident memory: ([0-9.]+) MB.*/\1/p'; }
best() { sort -g | tail -n 1; }
declare -a on_now on_base off_now off_base rss_now rss_base
for ((r = 0; r < rounds; r++)); do
    a=$("$out/core_bench" core "$calls"); b=$("$dir/core_bench" core "$calls")
    on_now+=("$(rate 'detectors on' <<<"$a")"); off_now+=("$(rate 'detectors off' <<<"$a")")
    on_base+=("$(rate 'detectors on' <<<"$b")"); off_base+=("$(rate 'detectors off' <<<"$b")")
    rss_now+=("$(rss <<<"$a")"); rss_base+=("$(rss <<<"$b")")
done
o1=$(printf '%s\n' "${on_now[@]}" | best); o0=$(printf '%s\n' "${on_base[@]}" | best)
f1=$(printf '%s\n' "${off_now[@]}" | best); f0=$(printf '%s\n' "${off_base[@]}" | best)
m1=$(printf '%s\n' "${rss_now[@]}" | sort -g | head -n 1)
m0=$(printf '%s\n' "${rss_base[@]}" | sort -g | head -n 1)
echo "base: core replay, $calls calls, best of $rounds alternating rounds; baseline $base"
awk -v a="$o1" -v b="$o0" 'BEGIN { printf "base: detectors on:  now %.2f M steps/s, base %.2f, ratio now/base %.3f\n", a, b, a / b }'
awk -v a="$f1" -v b="$f0" 'BEGIN { printf "base: detectors off: now %.2f M steps/s, base %.2f, ratio now/base %.3f\n", a, b, a / b }'
awk -v a="$m1" -v b="$m0" 'BEGIN { printf "base: core replay peak RSS: now %.1f MB, base %.1f MB\n", a, b }'

# peak resident memory of a command, in MB (GNU time's %M; Debian: time)
maxrss() {
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1 |
            awk '{ printf "%.1f", $1 / 1024 }'
    else
        echo "?"
    fi
}
export NO_COLOR=1 VFSIM_HISTFILE=$out/history
p1=$(maxrss build/vfsim -q -c quit); p0=$(maxrss "$dir/build/vfsim" -q -c quit)
l1=$(cd examples && maxrss ../build/vfsim -q 08-pidfd-getfd-explore-v6.4.vfs)
l0=$(cd "$dir/examples" && maxrss ../build/vfsim -q 08-pidfd-getfd-explore-v6.4.vfs)
echo "base: at the prompt (vfsim -q -c quit): now $p1 MB, base $p0 MB (target < 8 MB)"
echo "base: lesson 8 (explore) run whole: now $l1 MB, base $l0 MB"

# Instructions (valgrind's callgrind): the same count for the same binary
# and input whatever else the machine runs, so the ratio is exact.
if command -v valgrind >/dev/null 2>&1; then
    icalls=${BENCH_ICALLS:-50000}
    ir() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
            sed -nE 's/.*Collected : ([0-9]+).*/\1/p'
    }
    i1=$(ir "$out/core_bench" core "$icalls"); i0=$(ir "$dir/core_bench" core "$icalls")
    awk -v a="$i1" -v b="$i0" -v c="$icalls" 'BEGIN {
        printf "base: instructions (callgrind, core_bench core %d: warm-up and 3 rounds on and off): now %.0f, base %.0f, ratio now/base %.3f\n", c, a, b, a / b }'
    # the views: both trees print the same lines for it (compared)
    views=$out/views.vfs
    {
        printf '%s\n' 'kernel v6.4' 'mkdir /d' 'touch /d/a /d/b /d/c' 'spawn A' \
            'spawn B uid=1000' 'spawn C' 'A: open /d' 'A: open /d/a rdwr' 'A: clone' \
            'C: pidfd_open A' 'B: open /d'
        for ((r = 0; r < ${VIEW_ROUNDS:-30}; r++)); do
            printf '%s\n' 'A: getdents 3 2 &' 'A.2: lseek 3 0 &' 'B: getdents 3 1 &' 'A: read 4 5 &'
            for ((k = 0; k < 12; k++)); do
                printf '%s\n' step where locks files fds ps
            done
            printf '%s\n' run 'ls /d' stats
        done
    } >"$views"
    build/vfsim -q "$views" >"$out/views.now" 2>&1
    "$dir/build/vfsim" -q "$views" >"$out/views.base" 2>&1
    same=$(cmp -s "$out/views.now" "$out/views.base" && echo "the same output" ||
           echo "outputs differ")
    v1=$(ir build/vfsim -q "$views"); v0=$(ir "$dir/build/vfsim" -q "$views")
    awk -v a="$v1" -v b="$v0" -v n="$(wc -l <"$views")" -v same="$same" 'BEGIN {
        printf "base: instructions (callgrind, vfsim -q on %d lines of views after each step, %s): now %.0f, base %.0f, ratio now/base %.4f\n", n, same, a, b, a / b }'
fi
