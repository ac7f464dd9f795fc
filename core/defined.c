/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * defined.c - kernel functions and system calls the script defines as
 * steps (`define syscall NAME PARAM...` ... `end`, cli/cmd_define.c).
 *
 * A definition is a straight line of steps; each step is one atomic step
 * of the scheduler, run by one resume point (defined_step:step) that reads the step
 * the thread's frame points at.  A step does what a built-in site does:
 * it takes and releases locks through core/locking.c, reads and writes
 * fields through the trace's access events (so the race detector, lockdep,
 * the rules and the explorers' footprints see it as they see the kernel's
 * own), and enters fdget/fdget_pos/fdput/fdput_pos as the built-in paths
 * do (call_sub).  Everything a step needs to resume is in the frame
 * (kdepth, kstack, kval, kret): `back`, `explore` and the stateful search
 * copy and encode it with the rest.  The definitions live in the world's
 * shared kernel (w->kdefs), as `fs define`'s rows do; checking one and
 * its words are core/defined_check.c.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "rows.h"

/* ---- running: one resume point, one step of the definition ---- */

static const struct vfs_kfn *cur_kfn(const struct vfs_world *w,
				     const struct vfs_frame *f)
{
	return &w->kdefs->kfns[f->kfn.kstack[f->kfn.kdepth - 1].fn];
}

static int file_of(const struct vfs_world *w, const struct vfs_frame *f)
{
	return f->file >= 0 && f->file < w->nfiles && w->files[f->file].kind ? f->file : -1;
}

static int inode_of(const struct vfs_world *w, const struct vfs_frame *f)
{
	int file = file_of(w, f);
	if (file < 0 && f->kfn.khook)       /* a hook in a path without a file */
		return f->kfn.kino;
	return file >= 0 && w->files[file].kind == FK_INODE ? w->files[file].inode : -1;
}

static vfs_lid_t lid_of(const struct vfs_world *w, const struct vfs_frame *f,
			const struct vfs_kstep *s)
{
	switch (s->lock) {
	case KL_F_POS_LOCK: return VFS_LID(LID_FILE_POS, file_of(w, f));
	case KL_F_LOCK:     return VFS_LID(LID_FILE_LOCK, file_of(w, f));
	case KL_D_UPDATE:   return VFS_LID(LID_DENTRY, inode_of(w, f));
	default:            return VFS_LID(LID_INODE, inode_of(w, f));
	}
}

/* The lock functions, as the kernel names them: i_rwsem was i_mutex
 * before v4.7 (w->k.dir_lock), whichever mode the step asks. */
static int lock_fn(const struct vfs_world *w, const struct vfs_kstep *s)
{
	if (s->lock == KL_F_LOCK)
		return VFN_spin_lock;
	if (s->lock != KL_I_RWSEM || !w->k.dir_lock)
		return s->killable ? VFN_mutex_lock_killable : VFN_mutex_lock;
	if (s->mode == M_READ)
		return s->killable ? VFN_down_read_killable : VFN_down_read;
	return s->killable ? VFN_down_write_killable : VFN_down_write;
}

static int unlock_fn(const struct vfs_world *w, const struct vfs_thread *t,
		     const struct vfs_kstep *s)
{
	int mode = M_EXCL;
	if (s->lock == KL_F_LOCK)
		return VFN_spin_unlock;
	if (s->lock != KL_I_RWSEM || !w->k.dir_lock)
		return VFN_mutex_unlock;
	thread_holds(t, lid_of(w, &t->f, s), &mode);
	return mode == M_READ ? VFN_up_read : VFN_up_write;
}

/* The value T's call last read of field FLD: the frame keeps the
 * built-in fields', the world's ufv[UFV_CALL] row the declared ones'. */
static int64_t kval_get(const struct vfs_world *w, const struct vfs_thread *t, int fld)
{
	return fld < FLD__COUNT ? t->f.kfn.kval[fld] :
	       ufield_kval(w, (int)(t - w->threads), vfs_ufield_slot(w, fld));
}

static void kval_put(struct vx *x, int fld, int64_t v)
{
	if (fld < FLD__COUNT)
		x->t->f.kfn.kval[fld] = v;
	else
		ufield_kval_set(x->w, x->tid, vfs_ufield_slot(x->w, fld), v);
}

static int64_t value(const struct vfs_world *w, const struct vfs_thread *t,
		     const struct vfs_kvalue *v)
{
	switch (v->kind) {
	case KV_PARAM: return t->rec.call.a[v->v];
	case KV_FIELD: return kval_get(w, t, (int)v->v);
	case KV_RET:   return t->f.kfn.kret;
	case KV_DEAD:  return t->f.kfn.kval[FLD_NONE];  /* (FLD_NONE's slot) */
	default:       return v->v;
	}
}

bool vfs_kcmp_holds(int64_t a, int cmp, int64_t b)
{
	switch (cmp) {
	case KC_LT: return a < b;
	case KC_LE: return a <= b;
	case KC_GT: return a > b;
	case KC_GE: return a >= b;
	case KC_EQ: return a == b;
	case KC_NE: return a != b;
	default:    return true;
	}
}

/* The step at PC of K, or past the branches the values in T's frame
 * decide (`if`, `else`, `end` are no steps of their own): the next step
 * that does something. */
static int real_pc_branch(const struct vfs_world *w, const struct vfs_thread *t,
			  const struct vfs_kfn *k, int pc)
{
	for (int guard = 0; pc < k->nsteps && guard <= VFS_KFN_STEPS; guard++) {
		const struct vfs_kstep *s = &k->step[pc];
		if (s->op == KS_IF)
			pc = vfs_kcmp_holds(value(w, t, &s->ca), s->cmp, value(w, t, &s->cb)) ?
			     pc + 1 : s->jump;
		else if (s->op == KS_ELSE)
			pc = s->jump;
		else if (s->op == KS_ENDIF)
			pc++;
		else
			break;
	}
	return pc < k->nsteps ? pc : k->nsteps - 1;     /* (its return) */
}

static inline int real_pc(const struct vfs_world *w, const struct vfs_thread *t,
			  const struct vfs_kfn *k, int pc)
{
	return k->step[pc].op < KS_IF ? pc : real_pc_branch(w, t, k, pc);  /* (hot) */
}

/* ---- the steps' names: FUNCTION:LABEL, as the kernel's own steps ----
 * A built-in step is named by its C function and the case of its switch
 * (iterate_dir:lock); a defined one by its function and its line: the
 * step's first word with what it works on (lock_i_rwsem, write_f_pos,
 * read_seeks, call_readdir_pass; fdget_pos, emit, return), numbered from
 * the second time the same label comes in the function (lock_i_rwsem2,
 * return2).  The names are the world's kernel's, made once by
 * vfs_kfn_define; a step's events carry its name's number (after the
 * built-in resume points: the event keeps its one byte), `where` and
 * vfs_event_point read it back.  `if`, `else` and `end` are no steps;
 * past VFS_KFN_POINTS names, a step is defined_step:step
 * (vfs_kfn_unnamed counts them: `define` warns when the first is). */
static void step_label(const struct vfs_world *w, const struct vfs_kfn *f,
		       const struct vfs_kstep *s, char *buf, size_t n)
{
	char t[160];
	vfs_kstep_text(w, f, s, t, sizeof t);
	size_t w1 = strcspn(t, " ");
	bool what = s->op <= KS_WRITE || s->op == KS_CALL || s->op == KS_UPGRADE;
	if (what && t[w1]) {
		t[w1] = '_';
		t[w1 + 1 + strcspn(t + w1 + 1, " ")] = 0;
	} else {
		t[w1] = 0;
	}
	snprintf(buf, n, "%s", t);
}

void kfn_name_points(const struct vfs_world *w, struct vfs_kdefs *k, struct vfs_kfn *f)
{
	for (int i = 0; i < f->nsteps; i++) {
		struct vfs_kstep *s = &f->step[i];
		s->point = 0;
		if (s->op >= KS_IF || k->npoints >= VFS_KFN_POINTS)
			continue;
		char label[VFS_KFN_POINT_MAX], other[VFS_KFN_POINT_MAX];
		step_label(w, f, s, label, sizeof label);
		int nth = 1;
		for (int j = 0; j < i; j++)
			if (f->step[j].op < KS_IF) {
				step_label(w, f, &f->step[j], other, sizeof other);
				nth += !strcmp(label, other);
			}
		char *name = k->points[k->npoints];
		if (nth > 1)
			snprintf(name, VFS_KFN_POINT_MAX, "%s:%s%d", f->name, label, nth);
		else
			snprintf(name, VFS_KFN_POINT_MAX, "%s:%s", f->name, label);
		if ((int)strlen(name) > k->point_width)
			k->point_width = (int16_t)strlen(name);
		s->point = (uint8_t)(RP__COUNT + k->npoints++);
	}
}

int vfs_kfn_unnamed(const struct vfs_world *w)
{
	int n = 0;
	for (int k = 0; k < vfs_nkfns(w); k++) {
		const struct vfs_kfn *f = &w->kdefs->kfns[k];
		for (int i = 0; i < f->nsteps; i++)
			n += f->step[i].op < KS_IF && !f->step[i].point;
	}
	return n;
}

int kfn_point(const struct vfs_world *w, const struct vfs_thread *t)
{
	const struct vfs_frame *f = &t->f;
	if (!f->kfn.kdepth || !w->kdefs)
		return RP(defined_step, step);
	const struct vfs_kfn *k = cur_kfn(w, f);
	int point = k->step[real_pc(w, t, k, f->kfn.kstack[f->kfn.kdepth - 1].pc)].point;
	return point ? point : RP(defined_step, step);
}

const char *kfn_point_name(const struct vfs_world *w, int rp)
{
	if (rp < RP__COUNT)
		return vfs_rps[rp].name;
	int i = rp - RP__COUNT;
	return w && w->kdefs && i < w->kdefs->npoints ? w->kdefs->points[i] : "?";
}

int kfn_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	const struct vfs_frame *f = &t->f;
	if (!f->kfn.kdepth || !w->kdefs)
		return VFN_none;
	const struct vfs_kfn *k = cur_kfn(w, f);
	const struct vfs_kstep *s = &k->step[real_pc(w, t, k, f->kfn.kstack[f->kfn.kdepth - 1].pc)];
	switch (s->op) {
	case KS_LOCK:      return lock_fn(w, s);
	case KS_UNLOCK:    return unlock_fn(w, t, s);
	case KS_DOWNGRADE: return VFN_downgrade_write;
	case KS_UPGRADE:   return VFN_inode_upgrade_trylock;
	case KS_ITERATE:   return iterate_dir_actor_fn(w, t);
	case KS_CALL:      return w->kdefs->kfns[s->callee].fn;
	case KS_FDGET:     return VFN_fdget;
	case KS_FDGET_POS: return w->k.fpos_lock != FPOS_NONE ? VFN_fdget_pos : VFN_fdget;
	case KS_FDPUT:     return VFN_fdput;
	case KS_FDPUT_POS: return f->pos_get ? VFN_fdput_pos : VFN_fdput;
	default:           return k->fn;
	}
}

/* `return V`: out of the innermost defined function, or out of the call */
static void kfn_return(struct vx *x, int64_t v)
{
	struct vfs_frame *f = &x->t->f;
	if (f->kfn.kdepth > 1 || f->kfn.khook) {
		fn_exit(x, cur_kfn(x->w, f)->fn, v);
		f->kfn.kdepth--;
		f->kfn.kret = v;
		if (!f->kfn.kdepth) {       /* a hook: back into the built-in path */
			f->kfn.khook = 0;
			ret_sub(x);
		}
		return;
	}
	f->kfn.kdepth = 0;
	sys_return(x, v);
}

/* The iterator's part, as a filesystem's ->iterate_shared does it
 * (readdir.c's iterate_dir): ".", "..", then the children from offset
 * FROM on, at most MAX; the entries read (the directory) and each handed
 * out (OP_EMIT: the duplicate and skipped-entry detectors' pass of FILE).
 * ret: the offset after the last one, for the step that writes f_pos. */
static void kfn_emit(struct vx *x, int fn, int file, int ino, int64_t from,
		     int64_t max)
{
	struct vfs_frame *f = &x->t->f;
	const struct vfs_inode *dir = &x->w->inodes[ino];
	int64_t pos = from < 0 ? 0 : from, n;
	f->inode = ino;
	f->pos = pos;           /* (the pass the entries belong to begins here) */
	f->file = file;
	access_inode(x, fn, FLD_DIR, ino, dir->nchildren, false);
	if (dir->type == IT_DIR)
		pos = emit_entries(x, fn, ino, pos, max, &n);
	f->kfn.kret = pos;
}

void sys_defined(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	if (cur_call(x)->def >= vfs_nkfns(x->w)) {
		sys_return(x, -VE_NOSYS);
		return;
	}
	f->kfn.kdepth = 1;
	f->kfn.kstack[0].fn = cur_call(x)->def;
	f->kfn.kstack[0].pc = 0;
	go(x, RP(defined_step, step));
}

/* Enter a built-in sub-path (fdget, fdput, ...) in this step, coming back
 * to the definition's next step. */
static void sub_now(struct vx *x)
{
	run_at(x, x->t->f.pc);
}

KERNEL_FN(defined_step)
{
	struct vfs_world *w = x->w;
	const struct vfs_kfn *k = cur_kfn(w, f);
	uint8_t *pc = &f->kfn.kstack[f->kfn.kdepth - 1].pc;
	const struct vfs_kstep *s = &k->step[*pc];
	int fn = k->fn;

	/* `if (!f.file) return -EBADF;` after an fdget that found nothing */
	if (*pc && (s[-1].op == KS_FDGET || s[-1].op == KS_FDGET_POS) && f->file < 0) {
		x->rp = kfn_point(w, x->t);
		kfn_return(x, -VE_BADF);
		return;
	}
	*pc = (uint8_t)real_pc(w, x->t, k, *pc);        /* past `if`, `else`, `end` */
	s = &k->step[*pc];
	if (s->point)           /* its events: the definition's step (kfn_point) */
		x->rp = s->point;
	int file = file_of(w, f), ino = inode_of(w, f);
	if ((s->op <= KS_WRITE || s->op == KS_EMIT || s->op == KS_UPGRADE ||
	     s->op == KS_ITERATE) &&
	    (s->obj == KO_INODE ? ino < 0 : file < 0)) {
		/* a function called without a file, or a pidfd's file: no inode */
		note(x, fn, s->obj == KO_INODE ? "no inode: the file is no file of "
		     "the tree (a pidfd)" : "no file: nothing was fdget'd");
		kfn_return(x, file < 0 ? -VE_BADF : -VE_INVAL);
		return;
	}
	(*pc)++;
	switch (s->op) {
	case KS_LOCK: {
		/* the step's own lock: what the script says this code protects */
		int mode = s->lock != KL_I_RWSEM ? M_EXCL : s->mode == M_READ ?
			   M_READ : M_WRITE;
		f->kfn.ksub = s->sub < 0 ? LDSUB_NORMAL : s->sub;
		lock_acquire(x, lock_fn(w, s), lid_of(w, f, s), mode);
		break;
	}
	case KS_UNLOCK: {
		int ufn = unlock_fn(w, x->t, s);
		lock_release(x, ufn, lid_of(w, f, s));
		break;
	}
	case KS_DOWNGRADE: {
		int mode = M_NONE;
		if (thread_holds(x->t, lid_of(w, f, s), &mode) && mode == M_WRITE)
			lock_downgrade(x, VFN_downgrade_write, lid_of(w, f, s));
		else            /* (an upgrade that failed, and no fall-back) */
			note(x, fn, "downgrade_write of a lock not held for writing: "
			     "nothing done (the kernel's would corrupt the count)");
		break;
	}
	case KS_UPGRADE:
		f->kfn.kret = lock_upgrade_try(x, VFN_inode_upgrade_trylock,
					       lid_of(w, f, s));
		break;
	case KS_ITERATE:
		/* the wrapper's ret = iter(file, ctx), on ctx->pos (f->pos) */
		if (!f->kfn.khook || x->t->rec.call.sys != SYS_GETDENTS) {
			note(x, fn, "iterate: no directory context (only in "
			     "wrap_directory_iterator's place)");
			kfn_return(x, -VE_INVAL);
			break;
		}
		dir_iterate(x);
		f->kfn.kret = f->res;
		break;
	case KS_READ: {
		int64_t v;
		if (vfs_ufield_slot(w, s->field) >= 0) {  /* one the script declared */
			v = ufield_read(x, fn, s->field, file, ino);
		} else if (s->obj == KO_FILE) {
			const struct vfs_file *fl = &w->files[file];
			v = s->field == FLD_F_POS ? fl->f_pos : s->field == FLD_CURSOR ?
			    fl->cursor : fl->f_count;
			access_file(x, fn, s->field, file, v, false, s->field == FLD_F_COUNT);
		} else {
			const struct vfs_inode *in = &w->inodes[ino];
			v = s->field == FLD_SIZE ? in->size : in->nchildren;
			access_inode(x, fn, s->field, ino, v, false);
			if (s->field == FLD_DIR)        /* IS_DEADDIR, with it */
				f->kfn.kval[FLD_NONE] = in->dead;
		}
		kval_put(x, s->field, v);
		break;
	}
	case KS_WRITE: {
		int64_t v = value(w, x->t, &s->a);
		if (s->arith)
			v = s->arith == '+' ? v + value(w, x->t, &s->b) : v - value(w, x->t, &s->b);
		int slot = vfs_ufield_slot(w, s->field);
		if (s->obj == KO_FILE) {
			file_touch(w, file);
			if (slot >= 0)
				ufield_set(w, slot, file, v);
			else if (s->field == FLD_F_POS)
				w->files[file].f_pos = v;
			else
				w->files[file].cursor = v;
			access_file(x, fn, s->field, file, v, true, false);
		} else {
			struct vfs_inode *in = slot >= 0 ? NULL : inode_mut(w, ino);
			if (slot >= 0)
				ufield_set(w, slot, ino, v);
			else if (in)
				in->size = v;
			else
				w->oom = 1;
			access_inode(x, fn, s->field, ino, v, true);
		}
		kval_put(x, s->field, v);
		break;
	}
	case KS_CALL:
		f->kfn.kstack[f->kfn.kdepth].fn = s->callee;
		f->kfn.kstack[f->kfn.kdepth].pc = 0;
		f->kfn.kdepth++;
		fn_enter(x, w->kdefs->kfns[s->callee].fn);
		break;
	case KS_FDGET:
		f->fd = (int32_t)value(w, x->t, &s->a);
		f->pos_get = 0;
		f->kfn.kgot = 1;
		call_sub(x, RP(fdget, enter), RP(defined_step, step));
		sub_now(x);
		break;
	case KS_FDGET_POS:
		f->fd = (int32_t)value(w, x->t, &s->a);
		f->kfn.kgot = 1;
		get_pos_sub(x, RP(defined_step, step));
		sub_now(x);
		break;
	case KS_FDPUT:
		f->kfn.kgot = 0;
		call_sub(x, RP(fdput, enter), RP(defined_step, step));
		sub_now(x);
		break;
	case KS_FDPUT_POS:
		f->kfn.kgot = 0;
		put_pos_sub(x, RP(defined_step, step));
		sub_now(x);
		break;
	case KS_RETURN:
		if (vfs_kcmp_holds(value(w, x->t, &s->ca), s->cmp, value(w, x->t, &s->cb)))
			kfn_return(x, value(w, x->t, &s->a));
		break;
	case KS_EMIT:
		kfn_emit(x, fn, file, ino, value(w, x->t, &s->a),
			 s->arith ? value(w, x->t, &s->b) : INT64_MAX);
		break;
	}
}

/*
 * A fatal signal while the thread sleeps in a defined step's killable lock
 * (mutex_lock_killable, down_read_killable, down_write_killable): the wait
 * gives up, and the call's error path undoes what it did, as the kernel's
 * code after "if (err) goto out" does: the locks the call still holds
 * released, the newest first, the reference its fdget took put, and the
 * call returns -EINTR.  In a hooked function (and those it calls) the
 * function unwinds only what it took, the locks above kheld, and returns
 * -EINTR to the built-in path, which unwinds its own as the kernel's does
 * on that error: ksys_lseek's fdput_pos after vfs_llseek, the parent's
 * inode_unlock after a lookup that failed.
 */
bool kfn_kill_wait(struct vx *x)
{
	struct vfs_thread *t = x->t;
	struct vfs_frame *f = &t->f;
	if (f->pc != RP(defined_step, step) || !f->kfn.kdepth || !lock_wait_abort(x))
		return false;
	int keep = f->kfn.khook ? f->kfn.kheld : 0;     /* the path's own */
	while (t->nheld > keep) {
		const struct vfs_held *h = &t->held[t->nheld - 1];
		int fn = h->cls == LC_F_LOCK ? VFN_spin_unlock :
			 (h->cls == LC_I_RWSEM || h->cls == LC_I_RWSEM_DIR) && x->w->k.dir_lock ?
			 (h->mode == M_READ ? VFN_up_read : VFN_up_write) : VFN_mutex_unlock;
		lock_release(x, fn, h->lock);
	}
	if (f->kfn.kgot && (f->fdput_flags & FDPUT_FPUT) && f->file >= 0)
		file_put(x, f->pos_get ? VFN_fdput_pos : VFN_fdput, f->file);
	f->kfn.kgot = 0;
	while (f->kfn.kdepth > 1)
		kfn_return(x, -VE_INTR);
	kfn_return(x, -VE_INTR);        /* (a hook: back into the path) */
	return true;
}

/* ---- hooks: a defined function put into a built-in path ---- */

const struct vfs_hook_desc vfs_hooks[VHOOK__COUNT] = {
	[VHOOK_LLSEEK] = { "vfs_llseek", "instead of vfs_llseek: on lseek's file, "
			   "after fdget_pos; its return is lseek's" },
	[VHOOK_LOOKUP] = { "lookup", "before the lookup of the last component, "
			   "under the parent's lock: its inode is the parent "
			   "directory; a negative return fails the call; 'before F "
			   "after G': G after the lookup, whatever it found" },
	[VHOOK_WRAP] = { "wrap_directory_iterator", "in the wrapper's place, for a "
			 "legacy ->iterate under a shared iterate_dir: a "
			 "__must_hold(i_rwsem) function ('iterate' calls ->iterate); "
			 "a negative return is getdents's" },
};

int vfs_hook_lookup(const char *point)
{
	return ROW_LOOKUP(vfs_hooks, VHOOK__COUNT, point, point);
}

int vfs_hook_get(const struct vfs_world *w, int hook)
{
	return w->kdefs && hook >= 0 && hook < VHOOK__COUNT ? w->kdefs->hooks[hook] - 1 : -1;
}

/* A step a function at HOOK (or one it calls) may not have: the path's
 * own file and position are in the frame it shares; only the wrapper's
 * place has a directory context to iterate. */
static const char *hook_refuses(const struct vfs_world *w, int hook, int k, int guard)
{
	const struct vfs_kfn *f = vfs_kfn_get(w, k);
	for (int i = 0; f && guard < VFS_KFN_DEPTH && i < f->nsteps; i++) {
		const struct vfs_kstep *s = &f->step[i];
		if (s->op >= KS_FDGET && s->op <= KS_FDPUT_POS)
			return "fdget and fdput (the path has its file already)";
		if (s->op == KS_EMIT)
			return "emit (the path hands out no entries)";
		if (s->op == KS_ITERATE && hook != VHOOK_WRAP)
			return "iterate (only in wrap_directory_iterator's place)";
		if (s->op == KS_CALL && hook_refuses(w, hook, s->callee, guard + 1))
			return hook_refuses(w, hook, s->callee, guard + 1);
	}
	return NULL;
}

/* Function K (and G after: a pair; -1 none) at HOOK: 0, or -1 and ERR. */
static int hooks_put(struct vfs_world *w, int hook, int k, int g, char *err, size_t nerr)
{
	struct vfs_kdefs *kd = kdefs_mut(w);
	if (!kd) {
		snprintf(err, nerr, "out of memory");
		return -1;
	}
	kd->hooks[hook] = (int8_t)(k + 1);
	kd->hooks_after[hook] = (int8_t)(g + 1);
	return 0;
}

int vfs_hook_set(struct vfs_world *w, int hook, int k, char *err, size_t nerr)
{
	const struct vfs_kfn *f = vfs_kfn_get(w, k);
	if (k >= 0 && (!f || f->syscall)) {
		snprintf(err, nerr, "%s is a system call: a hook is a function "
			 "('define function')", f ? f->name : "?");
		return -1;
	}
	const char *why = k >= 0 ? hook_refuses(w, hook, k, 0) : NULL;
	if (why) {
		snprintf(err, nerr, "%s has a step a hook cannot have: %s", f->name, why);
		return -1;
	}
	bool holds = k >= 0 && f->span == KSPAN_HOLDS && f->spanl[0].lock == KL_I_RWSEM;
	if (k >= 0 && hook == VHOOK_WRAP && !holds) {
		snprintf(err, nerr, "%s is entered holding the directory's i_rwsem "
			 "for reading, and must return so: define function %s "
			 "__must_hold(i_rwsem)", vfs_hooks[hook].point, f->name);
		return -1;
	}
	if (k >= 0 && f->span == KSPAN_HOLDS && hook != VHOOK_WRAP) {
		snprintf(err, nerr, "%s is __must_hold: only wrap_directory_iterator's "
			 "place is entered holding a lock", f->name);
		return -1;
	}
	if (k >= 0 && f->span && !holds) {
		snprintf(err, nerr, "%s %s %s of %s: it is half of a pair around the "
			 "lookup ('hook %s before F after G')", f->name,
			 f->span == KSPAN_ACQUIRES ? "returns holding" : "releases",
			 vfs_klock_names[f->spanl[0].lock], vfs_kobj_names[f->spanl[0].obj],
			 vfs_hooks[VHOOK_LOOKUP].point);
		return -1;
	}
	return hooks_put(w, hook, k, -1, err, nerr);
}

int vfs_hook_get_after(const struct vfs_world *w, int hook)
{
	return w->kdefs && hook >= 0 && hook < VHOOK__COUNT ?
	       w->kdefs->hooks_after[hook] - 1 : -1;
}

/* Whether every lock of A's span is in B's. */
static bool span_in(const struct vfs_kfn *a, const struct vfs_kfn *b)
{
	for (int i = 0; i < a->nspan; i++) {
		bool in = false;
		for (int j = 0; j < b->nspan; j++)
			in |= a->spanl[i].lock == b->spanl[j].lock &&
			      a->spanl[i].obj == b->spanl[j].obj;
		if (!in)
			return false;
	}
	return true;
}

int vfs_hook_set_pair(struct vfs_world *w, int hook, int k, int g, int *bad_word,
		      char *err, size_t nerr)
{
	const struct vfs_kfn *f[2] = { vfs_kfn_get(w, k), vfs_kfn_get(w, g) };
	*bad_word = 0;
	if (hook != VHOOK_LOOKUP) {
		snprintf(err, nerr, "a pair goes around lookup only");
		return -1;
	}
	for (int i = 0; i < 2; i++) {
		const char *why = f[i] && !f[i]->syscall ? hook_refuses(w, hook, i ? g : k, 0) : NULL;
		*bad_word = i;
		if (!f[i] || f[i]->syscall) {
			snprintf(err, nerr, "%s is a system call: a hook is a function "
				 "('define function')", f[i] ? f[i]->name : "?");
			return -1;
		}
		if (why) {
			snprintf(err, nerr, "%s has a step a hook cannot have: %s",
				 f[i]->name, why);
			return -1;
		}
		if (f[i]->span == (i ? KSPAN_ACQUIRES : KSPAN_RELEASES)) {
			snprintf(err, nerr, "%s is %s: it goes %s", f[i]->name,
				 i ? "__acquires" : "__releases", i ? "before" : "after");
			return -1;
		}
	}
	/* what the first returns holding, the second releases: no more, no less */
	const struct vfs_kfn *a = f[0], *r = f[1];
	if (!span_in(a, r) || !span_in(r, a)) {
		bool more = !span_in(a, r);
		const struct vfs_kfn *x = more ? a : r, *y = more ? r : a;
		for (int i = 0; i < x->nspan; i++) {
			bool in = false;
			for (int j = 0; j < y->nspan; j++)
				in |= x->spanl[i].lock == y->spanl[j].lock &&
				      x->spanl[i].obj == y->spanl[j].obj;
			if (in)
				continue;
			*bad_word = 1;
			snprintf(err, nerr, "unbalanced lock and unlock: %s %s %s of %s, "
				 "which %s %s", a->name, more ? "returns holding" :
				 "does not take", vfs_klock_names[x->spanl[i].lock],
				 vfs_kobj_names[x->spanl[i].obj], r->name, more ?
				 "does not release (__releases)" : "releases");
			return -1;
		}
	}
	return hooks_put(w, hook, k, g, err, nerr);
}

bool kfn_hook(struct vx *x, int hook, int ret_rp, int ino)
{
	struct vfs_frame *f = &x->t->f;
	int k = hook >= VHOOK__COUNT ? vfs_hook_get_after(x->w, hook - VHOOK__COUNT) :
		vfs_hook_get(x->w, hook);
	if (k < 0 || f->kfn.kdepth)
		return false;
	f->kfn.kdepth = 1;
	f->kfn.khook = 1;
	f->kfn.kheld = x->t->nheld;
	f->kfn.kino = ino;
	f->kfn.kstack[0].fn = (uint8_t)k;
	f->kfn.kstack[0].pc = 0;
	fn_enter(x, x->w->kdefs->kfns[k].fn);
	call_sub(x, RP(defined_step, step), ret_rp);
	/* (a pair's after half begins at the next step: the built-in step
	 * it follows is one of its own) */
	if (hook < VHOOK__COUNT)
		run_at(x, RP(defined_step, step));
	return true;
}
