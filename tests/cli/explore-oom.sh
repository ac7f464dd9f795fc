#!/usr/bin/env bash
# Out of memory anywhere in plain explore never changes its answer: it
# answers as if nothing failed, or says it ran out of memory (status 2).
# scripts/oom-explore.sh with every 7th allocation failing in turn, two
# runs at a time: some 270 runs of build/asan/vfsim-oom (30-50 s),
# each region of the search met (the probe's bounded search, the
# step-by-step search, the check of fewest preemptions, the table
# printed: 20 allocations or more each).  Skipped when vfsim-oom cannot
# be built (tests/oom/failalloc.c: GNU ld's --wrap).
top=$(cd "$(dirname "$0")/../.." && pwd)
(cd "$top" && nice ${MAKE:-make} -s build/asan/vfsim-oom) >/dev/null 2>&1 ||
	{ echo "build/asan/vfsim-oom cannot be built"; exit 77; }
STRIDE=7 JOBS=2 nice bash "$top/scripts/oom-explore.sh" "$top/build/asan/vfsim-oom"
