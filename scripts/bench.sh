#!/usr/bin/env bash
# bench.sh: vfsim's benchmarks, in sections.  `make bench` runs them all;
# `scripts/bench.sh SECTION...` runs the named ones.  Numbers and ratios
# are printed; nothing here fails on timing.
#
#   core   bench/core_bench.c: one million system calls through vfs_step
#          (steps/s, peak resident memory, the detectors' cost)
#   host   kernel-reference.md section 9 on this machine: an uncontended
#          pthread mutex around pread(4 KB) vs plain pread
#   detect scripts/bench-detect.sh: a contended replay with and without the
#          detectors (races, passes, lockdep, deadlocks)
#   startup scripts/bench-startup.sh: vfsim -c quit and to the first prompt,
#          against sqlite3 :memory: .quit
#   base   scripts/bench-base.sh: the core replay and the shell's memory
#          against a baseline commit built beside this tree (BENCH_BASE)
#   explore scripts/bench-explore.sh: the issue's explore scenario against
#          SPIN on an equivalent Promela model (bench/spin/)
#   override scripts/bench-override.sh: explore stateful on the thieves
#          with file_needs_f_pos_lock built in and written in the script
#          (override), alternating, the ratio (issue 15: at most 1.5);
#          and with the kernel's own lock order declared ('rule'), its ratio
#   vs-spin scripts/bench-vs-spin.sh: plain explore against SPIN, side by
#          side, the v6.5 proofs at 3x3, 4x4, 5x3 and the v6.4 first
#          counterexample at 4x4 (ROUNDS alternating pairs, min and median)
#   jobs   scripts/bench-jobs.sh: the 5x3 v6.5 proof with one worker and
#          with two, alternating (ROUNDS), min and median, the speed-up,
#          CPU time and how the work split between the two, (two
#          workers on one CPU too) what the second adds in work and in
#          sharing, and (one worker on each CPU) the CPUs' speeds and the
#          speed-up two equal CPUs would show
#   fields scripts/bench-fields.sh: explore on the thieves with 0, 4 and 6
#          declared fields, callgrind's instructions against BENCH_BASE
#          (main) built beside this tree (issue 15: none costs nothing)
#   shell  scripts/bench-shell.sh: a 6,045-line script of calls, steps and
#          views, callgrind's instructions and argument checking's against
#          BENCH_BASE (main) built beside this tree (issue 14)
#   stop   scripts/bench-stop.sh: Ctrl-C to the report's first line, in
#          ms, for every engine on 26 threads x 7 calls under v6.4, against
#          BENCH_BASE (main) built beside this tree (issue 12: 100 ms)
#
#   BENCH_CALLS=N     calls for `core` (1000000)
#   BENCH_SECS=S      seconds per round for `host` (0.3)
#
# To add a section: write section_NAME() below and add NAME to SECTIONS.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

SECTIONS=(core base host detect startup explore override vs-spin jobs fields shell stop)
MAKE=${MAKE:-make}
CC=${CC:-cc}
out=build/bench
mkdir -p "$out"

# The optimised core library of the default build, and the bench binary
# compiled against it with the same flags (no Makefile rule needed).
build_core_bench() {
    $MAKE --no-print-directory -s build/libvfscore.a || return 1
    if [ ! -x "$out/core_bench" ] || [ bench/core_bench.c -nt "$out/core_bench" ] ||
       [ build/libvfscore.a -nt "$out/core_bench" ]; then
        $CC -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
            -D_DEFAULT_SOURCE -Icore -Ibuild/gen -pthread -o "$out/core_bench" \
            bench/core_bench.c build/libvfscore.a -lm || return 1
    fi
}

# (set -e does not reach into a function called from `||`: check each step)
section_core() {
    build_core_bench || return 1
    "$out/core_bench" core "${BENCH_CALLS:-1000000}"
}

section_host() {
    build_core_bench || return 1
    "$out/core_bench" host "${BENCH_SECS:-0.3}"
}

section_detect()  { bash scripts/bench-detect.sh; }
section_startup() { $MAKE --no-print-directory -s all && bash scripts/bench-startup.sh; }
section_explore() { bash scripts/bench-explore.sh; }
section_base()    { bash scripts/bench-base.sh; }
section_vs-spin() { bash scripts/bench-vs-spin.sh; }
section_jobs()    { bash scripts/bench-jobs.sh; }
section_override() { bash scripts/bench-override.sh; }
section_fields() { bash scripts/bench-fields.sh; }
section_shell() { bash scripts/bench-shell.sh; }
section_stop() { bash scripts/bench-stop.sh; }

want=("$@")
[ ${#want[@]} -eq 0 ] && want=("${SECTIONS[@]}")
status=0
for s in "${want[@]}"; do
    if ! declare -F "section_$s" >/dev/null; then
        echo "bench.sh: no section '$s' (sections: ${SECTIONS[*]})" >&2
        exit 2
    fi
    printf '== %s\n' "$s"
    "section_$s" || status=1
    echo
done
exit $status
