#!/usr/bin/env bash
# Ctrl-C during a long explore stops it with a report of what it covered,
# and the prompt and the world stay; off a terminal, a search longer than
# 2 s prints progress lines on stderr, and SIGTERM stops it with the same
# report (the earlier lines kept).  The search: every execution (dpor) of
# three thieves with three calls each on v6.5, which takes hours.
. "$(dirname "$0")/lib/tmux.bash"
. "$(dirname "$0")/lib/thieves.bash"
script=$t_tmp/long.vfs
thieves_script "$script" v6.5 3 B C D
echo 'echo before-explore' >>"$script"

# off a terminal: progress on stderr, SIGTERM stops it and reports
{ cat "$script"; echo 'explore dpor'; } >"$t_tmp/term.vfs"
"$VFSIM" "$t_tmp/term.vfs" >"$t_tmp/out" 2>"$t_tmp/err" &
pid=$!
for _ in $(seq 1 100); do
    grep -q '^explore: [0-9]* executions' "$t_tmp/err" 2>/dev/null && break
    sleep 0.1
done
grep -q '^explore: [0-9]* executions, [0-9]*/s' "$t_tmp/err" ||
    fail "no progress line on stderr off a terminal: $(cat "$t_tmp/err")"
kill -TERM "$pid"
wait "$pid"; st=$?
[ "$st" = 143 ] || fail "SIGTERM: exit status $st, not 143"
grep -q '^before-explore$' "$t_tmp/out" || fail "the earlier lines were lost"
grep -q 'stopped after [0-9]* executions (interrupted): not a proof' "$t_tmp/out" ||
    fail "no report after SIGTERM: $(cat "$t_tmp/out")"

# at the prompt: Ctrl-C stops it, the world and the prompt stay
start -i "$script"
typein 'explore dpor'
keys Enter
poll 10 t_has_line '^explore: [0-9]* executions' || fail "no progress line"
keys C-c
wait_line 'stopped after [0-9]+ executions \(interrupted\): not a proof'
wait_count 'vfsim v6.5>' 2
typein 'ps'
keys Enter
wait_line '^D +'
keys C-d        # (end of input leaves)
wait_exit
[ "$exit_status" = 0 ] || fail "exit status $exit_status"
