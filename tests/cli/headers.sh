#!/usr/bin/env bash
# The public headers by subject (issue 14): each of core/*.h compiles
# alone, first in its translation unit, with the project's flags, so a
# file includes what it uses and nothing else has to come before it;
# vfsim.h stays a short umbrella (the subjects live in their own headers)
# and no header passes the house's 800 lines; the shell (cli/) reads the
# world through accessors, never through core's layouts, which no public
# header and no cli/ translation unit sees.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CC:-cc}
command -v "$cc" >/dev/null || { echo "skip: no C compiler ($cc)"; exit 77; }
# the accessors' lists the headers include (core/accessors.tbl), as make makes them
${MAKE:-make} -s -C "$top" build/gen/accessors.inc || { echo "FAIL: make build/gen/accessors.inc"; exit 1; }
bad=0 n=0
for h in "$top"/core/*.h; do
    name=${h##*/}
    if ! out=$(printf '#include "%s"\n' "$name" | "$cc" -std=c11 -Wall -Wextra -Werror \
            -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -I"$top/core" -I"$top/build/gen" \
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
# the layouts are core's (issue 14): struct vfs_world and its objects are
# defined in core/world_layout.h only.  A private header is that one and
# every core header that includes a private one; no cli/ file includes
# one, and no cli/ translation unit, preprocessed as make compiles it,
# sees a world struct's body: to the shell they are incomplete types, so
# no '->' or '.' on their fields can compile there
layout='struct (vfs_world|vfs_thread|vfs_file|vfs_inode|vfs_proc|vfs_fdtable|vfs_callrec|vfs_frame|vfs_held|vfs_itab|vfs_blob|vfs_sb|vfs_tident|vfs_entvec|vfs_strtab)[[:space:]]*\{'
privs="world_layout.h"
while :; do
    more=
    for h in "$top"/core/*.h; do
        name=${h##*/}
        case " $privs " in *" $name "*) continue ;; esac
        for p in $privs; do
            grep -q "#include \"$p\"" "$h" && { more+=" $name"; break; }
        done
    done
    [ -n "$more" ] || break
    privs+="$more"
done
pub=$(for h in "$top"/core/*.h; do
          case " $privs " in *" ${h##*/} "*) ;; *) grep -HnE "$layout" "$h" ;; esac
      done)
[ -z "$pub" ] || { echo "FAIL: a public header of core/ lays out a world struct (core/world_layout.h is its place):"; \
    printf '%s\n' "$pub" | sed "s|$top/||" | head -n 5; bad=1; }
inc=$(for p in $privs; do grep -nF "#include \"$p\"" "$top"/cli/*.[ch]; done)
[ -z "$inc" ] || { echo "FAIL: cli/ includes a private header of core/ ($privs):"; \
    printf '%s\n' "$inc" | sed "s|$top/||" | head -n 5; bad=1; }
seen=
for c in "$top"/cli/*.c; do
    if ! pp=$(cd "$top" && "$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
            -DVFSIM_LINEEDIT_NONE -Icore -Icli -Ibuild/gen -E "cli/${c##*/}" 2>&1); then
        echo "FAIL: cli/${c##*/} does not preprocess:"; printf '%s\n' "$pp" | head -n 3; bad=1
        continue
    fi
    body=$(printf '%s\n' "$pp" | grep -oE "$layout" | head -n 1 | sed 's/[[:space:]]*{$//')
    [ -z "$body" ] || seen+="    cli/${c##*/}: $body"$'\n'
done
[ -z "$seen" ] || { echo "FAIL: cli/ sees the layout of a world struct (read it through the accessors of vfs_file.h, vfs_inode.h, vfs_thread.h, vfs_world.h):"; \
    printf '%s' "$seen" | head -n 10; bad=1; }
# adding a system call touches nothing in cli/ (docs/HACKING.md): the shell
# names none but the three that do what no row's flag says
sys=$(grep -noE '\bSYS_[A-Z0-9_]+' "$top"/cli/*.[ch] |
      grep -vE ':SYS_(NONE|_COUNT|DEFINED|MKDIR|EXIT|CLONE)$')
[ -z "$sys" ] || { echo "FAIL: cli/ names a system call (read its row in core/syscalls.c):"; \
    printf '%s\n' "$sys" | sed "s|$top/||" | head -n 5; bad=1; }
[ "$bad" -eq 0 ] || exit 1
echo "ok: $n headers in core/ compile alone, none past 800 lines; vfsim.h only includes;" \
    "the world's layouts are private ($privs); cli/ includes no umbrella and no" \
    "private header, sees no world struct's body, decodes no layout, lists no system call"
