#!/usr/bin/env bash
# fs define (issue 15): `save` writes the definition out so that the saved
# session reloads and replays the same calls; `compare` of a script keeps
# it; in -c a bad definition is one line.
. "$(dirname "$0")/lib/tmpdir.bash"

cat >s.vfs <<'V'
fs define legacyfs \
	iterate exfat_iterate \
	llseek default_llseek
mount legacyfs /x
mkdir /x/d
touch /x/d/a
spawn A
A: open /x/d
A: getdents 3
A: lseek 3 0
save saved.vfs
V
"$vfsim" -q s.vfs >out 2>&1 || fail "the script failed: $(cat out)"
grep -qx 'fs define legacyfs iterate exfat_iterate llseek default_llseek' saved.vfs ||
    fail "saved.vfs lacks the definition: $(cat saved.vfs)"
[ "$(grep -n '^fs define' saved.vfs | cut -d: -f1)" -lt "$(grep -n '^mount' saved.vfs | cut -d: -f1)" ] ||
    fail "the definition is saved after the mount"
"$vfsim" --trace text s.vfs >t1 2>&1 || fail "s.vfs with a trace"
"$vfsim" --trace text saved.vfs >t2 2>&1 || fail "saved.vfs does not reload: $(cat t2)"
diff <(grep -v 'saved to' t1) <(grep -v 'saved to' t2) >/dev/null ||
    fail "the saved session replays otherwise"
grep -q 'default_llseek' t2 || fail "the replay's lseek is not the defined type's"

# compare FILE replays the definition under both presets
out=$("$vfsim" -q -c 'compare v6.4 v6.5 s.vfs' 2>&1) || fail "compare: $out"
printf '%s\n' "$out" | grep -q 'i_rwsem write' || fail "compare: no exclusive lock: $out"
printf '%s\n' "$out" | grep -q 'downgrade' || fail "compare: no wrapper under v6.5: $out"

# reset keeps it (and its line in the new log)
"$vfsim" -q -c 'fs define keptfs iterate jfs_readdir' -c reset -c 'mount keptfs /k' \
    -c 'save kept.vfs' >out 2>&1 || fail "reset lost the definition: $(cat out)"
grep -q '^fs define keptfs iterate jfs_readdir' kept.vfs || fail "reset's log: $(cat kept.vfs)"

# a bad definition in -c: one line, exit status 2 (at the prompt:
# tests/interactive/complete-fstype.sh)
"$vfsim" -c 'fs define bad iterate exfat_iter' >/dev/null 2>err; rc=$?
[ "$rc" = 2 ] || fail "exit status $rc"
[ "$(wc -l <err)" = 1 ] || fail "not one line: $(cat err)"
grep -qx -- "-c:1: column 23: fs define: unknown iterator 'exfat_iter' (did you mean 'exfat_iterate'?)" err ||
    fail "message: $(cat err)"
echo "ok: fs define saved, reloaded, compared, kept by reset; a bad one is one line"
