#!/usr/bin/env bash
# bench-vs-spin.sh -- plain `explore` (the stateful search to the first
# violation, with the shortest-counterexample search beside it) against
# SPIN on its Promela twin bench/spin/pidfd.pml, side by side, at the
# sizes of issue 12: the v6.5 proofs at 3x3, 4x4 and 5x3 (thieves x calls)
# and the v6.4 first counterexample at 4x4.  30 files (SPIN: 32 entries
# with . and ..), getdents of 2.
#
# Both are timed as whole processes (date before and after): vfsim is
# build/explore-bench -F (it builds the scenario, then explores, like a
# vfsim session), SPIN is ./pan -m100000 -w24 (spin -a and cc not timed).
# SIZES="K:T:C ..." (default the four above, e.g. SIZES=v6.5:4:4) picks
# sizes.  The machine is shared and noisy: ROUNDS (default 5) alternating pairs,
# min and median of each, the ratios vfsim/SPIN of both, states per
# second and microseconds per state, from the medians (vfsim: the stateful
# search's states plus the shortest search's; SPIN: states stored).
# A vfsim state is coarser than SPIN's (a transition is a block of kernel
# steps: at 4x4 about 24 of SPIN's states per vfsim state), so the work
# per unit is printed too: microseconds per kernel step vfsim executed
# (the stateful search's and the preemption-bounded probe's steps, the
# shortest search's and the check's not counted, so an upper bound)
# against microseconds per SPIN transition.  On v6.4 the probe finds the
# race and the stateful search does not run: vfsim's states there are
# the step-by-step search's only, and its time is mostly the probe's
# executions and the check's, so its "per state" is not a state's cost
# (and its per step n/a).
#
# Prints one line per size:
#   vs-spin kernel=K size=TxC vfsim_min= vfsim_med= spin_min= spin_med=
#     ratio_min= ratio_med= vfsim_states= vfsim_states_per_s=
#     vfsim_us_per_state= spin_states= spin_states_per_s= spin_us_per_state=
#     vfsim_steps= vfsim_us_per_step= spin_transitions=
#     spin_us_per_transition= vfsim_cex_preemptions= spin_errors= target=0.2
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
ROUNDS=${ROUNDS:-5}
SPIN=${SPIN:-spin}
CC=${CC:-cc}
bin=build/explore-bench
make --no-print-directory -s build/libvfscore.a >/dev/null
$CC -O2 -g -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Icore -Ibuild/gen \
	-pthread -o "$bin" bench/explore-bench.c build/libvfscore.a -lm
command -v "$SPIN" >/dev/null 2>&1 || {
	echo "bench-vs-spin: no spin (scripts/deps.sh bench installs it)" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vs-spin.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

. "$here/scripts/bench-clock.sh"
field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
per_state() {   # NAME STATES SECONDS: NAME_states_per_s= NAME_us_per_state=
	awk -v k="$1" -v n="$2" -v s="$3" 'BEGIN {
		printf "%s_states_per_s=%.0f %s_us_per_state=%.2f", k, n / s, k, s / n * 1e6 }'
}
per_unit() {    # N SECONDS: microseconds per unit (n/a for none)
	awk -v n="$1" -v s="$2" 'BEGIN {
		if (n > 0) printf "%.3f", s / n * 1e6; else printf "n/a" }'
}
stats() {       # min and median of the numbers on stdin
	sort -g | awk '{ v[NR] = $1 } END { printf "%.3f %.3f\n", v[1], v[int((NR + 1) / 2)] }'
}

for size in ${SIZES:-v6.5:3:3 v6.5:4:4 v6.5:5:3 v6.4:4:4}; do
	IFS=: read -r k t c <<<"$size"
	run=$tmp/$k-$t-$c
	mkdir -p "$run"
	cp bench/spin/pidfd.pml "$run/"
	defs="-DNTHIEVES=$t -DNCALLS=$c -DNPER=2 -DNENT=32"
	[ "$k" = v6.4 ] && defs="$defs -DV64"
	# shellcheck disable=SC2086
	(cd "$run" && "$SPIN" $defs -a pidfd.pml >spin.out 2>&1 &&
		"$CC" -O2 -DSAFETY -DMEMLIM=8000 -o pan pan.c >cc.out 2>&1) || {
		cat "$run/spin.out" "$run/cc.out" >&2; exit 2; }
	: >"$run/v" ; : >"$run/s"
	for _ in $(seq 1 "$ROUNDS"); do
		now_to a
		o=$("$bin" -k "$k" -t "$t" -f 30 -c "$c" -p 2 -F)
		now_to b
		(cd "$run" && ./pan -m100000 -w24 >pan.out 2>&1) || true
		now_to e
		awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f\n", b - a }' >>"$run/v"
		awk -v a="$b" -v b="$e" 'BEGIN { printf "%.4f\n", b - a }' >>"$run/s"
	done
	read -r vmin vmed < <(stats <"$run/v")
	read -r smin smed < <(stats <"$run/s")
	vst=$(( $(field "$o" states) + $(field "$o" short_nodes) ))
	sst=$(awk '/states, stored/ { print $1; exit }' "$run/pan.out")
	# (the kernel steps of the stateful search and of the preemption-
	# bounded probe; none when the probe found the violation and the
	# stateful search did not run: then the time is mostly the shortest
	# search's and the check's, whose steps are not counted, so n/a)
	vsteps=0
	[ "$(field "$o" states)" = 0 ] ||
		vsteps=$(( $(field "$o" probes) + $(field "$o" probe_steps) ))
	stra=$(awk '/transitions \(= stored\+matched\)/ { print $1; exit }' "$run/pan.out")
	serr=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$run/pan.out" | head -n 1)
	vviol=$(field "$o" cex_pre)
	[ "$(field "$o" violating)" = 0 ] && vviol=none
	echo "vs-spin kernel=$k size=${t}x$c vfsim_min=$vmin vfsim_med=$vmed" \
	     "spin_min=$smin spin_med=$smed" \
	     "ratio_min=$(awk -v a="$vmin" -v b="$smin" 'BEGIN { printf "%.2f", a / b }')" \
	     "ratio_med=$(awk -v a="$vmed" -v b="$smed" 'BEGIN { printf "%.2f", a / b }')" \
	     "vfsim_states=$vst $(per_state vfsim "$vst" "$vmed")" \
	     "spin_states=$sst $(per_state spin "$sst" "$smed")" \
	     "vfsim_steps=$vsteps vfsim_us_per_step=$(per_unit "$vsteps" "$vmed")" \
	     "spin_transitions=$stra spin_us_per_transition=$(per_unit "$stra" "$smed")" \
	     "vfsim_cex_preemptions=$vviol spin_errors=$serr target=0.2"
done
