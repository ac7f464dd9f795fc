# thieves.bash: thieves_script FILE KERNEL CALLS THIEF...: the thieves
# scenario (bench/spin/pidfd.pml's): under KERNEL, A opens /d (30 entries)
# and queues CALLS `getdents 3 2`; each THIEF opens a pidfd on A, steals
# A's fd 3 as its fd 4 and queues CALLS `getdents 4 2`.  For the tests
# of a long explore.
thieves_script() {
    local file=$1 kernel=$2 calls=$3 t k
    shift 3
    {
        echo "kernel $kernel"
        echo 'mkdir /d'
        for i in $(seq 1 30); do echo "touch /d/f$i"; done
        echo 'spawn A'
        echo 'A: open /d'
        for t in "$@"; do echo "spawn $t"; echo "$t: pidfd_open A"; done
        for k in $(seq 1 "$calls"); do echo 'A: getdents 3 2 &'; done
        for t in "$@"; do
            echo "$t: pidfd_getfd 3 3 &"
            for k in $(seq 1 "$calls"); do echo "$t: getdents 4 2 &"; done
        done
    } >"$file"
}
# abba_script FILE CALLS THIEF...: the thieves under v6.5 (no violation
# of their own) beside the ABBA deadlock of two renames without
# s_vfs_rename_mutex (set rename-lock no-mutex; R: /a/x to /b/x, S: /b/y
# to /a/y, spawned first), which needs one preemption.  For the tests of
# the probe's delay and of a long check.
abba_script() {
    local file=$1
    shift
    thieves_script "$file.t" v6.5 "$@"
    {
        echo 'kernel v6.5'
        echo 'set rename-lock no-mutex'
        echo 'mkdir /a /b'
        echo 'touch /a/x /b/y'
        echo 'spawn R'
        echo 'spawn S'
        grep -v '&$' "$file.t" | sed 1d
        grep '&$' "$file.t"
        echo 'R: rename /a/x /b/x &'
        echo 'S: rename /b/y /a/y &'
    } >"$file"
    rm -f "$file.t"
}
