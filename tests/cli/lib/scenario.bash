# scenario_head KERNEL N: the first lines of the scenarios
# explore-sleep-random.sh makes (and of the ones shrunk from them): the
# kernel, two directories, their entries and two files, N processes A, B...
scenario_head() {
    local p names=(A B C D E F G H)
    echo "kernel $1"
    echo "mkdir /d /e"
    echo "touch /d/a /d/b /d/c /e/a /e/b /f /g"
    for ((p = 0; p < $2; p++)); do echo "spawn ${names[p]}"; done
}

# explore_run COMMAND: setup.vfs then COMMAND, run quietly; its output in
# COMMAND's words joined by '-', .out (`explore stateful jobs 1`:
# explore-stateful-jobs-1.out)
explore_run() {
    local name=${1// /-}
    { cat setup.vfs; echo "$1"; } >"$name.vfs"
    NO_COLOR=1 "$vfsim" -q "$name.vfs" </dev/null >"$name.out" 2>&1
}

# shortest_agree: `explore stateful jobs 1` (explore_run's output) shows
# a shortest path, the one plain `explore` shows (their schedules alike)
shortest_agree() {
    grep -q '^a shortest path to it' explore-stateful-jobs-1.out ||
        fail "explore stateful: not the shortest path: $(grep 'path to it' explore-stateful-jobs-1.out)"
    local s1 s2
    s1=$(grep '^schedule: ' explore.out)
    s2=$(grep '^schedule: ' explore-stateful-jobs-1.out)
    [ "$s1" = "$s2" ] || fail "explore and explore stateful differ: $s1 / $s2"
}
