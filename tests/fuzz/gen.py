#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen.py - grammar-based random vfsim scripts, and a runner that feeds
thousands of them to a vfsim binary (by default build/asan/vfsim).

    tests/fuzz/gen.py gen [--seed N] [--lines N]     one script on stdout
    tests/fuzz/gen.py run [--count N] [--seconds S] [--seed N]
                          [--vfsim PATH] [--timeout S] [--keep DIR]

`run` flags a script when vfsim dies of a signal, prints a sanitizer report,
exits with a status other than 0, 1 or 2, runs past the timeout (a hang),
or writes to stderr a line without FILE:LINE: for a script error.  Each
flagged script is kept in --keep (default build/fuzz/gen-found/) with the
reason; the run ends with a summary.  Python standard library only.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

PRESETS = ["v3.13", "v4.6", "v4.7", "v5.6", "v6.4", "20ea1e7d13c1",
           "797964253d35", "3e3271549670", "v6.5", "mainline"]
KNOBS = {
    "fpos-lock": ["none", "count", "always", "count-or-dir", "count-or-iterate"],
    "iterate": ["exclusive", "dual", "shared"],
    "wrapper": ["correct", "no-recheck", "naive-upgrade"],
    "pidfd-getfd": ["on", "off"],
    "atomic-pos-dir": ["on", "off"],
    "dir-lock": ["i_mutex", "i_rwsem"],
    "killable": ["on", "off"],
    "tmpfs-offsets": ["on", "off"],
    "ntfs3": ["on", "off"],
    "rename-lock": ["correct", "no-mutex"],
}
FSTYPES = ["ext4", "tmpfs", "ramfs", "xfs", "btrfs", "procfs", "ceph", "coda",
           "exfat", "jfs", "ntfs", "ocfs2", "overlayfs", "vboxsf"]
FNS = ["fdget_pos", "file_needs_f_pos_lock", "mutex_lock", "mutex_unlock",
       "iterate_dir", "down_read_killable", "down_write_killable", "down_read",
       "down_write", "up_read", "up_write", "downgrade_write",
       "wrap_directory_iterator", "ext4_readdir", "dcache_readdir",
       "offset_readdir", "exfat_iterate", "ceph_readdir", "ovl_iterate",
       "jfs_readdir", "vfs_llseek", "ext4_dir_llseek", "generic_file_llseek",
       "ceph_dir_llseek", "vfs_read", "fdput_pos", "fget_task", "receive_fd",
       "vfs_rmdir", "vfs_unlink", "lock_rename", "no_such_fn"]
LOCKS = ["f_pos_lock", "i_rwsem", "f_lock", "rename_mutex", "bogus_lock"]
FIELDS = ["f_pos", "cursor", "dir", "size", "data", "f_count", "fdtable", "nofield"]
ERRNOS = ["EBADF", "ENOTDIR", "EISDIR", "ENOENT", "EPERM", "EMFILE", "ENOSYS",
          "EINVAL", "ESRCH", "EEXIST", "ENOTEMPTY", "EBOGUS"]
# The system calls and their synopses: the binary's rows (`vfsim --tables`,
# core/syscalls.c) once load_syscalls found it, so that a call added later
# is fuzzed from its row; these are the calls this file knew.
SYSCALLS = {
    "open": "PATH [rdonly|wronly|rdwr] [directory] [cloexec]", "close": "FD",
    "dup": "FD", "dup2": "OLD NEW", "clone": "", "fork": "NAME", "exit": "",
    "pidfd_open": "PROC", "pidfd_getfd": "PIDFD FD", "getdents": "FD [N]",
    "lseek": "FD OFFSET [set|cur|end]", "read": "FD [N]", "write": "FD TEXT",
    "pread": "FD N OFFSET", "pwrite": "FD TEXT OFFSET", "mkdir": "PATH",
    "creat": "PATH", "unlink": "PATH", "rmdir": "PATH", "rename": "OLD NEW",
}


def load_syscalls(vfsim):
    try:
        out = subprocess.run([vfsim, "--tables"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return
    rows = [l.split("\t") for l in out.decode("utf-8", "replace").splitlines()]
    rows = {r[1]: r[6] for r in rows if r[0] == "syscall" and len(r) > 6}
    if rows:
        SYSCALLS.clear()
        SYSCALLS.update(rows)


LOOKS = ["ps", "fds", "files", "locks", "where", "stats", "reports", "lockdep",
         "lockdep graph", "lockdep reports", "history", "trace show",
         "trace clear", "trace on", "trace off", "trace jsonl", "timeline",
         "kernel", "kernel list", "set", "fs list", "ls", "sched", "help",
         "reports race", "reports deadlock", "reports lockorder",
         "reports duplicate", "reports skipped", "reports deaddir"]


class Gen:
    """A script, line by line, with a rough model of the world so that most
    lines name things that exist.  clean: errors are rare (deep scripts);
    otherwise wrong names, numbers and options are frequent."""

    def __init__(self, rnd, tmpdir, clean):
        self.r = rnd
        self.tmp = tmpdir
        self.err = 0.04 if clean else 1.0
        self.clean = clean
        self.procs = []          # names
        self.threads = []        # live thread names
        self.nthr = {}           # proc -> threads made
        self.paths = ["/"]       # known dirs and files
        self.dirs = ["/"]
        self.saved = []
        self.nproc = 0
        self.nname = 0
        self.pending = 0         # calls started with & since the last run
        self.explored = False
        self.pending_procs = []

    def bad(self, p):
        return self.r.random() < p * self.err

    def num(self):
        if not self.bad(0.3):
            return str(self.r.randint(0, 8))
        r = self.r.random()
        if r < 0.35:
            return str(self.r.randint(-5, -1))
        if r < 0.7:
            return self.r.choice(["1024", "1023", "4096", "65535", "2147483647",
                                  "2147483648", "-2147483649", "4294967296"])
        return self.r.choice(["9223372036854775807", "-9223372036854775808",
                              "99999999999999999999", "0x10", "1e3", "3abc", ""])

    def thread(self):
        if self.threads and not self.bad(0.08):
            t = self.r.choice(self.threads)
            if self.bad(0.1):
                t = t.split(".")[0] + "." + str(self.r.randint(1, 5))
            return t
        return self.r.choice(["Z", "A.9", "100", "101", "999", "A.0", "A.-1", "A."])

    def proc(self):
        if self.procs and not self.bad(0.15):
            return self.r.choice(self.procs)
        return self.r.choice(["100", "101", "0", "-1", "NOPE", "999999"])

    def fresh(self):
        self.nname += 1
        return "%s%d" % (self.r.choice(["d", "e", "f", "g", "x", "sub", "a", "b"]),
                         self.nname)

    def path(self, new=False):
        if new or self.bad(0.3):
            d = self.r.choice(self.dirs)
            p = d.rstrip("/") + "/" + self.fresh()
            if self.bad(0.03):
                p = "/" + "/".join("n%d" % i for i in range(self.r.randint(5, 40)))
            if self.bad(0.03):
                p = "/" + "x" * self.r.randint(20, 200)
            if self.bad(0.02):
                p = self.r.choice(["d", "", ".", "/..", "/d/../d", "//d", "/d/",
                                   "/./d", "/d/.", "/d/.."])
            return p
        return self.r.choice(self.paths)

    def file_ref(self):
        if self.r.random() < 0.5:
            return "file#%s" % self.num()
        return "%s:%s" % (self.proc(), self.num())

    def tmpfile(self, ext):
        return os.path.join(self.tmp, "f%d.%s" % (self.r.randint(0, 3), ext))

    def newproc(self, name=None):
        if not name:
            self.nproc += 1
            name = "P%d" % self.nproc
        self.procs.append(name)
        self.threads.append(name)
        self.nthr[name] = 1
        return name

    def syscall(self):
        r = self.r
        t = self.thread()
        fd = self.num()
        shaped = [
            "open", "open", "open", "close", "dup", "dup2", "clone", "fork",
            "exit", "pidfd_open", "pidfd_getfd", "getdents", "getdents",
            "getdents", "lseek", "read", "write", "pread", "pwrite", "mkdir",
            "creat", "unlink", "rmdir", "rename"]
        c = r.choice(shaped + sorted(set(SYSCALLS) - set(shaped)))
        if c == "exit" and self.clean and r.random() < 0.7:
            c = "getdents"
        if c == "open":
            flags = r.sample(["rdonly", "wronly", "rdwr", "directory", "cloexec"],
                             r.randint(0, 3))
            if self.bad(0.1):
                flags.append("bogus")
            args = [self.path()] + flags
        elif c in ("close", "dup"):
            args = [fd]
        elif c in ("dup2", "pidfd_getfd"):
            args = [fd, self.num()]
        elif c in ("clone", "exit"):
            args = []
        elif c == "fork":
            if self.bad(0.1):
                name = r.choice(self.procs or ["A"])
            elif self.bad(0.05):
                name = r.choice(["1bad", "a-b", "x" * 40])
            else:
                self.nproc += 1
                name = "P%d" % self.nproc
                self.pending_procs.append(name)
            args = [name]
        elif c == "pidfd_open":
            args = [self.proc()]
        elif c in ("getdents", "read"):
            args = [fd] + ([self.num()] if r.random() < 0.7 else [])
        elif c == "lseek":
            wh = ["set", "cur", "end"] + (["3", "-1", "sideways"] if self.bad(0.3) else [])
            args = [fd, self.num()] + ([r.choice(wh)] if r.random() < 0.6 else [])
        elif c == "write":
            args = [fd, r.choice(["hello", "'two words'", "x" * r.randint(1, 90),
                                  '"$ret"', "$ret", "''", "\"it's\"",
                                  "'a\"b'\"'\"'c'"])]
        elif c == "pread":
            args = [fd, self.num(), self.num()]
        elif c == "pwrite":
            args = [fd, r.choice(["abc", "'q q'", "z" * r.randint(1, 90)]), self.num()]
        elif c in ("mkdir", "creat"):
            p = self.path(new=True)
            args = [p]
            self.paths.append(p)
            if c == "mkdir":
                self.dirs.append(p)
        elif c in ("unlink", "rmdir"):
            args = [self.path()]
        elif c == "rename":
            p = self.path(new=True)
            args = [self.path(), p]
            self.paths.append(p)
        else:
            args = self.row_args(SYSCALLS.get(c, ""))
        bg = r.random() < 0.45
        base = t.split(".")[0]
        # a clone or fork started with & makes its thread only when it runs
        if c == "clone" and base in self.nthr and (not bg or r.random() < 0.3):
            self.nthr[base] += 1
            self.threads.append("%s.%d" % (base, self.nthr[base]))
        for name in self.pending_procs:
            if not bg or r.random() < 0.3:
                self.newproc(name)
        self.pending_procs = []
        if c == "exit" and self.clean and t in self.threads:
            self.threads.remove(t)
        if bg:
            self.pending += 1
        return "%s: %s %s%s" % (t, c, " ".join(args), " &" if bg else "")

    def row_args(self, synopsis):
        """Words for a call that has no shape here, from its row's synopsis:
        each placeholder's kind, an optional one left out at times."""
        args = []
        for w in synopsis.split():
            opt = w.startswith("[")
            w = w.strip("[]")
            if opt and self.r.random() < 0.4:
                continue
            if "|" in w:
                args.append(self.r.choice(w.split("|")))
            elif w in ("PATH", "OLD", "NEW"):
                args.append(self.path())
            elif w == "TEXT":
                args.append(self.r.choice(["abc", "'q q'", "z" * self.r.randint(1, 90)]))
            elif w == "PROC":
                args.append(self.proc())
            elif w == "NAME":
                args.append(self.newproc())
            else:               # FD, PIDFD, N, N2, OFFSET: numbers
                args.append(self.num())
        return args

    def expect(self):
        r = self.r
        neg = "no " if r.random() < 0.4 else ""
        return "expect " + r.choice([
            "ret %s" % r.choice([self.num(), r.choice(ERRNOS)]),
            "entries " + " ".join(r.sample([".", "..", "a", "b", "d0", "f1", "x"],
                                           r.randint(0, 4))),
            "entries " + " ".join("e" * r.randint(1, 700) for _ in range(r.randint(1, 60))),
            "fpos %s %s" % (self.file_ref(), self.num()),
            "count %s %s" % (self.file_ref(), self.num()),
            "took %s %s %s" % (self.thread(), r.choice(LOCKS),
                               r.choice(["", "read", "write", "excl", "sideways"])),
            "skipped %s %s" % (self.thread(), r.choice(["f_pos_lock", "i_rwsem"])),
            "blocked %s %s" % (self.thread(), r.choice(LOCKS + [""])),
            neg + "race " + (r.choice(FIELDS) if not neg and r.random() < 0.5 else ""),
            neg + "duplicate", neg + "deadlock", neg + "lockorder", neg + "deaddir",
            r.choice(["", "nothing", "no", "race race race", "ret"]),
        ])

    def setup(self):
        r = self.r
        k = r.random()
        if k < 0.25:
            ps = [self.path(new=True) for _ in range(r.randint(1, 4))]
            self.paths += ps
            self.dirs += ps
            return "mkdir " + " ".join(ps)
        if k < 0.45:
            ps = [self.path(new=True) for _ in range(r.randint(1, 5))]
            self.paths += ps
            return "touch " + " ".join(ps)
        if k < 0.55:
            p = self.path(new=True)
            self.paths.append(p)
            self.dirs.append(p)
            fs = r.choice(FSTYPES + ["nofs"] if self.bad(0.2) else FSTYPES)
            opt = " dirstat" if fs == "ceph" and r.random() < 0.5 else ""
            if self.bad(0.1):
                opt = r.choice([" dirstat", " bogus"])
            return "mount %s %s%s" % (fs, p, opt)
        if k < 0.75:
            if self.bad(0.3) and self.procs:
                return "spawn " + r.choice(self.procs)
            name = self.newproc()
            uid = r.choice(["", "", " uid=0", " uid=1000"])
            if self.bad(0.1):
                uid = r.choice([" uid=-1", " uid=x", " uid=99999999"])
            return "spawn %s%s" % (name, uid)
        if k < 0.85:
            kn = r.choice(list(KNOBS) + (["bogus-knob"] if self.bad(0.2) else []))
            vals = KNOBS.get(kn, ["x"]) + (["wrong-value"] if self.bad(0.2) else [])
            return "set %s %s" % (kn, r.choice(vals)) if r.random() < 0.9 else "set " + kn
        if k < 0.95 and (not self.clean or self.pending == 0):
            return "kernel " + r.choice(PRESETS + (["v9.9", "list", ""] if self.bad(0.3) else []))
        return "sched " + r.choice(["rr", "fifo", "random %s" % self.num()] +
                                   (["random", "bogus", "rr extra"] if self.bad(0.3) else []))

    def run_cmd(self):
        r = self.r
        k = r.random()
        if k < 0.35:
            if self.clean:
                return "step" + r.choice(["", " " + self.num()])
            return "step" + r.choice(["", " " + self.thread(), " " + self.num(),
                                      " %s %s" % (self.thread(), self.num())])
        if k < 0.5:
            return "step %s until %s" % (self.thread(), r.choice(FNS[:-1] + (
                FNS[-1:] if self.bad(0.3) else [])))
        if k < 0.75:
            self.pending = 0
            return "run" + (" " + self.thread() if r.random() < 0.3 else "")
        return "back" + r.choice(["", " " + self.num()])

    def meta(self):
        r = self.r
        k = r.random()
        if k < 0.2:
            f = self.tmpfile("vfs")
            self.saved.append(f)
            return "save " + f
        if k < 0.35 and self.saved:
            return ("reset\n" if self.clean else "") + "source " + r.choice(self.saved)
        if k < 0.55:
            if self.clean and not self.pending:
                self.pending = 0
                return "run"
            self.explored = True
            return "explore max 200" + r.choice(["", " naive", " bound 2", " jobs 2",
                                                 " stateful"])
        if k < 0.62:
            if self.clean:
                if not self.explored:
                    return "timeline"
                return "explore " + r.choice(["replay 1", "save %s" % self.tmpfile("vfs")])
            return "explore " + r.choice(["replay %s" % self.num(),
                                          "save %s" % self.tmpfile("vfs"),
                                          "save %s %s" % (self.tmpfile("vfs"), self.num()),
                                          "replay", "bogus"])
        if k < 0.72:
            return "compare %s %s%s" % (r.choice(PRESETS), r.choice(
                PRESETS + (["v0"] if self.bad(0.2) else [])),
                " " + r.choice(self.saved) if self.saved and r.random() < 0.3 else "")
        if k < 0.8:
            return "timeline" + r.choice(["", " " + self.num(), " %s %s" % (self.num(), self.num())])
        if k < 0.9:
            kind = r.choice(["html", "chrome", "dot", "jsonl"] + (["svg"] if self.bad(0.2) else []))
            title = r.choice(["", " My Title", " 'a \"title\"'"])
            if kind != "html" and not self.bad(0.3):
                title = ""
            return "export %s %s%s" % (kind, self.tmpfile(kind), title)
        if k < 0.93:
            return "echo " + r.choice(["hello", "$ret", '"ret is $ret"', "'$ret'"])
        if k < 0.95 and self.procs:
            victim = r.choice(self.procs)
            self.threads = [t for t in self.threads if t.split(".")[0] != victim]
            return "kill " + victim
        return r.choice(["reset", "help " + r.choice(["open", "step"] + (["nope"] if self.bad(0.3) else [])),
                         "lessons", "history", "kill %s" % self.proc()] if not self.clean else
                        ["help open", "lessons", "history"])

    def line(self):
        r = self.r.random()
        if r < 0.2:
            return self.setup()
        if r < 0.5:
            return self.syscall()
        if r < 0.65:
            return self.run_cmd()
        if r < 0.75:
            if self.clean and not self.bad(1.0) and self.r.random() < 0.8:
                return self.r.choice(LOOKS)
            return self.expect()
        if r < 0.88:
            return self.r.choice(LOOKS) + (" " + self.thread() if self.bad(0.1) else "")
        return self.meta()

    def script(self, nlines):
        r = self.r
        out = ["# generated by tests/fuzz/gen.py"]
        if r.random() < 0.5:
            out.append("kernel " + r.choice(PRESETS))
        for _ in range(r.randint(1, 3)):
            out.append("spawn " + self.newproc("ABCD"[len(self.procs)]))
        if r.random() < 0.1:    # a crowd: many threads, long names (wide tables, lists)
            for i in range(r.randint(5, 14)):
                out.append("spawn " + self.newproc("Crowd%014d" % i))
                out.append("Crowd%014d: clone" % i)
                self.nthr["Crowd%014d" % i] = 2
                self.threads.append("Crowd%014d.2" % i)
        out.append("mkdir /d")
        out.append("touch /d/a /d/b")
        self.paths += ["/d", "/d/a", "/d/b"]
        self.dirs.append("/d")
        for _ in range(nlines):
            out.append(self.line())
        return out


def corrupt(rnd, lines):
    """Random damage to a few lines (in the second half, mostly: the first
    error ends a script, so the lines before it still run)."""
    n = len(lines)
    for _ in range(rnd.randint(0, 4)):
        if not lines:
            break
        i = rnd.randrange(n // 2 if rnd.random() < 0.7 else 0, n)
        s = lines[i]
        k = rnd.random()
        if k < 0.12 and len(s) > 2:
            s = s[:rnd.randrange(1, len(s))]                       # truncated
        elif k < 0.2:
            s = s + " " + rnd.choice(["99999999999999999999999", "-1", "-9223372036854775808"])
        elif k < 0.3:
            s = s + " " + "x" * rnd.choice([100, 1000, 5000, 70000])   # very long
        elif k < 0.4:
            s = s + " " + " ".join(["w"] * rnd.choice([60, 64, 65, 200]))  # many words
        elif k < 0.5:
            pos = rnd.randrange(len(s) + 1)
            s = s[:pos] + "".join(chr(rnd.randrange(0, 256)) for _ in range(rnd.randint(1, 8))) + s[pos:]
        elif k < 0.6:
            pos = rnd.randrange(len(s) + 1)
            s = s[:pos] + rnd.choice(["'", '"', "\\", "#", "&", ":", "$ret", "$"]) + s[pos:]
        elif k < 0.65:
            s = s + " \\"                                             # continuation
        elif k < 0.7:
            s = "(" * rnd.randint(1, 50) + s + ")" * rnd.randint(0, 50)    # deep nesting
        elif k < 0.75:
            s = ("A: " * rnd.randint(2, 30)) + s
        elif k < 0.8:
            s = s.replace(" ", "\t")
        elif k < 0.85:
            s = s + "\r"
        elif k < 0.9:
            s = rnd.choice(["", " ", "&", ":", "A:", "A: &", "#", "\\", "'", "\"\""])
        elif k < 0.95:
            s = s.upper()
        else:
            s = "\x00" + s
        lines[i] = s
    return lines


def gen_script(seed, nlines, tmpdir):
    rnd = random.Random(seed)
    g = Gen(rnd, tmpdir, clean=rnd.random() < 0.6)
    lines = g.script(nlines)
    if rnd.random() < 0.5:
        lines = corrupt(rnd, lines)
    if rnd.random() < 0.1:
        # a file that sources itself, or a chain
        lines.append("source " + os.path.join(tmpdir, "script.vfs"))
    return "\n".join(lines) + ("\n" if rnd.random() < 0.9 else "")


SAN = re.compile(r"(ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
                 r"UndefinedBehaviorSanitizer|SUMMARY: \w+Sanitizer|AddressSanitizer)")


def check_one(vfsim, path, tmpdir, mode, timeout):
    """None if fine, else a reason string."""
    env = dict(os.environ)
    env.setdefault("ASAN_OPTIONS", "detect_leaks=1")
    env.setdefault("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1")
    env["NO_COLOR"] = "1"
    if mode == "file":
        cmd, stdin = [vfsim, path], subprocess.DEVNULL
    elif mode == "check":
        cmd, stdin = [vfsim, "--check", path], subprocess.DEVNULL
    else:
        cmd, stdin = [vfsim], open(path, "rb")
    try:
        p = subprocess.run(cmd, stdin=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, cwd=tmpdir, env=env,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout (%ss, mode %s)" % (timeout, mode)
    finally:
        if mode == "stdin":
            stdin.close()
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        return "signal %d (mode %s)\n%s" % (-p.returncode, mode, err[-3000:])
    if SAN.search(err):
        return "sanitizer report (mode %s)\n%s" % (mode, err[-6000:])
    if p.returncode not in (0, 1, 2):
        return "exit status %d (mode %s)\n%s" % (p.returncode, mode, err[-3000:])
    name = "<stdin>" if mode == "stdin" else re.escape(path)
    for ln in err.split("\n"):
        if not ln.strip():
            continue
        # compare's replays speak as "compare, under PRESET:N:" (N: the call)
        if re.match(r"^(%s|%s|[^:\s]+\.vfs|\(replay\)|-c|compare, under [^:]+):\d+: " %
                    (name, re.escape(path)), ln):
            continue
        return "stderr line without FILE:LINE: (mode %s): %r" % (mode, ln[:300])
    if p.returncode in (1, 2) and mode != "check" and not err.strip():
        return "exit status %d but nothing on stderr (mode %s)" % (p.returncode, mode)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["gen", "run"])
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--lines", type=int, default=None)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--vfsim", default=None)
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--keep", default=None)
    a = ap.parse_args()
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    seed = a.seed if a.seed is not None else int(time.time())
    for b in ([a.vfsim] if a.vfsim else []) + [os.path.join(top, "build/asan/vfsim"),
                                               os.path.join(top, "build/vfsim")]:
        if os.access(b, os.X_OK):
            load_syscalls(b)
            break
    if a.what == "gen":
        tmp = tempfile.mkdtemp(prefix="vfsgen.")
        sys.stdout.write(gen_script(seed, a.lines or random.Random(seed).randint(5, 60), tmp))
        return 0
    vfsim = os.path.abspath(a.vfsim or os.path.join(top, "build/asan/vfsim"))
    # a private copy: a rebuild during the run neither breaks nor mixes it
    priv = tempfile.mkdtemp(prefix="vfsgen-bin.")
    shutil.copy2(vfsim, os.path.join(priv, "vfsim"))
    vfsim = os.path.join(priv, "vfsim")
    keep = os.path.abspath(a.keep or os.path.join(top, "build/fuzz/gen-found"))
    os.makedirs(keep, exist_ok=True)
    t0 = time.time()
    n = bad = 0
    reasons = {}
    i = 0
    while True:
        if a.seconds and time.time() - t0 >= a.seconds:
            break
        if not a.seconds and i >= a.count:
            break
        s = seed + i
        i += 1
        tmp = tempfile.mkdtemp(prefix="vfsgen.")
        try:
            rnd = random.Random(s * 7919)
            text = gen_script(s, a.lines or rnd.randint(5, 60), tmp)
            path = os.path.join(tmp, "script.vfs")
            with open(path, "w", encoding="latin-1", errors="replace") as f:
                f.write(text)
            mode = rnd.choice(["file", "file", "file", "stdin", "check"])
            why = check_one(vfsim, path, tmp, mode, a.timeout)
            n += 1
            if why:
                bad += 1
                key = why.splitlines()[0][:60]
                reasons[key] = reasons.get(key, 0) + 1
                dst = os.path.join(keep, "seed-%d.vfs" % s)
                shutil.copy(path, dst)
                with open(dst + ".why", "w") as f:
                    f.write(why + "\n")
                print("FLAG seed %d: %s" % (s, why.splitlines()[0]), flush=True)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(priv, ignore_errors=True)
    print("%d scripts in %.0f s (seeds %d..%d), %d flagged" %
          (n, time.time() - t0, seed, seed + i - 1, bad))
    for k, v in sorted(reasons.items(), key=lambda x: -x[1]):
        print("  %5d  %s" % (v, k))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
