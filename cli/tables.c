/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tables.c - the shell's tables as data for the drift tests
 * (tests/cli/tables.sh): `vfsim --tables` prints the command table, the
 * system calls' rows (core/syscalls.c), expect's conditions, the detector
 * kinds (core/kinds.c) and export's formats, one row a
 * line, fields separated by tabs; `vfsim [-c ...] --complete LINE` prints
 * what Tab offers at the end of LINE, after the scripts and commands ran.
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "explore_cli.h"
#include "vfs_detect.h"

static const struct { unsigned bit; const char *name; } sys_flags[] = {
	{ VSYS_TREE, "tree" }, { VSYS_SPAWNS, "spawns" }, { VSYS_NAMEI, "namei" },
	{ VSYS_READS, "reads" }, { VSYS_DIRENTS, "dirents" }, { VSYS_FPOS, "fpos" },
	{ VSYS_FDS, "fds" },
};

static const char *const arg_kinds[] = {
	[VA_FD] = "fd", [VA_COUNT] = "count", [VA_OFFSET] = "offset",
	[VA_WHENCE] = "whence", [VA_OFLAGS] = "oflags", [VA_PATH] = "path",
	[VA_TEXT] = "text", [VA_PROC] = "proc", [VA_NEWPROC] = "newproc",
};

/*
 * command    NAME GROUP thread|world|thread,world MIN MAX SYNOPSIS
 * syscall    NAME KNAME FLAGS MIN MAX SYNOPSIS KINDS (of the arguments:
 *            fd,count,...)
 * condition  NAME no|- SYNOPSIS KIND|- (the detector kind it speaks of)
 * kind       NAME TITLE MARK|- report|- violation|- (core/kinds.c's rows)
 * format     NAME title|- WHAT (export's)
 * xoption    NAME N|- (explore's options, N: followed by a number)
 */
void cli_print_tables(FILE *f)
{
	cmd_table_init();
	for (int i = 0; i < cmd_count; i++) {
		const struct cmd_entry *e = &cmd_table[i];
		const char *who = (e->flags & CMD_THREAD) ?
				  (e->flags & CMD_WORLD ? "thread,world" : "thread") : "world";
		fprintf(f, "command\t%s\t%s\t%s\t%d\t%d\t%s\n", e->name, e->group, who,
			e->min_args, e->max_args, e->args);
	}
	for (int sys = SYS_NONE + 1; sys < SYS__COUNT; sys++) {
		const struct vfs_sysdesc *d = &vfs_sys[sys];
		char syn[128], flags[128] = "";
		if (d->flags & VSYS_SCRIPT)
			continue;       /* no command: each definition is one */
		size_t o = 0;
		int min, max;
		vfs_sys_synopsis(sys, syn, sizeof syn);
		vfs_sys_nwords(sys, &min, &max);
		for (size_t k = 0; k < sizeof sys_flags / sizeof sys_flags[0]; k++)
			if (d->flags & sys_flags[k].bit)
				o += (size_t)snprintf(flags + o, sizeof flags - o, "%s%s",
						      o ? "," : "", sys_flags[k].name);
		fprintf(f, "syscall\t%s\t%s\t%s\t%d\t%d\t%s\t", d->name, d->kname,
			o ? flags : "-", min, max, syn);
		for (int i = 0; i < d->nargs; i++)
			fprintf(f, "%s%s", i ? "," : "", arg_kinds[d->args[i].kind]);
		fputc('\n', f);
	}
	for (int i = 0; i < expect_ncond; i++)
		fprintf(f, "condition\t%s\t%s\t%s\t%s\n", expect_conds[i].name,
			expect_conds[i].negatable ? "no" : "-", expect_conds[i].args,
			expect_conds[i].report >= 0 ?
			vfs_kind_name(expect_conds[i].report) : "-");
	for (int k = 0; k < DK__COUNT; k++)
		fprintf(f, "kind\t%s\t%s\t%s\t%s\t%s\n", vfs_kinds[k].name,
			vfs_kinds[k].title, vfs_kinds[k].mark ? vfs_kinds[k].mark : "-",
			k < DK__REPORTS ? "report" : "-",
			vfs_kinds[k].violation ? "violation" : "-");
	for (int i = 0; i < export_nformats; i++)
		fprintf(f, "format\t%s\t%s\t%s\n", export_formats[i].name,
			export_formats[i].titled ? "title" : "-", export_formats[i].what);
	explore_cli_options(f);
	/* option, --NAME or -, -C or -, ARG or -, its words (a|b) or -, hidden */
	for (int i = 0; i < cli_noptions; i++) {
		const struct cli_option *o = &cli_options[i];
		char words[128] = "-";
		size_t k = 0;
		for (const struct cli_word *w = o->words; w && w->word; w++)
			k += (size_t)snprintf(words + k, sizeof words - k, "%s%s",
					      k ? "|" : "", w->word);
		char sh[3] = { '-', o->short_name, 0 };
		fprintf(f, "option\t%s%s\t%s\t%s\t%s\t%s\n", o->name ? "--" : "-",
			o->name ? o->name : "", sh, o->arg ? o->arg : "-", words,
			o->flags & CLI_OPT_HIDDEN ? "hidden" : "-");
	}
}

/* What Tab offers for the last word of LINE in S, one a line. */
void cli_print_completions(struct session *s, const char *line, FILE *f)
{
	size_t end = strlen(line), start = end;
	while (start > 0 && line[start - 1] != ' ' && line[start - 1] != '\t')
		start--;
	cli_complete_bind(s);
	char **v = cli_complete(line, (int)start, (int)end);
	for (int i = 0; v && v[i]; i++) {
		fprintf(f, "%s\n", v[i]);
		free(v[i]);
	}
	free(v);
}
