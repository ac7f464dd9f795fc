# interrupt.bash: sourced after tmpdir.bash by the tests of a long
# explore's progress.  interrupt_at_line SCRIPT REGEX: $vfsim runs
# SCRIPT off a terminal, standard output in ./out, standard error in
# ./err; once a line of err matches REGEX (or vfsim ended), Ctrl-C
# (SIGINT); $rc is its exit status.
interrupt_at_line() {
    local script=$1 line=$2 i pid
    : >out; : >err      # (an earlier run's lines are not this one's)
    NO_COLOR=1 "$vfsim" "$script" </dev/null >out 2>err &
    pid=$!
    for ((i = 0; i < 2400; i++)); do         # (a bound, not a timing: 240 s)
        grep -Eq "$line" err && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -INT "$pid" 2>/dev/null
    wait "$pid"
    rc=$?
}
