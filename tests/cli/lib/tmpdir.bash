# tmpdir.bash: sourced by tests/cli/*.sh that work in a private directory:
# $vfsim (the binary under test, from $VFSIM; made absolute, so that a
# path relative to where the test was started still names it), the current
# directory a new one that is removed at exit, and fail MESSAGE (prints
# it, exits 1).
set -u
vfsim=${VFSIM:?VFSIM names the binary}
case $vfsim in /*) ;; *) vfsim=$PWD/$vfsim ;; esac
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 2
fail() { echo "FAIL: $*"; exit 1; }
# explore_norm [FILE]: explore's output without what varies between two
# runs of the same search: the time it took (every count, verdict and
# counterexample is the same for the same input and jobs, issue 12).
explore_norm() {
    sed -E 's/in [0-9.]+ (s|ms)\>/in T s/g; s/[0-9.]+ (s|ms) elapsed/T s elapsed/g' "$@"
}
