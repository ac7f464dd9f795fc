#!/usr/bin/env python3
"""Check two Chrome traces from vfsim (see chrome.sh): race.json, wake.json."""
import json
import sys

failures = 0


def check(cond, what):
    global failures
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures += 1


def load(path):
    with open(path) as f:
        doc = json.load(f)
    check(isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list),
          path + ": an object with traceEvents")
    return doc["traceEvents"]


def names(evs):
    """tid -> thread name, pid -> process name"""
    th, pr = {}, {}
    for e in evs:
        if e.get("ph") == "M" and e["name"] == "thread_name":
            th[(e["pid"], e["tid"])] = e["args"]["name"]
        if e.get("ph") == "M" and e["name"] == "process_name":
            pr[e["pid"]] = e["args"]["name"]
    return th, pr


def slices(evs, path):
    """Replay B/E per thread, as the importer does; return closed slices
    (pid, tid, name, start, end) including X slices."""
    out, stacks = [], {}
    for e in sorted((e for e in evs if e.get("ph") in ("B", "E")),
                    key=lambda e: e["ts"]):
        k = (e["pid"], e["tid"])
        st = stacks.setdefault(k, [])
        if e["ph"] == "B":
            st.append(e)
        else:
            if not st or st[-1]["name"] != e["name"]:
                check(False, "%s: E %s at %s matches the open B" % (path, e["name"], e["ts"]))
                return out
            b = st.pop()
            check(e["ts"] > b["ts"], "%s: %s ends after it begins" % (path, e["name"])) \
                if e["ts"] <= b["ts"] else None
            out.append((k[0], k[1], b["name"], b["ts"], e["ts"]))
    check(all(not s for s in stacks.values()), path + ": every B has its E")
    for e in evs:
        if e.get("ph") == "X":
            if e["dur"] < 0:
                check(False, "%s: X %s has dur >= 0" % (path, e["name"]))
            out.append((e["pid"], e["tid"], e["name"], e["ts"], e["ts"] + e["dur"]))
    return out


def nested(sl, path):
    """Slices on one thread nest or are disjoint (what Perfetto requires)."""
    by = {}
    for s in sl:
        by.setdefault((s[0], s[1]), []).append(s)
    bad = 0
    for k, v in by.items():
        if k[0] == 1:        # the lock tracks: slots never overlap either
            pass
        v.sort(key=lambda s: (s[3], -s[4]))
        stack = []
        for s in v:
            while stack and stack[-1][4] <= s[3] + 1e-9:
                stack.pop()
            if stack and s[4] > stack[-1][4] + 1e-9:
                bad += 1
                if bad < 4:
                    print("   overlap: %r inside %r" % (s, stack[-1]))
            stack.append(s)
    check(bad == 0, path + ": slices on each track nest properly")


def enclosing(sl, pid, tid, ts):
    c = [s for s in sl if s[0] == pid and s[1] == tid and s[3] <= ts <= s[4]]
    return min(c, key=lambda s: s[4] - s[3]) if c else None


# ---- the race: two processes, duplicate and races reported ----
path = sys.argv[1]
evs = load(path)
th, pr = names(evs)
byname = {v: k for k, v in th.items()}
check("A" in byname and "B" in byname, path + ": threads A and B are named")
check(pr.get(1) == "locks", path + ": a 'locks' process for the lock tracks")
sl = slices(evs, path)
nested(sl, path)
for t in ("A", "B"):
    pid, tid = byname[t]
    gd = [e for e in evs if e.get("ph") in ("B", "E") and e["name"] == "getdents64"
          and e["tid"] == tid and e["pid"] == pid]
    check([e["ph"] for e in gd] == ["B", "E"], path + ": one getdents64 B/E slice for " + t)
    check(any(e["ph"] == "E" and e["args"].get("ret") == "2" for e in gd),
          path + ": %s's getdents64 returns 2" % t)
    check(any(s[2] == "iterate_dir" and s[1] == tid for s in sl),
          path + ": %s has an iterate_dir slice" % t)
    check(any(e.get("ph") == "B" and e["name"] == "ext4_readdir" and e["tid"] == tid
              and e["args"].get("point") == "iterate_dir:iterate" for e in evs),
          path + ": %s enters ext4_readdir in the step iterate_dir:iterate" % t)
check(any(s[2] == "mutex_lock" and s[1] == byname["B"][1] for s in sl),
      path + ": B's mutex_lock (the thief takes f_pos_lock)")
check(not any(s[2] == "mutex_lock" and s[1] == byname["A"][1] for s in sl),
      path + ": A never takes f_pos_lock (it skipped it)")
check(any(e.get("ph") == "i" and e["name"].startswith("skip f_pos_lock")
          for e in evs), path + ": the skip is an instant")
holds = [e for e in evs if e.get("ph") == "X" and e.get("cat") == "lock" and e["pid"] == 1]
check(any(e["args"]["lock"] == "file#1 f_pos_lock" and e["args"]["thread"] == "B"
          for e in holds), path + ": B holds file#1 f_pos_lock on its track")
check(sum(e["args"]["lock"] == "/d i_rwsem" for e in holds) == 2,
      path + ": A and B both hold /d i_rwsem (read)")
rep = [e for e in evs if e.get("ph") == "i" and e.get("cat") == "report"]
dup = [e for e in rep if e["args"]["kind"] == "duplicate" and e.get("s") == "t"]
check({e["tid"] for e in dup} == {byname["A"][1], byname["B"][1]},
      path + ": the duplicate is marked on both threads")
check({e["args"]["step"] for e in dup} == {26, 30}, path + ": at steps 26 and 30")
check(any(e["args"]["kind"] == "race" and "f_pos" in e["name"] for e in rep),
      path + ": the race on f_pos is marked")

# ---- the wake-up: the flow from A's release to A.2's wait ----
path = sys.argv[2]
evs = load(path)
th, _ = names(evs)
byname = {v: k for k, v in th.items()}
check("A" in byname and "A.2" in byname, path + ": threads A and A.2 are named")
check(byname["A"][0] == byname["A.2"][0], path + ": in one process")
sl = slices(evs, path)
nested(sl, path)
for t in ("A", "A.2"):
    check(sum(1 for e in evs if e.get("ph") == "B" and e["name"] == "getdents64"
              and e["tid"] == byname[t][1]) == 1, path + ": a getdents64 slice for " + t)
wait = [e for e in evs if e.get("ph") == "X" and e["name"] == "mutex_lock (waiting)"]
check(len(wait) == 1 and wait[0]["tid"] == byname["A.2"][1] and wait[0]["args"].get("holder") == "A",
      path + ": A.2 waits in mutex_lock for A")
s_ = [e for e in evs if e.get("ph") == "s"]
f_ = [e for e in evs if e.get("ph") == "f"]
check(len(s_) == 1 and len(f_) == 1 and s_[0]["id"] == f_[0]["id"],
      path + ": one wake-up flow (s and f with one id)")
if s_ and f_:
    s0, f0 = s_[0], f_[0]
    check(s0["tid"] == byname["A"][1] and f0["tid"] == byname["A.2"][1],
          path + ": from A to A.2")
    check(f0.get("bp") == "e" and s0["ts"] <= f0["ts"] + 1,
          path + ": f binds to its enclosing slice, in the same step")
    es = enclosing(sl, s0["pid"], s0["tid"], s0["ts"])
    ef = enclosing(sl, f0["pid"], f0["tid"], f0["ts"])
    check(es is not None and es[2] == "mutex_unlock", path + ": s is inside A's mutex_unlock")
    check(ef is not None and ef[2] == "mutex_lock (waiting)",
          path + ": f is inside A.2's wait")
track = [e for e in evs if e.get("ph") == "X" and e["pid"] == 1 and e.get("cat") == "wait"]
check(len(track) == 1 and track[0]["name"] == "A.2 waits (excl)",
      path + ": the wait is on the lock's track too")
sys.exit(1 if failures else 0)
