#!/usr/bin/env bash
# bench-stop.sh -- how long Ctrl-C takes to stop a search (issue 12: any
# engine within 100 ms, with a report of what was covered).  The pidfd
# thieves (tests/interactive/lib/thieves.bash) with THIEVES thieves of
# CALLS calls each under KERNEL (default 25 x 7 under v6.4: 26 threads,
# executions of about 2,500 steps, every one racing), then `explore
# ENGINE`; vfsim runs the script as `stdbuf -oL vfsim SCRIPT` off a
# terminal, DELAY seconds (3) after the set-up's last result line it gets
# SIG (INT), and its standard output is polled every millisecond until the
# report's first line: the milliseconds from the signal to that line.
#
# Each engine ROUNDS times (5), BENCH_BASE (main, built beside this tree
# by bench-base-tree.bash) and this tree's build/vfsim alternating:
#
#   stop engine=dpor base=REV base_ms=a/b/... this_ms=a/b/...
#     base_med= this_med= base_max= this_max= target=100
#
# Environment: ENGINES ("plain dpor stateful all naive bound": bound is
# 'explore bound 2'), ROUNDS, DELAY,
# SIG, KERNEL, THIEVES, CALLS, BENCH_BASE.  Numbers only: nothing fails
# on timing.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
. scripts/bench-base-tree.bash
. tests/interactive/lib/thieves.bash
ENGINES=${ENGINES:-plain dpor stateful all naive bound}
ROUNDS=${ROUNDS:-5}
DELAY=${DELAY:-3}
SIG=${SIG:-INT}
KERNEL=${KERNEL:-v6.4}
THIEVES=${THIEVES:-25}
CALLS=${CALLS:-7}
base_tree stop-base
base=$dir/build/vfsim
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-stop.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

names=()
for t in $(seq 1 "$THIEVES"); do names+=("T$t"); done
thieves_script "$tmp/setup.vfs" "$KERNEL" "$CALLS" "${names[@]}"
# the set-up's result lines: A's open and a pidfd_open per thief
setup_lines=$((THIEVES + 1))

# one run: BIN SCRIPT -> the milliseconds from the signal to the next line
stop_ms() {
    python3 - "$1" "$2" "$setup_lines" "$DELAY" "$SIG" <<'EOF'
import os, signal, subprocess, sys, time
vfsim, script, setup, delay, sig = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
out = script + ".out"
with open(out, "wb") as o, open(os.devnull, "wb") as null:
    p = subprocess.Popen(["stdbuf", "-oL", vfsim, script], stdin=subprocess.DEVNULL,
                         stdout=o, stderr=null, env=dict(os.environ, NO_COLOR="1"))
def lines():
    with open(out, "rb") as f:
        return f.read().count(b"\n")
while lines() < setup and p.poll() is None:
    time.sleep(0.01)
time.sleep(delay)
if p.poll() is not None:
    sys.exit("bench-stop: the search ended before the signal")
n = lines()
t0 = time.monotonic()
p.send_signal(getattr(signal, "SIG" + sig))
while lines() <= n:
    if p.poll() is not None and lines() <= n:
        sys.exit("bench-stop: vfsim ended without a report")
    time.sleep(0.001)
t1 = time.monotonic()
p.wait()
print("%.1f" % ((t1 - t0) * 1000))
EOF
}

stats() {       # median and max of the numbers on stdin
    sort -g | awk '{ v[NR] = $1 } END { printf "%s %s\n", v[int((NR + 1) / 2)], v[NR] }'
}

for e in $ENGINES; do
    s=$tmp/$e.vfs
    cp "$tmp/setup.vfs" "$s"
    case $e in
        plain) echo 'explore' ;;
        bound) echo 'explore bound 2' ;;
        *) echo "explore $e" ;;
    esac >>"$s"
    : >"$tmp/base.ms"; : >"$tmp/this.ms"
    for _ in $(seq 1 "$ROUNDS"); do
        stop_ms "$base" "$s" >>"$tmp/base.ms"
        stop_ms build/vfsim "$s" >>"$tmp/this.ms"
    done
    read -r bmed bmax < <(stats <"$tmp/base.ms")
    read -r tmed tmax < <(stats <"$tmp/this.ms")
    echo "stop engine=$e base=$rev base_ms=$(paste -sd/ "$tmp/base.ms")" \
         "this_ms=$(paste -sd/ "$tmp/this.ms") base_med=$bmed this_med=$tmed" \
         "base_max=$bmax this_max=$tmax target=100"
done
