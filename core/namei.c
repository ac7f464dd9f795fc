/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * namei.c - mkdir, unlink, rmdir and rename (fs/namei.c): do_mkdirat,
 * do_unlinkat, do_rmdir and do_renameat2, each a switch on its own resume
 * points, with the helpers they share named as the kernel's
 * (filename_parentat, lock_rename, lookup_one_qstr_excl, vfs_mkdir,
 * vfs_unlink, vfs_rmdir, vfs_rename, unlock_rename).  The locking rules
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
		fn_exit(x, fn, r);
		sys_return(x, r);
		return;
	}
	nd->parent = nd->old_dir = nd->new_dir = p;
	go(x, next);
}

/* inode_lock_nested(parent, I_MUTEX_PARENT): the names in it cannot
 * change until the operation is done; then NEXT (the lookup) */
static void lock_parent(struct vx *x, int next)
{
	x->t->f.namei.locked_parent = 1;
	inode_lock_then(x, x->t->f.namei.parent, next);
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
	f->namei.locked_victim = 1;
	inode_lock_then(x, f->inode, f->namei.inode2 >= 0 ? next2 : next);
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
	inode_unlock_of(x, f->inode);
	f->namei.locked_victim = 0;
	fn_exit(x, fn, f->res);
	go(x, next);
}

/* inode_unlock of the parent, then out of the call FN with its result */
static void unlock_parent(struct vx *x, int fn)
{
	struct vfs_frame *f = &x->t->f;
	inode_unlock_of(x, f->namei.parent);
	f->namei.locked_parent = 0;
	fn_exit(x, fn, f->res);
	sys_return(x, f->res);
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

/* ---- do_mkdirat ---- */

/* filename_create (the parent, locked; the name must not exist), vfs_mkdir,
 * done_path_create (the parent unlocked) */
void do_mkdirat(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	char name[VFS_NAME_MAX];
	int v, r;

	switch (f->pc) {
	case RP(do_mkdirat, parentat):
		filename_parentat(x, VFN_do_mkdirat, -VE_EXIST, -VE_EXIST,
				  RP(do_mkdirat, lock_parent));
		return;
	case RP(do_mkdirat, lock_parent):
		lock_parent(x, RP(do_mkdirat, lookup));
		return;
	case RP(do_mkdirat, lookup_after):
		go(x, f->namei.after_next);
		run_at(x, f->namei.after_next);
		return;
	case RP(do_mkdirat, lookup):
	case RP(do_mkdirat, lookup_hooked):
		if (lookup_hook(x, RP(do_mkdirat, lookup_hooked), RP(do_mkdirat, unlock_parent),
				RP(do_mkdirat, lookup_after)))
			return;
		r = lookup_one_qstr_excl(x, VFN_do_mkdirat, 0, f->namei.parent,
					 f->namei.parent, &v);
		if (r == 0) {
			f->namei.dentry = v;
			if (v >= 0)
				r = -VE_EXIST;
		}
		lookup_done(x, r, r < 0 ? RP(do_mkdirat, unlock_parent) :
			    RP(do_mkdirat, vfs_mkdir), RP(do_mkdirat, lookup_after));
		return;
	case RP(do_mkdirat, vfs_mkdir):
		fn_enter(x, VFN_vfs_mkdir);
		r = inode_alloc(w, f->namei.parent, arg_last(x, 0, name), IT_DIR);
		if (r >= 0)
			access_dir_change(x, VFN_vfs_mkdir, f->namei.parent, r);
		fn_exit(x, VFN_vfs_mkdir, r < 0 ? r : 0);
		namei_unwind(x, r < 0 ? r : 0, RP(do_mkdirat, unlock_parent));
		return;
	case RP(do_mkdirat, unlock_parent):
		unlock_parent(x, VFN_do_mkdirat);
		return;
	}
}

/* ---- do_unlinkat ---- */

void do_unlinkat(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	int v, r;

	switch (f->pc) {
	case RP(do_unlinkat, parentat):
		filename_parentat(x, VFN_do_unlinkat, -VE_ISDIR, -VE_ISDIR,
				  RP(do_unlinkat, lock_parent));
		return;
	case RP(do_unlinkat, lock_parent):
		lock_parent(x, RP(do_unlinkat, lookup));
		return;
	case RP(do_unlinkat, lookup_after):
		go(x, f->namei.after_next);
		run_at(x, f->namei.after_next);
		return;
	case RP(do_unlinkat, lookup):
	case RP(do_unlinkat, lookup_hooked):
		if (lookup_hook(x, RP(do_unlinkat, lookup_hooked), RP(do_unlinkat, unlock_parent),
				RP(do_unlinkat, lookup_after)))
			return;
		r = lookup_one_qstr_excl(x, VFN_do_unlinkat, 0, f->namei.parent,
					 f->namei.parent, &v);
		if (r == 0) {
			f->namei.dentry = v;
			if (v < 0 || w->inodes[v].type == IT_DIR)
				r = v < 0 ? -VE_NOENT : -VE_ISDIR;
		}
		lookup_done(x, r, r < 0 ? RP(do_unlinkat, unlock_parent) :
			    RP(do_unlinkat, vfs_unlink), RP(do_unlinkat, lookup_after));
		return;
	case RP(do_unlinkat, vfs_unlink):
		vfs_op_victim(x, VFN_vfs_unlink, RP(do_unlinkat, lock_victim));
		return;
	case RP(do_unlinkat, lock_victim):
		lock_victim(x, RP(do_unlinkat, unlink), RP(do_unlinkat, unlink));
		return;
	case RP(do_unlinkat, unlink):
		inode_unlink_entry(w, f->namei.dentry);
		access_dir_change(x, VFN_vfs_unlink, f->namei.parent, f->namei.dentry);
		vfs_op_done(x, VFN_vfs_unlink, 0, RP(do_unlinkat, unlock_victim),
			    RP(do_unlinkat, unlock_victim), RP(do_unlinkat, unlock_parent));
		return;
	case RP(do_unlinkat, unlock_victim):
		unlock_victim(x, VFN_vfs_unlink, RP(do_unlinkat, unlock_parent));
		return;
	case RP(do_unlinkat, unlock_parent):
		unlock_parent(x, VFN_do_unlinkat);
		return;
	}
}

/* ---- do_rmdir ---- */

void do_rmdir(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	int v, r;

	switch (f->pc) {
	case RP(do_rmdir, parentat):
		filename_parentat(x, VFN_do_rmdir, -VE_INVAL, -VE_NOTEMPTY,
				  RP(do_rmdir, lock_parent));
		return;
	case RP(do_rmdir, lock_parent):
		lock_parent(x, RP(do_rmdir, lookup));
		return;
	case RP(do_rmdir, lookup_after):
		go(x, f->namei.after_next);
		run_at(x, f->namei.after_next);
		return;
	case RP(do_rmdir, lookup):
	case RP(do_rmdir, lookup_hooked):
		if (lookup_hook(x, RP(do_rmdir, lookup_hooked), RP(do_rmdir, unlock_parent),
				RP(do_rmdir, lookup_after)))
			return;
		r = lookup_one_qstr_excl(x, VFN_do_rmdir, 0, f->namei.parent,
					 f->namei.parent, &v);
		if (r == 0) {
			f->namei.dentry = v;
			if (v < 0 || w->inodes[v].type != IT_DIR)
				r = v < 0 ? -VE_NOENT : -VE_NOTDIR;
		}
		lookup_done(x, r, r < 0 ? RP(do_rmdir, unlock_parent) :
			    RP(do_rmdir, vfs_rmdir), RP(do_rmdir, lookup_after));
		return;
	case RP(do_rmdir, vfs_rmdir):
		vfs_op_victim(x, VFN_vfs_rmdir, RP(do_rmdir, lock_victim));
		return;
	case RP(do_rmdir, lock_victim):
		lock_victim(x, RP(do_rmdir, rmdir), RP(do_rmdir, rmdir));
		return;
	case RP(do_rmdir, rmdir): {
		const struct vfs_inode *d = &w->inodes[f->namei.dentry];
		r = 0;
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
			access_dir_change(x, VFN_vfs_rmdir, f->namei.parent,
					  f->namei.dentry);
		}
		vfs_op_done(x, VFN_vfs_rmdir, r, RP(do_rmdir, unlock_victim),
			    RP(do_rmdir, unlock_victim), RP(do_rmdir, unlock_parent));
		return;
	}
	case RP(do_rmdir, unlock_victim):
		unlock_victim(x, VFN_vfs_rmdir, RP(do_rmdir, unlock_parent));
		return;
	case RP(do_rmdir, unlock_parent):
		unlock_parent(x, VFN_do_rmdir);
		return;
	}
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
		fn_exit(x, VFN_do_renameat2, r);
		sys_return(x, r);
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
	fn_exit(x, VFN_do_renameat2, x->t->f.res);
	sys_return(x, x->t->f.res);
}

/*
 * The parents locked (a cross-directory rename under s_vfs_rename_mutex
 * first, as lock_rename does), the names looked up, the victims locked,
 * the change, and the unlocks in reverse.
 */
void do_renameat2(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
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
		nd->locked_parent2 = 1;
		/* the other parent, in lock_rename's order */
		inode_lock_then(x, nd->parent2, RP(do_renameat2, lookup));
		return;
	case RP(do_renameat2, lookup_after):
		go(x, nd->after_next);
		run_at(x, nd->after_next);
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
		nd->locked_victim2 = 1;
		/* the second victim, in lock_two_inodes' order */
		inode_lock_then(x, nd->inode2, RP(do_renameat2, rename));
		return;
	case RP(do_renameat2, rename):
		vfs_op_done(x, VFN_vfs_rename, vfs_rename_locked(x),
			    RP(do_renameat2, unlock_victim2),
			    RP(do_renameat2, unlock_victim),
			    RP(do_renameat2, unlock_parent));
		return;
	case RP(do_renameat2, unlock_victim2):
		inode_unlock_of(x, nd->inode2);
		nd->locked_victim2 = 0;
		go(x, RP(do_renameat2, unlock_victim));
		return;
	case RP(do_renameat2, unlock_victim):
		unlock_victim(x, VFN_vfs_rename, RP(do_renameat2, unlock_parent));
		return;
	case RP(do_renameat2, unlock_parent):
		/* unlock_rename: the parents, then s_vfs_rename_mutex */
		fn_enter(x, VFN_unlock_rename);
		inode_unlock_of(x, nd->parent);
		nd->locked_parent = 0;
		if (nd->locked_parent2)
			go(x, RP(do_renameat2, unlock_parent2));
		else
			unlock_rename_done(x);
		return;
	case RP(do_renameat2, unlock_parent2):
		inode_unlock_of(x, nd->parent2);
		nd->locked_parent2 = 0;
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
