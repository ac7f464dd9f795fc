# wrapper-situations.bash: sourced by tests/cli/*.sh that compare explore
# on the wrapper situations.  wrapper_situation S: after the kernel and
# the mount of /x, the world and the calls of situation S (readers: two
# readers of one directory; rmdir: a reader and rmdir; lseek: a reader
# and an lseek of the same file, stolen by pidfd_getfd), then every
# engine with one job.
wrapper_situation() {
    echo "mkdir /x/d /x/e"
    echo "touch /x/d/a /x/d/b"
    echo "spawn A"
    echo "spawn B"
    case $1 in
    readers) echo "A: open /x/d"; echo "B: open /x/d"
             echo "A: getdents 3 &"; echo "B: getdents 3 &" ;;
    rmdir)   echo "A: open /x/e"; echo "A: getdents 3 &"
             echo "B: rmdir /x/e &" ;;
    lseek)   echo "A: open /x/d"; echo "A: clone"
             echo "A: getdents 3 1 &"; echo "A.2: lseek 3 0 cur &"
             echo "B: pidfd_open A"; echo "B: pidfd_getfd 3 3 &" ;;
    esac
    echo "explore jobs 1"
    echo "explore stateful jobs 1"
    echo "explore all jobs 1"
}
