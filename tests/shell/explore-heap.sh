#!/usr/bin/env bash
# A search runs on a heap advised huge pages (core/explore_heap.c): the
# first touch of each 4 KB page was a page fault, most of a small proof's
# time on a paravirtualized guest.  vfsim (glibc's malloc, no sanitizer)
# explores the 3x3 thieves under v6.5 and stays at the prompt; its
# mappings then include at least 16 MB of anonymous memory advised
# MADV_HUGEPAGE ("hg" in /proc/PID/smaps's VmFlags), and a session that
# has not explored has none.  Skipped (77) without transparent huge pages
# or /proc.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
vfsim=${VFSIM:?VFSIM names the binary}
case $vfsim in /*) ;; *) vfsim=$top/$vfsim ;; esac
. "$top/tests/interactive/lib/thieves.bash"
if [ ! -r /sys/kernel/mm/transparent_hugepage/enabled ] ||
   grep -q '\[never\]' /sys/kernel/mm/transparent_hugepage/enabled ||
   [ ! -r /proc/self/smaps ]; then
    echo "skip: no transparent huge pages (or no /proc)"
    exit 77
fi
d=$(mktemp -d) || exit 2
pid=
trap 'exec 3>&-; [ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$d"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# advised PID: kilobytes of PID's mappings advised MADV_HUGEPAGE
advised() {
    awk '/^Size:/ { kb = $2 } /^VmFlags:/ && / hg/ { n += kb }
         END { print n + 0 }' "/proc/$1/smaps"
}

# session WHAT: vfsim at the prompt after the thieves set up, and
# explored when WHAT is explore (its `save` to a file says when it got
# there); sets ADVISED, the advised kilobytes
session() {
    rm -f "$d/in" "$d/out"
    mkfifo "$d/in"
    "$vfsim" -q <"$d/in" >"$d/out" 2>&1 &
    pid=$!
    exec 3>"$d/in"
    thieves_script "$d/th.vfs" v6.5 3 B C D
    rm -f "$d/mark.vfs"
    { cat "$d/th.vfs"; [ "$1" = explore ] && echo explore
      echo "save $d/mark.vfs"; } >&3
    for _ in $(seq 1 600); do
        [ -s "$d/mark.vfs" ] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    [ -s "$d/mark.vfs" ] || { exec 3>&-; cat "$d/out"; fail "vfsim did not get to the save"; }
    advised=$(advised "$pid")
    exec 3>&-
    wait "$pid"
    pid=
}

session none
before=$advised
session explore
after=$advised
[ "$before" -eq 0 ] || fail "$before KB advised before any explore"
[ "$after" -ge 16384 ] || fail "$after KB advised after explore (16384 at least)"
echo "ok: explore advised $after KB of heap huge pages (none before it)"
