#!/usr/bin/env bash
# export html: headless Chromium opens the page (no network: the page must
# be self-contained), runs its script, and the DOM it dumps has a lane per
# thread, the duplicate and race marks on the right threads and steps, the
# waits and wake-ups.  Screenshots for people: build/pictures-test/*.png.
. "$(dirname "$0")/lib.bash"
CHROMIUM=$(find_chromium)
mkdir -p "$shots" || exit 2

"$VFSIM" -q "$(pidfd_race)" -c "export html $work/race.html pidfd_getfd race, v6.4" \
    >"$work/out" 2>&1 || { cat "$work/out"; fail "vfsim on the race scenario"; }
"$VFSIM" -q "$(three)" -c "export html $work/three.html three readers, exfat, v6.5" \
    >"$work/out" 2>&1 || { cat "$work/out"; fail "vfsim on the three readers"; }
"$VFSIM" -q "$(upgrade)" -c "export html $work/upgrade.html" \
    >"$work/out" 2>&1   # the upgrade deadlocks: the script says so, no matter

# self-contained: nothing to fetch
for f in race three upgrade; do
    if grep -Eqi '<(script|link|img)[^>]+(src|href)=|@import|url\((https?:)?//' "$work/$f.html"; then
        fail "$f.html refers to something outside itself"
    else
        ok "$f.html is self-contained"
    fi
done

dom() { chromium_run --virtual-time-budget=2000 --dump-dom "file://$work/$1.html" >"$work/$1.dom"; }
has() { grep -Eq "$2" "$work/$1.dom" && ok "$1: $3" || fail "$1: $3 (no /$2/)"; }
hasnt() { grep -Eq "$2" "$work/$1.dom" && fail "$1: $3 (/$2/ found)" || ok "$1: $3"; }

dom race || fail "chromium --dump-dom race.html"
has race '<body[^>]*data-ready="1"' "the page's script ran"
has race '<g class="lane"[^>]*data-thread="A"' "a lane for A"
has race '<g class="lane"[^>]*data-thread="B"' "a lane for B"
has race 'class="mark mark-duplicate" data-step="26" data-thread="B"' "the duplicate marked at step 26 on B"
has race 'class="mark mark-duplicate" data-step="30" data-thread="A"' "the duplicate marked at step 30 on A"
has race 'class="mark mark-race" data-step="[0-9]+" data-thread="A"' "a race marked on A"
has race 'class="report report-duplicate"' "the duplicate in the report list"
has race '<span hidden="" id="nmarks">[1-9]' "the script counted the marks"
has race 'class="fn sys" data-fn="getdents64"' "getdents64 boxes"
has race 'class="fn sys" data-fn="pidfd_getfd"' "the pidfd_getfd box"
has race 'class="hold" data-lock="file#1 f_pos_lock"' "the f_pos_lock hold"
has race 'data-tip="[^"]*B holds file#1 f_pos_lock' "hover details on the hold"
grep -q 'iterate_dir:iterate  *ext4_readdir  *enter' "$work/race.html" &&
    ok "race: a step's details name its FUNCTION:STEP" ||
    fail "race: no 'iterate_dir:iterate ext4_readdir enter' in the steps' details"
n=$(grep -o '<title>' "$work/race.dom" | wc -l)
[ "$n" -eq 1 ] && ok "race: the script turned the SVG's <title>s into its tooltip" ||
    fail "race: $n <title> elements left"

dom three || fail "chromium --dump-dom three.html"
for t in A B C; do has three "<g class=\"lane\"[^>]*data-thread=\"$t\"" "a lane for $t"; done
has three 'class="wait"' "the waits are drawn"
has three 'class="wake"' "the wake-ups are drawn"
has three 'class="report report-none"' "no report: it says so"
hasnt three 'class="mark ' "and marks nothing"

dom upgrade || fail "chromium --dump-dom upgrade.html"
has upgrade 'class="mark mark-deadlock" data-step="[0-9]+" data-thread="A"' "the deadlock marked on A"
has upgrade 'class="wait"' "the wait that never ends is drawn"

for f in race three upgrade; do
    if chromium_run --window-size=1600,1500 --screenshot="$shots/$f.png" \
            "file://$work/$f.html" >/dev/null && [ -s "$shots/$f.png" ]; then
        cp "$work/$f.html" "$shots/$f.html"
        ok "screenshot $shots/$f.png"
    else
        fail "screenshot of $f.html"
    fi
done
done_
