# bench-thieves.bash: sourced by the benchmarks that explore the pidfd
# thieves family (bench-override.sh, bench-fields.sh).  thieves N LINES
# [CALL]: the scenario under v6.5 (the owner lists /d, 30 files, N thieves
# pidfd_getfd it and list it too, $calls calls each), LINES (definitions)
# after the kernel line, CALL instead of getdents (a defined one takes the
# descriptor alone), then explore stateful jobs 1.
thieves() {     # thieves N LINES [CALL]: the scenario, then explore stateful
    local n=$1 t k call=${3:-getdents}
    echo "kernel v6.5"
    [ -n "$2" ] && printf '%s\n' "$2"
    echo "mkdir /d"
    for k in $(seq 1 30); do echo "touch /d/f$k"; done
    echo "spawn A"
    echo "A: open /d"
    for t in $(seq 1 "$n"); do echo "spawn T$t"; echo "T$t: pidfd_open A"; done
    local two=" 2"
    [ "$call" = getdents ] || two=
    for k in $(seq 1 "$calls"); do echo "A: $call 3$two &"; done
    for t in $(seq 1 "$n"); do
        echo "T$t: pidfd_getfd 3 3 &"
        for k in $(seq 1 "$calls"); do echo "T$t: $call 4$two &"; done
    done
    echo "explore stateful jobs 1"
    echo "expect no duplicate"
}
