#!/usr/bin/awk -f
# commands.awk - cli/commands.tbl (the shell's commands, a row each, see
# its head) to C: build/gen/commands.inc, which cli/commands.h includes:
# the declarations of what the rows name (each handler c_NAME, each long
# help c_NAME_help, the completers and hooks), help's groups as
# COMMAND_GROUPS and the entries as COMMAND_ENTRIES, in the table's
# order (cli/cmd.c makes its table from them).  A row that does not fit
# (a word it does not know, a word missing or too many, a name twice, a
# synopsis that does not begin with the name, its lines missing) stops
# the build with FILE:LINE: and what is wrong.  It runs after
# scripts/tbl.awk (comments, the indented lines, die):
#     awk -f scripts/tbl.awk -f scripts/commands.awk cli/commands.tbl >build/gen/commands.inc

BEGIN {
	ngroups = ncmds = 0
	nflags = split("thread world log pager noreplay noreplay-said", flagword)
	split("CMD_THREAD CMD_WORLD CMD_LOG CMD_PAGER CMD_NOREPLAY CMD_NOREPLAY_SAID", flagmacro)
	for (i = 1; i <= nflags; i++)
		flag[flagword[i]] = flagmacro[i]
}

function ident(w, what) {
	if (w != "-" && w !~ /^[a-z_][a-z0-9_]*$/)
		die(what " is - or a C function's name: " w)
	return w
}
function known_group(g) {
	if (!(g in group))
		die("no group " g " (the group rows above the commands)")
	return g
}
# FLAGS as C: 0, or the CMD_* macros joined by |
function flags_c(w,    n, f, i, c) {
	if (w == "-")
		return "0"
	n = split(w, f, ",")
	c = ""
	for (i = 1; i <= n; i++) {
		if (!(f[i] in flag))
			die("no flag " f[i] " (thread, world, log, pager, noreplay, noreplay-said)")
		c = c (i > 1 ? " | " : "") flag[f[i]]
	}
	return c
}

$1 == "group" {
	if (ncmds)
		die("a group after the commands: the groups come first")
	if (NF != 2 || $2 !~ /^[a-z]+$/)
		die("group ID: one word, lower case")
	if ($2 in group)
		die("group " $2 " twice")
	n = ngroups = tbl_row("group")
	group[$2] = n
	gid[n] = $2
	next
}

$1 == "syscalls" {
	if (NF != 4)
		die("syscalls GROUP FLAGS COMPLETE: " NF " words")
	if (sysrow)
		die("syscalls twice: the system calls' commands stand in one place")
	sysrow = 1
	n = ++ncmds
	cname[n] = ""
	cgroup[n] = known_group($2)
	cflags[n] = flags_c($3)
	ccomplete[n] = ident($4, "COMPLETE")
	clong[n] = cmake[n] = "-"
	next
}

{
	if (NF != 6)
		die("NAME GROUP FLAGS COMPLETE LONG MAKE: " NF " words")
	if ($1 !~ /^[a-z][a-z0-9_]*$/ || $1 == "group")
		die("a command's name is a lower-case word: " $1)
	if ($1 in named)
		die("command " $1 " twice")
	named[$1] = 1
	if ($5 != "long" && $5 != "-")
		die("LONG is long (c_" $1 "_help says more) or -: " $5)
	n = ++ncmds
	ctext[n] = tbl_row("command", 2)       # its lines: tbl_text["command", ctext[n]]
	cname[n] = $1
	cgroup[n] = known_group($2)
	cflags[n] = flags_c($3)
	csys[n] = ("," $3 ",") ~ /,thread,/
	ccomplete[n] = ident($4, "COMPLETE")
	clong[n] = $5
	cmake[n] = ident($6, "MAKE")
	cline[n] = FNR
	next
}

END {
	if (failed)
		exit 1
	if (!ngroups || !("command" in tbl_n))
		die("no groups or no commands")
	# the synopsis line begins with the name (checked where it stands:
	# the row's line)
	for (n = 1; n <= ncmds; n++) {
		if (cname[n] == "")
			continue
		syn = tbl_text["command", ctext[n]]
		if (syn != cname[n] && index(syn, cname[n] " ") != 1) {
			FNR = cline[n]
			die("the synopsis line of " cname[n] " does not begin with " cname[n] ": " syn)
		}
		cargs[n] = syn == cname[n] ? "" : substr(syn, length(cname[n]) + 2)
	}
	print "/* build/gen/commands.inc: made by scripts/commands.awk from cli/commands.tbl; edit that. */"
	print "#ifndef VFSIM_GEN_COMMANDS_INC"
	print "#define VFSIM_GEN_COMMANDS_INC"
	print ""
	print "/* what the rows name: the handlers (HANDLER, cli/commands.h) and long"
	print " * helps in the cli/cmd_*.c files, the completers and the hooks */"
	for (n = 1; n <= ncmds; n++) {
		if (cname[n] == "") {
			print "HANDLER(c_syscall);"
		} else {
			print "HANDLER(c_" cname[n] ");"
			if (clong[n] == "long")
				print "extern const char c_" cname[n] "_help[];"
		}
		if (ccomplete[n] != "-" && !(ccomplete[n] in said)) {
			said[ccomplete[n]] = 1
			print "void " ccomplete[n] "(const struct complete_at *at);"
		}
		if (cmake[n] != "-")
			print "void " cmake[n] "(struct cmd_entry *e);"
	}
	print ""
	print "/* help's groups, in the order it lists them: { ID, TITLE }, */"
	print "#define COMMAND_GROUPS \\"
	for (g = 1; g <= ngroups; g++)
		printf "\t{ %s, %s },%s\n", cstr(gid[g]), cstr(tbl_text["group", g]), g < ngroups ? " \\" : ""
	print ""
	print "/* the entries, in the table's order (help's within a group) */"
	print "#define COMMAND_ENTRIES \\"
	for (n = 1; n <= ncmds; n++) {
		more = n < ncmds ? " \\" : ""
		if (cname[n] == "") {
			printf "\t{ .group = %s, .flags = %s, .fn = c_syscall, .complete = %s },%s\n",
			       cstr(cgroup[n]), cflags[n], ccomplete[n] == "-" ? "NULL" : ccomplete[n], more
			continue
		}
		printf "\t{ .name = %s, .group = %s, .args = %s, \\\n", cstr(cname[n]), cstr(cgroup[n]), cstr(cargs[n])
		printf "\t  .help = %s, \\\n", cstr(tbl_text["command", ctext[n], 2])
		printf "\t  .long_help = %s, .flags = %s, .sys = %s, .fn = c_%s, \\\n",
		       clong[n] == "long" ? "c_" cname[n] "_help" : "NULL", cflags[n],
		       csys[n] ? "SYS_" toupper(cname[n]) : "0", cname[n]
		printf "\t  .complete = %s, .make = %s },%s\n", ccomplete[n] == "-" ? "NULL" : ccomplete[n],
		       cmake[n] == "-" ? "NULL" : cmake[n], more
	}
	print ""
	print "#endif"
}
