#!/usr/bin/env bash
# gen-man.sh [--check] [VFSIM] [PAGE...]: the lists in the manual pages are
# made from the shell's tables.  Each sits in its page between two marker
# lines, and is printed by a hidden option of vfsim:
#     .\" BEGIN COMMANDS ... .\" END COMMANDS        vfsim --commands-mdoc
#         (vfsim.1: the command table, the system calls' rows among it)
#     .\" BEGIN CONDITIONS ... .\" END CONDITIONS    vfsim --conditions-mdoc
#         (vfsim.5: expect's conditions)
# A page has any of these blocks (at least one).  PAGE defaults to
# man/vfsim.1 and man/vfsim.5.  Without --check, rewrites the blocks.  With
# --check, changes nothing and exits 1 (showing a diff) when a page is out
# of date.  VFSIM defaults to build/vfsim (built with make if missing).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
check=
[ "${1:-}" = --check ] && { check=1; shift; }
vfsim=${1:-$top/build/vfsim}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- "$top/man/vfsim.1" "$top/man/vfsim.5"

if [ ! -x "$vfsim" ] && [ "$vfsim" = "$top/build/vfsim" ]; then
    make -C "$top" --no-print-directory build/vfsim >/dev/null || exit 2
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

rc=0
for page in "$@"; do
    cp "$page" "$tmp/page" || exit 2
    blocks=0
    for block in COMMANDS:commands-mdoc CONDITIONS:conditions-mdoc; do
        name=${block%%:*}; opt=${block#*:}
        begin=".\\\" BEGIN $name"
        end=".\\\" END $name"
        nb=$(grep -cxF -- "$begin" "$tmp/page"); ne=$(grep -cxF -- "$end" "$tmp/page")
        [ "$nb" = 0 ] && [ "$ne" = 0 ] && continue
        [ "$nb" = 1 ] && [ "$ne" = 1 ] || {
            echo "gen-man: $page needs exactly one '$begin' line and one '$end' line" >&2
            exit 2
        }
        "$vfsim" --"$opt" >"$tmp/list" || { echo "gen-man: $vfsim --$opt failed" >&2; exit 2; }
        # the page with the list between the markers replaced
        # (the markers go through the environment: awk -v would eat the backslash)
        B=$begin E=$end L=$tmp/list awk '
            $0 == ENVIRON["B"] { print; while ((getline l < ENVIRON["L"]) > 0) print l; skip = 1; next }
            $0 == ENVIRON["E"] { skip = 0 }
            !skip' "$tmp/page" >"$tmp/next" && mv "$tmp/next" "$tmp/page"
        blocks=$((blocks + 1))
    done
    [ "$blocks" -gt 0 ] || { echo "gen-man: $page has no generated list" >&2; exit 2; }
    if [ -n "$check" ]; then
        cmp -s "$page" "$tmp/page" && continue
        echo "$page: a list differs from vfsim's tables (run scripts/gen-man.sh):"
        diff -u --label "$page" --label "generated" "$page" "$tmp/page"
        rc=1
    elif cmp -s "$page" "$tmp/page"; then
        echo "gen-man: $page is up to date"
    else
        cat "$tmp/page" >"$page" && echo "gen-man: rewrote the lists in $page"
    fi
done
exit $rc
