/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_script.c - source, echo, save, help, quit. */
#include <errno.h>
#include <stdbool.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "vfs_trace.h"

HANDLER(c_source)
{
	return session_source(s, c->argv[0]);
}

HANDLER(c_echo)
{
	for (int i = 0; i < c->argc; i++)
		out(s, "%s%s", i ? " " : "", c->argv[i]);
	out(s, "\n");
	return 0;
}

/* "A: getdents 3 2 &": a call of the log as its words (the row's,
 * core/syscalls.c), started with & so that the steps replay as logged
 * (or as it was typed: & only when it was) */
static void put_call(FILE *f, const struct vfs_world *w, const struct rec *r, bool typed)
{
	char th[32];
	vfs_thread_name(w, r->tid, th, sizeof th);
	fprintf(f, "%s: ", th);
	vfs_call_print(f, w, &r->call);
	fputs(typed && r->fg ? "\n" : " &\n", f);
}

/* Write the log as a script: set-up lines, calls started with &, and the
 * steps as explicit `step THREAD N` (runs of one thread folded). */
int session_save(struct session *s, FILE *f, bool typed)
{
	if (!typed)
		fprintf(f, "# vfsim session, saved: replays step for step\n");
	for (size_t i = 0; i < s->nlog; i++) {
		const struct rec *r = &s->log[i];
		char th[32];
		switch (r->kind) {
		case REC_SETUP:
			fprintf(f, "%s\n", r->text);
			break;
		case REC_SUBMIT:
			put_call(f, s->w, r, typed);
			break;
		case REC_STEP: {
			size_t j = i;
			if (typed && r->fg)
				break;  /* a foreground call's own: it takes them again */
			if (r->picked) {
				/* The scheduler's choices stay its choices, so that
				 * rr and random go on from the same state after the
				 * replay; the comment says who ran. */
				while (j + 1 < s->nlog && s->log[j + 1].kind == REC_STEP &&
				       s->log[j + 1].picked)
					j++;
				if (typed)
					fprintf(f, "step %zu", j - i + 1);
				else if (j > i)
					fprintf(f, "step %zu   #", j - i + 1);
				else
					fprintf(f, "step   #");
				for (size_t k = i; k <= j && !typed; k++) {
					vfs_thread_name(s->w, s->log[k].tid, th, sizeof th);
					fprintf(f, " %s", th);
				}
				fputc('\n', f);
				i = j;
				break;
			}
			while (j + 1 < s->nlog && s->log[j + 1].kind == REC_STEP &&
			       !s->log[j + 1].picked && s->log[j + 1].tid == r->tid &&
			       !(typed && s->log[j + 1].fg))
				j++;
			vfs_thread_name(s->w, r->tid, th, sizeof th);
			if (j > i || typed)
				fprintf(f, "step %s %zu\n", th, j - i + 1);
			else
				fprintf(f, "step %s\n", th);
			i = j;
			break;
		}
		}
	}
	return ferror(f) ? -1 : 0;
}

/*
 * The file PATH names, through its symlinks (a dangling one names the file
 * to create); NULL with errno set (ELOOP past 40 links, ENOMEM when an
 * allocation failed, set here: tests/oom's allocator does not).  *ST is its
 * lstat, st_mode 0 when it does not exist yet.
 */
static char *follow_links(const char *path, struct stat *st)
{
	char *cur = strdup(path);
	for (int hops = 0; cur || (errno = ENOMEM, 0); hops++) {
		if (lstat(cur, st) != 0) {
			if (errno != ENOENT) {
				int e = errno;
				free(cur);
				errno = e;
				return NULL;
			}
			st->st_mode = 0;
			return cur;
		}
		if (!S_ISLNK(st->st_mode))
			return cur;
		if (hops == 40) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		size_t cap = (size_t)st->st_size + 1 > 256 ? (size_t)st->st_size + 1 : 256;
		char *link = malloc(cap);
		ssize_t n = link ? readlink(cur, link, cap - 1) : (errno = ENOMEM, -1);
		if (n < 0) {
			int e = errno;
			free(link);
			free(cur);
			errno = e;
			return NULL;
		}
		link[n] = 0;
		char *slash = strrchr(cur, '/');
		if (link[0] != '/' && slash) {  /* relative to the link's directory */
			size_t d = (size_t)(slash - cur) + 1;
			char *j = malloc(d + (size_t)n + 1);
			if (j) {
				memcpy(j, cur, d);
				memcpy(j + d, link, (size_t)n + 1);
			}
			free(link);
			link = j;
		}
		free(cur);
		cur = link;
	}
	return NULL;
}

static const char *file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISFIFO(m) ? "a FIFO" :
	       S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/*
 * Write PATH through WRITER atomically: a temporary file in the same
 * directory renamed over it, so a failure leaves the old file (the user's
 * work) as it was. A symlink is written through (the file it names is
 * replaced, the link stays), an existing file keeps its mode and owner,
 * and anything but a regular file is refused.
 */
int write_atomic(struct session *s, const char *what, const char *path,
		 int (*writer)(struct session *, FILE *, void *), void *ctx)
{
	struct stat st;
	char *real = follow_links(path, &st);
	if (!real && errno == ENOMEM)
		return cli_errno(s, what, NULL, -VE_NOMEM);
	if (!real)
		return cli_error(s, "%s: cannot write '%s': %s", what, path, errno_text(errno));
	if (st.st_mode && !S_ISREG(st.st_mode)) {
		cli_error(s, "%s: '%s' is %s, not replaced (save to a regular file)", what,
			  path, file_kind(st.st_mode));
		free(real);
		return -1;
	}
	/* a short temporary name: PATH may be NAME_MAX long already */
	const char *slash = strrchr(real, '/');
	size_t d = slash ? (size_t)(slash - real) + 1 : 0;
	static const char pattern[] = ".vfsim-save.XXXXXX";
	char *tmp = malloc(d + sizeof pattern);
	if (!tmp) {
		free(real);
		return cli_errno(s, what, NULL, -VE_NOMEM);
	}
	memcpy(tmp, real, d);
	memcpy(tmp + d, pattern, sizeof pattern);
	int fd = mkstemp(tmp);
	int e = errno;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		free(real);
		return cli_error(s, "%s: cannot write '%s': %s", what, path, errno_text(e));
	}
	if (st.st_mode) {               /* the old file's mode and owner */
		if (fchown(fd, st.st_uid, st.st_gid) != 0) {
			/* (only root may give a file away) */
		}
		fchmod(fd, st.st_mode & 07777);
	} else {                        /* what open(O_CREAT, 0666) would give */
		mode_t um = umask(0);
		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	errno = 0;
	int r = writer(s, f, ctx);
	if (r == 0 && (fflush(f) != 0 || ferror(f) || fsync(fd) != 0))
		r = -1;
	e = errno;
	if (fclose(f) != 0 && r == 0) {
		r = -1;
		e = errno;
	}
	if (r < 0) {
		unlink(tmp);
		free(tmp);
		free(real);
		return cli_error(s, "%s: writing '%s' failed: %s", what, path,
				 e ? errno_text(e) : "write error");
	}
	if (rename(tmp, real) != 0) {
		e = errno;
		unlink(tmp);
		free(tmp);
		free(real);
		return cli_error(s, "%s: cannot replace '%s': %s", what, path, errno_text(e));
	}
	free(tmp);
	free(real);
	return 0;
}

static int save_writer(struct session *s, FILE *f, void *ctx)
{
	(void)ctx;
	return session_save(s, f, false);
}

HANDLER(c_save)
{
	if (write_atomic(s, "save", c->argv[0], save_writer, NULL) < 0)
		return -1;
	out(s, "session saved to %s\n", c->argv[0]);
	return 0;
}

/* "usage: step [THREAD] [N]" and "       step THREAD until FUNC": each
 * alternative of a synopsis ("A | B") as a line that parses. */
static void print_usage(struct session *s, const struct cmd_entry *e)
{
	const char *pre = e->flags & CMD_THREAD && !(e->flags & CMD_WORLD) ? "THREAD: " : "";
	const char *p = e->args;
	int first = 1;
	do {
		const char *bar = argspec_alt(p);
		int n = bar ? (int)(bar - p) : (int)strlen(p);
		out(s, "%s%s%s%s%.*s\n", first ? "usage: " : "       ", pre, e->name,
		    n ? " " : "", n, p);
		p = bar ? bar + 3 : NULL;
		first = 0;
	} while (p);
}

const char c_help_help[] =
	"'help race', 'help f_pos_lock', 'help i_rwsem', ...: the ideas behind the\n"
	"commands. 'apropos WORD' finds the commands and ideas that mention WORD.\n"
	"'?' is 'help'.";

HANDLER(c_help)
{
	if (!c->argc) {
		cmd_help_list(s);
		return 0;
	}
	const struct cmd_entry *e = cmd_find(c->argv[0]);
	const struct concept *k = concept_find(c->argv[0]);
	if (!e && k) {
		out(s, "%s%s%s\n%s\n", color_on(s, "\033[1m"), k->name, color_off(s), k->text);
		return 0;
	}
	if (!e) {
		const char *names[256];
		int n = cmd_names(names, 200);
		for (int i = 0; i < nconcepts; i++)
			names[n++] = concepts[i].name;
		return cli_unknown(s, "help: no command or idea", c->argv[0], names, n,
				   "'apropos WORD' searches");
	}
	print_usage(s, e);
	out(s, "  %s\n", e->help);
	if (e->long_help)
		out(s, "\n%s\n", e->long_help);
	if (e->fn == c_expect) {
		out(s, "\nConditions ('expect no NAME' where marked no):\n");
		for (int i = 0; i < expect_ncond; i++) {
			const struct expect_cond *ec = &expect_conds[i];
			char syn[64];
			snprintf(syn, sizeof syn, "%s%s%s", ec->name, *ec->args ? " " : "",
				 ec->args);
			out(s, "  %-3s%-26s %s\n", ec->negatable ? "no" : "", syn, ec->help);
		}
		out(s, "After 'explore', race, duplicate, deadlock and their 'no' forms speak\n"
		       "of all the executions.\n");
	}
	if (e->flags & CMD_THREAD)
		out(s, "\nA trailing & only starts the call: it stays pending for step, run "
		       "and explore.\n");
	if (k)
		out(s, "\n(The idea behind it: 'help %s'.)\n", k->name);
	return 0;
}

/* Case-insensitive: does TEXT mention WORD? */
static bool mentions(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (; text && *text; text++)
		if (!strncasecmp(text, word, n))
			return true;
	return false;
}

HANDLER(c_apropos)
{
	const char *w = c->argv[0];
	int found = 0;
	for (int i = 0; i < cmd_count; i++) {
		const struct cmd_entry *e = &cmd_table[i];
		if (mentions(e->name, w) || mentions(e->help, w) || mentions(e->long_help, w)) {
			out(s, "  %-14s %s\n", e->name, e->help);
			found++;
		}
	}
	for (int i = 0; i < nconcepts; i++) {
		const struct concept *k = &concepts[i];
		if (mentions(k->name, w) || mentions(k->also, w) || mentions(k->text, w)) {
			char first[96];
			snprintf(first, sizeof first, "%.*s", (int)strcspn(k->text, "\n"), k->text);
			out(s, "  %-14s (idea) %s\n", k->name, first);
			found++;
		}
	}
	if (!found)
		out(s, "nothing mentions '%s' ('help' lists the commands)\n", w);
	return 0;
}

HANDLER(c_clear)
{
	(void)c;
	if (isatty(1) && !s->silent) {  /* a terminal's escape; nothing in a file */
		fputs("\033[H\033[2J", stdout);
		fflush(stdout);
	}
	return 0;
}

HANDLER(c_quit)
{
	(void)c;
	s->quit = 1;
	return 0;
}
