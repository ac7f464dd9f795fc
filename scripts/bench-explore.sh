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
#   exhaustive the bench scenario, stateful search (every distinct
#             state once, complete): states, transitions, best seconds of
#             STATE_RUNS runs (default 5) with jobs 1 and 2, the rate, the
#             speed-up
#   exhaustive-naive  the same search step by step (no locking
#             discipline; BENCH_NAIVE=0 skips it, ~15 s): states, seconds,
#             the ratios naive / reduced
#   vs-spin   wall time of one vfsim process (jobs 1, jobs 2) and of ./pan,
#             best of STATE_RUNS each, alternating; the ratios (target:
#             vfsim <= 0.5 x SPIN)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
MAX=${BENCH_EXPLORE_MAX:-1000000}
bin=build/explore-bench
make --no-print-directory build/libvfscore.a >/dev/null
${CC:-cc} -O2 -g -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Icore -Ibuild/gen \
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
	echo "explore-bench: spin seconds=$ss dpor_capped_seconds=$bs dpor_complete=$bc" \
	     "ratio=$(awk -v a="$bs" -v b="$ss" 'BEGIN { printf "%.1f", a / b }')"
else
	echo "explore-bench: spin unavailable"
	ss=
fi

echo "== explore stateful: the bench scenario, exhaustive (every distinct state once)"
RUNS=${STATE_RUNS:-5}
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')
. "$here/scripts/bench-clock.sh"
# Both tools timed the same way: the wall time of one process (vfsim's
# includes building the scenario; SPIN's excludes spin -a and cc), best
# of RUNS, alternating so that the machine's other work hits both.
best() { awk -v a="$1" -v b="$2" 'BEGIN { print (a == "" || b < a) ? b : a }'; }
w1=; w2=; wsp=; s1=; s2=
for r in $(seq "$RUNS"); do
	now_to t0; o1=$("$bin" -k v6.5 -t 3 -f 30 -c 3 -p 2 -s -j 1); now_to t1
	o2=$("$bin" -k v6.5 -t 3 -f 30 -c 3 -p 2 -s -j 2); now_to t2
	w1=$(best "$w1" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')")
	w2=$(best "$w2" "$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.4f", b - a }')")
	s1=$(best "$s1" "$(field "$o1" seconds)"); s2=$(best "$s2" "$(field "$o2" seconds)")
	if [ -n "${ss:-}" ] && sp=$(scripts/bench-spin.sh --kernel v6.5 2>/dev/null); then
		wsp=$(best "$wsp" "$(field "$sp" seconds)")
	fi
done
echo "$o1"; echo "$o2"
echo "== explore stateful naive: the same, step by step (no locking discipline)"
if [ "${BENCH_NAIVE:-1}" = 1 ]; then
	on=$("$bin" -k v6.5 -t 3 -f 30 -c 3 -p 2 -s -n -j 1)
	echo "$on"
else
	on=
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b > 0) printf "%.2f", a / b; else print "?" }'; }
echo "explore-bench: exhaustive states=$(field "$o1" states) transitions=$(field "$o1" transitions)" \
     "complete=$(field "$o1" complete) violating=$(field "$o1" violating)" \
     "states_j2=$(field "$o2" states) rounds=$(field "$o1" rounds)" \
     "seconds_j1=$s1 seconds_j2=$s2" \
     "rate_j1=$(awk -v a="$(field "$o1" transitions)" -v b="$s1" 'BEGIN { printf "%.0f", a / b }')/s" \
     "speedup_j2=$(ratio "$s1" "$s2")"
echo "explore-bench: exhaustive-naive states=$(field "$on" states) transitions=$(field "$on" transitions)" \
     "seconds=$(field "$on" seconds)" \
     "ratio_states=$(ratio "$(field "$on" states)" "$(field "$o1" states)")" \
     "ratio_seconds=$(ratio "$(field "$on" seconds)" "$s1")"
echo "explore-bench: vs-spin wall_j1=$w1 wall_j2=$w2 spin_wall=${wsp:-?}" \
     "ratio_j1=$(ratio "$w1" "${wsp:-0}") ratio_j2=$(ratio "$w2" "${wsp:-0}")" \
     "target=0.5 runs=$RUNS cpus=$(nproc) load=\"$load\""
