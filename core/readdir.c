/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * readdir.c - getdents64 and iterate_dir (fs/readdir.c), by era:
 *
 *   v3.11..v4.6   only ->iterate, directory locked exclusive
 *   v4.7..v6.4    ->iterate_shared wins under i_rwsem shared (6192269444eb)
 *   v6.5..        only ->iterate_shared; the unconverted filesystems go
 *                 through wrap_directory_iterator (3e3271549670)
 *
 * The f_pos lock (taken or not by fdget_pos) is what keeps two getdents on
 * one struct file apart once the directory lock is shared: ctx->pos is read
 * from f_pos before the iterator runs and written back after it.
 */
#include "internal.h"

static int dir_inode(const struct vx *x)
{
	const struct vfs_file *fl = &x->w->files[x->t->f.file];
	return fl->kind == FK_INODE ? fl->inode : -1;
}

/* ->iterate_shared is used (natively, or through the wrapper) */
static bool iterate_shared(const struct vfs_world *w, int ino)
{
	return w->k.iterate == ITER_SHARED ||
	       (w->k.iterate == ITER_DUAL && dir_native_shared(w, ino));
}

void site_GD_ITERATE(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	if (f->file < 0) {              /* fdget_pos found nothing */
		sys_return(x, -VE_BADF);
		return;
	}
	fn_enter(x, VFN_iterate_dir);
	int ino = dir_inode(x);
	if (ino < 0 || x->w->inodes[ino].type != IT_DIR) {
		f->res = -VE_NOTDIR;    /* no ->iterate_shared on a non-directory */
		fn_exit(x, VFN_iterate_dir, f->res);
		put_pos_sub(x, SITE_RET_RES);
		return;
	}
	f->inode = ino;
	f->dir_locked = iterate_shared(x->w, ino) ? M_READ : M_WRITE;
	f->wrapped = x->w->k.iterate == ITER_SHARED && !dir_native_shared(x->w, ino);
	go(x, SITE_GD_LOCK);
}

int gd_lock_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	if (!w->k.dir_lock)
		return w->k.killable ? VFN_mutex_lock_killable : VFN_mutex_lock;
	if (t->f.dir_locked == M_READ)
		return w->k.killable ? VFN_down_read_killable : VFN_down_read;
	return w->k.killable ? VFN_down_write_killable : VFN_down_write;
}

int gd_unlock_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	if (!w->k.dir_lock)
		return VFN_mutex_unlock;
	return t->f.dir_locked == M_READ ? VFN_up_read : VFN_up_write;
}

void site_GD_LOCK(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	/* Excludes the directory's modifiers (and, exclusive, other readers):
	 * the entries cannot change under the iterator. */
	go(x, SITE_GD_CHECKDEAD);
	lock_acquire(x, gd_lock_fn(x->w, x->t), VFS_LID(LID_INODE, f->inode),
		     f->dir_locked);
}

/* A fatal signal while the thread sleeps in site_GD_LOCK's wait (it
 * resumes at GD_CHECKDEAD once the lock is handed over): when that wait is
 * down_read_killable (or its kin), it returns -EINTR and iterate_dir
 * gives up, unlocking nothing it does not hold; getdents64 says -EINTR. */
bool gd_kill_wait(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	if (f->pc != SITE_GD_CHECKDEAD || !lock_wait_abort(x))
		return false;
	f->res = -VE_INTR;
	fn_exit(x, VFN_iterate_dir, f->res);
	put_pos_sub(x, SITE_RET_RES);
	return true;
}

void site_GD_CHECKDEAD(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_file *fl = &x->w->files[f->file];
	if (x->w->inodes[f->inode].dead) {
		f->res = -VE_NOENT;     /* IS_DEADDIR: rmdir got here first */
		go(x, SITE_GD_UNLOCK);
		return;
	}
	f->pos = fl->f_pos;             /* ctx->pos = file->f_pos */
	access_file(x, VFN_iterate_dir, FLD_F_POS, f->file, f->pos, false, false);
	go(x, f->wrapped ? SITE_GW_ENTER : SITE_GD_ACTOR);
}

int gd_actor_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	const struct vfs_file *fl = &w->files[t->f.file];
	return vfs_inode_fsops(w, fl->inode).iter_fn;
}

static void emit_entry(struct vx *x, int fn, int ino, int64_t off)
{
	struct vfs_callrec *r = &x->t->rec;
	struct vfs_event ev = { .tid = (int8_t)x->tid, .op = OP_EMIT,
		.fn = (uint8_t)fn, .objkind = VOK_INODE, .obj = ino, .value = off,
		.file = x->t->f.file, .dir = x->t->f.inode,
		.ret = x->t->f.pos };
	struct vfs_entvec *v = &x->w->rec_ent[x->tid];
	if (r->nent < v->cap ||
	    world_grow((void **)&v->v, &v->cap, r->nent + 1, sizeof *v->v))
		v->v[r->nent++] = off == 0 ? -1 : off == 1 ? -2 : ino;
	else
		x->w->oom = 1;
	emit(x, &ev);
}

/* The filesystem's iterator: hands out entries from ctx->pos on. */
void site_GD_ACTOR(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	struct vfs_file *fl = &w->files[f->file];
	const struct vfs_inode *dir = &w->inodes[f->inode];
	int fn = gd_actor_fn(w, x->t);
	int64_t max = cur_call(x)->a[1];
	int64_t pos = f->pos, n = 0;

	if (max < 0)
		max = INT64_MAX;        /* (the shell's "all") */
	fn_enter_iter(x, fn);
	access_inode(x, fn, FLD_DIR, f->inode, dir->nchildren, false);
	/* the private readdir state: htree position, cursor dentry, ... */
	access_file(x, fn, FLD_CURSOR, f->file, fl->cursor, false, false);
	if (pos == 0 && n < max) {
		emit_entry(x, fn, f->inode, 0);
		pos = 1;
		n++;
	}
	if (pos == 1 && n < max) {
		emit_entry(x, fn, dir->parent >= 0 ? dir->parent : f->inode, 1);
		pos = 2;
		n++;
	}
	for (int c = dir->first_child; c >= 0 && n < max;
	     c = w->inodes[c].next_sibling) {
		if (w->inodes[c].d_off < pos)
			continue;
		emit_entry(x, fn, c, w->inodes[c].d_off);
		pos = w->inodes[c].d_off + 1;
		n++;
	}
	if (max == 0) {
		/* the first entry does not fit in the buffer */
		bool more = pos < 2;
		for (int c = dir->first_child; c >= 0 && !more;
		     c = w->inodes[c].next_sibling)
			more = w->inodes[c].d_off >= pos;
		n = more ? -VE_INVAL : 0;
	}
	fl->cursor = pos;
	access_file(x, fn, FLD_CURSOR, f->file, pos, true, false);
	f->pos = pos;
	f->res = n;
	fn_exit(x, fn, 0);
	go(x, f->wrapped ? SITE_GW_DOWNGRADE : SITE_GD_SETPOS);
}

void site_GD_SETPOS(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	x->w->files[f->file].f_pos = f->pos;    /* file->f_pos = ctx->pos */
	access_file(x, VFN_iterate_dir, FLD_F_POS, f->file, f->pos, true, false);
	go(x, SITE_GD_UNLOCK);
}

void site_GD_UNLOCK(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	lock_release(x, gd_unlock_fn(x->w, x->t), VFS_LID(LID_INODE, f->inode));
	fn_exit(x, VFN_iterate_dir, f->res);
	put_pos_sub(x, SITE_RET_RES);
}


/* ---- wrap_directory_iterator (v6.5): shared in, exclusive inside ---- */

void site_GW_ENTER(struct vx *x)
{
	fn_enter(x, VFN_wrap_directory_iterator);
	if (x->w->k.wrapper == WRAP_NAIVE_UPGRADE) {
		note(x, VFN_wrap_directory_iterator,
		     "wrapper naive-upgrade: down_write while still holding "
		     "i_rwsem for reading (deliberately wrong: rwsems cannot "
		     "be upgraded)");
		go(x, SITE_GW_DOWN_WRITE);
		return;
	}
	go(x, SITE_GW_UP_READ);
}

void site_GW_UP_READ(struct vx *x)
{
	/* no inode_upgrade_trylock(): drop the read lock, then take it
	 * for writing; anybody may get in between */
	lock_release(x, VFN_up_read, VFS_LID(LID_INODE, x->t->f.inode));
	go(x, SITE_GW_DOWN_WRITE);
}

void site_GW_DOWN_WRITE(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	go(x, SITE_GW_RECHECK);
	/* not killable: the wrapper must return with the lock held */
	lock_acquire(x, VFN_down_write, VFS_LID(LID_INODE, f->inode), M_WRITE);
	f->dir_locked = M_READ; /* what iterate_dir will drop in the end */
}

void site_GW_RECHECK(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	if (x->w->k.wrapper == WRAP_NO_RECHECK) {
		note(x, VFN_wrap_directory_iterator,
		     "wrapper no-recheck: IS_DEADDIR not checked again after "
		     "down_write (deliberately wrong)");
		go(x, SITE_GD_ACTOR);
		return;
	}
	/* we dropped the lock: rmdir may have killed the directory */
	if (x->w->inodes[f->inode].dead) {
		f->res = -VE_NOENT;
		go(x, SITE_GW_DOWNGRADE);
		return;
	}
	go(x, SITE_GD_ACTOR);
}

void site_GW_DOWNGRADE(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	lock_downgrade(x, VFN_downgrade_write, VFS_LID(LID_INODE, f->inode));
	fn_exit(x, VFN_wrap_directory_iterator, f->res);
	go(x, SITE_GD_SETPOS);
}
