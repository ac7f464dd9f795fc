#!/usr/bin/env python3
"""sizes.py: scenarios at the sizes of real use, made here and run through
`vfsim --check` (too large to keep as files).  Usage: sizes.py VFSIM [NAME...]

Each case prints PASS NAME or FAIL NAME (with vfsim's output); the exit
status is 1 when any failed.  A case is a script whose expects say what
the kernel would answer at and past each edge.
"""
import os
import subprocess
import sys
import tempfile


def mkdir_rmdir_cycles(n=100000):
    """Inode slots are reused: n mkdir/rmdir rounds never run out."""
    out = ["spawn A"]
    for _ in range(n):
        out += ["A: mkdir /x", "A: rmdir /x"]
    out += ["expect ret 0", "A: mkdir /x", "expect ret 0",
            "A: open /x", "A: getdents 3", "expect entries . ..",
            "expect no race"]
    return out


def big_directory(n=100000):
    """A directory of n entries: a getdents without a count lists it all,
    and a lseek into it lists the tail."""
    out = ["mkdir /d"]
    out += ["touch /d/f%d" % i for i in range(n)]
    out += ["spawn A", "A: open /d", "A: getdents 3",
            "expect ret %d" % (n + 2),
            "expect fpos A:3 %d" % (n + 2),
            "A: lseek 3 %d" % n, "A: getdents 3",
            "expect entries f%d f%d" % (n - 2, n - 1),
            "A: getdents 3", "expect ret 0"]
    return out


def long_names():
    """NAME_MAX 255 and PATH_MAX 4096, and ENAMETOOLONG past each."""
    n255, n256 = "n" * 255, "n" * 256
    deep = "/" + "/".join(["d" * 200] * 20)        # 4020 bytes
    out = ["touch /a_long_descriptive_filename_for_class.txt",
           "touch /" + n255, "spawn A",
           "A: open /" + n255, "expect ret 3",
           "A: creat /" + n256, "expect ret ENAMETOOLONG",
           "A: mkdir /" + n256, "expect ret ENAMETOOLONG",
           "mkdir " + deep, "A: creat %s/%s" % (deep, "f" * 70),
           "expect ret 4",                            # 4091 bytes
           "A: creat %s/%s" % (deep, "f" * 75),       # 4096 bytes
           "expect ret ENAMETOOLONG",
           "A: open /a_long_descriptive_filename_for_class.txt",
           "expect ret 5"]
    return out


def mebibyte(chunk=4096, n=256):
    """1 MiB written in 4 KiB pwrites reads back whole and byte-exact."""
    out = ["touch /f", "spawn A", "A: open /f rdwr"]
    for i in range(n):
        text = ("c%06d" % i) * (chunk // 7) + "x" * (chunk % 7)
        out += ["A: pwrite 3 %s %d" % (text, i * chunk)]
    out += ["A: read 3 %d" % (chunk * n + 1), "expect ret %d" % (chunk * n)]
    for i in (0, 1, n // 2, n - 1):
        out += ["A: pread 3 7 %d" % (i * chunk), "expect read c%06d" % i]
    out += ["A: pread 3 8 %d" % (chunk * n - 8), "expect read c%06dx" % (n - 1)
            if chunk % 7 == 1 else "expect ret 8",
            "A: pread 3 8 %d" % (chunk * n), "expect ret 0"]
    return out


def emfile(n=1024):
    """A process meets EMFILE at 1024 descriptors, with 1021 distinct files
    open, long before the system-wide limit (ENFILE)."""
    out = ["mkdir /d"]
    out += ["touch /d/f%d" % i for i in range(n - 3)]
    out += ["spawn A"]
    for i in range(n - 3):
        out += ["A: open /d/f%d" % i]
    out += ["expect ret %d" % (n - 1), "A: open /d/f0", "expect ret EMFILE",
            "A: close 3", "A: open /d/f0", "expect ret 3"]
    return out


def processes(n=256):
    """256 processes (each thread exits, so an exited thread's slot is
    reused: the live threads, 32 at most, are not the bound), and the
    trace still names the first one; the 257th process is refused."""
    out = ["mkdir /d", "spawn P0", "P0: open /d", "expect ret 3", "P0: exit"]
    for i in range(1, n):
        out += ["spawn P%d" % i, "P%d: open /d" % i, "expect ret 3",
                "P%d: exit" % i]
    out += ["spawn P%d" % n]
    return out


def live_threads(n=32):
    """32 live threads at once, then clone says EAGAIN."""
    out = ["spawn A"] + ["A: clone"] * (n - 1) + ["A: clone",
                                                  "expect ret EAGAIN"]
    return out


CASES = {
    "mkdir-rmdir-100000": mkdir_rmdir_cycles,
    "directory-100000": big_directory,
    "names-255-paths-4096": long_names,
    "data-1MiB": mebibyte,
    "emfile-1024": emfile,
    "threads-32": live_threads,
}

# Cases whose last line must be refused: (exit status, text in the output).
REFUSED = {
    "processes-256": (processes, 2, "too many processes (at most 256)"),
}


def main():
    vfsim = sys.argv[1]
    names = sys.argv[2:] or list(CASES) + list(REFUSED)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            make, status, text = REFUSED.get(name, (CASES.get(name), 0, ""))
            path = os.path.join(tmp, name + ".vfs")
            with open(path, "w") as f:
                f.write("\n".join(make()) + "\n")
            # (a refusal is an error of the script: plain mode, status 2)
            r = subprocess.run([vfsim, "-q", path] if status else
                               [vfsim, "--check", path], capture_output=True,
                               text=True)
            if r.returncode == status and text in r.stdout + r.stderr:
                print("PASS limits/" + name)
            else:
                failed += 1
                print("FAIL limits/" + name)
                sys.stdout.write("".join("    " + line + "\n" for line in
                                         (r.stdout + r.stderr).splitlines()[-15:]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
