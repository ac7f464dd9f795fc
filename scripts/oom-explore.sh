#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# oom-explore.sh VFSIM-OOM: whether out of memory anywhere in plain
# `explore` leaves its answer alone.  scripts/oom-explore.vfs (v6.4's pidfd thieves:
# the probe finds the violation, then the shortest search) runs once
# whole (the reference, counting vfsim's allocations), then once for
# each Nth allocation failing (VFSIM_FAIL_ALLOC, tests/oom/failalloc.c;
# every STRIDE-th, default 3): the output is the reference's (the
# seconds masked), or the script stops at a line that says it ran out
# of memory, with status 2.  (A search the probe ran in the calling
# thread once lost its failure: the probe's answer changed, status 0.)
# Not in `make check` yet: with STRIDE=1 it still finds allocations
# whose failure changes the answer (the preemption-bounded probe's
# search out of memory past its start, about allocation 182 and 191, and
# the step-by-step search's count), where a search that ran out of
# memory is taken as one that found nothing.  VFSIM-OOM: make
# build/asan/vfsim-oom.
set -u
bin=$(cd "$(dirname "${1:?usage: explore.sh VFSIM-OOM}")" && pwd)/$(basename "$1")
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
bad=0 tried=0 oom=0
for n in $(seq 1 "${STRIDE:-3}" "$calls"); do
	VFSIM_FAIL_ALLOC=$n "$bin" explore.vfs >o.out 2>&1
	rc=$?
	tried=$((tried + 1))
	mask o.out >o.m
	if cmp -s ref.m o.m && [ "$rc" -eq 0 ]; then
		continue
	fi
	if [ "$rc" -eq 2 ] && grep -qiE 'out of memory|cannot allocate memory' o.out &&
	   ! grep -q 'ERROR: \(AddressSanitizer\|LeakSanitizer\)' o.out; then
		oom=$((oom + 1))
		continue
	fi
	echo "allocation $n: status $rc, output not the reference's and no out-of-memory line:"
	diff ref.m o.m | head -n 8
	bad=$((bad + 1))
	[ "$bad" -ge 3 ] && break
done
echo "explore under out of memory: $tried of $calls allocations failed in turn, $oom said so, $bad changed the answer"
[ "$bad" -eq 0 ] && [ "$oom" -gt 0 ]
