#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""compare.py - vfsim's answers against the host kernel's.

    compare.py --fs ext4|tmpfs BATCH.vfs VFSIM.out RUNNER.out

BATCH.vfs is what tests/difftest/gen.py wrote, VFSIM.out what vfsim printed
running it, RUNNER.out what tests/difftest/runner.c printed running it on
the host.  Compares, call by call: the return value, the errno name, the
names each getdents returned, f_pos after each call (the generator's
`lseek FD 0 cur` probes) and the bytes each read returned.

Every difference is a mismatch, counted per class (ret, errno, names, fpos,
data, shape), unless a rule of tests/difftest/SIMPLIFICATIONS says that the
value is not defined the same way on both sides; the rules used are counted
too.  A rule named here and missing from that file is an error, so the file
stays the one list.  Exit status 0 when there is no mismatch, 1 otherwise.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CLASSES = ["ret", "errno", "names", "fpos", "data", "shape"]
VLINE = re.compile(r'^([A-Za-z][A-Za-z0-9_]*(?:\.\d+)?): (\w+)\((.*)\)(?: \[\w+\])? = '
                   r'(-1 (E[A-Z0-9]+)|-?\d+)(?: \[(.*)\]| "(.*)"| \((.*)\))?$')


def load_rules(path):
    rules = {}
    with open(path) as f:
        for line in f:
            m = re.match(r'^([a-z0-9-]+):\s+(.*)', line)
            if m:
                rules[m.group(1)] = m.group(2)
    return rules


class Call:
    """One call of the batch: the command and both answers."""

    def __init__(self, proc, words):
        self.proc, self.words = proc, words
        self.op = words[0]
        self.probe = self.op == "lseek" and words[2:] == ["0", "cur"]


def batch_calls(path):
    scen, out = None, {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("echo @@ "):
                scen = line[8:]
                out[scen] = []
            elif scen is not None and re.match(r'^[A-Za-z]\w*(\.\d+)?: ', line):
                proc, rest = line.split(": ", 1)
                out[scen].append(Call(proc, rest.split()))
    return out


def answers(path, parse):
    """{scenario: [answer]}: parse(line) of each line after "@@ N"."""
    scen, out = None, {}
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("@@ "):
                scen = line[3:]
                out[scen] = []
                continue
            a = parse(line) if scen is not None else None
            if a:
                out[scen].append(a)
    return out


def vfsim_answer(line):
    """(ret, errno, extra, kind, pos0) from vfsim's strace-like line."""
    m = VLINE.match(line)
    if not m:
        return None
    err = m.group(5)
    extra = m.group(6) if m.group(6) is not None else m.group(7)
    return (-1 if err else int(m.group(4)), err, extra or "", None, None)


def runner_answer(line):
    """The same from runner.c's tab-separated line."""
    if not line.startswith("R\t"):
        return None
    _, _, ret, err, kind, pos0, extra = (line.split("\t") + [""] * 7)[:7]
    return (int(ret) if ret.lstrip("-").isdigit() else None,
            None if err == "-" else err, extra, kind,
            None if pos0 == "-" else int(pos0))


class Comparer:
    def __init__(self, fs, rules, max_examples=10):
        self.fs, self.rules = fs, rules
        self.max_examples = max_examples
        self.calls = 0
        self.mismatch = {c: 0 for c in CLASSES}
        self.declared = {}
        self.examples = []
        self.lost = set()       # scenarios whose directory positions diverged

    def declare(self, rule):
        if rule not in self.rules:
            sys.exit("compare.py: rule '%s' is not in SIMPLIFICATIONS" % rule)
        self.declared[rule] = self.declared.get(rule, 0) + 1

    def bad(self, cls, scen, call, v, r):
        self.mismatch[cls] += 1
        if len(self.examples) < self.max_examples:
            self.examples.append("%s scenario %s: %s: %s: vfsim %s, host %s" % (
                cls, scen, call.proc, " ".join(call.words), v, r))

    def scenario(self, scen, calls, vans, rans):
        if len(vans) != len(calls) or len(rans) != len(calls):
            self.bad("shape", scen, Call("-", ["(calls)"]), len(vans), len(rans))
            return
        for call, v, r in zip(calls, vans, rans):
            self.calls += 1
            self.one(scen, call, v, r)

    def one(self, scen, call, v, r):
        vret, verr, vextra = v[0], v[1], v[2]
        rret, rerr, rextra, kind, pos0 = r
        # directory positions: hash cookies on ext4, offsets in the
        # maple tree ending at S32_MAX on the host's tmpfs
        cookie = "ext4-dir-cookie" if self.fs == "ext4" else "tmpfs-dir-offset"
        order = "ext4-hash-order" if self.fs == "ext4" else "tmpfs-d-children-order"
        midpass = "ext4-hash-midpass" if self.fs == "ext4" else order
        if call.op == "fork":
            if verr or rerr or vret <= 0 or rret is None or rret <= 0:
                self.bad("ret", scen, call, vret, rret)
            else:
                self.declare("pid")
            return
        if (kind == "d" and call.op in ("read", "pread", "readv") and verr == "EISDIR"
                and rerr == "EINVAL"):
            # rw_verify_area: a cookie near LLONG_MAX plus the count overflows
            self.declare(cookie)
            return
        if kind == "d" and call.op == "lseek" and not call.probe and (
                call.words[3:] == ["end"] or verr != rerr):
            # SEEK_END of a directory is the end cookie; from here on the
            # two sides stand at different places in it
            self.declare(cookie)
            self.lost.add(scen)
            return
        if verr != rerr:
            self.bad("errno", scen, call, verr or vret, rerr or rret)
            return
        if verr:
            return
        if call.op == "lseek":
            if kind == "d" and scen in self.lost:
                self.declare(cookie)
                return
            if kind == "d":
                # only whether the position is 0 is defined
                self.declare(cookie)
                if vret != rret:
                    self.lost.add(scen)     # a relative seek lands apart
                if (vret == 0) != (rret == 0):
                    self.bad("fpos" if call.probe else "ret", scen, call, vret, rret)
                return
            if vret != rret:
                self.bad("fpos" if call.probe else "ret", scen, call, vret, rret)
            return
        if call.op == "getdents":
            vn, rn = vextra.split(), rextra.split()
            if pos0 != 0 or scen in self.lost:
                # a pass continued: which names remain, and how many when
                # the directory changed meanwhile, is the order's business
                self.declare(midpass)
                return
            if vret != rret:
                self.bad("ret", scen, call, vret, rret)
                return
            if len(call.words) > 2 and vret > 0:
                self.declare(order)     # a prefix, in the host's order
                return
            if sorted(vn) != sorted(rn):
                self.bad("names", scen, call, vn, rn)
            elif vn != rn:
                self.declare(order)
            return
        if vret != rret:
            self.bad("ret", scen, call, vret, rret)
            return
        if call.op in ("read", "pread", "readv") and vextra != rextra:
            self.bad("data", scen, call, repr(vextra), repr(rextra))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fs", choices=["ext4", "tmpfs"], required=True)
    ap.add_argument("--rules", default=os.path.join(HERE, "SIMPLIFICATIONS"))
    ap.add_argument("--examples", type=int, default=10)
    ap.add_argument("batch")
    ap.add_argument("vfsim_out")
    ap.add_argument("runner_out")
    a = ap.parse_args()
    c = Comparer(a.fs, load_rules(a.rules), a.examples)
    calls = batch_calls(a.batch)
    vans = answers(a.vfsim_out, vfsim_answer)
    rans = answers(a.runner_out, runner_answer)
    for scen, cl in calls.items():
        c.scenario(scen, cl, vans.get(scen, []), rans.get(scen, []))
    total = sum(c.mismatch.values())
    print("%s: %d scenarios, %d calls compared, %d mismatches" % (
        a.fs, len(calls), c.calls, total))
    print("  mismatches: " + ", ".join("%s %d" % (k, c.mismatch[k]) for k in CLASSES))
    if c.declared:
        print("  declared (tests/difftest/SIMPLIFICATIONS): " +
              ", ".join("%s %d" % kv for kv in sorted(c.declared.items())))
    for e in c.examples:
        print("  " + e)
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
