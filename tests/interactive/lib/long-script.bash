# long-script.bash: long_script FILE [LINE]: a script whose `run` takes
# minutes under VFSIM_TEST_STEP_DELAY_US=20000 (four threads, sixteen
# getdents of one entry): "before-the-run" first, LINE (if any) just before
# the run, "after-the-run" last.  For the tests of a signal during a run.
long_script() {
    {
        echo 'echo before-the-run'
        echo 'mkdir /d'
        for i in $(seq 1 20); do echo "touch /d/f$i"; done
        echo 'spawn A'
        echo 'A: open /d'
        for i in 2 3 4; do echo 'A: clone'; done
        for t in A A.2 A.3 A.4; do for k in 1 2 3 4; do echo "$t: getdents 3 1 &"; done; done
        [ -n "${2:-}" ] && echo "$2"
        echo 'run'
        echo 'echo after-the-run'
    } >"$1"
}
