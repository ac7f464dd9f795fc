#!/usr/bin/env bash
# `save FILE` writes as the user expects (issue 17): through symlinks to the
# file they name, never over a FIFO, device or directory, keeping the old
# file's mode, with the errno when the write fails, for any name up to
# NAME_MAX.
. "$(dirname "$0")/lib/tmpdir.bash"
save() { "$vfsim" -q -c 'mkdir /saved' -c "save $1" 2>&1; }

# a symlink is written through: the link stays, the file it names changes
echo old >target
ln -s target link
save link >/dev/null || fail "save link failed"
[ -L link ] || fail "save replaced the symlink by a regular file"
grep -q '^mkdir /saved$' target || fail "the symlink's target was not written"
mkdir sub
ln -s ../target sub/up
echo old >target
save sub/up >/dev/null || fail "save through a relative link failed"
[ -L sub/up ] && grep -q '^mkdir /saved$' target || fail "relative link not followed"
ln -s created dangling
save dangling >/dev/null || fail "save through a dangling link failed"
[ -L dangling ] && [ -f created ] || fail "a dangling link's target was not created"
ln -s loop1 loop2; ln -s loop2 loop1
out=$(save loop1) && fail "a symlink loop was saved to"
printf '%s\n' "$out" | grep -q "save: cannot write 'loop1': too many levels of symbolic links" ||
    fail "symlink loop: $out"

# the old file's mode is kept; a new file gets 0666 less the umask
echo old >private
chmod 600 private
save private >/dev/null || fail "save private failed"
[ "$(stat -c %a private)" = 600 ] || fail "mode 0600 became $(stat -c %a private)"
(umask 022; save fresh >/dev/null) || fail "save fresh failed"
[ "$(stat -c %a fresh)" = 644 ] || fail "a new file is $(stat -c %a fresh), not 644"

# anything but a regular file is refused, and left as it was
mkfifo fifo
out=$(save fifo); rc=$?
[ "$rc" = 2 ] || fail "save over a FIFO: exit $rc, not 2"
[ "$out" = "-c:2: save: 'fifo' is a FIFO, not replaced (save to a regular file)" ] ||
    fail "save over a FIFO said: $out"
[ -p fifo ] || fail "the FIFO was replaced"
ln -s fifo fifolink
out=$(save fifolink) && fail "save through a link to a FIFO worked"
printf '%s\n' "$out" | grep -q "is a FIFO, not replaced" || fail "link to FIFO: $out"
mkdir adir
out=$(save adir) && fail "save over a directory worked"
printf '%s\n' "$out" | grep -q "'adir' is a directory, not replaced" || fail "directory: $out"
ln -s /dev/null devnull
out=$(save devnull) && fail "save through a link to /dev/null worked"
printf '%s\n' "$out" | grep -q "is a character device, not replaced" || fail "/dev/null: $out"
[ -c /dev/null ] || fail "/dev/null is gone"

# a valid name of 250 characters (the temporary name used to be NAME.tmp.PID)
long=$(printf 'n%.0s' $(seq 250))
save "$long" >/dev/null || fail "save to a 250-character name failed"
[ -f "$long" ] || fail "the 250-character file is missing"

# a failed write names the errno and leaves the old file and no temporary
echo old >big
out=$(ulimit -f 0; trap '' XFSZ; save big); rc=$?
[ "$rc" = 2 ] || fail "save past RLIMIT_FSIZE: exit $rc, not 2"
printf '%s\n' "$out" | grep -q "save: writing 'big' failed: file too large" ||
    fail "save past RLIMIT_FSIZE said: $out"
[ "$(cat big)" = old ] || fail "the old file was damaged"
ls -A | grep -q vfsim-save && fail "a temporary file was left behind"
exit 0
