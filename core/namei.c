/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * namei.c - mkdir, unlink, rmdir and rename (fs/namei.c): do_mkdirat,
 * do_unlinkat, do_rmdir and do_renameat2, each a switch on its own resume
 * points, with the helpers they share named as the kernel's
 * (filename_parentat, lock_rename, lookup_one_qstr_excl, vfs_mkdir,
 * vfs_unlink, vfs_rmdir, vfs_rename, unlock_rename); the first three are
 * one sequence, mainline's start_dirop and end_dirop around the vfs_
 * function, which dirop_step runs from each path's row of dirops[] (its
 * resume points), leaving each path its own change.  The locking rules
 * are Documentation/filesystems/directory-locking.rst's: the parent
 * exclusive (I_MUTEX_PARENT), then the victim exclusive; a
 * cross-directory rename first takes s_vfs_rename_mutex, then decides
 * and takes the parents (ancestor first, else the target's parent first,
 * as the code calls lock_rename), then the victims: non-directories in
 * address order (lock_two_nondirectories), the moved directory by era.
 */
#include "internal.h"

static const char *last_of(const char *path, char *name)
{
	const char *last;
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	last = path + len;
	while (last > path && last[-1] != '/')
		last--;
	snprintf(name, VFS_NAME_MAX, "%.*s", (int)(path + len - last), last);
	return name;
}

static bool is_dots(const char *name)
{
	return !strcmp(name, ".") || !strcmp(name, "..");
}

/* The call's path argument I: its last component's name in NAME. */
static const char *arg_last(struct vx *x, int i, char *name)
{
	return last_of(vfs_call_str(x->w, cur_call(x), i), name);
}

/* ---- the steps the four share ---- */

/*
 * filename_parentat, and what do_mkdirat (filename_create), do_unlinkat
 * and do_rmdir do with its answer before they lock anything: a last
 * component that is "." or ".." (type != LAST_NORM) answers
 * filename_create's EEXIST, do_unlinkat's EISDIR, do_rmdir's EINVAL for
 * "." and ENOTEMPTY for "..".  FN is the call's kernel function, DOTS
 * its answers; the parent in the frame, then NEXT (lock the parent).
 */
static void filename_parentat(struct vx *x, int fn, int64_t dot,
			      int64_t dotdot, int next)
{
	struct vfs_namei_locals *nd = &x->t->f.namei;
	const char *last;
	char name[VFS_NAME_MAX];
	int p;

	fn_enter(x, fn);
	int r = path_parent(x->w, vfs_call_str(x->w, cur_call(x), 0), &p, &last);
	if (r == 0 && is_dots(arg_last(x, 0, name)))
		r = (int)(!strcmp(name, ".") ? dot : dotdot);
	if (r < 0) {
		sys_return_from(x, fn, r);
		return;
	}
	nd->parent = nd->old_dir = nd->new_dir = p;
	go(x, next);
}

/* inode_lock of INO (a parent, a victim), held as long as the frame's
 * LOCKED says so (what the unlocks and a kill's unwind read); then NEXT */
static void namei_lock(struct vx *x, uint8_t *locked, int ino, int next)
{
	*locked = 1;
	inode_lock_then(x, ino, next);
}

/* inode_unlock of INO, no longer held as LOCKED said */
static void namei_unlock(struct vx *x, uint8_t *locked, int ino)
{
	inode_unlock_of(x, ino);
	*locked = 0;
}

/* inode_lock_nested(parent, I_MUTEX_PARENT): the names in it cannot
 * change until the operation is done; then NEXT (the lookup) */
static void lock_parent(struct vx *x, int next)
{
	struct vfs_namei_locals *nd = &x->t->f.namei;
	namei_lock(x, &nd->locked_parent, nd->parent, next);
}

/*
 * lookup_one_qstr_excl (__lookup_hash before v6.4): the last component
 * of the call's path argument I in DIR, which the call has locked, read
 * as the call's kernel function FN reads it; -ENOENT when DIR (or
 * rename's other parent OTHER) was removed meanwhile.  The child, or -1.
 */
static int lookup_one_qstr_excl(struct vx *x, int fn, int i, int dir, int other,
				int *child)
{
	const struct vfs_world *w = x->w;
	char name[VFS_NAME_MAX];
	access_inode(x, fn, FLD_DIR, dir, w->inodes[dir].nchildren, false);
	if (w->inodes[dir].dead || w->inodes[other].dead)
		return -VE_NOENT;
	*child = inode_child(w, dir, arg_last(x, i, name));
	return 0;
}

/* Leave through the parents' unlocks (NEXT) with this result. */
static void namei_unwind(struct vx *x, int64_t res, int next)
{
	x->t->f.res = res;
	go(x, next);
}

/*
 * After the lookup, its answer RES, the path going on at NEXT: the after
 * half of a pair ('hook lookup before F after G') runs first, whatever
 * the lookup found, as the kernel's error paths after a lookup release
 * what was taken before it (done_path_create, the dput and unlock after
 * a failed lookup_one_qstr_excl); it comes back to AFTER, which goes on
 * to NEXT.  G's return is not looked at: the lookup's answer stands.
 */
static void lookup_done(struct vx *x, int64_t res, int next, int after)
{
	struct vfs_frame *f = &x->t->f;
	f->res = res;
	f->namei.after_next = (uint16_t)next;
	if (!kfn_hook(x, VHOOK__COUNT + VHOOK_LOOKUP, after, f->namei.parent))
		go(x, next);
}

/* Back at AFTER from the pair's after half: on, in this same step, where
 * lookup_done was sending the path */
static void lookup_after(struct vx *x)
{
	int next = x->t->f.namei.after_next;
	go(x, next);
	run_at(x, next);
}

/* 'hook lookup': the script's function before the lookup of the last
 * component, under the parent's lock, on the (first) parent directory.
 * True while it runs, or when its negative return failed the call (the
 * pair's after half run when the function still holds what it took, then
 * the parents unlocked from UNLOCK); false: do the lookup now (no
 * function there, or it came back to HOOKED with 0 or more). */
static bool lookup_hook(struct vx *x, int hooked, int unlock, int after)
{
	struct vfs_frame *f = &x->t->f;
	if (f->pc != hooked)
		return kfn_hook(x, VHOOK_LOOKUP, hooked, f->namei.parent);
	if (f->kfn.kret >= 0)
		return false;
	/* (a kill in its wait released what it took: nothing to undo, as
	 * the kernel's caller of a failed lock function undoes nothing) */
	if (x->t->nheld > f->kfn.kheld)
		lookup_done(x, f->kfn.kret, unlock, after);
	else
		namei_unwind(x, f->kfn.kret, unlock);
	return true;
}

/* The victim's own lock (its i_nlink, S_DEAD, its entries): f->inode,
 * then NEXT; rename's second in lock_two_inodes' order at NEXT2. */
static void lock_victim(struct vx *x, int next2, int next)
{
	struct vfs_frame *f = &x->t->f;
	namei_lock(x, &f->namei.locked_victim, f->inode,
		   f->namei.inode2 >= 0 ? next2 : next);
}

/* After the change under the victims' locks (FN: vfs_unlink ...): their
 * unlocks (UNLOCK_VICTIM2, UNLOCK_VICTIM), or the parent's (UNLOCK_PARENT). */
static void vfs_op_done(struct vx *x, int fn, int64_t res, int unlock_victim2,
			int unlock_victim, int unlock_parent)
{
	struct vfs_frame *f = &x->t->f;
	f->res = res;
	if (f->namei.locked_victim2) {
		go(x, unlock_victim2);
	} else if (f->namei.locked_victim) {
		go(x, unlock_victim);
	} else {
		fn_exit(x, fn, res);
		go(x, unlock_parent);
	}
}

/* inode_unlock of the victim, out of FN (vfs_unlink ...), then NEXT */
static void unlock_victim(struct vx *x, int fn, int next)
{
	struct vfs_frame *f = &x->t->f;
	namei_unlock(x, &f->namei.locked_victim, f->inode);
	fn_exit(x, fn, f->res);
	go(x, next);
}

/* inode_unlock of the parent, then out of the call FN with its result */
static void unlock_parent(struct vx *x, int fn)
{
	struct vfs_frame *f = &x->t->f;
	namei_unlock(x, &f->namei.locked_parent, f->namei.parent);
	sys_return_from(x, fn, f->res);
}

/* do_unlinkat's and do_rmdir's vfs_unlink / vfs_rmdir: the victim to lock */
static void vfs_op_victim(struct vx *x, int fn, int next)
{
	struct vfs_frame *f = &x->t->f;
	fn_enter(x, fn);
	f->inode = f->namei.dentry;     /* the victim's lock */
	f->namei.inode2 = -1;
	go(x, next);
}

/* ---- start_dirop, end_dirop: do_mkdirat's, do_unlinkat's, do_rmdir's ---- */

/*
 * The three run one sequence, whose middle mainline names start_dirop
 * (the parent locked, inode_lock_nested(I_MUTEX_PARENT), then
 * lookup_one_qstr_excl) and end_dirop (the parent unlocked):
 * filename_parentat, start_dirop, the vfs_ function (vfs_unlink and
 * vfs_rmdir lock the victim around their change; vfs_mkdir locks
 * nothing), end_dirop.  A row says what differs: the call's kernel
 * function and its vfs_ function, filename_parentat's answers for "."
 * and "..", the lookup's answer for a name that is missing, a directory
 * or not one, and the path's own resume point for each step (a trace and
 * 'where' name do_rmdir:lock_parent, never a shared step).  The change
 * itself is the path's own step, in its own function.
 */
struct dirop {
	int16_t fn, vfs_fn;
	int16_t dot, dotdot;                    /* -errno */
	int16_t missing, dir, nondir;           /* 0 or -errno */
	int16_t parentat, lock_parent, lookup, lookup_hooked, lookup_after,
		vfs_op, lock_victim, change, unlock_victim, unlock_parent;
};

/* FUNC's resume points for the steps of the sequence, VFS its vfs_ function */
#define DIROP_STEPS(func, vfs)                                                \
	.fn = VFN_##func, .vfs_fn = VFN_##vfs, .parentat = RP(func, parentat),\
	.lock_parent = RP(func, lock_parent), .lookup = RP(func, lookup),     \
	.lookup_hooked = RP(func, lookup_hooked),                             \
	.lookup_after = RP(func, lookup_after), .vfs_op = RP(func, vfs),      \
	.unlock_parent = RP(func, unlock_parent)
/* ... and those of the victim's lock around the vfs_ function's STEP */
#define DIROP_VICTIM(func, step)                                              \
	.lock_victim = RP(func, lock_victim), .change = RP(func, step),       \
	.unlock_victim = RP(func, unlock_victim)

enum { DIROP_MKDIRAT, DIROP_UNLINKAT, DIROP_RMDIR };
static const struct dirop dirops[] = {
	[DIROP_MKDIRAT] = { DIROP_STEPS(do_mkdirat, vfs_mkdir), .lock_victim = -1,
		.change = -1, .unlock_victim = -1, .dot = -VE_EXIST, .dotdot = -VE_EXIST,
		.dir = -VE_EXIST, .nondir = -VE_EXIST },
	[DIROP_UNLINKAT] = { DIROP_STEPS(do_unlinkat, vfs_unlink), DIROP_VICTIM(do_unlinkat, unlink),
		.dot = -VE_ISDIR, .dotdot = -VE_ISDIR, .missing = -VE_NOENT, .dir = -VE_ISDIR },
	[DIROP_RMDIR] = { DIROP_STEPS(do_rmdir, vfs_rmdir), DIROP_VICTIM(do_rmdir, rmdir),
		.dot = -VE_INVAL, .dotdot = -VE_NOTEMPTY, .missing = -VE_NOENT, .nondir = -VE_NOTDIR },
};

/* start_dirop's lookup_one_qstr_excl, after the script's 'hook lookup'
 * function if there is one; its answer by what the name is, then on to
 * the vfs_ function or out through end_dirop */
static void start_dirop_lookup(struct vx *x, const struct dirop *op)
{
	struct vfs_frame *f = &x->t->f;
	int v;

	if (lookup_hook(x, op->lookup_hooked, op->unlock_parent, op->lookup_after))
		return;
	int r = lookup_one_qstr_excl(x, op->fn, 0, f->namei.parent, f->namei.parent, &v);
	if (r == 0) {
		f->namei.dentry = v;
		r = v < 0 ? op->missing : x->w->inodes[v].type == IT_DIR ? op->dir : op->nondir;
	}
	lookup_done(x, r, r < 0 ? op->unlock_parent : op->vfs_op, op->lookup_after);
}

/* One step of OP's sequence but the path's own (the change; vfs_mkdir,
 * which locks no victim, is do_mkdirat's own) */
static void dirop_step(struct vx *x, const struct dirop *op)
{
	int pc = x->t->f.pc;

	if (pc == op->parentat)
		filename_parentat(x, op->fn, op->dot, op->dotdot, op->lock_parent);
	else if (pc == op->lock_parent)
		lock_parent(x, op->lookup);
	else if (pc == op->lookup || pc == op->lookup_hooked)
		start_dirop_lookup(x, op);
	else if (pc == op->lookup_after)
		lookup_after(x);
	else if (pc == op->vfs_op)
		vfs_op_victim(x, op->vfs_fn, op->lock_victim);
	else if (pc == op->lock_victim)
		lock_victim(x, op->change, op->change);
	else if (pc == op->unlock_victim)
		unlock_victim(x, op->vfs_fn, op->unlock_parent);
	else if (pc == op->unlock_parent)
		unlock_parent(x, op->fn);       /* end_dirop */
}

/* After the change of OP's vfs_ function, its answer RES: the victim's unlock */
static void dirop_done(struct vx *x, const struct dirop *op, int64_t res)
{
	vfs_op_done(x, op->vfs_fn, res, op->unlock_victim, op->unlock_victim,
		    op->unlock_parent);
}

/* ---- do_mkdirat ---- */

/* filename_create (filename_parentat, the parent locked, the name looked
 * up: it must not exist), vfs_mkdir, done_path_create (the parent
 * unlocked); vfs_mkdir is the path's own step, dirop_step runs the others */
KERNEL_FN(do_mkdirat)
{
	char name[VFS_NAME_MAX];

	if (f->pc != RP(do_mkdirat, vfs_mkdir)) {
		dirop_step(x, &dirops[DIROP_MKDIRAT]);
		return;
	}
	fn_enter(x, VFN_vfs_mkdir);
	int r = inode_alloc(x->w, f->namei.parent, arg_last(x, 0, name), IT_DIR);
	if (r >= 0)
		access_dir_change(x, VFN_vfs_mkdir, f->namei.parent, r);
	fn_exit(x, VFN_vfs_mkdir, r < 0 ? r : 0);
	namei_unwind(x, r < 0 ? r : 0, RP(do_mkdirat, unlock_parent));
}

/* ---- do_unlinkat ---- */

/* filename_parentat, start_dirop (the name must not be a directory),
 * vfs_unlink (the victim locked around its change), end_dirop; the
 * change, unlink, is the path's own step, dirop_step runs the others */
KERNEL_FN(do_unlinkat)
{
	if (f->pc != RP(do_unlinkat, unlink)) {
		dirop_step(x, &dirops[DIROP_UNLINKAT]);
		return;
	}
	inode_unlink_entry(x->w, f->namei.dentry);
	access_dir_change(x, VFN_vfs_unlink, f->namei.parent, f->namei.dentry);
	dirop_done(x, &dirops[DIROP_UNLINKAT], 0);
}

/* ---- do_rmdir ---- */

/* filename_parentat, start_dirop (the name must be a directory),
 * vfs_rmdir (the victim locked around its change), end_dirop; the
 * change, rmdir, is the path's own step, dirop_step runs the others */
KERNEL_FN(do_rmdir)
{
	struct vfs_world *w = x->w;

	if (f->pc != RP(do_rmdir, rmdir)) {
		dirop_step(x, &dirops[DIROP_RMDIR]);
		return;
	}
	const struct vfs_inode *d = &w->inodes[f->namei.dentry];
	int64_t r = 0;
	if (d->is_mountpoint) {
		r = -VE_BUSY;
	} else if (d->nchildren) {
		r = -VE_NOTEMPTY;
	} else {
		/* S_DEAD under the victim's lock: getdents that
		 * comes later sees IS_DEADDIR and says ENOENT */
		inode_mut(w, f->namei.dentry)->dead = 1;
		access_inode(x, VFN_vfs_rmdir, FLD_DIR, f->namei.dentry, 0, true);
		inode_unlink_entry(w, f->namei.dentry);
		access_dir_change(x, VFN_vfs_rmdir, f->namei.parent, f->namei.dentry);
	}
	dirop_done(x, &dirops[DIROP_RMDIR], r);
}

/* ---- do_renameat2 ---- */

/*
 * lock_two_directories(p1, p2), called as do_renameat2 does in every era
 * modelled: lock_rename(new_path.dentry, old_path.dentry).  An ancestor
 * first; unrelated parents p1 (the target's) first.
 */
static void lock_rename_order(struct vx *x)
{
	struct vfs_namei_locals *nd = &x->t->f.namei;
	int p1 = nd->new_dir, p2 = nd->old_dir;
	if (inode_is_ancestor(x->w, p2, p1)) {
		nd->parent = p2;
		nd->parent2 = p1;
		return;
	}
	nd->parent = p1;
	nd->parent2 = p2;
	if (!inode_is_ancestor(x->w, p1, p2))
		note(x, VFN_lock_rename, "unrelated parents: the code locks the "
		     "target's parent first (lock_rename(new_path.dentry, "
		     "old_path.dentry)); directory-locking.rst's prose names "
		     "the source's first");
}

/* do_renameat2's filename_parentat of both paths, the mounts, then a
 * last component that is "." or ".." in either path; lock_rename entered */
static void rename_parentat(struct vx *x)
{
	struct vfs_namei_locals *nd = &x->t->f.namei;
	struct vfs_world *w = x->w;
	const char *last;
	char name[VFS_NAME_MAX], name2[VFS_NAME_MAX];
	int p1, p2 = -1;

	fn_enter(x, VFN_do_renameat2);
	int r = path_parent(w, vfs_call_str(w, cur_call(x), 0), &p1, &last);
	if (r == 0)
		r = path_parent(w, vfs_call_str(w, cur_call(x), 1), &p2, &last);
	if (r == 0 && w->inodes[p1].sb != w->inodes[p2].sb)
		r = -VE_XDEV;
	if (r == 0 && (is_dots(arg_last(x, 0, name)) || is_dots(arg_last(x, 1, name2))))
		r = -VE_BUSY;
	if (r < 0) {
		sys_return_from(x, VFN_do_renameat2, r);
		return;
	}
	/* lock_rename locks these very inodes; the names are looked up in
	 * them afterwards, even if they were moved meanwhile */
	nd->parent = nd->old_dir = p1;
	nd->new_dir = p2;
	if (p2 != p1 && w->k.rename_lock == RENLOCK_NO_MUTEX) {
		/* deliberately wrong: no s_vfs_rename_mutex, no ancestor
		 * order, no nesting annotation: the two parents in the
		 * order the arguments name them */
		nd->parent2 = p2;
		note(x, VFN_do_renameat2, "rename-lock no-mutex: both "
		     "parents locked in argument order without "
		     "s_vfs_rename_mutex (deliberately wrong)");
		go(x, RP(do_renameat2, lock_parent));
		return;
	}
	fn_enter(x, VFN_lock_rename);
	if (p2 != p1) {
		/* lock_rename: which parent first is decided only once
		 * s_vfs_rename_mutex is held (do_renameat2:lock_parent):
		 * until then another rename may move one under the other */
		nd->parent = -1;
		go(x, RP(do_renameat2, rename_mutex));
		return;
	}
	go(x, RP(do_renameat2, lock_parent));
}

/* do_renameat2's lookups in the locked parents (lookup_one_qstr_excl
 * twice) and its checks: the source, the trap, the types */
static int rename_lookup(struct vx *x)
{
	struct vfs_namei_locals *nd = &x->t->f.namei;
	const struct vfs_world *w = x->w;
	int sp = nd->old_dir, dp = nd->new_dir, v, t;

	if (x->t->nfn && x->t->fnstack[x->t->nfn - 1] == VFN_lock_rename)
		fn_exit(x, VFN_lock_rename, 0);
	int r = lookup_one_qstr_excl(x, VFN_do_renameat2, 0, sp, dp, &v);
	if (r < 0)
		return r;
	nd->dentry = v;
	if (v < 0)
		return -VE_NOENT;
	char name2[VFS_NAME_MAX];
	t = inode_child(w, dp, arg_last(x, 1, name2));
	bool sdir = w->inodes[v].type == IT_DIR;
	if (t == v)
		return 0;
	if (sdir && inode_is_ancestor(w, v, dp))
		return -VE_INVAL;               /* into itself */
	/* lock_rename's trap is the target: it is an ancestor of the
	 * source ("target should not be an ancestor of source") */
	if (t >= 0 && sp != dp && inode_is_ancestor(w, t, sp))
		return -VE_NOTEMPTY;
	if (t >= 0 && sdir && w->inodes[t].type != IT_DIR)
		return -VE_NOTDIR;
	if (t >= 0 && !sdir && w->inodes[t].type == IT_DIR)
		return -VE_ISDIR;
	if (t >= 0 && w->inodes[t].type == IT_DIR && w->inodes[t].nchildren)
		return -VE_NOTEMPTY;
	nd->new_dentry = t;
	return 1;
}

/* vfs_rename's victims: non-directories in address order, or the
 * directory it replaces; the first in f->inode, the second in inode2 */
static void vfs_rename_victims(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	const struct vfs_world *w = x->w;
	int old = f->namei.dentry, new = f->namei.new_dentry, a = old, b = -1;
	bool sdir = w->inodes[old].type == IT_DIR;
	/* the moved directory itself: locked on every rename since v6.5
	 * (28eceeda130f, lock_two_inodes), only when its parent changes
	 * since v6.7 (lock_old_subdir, I_MUTEX_CHILD) */
	bool lock_src = sdir && w->k.era >= VFS_ERA(6, 5) &&
			(w->k.era < VFS_ERA(6, 7) || f->namei.old_dir != f->namei.new_dir);
	if (sdir && !lock_src) {
		a = new;
	} else if (sdir && w->k.era >= VFS_ERA(6, 7)) {
		b = new;                /* source first, then target */
	} else if (new >= 0) {
		/* lock_two_nondirectories, lock_two_inodes: by address */
		a = old < new ? old : new;
		b = old < new ? new : old;
	}
	f->inode = a;
	f->namei.inode2 = b;
}

static void move_entry(struct vfs_world *w, int ino, int newparent,
		       const char *name)
{
	inode_unlink_entry(w, ino);
	w->ndying--;            /* (not dying: linked again at once) */
	inode_link_entry(w, ino, newparent, name);
}

/* vfs_rename's change under the victims' locks: the filesystem's ->rename */
static int64_t vfs_rename_locked(struct vx *x)
{
	const struct vfs_namei_locals *nd = &x->t->f.namei;
	struct vfs_world *w = x->w;
	char name2[VFS_NAME_MAX];
	int sp = nd->old_dir, dp = nd->new_dir, new = nd->new_dentry;
	/* the filesystem's ->rename tests emptiness now, with the target
	 * locked (simple_rename, ext4_rename): a name made in it since the
	 * lookup makes this ENOTEMPTY */
	if (new >= 0 && w->inodes[new].type == IT_DIR && w->inodes[new].nchildren)
		return -VE_NOTEMPTY;
	if (new >= 0) {
		if (w->inodes[new].type == IT_DIR)
			inode_mut(w, new)->dead = 1;
		inode_unlink_entry(w, new);
	}
	move_entry(w, nd->dentry, dp, arg_last(x, 1, name2));
	access_dir_change(x, VFN_vfs_rename, sp, nd->dentry);
	if (dp != sp)
		access_dir_change(x, VFN_vfs_rename, dp, nd->dentry);
	return 0;
}

/* unlock_rename, then out of do_renameat2 with the result */
static void unlock_rename_done(struct vx *x)
{
	fn_exit(x, VFN_unlock_rename, 0);
	sys_return_from(x, VFN_do_renameat2, x->t->f.res);
}

/*
 * The parents locked (a cross-directory rename under s_vfs_rename_mutex
 * first, as lock_rename does), the names looked up, the victims locked,
 * the change, and the unlocks in reverse.
 */
KERNEL_FN(do_renameat2)
{
	struct vfs_namei_locals *nd = &f->namei;
	int r;

	switch (f->pc) {
	case RP(do_renameat2, parentat):
		rename_parentat(x);
		return;
	case RP(do_renameat2, rename_mutex):
		/* only one cross-directory rename per filesystem at a time: the
		 * tree's shape cannot change while we check ancestry */
		nd->locked_rename = 1;
		go(x, RP(do_renameat2, lock_parent));
		lock_acquire(x, VFN_mutex_lock, VFS_LID(LID_RENAME, 0), M_EXCL);
		return;
	case RP(do_renameat2, lock_parent):
		if (nd->parent < 0)
			lock_rename_order(x);   /* s_vfs_rename_mutex is held */
		lock_parent(x, nd->parent2 >= 0 ? RP(do_renameat2, lock_parent2) :
			    RP(do_renameat2, lookup));
		return;
	case RP(do_renameat2, lock_parent2):
		/* the other parent, in lock_rename's order */
		namei_lock(x, &nd->locked_parent2, nd->parent2, RP(do_renameat2, lookup));
		return;
	case RP(do_renameat2, lookup_after):
		lookup_after(x);
		return;
	case RP(do_renameat2, lookup):
	case RP(do_renameat2, lookup_hooked):
		if (lookup_hook(x, RP(do_renameat2, lookup_hooked),
				RP(do_renameat2, unlock_parent), RP(do_renameat2, lookup_after)))
			return;
		r = rename_lookup(x);
		lookup_done(x, r < 0 ? r : 0, r > 0 ? RP(do_renameat2, vfs_rename) :
			    RP(do_renameat2, unlock_parent), RP(do_renameat2, lookup_after));
		return;
	case RP(do_renameat2, vfs_rename):
		fn_enter(x, VFN_vfs_rename);
		vfs_rename_victims(x);
		go(x, f->inode >= 0 ? RP(do_renameat2, lock_victim) :
		   RP(do_renameat2, rename));
		return;
	case RP(do_renameat2, lock_victim):
		lock_victim(x, RP(do_renameat2, lock_victim2), RP(do_renameat2, rename));
		return;
	case RP(do_renameat2, lock_victim2):
		/* the second victim, in lock_two_inodes' order */
		namei_lock(x, &nd->locked_victim2, nd->inode2, RP(do_renameat2, rename));
		return;
	case RP(do_renameat2, rename):
		vfs_op_done(x, VFN_vfs_rename, vfs_rename_locked(x),
			    RP(do_renameat2, unlock_victim2),
			    RP(do_renameat2, unlock_victim),
			    RP(do_renameat2, unlock_parent));
		return;
	case RP(do_renameat2, unlock_victim2):
		namei_unlock(x, &nd->locked_victim2, nd->inode2);
		go(x, RP(do_renameat2, unlock_victim));
		return;
	case RP(do_renameat2, unlock_victim):
		unlock_victim(x, VFN_vfs_rename, RP(do_renameat2, unlock_parent));
		return;
	case RP(do_renameat2, unlock_parent):
		/* unlock_rename: the parents, then s_vfs_rename_mutex */
		fn_enter(x, VFN_unlock_rename);
		namei_unlock(x, &nd->locked_parent, nd->parent);
		if (nd->locked_parent2)
			go(x, RP(do_renameat2, unlock_parent2));
		else
			unlock_rename_done(x);
		return;
	case RP(do_renameat2, unlock_parent2):
		namei_unlock(x, &nd->locked_parent2, nd->parent2);
		if (nd->locked_rename)
			go(x, RP(do_renameat2, rename_mutex_unlock));
		else
			unlock_rename_done(x);  /* rename-lock no-mutex */
		return;
	case RP(do_renameat2, rename_mutex_unlock):
		lock_release(x, VFN_mutex_unlock, VFS_LID(LID_RENAME, 0));
		nd->locked_rename = 0;
		unlock_rename_done(x);
		return;
	}
}
