#!/usr/bin/env bash
# Each decision overridden to the kernel's own expression (issue 15):
# every lesson, scenario and conformance sample, with `override
# file_needs_f_pos_lock` set to the current kernel's test after each
# `kernel` and `set fpos-lock` line (and at the top, for the default v6.5),
# `override __fget_light table_users == 1` beside it, and `override
# iterate_dir` set to the era's dispatch after each `kernel` and `set
# iterate` line, gives byte for
# byte the same trace (--trace jsonl), the same other output and the same
# exit status as without them: the expression reads count only where the
# kernel's code does, and nothing is noted where it agrees.  A wrong
# override is noted in the trace.  (`compare` lines are left out of both
# runs: compare replays an override under two presets, a question of its
# own.  explore runs with the default jobs in both: its verdicts, counts
# and counterexamples are the same for the same input and jobs, issue 12.)
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib/tmpdir.bash"

# the kernel's own expression under the knobs a -c list sets (FUNC: the
# decision, file_needs_f_pos_lock unless given first)
kernels_expr() {
    local fn=file_needs_f_pos_lock
    case $1 in -c) ;; *) fn=$1; shift ;; esac
    "$vfsim" "$@" -c "override $fn" |
        sed -n 's/^  the kernel.s: *//p'
}
declare -A by_preset by_value it_preset it_value
for p in $("$vfsim" -c 'kernel list' | sed 's/^..//' | awk '{ print $1 }'); do
    by_preset[$p]=$(kernels_expr -c "kernel $p")
    [ -n "${by_preset[$p]}" ] || fail "no expression for preset $p"
    it_preset[$p]=$(kernels_expr iterate_dir -c "kernel $p")
    [ -n "${it_preset[$p]}" ] || fail "no iterate_dir expression for preset $p"
done
for v in none count always count-or-dir count-or-iterate; do
    by_value[$v]=$(kernels_expr -c "set fpos-lock $v")
done
for v in exclusive dual shared; do
    it_value[$v]=$(kernels_expr iterate_dir -c "set iterate $v")
done
[ "${it_preset[v4.7]}" = native_shared ] || fail "v4.7's iterate_dir: ${it_preset[v4.7]}"
[ "${by_preset[v6.5]}" = 'atomic_pos && (count > 1 || iterate_shared)' ] ||
    fail "v6.5's expression: ${by_preset[v6.5]}"

# FILE -> the same with the overrides (awk: after each kernel/set line)
with_overrides() {
    awk -v v65="${by_preset[v6.5]}" -v presets="$(for p in "${!by_preset[@]}"; do
            printf '%s=%s\n' "$p" "${by_preset[$p]}"; done)" \
        -v values="$(for v in "${!by_value[@]}"; do
            printf '%s=%s\n' "$v" "${by_value[$v]}"; done)" \
        -v itp="$(for p in "${!it_preset[@]}"; do
            printf '%s=%s\n' "$p" "${it_preset[$p]}"; done)" \
        -v itv="$(for v in "${!it_value[@]}"; do
            printf '%s=%s\n' "$v" "${it_value[$v]}"; done)" '
        BEGIN {
            n = split(presets, a, "\n")
            for (i = 1; i <= n; i++) { k = a[i]; sub(/=.*/, "", k); e = a[i]; sub(/^[^=]*=/, "", e); P[k] = e }
            n = split(values, a, "\n")
            for (i = 1; i <= n; i++) { k = a[i]; sub(/=.*/, "", k); e = a[i]; sub(/^[^=]*=/, "", e); V[k] = e }
            n = split(itp, a, "\n")
            for (i = 1; i <= n; i++) { k = a[i]; sub(/=.*/, "", k); e = a[i]; sub(/^[^=]*=/, "", e); IP[k] = e }
            n = split(itv, a, "\n")
            for (i = 1; i <= n; i++) { k = a[i]; sub(/=.*/, "", k); e = a[i]; sub(/^[^=]*=/, "", e); IV[k] = e }
            print "override file_needs_f_pos_lock " v65
            print "override __fget_light table_users == 1"
            print "override iterate_dir " IP["v6.5"]
        }
        /^compare( |$)/ { print "# (compare left out)"; next }
        { print }
        $1 == "kernel" && ($2 in P) { print "override file_needs_f_pos_lock " P[$2]
                                      print "override __fget_light table_users == 1"
                                      print "override iterate_dir " IP[$2] }
        $1 == "set" && $2 == "iterate" && ($3 in IV) { print "override iterate_dir " IV[$3] }
        $1 == "set" && $2 == "fpos-lock" && ($3 in V) { print "override file_needs_f_pos_lock " V[$3] }
    ' "$1"
}

mkdir plain over
n=0 overrides=0
for f in "$top"/examples/*.vfs "$top"/tests/scenarios/*.vfs "$top"/../shared/conformance/*.vfs; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    awk '/^compare( |$)/ { print "# (compare left out)"; next } { print }' "$f" \
        >"plain/$name"
    with_overrides "$f" >"over/$name"
    overrides=$((overrides + $(grep -c '^override ' "over/$name")))
    (cd "$(dirname "$f")" && NO_COLOR=1 "$vfsim" --trace jsonl "$d/plain/$name" \
        </dev/null >"$d/a.out" 2>&1); a=$?
    (cd "$(dirname "$f")" && NO_COLOR=1 "$vfsim" --trace jsonl "$d/over/$name" \
        </dev/null >"$d/b.out" 2>&1); b=$?
    [ "$a" = "$b" ] || fail "$name: exit status $a, $b with the override: $(tail -n 3 b.out)"
    grep -q '^{' a.out || continue           # (no call: nothing to compare)
    cmp -s <(grep '^{' a.out) <(grep '^{' b.out) ||
        fail "$name: the traces differ: $(diff <(grep '^{' a.out) <(grep '^{' b.out) | head -n 6)"
    # ('override' itself lists the script's expressions: left out)
    diff <(grep -v '^{' a.out | sed "s|$d/plain/||" | explore_norm) \
         <(grep -v -e '^{' -e "^  the script's: " b.out | sed "s|$d/over/||" | explore_norm) \
        >diff.out || fail "$name: the output differs: $(head -n 6 diff.out)"
    n=$((n + 1))
done
[ "$n" -ge 60 ] || fail "only $n scripts compared"
echo "ok: $n scripts, $overrides overrides to the kernel's own test: the same traces"

# an override that decides otherwise is noted where it does
out=$("$vfsim" --trace text -c 'kernel v6.4' -c 'override file_needs_f_pos_lock atomic_pos' \
    -c 'mkdir /d' -c 'spawn A' -c 'A: open /d' -c 'A: getdents 3' 2>&1)
printf '%s\n' "$out" | grep -q 'note .*file_needs_f_pos_lock overridden by the script: takes f_pos_lock' ||
    fail "no note of the override: $out"
printf '%s\n' "$out" | grep -q 'mutex_lock.*acquire.*f_pos_lock' || fail "no f_pos_lock taken: $out"
out=$("$vfsim" --trace text -c 'override __fget_light false' -c 'mkdir /d' -c 'spawn A' \
    -c 'A: open /d' -c 'A: getdents 3' 2>&1)
printf '%s\n' "$out" | grep -q 'note .*__fget_light overridden by the script: takes a reference' ||
    fail "no note of the __fget_light override: $out"
printf '%s\n' "$out" | grep -q 'fdget_pos .*write .*f_count file#1 = 2' ||
    fail "no reference taken: $out"
out=$("$vfsim" --trace text -c 'kernel v6.4' -c 'override iterate_dir false' -c 'mkdir /d' \
    -c 'spawn A' -c 'A: open /d' -c 'A: getdents 3' 2>&1)
printf '%s\n' "$out" | grep -q 'note .*iterate_dir overridden by the script: i_rwsem exclusive' ||
    fail "no note of the iterate_dir override: $out"
printf '%s\n' "$out" | grep -q 'down_write_killable *acquire .*i_rwsem write' ||
    fail "no exclusive i_rwsem: $out"
echo "ok: an override that decides otherwise is noted"
