/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_define.c - `define syscall NAME PARAM...` / `define function NAME`,
 * its steps one a line, `end`: a kernel function or system call of the
 * script's own, run step by step by core/defined.c.
 *
 *	define syscall getpos FD
 *	  fdget_pos FD
 *	  read f_pos of file
 *	  fdput_pos
 *	  return f_pos
 *	end
 *	A: getpos 3
 *
 * The lines of a definition go to the session's log one by one, as typed
 * (canonically), so that `back`, `save` and `compare` make it again; a
 * definition refused is dropped from the log whole.
 */
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"
#include "vfs_thread.h"

struct define_state {
	struct vfs_kfn f;
	size_t log_at;          /* where its lines begin in the session's log */
	int line[VFS_KFN_STEPS], col[VFS_KFN_STEPS]; /* each step's line, word */
	int def_line;
	int nopen;              /* `if`s not yet ended: `end` ends the last */
	const char *file;
};

bool define_open(const struct session *s)
{
	return s->define != NULL;
}

void define_forget(struct session *s)
{
	free(s->define);
	s->define = NULL;
}

#define LOCK_WORDS "f_pos_lock (a mutex), f_lock (a spinlock), i_rwsem (a rwsem) " \
	"or d_update (a mutex of the inode's dentry)"
#define FIELD_WORDS "the file's f_pos, cursor, f_count; the inode's size, dir"

/* The definition is refused: say where, forget it and its lines. */
static int refuse(struct session *s)
{
	struct define_state *d = s->define;
	if (d && !s->replaying) {
		while (s->nlog > d->log_at) {
			struct rec *r = &s->log[--s->nlog];
			free(r->text);
		}
	}
	define_forget(s);
	return -1;
}

/* A line of the body, canonical and indented as a definition is written
 * (`save`): DEPTH levels of two spaces (the definition's `end`: none). */
static void log_line(struct session *s, struct lex *l, int depth)
{
	struct cmd_call c = { .argc = l->nwords - 1, .argv = l->words + 1 };
	size_t n = s->nlog;
	session_log_setup(s, &c, l->words[0]);
	if (s->nlog > n && depth > 0) {
		char *t = s->log[s->nlog - 1].text;
		char *u = calloc(1, strlen(t) + 2 * (size_t)depth + 1);
		if (!u) {
			s->nomem = 1;   /* the line is undone (session_exec_line) */
			return;
		}
		memset(u, ' ', 2 * (size_t)depth);
		strcpy(u + 2 * depth, t);
		free(t);
		s->log[s->nlog - 1].text = u;
	}
}

/* A value: a number, an errno name (its negative: the kernel's return),
 * a parameter, a field's name (the value last read of it), `ret`. */
static int value_word(struct session *s, const struct vfs_kfn *f, const char *w,
		      int col, struct vfs_kvalue *v)
{
	long long n;
	const char *e = w[0] == '-' ? w + 1 : w;
	if (!parse_num(w, &n)) {
		*v = (struct vfs_kvalue){ KV_CONST, n };
		return 0;
	}
	if (vfs_errno_lookup(e)) {
		*v = (struct vfs_kvalue){ KV_CONST, -vfs_errno_lookup(e) };
		return 0;
	}
	if (!strcmp(w, "ret")) {
		*v = (struct vfs_kvalue){ KV_RET, 0 };
		return 0;
	}
	if (!strcmp(w, "dead")) {      /* IS_DEADDIR, read with dir */
		*v = (struct vfs_kvalue){ KV_DEAD, 0 };
		return 0;
	}
	for (int i = 0; i < f->nparams; i++)
		if (!strcmp(f->params[i], w)) {
			*v = (struct vfs_kvalue){ KV_PARAM, i };
			return 0;
		}
	int fld = vfs_field_lookup(w);
	if (fld == FLD_F_POS || fld == FLD_CURSOR || fld == FLD_F_COUNT ||
	    fld == FLD_SIZE || fld == FLD_DIR || vfs_ufield_slot(s->w, fld) >= 0) {
		*v = (struct vfs_kvalue){ KV_FIELD, fld };
		return 0;
	}
	return cli_error_at(s, col, "define: '%s' is no value (a number, an errno "
			    "name, a parameter, a field read before: f_pos, cursor, "
			    "f_count, size, dir, one 'field' declared; ret; or dead)", w);
}

int kobj_word(const char *w)
{
	for (int k = 0; k < 2; k++)
		if (!strcmp(w, vfs_kobj_names[k]))
			return k;
	return -1;
}

static int obj_word(struct session *s, struct lex *l, int i, uint8_t *obj)
{
	if (i + 1 >= l->nwords || strcmp(l->words[i], "of"))
		return cli_error_at(s, i < l->nwords ? l->cols[i] : l->cols[i - 1],
				    "define: %s WHAT of file|inode", l->words[0]);
	int k = kobj_word(l->words[i + 1]);
	if (k >= 0) {
		*obj = (uint8_t)k;
		return 0;
	}
	return cli_error_at(s, l->cols[i + 1], "define: unknown object '%s' (file: "
			    "the file fdget found; inode: its inode)", l->words[i + 1]);
}

static int lock_word(struct session *s, struct lex *l, int i, uint8_t *lock)
{
	if (i >= l->nwords)
		return cli_error_at(s, l->cols[0], "define: %s LOCK of file|inode",
				    l->words[0]);
	for (int k = 0; k < KL__COUNT; k++)
		if (!strcmp(l->words[i], vfs_klock_names[k])) {
			*lock = (uint8_t)k;
			return 0;
		}
	return cli_unknown_at(s, l->cols[i], "define: unknown lock", l->words[i],
			      vfs_klock_names, KL__COUNT, LOCK_WORDS);
}

int field_candidates(const struct vfs_world *w, const char **all)
{
	static const char *const names[NKERNEL_FIELDS] = { "f_pos", "cursor", "f_count",
							   "size", "dir" };
	int nall = NKERNEL_FIELDS;
	memcpy(all, names, sizeof names);
	for (int k = 0; k < vfs_nufields(w); k++)
		all[nall++] = vfs_field_name(vfs_ufield_get(w, k)->fld);
	return nall;
}

static int field_word(struct session *s, struct lex *l, int i, uint8_t *field)
{
	if (i >= l->nwords)
		return cli_error_at(s, l->cols[0], "define: %s FIELD of file|inode",
				    l->words[0]);
	int fld = vfs_field_lookup(l->words[i]);
	if (fld == FLD_F_POS || fld == FLD_CURSOR || fld == FLD_F_COUNT ||
	    fld == FLD_SIZE || fld == FLD_DIR || vfs_ufield_slot(s->w, fld) >= 0) {
		*field = (uint8_t)fld;
		return 0;
	}
	const char *all[NKERNEL_FIELDS + VFS_MAX_UFIELDS];
	return cli_unknown_at(s, l->cols[i], "define: unknown field", l->words[i], all,
			      field_candidates(s->w, all), FIELD_WORDS "; or one 'field "
			      "NAME of file|inode' declares");
}

/* a lockdep nesting subclass: "parent", or the kernel's I_MUTEX_PARENT */
static int ldsub_word(const char *w)
{
	for (int k = 0; k < LDSUB__COUNT; k++) {
		const char *n = vfs_ldsub_names[k];
		if (!strcmp(w, n))
			return k;
		if (!strncmp(w, "I_MUTEX_", 8) && strlen(w + 8) == strlen(n) &&
		    !strncasecmp(w + 8, n, strlen(n)))
			return k;
	}
	return -1;
}

int cmp_word(const char *w)
{
	for (int i = KC_NONE + 1; i < KC__COUNT; i++)
		if (!strcmp(w, vfs_kcmp_names[i]))
			return i;
	return KC_NONE;
}

/* Word A of line L is the step's value a; a line of LONG words ends
 * "OP VALUE": then ARITH and its last word, value b ("+ 1", "max 8"). */
static int value_words(struct session *s, const struct vfs_kfn *f, const struct lex *l,
		       int a, int lng, uint8_t arith, struct vfs_kstep *st)
{
	if (value_word(s, f, l->words[a], l->cols[a], &st->a) < 0)
		return -1;
	if (l->nwords != lng)
		return 0;
	st->arith = arith;
	return value_word(s, f, l->words[lng - 1], l->cols[lng - 1], &st->b);
}

/* The steps a body is made of: the word, the synopsis of the line (its
 * words are checked by it, as a command's), the step. */
static const struct step_kind {
	const char *syn;
	uint8_t op;
} step_kinds[] = {
	{ "lock LOCK of OBJECT [read|write|killable | nested SUBCLASS]...", KS_LOCK },
	{ "unlock LOCK of OBJECT", KS_UNLOCK },
	{ "downgrade LOCK of OBJECT", KS_DOWNGRADE },
	{ "read FIELD of OBJECT", KS_READ },
	{ "write FIELD of OBJECT VALUE [+|- VALUE]", KS_WRITE },
	{ "call FUNCTION", KS_CALL },
	{ "fdget FD", KS_FDGET },
	{ "fdget_pos FD", KS_FDGET_POS },
	{ "fdput", KS_FDPUT },
	{ "fdput_pos", KS_FDPUT_POS },
	{ "return VALUE [if VALUE CMP VALUE]", KS_RETURN },
	{ "emit entries of inode from VALUE [max VALUE]", KS_EMIT },
	{ "upgrade LOCK of OBJECT", KS_UPGRADE },
	{ "iterate", KS_ITERATE },
	{ "if VALUE CMP VALUE", KS_IF },
	{ "else", KS_ELSE },
	{ "end", KS_ENDIF },    /* an 'if''s; the definition's is define_line's */
};
#define NSTEP_KINDS (int)(sizeof step_kinds / sizeof step_kinds[0])

/* The step kind whose word begins line L, or -1 said. */
static int step_kind(struct session *s, struct lex *l)
{
	const char *op = l->words[0];
	const char *words[NSTEP_KINDS];
	char names[NSTEP_KINDS][16], list[320];
	size_t o = 0, len = strlen(op);
	for (int k = 0; k < NSTEP_KINDS; k++) {
		const char *syn = step_kinds[k].syn;
		size_t wl = strcspn(syn, " ");
		if (wl == len && !strncmp(syn, op, len))
			return k;
		snprintf(names[k], sizeof names[k], "%.*s", (int)wl, syn);
		words[k] = names[k];
		o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", k ? ", " : "", names[k]);
	}
	snprintf(list + o, sizeof list - o, "; an end outside an if ends the definition");
	return cli_unknown_at(s, l->cols[0], "define: unknown step", op, words,
			      NSTEP_KINDS, list);
}

/* One line of the body: a step into d->f. */
static int body_step(struct session *s, struct define_state *d, struct lex *l)
{
	struct vfs_kfn *f = &d->f;
	struct vfs_kstep st = { .sub = -1 };
	int n = l->nwords;
	if (f->nsteps >= VFS_KFN_STEPS - 1)
		return cli_error_at(s, l->cols[0], "define: too many steps (at most %d)",
				    VFS_KFN_STEPS - 1);
	int k = step_kind(s, l);
	if (k < 0)
		return -1;
	/* its words: by the step's synopsis ("define: return VALUE [if VALUE
	 * CMP VALUE]" at the word that does not fit) */
	struct cmd_call line = { .argc = n, .argv = l->words, .cols = l->cols, .tid = -1 };
	if (cmd_check_words(s, "define", step_kinds[k].syn, 0, -1, "", &line) < 0)
		return -1;
	st.op = step_kinds[k].op;
	switch (st.op) {
	case KS_LOCK:
		if (lock_word(s, l, 1, &st.lock) < 0 || obj_word(s, l, 2, &st.obj) < 0)
			return -1;
		for (int i = 4; i < n; i++) {
			const char *w = l->words[i];
			int mode = M_READ;      /* read|write: the modes' own names */
			while (mode <= M_WRITE && strcmp(w, vfs_mode_name(mode)))
				mode++;
			if (mode <= M_WRITE) {
				st.mode = (uint8_t)mode;
				if (st.lock != KL_I_RWSEM)
					return cli_error_at(s, l->cols[i], "define: %s is no "
							    "rwsem: no %s mode",
							    vfs_klock_names[st.lock], w);
			} else if (!strcmp(w, "killable")) {
				st.killable = 1;
			} else {        /* nested SUBCLASS */
				int sub = ldsub_word(l->words[i + 1]);
				if (sub < 0)
					return cli_error_at(s, l->cols[i + 1], "define: '%s' is "
							    "no nesting subclass (normal, parent, "
							    "child, xattr, nondir2, parent2; or "
							    "I_MUTEX_PARENT...)", l->words[i + 1]);
				if (st.lock != KL_I_RWSEM)
					return cli_error_at(s, l->cols[i], "define: only an "
							    "i_rwsem is taken nested");
				st.sub = (int8_t)sub;
				i++;
			}
		}
		if (st.lock == KL_I_RWSEM && !st.mode)
			st.mode = M_WRITE;
		if (st.lock != KL_I_RWSEM)
			st.mode = M_EXCL;
		break;
	case KS_UNLOCK:
	case KS_DOWNGRADE:
	case KS_UPGRADE:
		if (lock_word(s, l, 1, &st.lock) < 0 || obj_word(s, l, 2, &st.obj) < 0)
			return -1;
		break;
	case KS_READ:
	case KS_WRITE:
		if (field_word(s, l, 1, &st.field) < 0 || obj_word(s, l, 2, &st.obj) < 0)
			return -1;
		if (st.op == KS_WRITE &&
		    value_words(s, f, l, 4, 7, (uint8_t)l->words[n - 2][0], &st) < 0)
			return -1;
		break;
	case KS_EMIT:
		st.obj = KO_INODE;
		if (value_words(s, f, l, 5, 8, 'm', &st) < 0)
			return -1;
		break;
	case KS_CALL: {
		int k = vfs_kfn_lookup(s->w, l->words[1]);
		if (k < 0 && !strcmp(l->words[1], f->name))
			k = vfs_nkfns(s->w);    /* itself: core refuses the cycle */
		if (k < 0) {
			int fn = vfs_fn_lookup(l->words[1]);
			if (fn != VFN_none && fn < VFN__COUNT)
				return cli_error_at(s, l->cols[1], "define: %s is built in: "
						    "a step calls fdget, fdget_pos, fdput, "
						    "fdput_pos or a function defined before",
						    l->words[1]);
			return cli_error_at(s, l->cols[1], "define: unknown function '%s' "
					    "(a function defined before this one)",
					    l->words[1]);
		}
		st.callee = (uint8_t)k;
		break;
	}
	case KS_FDGET:
	case KS_FDGET_POS:
		if (value_word(s, f, l->words[1], l->cols[1], &st.a) < 0)
			return -1;
		break;
	case KS_IF:             /* if VALUE CMP VALUE ... [else ...] end */
		if (!(st.cmp = (uint8_t)cmp_word(l->words[2])))
			return cli_error_at(s, l->cols[2], "define: if VALUE CMP VALUE "
					    "(CMP: < <= > >= == !=)");
		if (value_word(s, f, l->words[1], l->cols[1], &st.ca) < 0 ||
		    value_word(s, f, l->words[3], l->cols[3], &st.cb) < 0)
			return -1;
		d->nopen++;
		break;
	case KS_ELSE:
		break;
	case KS_ENDIF:          /* (the definition's own 'end': define_line) */
		d->nopen--;
		break;
	case KS_RETURN:
		if (value_word(s, f, l->words[1], l->cols[1], &st.a) < 0)
			return -1;
		if (n == 6) {
			st.cmp = (uint8_t)cmp_word(l->words[4]);
			if (!st.cmp)
				return cli_error_at(s, l->cols[4], "define: return VALUE if "
						    "VALUE CMP VALUE (CMP: < <= > >= == !=)");
			if (value_word(s, f, l->words[3], l->cols[3], &st.ca) < 0 ||
			    value_word(s, f, l->words[5], l->cols[5], &st.cb) < 0)
				return -1;
		}
		break;
	default:        /* fdput, fdput_pos: what fdget took */
		break;
	}
	d->line[f->nsteps] = s->line;
	d->col[f->nsteps] = l->cols[0];
	f->step[f->nsteps++] = st;
	return 0;
}

/* The names of the definitions' steps ran out (VFS_KFN_POINTS): said
 * once, when the first step goes without one, as lockdep says its tables
 * are too small ("MAX_LOCKDEP_ENTRIES too low!"): a name, not a verdict. */
static void names_full(struct session *s, const char *fn, int unnamed)
{
	if (s->replaying || s->remaking || s->watch)
		return;         /* (said when the line first ran) */
	cli_warning(s, "define %s: VFS_KFN_POINTS too low! the %d names of defined "
	     "steps are used: %d of %s's steps, and every step defined after, "
	     "are named defined_step:step in traces and 'where' (names only: "
	     "what they do, reports and verdicts are the same)", fn,
	     VFS_KFN_POINTS, unnamed, fn);
}

static int finish(struct session *s, struct define_state *d)
{
	char err[256];
	int bad;
	int unnamed = vfs_kfn_unnamed(s->w);
	int k = vfs_kfn_define(s->w, &d->f, &bad, err, sizeof err);
	if (k >= 0) {
		if (s->interactive && !s->quiet && !s->replaying)
			out(s, "%s %s defined (%d steps)\n", d->f.syscall ? "system call" :
			    "function", d->f.name, vfs_kfn_get(s->w, k)->nsteps);
		if (!unnamed && vfs_kfn_unnamed(s->w))
			names_full(s, d->f.name, vfs_kfn_unnamed(s->w));
		define_forget(s);
		return 0;
	}
	if (bad >= 0 && bad < d->f.nsteps)
		cli_error_on(s, d->line[bad], d->col[bad], "define %s: %s", d->f.name, err);
	else if (bad >= 0)              /* the implicit return at the end */
		cli_error_on(s, 0, 1, "define %s: at its end: %s", d->f.name, err);
	else
		cli_error_on(s, d->def_line, 0, "define %s: %s", d->f.name, err);
	return refuse(s);
}

int define_line(struct session *s, struct lex *l, const char *line)
{
	struct define_state *d = s->define;
	(void)line;
	if (l->thread[0])
		return cli_error(s, "define: a thread's call inside a definition "
				 "(end it first with 'end')"), refuse(s);
	bool end = !strcmp(l->words[0], "end");
	bool dedent = end || !strcmp(l->words[0], "else");
	log_line(s, l, end && !d->nopen ? 0 : 1 + d->nopen - dedent);
	if (end && l->nwords > 1)
		return cli_error_at(s, l->cols[1], "define: 'end' takes nothing"),
		       refuse(s);
	if (end && !d->nopen)
		return finish(s, d);
	if (!strcmp(l->words[0], "define"))
		return cli_error_at(s, l->cols[0], "define: %s is not ended ('end' "
				    "before the next definition)", d->f.name), refuse(s);
	if (body_step(s, d, l) < 0)
		return refuse(s);
	return 0;
}

/* sparse's annotations that end a function's line, by the span they make
 * (enum vfs_kspan): c_define reads them, define_lines writes them back;
 * __must_hold is followed by (LOCK). */
static const char *const kspan_words[] = {
	[KSPAN_ACQUIRES] = "__acquires", [KSPAN_RELEASES] = "__releases",
	[KSPAN_HOLDS] = "__must_hold",
};
#define NKSPAN_WORDS (int)(sizeof kspan_words / sizeof kspan_words[0])

/* The span the annotation W says, or KSPAN_NONE: W is a parameter. */
static int kspan_word(const char *w)
{
	for (int k = KSPAN_NONE + 1; k < NKSPAN_WORDS; k++) {
		size_t n = strlen(kspan_words[k]);
		if (!strncmp(w, kspan_words[k], n) && (!w[n] || k == KSPAN_HOLDS))
			return k;
	}
	return KSPAN_NONE;
}

/* F as the lines that define it again, each given to LINE. */
static void define_lines(struct session *s, const struct vfs_kfn *f,
			 void (*line)(struct session *s, const char *text))
{
	char t[192];
	size_t o = (size_t)snprintf(t, sizeof t, "define %s %s",
				    f->syscall ? "syscall" : "function", f->name);
	for (int p = 0; p < f->nparams && o < sizeof t; p++)
		o += (size_t)snprintf(t + o, sizeof t - o, " %s", f->params[p]);
	if (f->span == KSPAN_HOLDS && o < sizeof t)
		snprintf(t + o, sizeof t - o, " %s(%s)", kspan_words[f->span],
			 vfs_klock_names[f->spanl[0].lock]);
	else if (f->span && o < sizeof t)
		snprintf(t + o, sizeof t - o, " %s", kspan_words[f->span]);
	line(s, t);
	for (int k = 0, depth = 1; k < f->nsteps; k++) {
		int op = f->step[k].op, in = depth - (op == KS_ELSE || op == KS_ENDIF);
		memset(t, ' ', 2 * (size_t)in);
		vfs_kstep_text(s->w, f, &f->step[k], t + 2 * in, sizeof t - 2 * (size_t)in);
		line(s, t);
		depth += (op == KS_IF) - (op == KS_ENDIF);
	}
	line(s, "end");
}

static void print_line(struct session *s, const char *text)
{
	out(s, "%s\n", text);
}

static void exec_line(struct session *s, const char *text)
{
	session_exec_line(s, text);
}

void define_again(struct session *s, const struct vfs_world *from)
{
	for (int i = 0; i < vfs_nkfns(from); i++)
		define_lines(s, vfs_kfn_get(from, i), exec_line);
}

const char c_define_help[] =
	"  define syscall getpos FD\n"
	"    fdget FD                   # the file FD names (EBADF: none)\n"
	"    lock f_pos_lock of file    # mutex_lock\n"
	"    read f_pos of file\n"
	"    unlock f_pos_lock of file\n"
	"    fdput\n"
	"    return f_pos\n"
	"  end\n"
	"  A: getpos 3\n"
	"Each line is one atomic step, traced in the definition's name; the race\n"
	"detector, lockdep, the rules and explore see its accesses as the kernel's.\n"
	"Steps: lock LOCK of OBJ [read|write] [killable] [nested SUBCLASS];\n"
	"unlock LOCK of OBJ; downgrade i_rwsem of inode; read FIELD of OBJ;\n"
	"write FIELD of OBJ VALUE [+|- VALUE]; fdget FD; fdget_pos FD (the f_pos\n"
	"lock when file_needs_f_pos_lock says so); fdput; fdput_pos; emit entries\n"
	"of inode from VALUE [max VALUE] (ret: the offset after); call FUNCTION\n"
	"(one defined before, 'define function NAME'); return VALUE [if VALUE CMP\n"
	"VALUE]; if VALUE CMP VALUE, its steps, [else, its steps,] end (no step\n"
	"of its own; each way must leave the same locks held); upgrade i_rwsem\n"
	"of inode (inode_upgrade_trylock: ret 1 held for writing now, 0 not);\n"
	"iterate (the legacy ->iterate, in wrap_directory_iterator's place).\n"
	"LOCK: f_pos_lock (mutex), f_lock (spinlock), i_rwsem (rwsem; the\n"
	"era's i_mutex before v4.7), d_update (the inode's dentry's mutex). OBJ:\n"
	"file, inode. FIELD: the file's f_pos,\n"
	"cursor, f_count; the inode's size, dir (its entries). VALUE: a number, an\n"
	"errno name (EBADF: -9), a parameter, a field read before, ret (what the\n"
	"last call returned), dead (IS_DEADDIR, read with dir). After a\n"
	"function's parameters, as sparse says it: __acquires (returns holding\n"
	"locks), __releases (releases its caller's), __must_hold(LOCK) (entered\n"
	"holding LOCK, returns so): see 'help hook'. Refused at 'end': an unknown lock or field, a lock\n"
	"still held or an fdget not put at a return, an unlock of a lock not held,\n"
	"a cycle of calls. 'define' lists the definitions; 'reset', 'kernel',\n"
	"'back', 'compare', 'explore' and 'save' keep them.";

HANDLER(c_define)
{
	if (!c->argc) {
		if (!vfs_nkfns(s->w))
			out(s, "nothing defined ('define syscall NAME PARAM...', then "
			    "its steps, then 'end')\n");
		for (int i = 0; i < vfs_nkfns(s->w); i++)
			define_lines(s, vfs_kfn_get(s->w, i), print_line);
		return 0;
	}
	bool sys = !strcmp(c->argv[0], "syscall");
	if (!sys && strcmp(c->argv[0], "function"))
		return cli_error_at(s, c->cols[0], "define: syscall NAME PARAM... or "
				    "function NAME, not '%s'", c->argv[0]);
	/* NAME after the keyword (the synopsis) */
	const char *name = c->argv[1];
	if (!vfs_valid_name(name) || strlen(name) >= VFS_KFN_NAME_MAX)
		return cli_error_at(s, c->cols[1], "define: '%s' is no name "
				    "([A-Za-z][A-Za-z0-9_]*, at most %d characters)", name,
				    VFS_KFN_NAME_MAX - 1);
	if (cmd_find(name))
		return cli_error_at(s, c->cols[1], "define: %s is a command already",
				    name);
	/* (a function's parameters name the arguments of the system call it
	 * runs in: lseek's FD OFFSET WHENCE for 'hook vfs_llseek') */
	/* sparse's annotations, last: a function that returns holding
	 * locks, or releases its caller's (a hook pair's halves) */
	int argc = c->argc, held = -1;
	const char *last = c->argv[argc - 1];
	int span = argc > 2 ? kspan_word(last) : KSPAN_NONE;
	if (span != KSPAN_NONE) {
		if (sys)
			return cli_error_at(s, c->cols[argc - 1], "define: a system "
					    "call returns holding nothing: only a "
					    "function is %s", last);
		for (int k = 0; span == KSPAN_HOLDS && k < KL__COUNT; k++) {
			char want[40];
			snprintf(want, sizeof want, "%s(%s)", kspan_words[KSPAN_HOLDS],
				 vfs_klock_names[k]);
			if (!strcmp(last, want))
				held = k;
		}
		if (span == KSPAN_HOLDS && held < 0)
			return cli_error_at(s, c->cols[argc - 1], "define: "
					    "__must_hold(LOCK), LOCK one of " LOCK_WORDS
					    ", not '%s'", last);
		argc--;
	}
	if (argc - 2 > VFS_SYS_MAXARGS)
		return cli_error_at(s, c->cols[2 + VFS_SYS_MAXARGS],
				    "define: at most %d parameters", VFS_SYS_MAXARGS);
	struct define_state *d = calloc(1, sizeof *d);
	if (!d)
		return cli_errno(s, "define", NULL, -VE_NOMEM);
	snprintf(d->f.name, sizeof d->f.name, "%s", name);
	d->f.syscall = sys;
	d->f.span = (uint8_t)span;
	if (held >= 0)
		d->f.spanl[0].lock = (uint8_t)held;
	d->f.nparams = (uint8_t)(argc - 2);
	for (int i = 2; i < argc; i++) {
		if (!vfs_valid_name(c->argv[i]) || strlen(c->argv[i]) >= VFS_KFN_PARAM_MAX) {
			free(d);
			return cli_error_at(s, c->cols[i], "define: '%s' is no parameter "
					    "name (at most %d characters)", c->argv[i],
					    VFS_KFN_PARAM_MAX - 1);
		}
		snprintf(d->f.params[i - 2], VFS_KFN_PARAM_MAX, "%s", c->argv[i]);
	}
	d->log_at = s->nlog;
	d->def_line = s->line;
	s->define = d;
	session_log_setup(s, c, "define");
	return 0;
}

int define_call_line(struct session *s, struct lex *l)
{
	int k = vfs_kfn_lookup(s->w, l->words[0]);
	const struct vfs_kfn *f = vfs_kfn_get(s->w, k);
	struct cmd_call c = { .argc = l->nwords - 1, .argv = l->words + 1,
		.cols = l->cols + 1, .tid = -1, .thread = l->thread,
		.background = l->background };
	if (!f->syscall)
		return cli_error(s, "%s is a function the script defined: a step "
				 "calls it ('call %s'), a thread calls a system call",
				 f->name, f->name);
	if (!l->thread[0])
		return cli_error(s, "'%s' needs a thread: THREAD: %s", f->name, f->name);
	if (resolve_thread(s, l->thread, &c.tid) < 0)
		return -1;
	char th[32], err[256];
	vfs_thread_name(s->w, c.tid, th, sizeof th);
	if (vfs_thread_state(s->w, c.tid) == TS_DEAD)
		return cli_error(s, "%s has exited", th);
	struct vfs_call call;
	if (vfs_kfn_call_parse(s->w, k, c.argc, c.argv, &call, err, sizeof err) < 0)
		return cli_error(s, "%s", err);
	return thread_run_call(s, &c, &call);
}
