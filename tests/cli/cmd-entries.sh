#!/usr/bin/env bash
# A command is its row in cli/commands.tbl and its handler (issue 14): each
# row names its handler c_NAME, defined once in cli/ (and its long help
# c_NAME_help when the row says long, and only then); no name is a row
# twice and no entry is written by hand in cli/ any more.  In the running
# shell (`vfsim --tables`) no two commands share a name, the commands are
# the table's rows (in its order) and the system calls', and `help NAME`
# finds each one: its usage line names it, and its one-line help is the
# row's.
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
rows = []           # (name, long, synopsis, help)
lines = open(top + "/cli/commands.tbl").read().split("\n")
for i, l in enumerate(lines):
    w = l.split()
    if not w or l.startswith(("#", "\t")) or w[0] in ("group", "syscalls"):
        continue
    rows.append((w[0], w[4] == "long", lines[i + 1].strip(), lines[i + 2].strip()))
names = [r[0] for r in rows]
if len(rows) < 40:
    sys.exit("FAIL: cli/commands.tbl read as %d rows" % len(rows))
for n in sorted(set(n for n in names if names.count(n) > 1)):
    bad.append("commands.tbl has %s %d times" % (n, names.count(n)))
src = {os.path.basename(p): open(p).read() for p in sorted(glob.glob(top + "/cli/*.c"))}
for f, text in src.items():
    for e in re.findall(r"^(?:static )?const struct cmd_entry cmd_(\w+)_entry\b", text, re.M):
        bad.append("%s writes cmd_%s_entry by hand: it is a row of cli/commands.tbl" % (f, e))
def defined(pattern):
    return [f for f, text in src.items() if re.search(pattern, text, re.M)]
for n, long_, syn, help_ in rows:
    at = defined(r"^HANDLER\(c_%s\)$" % n)
    if len(at) != 1:
        bad.append("c_%s (the row %s's handler) is defined in %s" % (n, n, at or "no cli/ file"))
    hl = defined(r"^const char c_%s_help\[\] =" % n)
    if long_ and len(hl) != 1:
        bad.append("the row %s says long, c_%s_help is defined in %s" % (n, n, hl or "no cli/ file"))
    if long_ and at and hl and at != hl:
        bad.append("c_%s_help is not beside c_%s (%s, %s)" % (n, n, hl[0], at[0]))
    if not long_ and hl:
        bad.append("c_%s_help is defined (%s) but the row %s does not say long" % (n, hl[0], n))
for f, text in src.items():
    for n in re.findall(r"^(?:static )?const char c_(\w+)_help\[\] =", text, re.M):
        if n not in names:
            bad.append("%s defines c_%s_help, but no row is %s" % (f, n, n))
for b in bad:
    print("FAIL: " + b)
if not bad:
    print("ok: %d rows, each handler (and long help) defined once in cli/" % len(rows))
open("rows", "w").write("".join("%s\t%s\t%s\n" % (r[0], r[2], r[3]) for r in rows))
sys.exit(1 if bad else 0)
PY

# no two commands share a name (cmd_find would reach only the first)
dup=$(sort names | uniq -d)
[ -z "$dup" ] || fail "two commands named: $dup"
# the table's rows, in its order, and the system calls' are the commands
awk -F'\t' '$1 == "syscall" { print $2 }' tables >calls
cut -f1 rows >listed
grep -vxFf listed calls >made             # the calls' commands made from their rows
grep -vxFf made names >own
cmp -s listed own || fail "the shell's own commands are not the table's rows, in order: $(diff listed own)"
sort -u listed calls >want
sort names >got
cmp -s want got || fail "the commands are not the table's and the calls': $(diff want got)"
# help NAME reaches each one: its usage line names it; its one-line help
# is the row's, and so is its synopsis where it is one line
awk '/^== / { n = $2; next }
     n && /^usage: / { print n, $2 == "THREAD:" ? $3 : $2; n = "" }' help-each >usage
while read -r cmd; do
    grep -qx "$cmd $cmd" usage || fail "help $cmd does not give its usage: $(grep -A2 "^== $cmd\$" help-each)"
done <names
while IFS=$'\t' read -r cmd syn help; do
    awk -v n="$cmd" '/^== / { on = $0 == "== " n; next } on' help-each >block
    grep -qxF "  $help" block || fail "help $cmd does not say its row's help: $(head -3 block)"
    case $syn in *'|'*|export*) ;;  # alternatives one a line; export's is its formats'
    *) grep -qxF "usage: $syn" block || fail "help $cmd's usage is not its row's: $(head -1 block)" ;;
    esac
done <rows
echo "ok: $(wc -l <names) commands, names unique, each reached by help NAME"
