/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd.c - the command table: one entry per command.  Dispatch
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

/* The commands as written here, a designated row each: the name, its
 * group, its synopsis (the argument schema, argspec.c), the one-line help,
 * the long help (a named text beside the handler, commands.h), flags, the
 * system call it submits and the handler.  The argument counts come from
 * the synopsis, in cmd_table_init. */
static const struct cmd_entry base_table[] = {
	/* ---- setting up the world (instant, not traced) ---- */
	{ .name = "kernel", .group = "world", .args = "[list|PRESET]",
	  .help = "show, list or choose the kernel preset",
	  .long_help = c_kernel_help, .flags = CMD_LOG, .fn = c_kernel },
	{ .name = "set", .group = "world", .args = "[KNOB [VALUE]]",
	  .help = "list the knobs, or override one",
	  .long_help = c_set_help, .flags = CMD_LOG, .fn = c_set },
	{ .name = "fs", .group = "world", .args = "[list | define NAME KEY VALUE...]",
	  .help = "the filesystem types, or define one from their parts",
	  .long_help = c_fs_help, .flags = CMD_PAGER, .fn = c_fs },
	{ .name = "override", .group = "world", .args = "[FUNC [EXPR...|default]]",
	  .help = "replace a kernel function's decision by an expression",
	  .long_help = c_override_help, .fn = c_override },
	{ .name = "rule", .group = "world",
	  .args = "[lockorder A before B | rank LOCK N | write|access FIELD under LOCK "
	  "| field FIELD CMP N | entries once per pass | remove all|RULE...]",
	  .help = "declare a lock-order rule or an invariant, checked beside lockdep's",
	  .long_help = c_rule_help, .fn = c_rule },
	{ .name = "define", .group = "world",
	  .args = "[syscall NAME [PARAM...] | function NAME [PARAM...]]",
	  .help = "a kernel function or system call of your own, as steps, to 'end'",
	  .long_help = c_define_help, .fn = c_define },
	{ .name = "field", .group = "world", .args = "[NAME of file|inode [= N]]",
	  .help = "declare a field of your locking idea on every file or inode",
	  .long_help = c_field_help, .fn = c_field },
	{ .name = "hook", .group = "world",
	  .args = "[vfs_llseek|lookup|wrap_directory_iterator [FUNCTION|default | before FUNCTION after FUNCTION]]",
	  .help = "put a function you defined into a built-in path",
	  .long_help = c_hook_help, .fn = c_hook },
	{ .name = "mount", .group = "world", .args = "FSTYPE PATH [OPTION]",
	  .help = "mount a new filesystem on a new directory",
	  .long_help = c_mount_help, .flags = CMD_LOG, .fn = c_mount },
	{ .name = "mkdir", .group = "world", .args = "PATH...",
	  .help = "make directories (as set-up, or as a thread's call)",
	  .long_help = c_mkdir_help, .flags = CMD_THREAD | CMD_WORLD | CMD_LOG,
	  .sys = SYS_MKDIR, .fn = c_mkdir, .complete = complete_call },
	{ .name = "touch", .group = "world", .args = "PATH...",
	  .help = "make empty regular files, untraced",
	  .flags = CMD_LOG, .fn = c_touch },
	{ .name = "ls", .group = "world", .args = "[PATH]",
	  .help = "show the tree (entries in directory order)",
	  .flags = CMD_PAGER, .fn = c_ls },
	{ .name = "spawn", .group = "world", .args = "NAME [uid=N]",
	  .help = "a new single-threaded process",
	  .long_help = c_spawn_help, .flags = CMD_LOG, .fn = c_spawn },
	{ .name = "kill", .group = "world", .args = "PROC",
	  .help = "SIGKILL: killable waits give up (EINTR), then the threads exit",
	  .long_help = c_kill_help, .flags = CMD_LOG, .fn = c_kill },
	{ .name = "reset", .group = "world", .args = "",
	  .help = "an empty world; the preset and knobs are kept",
	  .long_help = c_reset_help, .fn = c_reset },
	{ .name = "sched", .group = "run", .args = "[rr | fifo | random SEED]",
	  .help = "how step and run choose a thread",
	  .long_help = c_sched_help, .flags = CMD_LOG, .fn = c_sched },
	/* ---- things a thread does (traced; they take locks) ---- */
	/* the system calls, one command each, from their rows
	 * (core/syscalls.c); mkdir above is one of them too */
	{ .name = NULL, .group = "thread" },
	/* ---- running pending calls ---- */
	{ .name = "step", .group = "run", .args = "[THREAD] [N] | THREAD until FUNC",
	  .help = "run atomic steps (the scheduler's choice, or THREAD's)",
	  .long_help = c_step_help, .fn = c_step },
	{ .name = "run", .group = "run", .args = "[THREAD]",
	  .help = "run until nothing is runnable",
	  .fn = c_run },
	{ .name = "back", .group = "run", .args = "[N]",
	  .help = "undo the last N steps (deterministic replay)",
	  .flags = CMD_NOREPLAY_SAID, .fn = c_back },
	/* ---- looking ---- */
	{ .name = "ps", .group = "look", .args = "",
	  .help = "processes and threads, with their state",
	  .flags = CMD_PAGER, .fn = c_ps },
	{ .name = "fds", .group = "look", .args = "[PROC]",
	  .help = "descriptor tables",
	  .flags = CMD_PAGER, .fn = c_fds },
	{ .name = "files", .group = "look", .args = "",
	  .help = "open files: f_pos, f_count, f_mode, locks",
	  .flags = CMD_PAGER, .fn = c_files },
	{ .name = "locks", .group = "look", .args = "",
	  .help = "each lock held or waited for: holders, mode, waiters in order",
	  .flags = CMD_PAGER, .fn = c_locks },
	{ .name = "where", .group = "look", .args = "[THREAD]",
	  .help = "a thread's kernel call chain, the locks it holds, its next step (FUNC:STEP)",
	  .flags = CMD_PAGER, .fn = c_where },
	{ .name = "trace", .group = "look",
	  .args = "[on|steps|off|jsonl|clear|show [steps] [N]]",
	  .help = "the trace: live, or what happened so far",
	  .long_help = c_trace_help, .flags = CMD_PAGER, .fn = c_trace },
	{ .name = "stats", .group = "look", .args = "",
	  .help = "per lock class: acquisitions, contention, waiting; atomics per call",
	  .flags = CMD_PAGER, .fn = c_stats },
	{ .name = "reports", .group = "look",
	  .args = "[race|duplicate|skipped|deaddir|deadlock|lockorder|rule | live [on|off]]",
	  .help = "what the detectors found, each report in full",
	  .long_help = c_reports_help, .flags = CMD_PAGER, .fn = c_reports },
	{ .name = "lockdep", .group = "look", .args = "[graph|reports]",
	  .help = "the lock-order graph and its problems",
	  .long_help = c_lockdep_help, .flags = CMD_PAGER, .fn = c_lockdep },
	{ .name = "history", .group = "look", .args = "",
	  .help = "the commands typed in this session",
	  .flags = CMD_PAGER, .fn = c_history },
	/* ---- checking ---- */
	{ .name = "expect", .group = "check", .args = "CONDITION...",
	  .help = "fail the script unless CONDITION holds",
	  .long_help = c_expect_help, .flags = CMD_NOREPLAY, .fn = c_expect,
	  .complete = complete_expect },
	/* ---- scripts ---- */
	{ .name = "source", .group = "script", .args = "FILE",
	  .help = "run the commands of FILE",
	  .fn = c_source },
	{ .name = "echo", .group = "script", .args = "[TEXT...]",
	  .help = "print TEXT",
	  .fn = c_echo },
	{ .name = "save", .group = "script", .args = "FILE",
	  .help = "write the session as a replayable script",
	  .flags = CMD_NOREPLAY, .fn = c_save },
	{ .name = "explore", .group = "explore",
	  .args = "[all|dpor|stateful|naive | max N | jobs N | bound K]... | "
	  "replay WHAT... | save FILE [K] | outcomes",
	  .help = "is any violation reachable? a proof, or the shortest schedule that breaks it",
	  .long_help = c_explore_help, .flags = CMD_NOREPLAY_SAID, .fn = c_explore },
	{ .name = "compare", .group = "explore", .args = "PRESET PRESET [FILE]",
	  .help = "replay the session (or FILE) under two kernels, side by side",
	  .long_help = c_compare_help, .flags = CMD_NOREPLAY_SAID, .fn = c_compare },
	{ .name = "lessons", .group = "script", .args = "[N|NAME [step]]",
	  .help = "list the workshop's lessons, or load lesson N",
	  .long_help = c_lessons_help, .flags = CMD_PAGER | CMD_NOREPLAY, .fn = c_lessons },
	/* ---- pictures (cmd_picture.c, timeline.c, export_*.c) ---- */
	{ .name = "timeline", .group = "picture", .args = "[steps] [FROM [TO]]",
	  .help = "the trace as a table: a row per step, a column per thread",
	  .long_help = c_timeline_help, .flags = CMD_PAGER, .fn = c_timeline },
	/* (its synopsis and long help: from export_formats, cmd_table_init) */
	{ .name = "export", .group = "picture",
	  .help = "write the trace for a browser, Perfetto, Graphviz or jq",
	  .flags = CMD_NOREPLAY, .fn = c_export },
	{ .name = "help", .group = "script", .args = "[COMMAND|CONCEPT]",
	  .help = "list the commands, or explain one (or a lock, a report)",
	  .long_help = c_help_help, .flags = CMD_PAGER, .fn = c_help },
	{ .name = "apropos", .group = "script", .args = "WORD",
	  .help = "the commands and ideas that mention WORD",
	  .flags = CMD_PAGER, .fn = c_apropos },
	{ .name = "pause", .group = "script", .args = "[TEXT...]",
	  .help = "print TEXT and wait for Enter (at a terminal only)",
	  .fn = c_pause },
	{ .name = "clear", .group = "script", .args = "",
	  .help = "clear the terminal",
	  .fn = c_clear },
	{ .name = "quit", .group = "script", .args = "",
	  .help = "leave vfsim (also 'q', or Ctrl-D at the prompt)",
	  .fn = c_quit },
};
#define NBASE (sizeof base_table / sizeof base_table[0])

static struct cmd_entry table[NBASE + SYS__COUNT];
/* each command's synopsis, compiled once for argument checking (NULL:
 * the walk of argspec_match checks its lines) */
static struct argspec *compiled[NBASE + SYS__COUNT];
static char synopses[SYS__COUNT][96];
const struct cmd_entry *cmd_table = table;
int cmd_count;

/* The table: base_table with the system calls' rows where its marker is. */
/* export's synopsis and long help, from its formats' table */
static void export_entry(void)
{
	static char syn[256], help[2048];
	size_t o = 0, h = 0;
	for (int i = 0; i < export_nformats; i++) {
		const struct export_format *x = &export_formats[i];
		o += (size_t)snprintf(syn + o, sizeof syn - o, "%s%s", i ? "|" : "", x->name);
		h += (size_t)snprintf(help + h, sizeof help - h, "%s: %s.\n", x->name, x->help);
	}
	snprintf(syn + o, sizeof syn - o, " FILE [TITLE...]");
	snprintf(help + h, sizeof help - h, "FILE '-' is the standard output.");
	for (int i = 0; i < cmd_count; i++)
		if (table[i].fn == c_export) {
			table[i].args = syn;
			table[i].long_help = help;
		}
}

void cmd_table_init(void)
{
	if (cmd_count)
		return;
	int n = 0;
	for (size_t i = 0; i < NBASE; i++) {
		const struct cmd_entry *def = &base_table[i];
		if (def->name) {
			table[n++] = *def;
			continue;
		}
		for (int sys = SYS_NONE + 1; sys < SYS__COUNT; sys++) {
			const struct vfs_sysdesc *d = &vfs_sys[sys];
			bool own = false;       /* a command of its own (mkdir) */
			if (d->flags & VSYS_SCRIPT)
				continue;       /* the script's: `define syscall` */
			for (size_t k = 0; k < NBASE; k++)
				own |= base_table[k].name && base_table[k].sys == sys;
			if (own)
				continue;
			vfs_sys_synopsis(sys, synopses[sys], sizeof synopses[sys]);
			struct cmd_entry *e = &table[n++];
			*e = (struct cmd_entry){ .name = d->name, .group = def->group,
				.args = synopses[sys], .help = d->help,
				.long_help = d->long_help, .flags = CMD_THREAD,
				.sys = sys, .fn = c_syscall, .complete = complete_call };
			vfs_sys_nwords(sys, &e->min_args, &e->max_args);
		}
	}
	cmd_count = n;
	export_entry();
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

static const struct { const char *id, *title; } groups[] = {
	{ "world", "Setting up the world (instant, not traced)" },
	{ "thread", "Things a thread does: THREAD: CALL [&] (traced, they take locks)" },
	{ "run", "Running pending calls" },
	{ "look", "Looking" },
	{ "check", "Checking" },
	{ "explore", "Exploring and comparing" },
	{ "picture", "Pictures and exports" },
	{ "script", "Scripts" },
};

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
