#!/usr/bin/env bash
# gen-man.sh [--check] [VFSIM] [PAGE]: the command list of vfsim(1) is made
# from the shell's command table (`vfsim --commands-mdoc`).  It sits in PAGE
# (man/vfsim.1) between the lines
#     .\" BEGIN COMMANDS
#     .\" END COMMANDS
# Without --check, rewrites that part of PAGE.  With --check, changes
# nothing and exits 1 (showing a diff) when PAGE is out of date.
# VFSIM defaults to build/vfsim (built with make if missing).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
check=
[ "${1:-}" = --check ] && { check=1; shift; }
vfsim=${1:-$top/build/vfsim}
page=${2:-$top/man/vfsim.1}
begin='.\" BEGIN COMMANDS'
end='.\" END COMMANDS'

if [ ! -x "$vfsim" ] && [ "$vfsim" = "$top/build/vfsim" ]; then
    make -C "$top" --no-print-directory build/vfsim >/dev/null || exit 2
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

"$vfsim" --commands-mdoc >"$tmp/list" || { echo "gen-man: $vfsim --commands-mdoc failed" >&2; exit 2; }
[ "$(grep -cxF -- "$begin" "$page")" = 1 ] && [ "$(grep -cxF -- "$end" "$page")" = 1 ] || {
    echo "gen-man: $page needs exactly one '$begin' line and one '$end' line" >&2
    exit 2
}
# the page with the list between the markers replaced
# (the markers go through the environment: awk -v would eat the backslash)
B=$begin E=$end L=$tmp/list awk '
    $0 == ENVIRON["B"] { print; while ((getline l < ENVIRON["L"]) > 0) print l; skip = 1; next }
    $0 == ENVIRON["E"] { skip = 0 }
    !skip' "$page" >"$tmp/page"

if [ -n "$check" ]; then
    if cmp -s "$page" "$tmp/page"; then
        exit 0
    fi
    echo "$page: the command list differs from 'vfsim --commands-mdoc'" \
         "(run scripts/gen-man.sh):"
    diff -u --label "$page" --label "generated" "$page" "$tmp/page"
    exit 1
fi
if cmp -s "$page" "$tmp/page"; then
    echo "gen-man: $page is up to date"
else
    cat "$tmp/page" >"$page" && echo "gen-man: rewrote the command list in $page"
fi
