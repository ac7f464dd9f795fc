#!/bin/sh
# bench-spin.sh -- time SPIN verifying bench/spin/pidfd.pml, the Promela
# twin of vfsim's "pidfd thieves" explore benchmark.
#
# For each run it generates the verifier (spin -a), compiles pan (not
# timed), then times ./pan alone (wall clock) and prints one line on stdout:
#
#   spin states=<N> transitions=<N> seconds=<S> errors=<N>
#
# states is pan's "states, stored", transitions pan's "transitions (=
# stored+matched)", seconds the wall time of ./pan, errors pan's error
# count (pan stops at the first error, so a violated model gives 1).
# A label saying which run a line belongs to goes to stderr.
#
# Default: 3 thieves, 3 calls of 2 entries each, 32 entries; first the
# v6.5 model (expect errors=0), then the v6.4 model (-DV64, expect
# errors>0).  SPIN's default partial-order reduction is on (it is fair to
# compare with SPIN's best); -DSAFETY, exhaustive hashing (no bitstate).
#
# Usage: scripts/bench-spin.sh [--kernel v6.5|v6.4|both] [--thieves N[,N...]]
#          [--calls N] [--per N] [--entries N] [--pidfd-opened]
#          [--hash W] [--keep DIR]
#   --hash W     pan -wW (hash table of 2^W slots; default 20, enough for
#                ~1M states: use 24 or more from 5 thieves up)
#   --keep DIR   also copy the generated files (pan.c, trail, pan's output)
#                into DIR (outside the repo); the temporary dir is removed
# Environment: SPIN (default spin), CC (default cc), PAN_CFLAGS (extra
#   compile flags, e.g. -DVECTORSZ=2048), PAN_FLAGS (extra ./pan flags).
# Exit status: 0 when every run gave the expected verdict (v6.5 no error,
#   v6.4 an error), 1 otherwise, 2 on usage or tool errors.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
model="$here/bench/spin/pidfd.pml"
SPIN=${SPIN:-spin}
CC=${CC:-cc}
PAN_CFLAGS=${PAN_CFLAGS:-}
PAN_FLAGS=${PAN_FLAGS:-}

kernel=both
thieves=3
calls=3
per=2
entries=32
opened=
hash=20
keep=

usage() { sed -n '20,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
num() { case $2 in ''|*[!0-9]*) echo "bench-spin: $1 wants a number, got '$2'" >&2; exit 2;; esac; }

while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?}; shift 2;;
	--thieves) thieves=${2:?}; shift 2;;
	--calls) calls=${2:?}; num "$1" "$calls"; shift 2;;
	--per) per=${2:?}; num "$1" "$per"; shift 2;;
	--entries) entries=${2:?}; num "$1" "$entries"; shift 2;;
	--pidfd-opened) opened=-DPIDFD_OPENED; shift;;
	--hash) hash=${2:?}; num "$1" "$hash"; shift 2;;
	--keep) keep=${2:?}; shift 2;;
	-h|--help) usage;;
	*) echo "bench-spin: unknown argument '$1'" >&2; usage;;
	esac
done
case $kernel in
v6.5) kernels=v6.5;; v6.4) kernels=v6.4;; both) kernels="v6.5 v6.4";;
*) echo "bench-spin: --kernel is v6.5, v6.4 or both" >&2; exit 2;;
esac
thieves=$(echo "$thieves" | tr ',' ' ')
for t in $thieves; do num --thieves "$t"; done

command -v "$SPIN" >/dev/null 2>&1 || {
	echo "bench-spin: '$SPIN' not found (apt-get install -y spin)" >&2; exit 2; }
[ -r "$model" ] || { echo "bench-spin: no $model" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-spin.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cp "$model" "$tmp/pidfd.pml"

. "$here/scripts/bench-clock.sh"
status=0
for t in $thieves; do
	for k in $kernels; do
		defs="-DNTHIEVES=$t -DNCALLS=$calls -DNPER=$per -DNENT=$entries $opened"
		[ "$k" = v6.4 ] && defs="$defs -DV64"
		run="$tmp/$k-t$t"
		mkdir "$run"
		cp "$tmp/pidfd.pml" "$run/"
		# Generate and compile: not timed.
		# shellcheck disable=SC2086
		if ! (cd "$run" && "$SPIN" $defs -a pidfd.pml >spin.out 2>&1); then
			cat "$run/spin.out" >&2; exit 2
		fi
		# shellcheck disable=SC2086
		if ! (cd "$run" && "$CC" -O2 -DSAFETY -DMEMLIM=8000 $PAN_CFLAGS \
				-o pan pan.c >cc.out 2>&1); then
			cat "$run/cc.out" >&2; exit 2
		fi
		# Verify: timed, ./pan only.
		now_to start
		# shellcheck disable=SC2086
		(cd "$run" && ./pan -m100000 -w"$hash" $PAN_FLAGS >pan.out 2>&1) || true
		now_to end
		out="$run/pan.out"
		states=$(awk '/states, stored/ { print $1; exit }' "$out")
		trans=$(awk '/transitions \(= / { print $1; exit }' "$out")
		errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$out" | head -n 1)
		if [ -z "$states" ] || [ -z "$errors" ]; then
			echo "bench-spin: could not read pan's output:" >&2
			cat "$out" >&2; exit 2
		fi
		if grep -q 'max search depth too small' "$out"; then
			echo "bench-spin: warning: -m100000 too small" >&2
		fi
		secs=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.3f", e - s }')
		echo "bench-spin: kernel=$k thieves=$t calls=$calls per=$per entries=$entries${opened:+ pidfd-opened}" >&2
		echo "spin states=$states transitions=${trans:-0} seconds=$secs errors=$errors"
		if [ "$k" = v6.5 ] && [ "$errors" -ne 0 ]; then
			echo "bench-spin: unexpected: v6.5 model violated" >&2; status=1
		elif [ "$k" = v6.4 ] && [ "$errors" -eq 0 ]; then
			echo "bench-spin: unexpected: v6.4 model showed no duplicate" >&2; status=1
		fi
		if [ -n "$keep" ]; then
			mkdir -p "$keep" && cp -r "$run" "$keep/"
		fi
	done
done
exit $status
