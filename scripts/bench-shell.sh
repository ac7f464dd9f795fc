#!/usr/bin/env bash
# bench-shell.sh: what the shell itself costs a line (issue 14: argument
# checking was +5% instructions a command).  A script of 6,045 lines of
# system calls, steps and views (lseek, step, run, where, locks, ps, fds,
# files, stats, reports, trace show, history) run by this tree's vfsim and
# by BENCH_BASE's (default main) built beside it: the instructions
# callgrind counts (exact on a loaded machine), those of argument checking
# (cmd_check_args), and whether both printed the same.
# Numbers only: nothing fails on them.
#
#   BENCH_BASE=main
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
command -v valgrind >/dev/null || { echo "bench-shell: valgrind is needed"; exit 2; }
. "$top/scripts/bench-base-tree.bash"
base_tree shell-base
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# the script: set-up, then rounds of calls, steps and one view each
{
    printf '%s\n' 'mkdir /d' 'touch /d/a /d/b /d/c /d/e' 'spawn A' 'spawn B' \
        'A: open /d' 'B: pidfd_open A' 'B: pidfd_getfd 3 3'
    views=(where locks ps fds files stats reports 'where A' 'trace show 3' history)
    for i in $(seq 0 1005); do
        printf '%s\n' 'A: lseek 3 0 set &' 'step A' "${views[i % 10]}" run \
            'B: lseek 4 0 set &' 'step B 2'
    done
} | head -n 6045 >"$tmp/script.vfs"

for who in base this; do
    bin=$top/build/vfsim
    [ "$who" = base ] && bin=$top/$dir/build/vfsim
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$who" "$bin" -q \
        "$tmp/script.vfs" >"$tmp/out.$who" 2>"$tmp/err.$who"
    total=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/err.$who")
    check=$(callgrind_annotate --inclusive=yes "$tmp/cg.$who" 2>/dev/null |
            awk '/cli\/cmd.c:cmd_check_args / { gsub(",", "", $1); print $1; exit }')
    printf '%-5s %-8s %12s instructions, %10s in cmd_check_args (%s a line)\n' \
        "$who" "$([ "$who" = base ] && echo "$rev" || git rev-parse --short HEAD)" \
        "$total" "${check:-?}" "$(( ${check:-0} / 6045 ))"
    eval "total_$who=$total"
done
awk -v a="$total_base" -v b="$total_this" \
    'BEGIN { printf "this/base: %.3f of the instructions\n", b / a }'
cmp -s "$tmp/out.base" "$tmp/out.this" && echo "the same output" ||
    echo "the output differs (a change of behaviour, or of the views)"
