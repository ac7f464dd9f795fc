#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""gen.py - random sequential scenarios for the differential harness.

    gen.py --fs ext4|tmpfs --seed S --count N [--preset P] > batch.vfs

Writes N scenarios in vfsim's fixed command language, one batch: each
starts with `echo @@ K`, sets up /t (`mkdir /t` on ext4, `mount tmpfs /t`)
and `spawn A`, and ends with `reset`.  The same file is run by vfsim and by
tests/difftest/runner.c (the host kernel).  One process, or a parent A
and a child B forked part way through; calls on paths and descriptors that
exist and on ones that do not (calls that must fail are part of the point).
After every call on a descriptor the generator adds `lseek FD 0 cur` on it,
so f_pos after each call is compared as that call's return value.

Names are at most 4 bytes, so every linux_dirent64 is 24 bytes long and the
runner can ask getdents64 for exactly N entries.  File sizes stay below
vfsim's VFS_DATA_MAX (64 bytes) by a budget on writes and seeks.
"""
import argparse
import random

NAMES = ["a", "b", "c", "dd", "e1"]
DIRS = ["d", "e", "x"]
WORDS = ["hi", "abc", "xyz", "q", "hello", "zz9"]
DATA_BUDGET = 56            # bytes any file can reach, < VFS_DATA_MAX


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.procs = ["A"]
        self.fds = {"A": set()}     # what the generator believes is open
        self.budget = DATA_BUDGET

    def path(self):
        r = self.rng.random()
        if r < 0.35:
            return "/t/" + self.rng.choice(NAMES)
        if r < 0.55:
            return "/t/" + self.rng.choice(DIRS)
        if r < 0.80:
            return "/t/%s/%s" % (self.rng.choice(DIRS), self.rng.choice(NAMES))
        if r < 0.86:
            # through a name that may be a file: ENOTDIR; or missing: ENOENT
            return "/t/%s/%s" % (self.rng.choice(NAMES), self.rng.choice(NAMES))
        if r < 0.90:
            return "/t/%s/%s/%s" % (self.rng.choice(DIRS), self.rng.choice(DIRS),
                                     self.rng.choice(NAMES))
        if r < 0.94:
            return "/t/%s/." % self.rng.choice(DIRS)
        if r < 0.97:
            return "/t/%s/.." % self.rng.choice(DIRS)
        return "/t"

    def fd(self, proc):
        known = sorted(self.fds[proc])
        if known and self.rng.random() < 0.85:
            return self.rng.choice(known)
        return self.rng.randint(3, 9)

    def lowest_free(self, proc):
        fd = 3
        while fd in self.fds[proc]:
            fd += 1
        return fd

    def emit(self, proc, cmd, probe=None):
        self.lines.append("%s: %s" % (proc, cmd))
        if probe is not None:
            self.lines.append("%s: lseek %d 0 cur" % (proc, probe))

    def spend(self, n):
        if self.budget < n:
            return False
        self.budget -= n
        return True

    def step(self):
        rng = self.rng
        if len(self.procs) == 1 and rng.random() < 0.04:
            self.emit("A", "fork B")
            self.procs.append("B")
            self.fds["B"] = set(self.fds["A"])
            return
        p = rng.choice(self.procs)
        if not self.fds[p] and rng.random() < 0.6:
            fd = self.lowest_free(p)
            self.fds[p].add(fd)
            if rng.random() < 0.5:
                self.emit(p, "open %s%s" % (rng.choice(["/t", "/t/d", "/t/e"]),
                                            rng.choice(["", " directory"])), fd)
            else:
                self.emit(p, "creat /t/%s" % rng.choice(NAMES), fd)
            return
        ops = ["open", "open", "open", "close", "dup", "dup2", "getdents",
               "getdents", "lseek", "read", "write", "pread", "pwrite",
               "mkdir", "mkdir", "creat", "creat", "unlink", "rmdir", "rename",
               "readv", "fsync"]
        op = rng.choice(ops)
        if op == "open":
            path = self.path()
            mode = rng.choice(["", " rdonly", " wronly", " rdwr", " directory",
                               " rdwr", ""])
            fd = self.lowest_free(p)
            self.fds[p].add(fd)
            self.emit(p, "open %s%s" % (path, mode), fd)
        elif op == "creat":
            fd = self.lowest_free(p)
            self.fds[p].add(fd)
            self.emit(p, "creat /t/%s" % rng.choice(NAMES + ["d"]), fd)
        elif op == "close":
            fd = self.fd(p)
            self.fds[p].discard(fd)
            self.emit(p, "close %d" % fd)
        elif op == "dup":
            fd, new = self.fd(p), self.lowest_free(p)
            self.fds[p].add(new)
            self.emit(p, "dup %d" % fd, new)
        elif op == "dup2":
            fd, new = self.fd(p), rng.randint(3, 8)
            self.fds[p].add(new)
            self.emit(p, "dup2 %d %d" % (fd, new), new)
        elif op == "getdents":
            fd = self.fd(p)
            n = "" if rng.random() < 0.4 else " %d" % rng.randint(1, 4)
            self.emit(p, "getdents %d%s" % (fd, n), fd)
        elif op == "lseek":
            fd = self.fd(p)
            whence = rng.choice(["set", "cur", "end"])
            off = rng.randint(-3, 8)
            if off > 0 and not self.spend(off):
                off = 0
            self.emit(p, "lseek %d %d %s" % (fd, off, whence), fd)
        elif op == "read":
            fd = self.fd(p)
            n = "" if rng.random() < 0.3 else " %d" % rng.randint(0, 8)
            self.emit(p, "read %d%s" % (fd, n), fd)
        elif op == "readv":
            fd = self.fd(p)
            n2 = "" if rng.random() < 0.3 else " %d" % rng.randint(0, 4)
            self.emit(p, "readv %d %d%s" % (fd, rng.randint(0, 5), n2), fd)
        elif op == "fsync":
            fd = self.fd(p)
            self.emit(p, "fsync %d" % fd, fd)
        elif op == "pread":
            fd = self.fd(p)
            self.emit(p, "pread %d %d %d" % (fd, rng.randint(0, 8),
                                             rng.choice([0, 1, 2, 5, -1])), fd)
        elif op in ("write", "pwrite"):
            fd, word = self.fd(p), rng.choice(WORDS)
            if not self.spend(len(word)):
                return
            if op == "write":
                self.emit(p, "write %d %s" % (fd, word), fd)
            else:
                off = rng.choice([0, 1, 3, -1])
                if off > 0 and not self.spend(off):
                    off = 0
                self.emit(p, "pwrite %d %s %d" % (fd, word, off), fd)
        elif op == "mkdir":
            self.emit(p, "mkdir %s" % self.path())
        elif op == "unlink":
            self.emit(p, "unlink %s" % self.path())
        elif op == "rmdir":
            self.emit(p, "rmdir %s" % self.path())
        elif op == "rename":
            self.emit(p, "rename %s %s" % (self.path(), self.path()))


def scenario(rng, k, fs):
    g = Gen(rng)
    out = ["echo @@ %d" % k, "mkdir /t" if fs == "ext4" else "mount tmpfs /t",
           "spawn A"]
    # a populated start makes getdents and rename more interesting
    for _ in range(rng.randint(0, 4)):
        if rng.random() < 0.5:
            g.emit("A", "mkdir /t/" + rng.choice(DIRS))
        else:
            g.emit("A", "creat /t/" + rng.choice(NAMES))
            g.emit("A", "close %d" % g.lowest_free("A"))
    for _ in range(rng.randint(6, 24)):
        g.step()
    return out + g.lines + ["reset"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fs", choices=["ext4", "tmpfs"], required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--first", type=int, default=0, help="number of the first scenario")
    ap.add_argument("--preset", default="mainline")
    a = ap.parse_args()
    print("kernel %s" % a.preset)
    for k in range(a.first, a.first + a.count):
        rng = random.Random("%d/%s/%d" % (a.seed, a.fs, k))
        print("\n".join(scenario(rng, k, a.fs)))


if __name__ == "__main__":
    main()
