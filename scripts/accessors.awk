#!/usr/bin/awk -f
# accessors.awk - core/accessors.tbl (the fields the shell reads, an
# accessor each, see its head) to C: build/gen/accessors.inc, an X-list
# per object, X(TYPE, NAME, ARRAY, FIELD) a row, each row's line its
# comment; core/vfs_accessor.h includes it, the objects' headers declare
# from the lists and their owners define from them.  A row that does not
# fit (before any object, a word missing, a name twice, an object without
# rows) stops the build with FILE:LINE: and what is wrong.  It runs after
# scripts/tbl.awk (comments, the indented lines, die):
#     awk -f scripts/tbl.awk -f scripts/accessors.awk core/accessors.tbl >build/gen/accessors.inc

BEGIN { nobj = 0 }

$1 == "object" {
	if (NF != 3 || $2 !~ /^[A-Z][A-Z0-9_]*$/ || $3 !~ /^[a-z][a-z0-9_]*$/)
		die("object LIST ARRAY: a macro's name and the world's table")
	if (nobj && !nrows[nobj])
		die("object " olist[nobj] " has no rows")
	if ($2 in listed)
		die("object " $2 " twice")
	listed[$2] = 1
	nobj = tbl_row("object")
	olist[nobj] = $2
	oarray[nobj] = $3
	nrows[nobj] = 0
	next
}

{
	if (!nobj)
		die("a row before the first object: " $1)
	if (NF < 3 || $1 !~ /^[a-z][a-z0-9_]*$/ || $2 !~ /^[a-z][a-z0-9_.]*$/)
		die("NAME FIELD TYPE...: an accessor, its field and its type")
	if ($1 in named)
		die("accessor " $1 " twice")
	named[$1] = 1
	n = tbl_row("row")
	type = $0
	sub(/^[ \t]*[^ \t]+[ \t]+[^ \t]+[ \t]+/, "", type)
	sub(/[ \t]+$/, "", type)
	robj[n] = nobj
	rname[n] = $1
	rfield[n] = $2
	rtype[n] = type
	nrows[nobj]++
	next
}

END {
	if (nobj && !nrows[nobj])
		die("object " olist[nobj] " has no rows")
	for (k in tbl_text)
		if (index(tbl_text[k], "*/"))
			die("a comment line with */ in it: " tbl_text[k])
	print "/* build/gen/accessors.inc: made by scripts/accessors.awk from core/accessors.tbl; edit that. */"
	print "#ifndef VFSIM_GEN_ACCESSORS_INC"
	print "#define VFSIM_GEN_ACCESSORS_INC"
	for (o = 1; o <= nobj; o++) {
		printf "\n/* %s */\n#define %s(X) \\\n", tbl_text["object", o], olist[o]
		left = nrows[o]
		for (n = 1; left; n++) {
			if (robj[n] != o)
				continue
			printf "\t/* %s */ \\\n\tX(%s, %s, %s, %s)%s\n", tbl_text["row", n], rtype[n],
			       rname[n], oarray[o], rfield[n], --left ? " \\" : ""
		}
	}
	print "\n#endif"
}
