#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# oom-explore.sh VFSIM-OOM: whether out of memory anywhere in plain
# `explore` leaves its answer alone.  scripts/oom-explore.vfs (v6.4's pidfd thieves:
# the probe finds the violation, then the shortest search) runs once
# whole (the reference, counting vfsim's allocations), then once for
# each Nth allocation failing (VFSIM_FAIL_ALLOC, tests/oom/failalloc.c;
# every STRIDE-th, default 3; JOBS at a time, default 2): the output is
# the reference's (the seconds masked), or the script stops at a line
# that says it ran out of memory, with status 2.  (A search that ran out
# of memory was once taken as one that found nothing: the probe's bounded
# search past its start, the step-by-step search's count, the check of
# fewest preemptions, a step whose detector lost a table, the table of
# the counterexample; each gave another answer, status 0.)
# `make check` runs it (tests/cli/explore-oom.sh, a stride that meets
# each of those); STRIDE=1 tries every allocation.  VFSIM-OOM: make
# build/asan/vfsim-oom.
set -u
bin=$(cd "$(dirname "${1:?usage: oom-explore.sh VFSIM-OOM}")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oom-explore.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mask() { sed -E 's/in [0-9]+\.[0-9]+ s/in T s/g' "$1"; }
cd "$tmp" || exit 1
cp "$here/oom-explore.vfs" explore.vfs
VFSIM_COUNT_ALLOC=1 "$bin" explore.vfs >ref.out 2>ref.err || {
	echo "reference run failed"; cat ref.out ref.err; exit 1; }
calls=$(sed -n 's/^failalloc: \([0-9]*\) calls$/\1/p' ref.err)
[ "${calls:-0}" -gt 100 ] || { echo "reference: too few allocations (${calls:-none})"; exit 1; }
mask ref.out >ref.m

# one N: the run with allocation N failing, said as "ok", "oom" or "bad"
# (then its difference in bad.N).  Its answer is its standard output: a
# run the machine stalls for 2 s tells its progress on stderr.
one() {
	local n=$1 rc
	VFSIM_FAIL_ALLOC=$n "$bin" explore.vfs >o.$n 2>e.$n
	rc=$?
	mask o.$n >m.$n
	if grep -q 'ERROR: \(AddressSanitizer\|LeakSanitizer\)\|runtime error' o.$n e.$n; then
		{ echo "allocation $n: status $rc, a sanitizer's report:"
		  grep -h -A3 'ERROR: \|runtime error' o.$n e.$n | head -n 8; } >bad.$n
		echo bad
	elif cmp -s ref.m m.$n && [ "$rc" -eq 0 ]; then
		echo ok
	elif [ "$rc" -eq 2 ] && grep -qiE 'out of memory|cannot allocate memory' o.$n e.$n; then
		echo oom
	else
		{ echo "allocation $n: status $rc, output not the reference's and no out-of-memory line:"
		  diff ref.m m.$n | head -n 8; } >bad.$n
		echo bad
	fi
	rm -f o.$n e.$n m.$n
}
export -f one mask
export bin
seq 1 "${STRIDE:-3}" "$calls" | xargs -P "${JOBS:-2}" -n 1 bash -c 'one "$1"' one >runs
tried=$(wc -l <runs) oom=$(grep -c '^oom$' runs) bad=$(grep -c '^bad$' runs)
for f in $(ls bad.* 2>/dev/null | sort -t. -k2 -n | head -n 3); do
	cat "$f"
done
echo "explore under out of memory: $tried of $calls allocations failed in turn, $oom said so, $bad changed the answer"
[ "$bad" -eq 0 ] && [ "$oom" -gt 0 ]
