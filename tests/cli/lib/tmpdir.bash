# tmpdir.bash: sourced by tests/cli/*.sh that work in a private directory:
# $vfsim (the binary under test, from $VFSIM), the current directory a new
# one that is removed at exit, and fail MESSAGE (prints it, exits 1).
set -u
vfsim=${VFSIM:?VFSIM names the binary}
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 2
fail() { echo "FAIL: $*"; exit 1; }
