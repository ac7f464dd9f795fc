/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd.c - the command table: the list of the commands' entries (each
 * beside its handler) and the table made from it once.  Dispatch
 * (session_exec_line), `help`, completion (complete.c), argument counts
 * and the man page's command list (`vfsim --commands-mdoc`) read it.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_file.h"
#include "vfs_thread.h"

/* The commands: cli/commands.tbl's rows, in its order (help's within a
 * group), made into entries by scripts/commands.awk (COMMAND_ENTRIES,
 * build/gen/commands.inc).  The row without a name is where the system
 * calls' commands stand, one per row of core/syscalls.c, each made from
 * that entry and its row. */
static const struct cmd_entry base_table[] = { COMMAND_ENTRIES };
#define NBASE (sizeof base_table / sizeof base_table[0])

static struct cmd_entry table[NBASE + SYS__COUNT];
/* each command's synopsis, compiled once for argument checking (NULL:
 * the walk of argspec_match checks its lines) */
static struct argspec *compiled[NBASE + SYS__COUNT];
static char synopses[SYS__COUNT][96];
const struct cmd_entry *cmd_table = table;
int cmd_count;

/* Is SYS a command of its own (mkdir), not one made from its row? */
static bool own_command(int sys)
{
	for (size_t k = 0; k < NBASE; k++)
		if (base_table[k].name && base_table[k].sys == sys)
			return true;
	return false;
}

/* The table: the entries, the system calls' commands where the entry
 * without a name stands, each from its row and that entry. */
void cmd_table_init(void)
{
	if (cmd_count)
		return;
	int n = 0;
	for (size_t i = 0; i < NBASE; i++) {
		const struct cmd_entry *def = &base_table[i];
		if (def->name) {
			table[n] = *def;
			if (def->make)  /* what its own table says (export) */
				def->make(&table[n]);
			n++;
			continue;
		}
		for (int sys = SYS_NONE + 1; sys < SYS__COUNT; sys++) {
			const struct vfs_sysdesc *d = &vfs_sys[sys];
			if (d->flags & VSYS_SCRIPT)
				continue;       /* the script's: `define syscall` */
			if (own_command(sys))
				continue;
			vfs_sys_synopsis(sys, synopses[sys], sizeof synopses[sys]);
			struct cmd_entry *e = &table[n++];
			*e = *def;
			e->name = d->name;
			e->args = synopses[sys];
			e->help = d->help;
			e->long_help = d->long_help;
			e->sys = sys;
			vfs_sys_nwords(sys, &e->min_args, &e->max_args);
		}
	}
	cmd_count = n;
	/* what argument checking allows: what the synopsis says */
	for (int i = 0; i < n; i++)
		if (!table[i].sys || table[i].fn != c_syscall) {
			argspec_counts(table[i].args, &table[i].min_args, &table[i].max_args);
			compiled[i] = argspec_compile(table[i].args);
		}
}

/* cmd_check_words, with SYN compiled in A when it is (the lines it takes
 * are told from a few comparisons; the walk says what a refused one is) */
static int check_words(struct session *s, const char *name, const char *syn,
		       const struct argspec *a, int min, int max, const char *prefix,
		       const struct cmd_call *c)
{
	if (c->argc < min || (max >= 0 && c->argc > max))
		return cli_error(s, "%s: %s arguments (usage: %s%s%s%s)", name,
				 c->argc < min ? "missing" : "too many", prefix, name,
				 *syn ? " " : "", syn);
	if (a ? argspec_accepts(a, c->argv, c->argc) : argspec_counts_decide(syn))
		return 0;
	char alt[256];
	int bad = argspec_match(syn, c->argv, c->argc, alt, sizeof alt);
	/* a first word no alternative takes is the handler's to name (its
	 * table of keywords, and what the user may have meant) */
	if (bad <= 0)
		return 0;
	/* say what does not fit: the word where the synopsis parts from the
	 * line, or that the line ends before it does */
	if (bad < c->argc)
		return cli_error_at(s, c->cols[bad], "%s: unexpected '%s' (usage: %s)",
				    name, c->argv[bad], alt);
	return cli_error_at(s, c->cols[c->argc - 1], "%s: missing words after '%s' "
			    "(usage: %s)", name, c->argv[c->argc - 1], alt);
}

int cmd_check_words(struct session *s, const char *name, const char *syn,
		    int min, int max, const char *prefix, const struct cmd_call *c)
{
	return check_words(s, name, syn, NULL, min, max, prefix, c);
}

int cmd_check_args(struct session *s, const struct cmd_entry *e,
		   const struct cmd_call *c)
{
	if (c->tid >= 0 && e->sys && e->fn != c_syscall) {
		/* a command of its own that is a system call too (mkdir):
		 * as a thread's call it takes what the call's row says */
		char syn[256];
		int min, max;
		vfs_sys_synopsis(e->sys, syn, sizeof syn);
		vfs_sys_nwords(e->sys, &min, &max);
		return cmd_check_words(s, e->name, syn, min, max, "THREAD: ", c);
	}
	if (e->fn == c_syscall) {       /* the row's schema: vfs_call_parse */
		if (c->argc < e->min_args || (e->max_args >= 0 && c->argc > e->max_args))
			return cli_error(s, "%s: %s arguments (usage: THREAD: %s %s)",
					 e->name, c->argc < e->min_args ? "missing" : "too many",
					 e->name, e->args);
		return 0;
	}
	return check_words(s, e->name, e->args, compiled[e - table], e->min_args,
			   e->max_args, e->flags & CMD_THREAD ? "THREAD: " : "", c);
}

/* Short names people type for a command. */
static const struct { const char *alias, *name; } aliases[] = {
	{ "q", "quit" }, { "?", "help" },
};

const struct cmd_entry *cmd_find(const char *name)
{
	cmd_table_init();
	/* (the first letter first: a line is looked up on every run, and
	 * under the fuzzer every strcmp is also recorded) */
	for (int i = 0; i < cmd_count; i++)
		if (cmd_table[i].name[0] == name[0] && !strcmp(cmd_table[i].name, name))
			return &cmd_table[i];
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (aliases[i].alias[0] == name[0] && !strcmp(aliases[i].alias, name))
			return cmd_find(aliases[i].name);
	return NULL;
}

/* ---- names ---- */

/* The edit distance between A and B, or LIMIT when it is LIMIT or more:
 * a row whose every cell has reached LIMIT cannot lead to less (most
 * words typed wrong are far from every command: two or three rows). */
static int lev(const char *a, const char *b, int limit)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	if (la > 40 || lb > 40)
		return limit;
	int d[41][41];
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++) {
		int low = d[i][0];
		for (int j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
			if (c < low)
				low = c;
		}
		if (low >= limit)
			return limit;
	}
	return d[la][lb] < limit ? d[la][lb] : limit;
}

/* The candidates: N of CANDS, or NAME(i) up to its first NULL (a table's
 * rows, however many) */
static const char *suggest(const char *word, const char *const *cands, int n,
			   const char *(*name)(int))
{
	const char *best = NULL, *c;
	/* two edits for a long word, one for a short one ("v9.9" is not "v4.6") */
	size_t lw = strlen(word);
	int bd = lw > 4 ? 3 : 2;
	for (int i = 0; cands ? i < n : (c = name(i)) != NULL; i++) {
		if (cands)
			c = cands[i];
		size_t lc = strlen(c);
		int d;
		if (lw >= 2 && word[0] == c[0] && !strncmp(word, c, lw))
			d = 1;
		else if ((lw > lc ? lw - lc : lc - lw) >= (size_t)bd)
			continue;       /* at least that many edits: no better */
		else
			d = lev(word, c, bd);
		if (d < bd) {
			bd = d;
			best = c;
		}
	}
	return best;
}

const char *did_you_mean(const char *word, const char *const *cands, int n)
{
	return suggest(word, cands, n, NULL);
}

const char *did_you_mean_of(const char *word, const char *(*name)(int))
{
	return suggest(word, NULL, 0, name);
}

int cli_unknown(struct session *s, const char *what, const char *word,
		const char *const *cands, int n, const char *hint)
{
	return cli_unknown_at(s, 0, what, word, cands, n, hint);
}

static int unknown_said(struct session *s, int col, const char *what,
			const char *word, const char *sug, const char *hint)
{
	if (sug)
		return cli_error_on(s, 0, col, "%s '%s' (did you mean '%s'?)", what,
				    word, sug);
	if (hint)
		return cli_error_on(s, 0, col, "%s '%s' (%s)", what, word, hint);
	return cli_error_on(s, 0, col, "%s '%s'", what, word);
}

int cli_unknown_at(struct session *s, int col, const char *what, const char *word,
		   const char *const *cands, int n, const char *hint)
{
	return unknown_said(s, col, what, word, did_you_mean(word, cands, n), hint);
}

int cli_unknown_of(struct session *s, const char *what, const char *word,
		   const char *(*name)(int), const char *hint)
{
	return unknown_said(s, 0, what, word, did_you_mean_of(word, name), hint);
}

/* The one diagnostic of a place in a script: FILE:LINE: (the command's
 * line, or LINE), then "column C: " when COLUMN (on the continuation
 * line it is on), then the message (cli_error). */
static int verror_on(struct session *s, int line, int col, bool column,
		     const char *fmt, va_list ap)
{
	char msg[1024];
	vsnprintf(msg, sizeof msg, fmt, ap);
	int was = s->line, k = s->ncont - 1;
	if (line > 0) {
		s->line = line;         /* an earlier line: a definition's step */
		k = 0;
	}
	while (k > 0 && (size_t)(col - 1) < s->cont_at[k])
		k--;
	if (k > 0) {            /* on a continuation line */
		s->line += k;
		col -= (int)s->cont_at[k];
	}
	if (column)
		cli_error(s, "column %d: %s", col, msg);
	else
		cli_error(s, "%s", msg);
	s->line = was;
	return -1;
}

int cli_error_on(struct session *s, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror_on(s, line, col, col > 0, fmt, ap);
	va_end(ap);
	return -1;
}

int cli_error_at(struct session *s, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror_on(s, 0, col, true, fmt, ap);
	va_end(ap);
	return -1;
}

int cmd_names(const char **names, int max)
{
	int n = 0;
	cmd_table_init();
	for (int i = 0; i < cmd_count && n < max; i++)
		names[n++] = cmd_table[i].name;
	return n;
}

int parse_num(const char *s, long long *v)
{
	char *end;
	if (!*s)
		return -1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return *end || errno ? -1 : 0;
}

int resolve_thread(struct session *s, const char *name, int *tid)
{
	int t = vfs_thread_by_name(s->w, name);
	if (t >= 0) {
		*tid = t;
		return 0;
	}
	const char *names[VFS_MAX_THREADS];
	char buf[VFS_MAX_THREADS][32];
	for (int i = 0; i < vfs_world_nthreads(s->w); i++) {
		vfs_thread_name(s->w, i, buf[i], sizeof buf[i]);
		names[i] = buf[i];
	}
	return cli_unknown(s, "unknown thread", name, names, vfs_world_nthreads(s->w),
			   "spawn it first");
}

int resolve_proc(struct session *s, const char *name, int *proc, int *pid)
{
	long long v;
	if (!parse_num(name, &v)) {
		*pid = (int)v;
		*proc = vfs_proc_by_pid(s->w, (int)v);
		return 0;               /* an unknown pid is the kernel's ESRCH */
	}
	int p = vfs_proc_by_name(s->w, name);
	if (p < 0) {
		const char *names[VFS_MAX_PROCS];
		for (int i = 0; i < vfs_world_nprocs(s->w); i++)
			names[i] = vfs_proc_name(s->w, i);
		return cli_unknown(s, "unknown process", name, names, vfs_world_nprocs(s->w),
				   NULL);
	}
	*proc = p;
	*pid = vfs_proc_pid(s->w, p);
	return 0;
}

int resolve_file(struct session *s, const char *name, int *file)
{
	long long v;
	if (!strncmp(name, "file#", 5)) {
		if (parse_num(name + 5, &v) < 0)
			return cli_error(s, "'%s': expected file#N", name);
		int f = v < 1 || v > INT_MAX ? -1 : vfs_file_by_id(s->w, (int)v);
		if (f < 0)
			return cli_error(s, "%s is not open (closed, or never opened)", name);
		*file = f;
		return 0;
	}
	const char *colon = strchr(name, ':');
	if (!colon)
		return cli_error(s, "'%s': a file is file#N or PROC:FD", name);
	char pn[64];
	snprintf(pn, sizeof pn, "%.*s", (int)(colon - name), name);
	int proc, pid;
	if (resolve_proc(s, pn, &proc, &pid) < 0)
		return -1;
	if (proc < 0)
		return cli_error(s, "no process with pid %s", pn);
	if (parse_num(colon + 1, &v) < 0)
		return cli_error(s, "'%s': the descriptor must be a number", name);
	int f = v < 0 || v > INT_MAX ? -1 : vfs_fd_file(s->w, proc, (int)v);
	if (f < 0)
		return cli_error(s, "%s: descriptor %lld is not open", pn, v);
	*file = f;
	return 0;
}

/* ---- help ---- */

/* help's groups, in its order: cli/commands.tbl's group rows */
static const struct { const char *id, *title; } groups[] = { COMMAND_GROUPS };

/* The commands in help's order, group by group; title[i] is the group's
 * title at its first command, else NULL.  Their number. */
static int cmd_in_order(const struct cmd_entry **v, const char **title)
{
	int n = 0;
	cmd_table_init();
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		const char *t = groups[g].title;
		for (int i = 0; i < cmd_count; i++)
			if (!strcmp(cmd_table[i].group, groups[g].id)) {
				v[n] = &cmd_table[i];
				title[n++] = t;
				t = NULL;
			}
	}
	return n;
}

void cmd_help_list(struct session *s)
{
	const struct cmd_entry *v[NBASE + SYS__COUNT];
	const char *title[NBASE + SYS__COUNT];
	int n = cmd_in_order(v, title);
	for (int i = 0; i < n; i++) {
		if (title[i])
			out(s, "%s%s%s\n", color_on(s, "\033[1m"), title[i], color_off(s));
		char syn[256];
		snprintf(syn, sizeof syn, "%s %s", v[i]->name, v[i]->args);
		if (strlen(syn) > 34)   /* a long synopsis: its help below */
			out(s, "  %s\n  %-34s %s\n", syn, "", v[i]->help);
		else
			out(s, "  %-34s %s\n", syn, v[i]->help);
	}
	out(s, "'help COMMAND' says more; 'help race', 'help f_pos_lock', ... explain the\n"
	       "ideas, 'apropos WORD' finds them. The workshop's lessons: 'lessons' lists\n"
	       "them, 'lessons 1' loads the first (examples/01-first-steps.vfs).\n");
}

/* The man page's command list, from the table. */
void cmd_print_mdoc(FILE *f)
{
	const struct cmd_entry *v[NBASE + SYS__COUNT];
	const char *title[NBASE + SYS__COUNT];
	int n = cmd_in_order(v, title);
	for (int i = 0; i < n; i++) {
		if (title[i]) {
			if (i)
				fputs(".El\n", f);
			mdoc_title(f, title[i]);
			fputs(".Bl -tag -width Ds\n", f);
		}
		fprintf(f, ".It Ic %s", v[i]->name);
		mdoc_args(f, v[i]->args);       /* mdoc.c */
		fputc('\n', f);
		mdoc_sentence(f, v[i]->help);
	}
	if (n)
		fputs(".El\n", f);
}
