#!/usr/bin/env bash
# contrib/: the Vim syntax file names every command of vfsim's table and
# loads cleanly; the bash completion offers options, presets and scripts.
set -u
: "${VFSIM:?}"
top=$(cd "$(dirname "$0")/../.." && pwd)
syn=$top/contrib/vim/syntax/vfs.vim
bad=0
for c in $("$VFSIM" --commands-mdoc | sed -n 's/^\.It Ic \([^ ]*\).*/\1/p'); do
    grep -qE "^syn keyword vfs[A-Za-z]+ .*\<$c\>" "$syn" || { echo "FAIL: '$c' is not in $syn"; bad=1; }
done
[ "$bad" -eq 0 ] || exit 1
echo "ok: every command is in the syntax file"
if command -v vim >/dev/null 2>&1; then
    out=$(vim -Nu NONE -i NONE -es -c "set rtp^=$top/contrib/vim" -c 'syntax on' \
        -c "edit $top/examples/07-pidfd-getfd-race-v5.6.vfs" -c 'call cursor(30, 1)' \
        -c 'redir! > /dev/stdout' -c 'echo &filetype synIDattr(synID(26, 1, 1), "name")' \
        -c 'redir END' -c 'qa!' 2>&1)
    printf '%s\n' "$out" | grep -q 'vfs vfsThread' ||
        { echo "FAIL: vim: filetype and syntax: '$out'"; exit 1; }
    echo "ok: vim loads it (line 26 starts with vfsThread)"
else
    echo "no vim: the syntax file not loaded"
fi
# the completion, as bash would call it
out=$(bash -c ". '$top/contrib/bash-completion/vfsim'
    COMP_WORDS=('$VFSIM' -k v6); COMP_CWORD=2; _vfsim; echo \"\${COMPREPLY[*]}\"
    COMP_WORDS=('$VFSIM' --tr); COMP_CWORD=1; _vfsim; echo \"\${COMPREPLY[*]}\"
    COMP_WORDS=('$VFSIM' --trace j); COMP_CWORD=2; _vfsim; echo \"\${COMPREPLY[*]}\"")
[ "$out" = "v6.4 v6.5
--trace
jsonl" ] || { echo "FAIL: bash completion said: $out"; exit 1; }
echo "ok: bash completion: presets, options, --trace values"
