#!/bin/sh
# deps.sh PROFILE: are the tools vfsim needs here?  It looks for the tools
# themselves (a C compiler, make, the line editor's headers, cmocka, ...),
# whatever the system, and only when one is missing suggests how to get it
# with the package manager it finds: apt, dnf, pacman or brew.
#   run    what `make run` needs: a C compiler, make, and the line editor
#          chosen by $LINEEDIT (readline, the default; libedit; none)
#   check  what `make check` needs; the tools of some tests (valgrind, spin,
#          graphviz, chromium, hyperfine, expect, jq) are optional: without
#          them those tests are reported as skipped
# Quiet when nothing required is missing. As root on a system with apt-get
# it installs what is missing (optional tools too); otherwise it prints the
# command to run and exits 1 when something required is missing.
#   fuzz   clang with libFuzzer, for scripts/fuzz.sh (make fuzz)
#   CC  the compiler to check (default: cc)
set -u

profile=${1:-check}
cc=${CC:-cc}
case $profile in
run)   case ${LINEEDIT:-readline} in
       libedit) need="cc make libedit" ;;
       none)    need="cc make" ;;
       *)       need="cc make readline" ;;
       esac
       want= ;;
check) need="cc make readline libedit pkg-config cmocka mandoc tmux python3 script"
       want="expect valgrind spin dot chromium hyperfine jq" ;;
fuzz)  need="clang"                # libFuzzer, for scripts/fuzz.sh (make fuzz)
       want= ;;
*)     echo "usage: $0 run|check|fuzz" >&2; exit 2 ;;
esac

# compiles FILE-CONTENTS: can the compiler preprocess these #includes?
compiles() {
    printf '%b\n' "$1" | "$cc" -E -x c - >/dev/null 2>&1
}
has() { command -v "$1" >/dev/null 2>&1; }

# present TOOL: is it here?  (a header is looked for through the compiler)
present() {
    case $1 in
    cc)         has "$cc" && compiles '#include <stdio.h>' ;;
    readline)   compiles '#include <stdio.h>\n#include <readline/readline.h>' ;;
    libedit)    compiles '#include <stdio.h>\n#include <editline/readline.h>' ;;
    cmocka)     compiles '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>' ;;
    dot)        has dot ;;
    chromium)   has chromium || has chromium-browser || has google-chrome ;;
    *)          has "$1" ;;
    esac
}

missing= absent=
for t in $need; do present "$t" || missing="$missing $t"; done
for t in $want; do present "$t" || absent="$absent $t"; done
missing=${missing# } absent=${absent# }
[ -z "$missing" ] && [ -z "$absent" ] && exit 0

# The package manager, and its name for each tool.
pm=
for p in apt-get dnf pacman brew; do
    if has "$p"; then pm=$p; break; fi
done
pkg() {
    case $pm:$1 in
    apt-get:cc|apt-get:make) echo build-essential ;;
    apt-get:readline)   echo libreadline-dev ;;
    apt-get:libedit)    echo libedit-dev ;;
    apt-get:cmocka)     echo libcmocka-dev ;;
    apt-get:script)     echo bsdutils ;;
    dnf:script|pacman:script) echo util-linux ;;
    dnf:cc)             echo gcc ;;
    dnf:readline)       echo readline-devel ;;
    dnf:libedit)        echo libedit-devel ;;
    dnf:cmocka)         echo libcmocka-devel ;;
    dnf:pkg-config)     echo pkgconf-pkg-config ;;
    pacman:cc|pacman:make) echo base-devel ;;
    pacman:pkg-config)  echo pkgconf ;;
    pacman:python3)     echo python ;;
    brew:cc)            echo "" ;;          # xcode-select --install
    brew:chromium)      echo "--cask chromium" ;;
    *:dot)              echo graphviz ;;
    *)                  echo "$1" ;;
    esac
}
pkgs() {
    for t in "$@"; do pkg "$t"; done | awk 'NF && !seen[$0]++' | tr '\n' ' ' | sed 's/ $//'
}

if [ -n "$missing" ]; then
    say=
    for t in $missing; do
        case $t in
        cc)       say="$say, a C compiler ($cc)" ;;
        readline) say="$say, the GNU readline headers" ;;
        libedit)  say="$say, the libedit headers" ;;
        cmocka)   say="$say, cmocka (headers)" ;;
        *)        say="$say, $t" ;;
        esac
    done
    echo "vfsim needs ${say#, }" >&2
fi
[ -n "$absent" ] && echo "optional, their tests are skipped without them: $absent" >&2

# shellcheck disable=SC2086  # the lists are split into words on purpose
all=$(pkgs $missing $absent)
if [ -z "$pm" ]; then
    echo "no apt-get, dnf, pacman or brew here: install them by hand" >&2
elif [ "$pm" = apt-get ] && [ "$(id -u)" -eq 0 ] && [ -n "$all" ]; then
    echo "deps.sh: installing $all" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt="apt-get -q -o DPkg::Lock::Timeout=300"
    if ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
        $apt update || exit 1
    fi
    # shellcheck disable=SC2086
    if ! $apt install -y $all; then
        $apt update && $apt install -y $all || exit 1
    fi
    exit 0
else
    case $pm in
    apt-get) cmd="sudo apt-get install -y" ;;
    dnf)     cmd="sudo dnf install -y" ;;
    pacman)  cmd="sudo pacman -S --needed" ;;
    brew)    cmd="brew install" ;;
    esac
    # shellcheck disable=SC2086
    req=$(pkgs $missing)
    [ -n "$req" ] && echo "    $cmd $req" >&2
    # shellcheck disable=SC2086
    opt=$(pkgs $absent)
    [ -n "$opt" ] && echo "    $cmd $opt    # optional" >&2
    case " $missing " in *" cc "*) [ "$pm" = brew ] &&
        echo "    xcode-select --install    # the C compiler" >&2 ;; esac
fi
[ -z "$missing" ]
