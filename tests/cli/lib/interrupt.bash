# interrupt.bash: sourced after tmpdir.bash by the tests of a long
# explore's progress.  interrupt_at_line SCRIPT COMMAND REGEX WHAT:
# $vfsim runs SCRIPT then COMMAND (the explore, as run.vfs) off a
# terminal, standard output in ./out, standard error in ./err; once a
# line of err matches REGEX (or vfsim ended), Ctrl-C (SIGINT); $rc is its
# exit status.  No line of err matching REGEX is a failure: "no progress
# line of WHAT".
interrupt_at_line() {
    local line=$3 i pid
    { cat "$1"; echo "$2"; } >run.vfs
    : >out; : >err      # (an earlier run's lines are not this one's)
    NO_COLOR=1 "$vfsim" run.vfs </dev/null >out 2>err &
    pid=$!
    for ((i = 0; i < 2400; i++)); do         # (a bound, not a timing: 240 s)
        grep -Eq "$line" err && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -INT "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
    grep -Eq "$line" err || fail "no progress line of $4: $(cat err)"
}

# thieves_interrupt KERNEL CALLS COMMAND REGEX WHAT: interrupt_at_line on
# the thieves scenario (tests/interactive/lib/thieves.bash) with nine
# thieves, B to J, of CALLS calls each under KERNEL, in ./s.vfs: the
# search a test of a long explore's progress stops.
thieves_interrupt() {
    . "$top/tests/interactive/lib/thieves.bash"
    thieves_script s.vfs "$1" "$2" B C D E F G H I J
    interrupt_at_line s.vfs "$3" "$4" "$5"
}

# progress_said REGEX WHAT: the line a test ends on, how many lines of
# err matched REGEX and the first of them.
progress_said() {
    echo "ok: $(grep -Ec "$1" err) progress line(s) of $2: $(grep -E "$1" err | head -n 1)"
}
