/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare_script.c - what `compare` replays, recorded: the session's log or
 * a script file read into a list of actions (set-up lines, calls, step
 * commands) that cli/cmd_compare.c replays under each preset.  `kernel`
 * lines are counted and dropped; commands that cannot be replayed (back,
 * explore, compare) are noted; looking and `expect` lines are left out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "compare.h"

#define CMP_MAX_DEPTH  8

static struct act *add_act(struct script *sc, int kind)
{
	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? sc->cap * 2 : 64;
		sc->a = xrealloc(sc->a, (size_t)sc->cap * sizeof *sc->a);
	}
	struct act *a = &sc->a[sc->n++];
	memset(a, 0, sizeof *a);
	a->kind = kind;
	a->call = -1;
	return a;
}

void compare_script_free(struct script *sc)
{
	for (int i = 0; i < sc->n; i++)
		free(sc->a[i].text);
	free(sc->a);
}

static void note_skipped(struct script *sc, const char *name)
{
	char key[40];
	snprintf(key, sizeof key, " %s,", name);
	char have[sizeof sc->skipped + 2];
	snprintf(have, sizeof have, " %s", sc->skipped);
	if (strstr(have, key))
		return;
	size_t o = strlen(sc->skipped);
	snprintf(sc->skipped + o, sizeof sc->skipped - o, "%s,", name);
}

/* ---- reading the session's log ---- */

void compare_from_log(struct session *s, struct script *sc)
{
	for (size_t i = 0; i < s->nlog; i++) {
		const struct rec *r = &s->log[i];
		if (r->kind == REC_SETUP) {
			if (!strncmp(r->text, "kernel", 6) && (!r->text[6] || r->text[6] == ' ')) {
				sc->kernel_lines++;
				continue;
			}
			add_act(sc, ACT_SETUP)->text = xstrdup(r->text);
		} else if (r->kind == REC_SUBMIT) {
			char *buf = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&buf, &len);
			if (!f)
				continue;
			struct act *a = add_act(sc, ACT_CALL);
			vfs_thread_name(s->w, r->tid, a->thread, sizeof a->thread);
			/* "A: getdents 3 2": the call's words (core/syscalls.c) */
			fprintf(f, "%s: ", a->thread);
			vfs_call_print(f, s->w, &r->call);
			fclose(f);
			a->text = buf;
			a->bg = !r->fg;
			a->call = sc->ncalls++;
		} else if (!r->fg) {
			struct act *last = sc->n ? &sc->a[sc->n - 1] : NULL;
			char th[32] = "";
			if (!r->picked)
				vfs_thread_name(s->w, r->tid, th, sizeof th);
			int kind = r->picked ? ACT_SCHED : ACT_STEP;
			if (last && last->kind == kind && !strcmp(last->thread, th)) {
				last->n++;
			} else {
				struct act *a = add_act(sc, kind);
				snprintf(a->thread, sizeof a->thread, "%s", th);
				a->n = 1;
			}
		}
	}
}

/* ---- reading a script ---- */

/* A word of a call as the replay's lexer reads it back: quoted (empty words,
 * blanks, quotes kept), but each $ret bare, so that it expands to the
 * replay's own last result under each preset. */
static void put_word_ret(FILE *f, const char *w)
{
	const char *p;
	if (!*w) {
		fputs("''", f);
		return;
	}
	bool after = false;     /* right after a $ret: "$retx" is not $ret */
	while (*w) {
		p = strstr(w, "$ret");
		size_t n = p ? (size_t)(p - w) : strlen(w);
		bool bare = n && strcspn(w, " \t\r\n#'\"$&\\") >= n &&
			    !(after && (w[0] == '_' || (w[0] >= '0' && w[0] <= '9') ||
					((w[0] | 32) >= 'a' && (w[0] | 32) <= 'z')));
		after = true;
		if (bare) {
			fwrite(w, 1, n, f);
		} else if (n) {
			fputc('\'', f);
			for (size_t i = 0; i < n; i++) {
				if (w[i] == '\'')
					fputs("'\"'\"'", f);
				else
					fputc(w[i], f);
			}
			fputc('\'', f);
		}
		if (!p)
			break;
		fputs("$ret", f);
		w = p + 4;
	}
}

static int parse_line(struct session *s, struct script *sc, const char *line,
		      int depth, int *stop)
{
	struct lex l;
	if (lex(&l, line, "$ret") < 0)
		return cli_error(s, "compare: column %d: %s", l.errcol, l.err);
	if (!l.nwords)
		return 0;
	if (sc->in_define) {    /* a step of a definition: made again in both */
		sc->in_define = strcmp(l.words[0], "end") != 0;
		add_act(sc, ACT_SETUP)->text = xstrdup(line);
		return 0;
	}
	const struct cmd_entry *e = cmd_find(l.words[0]);
	bool defined = false;   /* a system call the script defined */
	for (int i = 0; !e && i < sc->ndefined; i++)
		defined |= !strcmp(sc->defined[i], l.words[0]);
	if (!e && !(defined && l.thread[0]))
		return cli_error(s, "compare: unknown command '%s'", l.words[0]);
	if (!e)
		e = cmd_find("open");   /* (any thread command: the words are kept) */
	const char *name = e->name;
	if (l.thread[0]) {
		if (!(e->flags & CMD_THREAD))
			return cli_error(s, "compare: '%s' is not something a thread does", name);
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		if (!f)
			return cli_error(s, "compare: out of memory");
		fprintf(f, "%s:", l.thread);
		for (int i = 0; i < l.nwords; i++) {
			fputc(' ', f);
			put_word_ret(f, l.words[i]);
		}
		if (fclose(f) != 0 || !text)
			return cli_error(s, "compare: out of memory");
		struct act *a = add_act(sc, ACT_CALL);
		a->text = text;
		a->bg = l.background;
		a->call = sc->ncalls++;
		snprintf(a->thread, sizeof a->thread, "%s", l.thread);
		return 0;
	}
	if (!strcmp(name, "kernel")) {
		if (l.nwords > 1 && strcmp(l.words[1], "list"))
			sc->kernel_lines++;
		return 0;
	}
	if (!strcmp(name, "step")) {
		/* step [THREAD] [N] | step THREAD until FUNC */
		long long n = 1;
		struct act *a;
		if (l.nwords > 1 && parse_num(l.words[1], &n) < 0) {
			if (l.nwords == 4 && !strcmp(l.words[2], "until")) {
				a = add_act(sc, ACT_UNTIL);
				snprintf(a->fn, sizeof a->fn, "%s", l.words[3]);
			} else {
				a = add_act(sc, ACT_STEP);
				n = 1;
				if (l.nwords > 2 && parse_num(l.words[2], &n) < 0)
					return cli_error(s, "compare: step: N must be a number");
			}
			snprintf(a->thread, sizeof a->thread, "%s", l.words[1]);
		} else {
			a = add_act(sc, ACT_SCHED);
		}
		a->n = (long)n;
		return 0;
	}
	if (!strcmp(name, "run")) {
		struct act *a = add_act(sc, ACT_RUN);
		if (l.nwords > 1)
			snprintf(a->thread, sizeof a->thread, "%s", l.words[1]);
		return 0;
	}
	if (!strcmp(name, "source"))
		return l.nwords > 1 ? compare_from_file(s, sc, l.words[1], depth + 1) : 0;
	if (!strcmp(name, "quit")) {
		*stop = 1;
		return 0;
	}
	if (!strcmp(name, "back") || !strcmp(name, "explore") || !strcmp(name, "compare")) {
		note_skipped(sc, name);
		return 0;
	}
	if (!strcmp(name, "define") && l.nwords > 2) {
		sc->in_define = 1;
		if (!strcmp(l.words[1], "syscall") && sc->ndefined < VFS_MAX_KFNS)
			snprintf(sc->defined[sc->ndefined++], VFS_KFN_NAME_MAX, "%s",
				 l.words[2]);
	}
	if (!strcmp(e->group, "world") || !strcmp(name, "sched")) {
		/* (fs define: a filesystem type is part of both kernels) */
		if (!strcmp(name, "ls") || (!strcmp(name, "fs") &&
		    (l.nwords < 2 || strcmp(l.words[1], "define"))))
			return 0;
		add_act(sc, ACT_SETUP)->text = xstrdup(line);
		return 0;
	}
	return 0;       /* expect, echo, trace, looking: nothing to replay */
}

int compare_from_file(struct session *s, struct script *sc, const char *path, int depth)
{
	if (depth > CMP_MAX_DEPTH)
		return cli_error(s, "compare: '%s': sources nested too deep", path);
	FILE *f = fopen(path, "r");
	if (!f)
		return cli_error(s, "compare: cannot open '%s': %s", path, strerror(errno));
	struct script_reader r;
	int rc = 0, stop = 0, got;
	script_reader_init(&r, f, path);
	while (!stop && (got = script_reader_next(&r)) != 0) {
		if (got < 0) {
			rc = cli_error(s, "compare: '%s': a line longer than %d bytes", path,
				       CLI_MAX_LINE);
			break;
		}
		if (parse_line(s, sc, r.cmd.text, depth, &stop) < 0) {
			rc = -1;
			break;
		}
	}
	script_reader_free(&r);
	fclose(f);
	return rc;
}
