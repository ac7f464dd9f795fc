#!/usr/bin/env bash
# pictures.sh: render the workshop's lessons as pictures into pictures/
# (`make pictures` runs it).  For each lesson NAME:
#   pictures/NAME.html   the timeline page (`export html`), self-contained
#   pictures/NAME.png    a screenshot of it (headless Chromium)
#   pictures/NAME.svg    the lock-order graph (`export dot`, then dot -Tsvg)
#   pictures/NAME.json   the Chrome trace (`export chrome`), for ui.perfetto.dev
# and pictures/index.html linking them all.  The lessons: examples/*.vfs,
# and, when ../shared/conformance exists, the pidfd_getfd race under v6.4
# (02-pidfd-race-stepped.vfs) and the v6.5 wrapper on exfat (05-wrapper.vfs).
#
#   VFSIM=path      the binary (default: build/vfsim, built if missing)
#   PICTURES=dir    where to write (default: pictures)
#   NO_PNG=1        skip the screenshots (no Chromium needed)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2

out=${PICTURES:-pictures}
vfsim=${VFSIM:-build/vfsim}
if [ -z "${VFSIM:-}" ]; then
    ${MAKE:-make} --no-print-directory build/vfsim >/dev/null || exit 2
fi
[ -x "$vfsim" ] || { echo "pictures.sh: no $vfsim" >&2; exit 2; }
have_dot=; command -v dot >/dev/null && have_dot=1
chromium=
for c in chromium chromium-browser google-chrome; do
    command -v "$c" >/dev/null && { chromium=$c; break; }
done
[ -n "${NO_PNG:-}" ] && chromium=
[ -n "$have_dot" ] || echo "pictures.sh: no dot (graphviz): no lock graphs" >&2
[ -n "$chromium" ] || [ -n "${NO_PNG:-}" ] ||
    echo "pictures.sh: no chromium: no screenshots" >&2
mkdir -p "$out" || exit 2

# The lessons: NAME<TAB>FILE<TAB>TITLE
list() {
    local f name title
    for f in examples/*.vfs; do
        [ -f "$f" ] || continue
        name=$(basename "$f" .vfs)
        title=$(sed -n '1s/^# *//p' "$f")
        printf '%s\t%s\t%s\n' "$name" "$f" "${title:-$name}"
    done
    local shared=../shared/conformance
    if [ -f "$shared/02-pidfd-race-stepped.vfs" ]; then
        printf 'pidfd-race-v6.4\t%s\t%s\n' "$shared/02-pidfd-race-stepped.vfs" \
            "pidfd_getfd steals the file after the owner skipped f_pos_lock (v6.4)"
    fi
    if [ -f "$shared/05-wrapper.vfs" ]; then
        printf 'wrapper-exfat-v6.5\t%s\t%s\n' "$shared/05-wrapper.vfs" \
            "v6.5: exfat's iterator under the wrapper's write lock"
    fi
}

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
n=0 bad=0
index="$tmp/index"
: >"$index"
while IFS=$'\t' read -r name file title; do
    n=$((n + 1))
    # a lesson's expects may fail or an explore may leave little trace: the
    # picture shows whatever the session traced
    if ! NO_COLOR=1 "$vfsim" -q "$file" \
            -c "export html $out/$name.html \"${title//\"/”}\"" \
            -c "export chrome $out/$name.json" \
            -c "export dot $tmp/$name.dot" </dev/null >"$tmp/$name.log" 2>&1 ||
       [ ! -s "$out/$name.html" ]; then
        if [ ! -s "$out/$name.html" ]; then
            echo "pictures.sh: $file: no picture" >&2
            sed 's/^/    /' "$tmp/$name.log" | tail -n 5 >&2
            bad=$((bad + 1))
            continue
        fi
    fi
    if [ -n "$have_dot" ] && [ -s "$tmp/$name.dot" ]; then
        dot -Tsvg "$tmp/$name.dot" -o "$out/$name.svg" || bad=$((bad + 1))
    fi
    printf '%s\t%s\n' "$name" "$title" >>"$index"
    echo "pictures/$name: $title"
done < <(list)

# Screenshots, a few at a time: the window as large as the page.
shot() {
    local html=$1 png=${1%.html}.png w h r prof
    w=$(sed -n 's/.*<svg id="timeline"[^>]* width="\([0-9]*\)".*/\1/p' "$html" | head -n 1)
    h=$(sed -n 's/.*<svg id="timeline"[^>]* height="\([0-9]*\)".*/\1/p' "$html" | head -n 1)
    r=$(grep -o '<li class="report' "$html" | wc -l)
    w=$(( ${w:-1000} + 60 )); [ "$w" -lt 1280 ] && w=1280
    h=$(( ${h:-400} + 330 + 34 * r ))
    prof=$(mktemp -d)
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update \
        --disable-sync --hide-scrollbars --user-data-dir="$prof" \
        --window-size="$w,$h" --screenshot="$top/$png" "file://$top/$html" \
        >/dev/null 2>&1
    local rc=$?
    rm -rf "$prof"
    [ "$rc" -eq 0 ] && [ -s "$png" ] || { echo "pictures.sh: no screenshot of $html" >&2; return 1; }
}
if [ -n "$chromium" ]; then
    export -f shot
    export chromium top
    cut -f1 "$index" | sed "s|^|$out/|; s|\$|.html|" |
        xargs -P 4 -I{} bash -c 'shot "$1"' _ {} || bad=$((bad + 1))
fi

# The index page.
{
    echo '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
    echo '<title>vfsim pictures</title><style>body{font:20px/1.4 sans-serif;'
    echo 'margin:24px;color:#000}li{margin:8px 0}a{color:#0050A0}</style></head><body>'
    echo '<h1>vfsim pictures: the lessons</h1><p>Each lesson as a timeline page'
    echo '(threads as lanes, locks held and waited for, the detectors'"'"' reports),'
    echo 'a screenshot of it, its lock-order graph, and a Chrome trace to open in'
    echo '<a href="https://ui.perfetto.dev">ui.perfetto.dev</a>. Made by'
    echo '<code>make pictures</code>.</p><ul>'
    while IFS=$'\t' read -r name title; do
        t=$(printf '%s' "$title" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')
        printf '<li><a href="%s.html">%s</a> <small>(' "$name" "$t"
        [ -f "$out/$name.png" ] && printf '<a href="%s.png">screenshot</a>, ' "$name"
        [ -f "$out/$name.svg" ] && printf '<a href="%s.svg">lock graph</a>, ' "$name"
        printf '<a href="%s.json">Chrome trace</a>)</small></li>\n' "$name"
    done <"$index"
    echo '</ul></body></html>'
} >"$out/index.html"

problems=; [ "$bad" -eq 0 ] || problems=", $bad problems"
echo "pictures.sh: $n lessons into $out/ (index: $out/index.html)$problems"
[ "$bad" -eq 0 ]
