#!/usr/bin/env bash
# export jsonl: one JSON object a line, the trace's events in order, with
# the fields LANGUAGE.md fixes (seq thread fn op; lock obj mode for locks;
# ret on exits); the same events as `trace show` and --trace jsonl.
. "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null || { echo "no python3: skipped" >&2; exit 77; }
race=$(pidfd_race)
"$VFSIM" -q "$race" -c "export jsonl $work/race.jsonl" >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "vfsim export jsonl"; }
"$VFSIM" -q "$race" -c "trace show" 2>/dev/null | grep -E '^ +[0-9]+ ' >"$work/show"
"$VFSIM" -q --trace jsonl "$race" 2>/dev/null | grep '^{' >"$work/live"
"$VFSIM" -q "$race" -c "export jsonl -" 2>/dev/null | grep '^{' >"$work/stdout"
python3 - "$work/race.jsonl" "$(wc -l <"$work/show")" <<'PY' || fail "the JSON lines"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
evs = [json.loads(l) for l in lines]
bad = 0
def check(c, what):
    global bad
    print(("ok: " if c else "FAIL: ") + what)
    bad += not c
check(len(evs) == int(sys.argv[2]), "as many events as trace show (%d)" % len(evs))
check(all(all(k in e for k in ("seq", "thread", "fn", "op")) for e in evs),
      "every event has seq, thread, fn, op")
check([e["seq"] for e in evs] == sorted(e["seq"] for e in evs), "in seq order")
locks = [e for e in evs if e["op"] in ("acquire", "release", "block", "wake")]
check(locks and all(all(k in e for k in ("lock", "obj", "mode")) for e in locks),
      "lock events have lock, obj, mode")
check(all("ret" in e for e in evs if e["op"] == "exit"), "exits have ret")
check(all(":" in e.get("point", "") for e in evs), "every event has its point (FUNCTION:STEP)")
check(any(e["op"] == "enter" and e["fn"] == "ext4_readdir" and e["point"] == "iterate_dir:iterate"
          for e in evs), "ext4_readdir is entered in the step iterate_dir:iterate")
check(any(e["op"] == "skip" and e["thread"] == "A" for e in evs), "A skips f_pos_lock")
check(any(e["op"] == "acquire" and e["thread"] == "B" and e["lock"] == "f_pos_lock"
          for e in evs), "B takes f_pos_lock")
sys.exit(1 if bad else 0)
PY
cmp -s "$work/race.jsonl" "$work/live" && ok "the same as --trace jsonl" ||
    fail "export jsonl differs from --trace jsonl"
cmp -s "$work/race.jsonl" "$work/stdout" && ok "'-' writes to the standard output" ||
    fail "export jsonl - differs"
done_
