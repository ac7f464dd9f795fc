# bench-clock.sh -- sourced by the bench scripts that time whole processes
# (sh or bash): `now_to VAR` sets VAR to the wall clock in seconds, read
# by the shell itself where it can.  A `date +%s.%N` between two runs is a
# process of its own, and the interval it closes includes its start:
# about 7 ms on this project's guests (`a=$(date +%s.%N); /bin/true;
# b=$(date +%s.%N)` measured 10-13 ms where bash's EPOCHREALTIME around
# /bin/true gave 4 ms), a third of vfsim's 3x3 proof and a constant added
# to both sides of every ratio.  EPOCHREALTIME is bash 5's; with a decimal
# comma (the locale's) or another shell, date.
case ${EPOCHREALTIME:-} in
*.*)	now_to() { eval "$1=\$EPOCHREALTIME"; } ;;
*)	now_to() { eval "$1=\$(date +%s.%N)"; } ;;
esac
