#!/usr/bin/env bash
# The fuzzer's harness (tests/fuzz/fuzz_session.c, issue 17) keeps its
# guards: file names stay in its sandbox however they are quoted, `back`,
# `compare` and `source` replay a bounded part of the session, one lesson
# an input, `explore` skipped, continuation lines joined by the one script
# reader.  Needs clang (scripts/fuzz.sh build); skipped without it.
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v "${FUZZ_CC:-clang}" >/dev/null || { echo "no clang: the fuzzer is not built"; exit 77; }
(cd "$top" && nice scripts/fuzz.sh build) >/dev/null 2>&1 || { echo "FAIL: scripts/fuzz.sh build"; exit 1; }
. "$(dirname "$0")/lib/tmpdir.bash"
harness=$top/build/fuzz/fuzz_session

# run FILE: the harness's own count of what it did with the lines
run() {
    VFSIM_FUZZ_VERBOSE=1 VFSIM_FUZZ_EXPLORE=0 "$harness" "$1" 2>&1 | grep '^fuzz_session:'
}
expect() {     # expect FILE WANTED
    local got
    got=$(run "$1")
    [ "$got" = "fuzz_session: $2" ] || fail "$1: got '$got', wanted '$2'"
}

# file names, however they are written, land in the private directory
out=$PWD/out
cat >names.vfs <<EOF
save $out.1
s'ave' $out.2
"save" $out.3
A: export html $out.4
save \\
  $out.5
EOF
expect names.vfs "5 lines, 5 lexed by the harness, skipped: 0 explore, 0 replays, 0 lessons; 5 file names rewritten"
ls "$out".* 2>/dev/null && fail "a file was written outside the harness's directory"

# replays: at most 4 lines of back/compare/source an input, lessons once;
# explore skipped but for replay and save; the rest runs
{
    echo 'touch /f'; echo 'spawn A'; echo 'A: open /f'
    for _ in 1 2 3 4 5 6; do echo 'A: read 3 1'; echo back; done
    echo 'compare v6.4 v6.5'; echo 'source x'
    echo 'lessons 1'; echo 'lessons 2'; echo lessons
    echo 'explore'; echo 'explore stateful'; echo 'explore replay 1'
} >replays.vfs
expect replays.vfs "23 lines, 14 lexed by the harness, skipped: 2 explore, 4 replays, 1 lessons; 0 file names rewritten"

# one compare an input (two fresh sessions each), the back after it runs
printf '%s\n' 'touch /f' 'spawn A' 'A: open /f' 'compare v6.4 v6.5' \
    'compare v6.4 v6.5' back >compare.vfs
expect compare.vfs "6 lines, 3 lexed by the harness, skipped: 0 explore, 1 replays, 0 lessons; 1 file names rewritten"

# the replays' log budget (FUZZ_REPLAY_RECS): after 200 calls (about
# 1,600 records) a back still runs, a compare (which replays twice) not
for last in back 'compare v6.4 v6.5'; do
    {
        echo 'touch /f'; echo 'spawn A'; echo 'A: open /f'
        for _ in $(seq 200); do echo 'A: lseek 3 0 0'; done
        echo "$last"
    } >budget.vfs
    case $last in
    back) expect budget.vfs "204 lines, 1 lexed by the harness, skipped: 0 explore, 0 replays, 0 lessons; 0 file names rewritten" ;;
    *)    expect budget.vfs "204 lines, 1 lexed by the harness, skipped: 0 explore, 1 replays, 0 lessons; 0 file names rewritten" ;;
    esac
done
echo ok: fuzz harness guards
