#!/usr/bin/env bash
# `make dist` makes a tarball that builds; in it, as in a fresh clone,
# `make run` prints at most 3 lines before the welcome (one build line, no
# compiler commands), a broken build shows its log and fails, and
# `make install` installs the bash completion and the Vim syntax file.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
command -v git >/dev/null 2>&1 || { echo "no git: make dist lists git's files"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

ver=$(sed -n 's/^#define VFSIM_VERSION "\(.*\)"/\1/p' cli/main.c)
make --no-print-directory dist >"$tmp/dist.log" 2>&1 || { cat "$tmp/dist.log"; fail "make dist"; }
[ -f "vfsim-$ver.tar.gz" ] || fail "no vfsim-$ver.tar.gz"
tar -C "$tmp" -xzf "vfsim-$ver.tar.gz" && rm -f "vfsim-$ver.tar.gz"
src=$tmp/vfsim-$ver
[ -f "$src/Makefile" ] && [ -f "$src/cli/main.c" ] && [ ! -d "$src/build" ] ||
    fail "the tarball lacks the sources, or has build/"
echo "ok: make dist: $(find "$src" -type f | wc -l) files, no build/"

# make run, stdin not a terminal: the welcome runs, then vfsim reads stdin
(cd "$src" && make run </dev/null >"$tmp/run.out" 2>&1) || { tail -20 "$tmp/run.out"; fail "make run"; }
before=$(awk '/Welcome to vfsim/ { print NR - 1; exit }' "$tmp/run.out")
[ -n "$before" ] || { head -20 "$tmp/run.out"; fail "make run: no welcome"; }
[ "$before" -le 3 ] || { head -n "$before" "$tmp/run.out"; fail "make run: $before lines before the welcome"; }
grep -qE '(^| )(cc|gcc|clang) ' "$tmp/run.out" && fail "make run printed compiler commands"
echo "ok: make run in a fresh tree: $before line(s) before the welcome"

# a broken build: its log shown, make run fails, no vfsim started
printf '#error "deliberately broken for tests/shell/dist.sh"\n' >>"$src/cli/mdoc.c"
(cd "$src" && make run </dev/null >"$tmp/bad.out" 2>&1) && fail "make run with a broken source succeeded"
grep -q 'deliberately broken' "$tmp/bad.out" || { cat "$tmp/bad.out"; fail "the compiler's log is not shown"; }
grep -q 'make run: the build failed' "$tmp/bad.out" || fail "no one-line verdict"
grep -q 'Welcome to vfsim' "$tmp/bad.out" && fail "vfsim ran after a failed build"
sed -i '$d' "$src/cli/mdoc.c"
echo "ok: a failed build shows its log"

(cd "$src" && make --no-print-directory install DESTDIR="$tmp/root" PREFIX=/usr >"$tmp/install.log" 2>&1) ||
    { cat "$tmp/install.log"; fail "make install"; }
for f in usr/bin/vfsim usr/share/bash-completion/completions/vfsim \
         usr/share/vim/vimfiles/syntax/vfs.vim usr/share/vim/vimfiles/ftdetect/vfs.vim \
         usr/share/vfsim/examples/00-welcome.vfs; do
    [ -f "$tmp/root/$f" ] || fail "make install: no /$f"
done
echo "ok: make install: the program, the lessons, the completion, the syntax file"
