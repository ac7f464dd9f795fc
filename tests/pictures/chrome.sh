#!/usr/bin/env bash
# export chrome: the JSON parses, and holds what Perfetto will draw: the
# getdents64 slices (B/E) of both threads, properly nested per thread, the
# lock tracks, the wait, the wake-up flow (s/f) bound to a slice on each
# side, and the duplicate and race reports at the detectors' steps.
. "$(dirname "$0")/lib.bash"
command -v python3 >/dev/null || { echo "no python3: skipped" >&2; exit 77; }

"$VFSIM" -q "$(pidfd_race)" -c "export chrome $work/race.json" >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "vfsim on the race scenario"; }
"$VFSIM" -q "$(wakeup)" -c "export chrome $work/wake.json" >"$work/out" 2>&1 ||
    { cat "$work/out"; fail "vfsim on the wake-up scenario"; }
python3 -m json.tool "$work/race.json" >/dev/null && ok "race.json parses" ||
    fail "race.json is not JSON"
python3 -m json.tool "$work/wake.json" >/dev/null && ok "wake.json parses" ||
    fail "wake.json is not JSON"

python3 "$(dirname "$0")/check_chrome.py" "$work/race.json" "$work/wake.json" || fail "check_chrome.py"
done_
