#!/usr/bin/env bash
# fuzz.sh [SECONDS] [-- LIBFUZZER-OPTIONS...] (make fuzz FUZZ_SECONDS=N): build tests/fuzz/fuzz_session.c
# with libFuzzer + ASan + UBSan (clang) and run it for SECONDS (default 60)
# on a seed corpus made from the project's scripts.  Not part of `make check`.
# fuzz.sh build: build it only (tests/cli/fuzz-harness.sh).
#
#   build/fuzz/fuzz_session      the fuzzer (-DVFSIM_FUZZ: `run` capped at a
#                                small step budget, every search bounded)
#   build/fuzz/corpus/           the working corpus (kept between runs)
#   build/fuzz/artifacts/        crash-*, timeout-*, leak-*, oom-* inputs
#   build/fuzz/logs/             the output of each run (fuzz-DATE.log)
#   build/fuzz/fuzz-N.log        libFuzzer's per-job logs (JOBS > 1)
#
# A crashing input found here belongs in tests/fuzz/regress/ (make check's
# fuzz-regress stage runs those through build/asan/vfsim).
#   JOBS=N     run N fuzzer processes in parallel (default 1)
#   FUZZ_EXPLORE=1  let `explore` lines run the explore engines (slow)
#   FUZZ_MAX_LEN=N  the longest input in bytes (default 2048)
#   FUZZ_ENTROPIC=1 libFuzzer's entropic schedule (slower per input)
#   FUZZ_NOCMP=GLOBS the sources built without trace-cmp (see below)
# libFuzzer stops at the first crash; for a long unattended run that goes on
# past crashes: scripts/fuzz.sh 1200 -- -fork=1 -ignore_crashes=1 -ignore_timeouts=1
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
secs=${1:-60}
[ $# -gt 0 ] && shift
[ "${1:-}" = "--" ] && shift
CC=${FUZZ_CC:-clang}
command -v "$CC" >/dev/null || scripts/deps.sh fuzz || exit 2
command -v "$CC" >/dev/null || { echo "fuzz.sh: $CC not found (apt-get install clang)" >&2; exit 2; }

out=$top/build/fuzz
mkdir -p "$out/obj" "$out/corpus" "$out/artifacts"
# what the build makes from data (core/presets.tbl, core/accessors.tbl,
# cli/commands.tbl), as make makes it
${MAKE:-make} -s build/gen/presets.inc build/gen/accessors.inc build/gen/commands.inc
flags="-std=c11 -g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined
       -fno-sanitize-recover=undefined -DVFSIM_FUZZ -DVFSIM_LINEEDIT_NONE
       -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Icore -Icli -Ibuild/gen -pthread"
# libFuzzer's comparison tracing (trace-cmp: every compare's operands
# recorded, so that it can guess the words and numbers an input should
# hold) was a third of a run, most of it in loops that compare bytes of
# every line against constants: the lexer, the script reader, the
# command lookup and "did you mean", the output and the pictures, and
# the simulated kernel's loops.  Those files keep their edge counters (the
# coverage the fuzzer steers by) without trace-cmp; the commands' own
# argument checks (cli/cmd_*.c, ...) keep it, and the words themselves are
# in the dictionary and reach libFuzzer through strcmp's hook anyway.
# FUZZ_NOCMP: the files (globs) built without trace-cmp ('' for none).
nocmp=${FUZZ_NOCMP-core/* cli/lex.c cli/script.c cli/cmd.c cli/output.c cli/picture.c cli/timeline.c}
cmp_flags() {
    local - g
    set -f
    for g in $nocmp; do
        # shellcheck disable=SC2254
        case $1 in $g) echo -fno-sanitize-coverage=trace-cmp; return ;; esac
    done
}
objs=()
for src in core/*.c cli/*.c; do
    case $src in cli/main.c) continue ;; esac
    obj=$out/obj/$(echo "$src" | tr / _).o
    # shellcheck disable=SC2086,SC2046
    if [ ! -e "$obj" ] || [ "$src" -nt "$obj" ] || [ -n "$(find core cli build/gen -name '*.h' -newer "$obj" -o -name '*.inc' -newer "$obj" | head -n 1)" ] \
       || [ scripts/fuzz.sh -nt "$obj" ] || [ "$(cat "$out/obj/.nocmp" 2>/dev/null)" != "$nocmp" ]; then
        # the explore engines' loops without coverage counters: what the
        # fuzzer looks for is in the shell and the simulated kernel, and
        # the counters made a capped explore most of the time of a run
        case $src in
        core/explore*.c) $CC ${flags/fuzzer-no-link,/} -c -o "$obj" "$src" ;;
        *)               $CC $flags $(cmp_flags "$src") -c -o "$obj" "$src" ;;
        esac
    fi
    objs+=("$obj")
done
echo "$nocmp" >"$out/obj/.nocmp"
# shellcheck disable=SC2086
$CC $flags -fsanitize=fuzzer -o "$out/fuzz_session" tests/fuzz/fuzz_session.c "${objs[@]}" -lm
[ "$secs" = build ] && exit 0

# seeds: every script of the project, and the regression inputs
for f in tests/scenarios/*.vfs examples/*.vfs tests/golden/*.vfs ../shared/conformance/*.vfs \
         tests/fuzz/regress/*.vfs; do
    [ -f "$f" ] || continue
    cp -n "$f" "$out/corpus/seed-$(echo "$f" | tr / _)" 2>/dev/null || true
done

# FUZZ_EXPLORE=1: `explore` runs its (bounded) engines too; they cost
# milliseconds an input, so by default the fuzzer skips them
export VFSIM_FUZZ_EXPLORE=${FUZZ_EXPLORE:-0}
# ASan tuned for many short runs: no 0xbe fill of each new block (it only
# makes an uninitialised read repeatable; MSan is the tool for those and
# the fill was 8% of a run), a 2 MiB quarantine instead of 256 (an input
# allocates about 0.9 MB, so a freed block is still poisoned for the rest
# of its input and the next ones; 8 MiB cost 5-10% more CPU), and five
# frames of allocation stack kept instead of thirty.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1:max_malloc_fill_size=0:quarantine_size_mb=2:malloc_context_size=5}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
jobs=${JOBS:-1}
# FUZZ_MAX_LEN: the longest input (2,048 bytes: a script of 60 to 100
# lines).  `back` and `compare` replay the session so far, so an input's
# cost grows faster than its length: at 4,096 the fuzzer ran about half
# as many inputs a second, and the defects found so far (tests/fuzz/regress)
# all fit in a few lines.
max_len=${FUZZ_MAX_LEN:-2048}
# FUZZ_ENTROPIC=1: libFuzzer's entropic schedule (its default).  Its
# bookkeeping (UpdateFeatureFrequency over some 28,000 features an input)
# was a quarter of a run; the plain schedule ran 780-790 inputs per
# CPU-second against 580-640 (60 s each, alternating, same corpus).
entropic=${FUZZ_ENTROPIC:-0}
# -reload: how often a job lists the corpus directory for what the other
# jobs found (libFuzzer's default: every second, a stat of each of some
# 10,000 files by the end of a long run); never with one job.
extra=(-reload=0)
[ "$jobs" -gt 1 ] && extra=(-jobs="$jobs" -workers="$jobs" -reload=10)
# from build/fuzz: libFuzzer writes its per-job logs (fuzz-N.log) where it
# runs; its own output is kept in build/fuzz/logs/ too
mkdir -p "$out/logs"
log=$out/logs/fuzz-$(date +%Y%m%d-%H%M%S).log
cd "$out"
echo "fuzz.sh: ${secs}s, log in $log" >&2
set +e
"$out/fuzz_session" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -max_len="$max_len" -entropic="$entropic" -close_fd_mask=3 -dict="$top/tests/fuzz/vfsim.dict" \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1 "${extra[@]}" "$@" "$out/corpus" \
    2>&1 | tee "$log"
exit "${PIPESTATUS[0]}"
