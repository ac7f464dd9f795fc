# lib.bash: sourced by the tests/pictures/*.sh tests.  $VFSIM is the binary
# (scripts/check.sh sets it); scenarios are written into $work, a temporary
# directory; screenshots for people go to build/pictures-test/.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
VFSIM=${VFSIM:-$top/build/vfsim}
[ -x "$VFSIM" ] || { echo "no vfsim binary at $VFSIM" >&2; exit 2; }
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
shots=$top/build/pictures-test
fails=0

fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }
ok()   { echo "ok: $*"; }
done_() { [ "$fails" -eq 0 ] && exit 0; echo "$fails checks failed" >&2; exit 1; }

# The v6.4 pidfd_getfd race: A skips f_pos_lock, B steals the file; both
# list /d from f_pos 0: a duplicate and races on f_pos.
pidfd_race() {
    cat >"$work/race.vfs" <<'VFS'
kernel v6.4
mkdir /d
touch /d/a /d/b /d/c
spawn A
spawn B
A: open /d
B: pidfd_open A
A: getdents 3 2 &
step A until ext4_readdir
B: pidfd_getfd 3 3
B: getdents 4 2
run
expect duplicate
expect race f_pos
VFS
    echo "$work/race.vfs"
}

# v6.5, a thread and its clone share a directory: the clone waits for the
# f_pos lock and is woken when A releases it.
wakeup() {
    cat >"$work/wake.vfs" <<'VFS'
kernel v6.5
mkdir /d
touch /d/a /d/b /d/c
spawn A
A: open /d
A: clone
A: getdents 3 2 &
A.2: getdents 3 2 &
step A until ext4_readdir
step A.2 3
run
expect no duplicate
VFS
    echo "$work/wake.vfs"
}

# exfat under v6.5 with three readers: the wrapper's write lock makes them
# wait in turn.
three() {
    cat >"$work/three.vfs" <<'VFS'
kernel v6.5
mount exfat /mnt
mkdir /mnt/d
touch /mnt/d/x /mnt/d/y
spawn A
spawn B
spawn C
A: open /mnt/d
B: open /mnt/d
C: open /mnt/d
A: getdents 3 &
B: getdents 3 &
C: getdents 3 &
run
VFS
    echo "$work/three.vfs"
}

# A deliberately wrong wrapper that "upgrades" its read lock: a thread
# waits for itself, and the lock-order graph shows the inversion.
upgrade() {
    cat >"$work/upgrade.vfs" <<'VFS'
kernel v6.5
set wrapper naive-upgrade
mount exfat /mnt
mkdir /mnt/d
touch /mnt/d/x
spawn A
A: open /mnt/d
A: getdents 3
VFS
    echo "$work/upgrade.vfs"
}

# chromium, or exit 77 (skip)
find_chromium() {
    for c in chromium chromium-browser google-chrome; do
        command -v "$c" >/dev/null && { echo "$c"; return; }
    done
    echo "no chromium: skipped" >&2
    exit 77
}
chromium_run() {
    local prof
    prof=$(mktemp -d "$work/profile.XXXX")
    timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
        --no-first-run --disable-background-networking --disable-component-update \
        --disable-sync --hide-scrollbars --user-data-dir="$prof" "$@" 2>/dev/null
}
