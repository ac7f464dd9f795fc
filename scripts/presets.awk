#!/usr/bin/awk -f
# presets.awk - core/presets.tbl (the knobs and the kernels' rows, see its
# head) to C: vfs_knobs[] and vfs_presets[], which core/presets.c includes
# as build/gen/presets.inc.  A row that does not fit (an unknown value, a
# knob or a help line missing, a value too many) stops the build with
# FILE:LINE: and what is wrong.  It runs after scripts/tbl.awk (comments,
# the indented lines, die):
#     awk -f scripts/tbl.awk -f scripts/presets.awk core/presets.tbl >build/gen/presets.inc

BEGIN { nknobs = 0; npresets = 0 }

$1 == "knob" {
	if (npresets)
		die("a knob after the presets: their columns follow the knobs")
	if (NF < 4)
		die("knob WORD FIELD VALUE...: too few words")
	n = nknobs = tbl_row("knob")
	kname[n] = $2
	kfield[n] = $3
	knvalues[n] = NF - 3
	kwrong[n] = 0
	for (i = 4; i <= NF; i++) {
		v = $i
		if (substr(v, 1, 1) == "!") {
			v = substr(v, 2)
			kwrong[n] += 2 ^ (i - 4)
		}
		kvalue[n, i - 4] = v
		kindex[n, v] = i - 4
	}
	next
}

$1 == "preset" {
	if (NF != 3 + nknobs)
		die("preset NAME ERA and a value for each of the " nknobs " knobs: " NF - 3 " values")
	n = npresets = tbl_row("preset")
	pname[n] = $2
	if ($3 == "mainline")
		pera[n] = "VFS_ERA_MAINLINE"
	else if ($3 ~ /^[0-9]+\.[0-9]+$/) {
		split($3, e, ".")
		pera[n] = "VFS_ERA(" e[1] ", " e[2] ")"
	} else
		die("ERA is MAJOR.MINOR or mainline: " $3)
	for (k = 1; k <= nknobs; k++) {
		v = $(3 + k)
		if (!((k, v) in kindex))
			die("knob " kname[k] " has no value " v)
		pvalue[n, k] = kindex[k, v]
	}
	next
}

{ die("a line that is no knob, preset, help or comment: " $1) }

END {
	print "/* build/gen/presets.inc: made by scripts/presets.awk from core/presets.tbl; edit that. */"
	for (k = 1; k <= nknobs; k++) {
		printf "static const char *const %s_values[] = {", kfield[k]
		for (i = 0; i < knvalues[k]; i++)
			printf " %s,", cstr(kvalue[k, i])
		print " NULL };"
	}
	print ""
	print "const struct vfs_knob_desc vfs_knobs[] = {"
	for (k = 1; k <= nknobs; k++) {
		printf "\t{ .name = %s, .values = %s_values,\n", cstr(kname[k]), kfield[k]
		printf "\t  .offset = offsetof(struct vfs_knobs, %s), .wrong_mask = %du,\n", kfield[k], kwrong[k]
		printf "\t  .help = %s },\n", cstr(tbl_text["knob", k])
	}
	print "};"
	print ""
	print "const struct vfs_preset vfs_presets[] = {"
	for (n = 1; n <= npresets; n++) {
		printf "\t{ .name = %s,\n\t  .summary = %s,\n\t  .k = {", cstr(pname[n]), cstr(tbl_text["preset", n])
		for (k = 1; k <= nknobs; k++)
			printf " .%s = %d,", kfield[k], pvalue[n, k]
		printf " .era = %s } },\n", pera[n]
	}
	print "};"
}
