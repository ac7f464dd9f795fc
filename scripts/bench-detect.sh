#!/usr/bin/env bash
# bench-detect.sh: the detectors' cost (races, passes, lock order, deadlock)
# on a contended multi-threaded workload that nests locks and blocks, as a
# ratio against the same schedule with w->det.enabled = 0.  bench.sh's
# `core` section measures the single-process, uncontended case.
#   scripts/bench-detect.sh [STEPS]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
MAKE=${MAKE:-make}
CC=${CC:-cc}
out=build/bench
mkdir -p "$out"
$MAKE --no-print-directory -s build/libvfscore.a
if [ ! -x "$out/detect_bench" ] || [ bench/detect_bench.c -nt "$out/detect_bench" ] ||
   [ build/libvfscore.a -nt "$out/detect_bench" ]; then
    $CC -std=c11 -O2 -g -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
        -D_DEFAULT_SOURCE -Icore -Ibuild/gen -pthread -o "$out/detect_bench" \
        bench/detect_bench.c build/libvfscore.a -lm
fi
exec "$out/detect_bench" "${1:-2000000}"
