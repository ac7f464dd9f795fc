#!/bin/sh
# deps.sh PROFILE: install the Debian packages vfsim needs, if any are missing.
#   run    what `make run` needs: a C compiler and the line editor chosen by
#          $LINEEDIT (readline, the default; libedit; none)
#   check  everything `make check` and the helper scripts use
#   fuzz   clang with libFuzzer, for scripts/fuzz.sh (make fuzz)
# Quiet when nothing is missing. As root it installs with apt-get; otherwise
# it prints the command to run and exits 1.
set -u

profile=${1:-check}
case $profile in
run)   case ${LINEEDIT:-readline} in
       libedit) pkgs="build-essential libedit-dev" ;;
       none)    pkgs="build-essential" ;;
       *)       pkgs="build-essential libreadline-dev" ;;
       esac ;;
check) pkgs="build-essential pkg-config libcmocka-dev libreadline-dev libedit-dev
             mandoc expect tmux valgrind spin graphviz chromium python3
             hyperfine bsdutils" ;;
fuzz)  pkgs="clang" ;;  # libFuzzer, for scripts/fuzz.sh
*)     echo "usage: $0 run|check|fuzz" >&2; exit 2 ;;
esac

# One dpkg-query for all of them; unknown packages print nothing on stdout.
# shellcheck disable=SC2086  # the package lists are split into words on purpose
installed=" $(dpkg-query -W -f='${Package} ${Status}\n' $pkgs 2>/dev/null |
             awk '$NF == "installed" && $(NF-1) == "ok" { printf "%s ", $1 }')"
missing=
for p in $pkgs; do
    case $installed in *" $p "*) ;; *) missing="$missing $p" ;; esac
done
missing=${missing# }
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "vfsim needs these packages: $missing" >&2
    echo "    sudo apt-get install -y $missing" >&2
    exit 1
fi

echo "deps.sh: installing $missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt="apt-get -q -o DPkg::Lock::Timeout=300"
if ! ls /var/lib/apt/lists/*_Packages* >/dev/null 2>&1; then
    $apt update || exit 1
fi
# shellcheck disable=SC2086
if ! $apt install -y $missing; then
    $apt update && $apt install -y $missing || exit 1
fi
