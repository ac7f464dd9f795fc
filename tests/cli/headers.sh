#!/usr/bin/env bash
# The public headers by subject (issue 14): each of core/*.h compiles
# alone, first in its translation unit, with the project's flags, so a
# file includes what it uses and nothing else has to come before it;
# vfsim.h stays a short umbrella (the subjects live in their own headers)
# and no header passes the house's 800 lines.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CC:-cc}
command -v "$cc" >/dev/null || { echo "skip: no C compiler ($cc)"; exit 77; }
bad=0 n=0
for h in "$top"/core/*.h; do
    name=${h##*/}
    if ! out=$(printf '#include "%s"\n' "$name" | "$cc" -std=c11 -Wall -Wextra -Werror \
            -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$top/core" \
            -fsyntax-only -x c - 2>&1); then
        echo "FAIL: core/$name does not compile alone:"
        printf '%s\n' "$out" | head -n 10 | sed 's/^/    /'
        bad=1
    fi
    lines=$(wc -l <"$h")
    [ "$lines" -le 800 ] || { echo "FAIL: core/$name has $lines lines (800 at most)"; bad=1; }
    n=$((n + 1))
done
[ "$n" -ge 10 ] || { echo "FAIL: only $n headers in core/"; bad=1; }
# the umbrella: includes and its comment, no declarations of its own
decl=$(sed -e '/^\/\*/,/\*\//d' -e '/^#/d' -e '/^[[:space:]]*$/d' "$top/core/vfsim.h")
[ -z "$decl" ] || { echo "FAIL: core/vfsim.h declares more than an umbrella:"; \
    printf '%s\n' "$decl" | head -n 5; bad=1; }
[ "$bad" -eq 0 ] || exit 1
echo "ok: $n headers in core/ compile alone, none past 800 lines; vfsim.h only includes"
