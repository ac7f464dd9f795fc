#!/usr/bin/env bash
# Argument checking compiles each command's synopsis once (argspec_compile,
# cmd_table_init) instead of walking its text for every line (issue 14: the
# walk cost 5% of a shell command).  The compiled form must take exactly the
# lines the walk takes: lib/argspec_same.c, built with cli/argspec.c, tries
# every list of up to 4 words drawn from each synopsis (the commands' and
# expect's conditions', from `vfsim --tables`, and a few nested ones).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"
cc=${CC:-cc}
command -v "$cc" >/dev/null || { echo "skip: no C compiler"; exit 77; }
"$cc" -std=c11 -O1 -D_DEFAULT_SOURCE -I"$top/core" -I"$top/cli" -o same \
    "$top/tests/cli/lib/argspec_same.c" "$top/cli/argspec.c" || fail "the harness does not build"
"$vfsim" --tables >tables || fail "vfsim --tables"
{
    awk -F'\t' '$1 == "command" { print $7 } $1 == "condition" { print $4 }' tables
    printf '%s\n' '[a|b]... X' '[x [y]]... z' 'a | b C | [d]' '[on|off] [N...]' \
        'p [q [r|s]...] | t' 'A=B [k]'
} | sort -u >synopses
./same <synopses >out || { grep -v '^ok' out | head -20; fail "compiled and walked synopses differ"; }
echo "ok: $(tail -n 1 out)"
