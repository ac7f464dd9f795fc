#!/usr/bin/env bash
# Tab completes the words people type (issue 16): explore's keywords,
# rule's words, lessons, expect [no] CONDITION and its arguments (from expect's own
# table: the lock names of took and blocked, the era's exec locks among
# them), uid=, help IDEA;
# dup2 is offered descriptors, not paths.
. "$(dirname "$0")/lib/tmux.bash"
needs_editor
start -c 'mkdir /d' -c 'spawn A' -c 'A: open /d' -i
# explore: its keywords
typein 'explore st'
keys Tab
wait_line "$PROMPT_RE"'explore stateful$'
keys C-u
# rule: its kinds, then the lock names it takes, subclasses included
typein 'rule lo'
keys Tab
wait_line "$PROMPT_RE"'rule lockorder ?$'
typein 's_vfs'
keys Tab
wait_line "$PROMPT_RE"'rule lockorder s_vfs_rename_mutex ?$'
typein 'bef'
keys Tab
wait_line "$PROMPT_RE"'rule lockorder s_vfs_rename_mutex before ?$'
typein 'i_rwsem:pa'
keys Tab
wait_line "$PROMPT_RE"'rule lockorder s_vfs_rename_mutex before i_rwsem:parent$'
keys C-u
# lessons: numbers and names
typein 'lessons two-th'
keys Tab
wait_line "$PROMPT_RE"'lessons two-thieves$'
keys C-u
# expect no: only the conditions that take 'no'
typein 'expect no ski'
keys Tab
wait_line "$PROMPT_RE"'expect no skipped$'
keys C-u
typein 'expect no race f_p'
keys Tab
wait_line "$PROMPT_RE"'expect no race f_pos$'
keys C-u
# expect took/blocked: the lock names, the era's exec locks among them
typein 'expect took A cred'
keys Tab
wait_line "$PROMPT_RE"'expect took A cred_guard_mutex$'
keys C-u
typein 'expect blocked A exec_update_l'
keys Tab
wait_line "$PROMPT_RE"'expect blocked A exec_update_lock$'
keys C-u
# expect: every condition of the table, lockorder and deaddir too; the
# arguments from the condition's synopsis (THREAD LOCK [MODE])
typein 'expect lockor'
keys Tab
wait_line "$PROMPT_RE"'expect lockorder$'
keys C-u
typein 'expect no deadd'
keys Tab
wait_line "$PROMPT_RE"'expect no deaddir$'
keys C-u
typein 'expect took A rename_m'
keys Tab
wait_line "$PROMPT_RE"'expect took A rename_mutex$'
keys C-u
typein 'expect took A i_rwsem ex'
keys Tab
wait_line "$PROMPT_RE"'expect took A i_rwsem excl$'
keys C-u
# spawn NAME uid=
typein 'spawn B ui'
keys Tab
wait_line "$PROMPT_RE"'spawn B uid='
keys C-u
# help on an idea
typein 'help f_pos_l'
keys Tab
wait_line "$PROMPT_RE"'help f_pos_lock$'
keys C-u
# dup2: descriptors, never a path
typein 'A: dup2 '
keys Tab
wait_line "$PROMPT_RE"'A: dup2 3$'
keys C-u
typein 'quit'
keys Enter
wait_exit
[ "$exit_status" = 0 ] || fail "exit status $exit_status"
