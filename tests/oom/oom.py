#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""oom.py VFSIM-OOM [SCRIPT]: out of memory in any command, at the prompt.

VFSIM-OOM is vfsim linked with tests/oom/failalloc.c (make build/asan/vfsim-oom):
VFSIM_FAIL_ALLOC=N fails the Nth allocation of vfsim's own code.  The lines of
SCRIPT (tests/oom/session.vfs) are typed at the prompt (a pseudo-terminal), one
at a time, first with no failure (the reference), then once for each N up to
the number of allocations the reference made.  For each N:

- an allocation before the first prompt may end vfsim: status 2 and the one
  line "vfsim: out of memory";
- else a line whose output says "out of memory" says it in one line, which is
  "NAME: out of memory" for the command NAME typed ("NAME ARG: ..." when it
  names its argument; "define: ..." for a line of a definition; "out of
  memory" for a line that could not be read), and the line is typed again,
  as a user would;
  every line's output (the last time it was typed) is the reference's: the
  failed command left the world and the session as they were;
- a line after "#same: CMD; CMD..." in SCRIPT is one that must leave the
  session exactly as it was when it fails (reset, kernel): the CMDs are typed
  before it in every run, and again after it ran out of memory, before it is
  typed again; their outputs then must be the ones they gave before it
  ("save FILE": with what it wrote, the session's log, vfsim running in a
  directory of its own);
- vfsim ends at 'quit' with status 0, and AddressSanitizer (leaks included)
  reports nothing.

STRIDE=K tries every Kth N only (1: all).  Exit 0: all passed, 1: a failure.
"""
import os
import pty
import re
import select
import shutil
import sys
import tempfile
import time

PROMPT = re.compile(rb"vfsim [^ \n]+> $")
TIMEOUT = 60


class Dead(Exception):
    def __init__(self, why, text=b""):
        Exception.__init__(self, why)
        self.text = text


def read_until_prompt(fd, buf):
    """Read until the output ends in a prompt; the text before it."""
    end = time.monotonic() + TIMEOUT
    while not PROMPT.search(buf[-40:]):
        left = end - time.monotonic()
        if left <= 0:
            raise Dead("no prompt after %d s" % TIMEOUT, buf)
        r, _, _ = select.select([fd], [], [], left)
        if not r:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            raise Dead("vfsim ended", buf)
        buf += chunk
    m = PROMPT.search(buf[-40:])
    return buf[: len(buf) - 40 + m.start()] if len(buf) >= 40 else buf[: m.start()]


def drain(fd, timeout=TIMEOUT):
    """What vfsim writes until it closes the terminal, or until TIMEOUT
    seconds pass without a byte."""
    out = b""
    while True:
        try:
            r, _, _ = select.select([fd], [], [], timeout)
            chunk = os.read(fd, 65536) if r else b""
        except OSError:
            chunk = b""
        if not chunk:
            return out
        out += chunk


def differ(got, want):
    """Where GOT differs from WANT: the first line that does."""
    a, b = got.split("\n"), want.split("\n")
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return "line %d: %r, not %r" % (i + 1, "\n".join(a[i:i + 2])[:300],
                                    "\n".join(b[i:i + 2])[:300])


def clean(b):
    t = b.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "")
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", t)


def session(binary, lines, fail_at, counts=None):
    """Run LINES at the prompt; (per-line outputs, retries, problems).
    COUNTS (a list): the number of allocations made is appended to it."""
    env = dict(os.environ, TERM="dumb", NO_COLOR="1", PAGER="cat",
               VFSIM_FAIL_ALLOC=str(fail_at),
               VFSIM_HISTFILE=os.devnull, INPUTRC=os.devnull)
    env.pop("VFSIM_COUNT_ALLOC", None)
    if counts is not None:
        env["VFSIM_COUNT_ALLOC"] = "1"
    cwd = tempfile.mkdtemp(prefix="vfsim-oom.")     # (for save FILE)
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(cwd)
        os.execve(binary, [binary, "--no-pager", "--width", "200"], env)
    outs, problems, said, in_def = [], [], 0, False
    try:
        try:
            read_until_prompt(fd, b"")
        except Dead as e:
            rest = clean(e.text + drain(fd))
            _, st = os.waitpid(pid, 0)
            code = os.waitstatus_to_exitcode(st)
            if code != 2 or rest.strip() != "vfsim: out of memory":
                problems.append("before the prompt: status %d, output %r" % (code, rest))
            return None, said, problems
        def typed(line):
            """LINE typed: its output (after the echo of the line)."""
            os.write(fd, line.encode() + b"\n")
            text = clean(read_until_prompt(fd, b""))
            text = text.split("\n", 1)[1] if "\n" in text else ""
            m = re.fullmatch(r"save (\S+)", line)
            if m and os.path.exists(os.path.join(cwd, m.group(1))):
                with open(os.path.join(cwd, m.group(1))) as f:
                    text += f.read()
                os.unlink(os.path.join(cwd, m.group(1)))
            return text

        def run(line, in_def, before=()):
            """LINE typed until it does not run out of memory; BEFORE: the
            (command, output) pairs that must not change when it does."""
            nonlocal said
            for attempt in range(3):
                text = typed(line)
                oom = [ln for ln in text.split("\n") if "out of memory" in ln]
                if not oom:
                    break
                said += 1
                # NAME: the command (a thread's: after "A:"), "define" for a
                # line of a definition; an argument may follow it
                word = "define" if in_def else \
                    line.split(":")[1].split()[0] if re.match(r"^\w+:", line) \
                    else line.split()[0]
                if len(oom) != 1 or not re.fullmatch(
                        r"(vfsim: )?(%s( \S+)?: )?out of memory" % re.escape(word),
                        oom[0]):
                    problems.append("%r said %r" % (line, oom))
                for cmd, want in before:
                    got = typed(cmd)
                    if got != want:
                        problems.append("after %r ran out of memory, %r: %s"
                                        % (line, cmd, differ(got, want)))
            return text

        for line, same in lines:
            before = [(cmd, run(cmd, False)) for cmd in same]
            outs.extend(text for _, text in before)
            outs.append(run(line, in_def, before))
            in_def = (in_def or line.startswith("define ")) and line != "end"
        rest, code = "", None
        for attempt in range(2):        # (quit's own line may fail too)
            os.write(fd, b"quit\n")
            try:
                rest += clean(read_until_prompt(fd, b""))
            except Dead as e:           # the terminal closed: vfsim ends
                rest += clean(e.text)
                break
        end = time.monotonic() + TIMEOUT
        done, st = os.waitpid(pid, os.WNOHANG)
        while not done and time.monotonic() < end:
            time.sleep(0.02)
            done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(st)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            problems.append("quit: vfsim did not end: %r" % rest[-500:])
            code = 0
        if code != 0:
            problems.append("quit: status %d" % code)
        m = re.search(r"failalloc: (\d+) calls\n?", rest)
        if m and counts is not None:
            counts.append(int(m.group(1)))
            rest = rest.replace(m.group(0), "")
        if "Sanitizer" in rest or "runtime error" in rest:
            problems.append("at exit: " + rest[-2000:])
    except Dead as e:
        problems.append("%s: %s" % (e, clean(e.text)[-1500:]))
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except OSError:
            pass
    finally:
        os.close(fd)
        shutil.rmtree(cwd, ignore_errors=True)
    return outs, said, problems


def main():
    binary = os.path.abspath(sys.argv[1])
    script = sys.argv[2] if len(sys.argv) > 2 else \
        os.path.join(os.path.dirname(__file__), "session.vfs")
    lines, same = [], []        # (line, the commands of its "#same:")
    for ln in open(script):
        ln = ln.rstrip("\n")
        if ln.startswith("#same:"):
            same = [cmd.strip() for cmd in ln[6:].split(";") if cmd.strip()]
        elif ln.strip() and not ln.startswith("#"):
            lines.append((ln, same))
            same = []
    typed = [cmd for line, same in lines for cmd in same + [line]]
    stride = int(os.environ.get("STRIDE", "1"))
    counts = []
    ref, said, problems = session(binary, lines, 0, counts)
    if problems or ref is None or said or not counts:
        print("FAIL: the reference run: %s" % (problems or "no count"))
        return 1
    total = counts[0]
    bad = tried = failed_cmds = 0
    for n in range(1, total + 1, stride):
        outs, said, problems = session(binary, lines, n)
        tried += 1
        failed_cmds += said > 0
        if outs is not None and outs != ref:
            for i, (a, b) in enumerate(zip(outs, ref)):
                if a != b:
                    problems.append("%r: %s" % (typed[i], differ(a, b)))
                    break
        if problems:
            bad += 1
            print("FAIL N=%d: %s" % (n, "; ".join(problems)[:1500]))
            if bad >= 5:
                break
    print("%s: %d allocations tried of %d, %d of them failed a command; %d bad"
          % ("ok" if not bad else "FAIL", tried, total, failed_cmds, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
