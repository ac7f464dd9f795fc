/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * complete.c - Tab completion, from the command table: a row's completer
 * (`.complete`: expect's conditions, a system call's row), or its synopsis
 * (the argument schema, walked by argspec.c): a placeholder word (PATH, FD, PROC, THREAD,
 * PRESET, KNOB, VALUE, FUNC, FSTYPE, COMMAND, LOCK, MODE, FIELD) says what
 * to offer, and a|b|c offers those words.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "lex.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"
#include "vfs_file.h"
#include "vfs_inode.h"
#include "vfs_thread.h"

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
	for (int i = 0; i < vfs_world_nthreads(cs->w); i++) {
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
	if (ino < 0 || vfs_inode_type(cs->w, ino) != IT_DIR)
		return;
	for (int ch = vfs_dentry_first_child(cs->w, ino); ch >= 0;
	     ch = vfs_dentry_next_sibling(cs->w, ch)) {
		snprintf(buf, sizeof buf, "%.*s%s%s", (int)(slash - p) + 1, p,
			 vfs_dentry_name(cs->w, ch),
			 vfs_inode_type(cs->w, ch) == IT_DIR ? "/" : "");
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
	int nfds = 0, shared, t = vfs_proc_fdtable(w, vfs_thread_proc(w, tid), &nfds, &shared);
	if (t < 0)
		return;
	char buf[16];
	for (int fd = 3; fd < nfds; fd++) {
		int v = vfs_fd_slot(w, t, fd, NULL);
		if (v != VFD_FREE && v != VFD_RESERVED) {
			snprintf(buf, sizeof buf, "%d", fd);
			add(c, buf);
		}
	}
}

/* What a placeholder offers: the names of a list (NAME(i), NULL after
 * the last), or what a function finds (paths, descriptors, threads...). */
struct want {
	int tid;                /* the thread of "T: ...", or -1 */
	char **words;           /* the words typed before */
	int nw;
};

static const char *n_proc(int i) { return i < vfs_world_nprocs(cs->w) ? vfs_proc_name(cs->w, i) : NULL; }
static const char *n_func(int i) { return i + 1 < VFN__COUNT ? vfs_fn_name(i + 1) : NULL; }
static const char *n_fstype(int i)      /* the script's own types too */
{
	return i < vfs_world_nfstypes(cs->w) ? vfs_world_fstype(cs->w, i)->name : NULL;
}
static const char *n_command(int i) { return i < cmd_count ? cmd_table[i].name : NULL; }
static const char *n_lock(int i)
{
	return LC_NONE + 1 + i < LC__COUNT ? vfs_class_name(LC_NONE + 1 + i) : NULL;
}
static const char *n_concept(int i) { return i < nconcepts ? concepts[i].name : NULL; }
static const char *n_mode(int i) { return M_EXCL + i <= M_WRITE ? vfs_mode_name(M_EXCL + i) : NULL; }
static const char *n_field(int i)     /* the kernel's, then the declared ones */
{
	if (FLD_NONE + 1 + i < FLD__COUNT)
		return vfs_field_name(FLD_NONE + 1 + i);
	i -= FLD__COUNT - 1;
	return i < vfs_nufields(cs->w) ? vfs_field_name(vfs_ufield_get(cs->w, i)->fld) : NULL;
}
static const char *n_cmp(int i) { return KC_NONE + 1 + i < KC__COUNT ? vfs_kcmp_names[KC_NONE + 1 + i] : NULL; }
static const char *n_uid(int i) { return i == 0 ? "uid=0" : i == 1 ? "uid=1000" : NULL; }
static const char *n_option(int i) { return i ? NULL : "dirstat"; }     /* mount's */
/* explore replay's WHAT: K, a detector kind or a TOKEN; the kinds */
static const char *n_kind(int i) { return i < DK__COUNT ? vfs_kind_name(i) : NULL; }

static void w_paths(struct cands *c, const struct want *w) { (void)w; add_paths(c); }
static void w_fds(struct cands *c, const struct want *w) { add_fds(c, w->tid); }
static void w_threads(struct cands *c, const struct want *w) { (void)w; add_threads(c, ""); }
static void w_files(struct cands *c, const struct want *w) { (void)w; add_host_files(c); }
/* a knob's values, after the knob */
static void w_values(struct cands *c, const struct want *w)
{
	const struct vfs_knob_desc *d = w->nw >= 2 ? vfs_knob_lookup(w->words[w->nw - 1]) : NULL;
	for (int i = 0; d && d->values[i]; i++)
		add(c, d->values[i]);
}
static void w_lessons(struct cands *c, const struct want *w)
{
	char names[100][128];
	int n = lessons_names(names, 100);
	(void)w;
	for (int i = 0; i < n; i++)
		add(c, names[i]);
}

/* Each placeholder of the synopses (and of expect's conditions); one
 * without a row (NAME, N, TEXT...) is a new word: nothing to offer. */
static const struct placeholder {
	const char *word;
	const char *(*name)(int i);
	void (*find)(struct cands *c, const struct want *w);
} placeholders[] = {
	{ "PATH", NULL, w_paths }, { "OLD", NULL, w_paths }, { "NEW", NULL, w_paths },
	{ "FD", NULL, w_fds }, { "PIDFD", NULL, w_fds }, { "THREAD", NULL, w_threads },
	{ "FILE", NULL, w_files }, { "VALUE", NULL, w_values }, { "LESSON", NULL, w_lessons },
	{ "OBJECT", NULL, w_paths }, { "CMP", n_cmp, NULL },
	{ "PROC", n_proc, NULL }, { "PRESET", cli_preset_name, NULL }, { "KNOB", cli_knob_name, NULL },
	{ "FUNC", n_func, NULL }, { "FSTYPE", n_fstype, NULL }, { "COMMAND", n_command, NULL },
	{ "CONCEPT", n_concept, NULL }, { "LOCK", n_lock, NULL }, { "MODE", n_mode, NULL },
	{ "FIELD", n_field, NULL }, { "LOCKPAT", vfs_lockpat_name, NULL },
	{ "uid=N", n_uid, NULL }, { "OPTION", n_option, NULL }, { "WHAT", n_kind, NULL },
};

/* Offer what the synopsis word `kind` stands for: a keyword itself, each
 * of a|b|c, a placeholder's candidates. */
static void add_kind(struct cands *c, const char *kind, int tid, char **words, int nw)
{
	char k[64];
	size_t j = 0;
	for (const char *p = kind; *p && j < sizeof k - 1; p++)
		if (*p != '[' && *p != ']' && *p != '.')
			k[j++] = *p;
	k[j] = 0;
	if (strchr(k, '|')) {
		for (char *save = NULL, *t = strtok_r(k, "|", &save); t;
		     t = strtok_r(NULL, "|", &save))
			add_kind(c, t, tid, words, nw);
		return;
	}
	if (k[0] >= 'a' && k[0] <= 'z' && !strchr(k, '=')) {
		add(c, k);              /* a keyword: itself */
		return;
	}
	const struct want w = { tid, words, nw };
	for (size_t i = 0; i < sizeof placeholders / sizeof placeholders[0]; i++) {
		const struct placeholder *ph = &placeholders[i];
		if (strcmp(ph->word, k))
			continue;
		if (ph->find)
			ph->find(c, &w);
		for (int n = 0; ph->name && ph->name(n); n++)
			add(c, ph->name(n));
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

/* An item of a condition's synopsis: as a command's, but its FILE is
 * file#N or PROC:FD, not a host file. */
static void offer_cond(void *ctx, const char *item, size_t len)
{
	if (!(len == 4 && !strncmp(item, "FILE", 4)))
		offer_item(ctx, item, len);
}

/* A command's arguments by its synopsis (argspec.c): what may come next. */
void complete_schema(const struct complete_at *at)
{
	struct offer_ctx o = { at->c, at->e->name, at->tid, at->words, at->nw };
	argspec_next(at->e->args, at->args, at->argi, offer_item, &o);
}

/* `expect`: from its table (cmd_check.c), what expect itself accepts: the
 * conditions (those that take 'no' after it), then what the placeholders
 * of the condition's synopsis stand for. */
void complete_expect(const struct complete_at *at)
{
	struct cands *c = at->c;
	char **args = at->args;
	int argi = at->argi;
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
	/* the condition's synopsis, walked as a command's is (argspec.c) */
	struct offer_ctx o = { c, "expect", at->tid, at->words, at->nw };
	argspec_next(expect_cond_args(ec, neg), args + neg + 1, argi - neg - 1,
		     offer_cond, &o);
}

/* A system call's argument, by its row's schema (core/syscalls.c), when a
 * thread makes it ("T: "; mkdir without one is set-up: its synopsis):
 * descriptors, paths of the tree, processes, or the words of a choice
 * (whence, open's flags: these take every word after them). */
void complete_call(const struct complete_at *at)
{
	if (!at->threaded) {
		complete_schema(at);
		return;
	}
	struct cands *c = at->c;
	int sys = at->e->sys, argi = at->argi, tid = at->tid;
	const struct vfs_sysdesc *d = &vfs_sys[sys];
	int i = 0;
	while (i < d->nargs && d->args[i].kind != VA_OFLAGS && i < argi)
		i++;
	if (i >= d->nargs || (i < argi && d->args[i].kind != VA_OFLAGS))
		return;
	switch (d->args[i].kind) {
	case VA_FD:   add_kind(c, "FD", tid, at->words, at->nw); break;
	case VA_PATH: add_kind(c, "PATH", tid, at->words, at->nw); break;
	case VA_PROC: add_kind(c, "PROC", tid, at->words, at->nw); break;
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
	/* the row's completer (expect's, a system call's), or its synopsis */
	const struct complete_at at = { &c, e, words + first + 1, nw - first - 1,
					tid, first, words, nw };
	(e->complete ? e->complete : complete_schema)(&at);
	return c.v;
}
