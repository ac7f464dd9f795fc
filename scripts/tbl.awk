#!/usr/bin/awk -f
# tbl.awk - what the tables of core/ (core/NAME.tbl) share on their way to
# C, run before the table's own awk:
#     awk -f scripts/tbl.awk -f scripts/NAME.awk core/NAME.tbl >build/gen/NAME.inc
# (the Makefile's one rule for them).  Comments and blank lines are
# skipped; a row that wants an indented line after it (its help, summary
# or comment) is numbered by tbl_row(KIND), and that line is tbl_text[KIND,
# N]; a line that does not fit stops the build with FILE:LINE: and what is
# wrong (die).  The table's awk reads its rows and, in its END, writes the C.

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
# a row of KIND whose indented line comes next: its number, 1, 2, ...
function tbl_row(kind) {
	want = kind
	return ++tbl_n[kind]
}

BEGIN { want = "" }

/^[ \t]*(#|$)/ { next }

# the indented line after a row
/^\t/ {
	if (want == "")
		die("an indented line that follows no row")
	text = $0
	sub(/^\t+/, "", text)
	tbl_text[want, tbl_n[want]] = text
	want = ""
	next
}

want != "" { die("the " want " above has no indented line after it") }

END {
	if (failed)
		exit 1
	if (want != "")
		die("the last " want " has no indented line after it")
}
