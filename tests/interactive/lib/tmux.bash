# tmux.bash: helpers for the interactive tests, sourced by tests/interactive/*.sh.
#
# Each test drives $VFSIM (the binary under test; check.sh sets it, once per
# line editor) inside a private tmux server, types keys and polls the pane
# for the text it expects: no fixed sleeps.  Exit 0: pass, 1: fail, 77: skip.
#
#   start [ARGS...]         run $VFSIM ARGS in a new pane, wait for the prompt
#   launch [ARGS...]        the same without waiting (a script run, no prompt)
#                           (T_COLS x T_ROWS, 160x50 by default; PAGER passed on)
#   keys KEY...             tmux send-keys (KEY as tmux names it: Tab, Up, C-c)
#   typein TEXT             send TEXT literally
#   wait_for TEXT [SECS]    poll the pane until a line contains TEXT
#   wait_line RE [SECS]     poll until a whole line matches the regex RE
#   wait_exit [SECS]        wait until vfsim exits; its status in $exit_status
#   screen                  the pane's text now
#   fail MESSAGE            print the message and the pane, exit 1
#   skip MESSAGE            exit 77
#   needs_editor            skip unless $VFSIM has a line editor (not LINEEDIT=none)
#   alive_then_quit         vfsim still answers at its prompt; quit; status 0
set -u

: "${VFSIM:?set VFSIM to the vfsim binary to test}"
T_TIMEOUT=${T_TIMEOUT:-20}      # seconds any one wait may take
t_sock=vfsim-test-$$
t_tmp=$(mktemp -d) || exit 1
t_pane=vfsim:0.0
PROMPT_RE='^vfsim [^ ]+>( |$)'

t_cleanup() {
    tmux -L "$t_sock" kill-server 2>/dev/null
    rm -rf "$t_tmp"
}
trap t_cleanup EXIT
trap 'exit 1' INT TERM HUP

skip() { echo "skip: $*"; exit 77; }
command -v tmux >/dev/null 2>&1 || skip "tmux is not installed"
[ -x "$VFSIM" ] || { echo "no binary $VFSIM"; exit 1; }

editor=$("$VFSIM" --version 2>/dev/null | sed -n 's/.*line editing: \([a-z]*\).*/\1/p')
needs_editor() {
    [ "$editor" != none ] && [ "${LINEEDIT:-}" != none ] ||
        skip "built without a line editor (LINEEDIT=none)"
}

tm() { tmux -L "$t_sock" "$@"; }

# (trailing blanks dropped: tmux pads lines it joins)
screen() { tm capture-pane -p -J -t "$t_pane" -S -200 2>/dev/null | sed 's/[[:space:]]*$//'; }

fail() {
    echo "FAIL: $*"
    echo "---- pane (${editor:-?}):"
    screen | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' | sed 's/^/| /'
    local st pid
    st=$(tm display-message -p -t "$t_pane" \
        'dead=#{pane_dead} status=#{pane_dead_status} signal=#{pane_dead_signal} pid=#{pane_pid}' 2>&1)
    echo "---- pane: $st"
    pid=${st##*pid=}
    [ -n "$pid" ] && ps -o pid=,stat=,wchan:20=,args= -p "$pid" 2>/dev/null | sed 's/^/process: /'
    exit 1
}

# poll PREDICATE-COMMAND SECS: run it every 50 ms until it succeeds
poll() {
    local secs=$1 end; shift
    end=$(( $(date +%s) + secs ))
    while :; do
        "$@" && return 0
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.05
    done
}

t_has()      { screen | grep -qF -- "$1"; }
t_has_line() { screen | grep -qE -- "$1"; }
t_count()    { screen | grep -cF -- "$1"; }
wait_for()  { poll "${2:-$T_TIMEOUT}" t_has "$1" || fail "no '$1' on the screen after ${2:-$T_TIMEOUT}s"; }
wait_line() { poll "${2:-$T_TIMEOUT}" t_has_line "$1" || fail "no line matching /$1/ after ${2:-$T_TIMEOUT}s"; }
# wait_count TEXT N: until TEXT shows on at least N lines
t_count_ge() { [ "$(t_count "$1")" -ge "$2" ]; }
wait_count() { poll "${3:-$T_TIMEOUT}" t_count_ge "$1" "$2" || fail "'$1' not seen $2 times"; }

keys() { tm send-keys -t "$t_pane" "$@"; }
typein() { tm send-keys -t "$t_pane" -l -- "$1"; }

# start [ARGS...]: vfsim in a fresh 160x50 terminal, with its own history
# file, no user configuration, no colour; waits for the first prompt.
start() {
    launch "$@"
    wait_line "$PROMPT_RE"
}

launch() {
    local cmd q a
    export VFSIM_HISTFILE=${VFSIM_HISTFILE:-$t_tmp/history}
    cmd="cd '$t_tmp' && exec env HOME='$t_tmp' XDG_STATE_HOME='$t_tmp/state' \
INPUTRC=/dev/null NO_COLOR=1 TERM=screen VFSIM_HISTFILE='$VFSIM_HISTFILE'"
    [ -n "${VFSIM_TEST_STEP_DELAY_US:-}" ] &&
        cmd="$cmd VFSIM_TEST_STEP_DELAY_US=$VFSIM_TEST_STEP_DELAY_US"
    [ -n "${PAGER:-}" ] && cmd="$cmd PAGER='$PAGER'"
    # bash waits for vfsim and writes its status: tmux 3.3 sometimes never
    # reaps a pane's process, and then has no status to tell
    rm -f "$t_tmp/status"
    cmd="$cmd bash -c '\"\$@\"; echo \$? >\"$t_tmp/status\"' vfsim-test '$VFSIM'"
    for a in "$@"; do
        q=${a//\'/\'\\\'\'}
        cmd="$cmd '$q'"
    done
    printf 'set -g remain-on-exit on\nset -g history-limit 5000\nset -g status off\n' \
        >"$t_tmp/tmux.conf"
    tm -f "$t_tmp/tmux.conf" new-session -d -s vfsim -x "${T_COLS:-160}" \
        -y "${T_ROWS:-50}" "$cmd" || fail "tmux could not start"
}

# wait_exit [SECS]: until vfsim has ended; sets $exit_status (128+N: signal N)
t_dead() {
    [ -s "$t_tmp/status" ] && read -r exit_status <"$t_tmp/status"
}
wait_exit() {
    exit_status=
    poll "${1:-$T_TIMEOUT}" t_dead || fail "vfsim did not exit"
}

# the text of the last prompt line (what is being typed)
prompt_line() { screen | grep -E "$PROMPT_RE" | tail -n 1; }

# alive_then_quit: vfsim still answers a command; then it quits with 0
alive_then_quit() {
    typein 'echo still-here'
    keys Enter
    wait_line '^still-here$'
    typein 'quit'
    keys Enter
    wait_exit
    [ "$exit_status" = 0 ] || fail "exit status $exit_status"
}
