# drift.py: for the tests that compare a list people read with the table
# vfsim runs on (tests/cli/options.sh).
bad = 0


def same(what, got, want):
    """GOT and WANT hold the same names: "ok: WHAT (N)", else FAIL and what
    is missing or more, and bad is set."""
    global bad
    got, want = set(got), set(want)
    if got == want:
        print("ok: %s (%d)" % (what, len(want)))
        return
    bad = 1
    print("FAIL: %s" % what)
    if want - got:
        print("    missing: " + " ".join(sorted(want - got)))
    if got - want:
        print("    not in the table: " + " ".join(sorted(got - want)))


def fail(text):
    global bad
    bad = 1
    print("FAIL: " + text)


def table(path, kind):
    """The rows of `vfsim --tables` (in PATH) of KIND, split at tabs."""
    rows = [l.rstrip("\n").split("\t") for l in open(path)]
    return [r for r in rows if r[0] == kind]
