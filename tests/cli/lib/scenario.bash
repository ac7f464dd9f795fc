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

# The random scenarios of explore-sleep-random.sh and
# explore-shortest-random.sh: drawn from RANDOM, which the script seeds
# (the same ones every run).
kernels=(v6.4 v6.5 v5.6 mainline 20ea1e7d13c1 797964253d35)
paths=(/d /e /f /g)
names=(A B C)
# pick N: R a number below N; pickw LIST...: W one of the words (no
# subshell: it would draw from a RANDOM seeded anew)
pick() { R=$((RANDOM % $1)); }
pickw() { pick $#; shift $R; W=$1; }

# scenario_random: one random scenario on stdout, its explore lines left out
# (fds[P]: process P's fds other than pidfds; nfd[P]: its next fd)
scenario_random() {
    local p q k c np kern
    local -a fds nfd
    pickw "${kernels[@]}"; kern=$W
    pick 2; np=$((2 + R))
    scenario_head "$kern" "$np"
    # set-up: opens, then an fd taken from another or dup'd
    for ((p = 0; p < np; p++)); do
        fds[p]="" nfd[p]=3
        pick 2; c=$R
        for ((k = 0; k <= c; k++)); do
            # (the first a directory: fd 3, the one stolen below)
            if ((k == 0)); then pickw /d /e; else pickw "${paths[@]}"; fi
            echo "${names[p]}: open $W"
            fds[p]+="${nfd[p]} " nfd[p]=$((nfd[p] + 1))
        done
    done
    for ((p = 0; p < np; p++)); do
        pick 4
        case $R in
        0|1)
            pick $((np - 1)); q=$(( (p + 1 + R) % np ))
            pickw ${fds[q]}
            echo "${names[p]}: pidfd_open ${names[q]}"
            echo "${names[p]}: pidfd_getfd ${nfd[p]} $W"
            fds[p]+="$((nfd[p] + 1)) " nfd[p]=$((nfd[p] + 2)) ;;
        2)
            pickw ${fds[p]}
            echo "${names[p]}: dup $W"
            fds[p]+="${nfd[p]} " nfd[p]=$((nfd[p] + 1)) ;;
        esac
    done
    # the calls explored
    for ((p = 0; p < np; p++)); do
        pick 3; c=$R
        for ((k = 0; k <= c; k++)); do
            pickw ${fds[p]}
            pick 11
            case $R in
            0|1) echo "${names[p]}: getdents 3 2 &" ;;
            2|3) echo "${names[p]}: getdents $W 2 &" ;;
            4|5) pick 3; echo "${names[p]}: lseek $W $R set &" ;;
            6) echo "${names[p]}: read $W 1 &" ;;
            7) echo "${names[p]}: close $W &" ;;
            8) echo "${names[p]}: dup $W &" ;;
            *) # another's fd 3 taken while the calls run, then listed
               pick $((np - 1)); q=$(( (p + 1 + R) % np ))
               echo "${names[p]}: pidfd_open ${names[q]}"
               echo "${names[p]}: pidfd_getfd ${nfd[p]} 3 &"
               echo "${names[p]}: getdents $((nfd[p] + 1)) 2 &"
               fds[p]+="$((nfd[p] + 1)) " nfd[p]=$((nfd[p] + 2)) ;;
            esac
        done
    done
}

# scenario_vfsim SCENARIO LINE...: $vfsim runs the script SCENARIO then
# the LINEs (as run.vfs), quietly, off a terminal; its output and its
# errors on standard output
scenario_vfsim() {
    local scenario=$1
    shift
    { cat "$scenario"; printf '%s\n' "$@"; } >run.vfs
    NO_COLOR=1 "$vfsim" -q run.vfs </dev/null 2>&1
}

# explore_run COMMAND: setup.vfs then COMMAND (scenario_vfsim); its output
# in COMMAND's words joined by '-', .out (`explore stateful jobs 1`:
# explore-stateful-jobs-1.out)
explore_run() {
    scenario_vfsim setup.vfs "$1" >"${1// /-}.out"
}

# engines_find REGEX: plain `explore`, `explore stateful jobs 1` and
# `explore dpor` (explore_run each) all report a violation matching REGEX
engines_find() {
    local e
    for e in explore 'explore stateful jobs 1' 'explore dpor'; do
        explore_run "$e"
        grep -Eq "$1" "${e// /-}.out" ||
            fail "$e: not the violation: $(tail -n 5 "${e// /-}.out")"
    done
}

# shortest_agree LINE: plain `explore` (explore_run's output) prints
# LINE, its shortest counterexample, and `explore stateful jobs 1` shows
# a shortest path, the same one (their schedules alike)
shortest_agree() {
    grep -q "^$1" explore.out ||
        fail "explore: not the shortest counterexample: $(grep counterexample explore.out)"
    grep -q '^a shortest path to it' explore-stateful-jobs-1.out ||
        fail "explore stateful: not the shortest path: $(grep 'path to it' explore-stateful-jobs-1.out)"
    local s1 s2
    s1=$(grep '^schedule: ' explore.out)
    s2=$(grep '^schedule: ' explore-stateful-jobs-1.out)
    [ "$s1" = "$s2" ] || fail "explore and explore stateful differ: $s1 / $s2"
}

# probe_find KIND ENGINE EXPECT: s.vfs (a copy r.vfs kept) explored by
# plain `explore` reports a violation KIND found by ENGINE (the words of
# its "found ... by" line), a counterexample of at most one preemption
# ($pre), and its schedule token ($token) replays in r.vfs to `expect
# EXPECT` (a search that finds nothing is stopped by SIGTERM at 120 s
# and fails; no time is asserted)
probe_find() {
    cp s.vfs r.vfs
    echo 'explore' >>s.vfs
    NO_COLOR=1 timeout -s TERM 120 "$vfsim" -q s.vfs </dev/null >out 2>err
    grep -q "^a violation is reachable: $1" out ||
        fail "no $1: $(grep -v '^ *[0-9]' out | head -n 5) $(tail -c 300 err)"
    grep -q "by the preemption-bounded probe$2" out ||
        fail "not said which engine found it: $(grep -m1 'violation is reachable' out)"
    pre=$(sed -nE 's/^(a|the shortest) counterexample: ([0-9]+) preemptions?.*/\2/p' out)
    [ -n "$pre" ] && [ "$pre" -le 1 ] || fail "counterexample of '$pre' preemptions"
    token=$(sed -n 's/^schedule: //p' out)
    [ -n "$token" ] || fail "no schedule token"
    { echo "explore replay $token"; echo "expect $3"; } >>r.vfs
    NO_COLOR=1 "$vfsim" --check r.vfs >rout 2>&1 ||
        fail "the token does not replay to $3: $(tail -n 3 rout)"
}
