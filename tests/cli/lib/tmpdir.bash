# tmpdir.bash: sourced by tests/cli/*.sh that work in a private directory:
# $vfsim (the binary under test, from $VFSIM), the current directory a new
# one that is removed at exit, and fail MESSAGE (prints it, exits 1).
set -u
vfsim=${VFSIM:?VFSIM names the binary}
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 2
fail() { echo "FAIL: $*"; exit 1; }
# explore_norm [FILE]: explore's output without what varies between two
# runs of the same search: the time it took, and how many states plain
# explore and the shortest-counterexample search beside it had visited
# when it reported a violation (the two race); a proof's counts and those
# of `explore stateful` and `explore all` stay.
explore_norm() {
    sed -E 's/in [0-9.]+ (s|ms)\>/in T s/g; s/[0-9.]+ (s|ms) elapsed/T s elapsed/g
            s/(found in T s: )[0-9,]+ states(, [0-9,]+ more)?/\1N states, M more/' "$@"
}
# explore_jobs1 [FILE]: the script with `jobs 1` added to each explore
# search that names no jobs: with two workers the counterexample shown
# depends on which finds one first.
explore_jobs1() {
    sed -E '/^explore( +(all|dpor|stateful|naive|max +[0-9]+|bound +[0-9]+))* *$/ s/ *$/ jobs 1/' "$@"
}
# replays_a_find FILE: true when FILE replays an execution explore found
# (`explore replay 1`, `replay duplicate`): which one plain explore
# reports first varies between runs (its two searches race), so such a
# script's trace cannot be compared byte for byte.  A token replays alike.
replays_a_find() {
    grep -Eq '^explore +replay +[^ A-Z]' "$1"
}
