/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * open.c - openat and creat (fs/open.c, fs/namei.c: path_openat).
 * The descriptor is reserved first (get_unused_fd_flags) and published
 * last (fd_install), as the kernel does.
 */
#include "internal.h"

static void open_fail(struct vx *x, int64_t err)
{
	struct vfs_frame *f = &x->t->f;
	if (f->fd >= 0) {
		fdt_touch(x->w, x->w->procs[x->t->proc].fdt);
		proc_fdt(x->w, x->t->proc)->fd[f->fd] = 0;  /* put_unused_fd */
	}
	sys_return_from(x, VFN_do_sys_open, err);
}

static bool reserve_fd(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	int proc = x->t->proc;
	fn_enter(x, VFN_do_sys_open);
	f->fd = alloc_fd(x->w, proc, cur_call(x)->a[1] & VO_CLOEXEC);
	access_fdt(x, VFN_get_unused_fd_flags, x->w->procs[proc].fdt, true);
	if (f->fd < 0) {
		int err = f->fd;
		f->fd = -1;
		open_fail(x, err);
		return false;
	}
	return true;
}

/* inode_lock / inode_unlock: i_rwsem since v4.7, i_mutex before */

int inode_lock_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	(void)t;
	return w->k.dir_lock ? VFN_down_write : VFN_mutex_lock;
}

int inode_unlock_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	(void)t;
	return w->k.dir_lock ? VFN_up_write : VFN_mutex_unlock;
}

void inode_lock_then(struct vx *x, int ino, int next)
{
	go(x, next);
	lock_acquire(x, inode_lock_fn(x->w, x->t), VFS_LID(LID_INODE, ino),
		     M_WRITE);
}

void inode_unlock_of(struct vx *x, int ino)
{
	lock_release(x, inode_unlock_fn(x->w, x->t), VFS_LID(LID_INODE, ino));
}

/*
 * do_sys_open (fs/open.c) with path_openat's lookups: openat walks the
 * path (RCU, unlocked); creat looks up the parent and, unless the name
 * is found without locks (v6.11), creates it in open_last_lookups; both
 * end in do_dentry_open and fd_install (and handle_truncate between them
 * for an O_TRUNC of a file creat found).
 */
KERNEL_FN(do_sys_open)
{
	switch (f->pc) {
	case RP(do_sys_open, path_lookup): {
		struct vfs_call *c = cur_call(x);
		if (!reserve_fd(x))
			return;
		int ino = path_walk(x->w, vfs_call_str(x->w, c, 0));
		if (ino < 0) {
			open_fail(x, ino);
			return;
		}
		const struct vfs_inode *in = &x->w->inodes[ino];
		access_rcu_walk(x, VFN_do_sys_open,
				in->parent >= 0 ? in->parent : ino, ino);
		if (in->type == IT_DIR && (c->a[1] & VO_ACCMODE) != VO_RDONLY) {
			open_fail(x, -VE_ISDIR);
			return;
		}
		if (in->type != IT_DIR && (c->a[1] & VO_DIRECTORY)) {
			open_fail(x, -VE_NOTDIR);
			return;
		}
		f->inode = (int32_t)ino;
		go(x, RP(do_sys_open, do_dentry_open));
		return;
	}
	case RP(do_sys_open, parent_lookup): {
		const char *last;
		int parent;
		if (!reserve_fd(x))
			return;
		int r = path_parent(x->w, vfs_call_str(x->w, cur_call(x), 0),
				    &parent, &last);
		if (r < 0) {
			open_fail(x, r);
			return;
		}
		f->open.dir = (int32_t)parent;
		if (x->w->k.era >= VFS_ERA(6, 11)) {
			/* open_last_lookups since v6.11 ("try an opportunistic
			 * lookup for O_CREAT opens too"): a name that exists is
			 * opened from the RCU lookup, the parent never locked */
			char name[VFS_NAME_MAX];
			snprintf(name, sizeof name, "%.*s", (int)strcspn(last, "/"), last);
			int c = inode_child(x->w, parent, name);
			if (c >= 0 && x->w->inodes[c].type == IT_DIR) {
				open_fail(x, -VE_ISDIR);        /* do_open */
				return;
			}
			if (c >= 0) {
				f->inode = f->open.inode = (int32_t)c;
				go(x, RP(do_sys_open, do_dentry_open));
				return;
			}
		}
		go(x, RP(open_last_lookups, inode_lock));
		return;
	}
	case RP(do_sys_open, do_dentry_open): {
		struct vfs_world *w = x->w;
		int acc = (int)(cur_call(x)->a[1] & VO_ACCMODE);

		fn_enter(x, VFN_do_dentry_open);
		int fi = file_alloc(w, FK_INODE);
		if (fi < 0) {
			fn_exit(x, VFN_do_dentry_open, fi);
			open_fail(x, fi);
			return;
		}
		struct vfs_file *fl = &w->files[fi];
		fl->inode = f->inode;
		fl->f_mode = acc == VO_RDONLY ? FMODE_READ : acc == VO_WRONLY ?
			     FMODE_WRITE : FMODE_READ | FMODE_WRITE;
		/* regular files since v3.14, directories since v4.7 */
		if (w->inodes[f->inode].type == IT_REG ?
		    w->k.fpos_lock != FPOS_NONE : w->k.atomic_pos_dir)
			fl->f_mode |= FMODE_ATOMIC_POS;
		f->file = (int32_t)fi;
		fn_exit(x, VFN_do_dentry_open, 0);
		/* do_open: O_TRUNC of a file it did not create, after vfs_open */
		go(x, f->open.inode >= 0 ? RP(handle_truncate, inode_lock) :
				       RP(do_sys_open, fd_install));
		return;
	}
	case RP(do_sys_open, fd_install): {
		struct vfs_fdtable *t = proc_fdt(x->w, x->t->proc);
		fn_enter(x, VFN_fd_install);
		fdt_touch(x->w, x->w->procs[x->t->proc].fdt);
		t->fd[f->fd] = (uint16_t)((t->fd[f->fd] & FD_CLOEXEC_BIT) |
					  (f->file + 1));
		access_fdt(x, VFN_fd_install, x->w->procs[x->t->proc].fdt, true);
		fn_exit(x, VFN_fd_install, f->fd);
		sys_return_from(x, VFN_do_sys_open, f->fd);
		return;
	}
	}
}

/* open_last_lookups: the parent exclusive, so the name cannot appear or
 * vanish between the lookup and the create (lookup_open -> vfs_create) */
KERNEL_FN(open_last_lookups)
{
	switch (f->pc) {
	case RP(open_last_lookups, inode_lock):
		inode_lock_then(x, f->open.dir, RP(open_last_lookups, vfs_create));
		return;
	case RP(open_last_lookups, vfs_create): {
		struct vfs_world *w = x->w;
		const char *last;
		int parent;
		path_parent(w, vfs_call_str(x->w, cur_call(x), 0), &parent, &last);
		char name[VFS_NAME_MAX];
		size_t len = strcspn(last, "/");
		snprintf(name, sizeof name, "%.*s", (int)len, last);

		fn_enter(x, VFN_vfs_create);
		access_inode(x, VFN_vfs_create, FLD_DIR, f->open.dir,
			     w->inodes[f->open.dir].nchildren, false);
		int c = inode_child(w, f->open.dir, name);
		if (w->inodes[f->open.dir].dead) {
			f->res = -VE_NOENT;
		} else if (c >= 0 && w->inodes[c].type == IT_DIR) {
			f->res = -VE_ISDIR;
		} else if (c >= 0) {
			/* not created: O_TRUNC waits for handle_truncate */
			f->inode = f->open.inode = (int32_t)c;
			f->res = 0;
		} else {
			c = inode_alloc(w, f->open.dir, name, IT_REG);
			f->res = c < 0 ? c : 0;
			if (c >= 0) {
				f->inode = (int32_t)c;
				access_dir_change(x, VFN_vfs_create, f->open.dir, c);
			}
		}
		fn_exit(x, VFN_vfs_create, f->res);
		go(x, RP(open_last_lookups, inode_unlock));
		return;
	}
	case RP(open_last_lookups, inode_unlock):
		inode_unlock_of(x, f->open.dir);
		if (f->res < 0) {
			open_fail(x, f->res);
			return;
		}
		go(x, RP(do_sys_open, do_dentry_open));
		return;
	}
}

/* handle_truncate -> do_truncate: the file's own inode lock, exclusive */
KERNEL_FN(handle_truncate)
{
	switch (f->pc) {
	case RP(handle_truncate, inode_lock):
		fn_enter(x, VFN_handle_truncate);
		fn_enter(x, VFN_do_truncate);
		inode_lock_then(x, f->open.inode, RP(handle_truncate, do_truncate));
		return;
	case RP(handle_truncate, do_truncate): {
		int ino = f->open.inode;
		struct vfs_inode *t = inode_mut(x->w, ino);
		t->size = 0;                    /* notify_change -> setattr */
		data_put(t->data);
		t->data = NULL;
		access_inode(x, VFN_do_truncate, FLD_SIZE, ino, 0, true);
		go(x, RP(handle_truncate, inode_unlock));
		return;
	}
	case RP(handle_truncate, inode_unlock):
		inode_unlock_of(x, f->open.inode);
		fn_exit(x, VFN_do_truncate, 0);
		fn_exit(x, VFN_handle_truncate, 0);
		go(x, RP(do_sys_open, fd_install));
		return;
	}
}

