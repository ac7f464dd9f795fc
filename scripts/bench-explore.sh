#!/bin/sh
# bench-explore.sh -- time vfsim's explorer on the "pidfd thieves" scenario
# (the twin of bench/spin/pidfd.pml) and compare with SPIN in the same run.
# scripts/bench.sh calls it; it can run alone.
#
#   bench scenario: v6.5, /d with 30 files, A opens /d (fd 3); thieves B C D
#     pidfd_open A in the foreground, then pending pidfd_getfd 3 3 and three
#     getdents 4 2; A has three pending getdents 3 2.
#
# Prints lines "explore-bench: KEY=VALUE ...":
#   bench     the bench scenario, reduced search (DPOR), jobs 1, capped at
#             MAX executions (BENCH_EXPLORE_MAX, default 1000000; the full
#             search is ~10^8 executions, out of reach): executions,
#             seconds, executions/s, complete=0/1.  (With a cap, more jobs
#             waste work: a subtree cannot know the executions before it.)
#   ratio     naive/reduced executions on a smaller variant (1 thief, one
#             call each, 4 files: naive enumeration of the bench scenario is
#             out of reach), with the variant named
#   speedup   jobs 1 vs jobs 2 on a variant that completes: v6.4, 3 thieves,
#             one call each, 2 files (~580k executions)
#   spin      SPIN's time (scripts/bench-spin.sh --kernel v6.5) and the
#             ratio vfsim seconds / SPIN seconds
#   state     the bench scenario, stateful search (every distinct state
#             once, complete): states, transitions, best and median seconds
#             of STATE_RUNS runs (default 3) with jobs 1 and jobs 2, the
#             speed-up, the ratio to SPIN's seconds, and the load average
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
MAX=${BENCH_EXPLORE_MAX:-1000000}
bin=build/explore-bench
make --no-print-directory build/libvfscore.a >/dev/null
${CC:-cc} -O2 -g -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Icore \
	-pthread -o "$bin" bench/explore-bench.c build/libvfscore.a -lm

field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

echo "== explore: the bench scenario (v6.5, 3 thieves, 30 files, 3 calls of 2)"
b=$("$bin" -k v6.5 -t 3 -f 30 -c 3 -p 2 -m "$MAX" -j 1)
echo "$b"
bx=$(field "$b" executions); bs=$(field "$b" seconds); bc=$(field "$b" complete)
echo "explore-bench: bench executions=$bx seconds=$bs rate=$(field "$b" rate) complete=$bc cap=$MAX"

echo "== explore: naive / reduced on a small variant (v6.5, 1 thief, 1 call each, 4 files)"
n=$("$bin" -k v6.5 -t 1 -f 4 -c 1 -p 2 -n)
d=$("$bin" -k v6.5 -t 1 -f 4 -c 1 -p 2)
echo "$n"; echo "$d"
nx=$(field "$n" executions); dx=$(field "$d" executions)
echo "explore-bench: ratio variant=v6.5/1thief/1call/4files naive=$nx reduced=$dx" \
     "ratio=$(awk -v a="$nx" -v b="$dx" 'BEGIN { printf "%.1f", a / b }')" \
     "outcomes_naive=$(field "$n" outcomes) outcomes_reduced=$(field "$d" outcomes)"

echo "== explore: jobs 1 vs jobs 2 (v6.4, 3 thieves, 1 call each, 2 files: complete)"
# best of 3 alternating rounds each: the machine's other work adds noise
s1=; s2=
for round in 1 2 3; do
	j1=$("$bin" -k v6.4 -t 3 -f 2 -c 1 -p 2 -j 1)
	j2=$("$bin" -k v6.4 -t 3 -f 2 -c 1 -p 2 -j 2)
	echo "$j1"; echo "$j2"
	t1=$(field "$j1" seconds); t2=$(field "$j2" seconds)
	s1=$(awk -v a="$s1" -v b="$t1" 'BEGIN { print (a == "" || b < a) ? b : a }')
	s2=$(awk -v a="$s2" -v b="$t2" 'BEGIN { print (a == "" || b < a) ? b : a }')
done
echo "explore-bench: speedup jobs1=$s1 jobs2=$s2 speedup=$(awk -v a="$s1" -v b="$s2" 'BEGIN { printf "%.2f", a / b }') cpus=$(nproc)"

echo "== spin (scripts/bench-spin.sh --kernel v6.5)"
if sp=$(scripts/bench-spin.sh --kernel v6.5 2>/dev/null); then
	echo "$sp"
	ss=$(field "$sp" seconds)
	echo "explore-bench: spin seconds=$ss vfsim_seconds=$bs vfsim_complete=$bc" \
	     "ratio=$(awk -v a="$bs" -v b="$ss" 'BEGIN { printf "%.1f", a / b }')"
else
	echo "explore-bench: spin unavailable"
	ss=
fi

echo "== explore stateful: the bench scenario (every distinct state once)"
RUNS=${STATE_RUNS:-3}
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
s1=$("$bin" -k v6.5 -t 3 -f 30 -c 3 -p 2 -s -j 1 -r "$RUNS")
s2=$("$bin" -k v6.5 -t 3 -f 30 -c 3 -p 2 -s -j 2 -r "$RUNS")
echo "$s1"; echo "$s2"
t1=$(field "$s1" seconds); t2=$(field "$s2" seconds)
echo "explore-bench: state states=$(field "$s1" states) states_j2=$(field "$s2" states)" \
     "transitions=$(field "$s1" transitions) complete=$(field "$s1" complete)" \
     "violating=$(field "$s1" violating) jobs1=$t1 jobs2=$t2" \
     "median1=$(field "$s1" median) median2=$(field "$s2" median)" \
     "speedup=$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.2f", a / b }')" \
     "spin=${ss:-?} ratio=$(awk -v a="$t1" -v b="${ss:-0}" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "?" }')" \
     "cpus=$(nproc) load=\"$load\""
