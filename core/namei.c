/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * namei.c - mkdir, unlink, rmdir and rename (fs/namei.c), with the
 * locking rules of Documentation/filesystems/directory-locking.rst:
 * the parent exclusive (I_MUTEX_PARENT), then the victim exclusive; a
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

int namei_op_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	(void)w;
	switch (t->rec.call.sys) {
	case SYS_MKDIR:  return VFN_do_mkdirat;
	case SYS_UNLINK: return VFN_do_unlinkat;
	case SYS_RMDIR:  return VFN_do_rmdir;
	default:         return VFN_do_renameat2;
	}
}

int namei_vfs_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	(void)w;
	switch (t->rec.call.sys) {
	case SYS_MKDIR:  return VFN_vfs_mkdir;
	case SYS_UNLINK: return VFN_vfs_unlink;
	case SYS_RMDIR:  return VFN_vfs_rmdir;
	default:         return VFN_vfs_rename;
	}
}

static void namei_fail(struct vx *x, int64_t err)
{
	fn_exit(x, namei_op_fn(x->w, x->t), err);
	sys_return(x, err);
}

static void namei_lookup(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	struct vfs_call *c = cur_call(x);
	const char *last;
	char name[VFS_NAME_MAX];
	int p1, p2 = -1, r;

	fn_enter(x, namei_op_fn(w, x->t));
	r = path_parent(w, vfs_call_str(w, c, 0), &p1, &last);
	if (r == 0 && c->sys == SYS_RENAME)
		r = path_parent(w, vfs_call_str(w, c, 1), &p2, &last);
	if (r < 0) {
		namei_fail(x, r);
		return;
	}
	last_of(vfs_call_str(w, c, 0), name);
	if (c->sys == SYS_RENAME) {
		/* do_renameat2: the mounts first, then a last component
		 * that is "." or ".." in either path */
		char name2[VFS_NAME_MAX];
		if (w->inodes[p1].sb != w->inodes[p2].sb) {
			namei_fail(x, -VE_XDEV);
			return;
		}
		if (is_dots(name) || is_dots(last_of(vfs_call_str(w, c, 1), name2))) {
			namei_fail(x, -VE_BUSY);
			return;
		}
	} else if (is_dots(name)) {
		/* the type != LAST_NORM answers: do_rmdir's EINVAL for "."
		 * and ENOTEMPTY for "..", do_unlinkat's EISDIR,
		 * filename_create's EEXIST */
		int64_t e = c->sys == SYS_MKDIR ? -VE_EXIST :
			    c->sys == SYS_UNLINK ? -VE_ISDIR :
			    !strcmp(name, ".") ? -VE_INVAL : -VE_NOTEMPTY;
		namei_fail(x, e);
		return;
	}
	f->parent = p1;
	/* lock_rename locks these very inodes; the names are looked up in
	 * them afterwards, even if they were moved meanwhile */
	f->sparent = p1;
	f->dparent = (int32_t)(p2 >= 0 ? p2 : p1);
	if (c->sys == SYS_RENAME && p2 != p1 &&
	    w->k.rename_lock == RENLOCK_NO_MUTEX) {
		/* deliberately wrong: no s_vfs_rename_mutex, no ancestor
		 * order, no nesting annotation: the two parents in the
		 * order the arguments name them */
		f->parent2 = p2;
		note(x, namei_op_fn(w, x->t), "rename-lock no-mutex: both "
		     "parents locked in argument order without "
		     "s_vfs_rename_mutex (deliberately wrong)");
		go(x, RP(namei_op, lock_parent));
		return;
	}
	if (c->sys == SYS_RENAME && p2 != p1) {
		/* lock_rename: which parent first is decided only once
		 * s_vfs_rename_mutex is held (namei_op:lock_parent): until then
		 * another rename may move one under the other */
		f->parent = -1;
		fn_enter(x, VFN_lock_rename);
		go(x, RP(namei_op, rename_mutex));
		return;
	}
	if (c->sys == SYS_RENAME)
		fn_enter(x, VFN_lock_rename);
	go(x, RP(namei_op, lock_parent));
}

/*
 * lock_two_directories(p1, p2), called as do_renameat2 does in every era
 * modelled: lock_rename(new_path.dentry, old_path.dentry).  An ancestor
 * first; unrelated parents p1 (the target's) first.
 */
static void order_parents(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	int p1 = f->dparent, p2 = f->sparent;
	if (inode_is_ancestor(x->w, p2, p1)) {
		f->parent = p2;
		f->parent2 = p1;
		return;
	}
	f->parent = p1;
	f->parent2 = p2;
	if (!inode_is_ancestor(x->w, p1, p2))
		note(x, VFN_lock_rename, "unrelated parents: the code locks the "
		     "target's parent first (lock_rename(new_path.dentry, "
		     "old_path.dentry)); directory-locking.rst's prose names "
		     "the source's first");
}

/* Leave through the parents' unlocks with this result. */
static void namei_unwind(struct vx *x, int64_t res)
{
	x->t->f.res = res;
	go(x, RP(namei_op, unlock_parent));
}

static void namei_lookup_victim(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	struct vfs_call *c = cur_call(x);
	char name[VFS_NAME_MAX], name2[VFS_NAME_MAX];
	int sp, dp;     /* source and destination parents */

	if (c->sys == SYS_RENAME && x->t->nfn &&
	    x->t->fnstack[x->t->nfn - 1] == VFN_lock_rename)
		fn_exit(x, VFN_lock_rename, 0);
	sp = f->parent;
	dp = f->parent2 < 0 ? f->parent : f->parent2;
	if (c->sys == SYS_RENAME) {
		sp = f->sparent;
		dp = f->dparent;
	}
	last_of(vfs_call_str(w, c, 0), name);
	access_inode(x, namei_op_fn(w, x->t), FLD_DIR, sp, w->inodes[sp].nchildren,
		     false);
	if (w->inodes[sp].dead || w->inodes[dp].dead) {
		namei_unwind(x, -VE_NOENT);
		return;
	}
	int v = inode_child(w, sp, name);
	f->victim = v;
	switch (c->sys) {
	case SYS_MKDIR:
		if (v >= 0) {
			namei_unwind(x, -VE_EXIST);
			return;
		}
		break;
	case SYS_UNLINK:
		if (v < 0 || w->inodes[v].type == IT_DIR) {
			namei_unwind(x, v < 0 ? -VE_NOENT : -VE_ISDIR);
			return;
		}
		break;
	case SYS_RMDIR:
		if (v < 0 || w->inodes[v].type != IT_DIR) {
			namei_unwind(x, v < 0 ? -VE_NOENT : -VE_NOTDIR);
			return;
		}
		break;
	case SYS_RENAME: {
		last_of(vfs_call_str(w, c, 1), name2);
		if (v < 0) {
			namei_unwind(x, -VE_NOENT);
			return;
		}
		int t = inode_child(w, dp, name2);
		bool sdir = w->inodes[v].type == IT_DIR;
		if (t == v) {
			namei_unwind(x, 0);
			return;
		}
		if (sdir && inode_is_ancestor(w, v, dp)) {
			namei_unwind(x, -VE_INVAL);        /* into itself */
			return;
		}
		if (t >= 0 && sp != dp && inode_is_ancestor(w, t, sp)) {
			/* lock_rename's trap is the target: it is an
			 * ancestor of the source ("target should not be an
			 * ancestor of source") */
			namei_unwind(x, -VE_NOTEMPTY);
			return;
		}
		if (t >= 0 && sdir && w->inodes[t].type != IT_DIR) {
			namei_unwind(x, -VE_NOTDIR);
			return;
		}
		if (t >= 0 && !sdir && w->inodes[t].type == IT_DIR) {
			namei_unwind(x, -VE_ISDIR);
			return;
		}
		if (t >= 0 && w->inodes[t].type == IT_DIR && w->inodes[t].nchildren) {
			namei_unwind(x, -VE_NOTEMPTY);
			return;
		}
		f->victim2 = t;
		break;
	}
	}
	go(x, RP(namei_op, vfs_op));
}

static void namei_vfs_op(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	struct vfs_call *c = cur_call(x);
	int fn = namei_vfs_fn(w, x->t);
	char name[VFS_NAME_MAX];

	fn_enter(x, fn);
	if (c->sys == SYS_MKDIR) {
		int r = inode_alloc(w, f->parent, last_of(vfs_call_str(w, c, 0), name), IT_DIR);
		if (r >= 0)
			access_dir_change(x, fn, f->parent, r);
		fn_exit(x, fn, r < 0 ? r : 0);
		namei_unwind(x, r < 0 ? r : 0);
		return;
	}
	/* the victims: rename locks non-directories in address order,
	 * or the directory it replaces; unlink and rmdir the victim */
	int a = f->victim, b = -1;
	if (c->sys == SYS_RENAME) {
		bool sdir = w->inodes[f->victim].type == IT_DIR;
		/* the moved directory itself: locked on every rename since
		 * v6.5 (28eceeda130f, lock_two_inodes), only when its parent
		 * changes since v6.7 (lock_old_subdir, I_MUTEX_CHILD) */
		bool lock_src = sdir && w->k.era >= VFS_ERA(6, 5) &&
				(w->k.era < VFS_ERA(6, 7) || f->sparent != f->dparent);
		if (sdir && !lock_src) {
			a = f->victim2;
		} else if (sdir && w->k.era >= VFS_ERA(6, 7)) {
			a = f->victim;          /* source first, then target */
			b = f->victim2;
		} else if (f->victim2 >= 0) {
			/* lock_two_nondirectories, lock_two_inodes: by address */
			a = f->victim < f->victim2 ? f->victim : f->victim2;
			b = f->victim < f->victim2 ? f->victim2 : f->victim;
		}
	}
	f->inode = a;  /* first victim lock */
	f->newproc = b;/* second victim lock */
	go(x, a >= 0 ? RP(namei_op, lock_victim) : RP(namei_op, vfs_op_locked));
}

static void move_entry(struct vfs_world *w, int ino, int newparent,
		       const char *name)
{
	inode_unlink_entry(w, ino);
	w->ndying--;            /* (not dying: linked again at once) */
	inode_link_entry(w, ino, newparent, name);
}

static void namei_vfs_op_locked(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	struct vfs_call *c = cur_call(x);
	int fn = namei_vfs_fn(w, x->t);
	int64_t res = 0;

	switch (c->sys) {
	case SYS_UNLINK:
		inode_unlink_entry(w, f->victim);
		access_dir_change(x, fn, f->parent, f->victim);
		break;
	case SYS_RMDIR: {
		const struct vfs_inode *v = &w->inodes[f->victim];
		if (v->is_mountpoint) {
			res = -VE_BUSY;
		} else if (v->nchildren) {
			res = -VE_NOTEMPTY;
		} else {
			/* S_DEAD under the victim's lock: getdents that
			 * comes later sees IS_DEADDIR and says ENOENT */
			inode_mut(w, f->victim)->dead = 1;
			access_inode(x, fn, FLD_DIR, f->victim, 0, true);
			inode_unlink_entry(w, f->victim);
			access_dir_change(x, fn, f->parent, f->victim);
		}
		break;
	}
	case SYS_RENAME: {
		char name2[VFS_NAME_MAX];
		int sp = f->sparent, dp = f->dparent;
		/* the filesystem's ->rename tests emptiness now, with the
		 * target locked (simple_rename, ext4_rename): a name made in
		 * it since the lookup makes this ENOTEMPTY */
		if (f->victim2 >= 0 && w->inodes[f->victim2].type == IT_DIR &&
		    w->inodes[f->victim2].nchildren) {
			res = -VE_NOTEMPTY;
			break;
		}
		if (f->victim2 >= 0) {
			if (w->inodes[f->victim2].type == IT_DIR)
				inode_mut(w, f->victim2)->dead = 1;
			inode_unlink_entry(w, f->victim2);
		}
		move_entry(w, f->victim, dp, last_of(vfs_call_str(w, c, 1), name2));
		access_dir_change(x, fn, sp, f->victim);
		if (dp != sp)
			access_dir_change(x, fn, dp, f->victim);
		break;
	}
	}
	f->res = res;
	if (f->locked_victim2) {
		go(x, RP(namei_op, unlock_victim2));
	} else if (f->locked_victim) {
		go(x, RP(namei_op, unlock_victim));
	} else {
		fn_exit(x, fn, res);
		go(x, RP(namei_op, unlock_parent));
	}
}

static void namei_finish(struct vx *x)
{
	fn_exit(x, namei_op_fn(x->w, x->t), x->t->f.res);
	sys_return(x, x->t->f.res);
}

/*
 * The one body of do_mkdirat, do_unlinkat, do_rmdir and do_renameat2
 * (each step names the call's own kernel function: namei_op_fn, and
 * namei_vfs_fn for vfs_mkdir ... vfs_rename): the parents locked (a
 * cross-directory rename under s_vfs_rename_mutex first, as lock_rename
 * does), the names looked up, the victims locked, the change, and the
 * unlocks in reverse.
 */
void namei_op(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;

	switch (f->pc) {
	case RP(namei_op, lookup):
		namei_lookup(x);
		return;
	case RP(namei_op, rename_mutex):
		/* only one cross-directory rename per filesystem at a time: the
		 * tree's shape cannot change while we check ancestry */
		f->locked_rename = 1;
		go(x, RP(namei_op, lock_parent));
		lock_acquire(x, VFN_mutex_lock, VFS_LID(LID_RENAME, 0), M_EXCL);
		return;
	case RP(namei_op, lock_parent):
		if (f->parent < 0)
			order_parents(x);       /* s_vfs_rename_mutex is held */
		f->locked_parent = 1;
		/* I_MUTEX_PARENT: the names in it cannot change until the
		 * operation is done */
		inode_lock_then(x, f->parent, f->parent2 >= 0 ?
				RP(namei_op, lock_parent2) :
				RP(namei_op, lookup_victim));
		return;
	case RP(namei_op, lock_parent2):
		f->locked_parent2 = 1;
		/* the other parent of a rename, in lock_rename's order */
		inode_lock_then(x, f->parent2, RP(namei_op, lookup_victim));
		return;
	case RP(namei_op, lookup_victim):
		/* the script's function before the lookup ('hook lookup'),
		 * on the parent directory */
		if (!kfn_hook(x, VHOOK_LOOKUP, RP(namei_op, lookup_hooked), f->parent))
			namei_lookup_victim(x);
		return;
	case RP(namei_op, lookup_hooked):
		if (f->kret < 0)
			namei_unwind(x, f->kret);
		else
			namei_lookup_victim(x);
		return;
	case RP(namei_op, vfs_op):
		namei_vfs_op(x);
		return;
	case RP(namei_op, lock_victim):
		f->locked_victim = 1;
		/* the victim's own lock: its i_nlink, S_DEAD, its entries */
		inode_lock_then(x, f->inode, f->newproc >= 0 ?
				RP(namei_op, lock_victim2) :
				RP(namei_op, vfs_op_locked));
		return;
	case RP(namei_op, lock_victim2):
		f->locked_victim2 = 1;
		/* rename's second victim, in lock_two_inodes' order */
		inode_lock_then(x, f->newproc, RP(namei_op, vfs_op_locked));
		return;
	case RP(namei_op, vfs_op_locked):
		namei_vfs_op_locked(x);
		return;
	case RP(namei_op, unlock_victim2):
		inode_unlock_of(x, f->newproc);
		f->locked_victim2 = 0;
		go(x, RP(namei_op, unlock_victim));
		return;
	case RP(namei_op, unlock_victim):
		inode_unlock_of(x, f->inode);
		f->locked_victim = 0;
		fn_exit(x, namei_vfs_fn(x->w, x->t), f->res);
		go(x, RP(namei_op, unlock_parent));
		return;
	case RP(namei_op, unlock_parent):
		if (cur_call(x)->sys == SYS_RENAME)
			fn_enter(x, VFN_unlock_rename);
		inode_unlock_of(x, f->parent);
		f->locked_parent = 0;
		if (f->locked_parent2) {
			go(x, RP(namei_op, unlock_parent2));
			return;
		}
		if (cur_call(x)->sys == SYS_RENAME)
			fn_exit(x, VFN_unlock_rename, 0);
		namei_finish(x);
		return;
	case RP(namei_op, unlock_parent2):
		inode_unlock_of(x, f->parent2);
		f->locked_parent2 = 0;
		if (!f->locked_rename) {        /* rename-lock no-mutex */
			fn_exit(x, VFN_unlock_rename, 0);
			namei_finish(x);
			return;
		}
		go(x, RP(namei_op, rename_mutex_unlock));
		return;
	case RP(namei_op, rename_mutex_unlock):
		lock_release(x, VFN_mutex_unlock, VFS_LID(LID_RENAME, 0));
		f->locked_rename = 0;
		fn_exit(x, VFN_unlock_rename, 0);
		namei_finish(x);
		return;
	}
}

