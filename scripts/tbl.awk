#!/usr/bin/awk -f
# tbl.awk - what the tables (core/NAME.tbl, cli/NAME.tbl) share on their
# way to C, run before the table's own awk:
#     awk -f scripts/tbl.awk -f scripts/NAME.awk core/NAME.tbl >build/gen/NAME.inc
# (the Makefile's one rule for them).  Comments and blank lines are
# skipped; a row that wants indented lines after it (its help, summary
# or comment) is numbered by tbl_row(KIND[, LINES]), LINES of them (1 if
# not given): the first is tbl_text[KIND, N], the next tbl_text[KIND, N,
# 2] ...; a line that does not fit stops the build with FILE:LINE: and
# what is wrong (die).  The table's awk reads its rows and, in its END,
# writes the C.

function die(msg) {
	printf "%s:%d: %s\n", FILENAME, FNR, msg >"/dev/stderr"
	failed = 1
	exit 1
}
# S as a C string literal
function cstr(s) {
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}
# a row of KIND whose LINES indented lines (1 if not given) come next:
# its number, 1, 2, ...
function tbl_row(kind, lines) {
	want = kind
	wanted = lines ? lines : 1
	got = 0
	return ++tbl_n[kind]
}

# what die says when a row's indented lines stop short
# (ROW: "the preset above")
function tbl_short(row) {
	if (wanted == 1)
		return row " has no indented line after it"
	return row " has " got " of its " wanted " indented lines"
}

BEGIN { want = "" }

/^[ \t]*(#|$)/ { next }

# the indented line after a row
/^\t/ {
	if (want == "")
		die("an indented line that follows no row")
	text = $0
	sub(/^\t+/, "", text)
	if (++got == 1)
		tbl_text[want, tbl_n[want]] = text
	else
		tbl_text[want, tbl_n[want], got] = text
	if (got == wanted)
		want = ""
	next
}

want != "" { die(tbl_short("the " want " above")) }

END {
	if (failed)
		exit 1
	if (want != "")
		die(tbl_short("the last " want))
}
