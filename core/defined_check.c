/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * defined_check.c - a kernel function or system call the script defines
 * (`define syscall NAME PARAM...` ... `end`, cli/cmd_define.c) as data:
 * its name's kernel function id, the checks that refuse a definition the
 * kernel's reviewers would refuse (vfs_kfn_define), and its words (a call
 * of it as typed and as strace shows it, a step as the line that defines
 * it).  core/defined.c runs it, one step per scheduler step.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include "internal.h"

_Static_assert(sizeof ((struct vfs_frame *)0)->kfn.kstack /
	       sizeof ((struct vfs_frame *)0)->kfn.kstack[0] == VFS_KFN_DEPTH,
	       "the frame nests VFS_KFN_DEPTH defined functions");
_Static_assert(VFS_KFN_STEPS <= 255 && VFS_MAX_KFNS <= 255, "uint8_t indices");

const char *const vfs_kcmp_names[KC__COUNT] = { "", "<", "<=", ">", ">=", "==", "!=" };
const char *const vfs_klock_names[KL__COUNT] = { "f_pos_lock", "f_lock", "i_rwsem",
						 "d_update" };
const char *const vfs_kobj_names[2] = { "file", "inode" };

/* ---- names: one kernel function id per defined name, process-wide ----
 * Events carry a function as a byte (struct vfs_event.fn), so a defined
 * function gets an id after the built-in ones; the same name gets the same
 * id in every world (worlds of one session, explore's copies, `compare`'s
 * replays), and the table only grows. */
#define KFN_NAMES 64
_Static_assert(VFN__COUNT + KFN_NAMES <= 255, "a function id is a uint8_t");
static char kfn_names_v[KFN_NAMES][VFS_KFN_NAME_MAX];
static struct name_tab kfn_names = { 0, KFN_NAMES, VFN__COUNT, kfn_names_v };
static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;

int name_tab_intern(struct name_tab *t, const char *name)
{
	int id = -1;
	if (strlen(name) >= VFS_KFN_NAME_MAX)
		return -1;
	pthread_mutex_lock(&names_lock);
	int n = t->n;
	for (int i = 0; i < n && id < 0; i++)
		if (!strcmp(t->v[i], name))
			id = t->base + i;
	if (id < 0 && n < t->max) {
		strcpy(t->v[n], name);
		__atomic_store_n(&t->n, n + 1, __ATOMIC_RELEASE);
		id = t->base + n;
	}
	pthread_mutex_unlock(&names_lock);
	return id;
}

const char *name_tab_name(const struct name_tab *t, int id)
{
	int i = id - t->base;
	return i >= 0 && i < __atomic_load_n(&t->n, __ATOMIC_ACQUIRE) ? t->v[i] : "?";
}

int name_tab_find(const struct name_tab *t, const char *name)
{
	int n = __atomic_load_n(&t->n, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++)
		if (!strcmp(t->v[i], name))
			return t->base + i;
	return -1;
}

int vfs_fn_intern(const char *name)
{
	int id = name_tab_intern(&kfn_names, name);
	return id < 0 ? VFN_none : id;
}

/* (trace.c's vfs_fn_name and vfs_fn_lookup, past the built-in names) */
const char *kfn_name(int fn)
{
	return name_tab_name(&kfn_names, fn);
}

int kfn_name_lookup(const char *name)
{
	int id = name_tab_find(&kfn_names, name);
	return id < 0 ? VFN_none : id;
}

/* ---- the world's definitions ---- */

int vfs_nkfns(const struct vfs_world *w)
{
	return w->kdefs ? w->kdefs->nkfns : 0;
}

const struct vfs_kfn *vfs_kfn_get(const struct vfs_world *w, int i)
{
	return i >= 0 && i < vfs_nkfns(w) ? &w->kdefs->kfns[i] : NULL;
}

int vfs_kfn_lookup(const struct vfs_world *w, const char *name)
{
	for (int i = 0; i < vfs_nkfns(w); i++)
		if (!strcmp(w->kdefs->kfns[i].name, name))
			return i;
	return -1;
}

int vfs_call_fn(const struct vfs_world *w, const struct vfs_call *c)
{
	if (c->sys == SYS_DEFINED) {
		const struct vfs_kfn *k = vfs_kfn_get(w, c->def);
		return k ? k->fn : VFN_none;
	}
	return vfs_sys[c->sys < SYS__COUNT ? c->sys : SYS_NONE].fn;
}

/* ---- checking a definition: what the kernel's reviewers would refuse ---- */

static bool field_of(const struct vfs_world *w, int obj, int field)
{
	int slot = vfs_ufield_slot(w, field);
	if (slot >= 0)          /* a field the script declared */
		return w->kdefs->ufields[slot].obj == obj;
	if (obj == KO_FILE)
		return field == FLD_F_POS || field == FLD_CURSOR || field == FLD_F_COUNT;
	return field == FLD_SIZE || field == FLD_DIR;
}

/* f_count moves only with fget/fput; the entries only with the tree's calls */
static bool field_writable(int field)
{
	return field == FLD_F_POS || field == FLD_CURSOR || field == FLD_SIZE ||
	       field >= FLD__COUNT;
}

static int fail(int *bad, int step, char *err, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int fail(int *bad, int step, char *err, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, n, fmt, ap);
	va_end(ap);
	*bad = step;
	return -1;
}

/* The deepest nesting of defined functions a call of F makes (F itself 1). */
static int call_depth(const struct vfs_kdefs *kd, const struct vfs_kfn *f, int self,
		      const struct vfs_kfn *newf, int guard)
{
	int best = 1;
	if (guard > VFS_MAX_KFNS + 1)
		return 1000;    /* a cycle (refused before this is asked) */
	for (int i = 0; i < f->nsteps; i++) {
		if (f->step[i].op != KS_CALL)
			continue;
		int c = f->step[i].callee;
		const struct vfs_kfn *g = c == self ? newf : &kd->kfns[c];
		int d = 1 + call_depth(kd, g, self, newf, guard + 1);
		if (d > best)
			best = d;
	}
	return best;
}

/* Whether F's calls reach function TARGET (the one being defined, SELF). */
static bool reaches(const struct vfs_kdefs *kd, const struct vfs_kfn *f, int self,
		    const struct vfs_kfn *newf, int target, int guard)
{
	if (guard > VFS_MAX_KFNS + 1)
		return true;
	for (int i = 0; i < f->nsteps; i++) {
		if (f->step[i].op != KS_CALL)
			continue;
		int c = f->step[i].callee;
		if (c == target)
			return true;
		if (reaches(kd, c == self ? newf : &kd->kfns[c], self, newf, target,
			    guard + 1))
			return true;
	}
	return false;
}

struct held_lock { uint8_t lock, obj, mode; int step; };
struct path_state {
	struct held_lock held[VFS_KFN_STEPS];
	/* an __releases function's unlocks of locks its caller holds */
	struct held_lock rel[VFS_KFN_SPAN];
	int nheld, nrel, got, got_step; /* got: KS_FDGET or KS_FDGET_POS */
	bool have_file;                 /* a function works on its caller's file */
	bool dead;                      /* after an unconditional return */
};

static const char *lock_what(const struct held_lock *h, char *buf, size_t n)
{
	snprintf(buf, n, "%s of %s", vfs_klock_names[h->lock], vfs_kobj_names[h->obj]);
	return buf;
}

static bool value_ok(const struct vfs_world *w, const struct vfs_kfn *f,
		     const struct vfs_kvalue *v)
{
	switch (v->kind) {
	case KV_CONST: case KV_RET: case KV_DEAD: return true;
	case KV_PARAM: return v->v >= 0 && v->v < f->nparams;
	case KV_FIELD: return (v->v > FLD_NONE && v->v < FLD__COUNT) ||
			      vfs_ufield_slot(w, (int)v->v) >= 0;
	default: return false;
	}
}

/* How two ways through an `if` differ where they meet (NULL: not): the
 * locks held, the reference fdget took. */
static const char *path_differs(const struct path_state *x,
				const struct path_state *y, char *buf, size_t n)
{
	if (x->got != y->got)
		return "an fdget put on one and not on the other";
	if (x->nrel != y->nrel)
		return "a lock the caller holds released on one and not on the other";
	for (int k = 0; k < x->nheld || k < y->nheld; k++) {
		const struct path_state *more = x->nheld > y->nheld ? x : y;
		if (k >= x->nheld || k >= y->nheld || x->held[k].lock != y->held[k].lock ||
		    x->held[k].obj != y->held[k].obj || x->held[k].mode != y->held[k].mode) {
			char what[48];
			snprintf(buf, n, "%s held on one and not on the other",
				 lock_what(&more->held[k < more->nheld ? k : 0], what,
					   sizeof what));
			return buf;
		}
	}
	return NULL;
}

static bool span_has(const struct held_lock *v, int n, const struct held_lock *h)
{
	for (int i = 0; i < n; i++)
		if (v[i].lock == h->lock && v[i].obj == h->obj)
			return true;
	return false;
}

/* A return of an __acquires function (the locks it holds there) or an
 * __releases one (those of its caller it released): the same at every
 * return, the first saying what (F's spanl). */
static int span_return(struct vfs_kfn *f, const struct path_state *ps, int *nret,
		       int i, int *bad, char *err, size_t nerr)
{
	bool acq = f->span == KSPAN_ACQUIRES;
	const struct held_lock *v = acq ? ps->held : ps->rel;
	if (f->span == KSPAN_HOLDS) {
		const struct held_lock *h = ps->held;
		bool l = f->spanl[0].lock == KL_I_RWSEM;
		if (ps->nheld != 1 || h->lock != f->spanl[0].lock ||
		    h->mode != (l ? M_READ : M_EXCL))
			return fail(bad, i, err, nerr, "unbalanced lock and unlock: a "
				    "__must_hold(%s) function returns holding %s of %s "
				    "as it got it%s, and no other lock",
				    vfs_klock_names[f->spanl[0].lock],
				    vfs_klock_names[f->spanl[0].lock],
				    vfs_kobj_names[f->spanl[0].obj], l ? " (for reading)" : "");
		return 0;
	}
	int n = acq ? ps->nheld : ps->nrel;
	char a[64];
	if (!acq && ps->nheld)
		return fail(bad, i, err, nerr, "unbalanced lock and unlock: %s (taken "
			    "at step %d) is still held at return",
			    lock_what(&ps->held[ps->nheld - 1], a, sizeof a),
			    ps->held[ps->nheld - 1].step + 1);
	if (n > VFS_KFN_SPAN)
		return fail(bad, i, err, nerr, "at most %d locks held at return",
			    VFS_KFN_SPAN);
	bool first = !(*nret)++, same = first || n == f->nspan;
	for (int k = 0; !first && same && k < n; k++) {
		bool in = false;
		for (int j = 0; j < f->nspan; j++)
			in |= f->spanl[j].lock == v[k].lock && f->spanl[j].obj == v[k].obj;
		same = in;
	}
	if (!same)
		return fail(bad, i, err, nerr, "unbalanced lock and unlock: every "
			    "return of an %s function %s the same locks",
			    acq ? "__acquires" : "__releases", acq ? "holds" : "releases");
	if (*nret == 1) {
		f->nspan = (uint8_t)n;
		for (int k = 0; k < n; k++) {
			f->spanl[k].lock = v[k].lock;
			f->spanl[k].obj = v[k].obj;
		}
	}
	return 0;
}

int vfs_kfn_define(struct vfs_world *w, const struct vfs_kfn *in, int *bad,
		   char *err, size_t nerr)
{
	struct vfs_kfn f = *in;
	int self = vfs_nkfns(w);
	const struct vfs_kdefs *kd = w->kdefs;
	*bad = -1;
	f.name[VFS_KFN_NAME_MAX - 1] = 0;
	if (!vfs_valid_name(f.name))
		return fail(bad, -1, err, nerr, "'%s' is no name ([A-Za-z][A-Za-z0-9_]*)",
			    f.name);
	if (vfs_fn_lookup(f.name) != VFN_none && vfs_fn_lookup(f.name) < VFN__COUNT)
		return fail(bad, -1, err, nerr, "%s is a built-in kernel function "
			    "('override' changes its decisions)", f.name);
	if (vfs_kfn_lookup(w, f.name) >= 0)
		return fail(bad, -1, err, nerr, "%s is defined already", f.name);
	if (self >= VFS_MAX_KFNS)
		return fail(bad, -1, err, nerr, "too many definitions (at most %d)",
			    VFS_MAX_KFNS);
	if (f.nparams > VFS_SYS_MAXARGS)
		return fail(bad, -1, err, nerr, "at most %d parameters", VFS_SYS_MAXARGS);
	/* the implicit `return 0` at the end of a body that does not return */
	if (!f.nsteps || f.step[f.nsteps - 1].op != KS_RETURN ||
	    f.step[f.nsteps - 1].cmp != KC_NONE) {
		if (f.nsteps >= VFS_KFN_STEPS)
			return fail(bad, f.nsteps ? f.nsteps - 1 : -1, err, nerr,
				    "too many steps (at most %d, its return included)",
				    VFS_KFN_STEPS - 1);
		f.step[f.nsteps++] = (struct vfs_kstep){ .op = KS_RETURN };
	}

	/* the state along the path being checked; at an `if`, the state it
	 * began with, and at its `else`, the state its `then` ended with */
	struct path_state ps = { .got_step = -1, .have_file = !f.syscall };
	int nret = 0;           /* an __acquires or __releases function's returns */
	if (f.span && f.syscall)
		return fail(bad, -1, err, nerr, "a system call returns holding "
			    "nothing: only a function is __acquires or __releases");
	f.nspan = 0;
	if (f.span == KSPAN_HOLDS) {    /* entered holding it: as its caller has it */
		uint8_t l = f.spanl[0].lock;
		if (l >= KL__COUNT)
			return fail(bad, -1, err, nerr, "not a lock");
		f.spanl[0].obj = l == KL_I_RWSEM || l == KL_D_UPDATE ? KO_INODE : KO_FILE;
		f.nspan = 1;
		ps.held[ps.nheld++] = (struct held_lock){ l, f.spanl[0].obj,
			l == KL_I_RWSEM ? M_READ : M_EXCL, -1 };
	}
	struct { int at, else_at; struct path_state entry, then; } br[VFS_KFN_STEPS];
	int nbr = 0;
	char a[64];
	for (int i = 0; i < f.nsteps; i++) {
		struct vfs_kstep *s = &f.step[i];
		if (s->op >= KS__COUNT || s->obj > KO_INODE || s->lock >= KL__COUNT ||
		    s->mode > M_WRITE || s->sub < -1 || s->sub >= LDSUB__COUNT ||
		    s->cmp > KC_NE || !value_ok(w, &f, &s->a) || !value_ok(w, &f, &s->b) ||
		    !value_ok(w, &f, &s->ca) || !value_ok(w, &f, &s->cb))
			return fail(bad, i, err, nerr, "not a step");
		if (ps.dead && s->op != KS_ELSE && s->op != KS_ENDIF && i < in->nsteps)
			return fail(bad, i, err, nerr, "never reached: the step before "
				    "returns");
		bool uses_obj = s->op <= KS_WRITE || s->op == KS_EMIT ||
				s->op == KS_UPGRADE || s->op == KS_ITERATE;
		if (uses_obj && !ps.have_file)
			return fail(bad, i, err, nerr, "no file here: a system call gets "
				    "its file with 'fdget FD' or 'fdget_pos FD' first");
		switch (s->op) {
		case KS_LOCK: {
			bool of_inode = s->lock == KL_I_RWSEM || s->lock == KL_D_UPDATE;
			if (of_inode != (s->obj == KO_INODE))
				return fail(bad, i, err, nerr, "%s is a lock of the %s, "
					    "not of the %s", vfs_klock_names[s->lock],
					    of_inode ? "inode" : "file",
					    vfs_kobj_names[s->obj]);
			if (s->lock != KL_I_RWSEM && (s->mode == M_READ || s->sub > 0))
				return fail(bad, i, err, nerr, "%s is a %s: no %s",
					    vfs_klock_names[s->lock], s->lock == KL_F_LOCK ?
					    "spinlock" : "mutex", s->mode == M_READ ?
					    "read mode" : "nesting subclass");
			if (s->lock == KL_F_LOCK && s->killable)
				return fail(bad, i, err, nerr, "f_lock is a spinlock: "
					    "spin_lock does not sleep, so is never killable");
			/* (a kill ends only what the function took, and a
			 * __releases or __must_hold function must give back
			 * what its caller holds: "we can't use the killable()
			 * locking here", fs/readdir.c's wrapper says) */
			if (s->killable && (f.span == KSPAN_RELEASES || f.span == KSPAN_HOLDS))
				return fail(bad, i, err, nerr, "a %s function must give "
					    "back its caller's lock even when dying: no "
					    "killable lock", f.span == KSPAN_HOLDS ?
					    "__must_hold" : "__releases");
			for (int h = 0; h < ps.nheld; h++)
				if (ps.held[h].lock == s->lock && ps.held[h].obj == s->obj)
					return fail(bad, i, err, nerr, "%s is held already "
						    "(taken at step %d): a thread that takes "
						    "it again deadlocks on itself",
						    lock_what(&ps.held[h], a, sizeof a), ps.held[h].step + 1);
			ps.held[ps.nheld++] = (struct held_lock){ s->lock, s->obj, s->mode, i };
			break;
		}
		case KS_UNLOCK: case KS_DOWNGRADE: {
			int h = ps.nheld - 1;
			while (h >= 0 && !(ps.held[h].lock == s->lock && ps.held[h].obj == s->obj))
				h--;
			struct held_lock me = { s->lock, s->obj, 0, i };
			if (h < 0 && f.span == KSPAN_RELEASES && s->op == KS_UNLOCK &&
			    !span_has(ps.rel, ps.nrel, &me)) {
				if (ps.nrel >= VFS_KFN_SPAN)
					return fail(bad, i, err, nerr, "at most %d locks "
						    "released for the caller", VFS_KFN_SPAN);
				ps.rel[ps.nrel++] = me;         /* the caller's */
				break;
			}
			if (h < 0)
				return fail(bad, i, err, nerr, "unbalanced lock and unlock: "
					    "%s is not held here%s", lock_what(&me, a, sizeof a),
					    f.syscall || f.span ? "" : " (a function that "
					    "releases its caller's lock says so: define "
					    "function NAME __releases)");
			if (s->op == KS_DOWNGRADE) {
				if (s->lock != KL_I_RWSEM || ps.held[h].mode == M_READ)
					return fail(bad, i, err, nerr, "downgrade: %s is not "
						    "held for writing", lock_what(&me, a, sizeof a));
				ps.held[h].mode = M_READ;
				break;
			}
			memmove(&ps.held[h], &ps.held[h + 1], sizeof ps.held[0] * (size_t)(ps.nheld - h - 1));
			ps.nheld--;
			break;
		}
		case KS_READ: case KS_WRITE:
			if (!field_of(w, s->obj, s->field))
				return fail(bad, i, err, nerr, "%s is no field of the %s "
					    "(the file's: f_pos, cursor, f_count; the inode's: "
					    "size, dir; and those 'field' declared of it)",
					    vfs_field_name(s->field), vfs_kobj_names[s->obj]);
			if (s->op == KS_WRITE && !field_writable(s->field))
				return fail(bad, i, err, nerr, "%s is not written by a step "
					    "(%s)", vfs_field_name(s->field), s->field ==
					    FLD_DIR ? "the entries change with mkdir, unlink, "
					    "rename" : "fget and fput move it");
			break;
		case KS_UPGRADE: {
			int h = ps.nheld - 1;
			while (h >= 0 && !(ps.held[h].lock == KL_I_RWSEM &&
					   ps.held[h].obj == KO_INODE))
				h--;
			if (s->lock != KL_I_RWSEM || s->obj != KO_INODE)
				return fail(bad, i, err, nerr, "upgrade: only i_rwsem of "
					    "inode has a read mode to upgrade");
			if (h < 0 || ps.held[h].mode != M_READ)
				return fail(bad, i, err, nerr, "upgrade: i_rwsem of inode "
					    "is not held for reading here");
			/* (held for writing if ret is 1: the fall-back when it
			 * is 0 is the script's, as the kernel's caller's) */
			ps.held[h].mode = M_WRITE;
			break;
		}
		case KS_ITERATE:
			if (f.syscall)
				return fail(bad, i, err, nerr, "iterate: a function in "
					    "wrap_directory_iterator's place iterates "
					    "(hook wrap_directory_iterator F)");
			break;
		case KS_EMIT:
			if (s->obj != KO_INODE)
				return fail(bad, i, err, nerr, "entries are the inode's: "
					    "emit entries of inode from VALUE");
			break;
		case KS_CALL:
			if (s->callee > self)
				return fail(bad, i, err, nerr, "no such function");
			if (s->callee == self || reaches(kd, &kd->kfns[s->callee], self, &f,
							 self, 0))
				return s->callee == self ?
				       fail(bad, i, err, nerr, "a cycle of calls: %s "
					    "calls itself", f.name) :
				       fail(bad, i, err, nerr, "a cycle of calls: %s "
					    "calls %s, which calls %s again", f.name,
					    kd->kfns[s->callee].name, f.name);
			if (kd->kfns[s->callee].syscall)
				return fail(bad, i, err, nerr, "%s is a system call: a "
					    "step calls a function ('define function')",
					    kd->kfns[s->callee].name);
			if (kd->kfns[s->callee].span)
				return fail(bad, i, err, nerr, "%s is %s: a half of a "
					    "hook pair ('hook lookup before F after G'), not "
					    "called", kd->kfns[s->callee].name,
					    kd->kfns[s->callee].span == KSPAN_ACQUIRES ?
					    "__acquires" : "__releases");
			break;
		case KS_FDGET: case KS_FDGET_POS:
			if (ps.got)
				return fail(bad, i, err, nerr, "a second fdget before the "
					    "first one's fdput (step %d)", ps.got_step + 1);
			ps.got = s->op;
			ps.got_step = i;
			ps.have_file = true;
			break;
		case KS_FDPUT: case KS_FDPUT_POS:
			if (!ps.got || (ps.got == KS_FDGET) != (s->op == KS_FDPUT))
				return fail(bad, i, err, nerr, ps.got ? "%s after %s: fdput "
					    "puts fdget, fdput_pos fdget_pos" :
					    "%s without fdget: nothing to put",
					    s->op == KS_FDPUT ? "fdput" : "fdput_pos",
					    ps.got == KS_FDGET ? "fdget" : "fdget_pos");
			for (int h = 0; h < ps.nheld; h++)
				if (ps.held[h].obj == KO_FILE || ps.held[h].obj == KO_INODE)
					return fail(bad, i, err, nerr, "%s while %s is held: "
						    "the file may go with its last reference",
						    s->op == KS_FDPUT ? "fdput" : "fdput_pos",
						    lock_what(&ps.held[h], a, sizeof a));
			ps.got = 0;
			break;
		case KS_RETURN:
			if (f.span) {
				if (span_return(&f, &ps, &nret, i, bad, err, nerr) < 0)
					return -1;
			} else if (ps.nheld)
				return fail(bad, i, err, nerr, "unbalanced lock and unlock: "
					    "%s (taken at step %d) is still held at return%s",
					    lock_what(&ps.held[ps.nheld - 1], a, sizeof a),
					    ps.held[ps.nheld - 1].step + 1, f.syscall ? "" :
					    " (a function that returns holding it says so: "
					    "define function NAME __acquires)");
			if (ps.got && f.syscall)
				return fail(bad, i, err, nerr, "return without %s: the "
					    "reference %s took leaks",
					    ps.got == KS_FDGET ? "fdput" : "fdput_pos",
					    ps.got == KS_FDGET ? "fdget" : "fdget_pos");
			ps.dead = s->cmp == KC_NONE;
			break;
		case KS_IF:
			if (s->cmp == KC_NONE)
				return fail(bad, i, err, nerr, "not a step");
			br[nbr].at = i;
			br[nbr].else_at = -1;
			br[nbr++].entry = ps;
			break;
		case KS_ELSE:
			if (!nbr || br[nbr - 1].else_at >= 0)
				return fail(bad, i, err, nerr, "'else' without its 'if'");
			br[nbr - 1].else_at = i;
			br[nbr - 1].then = ps;
			f.step[br[nbr - 1].at].jump = (uint8_t)(i + 1);
			ps = br[nbr - 1].entry;
			break;
		case KS_ENDIF: {
			if (!nbr)
				return fail(bad, i, err, nerr, "'end' without its 'if'");
			nbr--;
			/* the other way here: the else branch's end, or the if's
			 * entry when false (no else) */
			struct path_state other = br[nbr].else_at >= 0 ? br[nbr].then :
						  br[nbr].entry;
			f.step[br[nbr].else_at >= 0 ? br[nbr].else_at : br[nbr].at].jump =
				(uint8_t)(i + 1);
			if (ps.dead) {
				ps = other;
				break;
			}
			if (other.dead)
				break;
			const char *why = path_differs(&ps, &other, a, sizeof a);
			if (why)
				return fail(bad, br[nbr].at, err, nerr, "unbalanced lock and "
					    "unlock: the ways through this 'if' (to its 'end' "
					    "at step %d) leave %s", i + 1, why);
			break;
		}
		}
	}
	if (nbr)
		return fail(bad, br[nbr - 1].at, err, nerr, "'if' without its 'end'");
	if (f.span && !f.nspan)
		return fail(bad, -1, err, nerr, "%s is %s but %s no lock", f.name,
			    f.span == KSPAN_ACQUIRES ? "__acquires" : "__releases",
			    f.span == KSPAN_ACQUIRES ? "returns holding" : "releases");
	if (call_depth(kd, &f, self, &f, 0) > VFS_KFN_DEPTH)
		return fail(bad, -1, err, nerr, "calls nested deeper than %d",
			    VFS_KFN_DEPTH);
	f.fn = (uint8_t)vfs_fn_intern(f.name);
	if (f.fn == VFN_none)
		return fail(bad, -1, err, nerr, "too many names defined in this run "
			    "(at most %d)", KFN_NAMES);
	struct vfs_kdefs *k = kdefs_mut(w);
	if (!k)
		return fail(bad, -1, err, nerr, "out of memory");
	kfn_name_points(w, k, &f);
	k->kfns[k->nkfns] = f;
	return k->nkfns++;
}

/* ---- a call of a defined system call as words and as strace shows it ---- */

int vfs_kfn_call_parse(struct vfs_world *w, int k, int argc, char *const *argv,
		       struct vfs_call *c, char *err, size_t nerr)
{
	const struct vfs_kfn *f = vfs_kfn_get(w, k);
	memset(c, 0, sizeof *c);
	if (!f || !f->syscall) {
		snprintf(err, nerr, "not a system call");
		return VCP_BAD;
	}
	if (argc != f->nparams) {
		size_t o = (size_t)snprintf(err, nerr, "%s: %s arguments (usage: %s",
					    f->name, argc < f->nparams ? "missing" :
					    "too many", f->name);
		for (int i = 0; i < f->nparams && o < nerr; i++)
			o += (size_t)snprintf(err + o, nerr - o, " %s", f->params[i]);
		if (o < nerr)
			snprintf(err + o, nerr - o, ")");
		return VCP_BAD;
	}
	c->sys = SYS_DEFINED;
	c->def = (uint8_t)k;
	for (int i = 0; i < argc; i++) {
		char *end;
		errno = 0;
		long long v = strtoll(argv[i], &end, 0);
		if (!argv[i][0] || *end || errno) {
			snprintf(err, nerr, "%s: %s is a number, not '%s'", f->name,
				 f->params[i], argv[i]);
			return VCP_BAD;
		}
		c->a[i] = v;
	}
	return 0;
}

void kfn_call_print(FILE *out, const struct vfs_world *w, const struct vfs_call *c)
{
	const struct vfs_kfn *f = vfs_kfn_get(w, c->def);
	fputs(f ? f->name : "?", out);
	for (int i = 0; f && i < f->nparams; i++)
		fprintf(out, " %" PRId64, c->a[i]);
}

void kfn_call_strace(const struct vfs_world *w, const struct vfs_call *c,
		     char *buf, size_t n)
{
	const struct vfs_kfn *f = vfs_kfn_get(w, c->def);
	size_t o = (size_t)snprintf(buf, n, "%s(", f ? f->name : "?");
	for (int i = 0; f && i < f->nparams && o < n; i++)
		o += (size_t)snprintf(buf + o, n - o, "%s%" PRId64, i ? ", " : "", c->a[i]);
	if (o < n)
		snprintf(buf + o, n - o, ")");
}

/* ---- a step as the line that defines it ---- */

static void value_text(const struct vfs_kfn *f, const struct vfs_kvalue *v,
		       char *buf, size_t n)
{
	const char *e;
	switch (v->kind) {
	case KV_PARAM: snprintf(buf, n, "%s", f->params[v->v]); break;
	case KV_FIELD: snprintf(buf, n, "%s", vfs_field_name((int)v->v)); break;
	case KV_RET:   snprintf(buf, n, "ret"); break;
	case KV_DEAD:  snprintf(buf, n, "dead"); break;
	default:
		e = vfs_ret_errno(v->v);
		if (e)
			snprintf(buf, n, "-%s", e);
		else
			snprintf(buf, n, "%" PRId64, v->v);
	}
}

void vfs_kstep_text(const struct vfs_world *w, const struct vfs_kfn *f,
		    const struct vfs_kstep *s, char *buf, size_t n)
{
	const char *const *cmps = vfs_kcmp_names;
	char a[48], b[48];
	value_text(f, &s->a, a, sizeof a);
	value_text(f, &s->b, b, sizeof b);
	switch (s->op) {
	case KS_LOCK:
		snprintf(buf, n, "lock %s of %s%s%s%s%s", vfs_klock_names[s->lock],
			 vfs_kobj_names[s->obj], s->lock != KL_I_RWSEM ? "" :
			 s->mode == M_READ ? " read" : " write",
			 s->killable ? " killable" : "", s->sub >= 0 ? " nested " : "",
			 s->sub >= 0 ? vfs_ldsub_names[s->sub] : "");
		break;
	case KS_UNLOCK: case KS_DOWNGRADE: case KS_UPGRADE:
		snprintf(buf, n, "%s %s of %s", s->op == KS_UNLOCK ? "unlock" :
			 s->op == KS_UPGRADE ? "upgrade" : "downgrade",
			 vfs_klock_names[s->lock], vfs_kobj_names[s->obj]);
		break;
	case KS_ITERATE:
		snprintf(buf, n, "iterate");
		break;
	case KS_READ:
		snprintf(buf, n, "read %s of %s", vfs_field_name(s->field),
			 vfs_kobj_names[s->obj]);
		break;
	case KS_WRITE:
		snprintf(buf, n, "write %s of %s %s%s%s%s", vfs_field_name(s->field),
			 vfs_kobj_names[s->obj], a, s->arith ? " " : "",
			 s->arith == '+' ? "+ " : s->arith == '-' ? "- " : "",
			 s->arith ? b : "");
		break;
	case KS_CALL:
		snprintf(buf, n, "call %s", w->kdefs && s->callee < w->kdefs->nkfns ?
			 w->kdefs->kfns[s->callee].name : "?");
		break;
	case KS_FDGET: case KS_FDGET_POS:
		snprintf(buf, n, "%s %s", s->op == KS_FDGET ? "fdget" : "fdget_pos", a);
		break;
	case KS_FDPUT: case KS_FDPUT_POS:
		snprintf(buf, n, "%s", s->op == KS_FDPUT ? "fdput" : "fdput_pos");
		break;
	case KS_EMIT:
		snprintf(buf, n, "emit entries of inode from %s%s%s", a,
			 s->arith ? " max " : "", s->arith ? b : "");
		break;
	case KS_ELSE: case KS_ENDIF:
		snprintf(buf, n, "%s", s->op == KS_ELSE ? "else" : "end");
		break;
	default: {
		char ca[48], cb[48];
		value_text(f, &s->ca, ca, sizeof ca);
		value_text(f, &s->cb, cb, sizeof cb);
		if (s->op == KS_IF)
			snprintf(buf, n, "if %s %s %s", ca, cmps[s->cmp], cb);
		else if (s->cmp)
			snprintf(buf, n, "return %s if %s %s %s", a, ca, cmps[s->cmp], cb);
		else
			snprintf(buf, n, "return %s", a);
	}
	}
}
