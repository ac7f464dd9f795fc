#!/usr/bin/env bash
# The lists people read cannot drift from the tables the shell runs on
# (issue 14): `vfsim --tables` prints the command table, the system calls'
# rows (core/syscalls.c) and expect's conditions (cli/cmd_check.c); this
# checks that `help`, `help expect`, vfsim(1)'s command list, vfsim(5)'s
# system calls and its conditions, and Tab completion (`vfsim --complete
# LINE`, the function the line editors call) each list exactly what the
# tables hold, and that the fuzzer's dictionary has every word of them.
# The detector kinds (core/kinds.c): `expect` has a condition for each kind
# a detector reports, named by its word; `reports` takes those words (its
# synopsis, vfsim(1), Tab) and `explore replay` offers every kind.
# explore's options (cli/explore_cli.c): its synopsis, Tab, its refusal of
# an unknown option and vfsim(5) list the ones it takes.
set -u
vfsim=${VFSIM:?VFSIM names the binary}
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT

"$vfsim" --tables >"$d/tables" || { echo "FAIL: vfsim --tables"; exit 1; }
NO_COLOR=1 "$vfsim" -q --no-pager -c help >"$d/help" 2>&1 || { echo "FAIL: help"; exit 1; }
NO_COLOR=1 "$vfsim" -q --no-pager -c 'help expect' >"$d/help-expect" 2>&1 ||
    { echo "FAIL: help expect"; exit 1; }
NO_COLOR=1 "$vfsim" -q --no-pager -c 'help export' >"$d/help-export" 2>&1 ||
    { echo "FAIL: help export"; exit 1; }
"$vfsim" --complete 'export ' >"$d/c-export" || { echo "FAIL: vfsim --complete 'export '"; exit 1; }
"$vfsim" --complete 'explore ' >"$d/c-explore" || { echo "FAIL: vfsim --complete 'explore '"; exit 1; }
"$vfsim" -q -c 'explore no-such-option' >"$d/explore-unknown" 2>&1
# each command's first argument, by its synopsis (its schema, cli/argspec.c)
"$vfsim" --tables | awk -F'\t' '$1 == "command" { print $2 }' | while read -r cmd; do
    printf '%s\t%s\n' "$cmd" "$("$vfsim" -q --complete "$cmd " | tr '\n' ' ')"
done >"$d/c-first" || { echo "FAIL: vfsim --complete 'CMD '"; exit 1; }
"$vfsim" --complete '' >"$d/c-start" &&
"$vfsim" -q -c 'spawn A' --complete 'A: ' >"$d/c-thread" &&
"$vfsim" --complete 'expect ' >"$d/c-expect" &&
"$vfsim" --complete 'expect no ' >"$d/c-expect-no" &&
"$vfsim" -q -c 'spawn A' -c 'spawn B' --complete 'expect blocked ' >"$d/c-expect-arg" &&
"$vfsim" --complete 'reports ' >"$d/c-reports" &&
"$vfsim" --complete 'explore replay ' >"$d/c-replay" || { echo "FAIL: vfsim --complete"; exit 1; }
# `help NAME` of every command, in one session: its usage lines
hargs=()
while read -r cmd; do hargs+=(-c "help $cmd"); done < <("$vfsim" --tables |
    awk -F'\t' '$1 == "command" { print $2 }')
NO_COLOR=1 "$vfsim" -q --no-pager "${hargs[@]}" >"$d/help-each" 2>&1 ||
    { echo "FAIL: help COMMAND"; exit 1; }
# a call's first argument, by its row: a descriptor is offered the open ones
"$vfsim" --tables | awk -F'\t' '$1 == "syscall" { print $2 }' | while read -r call; do
    printf '%s\t%s\n' "$call" "$("$vfsim" -q -c 'mkdir /d' -c 'spawn A' -c 'A: open /d' \
        --complete "A: $call " | tr '\n' ' ')"
done >"$d/c-args" || { echo "FAIL: vfsim --complete 'A: CALL '"; exit 1; }

python3 - "$d" "$top" <<'PY'
import re, sys
d, top = sys.argv[1:3]
man1, man5 = top + "/man/vfsim.1", top + "/man/vfsim.5"
bad = 0
sys.path.insert(0, top + "/tests/cli/lib")
import drift
from drift import same          # (its failures: drift.bad)

rows = [l.rstrip("\n").split("\t") for l in open(d + "/tables")]
cmds = [r for r in rows if r[0] == "command"]
sysc = [r for r in rows if r[0] == "syscall"]
conds = [r for r in rows if r[0] == "condition"]
kinds = [r for r in rows if r[0] == "kind"]
fmts = [r for r in rows if r[0] == "format"]
xopts = [r for r in rows if r[0] == "xoption"]
assert cmds and sysc and conds and kinds and fmts and xopts, "vfsim --tables printed an empty table"
cmd_names = [r[1] for r in cmds]
thread_cmds = [r[1] for r in cmds if "thread" in r[3].split(",")]
world_cmds = [r[1] for r in cmds if "world" in r[3].split(",")]
sys_names = [r[1] for r in sysc]
cond_names = [r[1] for r in conds]
neg_conds = [r[1] for r in conds if r[2] == "no"]

# every system call is a command a thread performs, with the row's synopsis
same("system calls are thread commands", [n for n in thread_cmds if n in sys_names], sys_names)
syn = {r[1]: r[6] for r in cmds}
for r in sysc:
    if r[1] in syn and syn[r[1]] != r[6] and r[1] != "mkdir":
        bad = 1
        print("FAIL: %s: the command's synopsis '%s' is not the row's '%s'" % (r[1], syn[r[1]], r[6]))

# help: "  NAME SYNOPSIS   one line"
help_names = [m.group(1) for m in (re.match(r"^  ([a-z_0-9]+)\b", l) for l in open(d + "/help")) if m]
same("help lists the commands", help_names, cmd_names)

# each command's synopsis, as help lists it ("  NAME SYNOPSIS  one line", the
# one line below when the synopsis is long) and as `help NAME` gives it (a
# usage line per alternative), is the table's: what checking and Tab read
for l in open(d + "/help"):
    m = re.match(r"^  ([a-z_0-9]+)(?: (.*?))?(?:  +\S.*)?$", l.rstrip("\n"))
    if m and m.group(1) in syn and (m.group(2) or "").strip() != syn[m.group(1)]:
        bad = 1
        print("FAIL: help lists %s with '%s', the table says '%s'" %
              (m.group(1), (m.group(2) or "").strip(), syn[m.group(1)]))
usages, cur = {}, None
for l in open(d + "/help-each"):
    m = re.match(r"^(usage:|      ) (THREAD: )?([a-z_0-9]+)(?: (.*))?$", l.rstrip("\n"))
    if not m or (m.group(1) != "usage:" and cur != m.group(3)):
        cur = None
        continue
    cur = m.group(3)
    if m.group(1) == "usage:":
        usages[cur] = []
    usages[cur].append(m.group(4) or "")
for n in cmd_names:
    got = " | ".join(usages.get(n, ["(no usage line)"]))
    if got != syn[n]:
        bad = 1
        print("FAIL: help %s gives the usage '%s', the table says '%s'" % (n, got, syn[n]))

# help expect: "  [no]NAME ARGS   help" below "Conditions"
lines = open(d + "/help-expect").read().split("\n")
i = next(k for k, l in enumerate(lines) if l.startswith("Conditions"))
hc, hneg = [], []
for l in lines[i + 1:]:
    m = re.match(r"^  (no |   )([a-z_]+)\b", l)
    if m:
        hc.append(m.group(2))
        if m.group(1) == "no ": hneg.append(m.group(2))
same("help expect lists the conditions", hc, cond_names)
same("help expect marks those that take 'no'", hneg, neg_conds)

def block(page, name):
    t = open(page).read()
    return t.split('.\\" BEGIN %s\n' % name)[1].split('.\\" END %s\n' % name)[0]

# vfsim(1): ".It Ic NAME ..." between the COMMANDS markers
same("vfsim(1) lists the commands",
     re.findall(r"^\.It Ic (\S+)", block(man1, "COMMANDS"), re.M), cmd_names)

# vfsim(5), "System calls": the Cm words of each .It outside brackets
t = open(man5).read()
sec = t.split(".Ss System calls\n")[1].split("\n.El\n")[0]
names = []
for l in sec.split("\n"):
    if not l.startswith(".It "): continue
    cm, depth = False, 0
    for w in l.split()[1:]:
        if w == "Op": break                 # the rest of the line is optional
        if w == "Oo": depth += 1; continue
        if w == "Oc": depth -= 1; continue
        if w == "Cm": cm = True; continue
        if re.match(r"^[A-Z][a-z]$", w): cm = False; continue
        if w in (",", "|"): continue
        if cm and depth == 0: names.append(w)
same("vfsim(5) describes the system calls", names, sys_names)

# vfsim(5): the conditions between the CONDITIONS markers
cb = block(man5, "CONDITIONS")
mc = re.findall(r"^\.It (Oo Cm no Oc )?Cm (\S+)", cb, re.M)
same("vfsim(5) lists the conditions", [m[1] for m in mc], cond_names)
same("vfsim(5) marks those that take 'no'", [m[1] for m in mc if m[0]], neg_conds)

# completion
rd = lambda f: open(d + "/" + f).read().split()
same("Tab at the start offers the commands (world ones)", rd("c-start"), world_cmds)
same("Tab after 'A: ' offers what a thread does", rd("c-thread"), thread_cmds)
same("Tab after 'expect ' offers the conditions", rd("c-expect"), cond_names + ["no"])
same("Tab after 'expect no ' offers those that take 'no'", rd("c-expect-no"), neg_conds)
# a condition's own arguments come from its row's synopsis, through expect's
# completer in the command table (`.complete`); expect's synopsis alone
# (CONDITION...) offers nothing here
same("Tab after 'expect blocked ' offers the threads (its THREAD)", rd("c-expect-arg"), ["A", "B"])
offered = dict(l.rstrip("\n").split("\t") for l in open(d + "/c-args"))
first = {r[1]: r[7].split(",")[0] for r in sysc}
same("Tab after 'A: CALL ' offers the open fds where the row's first argument is one",
     [n for n in sys_names if offered.get(n, "").split() == ["3"]],
     [n for n in sys_names if first[n] == "fd"])

# the detector kinds: one row each (core/kinds.c), read by expect, reports,
# explore and completion
kind_names = [r[1] for r in kinds]
report_kinds = [r[1] for r in kinds if r[4] == "report"]
cond_kind = {r[1]: r[4] for r in conds if r[4] != "-"}
same("expect has a condition for each kind a detector reports", cond_kind.values(), report_kinds)
for name, k in cond_kind.items():
    if name != k:
        bad = 1
        print("FAIL: expect's '%s' speaks of kind '%s': its word should be the kind's" % (name, k))
same("expect takes 'no' before each kind", [n for n in cond_kind if n in neg_conds], report_kinds)
reports_syn = [r[6] for r in cmds if r[1] == "reports"][0]
same("reports' synopsis lists the reported kinds",
     [w for w in re.split(r"[][| ]+", reports_syn) if w and w not in ("live", "on", "off")],
     report_kinds)
m = re.search(r"^\.It Ic reports (.*)$", block(man1, "COMMANDS"), re.M)
same("vfsim(1)'s reports lists the reported kinds",
     [w for w in re.findall(r"Cm (\S+)", m.group(1) if m else "") if w not in ("live", "on", "off")],
     report_kinds)
same("Tab after 'reports ' offers the reported kinds and live", rd("c-reports"), report_kinds + ["live"])
same("Tab after 'explore replay ' offers every kind", rd("c-replay"), kind_names)
for r in kinds:
    if r[4] == "report" and r[3] == "-":
        bad = 1
        print("FAIL: kind '%s' is reported but the pictures have no mark for it" % r[1])

# export's formats (cli/cmd_picture.c): its synopsis, help and completion
fmt_names = [r[1] for r in fmts]
same("export's synopsis offers the formats", syn["export"].split()[0].split("|"), fmt_names)
same("help export describes each format",
     [w for w in re.findall(r"^([a-z]+): ", open(d + "/help-export").read(), re.M) if w != "usage"], fmt_names)
same("Tab after 'export ' offers the formats", rd("c-export"), fmt_names)
vf = re.search(r"^\.It Ic export (.*)$", block(man1, "COMMANDS"), re.M)
same("vfsim(1)'s export offers the formats",
     re.findall(r"Cm (\S+)", vf.group(1).split(" Ar ")[0]) if vf else [], fmt_names)

# explore's options (cli/explore_cli.c: its engines' words and those that
# take a number): its synopsis (which help, argument checking, Tab and
# vfsim(1) read), its refusal of an unknown option, and vfsim(5)
xo_names = [r[1] for r in xopts]
xo_num = [r[1] for r in xopts if r[2] == "N"]
opts_syn = syn["explore"].split("]...")[0]
same("explore's synopsis offers its options", re.findall(r"\b[a-z]+\b", opts_syn), xo_names)
same("explore's synopsis puts a number after those that take one",
     re.findall(r"\b([a-z]+) [A-Z]\b", opts_syn), xo_num)
same("Tab after 'explore ' offers its options (and replay, save, outcomes)",
     rd("c-explore"), xo_names + ["replay", "save", "outcomes"])
m = re.search(r"unknown option 'no-such-option' \(([^;]*);", open(d + "/explore-unknown").read())
same("explore's refusal of an unknown option lists its options",
     re.findall(r"\b[a-z]+\b", m.group(1)) if m else [], xo_names)
ex = t.split(".Ss Exploring\n")[1]
same("vfsim(5)'s explore offers its options",
     re.findall(r"(?<![A-Za-z])[a-z]+\b", ex.split("\n")[0])[1:], xo_names)
xl = ex.split(".Bl -tag")[1].split("\n.El")[0]
same("vfsim(5) describes each engine", re.findall(r"^\.It Cm ([a-z]+)", xl, re.M),
     [n for n in xo_names if n not in ("max", "jobs")])

# a command's synopsis is its argument schema: read here by a second
# parser, its counts are what argument checking allows (--tables' MIN
# MAX), and its keywords that may come first are what Tab offers first
def parse(syn):
    """ALTS := SEQ {' | ' SEQ}; SEQ := {ITEM}; ITEM := [ALTS][...] | w{|w}[...]"""
    toks = re.findall(r"\[|\]| \| |[^\s\[\]]+", syn)
    pos = 0
    def alts():
        nonlocal pos
        out = [seq()]
        while pos < len(toks) and toks[pos] == " | ":
            pos += 1
            out.append(seq())
        return ("alt", out)
    def seq():
        nonlocal pos
        items = []
        while pos < len(toks) and toks[pos] not in ("]", " | "):
            if toks[pos] == "[":
                pos += 1
                group = alts()
                pos += 1
                rep = pos < len(toks) and toks[pos] == "..."   # [...]...: repeats
                pos += rep
                items.append(("optrep" if rep else "opt", group))
            else:
                items.append(("word", toks[pos]))
                pos += 1
        return ("seq", items)
    return alts()
def count(n):
    k, v = n
    if k == "word": return (1, -1 if v.endswith("...") or "...|" in v else 1)
    if k == "opt": return (0, count(v)[1])
    if k == "optrep": return (0, -1 if count(v)[1] else 0)
    if k == "seq":
        lo = hi = 0
        for i in v:
            a, b = count(i)
            lo += a
            hi = -1 if hi < 0 or b < 0 else hi + b
        return (lo, hi)
    cs = [count(i) for i in v]
    return (min(c[0] for c in cs), -1 if any(c[1] < 0 for c in cs) else max(c[1] for c in cs))
def first(n):
    """the words that may come first, and whether n may take none"""
    k, v = n
    if k == "word": return ([w.rstrip(".") for w in v.split("|")], False)
    if k in ("opt", "optrep"): return (first(v)[0], True)
    if k == "seq":
        out = []
        for i in v:
            w, empty = first(i)
            out += w
            if not empty: return (out, False)
        return (out, True)
    out, empty = [], False
    for i in v:
        w, e = first(i)
        out += w
        empty |= e
    return (out, empty)
offered_first = dict(l.rstrip("\n").split("\t") for l in open(d + "/c-first"))
for r in cmds:
    if r[1] in sys_names: continue
    tree = parse(r[6])
    lo, hi = count(tree)
    if (lo, hi) != (int(r[4]), int(r[5])):
        bad = 1
        print("FAIL: %s: its synopsis '%s' takes %d..%d words, the check %s..%s" %
              (r[1], r[6], lo, hi, r[4], r[5]))
    kw = set(w for w in first(tree)[0] if re.match(r"^[a-z][a-z_0-9]*$", w))
    got = set(offered_first.get(r[1], "").split())
    if not kw <= got:
        bad = 1
        print("FAIL: Tab after '%s ' does not offer %s" % (r[1], " ".join(sorted(kw - got))))
print("ok: each command's counts and first keywords are its synopsis's (%d)" %
      len([r for r in cmds if r[1] not in sys_names]))

# the fuzzer's dictionary (tests/fuzz/vfsim.dict) has every word of the tables
dict_words = set(re.findall(r'^"([^"]*)"$', open(top + "/tests/fuzz/vfsim.dict").read(), re.M))
want = set(cmd_names + sys_names + [r[2] for r in sysc] + cond_names + kind_names + fmt_names)
same("the fuzzer's dictionary has the tables' words", dict_words & want, want)
sys.exit(bad or drift.bad)
PY
