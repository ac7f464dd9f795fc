#!/usr/bin/env bash
# The pictures of a schedule name each step as `where` and `trace steps` do
# (issue 14): explore's counterexample table has a FUNCTION:STEP column
# before the threads' (iterate_dir:lock), and so has `timeline steps`.
# On the v6.4 pidfd race (lesson 8), each row's name is the point of the
# events `trace show steps` prints for that step of the row's thread, every
# row has one, and the rows a reader looks for say what ran there; a
# syscall the script defines has its own steps' names there.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"

cat >race.vfs <<'V'
kernel v6.4
mkdir /d
touch /d/a /d/b
spawn A
spawn B
A: open /d
B: pidfd_open A
A: getdents 3 2 &
B: pidfd_getfd 3 3 &
B: getdents 4 2 &
trace clear
explore
explore replay 1
trace show steps
timeline steps
V
NO_COLOR=1 "$vfsim" -q race.vfs </dev/null >out 2>&1 || fail "the script failed: $(tail -n 5 out)"

# the table: from its heading to "then N more steps" (or the reports)
awk '/^ step function:step +A +B/ { f = 1; next } f && /^ +[0-9]+ / { print; next } f { exit }' \
    out >table
[ "$(wc -l <table)" -ge 20 ] || fail "no table with a step column: $(head -n 30 out)"
# timeline steps: from its heading to the blank line under it
awk '/^step function:step +A +B/ { f = 1; next } f && /^$/ { exit } f { print }' out >timeline
[ "$(wc -l <timeline)" -ge 20 ] || fail "no timeline with a step column: $(tail -n 40 out)"
# trace show steps: step, thread, point
awk '$1 ~ /^[0-9]+$/ && $3 ~ /^[a-z_0-9]+:[a-z_0-9]+$/ && !seen[$1 " " $2 " " $3]++ { print $1, $2, $3 }' out >points
[ -s points ] || fail "trace show steps printed no point"

# each row of the table: its step's point is its thread's in the trace
while read -r step point rest; do
    [ -n "$point" ] || fail "table: step $step names no step"
    grep -q "^$step [A-Z] $point\$" points ||
        fail "table: step $step named $point; the trace says: $(grep "^$step " points)"
done <table
# each row of the timeline: the point of its step's first event
while read -r step point rest; do
    step=${step%!}
    case $point in !*) point=${point#!} ;; esac
    first=$(awk -v s="$step" '$1 == s { print $3; exit }' points)
    [ "$point" = "$first" ] || fail "timeline: step $step named '$point', the trace's first event: $first"
done < <(sed 's/^\( *[0-9]*\)!/\1 /' timeline)

# what a reader looks for: A takes i_rwsem in iterate_dir:lock, B the
# f_pos_lock A skipped in fdget_pos:lock, A iterates in iterate_dir:iterate
# (B's iterate comes after the race, past the table: the counterexample
# of fewest preemptions, A*10 B*17, races on f_pos at B's iterate_dir)
grep -Eq '^ +[0-9]+ iterate_dir:lock +down_read_killable \+i_rwsem read' table ||
    fail "table: no iterate_dir:lock row for A's down_read_killable: $(cat table)"
grep -Eq '^ +[0-9]+ fdget_pos:needs_f_pos_lock +skip f_pos_lock' table ||
    fail "table: no fdget_pos:needs_f_pos_lock row for A's skip: $(cat table)"
grep -Eq '^ +[0-9]+ fdget_pos:lock {10,}.* mutex_lock \+f_pos_lock excl' table ||
    fail "table: no fdget_pos:lock row in B's column: $(cat table)"
[ "$(grep -Ec '^ +[0-9]+ iterate_dir:iterate +ext4_readdir' table)" = 1 ] ||
    fail "table: not one iterate_dir:iterate row of ext4_readdir in A's column: $(cat table)"
grep -Eq '^ +[0-9]+!? ?iterate_dir:iterate ' timeline ||
    fail "timeline: no iterate_dir:iterate row: $(cat timeline)"
echo "ok: explore's table ($(wc -l <table) rows) and timeline steps ($(wc -l <timeline) rows) name each step as the trace does"

# a syscall of the script's own: its steps named as the definition's
# (racy:read_f_pos, never defined_step:step), and a step that made no
# event (the return not taken) named where its thread stood before it
cat >racy.vfs <<'V'
kernel v6.5
define syscall racy FD
  return -EBADF if FD < 0
  fdget FD
  read f_pos of file
  write f_pos of file f_pos + 1
  fdput
  return 0
end
mkdir /d
spawn A
spawn B
A: open /d
B: pidfd_open A
B: pidfd_getfd 3 3
A: racy 3 &
B: racy 4 &
explore
V
NO_COLOR=1 "$vfsim" -q racy.vfs </dev/null >racy 2>&1
awk '/^ step function:step +A +B/ { f = 1; next } f && /^ +[0-9]+ / { print; next } f { exit }' \
    racy >rtable
grep -q 'defined_step' rtable && fail "racy: a step named defined_step: $(cat rtable)"
grep -Eq '^ +[0-9]+ racy:return *$' rtable ||
    fail "racy: the return not taken is no row of its own: $(cat racy)"
grep -Eq '^ +[0-9]+ racy:read_f_pos +racy' rtable && grep -Eq '^ +[0-9]+ racy:write_f_pos .*racy f_pos=1' rtable ||
    fail "racy: no read_f_pos and write_f_pos rows: $(cat racy)"
echo "ok: a defined syscall's steps in the table: $(awk '{ print $2 }' rtable | sort -u | grep -c '^racy:') of its own names"

# plain `timeline` is as it was: no step column
printf 'kernel v6.4\nmkdir /d\nspawn A\nA: open /d\ntimeline\n' >plain.vfs
NO_COLOR=1 "$vfsim" -q plain.vfs </dev/null >plain 2>&1
grep -q '^step A$' plain || fail "plain timeline: $(cat plain)"
! grep -q 'function:step' plain || fail "plain timeline has a step column: $(cat plain)"
echo "ok: plain timeline has no step column"
