#!/usr/bin/env bash
# Ctrl-C at the prompt under `make run`: vfsim says so and goes on, and make
# does not die of it (it used to exit 130); `quit` then ends make with 0.
top=$(cd "$(dirname "$0")/../.." && pwd)
real=${VFSIM:?}
wrap=$(mktemp) || exit 1
cat >"$wrap" <<WRAP
#!/bin/sh
[ "\${1:-}" = --version ] && exec "$real" --version
exec make --no-print-directory -C "$top" run
WRAP
chmod +x "$wrap"
VFSIM=$wrap
. "$top/tests/interactive/lib/tmux.bash"
trap 't_cleanup; rm -f "$wrap"' EXIT
start
wait_for 'Welcome to vfsim'
keys C-c
wait_count 'vfsim v6.5>' 2      # a fresh prompt, from vfsim still alive
alive_then_quit
echo "ok: Ctrl-C under make run: the prompt stays, make exits 0"
