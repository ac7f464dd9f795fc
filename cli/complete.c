/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * complete.c - Tab completion, from the command table's synopses (each
 * command's argument schema, walked by argspec.c), the system calls' rows
 * and expect's conditions: a placeholder word (PATH, FD, PROC, THREAD,
 * PRESET, KNOB, VALUE, FUNC, FSTYPE, COMMAND, LOCK, MODE, FIELD) says what
 * to offer, and a|b|c offers those words.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "lex.h"

static struct session *cs;      /* the session completion looks at */

void cli_complete_bind(struct session *s)
{
	cs = s;
}

struct cands { char **v; int n, cap; const char *prefix; };

static void add(struct cands *c, const char *word)
{
	if (strncmp(word, c->prefix, strlen(c->prefix)))
		return;
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->v[i], word))
			return;
	if (c->n + 2 > c->cap) {
		c->cap = c->cap ? c->cap * 2 : 32;
		char **nv = realloc(c->v, sizeof *nv * (size_t)c->cap);
		if (!nv)
			return;
		c->v = nv;
	}
	c->v[c->n] = strdup(word);
	if (c->v[c->n])
		c->n++;
	c->v[c->n] = NULL;
}

static void add_threads(struct cands *c, const char *suffix)
{
	char buf[48];
	for (int i = 0; i < cs->w->nthreads; i++) {
		vfs_thread_name(cs->w, i, buf, sizeof buf - 2);
		strcat(buf, suffix);
		add(c, buf);
	}
}

static void add_paths(struct cands *c)
{
	/* complete one component of the simulated tree */
	const char *p = c->prefix;
	const char *slash = strrchr(p, '/');
	char dir[VFS_PATH_MAX], buf[VFS_PATH_MAX * 2];
	if (!slash) {
		add(c, "/");
		return;
	}
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - p) + (slash == p), p);
	int ino = vfs_path_lookup(cs->w, dir);
	if (ino < 0 || cs->w->inodes[ino].type != IT_DIR)
		return;
	for (int ch = cs->w->inodes[ino].first_child; ch >= 0;
	     ch = cs->w->inodes[ch].next_sibling) {
		snprintf(buf, sizeof buf, "%.*s%s%s", (int)(slash - p) + 1, p,
			 cs->w->inodes[ch].name, cs->w->inodes[ch].type == IT_DIR ? "/" : "");
		add(c, buf);
	}
}

static void add_host_files(struct cands *c)
{
	char dir[1024], buf[2048];
	const char *slash = strrchr(c->prefix, '/');
	if (slash)
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - c->prefix) + 1, c->prefix);
	else
		dir[0] = 0;
	DIR *d = opendir(*dir ? dir : ".");
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(buf, sizeof buf, "%s%s%s", dir, de->d_name,
			 de->d_type == DT_DIR ? "/" : "");
		add(c, buf);
	}
	closedir(d);
}

static void add_fds(struct cands *c, int tid)
{
	if (tid < 0)
		return;
	const struct vfs_world *w = cs->w;
	int t = w->procs[w->threads[tid].proc].fdt;
	if (t < 0)
		return;
	char buf[16];
	for (int fd = 3; fd < w->fdt[t].nfds; fd++) {
		int v = vfs_fd_slot(w, t, fd, NULL);
		if (v != VFD_FREE && v != VFD_RESERVED) {
			snprintf(buf, sizeof buf, "%d", fd);
			add(c, buf);
		}
	}
}

/* Offer what the synopsis word `kind` stands for. */
static void add_kind(struct cands *c, const char *kind, int tid, char **words, int nw)
{
	char k[64];
	size_t j = 0;
	for (const char *p = kind; *p && j < sizeof k - 1; p++)
		if (*p != '[' && *p != ']' && *p != '.')
			k[j++] = *p;
	k[j] = 0;
	if (strchr(k, '|')) {
		for (char *tok = strtok(k, "|"); tok; tok = strtok(NULL, "|")) {
			char t[64];
			snprintf(t, sizeof t, "%s", tok);
			if (t[0] >= 'a' && t[0] <= 'z')
				add(c, t);
			else
				add_kind(c, t, tid, words, nw);
		}
		return;
	}
	const char *alt = k;
	if (k[0] >= 'a' && k[0] <= 'z' && !strchr(k, '=')) {
		add(c, k);              /* a keyword: itself */
	} else if (!strcmp(alt, "PATH") || !strcmp(alt, "OLD") || !strcmp(alt, "NEW")) {
		add_paths(c);
	} else if (!strcmp(alt, "FD") || !strcmp(alt, "PIDFD")) {
		add_fds(c, tid);
	} else if (!strcmp(alt, "NAME")) {
		;                       /* a new name: nothing to offer */
	} else if (!strncmp(alt, "uid=", 4)) {
		add(c, "uid=0");
		add(c, "uid=1000");
	} else if (!strcmp(alt, "PROC")) {
		for (int i = 0; i < cs->w->nprocs; i++)
			add(c, cs->w->procs[i].name);
	} else if (!strcmp(alt, "THREAD")) {
		add_threads(c, "");
	} else if (!strcmp(alt, "PRESET")) {
		for (int i = 0; i < vfs_npresets; i++)
			add(c, vfs_presets[i].name);
	} else if (!strcmp(alt, "KNOB")) {
		for (int i = 0; i < vfs_nknobs; i++)
			add(c, vfs_knobs[i].name);
	} else if (!strcmp(alt, "VALUE") && nw >= 2) {
		const struct vfs_knob_desc *d = vfs_knob_lookup(words[nw - 1]);
		for (int i = 0; d && d->values[i]; i++)
			add(c, d->values[i]);
	} else if (!strcmp(alt, "FUNC")) {
		for (int i = 1; i < VFN__COUNT; i++)
			add(c, vfs_fn_name(i));
	} else if (!strcmp(alt, "FSTYPE")) {
		for (int i = 0; i < vfs_world_nfstypes(cs->w); i++)   /* defined ones too */
			add(c, vfs_world_fstype(cs->w, i)->name);
	} else if (!strcmp(alt, "COMMAND")) {
		for (int i = 0; i < cmd_count; i++)
			add(c, cmd_table[i].name);
	} else if (!strcmp(alt, "CONCEPT")) {
		for (int i = 0; i < nconcepts; i++)
			add(c, concepts[i].name);
	} else if (!strcmp(alt, "FILE")) {
		add_host_files(c);
	} else if (!strcmp(alt, "LOCK")) {
		for (int i = LC_NONE + 1; i < LC__COUNT; i++)
			add(c, vfs_class_name(i));
	} else if (!strcmp(alt, "MODE")) {
		for (int i = M_EXCL; i <= M_WRITE; i++)
			add(c, vfs_mode_name(i));
	} else if (!strcmp(alt, "FIELD")) {
		for (int i = FLD_NONE + 1; i < FLD__COUNT; i++)
			add(c, vfs_field_name(i));
	} else if (!strcmp(alt, "WHAT")) {      /* explore replay: K, KIND or TOKEN */
		for (int i = 0; i < DK__COUNT; i++)
			add(c, vfs_kind_name(i));
	} else if (!strcmp(alt, "LOCKPAT")) {
		for (int i = 0; vfs_lockpat_name(i); i++)
			add(c, vfs_lockpat_name(i));
	} else if (!strcmp(alt, "LESSON")) {
		char names[100][128];
		int n = lessons_names(names, 100);
		for (int i = 0; i < n; i++)
			add(c, names[i]);
	} else if (!strcmp(alt, "OPTION")) {
		add(c, "dirstat");      /* mount's one option */
	}
}

/* A placeholder that means something of its own in one command's synopsis
 * (rule's A and B are lock patterns, lessons' NAME a lesson's). */
static const struct { const char *cmd, *word, *kind; } own_kinds[] = {
	{ "rule", "A", "LOCKPAT" }, { "rule", "B", "LOCKPAT" },
	{ "rule", "LOCK", "LOCKPAT" }, { "lessons", "NAME", "LESSON" },
};

struct offer_ctx {
	struct cands *c;
	const char *cmd;
	int tid;
	char **words;
	int nw;
};

/* An item of the synopsis that may take the word being completed: its
 * keywords, or what its placeholders stand for. */
static void offer_item(void *ctx, const char *item, size_t len)
{
	struct offer_ctx *o = ctx;
	char k[128], one[64];
	snprintf(k, sizeof k, "%.*s", (int)len, item);
	for (char *save = NULL, *t = strtok_r(k, "|", &save); t;
	     t = strtok_r(NULL, "|", &save)) {
		snprintf(one, sizeof one, "%s", t);
		for (size_t i = 0; i < sizeof own_kinds / sizeof own_kinds[0]; i++)
			if (!strcmp(own_kinds[i].cmd, o->cmd) && !strcmp(own_kinds[i].word, one))
				snprintf(one, sizeof one, "%s", own_kinds[i].kind);
		add_kind(o->c, one, o->tid, o->words, o->nw);
	}
}

/* `expect`: from its table (cmd_check.c), what expect itself accepts: the
 * conditions (those that take 'no' after it), then what the placeholders
 * of the condition's synopsis stand for.  ARGS: the words after "expect";
 * ARGI: the index of the one being completed. */
static void complete_expect(struct cands *c, char **args, int argi, int tid,
			    char **words, int nw)
{
	bool neg = argi > 0 && !strcmp(args[0], "no");
	if (argi == neg) {
		for (int i = 0; i < expect_ncond; i++)
			if (!neg || expect_conds[i].negatable)
				add(c, expect_conds[i].name);
		if (!neg)
			add(c, "no");
		return;
	}
	const struct expect_cond *ec = expect_cond_find(args[neg]);
	if (!ec)
		return;
	char syn[128], *parts[8] = { NULL };
	int np = 0, k = argi - neg - 1;
	snprintf(syn, sizeof syn, "%s", ec->args);
	for (char *tok = strtok(syn, " "); tok && np < 8; tok = strtok(NULL, " "))
		parts[np++] = tok;
	if (!np || (k >= np && !strstr(parts[np - 1], "...")))
		return;
	const char *part = parts[k < np ? k : np - 1];
	if (part[0] >= 'a' && part[0] <= 'z')
		add(c, part);           /* a literal: skipped THREAD f_pos_lock */
	else if (strstr(part, "FILE"))
		;                       /* file#N or PROC:FD, not a host file */
	else
		add_kind(c, part, tid, words, nw);
}

/* A system call's argument ARGI, by its row's schema (core/syscalls.c):
 * descriptors, paths of the tree, processes, or the words of a choice
 * (whence, open's flags: these take every word after them). */
static void complete_call(struct cands *c, int sys, int argi, int tid,
			  char **words, int nw)
{
	const struct vfs_sysdesc *d = &vfs_sys[sys];
	int i = 0;
	while (i < d->nargs && d->args[i].kind != VA_OFLAGS && i < argi)
		i++;
	if (i >= d->nargs || (i < argi && d->args[i].kind != VA_OFLAGS))
		return;
	switch (d->args[i].kind) {
	case VA_FD:   add_kind(c, "FD", tid, words, nw); break;
	case VA_PATH: add_kind(c, "PATH", tid, words, nw); break;
	case VA_PROC: add_kind(c, "PROC", tid, words, nw); break;
	case VA_WHENCE: case VA_OFLAGS: {
		/* the lower-case words of the synopsis are this argument's */
		char syn[256];
		vfs_sys_synopsis(sys, syn, sizeof syn);
		for (char *t = strtok(syn, " |[]"); t; t = strtok(NULL, " |[]"))
			if (t[0] >= 'a' && t[0] <= 'z')
				add(c, t);
		break;
	}
	default:        /* counts, offsets, text, a new name: nothing to offer */
		break;
	}
}

char **cli_complete(const char *line, int start, int end)
{
	struct cands c = { .prefix = "" };
	char before[1024], word[256];
	(void)end;
	if (!cs || start < 0 || (size_t)start >= sizeof before)
		return NULL;
	snprintf(before, sizeof before, "%.*s", start, line);
	snprintf(word, sizeof word, "%.*s", end - start, line + start);
	c.prefix = word;
	/* the words before the one being completed */
	char *words[64];
	int nw = 0;
	for (char *tok = strtok(before, " \t"); tok && nw < 64; tok = strtok(NULL, " \t"))
		words[nw++] = tok;
	int tid = -1, first = 0;
	if (nw && words[0][strlen(words[0]) - 1] == ':') {
		char th[48];
		snprintf(th, sizeof th, "%.*s", (int)strlen(words[0]) - 1, words[0]);
		tid = vfs_thread_by_name(cs->w, th);
		first = 1;
	}
	if (nw == first) {
		/* the command word: commands (thread ones after "T:"), or "T:" */
		for (int i = 0; i < cmd_count; i++)
			if (first ? (cmd_table[i].flags & CMD_THREAD) :
			    !(cmd_table[i].flags & CMD_THREAD) || (cmd_table[i].flags & CMD_WORLD))
				add(&c, cmd_table[i].name);
		if (!first)
			add_threads(&c, ":");
		return c.v;
	}
	const struct cmd_entry *e = cmd_find(words[first]);
	if (!e)
		return NULL;
	int argi = nw - first - 1;      /* index of the argument being completed */
	if (e->sys && first) {
		complete_call(&c, e->sys, argi, tid, words, nw);
		return c.v;
	}
	if (!strcmp(e->name, "expect")) {
		complete_expect(&c, words + first + 1, argi, tid, words, nw);
		return c.v;
	}
	/* the command's schema, its synopsis (argspec.c): what may come next */
	struct offer_ctx o = { &c, e->name, tid, words, nw };
	argspec_next(e->args, words + first + 1, argi, offer_item, &o);
	return c.v;
}
