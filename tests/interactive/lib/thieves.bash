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
