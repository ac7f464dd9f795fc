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
