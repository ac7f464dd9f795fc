#!/usr/bin/env bash
# The public headers by subject (issue 14): each of core/*.h compiles
# alone, first in its translation unit, with the project's flags, so a
# file includes what it uses and nothing else has to come before it;
# vfsim.h stays a short umbrella (the subjects live in their own headers)
# and no header passes the house's 800 lines; the shell (cli/) reads the
# world through accessors, never through core's layouts.
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
# the shell reads the world through the public interface: no cli/ file
# includes the umbrella (each takes the subject headers it uses) or decodes
# core's layouts: fd-slot bits, the pending ring, the held-lock array and
# function stack, a lock's fields and its queue, lock-id and rec.took
# packing, the frame (vfs_fd_slot, vfs_thread_npending, vfs_thread_held,
# vfs_thread_frame_fn, vfs_lock_next/owner/waiter, vfs_call_took say it)
umb=$(grep -n '#include "vfsim.h"' "$top"/cli/*.[ch])
[ -z "$umb" ] || { echo "FAIL: cli/ includes the umbrella vfsim.h:"; \
    printf '%s\n' "$umb" | sed "s|$top/||" | head -n 5; bad=1; }
private='\bnheld\b|\bheld\[|\bnpending\b|\bpend_head\b|\bpending\[|\bfnstack\b|\bnfn\b'
private+='|(\.|->)took\b|\bwait_(head|tail|next|mode)\b|\bnreaders\b'
private+='|\bVFS_LID(_KIND|_IDX)?\b|\bFD_(CLOEXEC_BIT|RESERVED|STDIO)\b|(->|\.)fdt\b|(\.|->)fd\['
private+='|\bilocks\b|(f_pos_lock|f_lock|exec_lock|rename_mutex)\.|\bvfs_frame\b|struct vfs_held\b'
private+='|\b(ret_pc|kstack|kdepth|fdput_flags)\b|(\]|\bt)(\.|->)f\.'
use=$(grep -nE "$private" "$top"/cli/*.[ch])
[ -z "$use" ] || { echo "FAIL: cli/ decodes a layout of core's (use the accessors of vfs_world.h, vfs_lock.h):"; \
    printf '%s\n' "$use" | sed "s|$top/||" | head -n 10; bad=1; }
# adding a system call touches nothing in cli/ (docs/HACKING.md): the shell
# names none but the three that do what no row's flag says
sys=$(grep -noE '\bSYS_[A-Z0-9_]+' "$top"/cli/*.[ch] |
      grep -vE ':SYS_(NONE|_COUNT|DEFINED|MKDIR|EXIT|CLONE)$')
[ -z "$sys" ] || { echo "FAIL: cli/ names a system call (read its row in core/syscalls.c):"; \
    printf '%s\n' "$sys" | sed "s|$top/||" | head -n 5; bad=1; }
[ "$bad" -eq 0 ] || exit 1
echo "ok: $n headers in core/ compile alone, none past 800 lines; vfsim.h only includes;" \
    "cli/ includes no umbrella, decodes no layout, lists no system call"
