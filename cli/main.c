/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - vfsim's command line and its prompt.
 *
 *   vfsim [-k PRESET] [-c COMMAND]... [-i] [--check] [--trace text|steps|jsonl]
 *         [-q] [--color auto|always|never] [SCRIPT...]
 *
 * Exit status: 0 all well, 1 an expect failed, 2 a usage or script error,
 * or output that could not be written (a full disk, a closed stdout).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include "cli.h"
#include "lineedit.h"
#include "fns.h"

#ifndef VFSIM_VERSION
#define VFSIM_VERSION "0.1"
#endif

/* "-k PRESET", "--trace FORMAT", "--trace text|jsonl" (WORDS: its words) */
static void opt_text(const struct cli_option *o, bool words, char *buf, size_t n)
{
	size_t k = o->name ? (size_t)snprintf(buf, n, "--%s", o->name) :
			     (size_t)snprintf(buf, n, "-%c", o->short_name);
	if (o->arg && words && o->words)
		for (const struct cli_word *w = o->words; w->word && k < n; w++)
			k += (size_t)snprintf(buf + k, n - k, "%c%s",
					      w == o->words ? ' ' : '|', w->word);
	else if (o->arg && k < n)
		snprintf(buf + k, n - k, " %s", o->arg);
}

static void usage(FILE *f)
{
	char t[96];
	fprintf(f, "usage: vfsim");
	for (int i = 0; i < cli_noptions; i++) {
		const struct cli_option *o = &cli_options[i];
		if (!(o->flags & CLI_OPT_SYNOPSIS))
			continue;
		opt_text(o, true, t, sizeof t);
		fprintf(f, "%s [%s]%s", o->flags & CLI_OPT_BREAK ? "\n            " : "", t,
			o->flags & CLI_OPT_REPEAT ? "..." : "");
	}
	fprintf(f, " [SCRIPT...]\n\n");
	const char *last = "";
	for (int i = 0; i < cli_noptions; i++) {
		const struct cli_option *o = &cli_options[i];
		if (!o->help || !*o->help)
			continue;
		opt_text(o, false, t, sizeof t);
		fprintf(f, "  %-16s ", t);
		for (const char *h = o->help; *h;) {
			size_t len = strcspn(h, "\n");
			fprintf(f, "%.*s\n", (int)len, h);
			h += len + (h[len] == '\n');
			if (*h)
				fprintf(f, "%19s", "");
		}
	}
	/* the options said in a word: "--version, --help" */
	fprintf(f, " ");
	for (int i = 0; i < cli_noptions; i++)
		if (cli_options[i].help && !*cli_options[i].help) {
			opt_text(&cli_options[i], false, t, sizeof t);
			fprintf(f, "%s %s", last, t);
			last = ",";
		}
	fprintf(f, "\n\nAt the prompt, 'help' lists the commands. See vfsim(1) and vfsim(5).\n");
}

/* ARG as one of O's words: its value in *V, or 0 said ("--trace takes
 * text or jsonl, not 'x'") and -1. */
static int opt_word(const struct cli_option *o, const char *arg, int *v)
{
	int n = 0;
	for (const struct cli_word *w = o->words; w->word; w++, n++)
		if (!strcmp(w->word, arg)) {
			*v = w->value;
			return 0;
		}
	fprintf(stderr, "vfsim: --%s takes", o->name);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i == 0 ? "" : i == n - 1 ? " or" : ",",
			o->words[i].word);
	fprintf(stderr, ", not '%s'\n", arg);
	return -1;
}

struct opts {
	const char *preset;
	const char **cmds;
	int ncmds;
	int interactive, check, quiet, trace, color;
	int tap, width, no_pager;
	const char *complete;   /* --complete LINE (tests/cli/tables.sh) */
};

/* SIGINT or SIGTERM off the prompt: the first stops the script between
 * commands (and a long run or explore, which poll `interrupted`), so that
 * what it printed is kept; a second one leaves at once. */
static volatile sig_atomic_t stop_sig, stop_poll;

static void on_stop(int sig)
{
	if (stop_sig) {
		static const char msg[] = "vfsim: killed by a second signal\n";
		if (write(2, msg, sizeof msg - 1) < 0) { /* nothing more to do */ }
		_exit(128 + sig);
	}
	stop_sig = sig;
	stop_poll = 1;
}

static void catch_stop(struct session *s)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	s->stop = &stop_sig;
	s->interrupted = &stop_poll;
}

/* The output so far written out, a one-line note, 128 + the signal. */
static int stopped(struct session *s)
{
	out_flush(s);
	fflush(stdout);
	fprintf(stderr, "vfsim: stopped by %s%s%s; the output so far is kept\n",
		stop_sig == SIGTERM ? "SIGTERM" : "SIGINT", s->stop_at[0] ? " after " : "",
		s->stop_at);
	return 128 + (int)stop_sig;
}

/* `-c 'export jsonl -'` (any format to '-'): stdout is the export's, so
 * the scripts' human lines before it go to stderr. */
static bool exports_to_stdout(const struct opts *o)
{
	for (int i = 0; i < o->ncmds; i++) {
		struct lex l;
		if (lex(&l, o->cmds[i], NULL) == 0 && l.nwords >= 3 &&
		    !strcmp(l.words[0], "export") && !strcmp(l.words[2], "-"))
			return true;
	}
	return false;
}

static void apply(struct session *s, const struct opts *o)
{
	s->quiet = o->quiet;
	s->trace = o->trace;
	s->color = o->color;
	s->width = o->width;
	/* stdout for the machine: JSON lines only, the human lines to stderr */
	s->human_err = o->trace == TRACE_JSONL || exports_to_stdout(o);
	s->live_reports = 1;    /* the detectors speak as they fire */
	if (o->preset)
		vfs_set_preset(s->w, vfs_preset_lookup(o->preset));
	if (o->preset) {
		char line[64];
		snprintf(line, sizeof line, "kernel %s", o->preset);
		struct rec *r = session_log(s, REC_SETUP, -1, NULL);
		if (r && !(r->text = strdup(line)))
			s->nlog--;      /* (out of memory at start: v6.5 kept) */
	}
}

/* Under `make run` (VFSIM_OWN_TTY=1), vfsim makes itself the terminal's
 * foreground process group, as a shell does for a job: Ctrl-C then reaches
 * vfsim alone, and make does not die of it (exit 130).  Given back at exit. */
static pid_t tty_pgrp_before = -1;

static void give_terminal_back(void)
{
	if (tty_pgrp_before > 0)
		tcsetpgrp(0, tty_pgrp_before);
}

static void take_terminal(void)
{
	const char *e = getenv("VFSIM_OWN_TTY");
	if (!e || strcmp(e, "1") || !isatty(0))
		return;
	pid_t fg = tcgetpgrp(0);
	if (fg < 0 || fg != getpgrp())
		return;                 /* not in the foreground: leave it be */
	signal(SIGTTOU, SIG_IGN);       /* tcsetpgrp from the background */
	if (setpgid(0, 0) == 0 && tcsetpgrp(0, getpid()) == 0) {
		tty_pgrp_before = fg;
		atexit(give_terminal_back);
	}
}

static int exit_status(const struct session *s)
{
	return s->errors ? 2 : s->failed ? 1 : 0;
}

static int run_check(struct opts *o, char **files, int n)
{
	int pass = 0, fail = 0;
	if (o->tap)
		printf("1..%d\n", n);
	for (int i = 0; i < n && !stop_sig; i++) {
		struct session *s = session_new();
		if (!s) {
			fprintf(stderr, "vfsim: out of memory\n");
			return 2;
		}
		apply(s, o);
		s->quiet = 1;
		s->silent = 1;
		s->live_reports = 0;
		catch_stop(s);
		int r = session_source(s, files[i]);
		int st = r < 0 && !s->errors ? 2 : exit_status(s);
		fflush(stderr);
		const char *why = stop_sig ? " (stopped by a signal)" :
			st == 2 ? " (a script error)" : "";
		if (stop_sig)
			st = 2;
		if (o->tap)
			printf("%s %d - %s%s%s\n", st ? "not ok" : "ok", i + 1, files[i],
			       *why ? " #" : "", why);
		else
			printf("%s %s%s\n", st ? "FAIL" : "PASS", files[i], stop_sig ? why : "");
		fflush(stdout);
		if (st)
			fail++;
		else
			pass++;
		session_free(s);
	}
	if (o->tap)
		printf("# %d passed, %d failed\n", pass, fail);
	else
		printf("%d passed, %d failed\n", pass, fail);
	if (stop_sig) {
		fprintf(stderr, "vfsim: --check stopped by %s after %d of %d scripts\n",
			stop_sig == SIGTERM ? "SIGTERM" : "SIGINT", pass + fail, n);
		return 128 + (int)stop_sig;
	}
	return fail ? 1 : 0;
}

static void banner(struct session *s)
{
	if (s->quiet)
		return;
	printf("vfsim %s: how the Linux VFS locks open files and directories.\n"
	       "Kernel preset %s ('kernel list' for others). Type 'help' for the "
	       "commands,\n'lessons' for the workshop ('lessons 1' loads the first), "
	       "Tab to complete.\n", VFSIM_VERSION, vfs_presets[vfs_world_preset(s->w)].name);
}

/* Long output on a terminal goes through $PAGER (less): the commands
 * marked CMD_PAGER, their output kept in a file and paged only when it is
 * longer than the screen. */
static int pager_off;

static bool wants_pager(const char *line)
{
	struct lex l;
	if (pager_off || lex(&l, line, NULL) < 0 || !l.nwords || l.thread[0])
		return false;
	const struct cmd_entry *e = cmd_find(l.words[0]);
	if (!e || !(e->flags & CMD_PAGER))
		return false;
	/* a lesson run step by step waits for Enter: never behind a pager */
	for (int i = 1; i < l.nwords; i++)
		if (!strcmp(l.words[i], "step"))
			return false;
	return cli_rows() > 0;
}

static void exec_paged(struct session *s, const char *line)
{
	FILE *tmp = tmpfile();
	int saved = tmp ? dup(1) : -1;
	if (saved < 0) {
		if (tmp)
			fclose(tmp);
		session_exec_line(s, line);
		return;
	}
	int rows = cli_rows();
	fflush(stdout);
	dup2(fileno(tmp), 1);
	session_exec_line(s, line);
	out_flush(s);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	int lines = 0, ch;
	while ((ch = getc(tmp)) != EOF)
		lines += ch == '\n';
	rewind(tmp);
	FILE *to = stdout;
	const char *pager = getenv("PAGER");
	if (!pager || !*pager)
		pager = "less";
	setenv("LESS", "FRX", 0);       /* colours through, quit at the end */
	if (lines >= rows - 1 && (to = popen(pager, "w")) == NULL)
		to = stdout;
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, tmp)) > 0)
		fwrite(buf, 1, n, to);
	if (to != stdout)
		pclose(to);
	fflush(stdout);
	fclose(tmp);
}

static int repl(struct session *s)
{
	char *hist = le_default_histfile();
	le_init(1, cli_complete, hist);
	le_install_sigint();
	signal(SIGTERM, SIG_DFL);       /* at the prompt it ends vfsim, as before */
	s->interrupted = &le_interrupted;
	s->interactive = 1;
	cli_complete_bind(s);
	banner(s);
	while (!s->quit) {
		char prompt[64];
		snprintf(prompt, sizeof prompt, "vfsim %s> ", vfs_presets[vfs_world_preset(s->w)].name);
		char *part = le_readline(prompt);
		if (!part)
			break;
		/* the same joining as a script's (script.c) */
		struct line_join j = { 0 };
		int more;
		while ((more = line_join_add(&j, part)) > 0) {
			free(part);
			if (!(part = le_readline("... ")))
				break;
		}
		free(part);
		if (more < 0) {
			if (more == -2)         /* the line is not run */
				cli_errno(s, NULL, NULL, -VE_NOMEM);
			else
				cli_error(s, "line too long (more than %d bytes with "
					  "its continuations)", CLI_MAX_LINE);
			line_join_free(&j);
			continue;
		}
		char *line = j.text;
		free(j.conts);
		if (line && *line) {
			le_add_history(line);
			char **nh = realloc(s->hist, sizeof *nh * (s->nhist + 1));
			if (nh) {       /* (out of memory: `history` lacks it) */
				s->hist = nh;
				if ((s->hist[s->nhist] = strdup(line)))
					s->nhist++;
			}
			le_interrupted = 0;
			s->term_cols = cli_columns(s);  /* the screen, even when paged */
			if (wants_pager(line))
				exec_paged(s, line);
			else
				session_exec_line(s, line);
			fflush(stdout);
		}
		free(line);
	}
	le_end();
	free(hist);
	return 0;
}

static int vfsim_main(int argc, char **argv)
{
	struct opts o = { .color = -1 };
	/* getopt's lists, from the table */
	struct option longs[CLI_MAX_OPTIONS + 1];
	char shorts[2 * CLI_MAX_OPTIONS + 1];
	int nl = 0, ns = 0;
	for (int i = 0; i < cli_noptions; i++) {
		const struct cli_option *c = &cli_options[i];
		if (c->name)
			longs[nl++] = (struct option){ c->name, c->arg ? required_argument :
						       no_argument, NULL, c->id };
		if (c->short_name) {
			shorts[ns++] = c->short_name;
			if (c->arg)
				shorts[ns++] = ':';
		}
	}
	longs[nl] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns] = 0;
	const struct cli_option *by_id[OPT_COMPLETE + 1] = { NULL };
	for (int i = cli_noptions - 1; i >= 0; i--)
		by_id[cli_options[i].id] = &cli_options[i];
	int ch;
	o.cmds = calloc((size_t)argc + 1, sizeof *o.cmds);
	if (!o.cmds) {
		fprintf(stderr, "vfsim: out of memory\n");
		return 2;
	}
	while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		for (int i = 0; i < cli_noptions; i++)
			if (ch == cli_options[i].short_name)
				ch = cli_options[i].id;         /* -h: --help */
		switch (ch) {
		case 'k':
			if (!vfs_preset_lookup(optarg)) {
				fprintf(stderr, "vfsim: unknown preset '%s' (presets:", optarg);
				for (int i = 0; i < vfs_npresets; i++)
					fprintf(stderr, " %s", vfs_presets[i].name);
				fprintf(stderr, ")\n");
				return 2;
			}
			o.preset = optarg;
			break;
		case 'c': o.cmds[o.ncmds++] = optarg; break;
		case 'i': o.interactive = 1; break;
		case 'q': o.quiet = 1; break;
		case OPT_CHECK: o.check = 1; break;
		case OPT_TAP: o.tap = 1; break;
		case OPT_NO_PAGER: pager_off = 1; break;
		case OPT_WIDTH: {
			long long v;
			if (parse_num(optarg, &v) < 0 || v < 20 || v > 1000) {
				fprintf(stderr, "vfsim: --width takes a number of columns "
					"from 20 to 1000, not '%s'\n", optarg);
				free(o.cmds);
				return 2;
			}
			o.width = (int)v;
			break;
		}
		case OPT_TRACE: case OPT_COLOR:
			if (opt_word(by_id[ch], optarg, ch == OPT_TRACE ? &o.trace :
				     &o.color) < 0) {
				free(o.cmds);
				return 2;
			}
			break;
		case OPT_VERSION:
			printf("vfsim %s (line editing: %s)\n", VFSIM_VERSION, le_name());
			free(o.cmds);
			return 0;
		case OPT_HELP:
			usage(stdout);
			free(o.cmds);
			return 0;
		case OPT_MDOC: case OPT_CONDS_MDOC: case OPT_TABLES:
			(ch == OPT_MDOC ? cmd_print_mdoc : ch == OPT_TABLES ?
			 cli_print_tables : expect_print_mdoc)(stdout);
			free(o.cmds);
			return 0;
		case OPT_COMPLETE: o.complete = optarg; break;
		default:
			usage(stderr);
			free(o.cmds);
			return 2;
		}
	}
	if (o.color < 0) {
		const char *nc = getenv("NO_COLOR");
		o.color = isatty(1) && !(nc && *nc);
	}
	char **scripts = argv + optind;
	int nscripts = argc - optind;
	if (o.tap && !o.check) {
		fprintf(stderr, "vfsim: --tap goes with --check\n");
		free(o.cmds);
		return 2;
	}
	if (o.check) {
		if (!nscripts) {
			fprintf(stderr, "vfsim: --check needs SCRIPT files\n");
			free(o.cmds);
			return 2;
		}
		int r = run_check(&o, scripts, nscripts);
		free(o.cmds);
		return r;
	}
	struct session *s = session_new();
	if (!s) {
		fprintf(stderr, "vfsim: out of memory\n");
		free(o.cmds);
		return 2;
	}
	apply(s, &o);
	take_terminal();
	catch_stop(s);
	int status = 0;
	for (int i = 0; i < nscripts && !s->quit && !stop_sig; i++) {
		if (session_source(s, scripts[i]) < 0 && !s->errors && !stop_sig)
			s->errors = 1;
		if (s->errors || s->failed)
			break;
	}
	for (int i = 0; i < o.ncmds && !s->quit && !s->errors && !s->failed && !stop_sig;
	     i++) {
		s->file = "-c";
		s->line = i + 1;
		session_exec_line(s, o.cmds[i]);
		if (stop_sig && !s->stop_at[0])
			snprintf(s->stop_at, sizeof s->stop_at, "-c:%d", i + 1);
		s->file = NULL;
	}
	if (stop_sig) {
		status = stopped(s);
		session_free(s);
		free(o.cmds);
		return status;
	}
	if (o.complete) {               /* hidden: for tests/cli/tables.sh */
		cli_print_completions(s, o.complete, stdout);
		session_free(s);
		free(o.cmds);
		return 0;
	}
	bool tty = isatty(0);
	if (!s->quit && !s->errors && !s->failed &&
	    (o.interactive || (!nscripts && !o.ncmds))) {
		if (tty)
			repl(s);
		else
			session_run_stream(s, stdin, "<stdin>");
	} else if (!s->quit && o.interactive && tty) {
		repl(s);
	}
	if (stop_sig && !tty) {
		status = stopped(s);
		session_free(s);
		free(o.cmds);
		return status;
	}
	status = exit_status(s);
	session_free(s);
	free(o.cmds);
	return status;
}

/*
 * Output that was not written is an error: stdout closed from the start
 * (its descriptor would otherwise be the next file opened, a saved script
 * or the history), or a write that failed (ENOSPC on /dev/full), found by
 * the last flush or the stream's error flag.
 */
int main(int argc, char **argv)
{
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0 && errno == EBADF) {
		fprintf(stderr, "vfsim: standard output is closed\n");
		return 2;
	}
	int status = vfsim_main(argc, argv);
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno ? errno : cli_stdout_errno;
		fprintf(stderr, "vfsim: cannot write standard output%s%s\n", e ? ": " : "",
			e ? errno_text(e) : "");
		return 2;
	}
	return status;
}
