#!/usr/bin/env bash
# bench-startup.sh [VFSIM]: how fast vfsim starts, next to sqlite3 in the same run.
#
#   vfsim -c quit           start, run one command, leave
#   echo quit | vfsim       start reading commands: the non-interactive proxy
#                           for the time to the first prompt
#   sqlite3 :memory: .quit  the yardstick: another small interactive C program
#
# Prints the mean in milliseconds of each and vfsim's ratio to sqlite3.
# Uses hyperfine when it is installed (apt-get install hyperfine), else a
# loop timed with date +%s%N.  RUNS=N sets the number of runs (default 200).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
vfsim=${1:-$top/build/vfsim}
runs=${RUNS:-200}
[ -x "$vfsim" ] || make -C "$top" --no-print-directory build/vfsim >/dev/null || exit 2
have_sqlite=1
command -v sqlite3 >/dev/null 2>&1 || { have_sqlite=0; echo "bench-startup: no sqlite3; vfsim alone" >&2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1 VFSIM_HISTFILE=$tmp/history

names=("vfsim -c quit" "echo quit | vfsim" "sqlite3 :memory: .quit")
cmds=("'$vfsim' -q -c quit" "echo quit | '$vfsim' -q" "sqlite3 :memory: .quit")
n=3; [ "$have_sqlite" = 1 ] || n=2

declare -a ms
if command -v hyperfine >/dev/null 2>&1; then
    how="hyperfine, $runs runs each, shell start-up subtracted"
    # every command through the same shell, whose start-up hyperfine measures
    # and subtracts, so that the pipe costs vfsim nothing it would not pay
    hyperfine --style none --warmup 10 --runs "$runs" --export-csv "$tmp/r.csv" \
        "${cmds[@]:0:$n}" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 2; }
    # command,mean,stddev,median,user,system,min,max (seconds)
    i=0
    while IFS=, read -r _ mean _; do
        ms[i]=$(awk -v s="$mean" 'BEGIN { printf "%.2f", s * 1000 }')
        i=$((i + 1))
    done < <(tail -n +2 "$tmp/r.csv")
else
    how="a loop timed with date +%s%N, $runs runs each (shell start-up included)"
    for ((i = 0; i < n; i++)); do
        for ((k = 0; k < 10; k++)); do sh -c "${cmds[i]}" >/dev/null 2>&1; done
        t0=$(date +%s%N)
        for ((k = 0; k < runs; k++)); do sh -c "${cmds[i]}" >/dev/null 2>&1; done
        t1=$(date +%s%N)
        ms[i]=$(awk -v a="$t0" -v b="$t1" -v r="$runs" 'BEGIN { printf "%.2f", (b - a) / r / 1e6 }')
    done
fi

echo "vfsim start-up ($how):"
for ((i = 0; i < n; i++)); do
    printf '  %-26s %8s ms\n' "${names[i]}" "${ms[i]}"
done
if [ "$n" = 3 ]; then
    awk -v a="${ms[0]}" -v b="${ms[1]}" -v s="${ms[2]}" 'BEGIN {
        if (s <= 0) s = 0.001
        printf "  ratio to sqlite3:          %.2fx (-c quit), %.2fx (first prompt)\n", a / s, b / s
    }'
fi
