#!/usr/bin/env bash
# vfsim's options are one table (cli_options, cli/main.c): getopt's lists and
# `vfsim --help` are made from it; this checks that what people read lists
# exactly what it holds (issue 14): --help (its option lines, and the words
# an option takes in its synopsis), vfsim(1)'s OPTIONS (each .It, with its
# argument and its words) and the bash completion (the options it offers
# and the words it offers after one).  An option the table hides (an alias,
# one for the tests) is in none of them.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }

"$vfsim" --tables >tables || fail "vfsim --tables"
"$vfsim" --help >help || fail "vfsim --help"
# every word an option takes is taken, and one it does not take is refused
while IFS=$'\t' read -r kind long short arg words hidden; do
    [ "$kind" = option ] && [ "$words" != - ] && [ "$hidden" = - ] || continue
    for w in ${words//|/ }; do
        "$vfsim" "$long" "$w" -c quit >/dev/null 2>&1 ||
            fail "$long $w refused"
    done
    out=$("$vfsim" "$long" no-such-word -c quit 2>&1) && fail "$long no-such-word taken"
    case $out in *"$long takes "*"not 'no-such-word'"*) ;;
    *) fail "$long no-such-word said: $out" ;; esac
done <tables

python3 - "$d" "$top" <<'PY'
import re, sys
d, top = sys.argv[1:3]
sys.path.insert(0, top + "/tests/cli/lib")
import drift
from drift import same, fail

opts = drift.table(d + "/tables", "option")
assert opts, "vfsim --tables printed no option"
shown = [r for r in opts if r[5] != "hidden"]
name = lambda r: r[1] if r[1] != "-" else r[2]         # --help, else -k
names = [name(r) for r in shown]
words = {name(r): r[4].split("|") for r in shown if r[4] != "-"}
takes = {name(r) for r in shown if r[3] != "-"}

# --help: an option line each ("  -k PRESET   ...", "  --version, --help")
help = open(d + "/help").read()
body = help.split("\n\n")[1]
listed = []
for l in body.splitlines():
    m = re.match(r"^  (-\S+)( [A-Z]+)?", l)
    if m:
        listed += [w.strip(",") for w in l.split() if w.startswith("-")] \
            if "," in l.split("  ")[1] else [m.group(1)]
        if m.group(2) and m.group(1) not in takes:
            fail("--help: %s takes no argument" % m.group(1))
same("--help lists the options", listed, names)
for o, ws in words.items():
    if "[%s %s]" % (o, "|".join(ws)) not in help.replace("\n             ", " "):
        fail("--help's synopsis: %s %s" % (o, "|".join(ws)))

# vfsim(1): .It Fl NAME [Ar ARG | Cm W | W ...] in OPTIONS
man = open(top + "/man/vfsim.1").read()
sec = man.split(".Sh OPTIONS\n", 1)[1].split("\n.Sh ", 1)[0]
items = {}
for l in sec.splitlines():
    m = re.match(r"^\.It Fl (\S+)(.*)$", l)
    if m:
        o = m.group(1).replace("\\-", "-")
        items["-" + o] = m.group(2).strip()     # (Fl writes the first -)
same("vfsim(1)'s OPTIONS", items, names)
for o, rest in items.items():
    if (o in takes) != bool(rest):
        fail("vfsim(1): %s: '%s' (an argument: %s)" % (o, rest, o in takes))
    if o in words and rest.startswith("Cm"):
        got = [w.strip() for w in rest[2:].split("|")]
        same("vfsim(1): the words of " + o, got, words[o])
    elif o in words:
        fail("vfsim(1): %s: its words (Cm %s)" % (o, " | ".join(words[o])))

# the bash completion: the options it offers, the words after each
comp = open(top + "/contrib/bash-completion/vfsim").read()
m = re.search(r"\$cur == -\* \]\]; then\s+COMPREPLY=\(\$\(compgen -W '([^']*)'", comp)
same("the bash completion's options", m.group(1).split() if m else [], names)
for o, ws in words.items():
    m = re.search(r"^\s*([-|\w]*%s[-|\w]*)\)\s*\n\s*COMPREPLY=\(\$\(compgen -W '([^']*)'"
                  % re.escape(o), comp, re.M)
    same("the bash completion's words after " + o, m.group(2).split() if m else [], ws)
sys.exit(drift.bad)
PY
