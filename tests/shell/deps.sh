#!/usr/bin/env bash
# scripts/deps.sh looks for the tools, not for dpkg, and names the package
# manager it finds.  A PATH of this system's tools without apt and dpkg,
# with a stub of dnf, pacman or brew; CC=/nonexistent for a missing compiler.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" -ne 0 ] || [ -n "${DEPS_AS_ROOT_OK:-}" ] || true
bin=$(mktemp -d) || exit 1
trap 'rm -rf "$bin"' EXIT
for d in /usr/local/bin /usr/bin /bin; do
    for f in "$d"/*; do
        b=${f##*/}
        case $b in apt*|dpkg*|dnf|pacman|brew|yum) continue ;; esac
        [ -e "$bin/$b" ] || ln -s "$f" "$bin/$b"
    done
done
deps() { PATH=$bin "$@" /bin/sh "$top/scripts/deps.sh" run 2>&1; }
fail() { echo "FAIL: $*"; exit 1; }

# everything here, no dpkg: silent, status 0
out=$(env PATH="$bin" /bin/sh "$top/scripts/deps.sh" run 2>&1); rc=$?
[ "$rc" -eq 0 ] && [ -z "$out" ] || fail "with the tools but no dpkg: rc=$rc: $out"
echo "ok: no dpkg, the tools present: silent"

stub() { printf '#!/bin/sh\nexit 0\n' >"$bin/$1"; chmod +x "$bin/$1"; }
for pm in dnf pacman brew; do
    stub "$pm"
    out=$(env PATH="$bin" CC=/nonexistent/cc /bin/sh "$top/scripts/deps.sh" run 2>&1); rc=$?
    rm -f "$bin/$pm"
    [ "$rc" -eq 1 ] || fail "$pm: no compiler, yet status $rc"
    printf '%s\n' "$out" | grep -q 'needs a C compiler (/nonexistent/cc)' ||
        fail "$pm: the missing compiler not named: $out"
    case $pm in
    dnf)    want='sudo dnf install -y gcc' ;;
    pacman) want='sudo pacman -S --needed base-devel' ;;
    brew)   want='xcode-select --install' ;;
    esac
    printf '%s\n' "$out" | grep -qF "$want" || fail "$pm: no '$want' in: $out"
    echo "ok: $pm suggested: $want"
done
out=$(env PATH="$bin" CC=/nonexistent/cc /bin/sh "$top/scripts/deps.sh" run 2>&1)
printf '%s\n' "$out" | grep -q 'no apt-get, dnf, pacman or brew' ||
    fail "no package manager: not said: $out"
echo "ok: no package manager: said so"
