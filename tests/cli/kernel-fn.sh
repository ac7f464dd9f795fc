#!/usr/bin/env bash
# One mechanism for the kernel functions' prologue (issue 14): every C
# function whose cases are resume points (the first column of
# core/internal.h's VFS_RP_LIST) is defined once, through KERNEL_FN(NAME),
# as every system call of the kernel is through SYSCALL_DEFINEn; none is
# a plain `void NAME(struct vx *x)` fetching its frame itself, and
# KERNEL_FN defines nothing else.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
fail() { echo "FAIL: $*"; exit 1; }

sed -n '/^#define VFS_RP_LIST/,/^$/p' core/internal.h |
    sed -nE 's/^[[:space:]]*P\(([a-z_0-9]+),.*/\1/p' | sort -u >/tmp/kernel-fn.$$.want
trap 'rm -f /tmp/kernel-fn.$$.*' EXIT
[ "$(wc -l </tmp/kernel-fn.$$.want)" -ge 20 ] ||
    fail "VFS_RP_LIST read as $(wc -l </tmp/kernel-fn.$$.want) functions"
grep -hE '^KERNEL_FN\([a-z_0-9]+\)$' core/*.c | sed -E 's/KERNEL_FN\((.*)\)/\1/' |
    sort >/tmp/kernel-fn.$$.got
dups=$(uniq -d </tmp/kernel-fn.$$.got)
[ -z "$dups" ] || fail "defined twice: $dups"
cmp -s /tmp/kernel-fn.$$.want /tmp/kernel-fn.$$.got ||
    fail "KERNEL_FN's definitions are not VFS_RP_LIST's functions: $(diff /tmp/kernel-fn.$$.want /tmp/kernel-fn.$$.got)"
plain=$(while read -r fn; do grep -nE "^(static )?void $fn\(struct vx \*x\)" core/*.c; done </tmp/kernel-fn.$$.want)
[ -z "$plain" ] || fail "a kernel function defined without KERNEL_FN: $plain"
echo "ok: $(wc -l </tmp/kernel-fn.$$.want) kernel functions, each defined once through KERNEL_FN"
