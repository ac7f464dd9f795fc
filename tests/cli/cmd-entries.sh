#!/usr/bin/env bash
# A command is its entry beside its code (issue 14): cmd_NAME_entry is
# defined once, in the cli/ file that defines its handler (the entry's .fn),
# and cmd.c's list (COMMANDS) names it once; the list names no entry that
# is not defined and every entry defined is in the list.  In the running
# shell (`vfsim --tables`) no two commands share a name, each command of
# the list and each system call's command is there, and `help NAME` finds
# each one: its usage line names it.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }

"$vfsim" --tables >tables || fail "vfsim --tables"
awk -F'\t' '$1 == "command" { print $2 }' tables >names
hargs=()
while read -r cmd; do hargs+=(-c "echo == $cmd" -c "help $cmd"); done <names
NO_COLOR=1 "$vfsim" -q --no-pager "${hargs[@]}" >help-each 2>&1 || fail "help COMMAND"

python3 - "$top" <<'PY' || exit 1
import glob, os, re, sys
top = sys.argv[1]
bad = []
src = open(top + "/cli/cmd.c").read()
m = re.search(r"#define COMMANDS\(X\)(.*?)\n\n", src, re.S)
if not m:
    sys.exit("FAIL: no COMMANDS(X) list in cli/cmd.c")
listed = re.findall(r"\bX\((\w+)\)", m.group(1))
for n in sorted(set(n for n in listed if listed.count(n) > 1)):
    bad.append("cmd.c's list names %s %d times" % (n, listed.count(n)))
defined = {}        # name -> [(file, its text, the entry's fields)]
for path in sorted(glob.glob(top + "/cli/*.c")):
    text = open(path).read()
    for e in re.finditer(r"^const struct cmd_entry cmd_(\w+)_entry = \{\n(.*?)^\};",
                         text, re.M | re.S):
        defined.setdefault(e.group(1), []).append((os.path.basename(path), text,
                                                   e.group(2)))
for n in listed:
    if n not in defined:
        bad.append("cmd.c's list names %s, but no cli/ file defines cmd_%s_entry" % (n, n))
for n, where in sorted(defined.items()):
    if len(where) > 1:
        bad.append("cmd_%s_entry is defined in %s" % (n, ", ".join(w[0] for w in where)))
    if n not in listed:
        bad.append("cmd_%s_entry (%s) is not in cmd.c's list" % (n, where[0][0]))
    f, text, fields = where[0]
    fn = re.search(r"\.fn = (\w+)", fields)
    if not fn or not re.search(r"^(static )?HANDLER\(%s\)$" % fn.group(1), text, re.M):
        bad.append("cmd_%s_entry's handler is not defined beside it in %s" % (n, f))
    if n != "syscalls" and not re.search(r'\.name = "%s",' % n, fields):
        bad.append("cmd_%s_entry is not named %s" % (n, n))
for b in bad:
    print("FAIL: " + b)
if not bad:
    print("ok: %d entries listed, each defined once beside its handler" % len(listed))
open("listed", "w").write("\n".join(n for n in listed if n != "syscalls") + "\n")
sys.exit(1 if bad else 0)
PY

# no two commands share a name (cmd_find would reach only the first)
dup=$(sort names | uniq -d)
[ -z "$dup" ] || fail "two commands named: $dup"
# the list's commands and the system calls' are the commands
awk -F'\t' '$1 == "syscall" { print $2 }' tables >calls
sort -u listed calls >want
sort names >got
cmp -s want got || fail "the commands are not the list's and the calls': $(diff want got)"
# help NAME reaches each one: its usage line names it
awk '/^== / { n = $2; next }
     n && /^usage: / { print n, $2 == "THREAD:" ? $3 : $2; n = "" }' help-each >usage
while read -r cmd; do
    grep -qx "$cmd $cmd" usage || fail "help $cmd does not give its usage: $(grep -A2 "^== $cmd\$" help-each)"
done <names
echo "ok: $(wc -l <names) commands, names unique, each reached by help NAME"
