#!/usr/bin/env bash
# The README's examples run from the tree with the files it ships: each
# "$ build/vfsim ..." line of a code block names only files that exist here,
# and prints the lines the README shows after it (up to its "...").  The
# welcome's "by hand" lines run as typed.
set -u
: "${VFSIM:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
while IFS= read -r cmd; do
    n=$((n + 1))
    args=${cmd#\$ build/vfsim }
    for w in $args; do
        case $w in -*) ;; *) [ -e "$w" ] || { echo "FAIL: README names '$w', not in the tree"; exit 1; } ;; esac
    done
    # the README's lines after the command, up to "..." or the block's end
    awk -v c="$cmd" 'f && (/^\.\.\.$/ || /^```/) { exit } f { print } $0 == c { f = 1 }' \
        README.md >"$tmp/want"
    # shellcheck disable=SC2086  # the README's words
    NO_COLOR=1 "$VFSIM" $args 2>&1 | head -n "$(wc -l <"$tmp/want")" >"$tmp/got"
    # the time an explore takes and its jobs differ; explore pads its table
    sed -i -e 's/ in [0-9.]* s\([ :]\)/ in T s\1/' -e 's/(\([^()]*\)\b[0-9][0-9]* jobs\{0,1\})/(\1N jobs)/' -e 's/: [0-9]* states,/: N states,/' -e 's/[[:space:]]*$//' "$tmp/want" "$tmp/got"
    diff -u "$tmp/want" "$tmp/got" || { echo "FAIL: README: $cmd"; exit 1; }
done < <(grep '^\$ build/vfsim ' README.md)
[ "$n" -gt 0 ] || { echo "FAIL: no '\$ build/vfsim' example in README.md"; exit 1; }
echo "ok: $n README example(s) print what the README shows"

# the pictures the README links are the ones `make pictures` makes: one
# set per lesson, named after examples/NAME.vfs (scripts/pictures.sh)
for pic in $(grep -o '(pictures/[^)]*)' README.md | tr -d '()' | sort -u); do
    name=${pic#pictures/}; name=${name%.*}
    [ "$name" = index ] || [ -f "examples/$name.vfs" ] ||
        { echo "FAIL: README links $pic: no examples/$name.vfs to make it from"; exit 1; }
done
echo "ok: the README's picture links name lessons"

# the welcome's "by hand" lines, typed one at a time
NO_COLOR=1 "$VFSIM" examples/00-welcome.vfs |
    awk '/by hand/ { f = 1; next } f && /^    [^ ]/ { sub(/^ +/, ""); print; next } f { exit }' >"$tmp/hand"
[ "$(wc -l <"$tmp/hand")" -ge 3 ] || { echo "FAIL: no by-hand lines in the welcome"; exit 1; }
"$VFSIM" <"$tmp/hand" >"$tmp/out" 2>&1 || { echo "FAIL: the by-hand lines:"; cat "$tmp/out"; exit 1; }
grep -q 'getdents64(3) = ' "$tmp/out" || { echo "FAIL: the by-hand lines list nothing:"; cat "$tmp/out"; exit 1; }
echo "ok: the welcome's $(wc -l <"$tmp/hand") by-hand lines run as shown"
