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
static bool uses_iterate_shared(const struct vfs_world *w, int ino)
{
	return w->k.iterate == ITER_SHARED ||
	       (w->k.iterate == ITER_DUAL && dir_native_shared(w, ino));
}

int iterate_dir_lock_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	if (!w->k.dir_lock)
		return w->k.killable ? VFN_mutex_lock_killable : VFN_mutex_lock;
	if (t->f.iterate_dir.mode == M_READ)
		return w->k.killable ? VFN_down_read_killable : VFN_down_read;
	return w->k.killable ? VFN_down_write_killable : VFN_down_write;
}

int iterate_dir_unlock_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	if (!w->k.dir_lock)
		return VFN_mutex_unlock;
	return t->f.iterate_dir.mode == M_READ ? VFN_up_read : VFN_up_write;
}

/* The filesystem's iterator (->iterate_shared, or the ->iterate the
 * wrapper calls): ext4_readdir, dcache_readdir, ... by the inode's row. */
int iterate_dir_actor_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	const struct vfs_file *fl = &w->files[t->f.file];
	return vfs_inode_fsops(w, fl->inode).iter_fn;
}

/* Entry OFF (the inode INO) handed out: the call's record of it, and its
 * event EV (the entry set in it; the rest is the call's).  (inline: the
 * entry loop's body) */
static inline __attribute__((always_inline)) void
emit_entry(struct vx *x, struct vfs_event *ev, int ino, int64_t off)
{
	struct vfs_callrec *r = &x->t->rec;
	struct vfs_entvec *v = &x->w->rec_ent[x->tid];
	if (r->nent < v->cap ||
	    world_grow((void **)&v->v, &v->cap, r->nent + 1, sizeof *v->v))
		v->v[r->nent++] = off == 0 ? -1 : off == 1 ? -2 : ino;
	else
		x->w->oom = 1;
	ev->obj = ino;
	ev->value = off;
	emit(x, ev);
}

/* Tests only: first_child_from always walks (test_world.c compares). */
bool readdir_walk_only;
_Thread_local unsigned long readdir_guesses;

/* Whether slot C is the first of DIR's (slot D's) children at offset POS
 * or after: a child of DIR there, the one before it (if any) before POS.
 * (any C: a slot out of range or another's is not; nor a freed one, of
 * no parent, nor an unlinked one, of no siblings and not the first) */
static inline bool first_child_is(const struct vfs_world *w,
				  const struct vfs_inode *dir, int d,
				  int64_t pos, int c)
{
	if (c < 0 || c >= w->ninodes)
		return false;
	const struct vfs_inode *e = &w->inodes[c];
	if (e->parent != d || e->d_off < pos)
		return false;
	int p = e->prev_sibling;
	return p < 0 ? dir->first_child == c :
	       w->inodes[p].next_sibling == c && w->inodes[p].d_off < pos;
}

/* The first of DIR's (slot D's) children at offset POS or after, or -1.
 * Its children are in offset order (d_add puts a new name last, at a new
 * offset).  A name made in DIR nearly always takes the next slot as it
 * takes the next offset: the slot as far from the first child's as POS
 * is from its offset is tried first (a getdents per step of a search
 * would walk to it); else the walk, from the end nearer POS. */
int first_child_from(const struct vfs_world *w, const struct vfs_inode *dir,
		     int d, int64_t pos)
{
	int c = dir->first_child;
	if (c >= 0 && !readdir_walk_only) {
		int64_t k = pos > w->inodes[c].d_off ? pos - w->inodes[c].d_off : 0;
		if (k < w->ninodes - c && first_child_is(w, dir, d, pos, c + (int)k)) {
			readdir_guesses++;
			return c + (int)k;
		}
	}
	if (pos - 2 <= dir->next_off - pos) {
		for (c = dir->first_child; c >= 0 && w->inodes[c].d_off < pos;
		     c = w->inodes[c].next_sibling)
			;
		return c;
	}
	int after = -1;
	for (c = dir->last_child; c >= 0 && w->inodes[c].d_off >= pos;
	     c = w->inodes[c].prev_sibling)
		after = c;
	return after;
}

/*
 * Each entry handed out is an event: the detectors check each offset of
 * the pass (handed out twice, or an entry before it skipped).
 */
int64_t emit_entries(struct vx *x, int fn, int ino, int64_t pos, int64_t max,
		     int64_t *count)
{
	const struct vfs_world *w = x->w;
	const struct vfs_inode *dir = &w->inodes[ino];
	struct vfs_event ev = { .tid = (int8_t)x->tid, .op = OP_EMIT,
		.fn = (uint8_t)fn, .objkind = VOK_INODE,
		.file = x->t->f.file, .dir = x->t->f.inode,
		.ret = x->t->f.pos };
	int64_t n = 0;
	if (pos == 0 && n < max) {
		emit_entry(x, &ev, ino, 0);
		pos = 1;
		n++;
	}
	if (pos == 1 && n < max) {
		emit_entry(x, &ev, dir->parent >= 0 ? dir->parent : ino, 1);
		pos = 2;
		n++;
	}
	for (int c = first_child_from(w, dir, ino, pos); c >= 0 && n < max;
	     c = w->inodes[c].next_sibling) {
		emit_entry(x, &ev, c, w->inodes[c].d_off);
		pos = w->inodes[c].d_off + 1;
		n++;
	}
	*count = n;
	return pos;
}

/* The filesystem's iterator: hands out entries from ctx->pos on. */
void dir_iterate(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	struct vfs_file *fl = &w->files[f->file];
	const struct vfs_inode *dir = &w->inodes[f->inode];
	int fn = iterate_dir_actor_fn(w, x->t);
	int64_t max = cur_call(x)->a[1];
	int64_t pos = f->pos, n = 0;

	if (max < 0)
		max = INT64_MAX;        /* (the shell's "all") */
	/* (the entry's check of S_DEAD reads the directory, as the
	 * iterator does next; the cursor is written in the end.  A
	 * search's step whose detectors read neither, the directory being
	 * alive, only numbers them: unread_events) */
	bool unread = unread_events(x) && !dir->dead;
	if (unread) {
		fn_stack_push(x, fn);
		w->seq++;
	} else {
		fn_enter_iter(x, fn);
	}
	access_inode(x, fn, FLD_DIR, f->inode, dir->nchildren, false);
	/* the private readdir state: htree position, cursor dentry, ... */
	if (unread)
		w->seq++;
	else
		access_file(x, fn, FLD_CURSOR, f->file, fl->cursor, false, false);
	pos = emit_entries(x, fn, f->inode, pos, max, &n);
	if (max == 0) {
		/* the first entry does not fit in the buffer */
		bool more = pos < 2 || first_child_from(w, dir, f->inode, pos) >= 0;
		n = more ? -VE_INVAL : 0;
	}
	file_touch(w, f->file);
	fl->cursor = pos;
	access_file(x, fn, FLD_CURSOR, f->file, pos, true, false);
	f->pos = pos;
	f->res = n;
	fn_exit(x, fn, 0);
}

static int64_t iterate_var(void *ctx, int id)
{
	struct vx *x = ctx;
	if (id >= VFS_XVAR_FIELD)       /* a field the script declared */
		return ufield_read(x, VFN_iterate_dir, id - VFS_XVAR_FIELD, x->t->f.file,
				   x->t->f.inode);
	return id == VDV_NATIVE_SHARED ? dir_native_shared(x->w, x->t->f.inode) :
	       x->w->k.iterate == ITER_SHARED;
}

/* The dispatch: ->iterate_shared under i_rwsem shared, or ->iterate
 * exclusive; the script's expression where it overrode it (`override
 * iterate_dir`), noted where it decides otherwise than the kernel. */
static bool decide_iterate(struct vx *x, int ino)
{
	const struct vfs_expr *e = vfs_override(x->w, VDEC_ITERATE);
	bool kernel = uses_iterate_shared(x->w, ino);
	if (!e)
		return kernel;
	bool shared = vfs_expr_eval(e, iterate_var, x) != 0;
	if (shared != kernel)
		note(x, VFN_iterate_dir, shared ? (dir_native_shared(x->w, ino) ||
		     x->w->k.iterate == ITER_SHARED ? "iterate_dir overridden by "
		     "the script: ->iterate_shared under i_rwsem shared where the "
		     "kernel calls ->iterate exclusive" : "iterate_dir overridden by "
		     "the script: the legacy ->iterate under i_rwsem shared, no "
		     "wrapper") : "iterate_dir overridden by the script: i_rwsem "
		     "exclusive where the kernel takes it shared");
	return shared;
}

/* iterate_dir's end: its result in the frame, then fdput_pos. */
static void iterate_dir_return(struct vx *x)
{
	fn_exit(x, VFN_iterate_dir, x->t->f.res);
	put_pos_sub(x, RP(do_syscall_64, exit));
}

/*
 * iterate_dir (fs/readdir.c), entered from getdents64 once fdget_pos has
 * the file.  Each case is one step, in the kernel's order.
 */
KERNEL_FN(iterate_dir)
{
	struct vfs_world *w = x->w;

	switch (f->pc) {
	case RP(iterate_dir, enter): {
		if (f->file < 0) {      /* fdget_pos found nothing */
			sys_return(x, -VE_BADF);
			return;
		}
		fn_enter(x, VFN_iterate_dir);
		int ino = dir_inode(x);
		if (ino < 0 || w->inodes[ino].type != IT_DIR) {
			f->res = -VE_NOTDIR;    /* no ->iterate_shared on a non-directory */
			iterate_dir_return(x);
			return;
		}
		f->inode = ino;
		bool shared = decide_iterate(x, ino);
		f->iterate_dir.mode = shared ? M_READ : M_WRITE;
		f->iterate_dir.wrapped = shared && w->k.iterate == ITER_SHARED &&
			     !dir_native_shared(w, ino);
		go(x, RP(iterate_dir, lock));
		return;
	}
	case RP(iterate_dir, lock):
		/* Excludes the directory's modifiers (and, exclusive, other
		 * readers): the entries cannot change under the iterator. */
		go(x, RP(iterate_dir, deaddir));
		lock_acquire(x, iterate_dir_lock_fn(w, x->t),
			     VFS_LID(LID_INODE, f->inode), f->iterate_dir.mode);
		return;
	case RP(iterate_dir, deaddir):
		if (w->inodes[f->inode].dead) {
			f->res = -VE_NOENT;     /* IS_DEADDIR: rmdir got here first */
			go(x, RP(iterate_dir, unlock));
			return;
		}
		f->pos = w->files[f->file].f_pos;       /* ctx->pos = file->f_pos */
		access_file(x, VFN_iterate_dir, FLD_F_POS, f->file, f->pos, false, false);
		/* the unconverted filesystem's ->iterate_shared is the wrapper */
		go(x, f->iterate_dir.wrapped ? RP(wrap_directory_iterator, enter) :
				   RP(iterate_dir, iterate));
		return;
	case RP(iterate_dir, iterate):
		/* res = file->f_op->iterate_shared(file, ctx), or the wrapper's
		 * iter(file, ctx): the filesystem's own iterator */
		dir_iterate(x);
		go(x, f->iterate_dir.wrapped ? RP(wrap_directory_iterator, downgrade) :
				   RP(iterate_dir, set_pos));
		return;
	case RP(iterate_dir, set_pos):
		file_touch(w, f->file);
		w->files[f->file].f_pos = f->pos;       /* file->f_pos = ctx->pos */
		access_file(x, VFN_iterate_dir, FLD_F_POS, f->file, f->pos, true, false);
		go(x, RP(iterate_dir, unlock));
		return;
	case RP(iterate_dir, unlock):
		lock_release(x, iterate_dir_unlock_fn(w, x->t),
			     VFS_LID(LID_INODE, f->inode));
		iterate_dir_return(x);
		return;
	}
}

/* A fatal signal while the thread sleeps in iterate_dir's lock (it
 * resumes at iterate_dir:deaddir once the lock is handed over): when that
 * wait is down_read_killable (or its kin), it returns -EINTR and
 * iterate_dir gives up, unlocking nothing it does not hold; getdents64
 * says -EINTR. */
bool iterate_dir_kill_wait(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	if (f->pc != RP(iterate_dir, deaddir) || !lock_wait_abort(x))
		return false;
	f->res = -VE_INTR;
	iterate_dir_return(x);
	return true;
}


/*
 * wrap_directory_iterator (fs/readdir.c, v6.5): iterate_dir holds i_rwsem
 * shared; the unconverted filesystem's ->iterate wants it exclusive, and
 * the wrapper must give it back shared.
 */
KERNEL_FN(wrap_directory_iterator)
{
	struct vfs_world *w = x->w;

	switch (f->pc) {
	case RP(wrap_directory_iterator, enter):
		/* the script's function in the wrapper's place, entered
		 * holding i_rwsem for reading as the wrapper is */
		if (kfn_hook(x, VHOOK_WRAP, RP(wrap_directory_iterator, hooked), -1))
			return;
		fn_enter(x, VFN_wrap_directory_iterator);
		if (w->k.wrapper == WRAP_NAIVE_UPGRADE) {
			note(x, VFN_wrap_directory_iterator,
			     "wrapper naive-upgrade: down_write while still holding "
			     "i_rwsem for reading (deliberately wrong: rwsems cannot "
			     "be upgraded)");
			go(x, RP(wrap_directory_iterator, down_write));
			return;
		}
		go(x, RP(wrap_directory_iterator, up_read));
		return;
	case RP(wrap_directory_iterator, up_read):
		/* no inode_upgrade_trylock(): drop the read lock, then take it
		 * for writing; anybody may get in between */
		lock_release(x, VFN_up_read, VFS_LID(LID_INODE, f->inode));
		go(x, RP(wrap_directory_iterator, down_write));
		return;
	case RP(wrap_directory_iterator, down_write):
		go(x, RP(wrap_directory_iterator, deaddir));
		/* not killable: the wrapper must return with the lock held */
		lock_acquire(x, VFN_down_write, VFS_LID(LID_INODE, f->inode), M_WRITE);
		f->iterate_dir.mode = M_READ; /* what iterate_dir will drop in the end */
		return;
	case RP(wrap_directory_iterator, deaddir):
		if (w->k.wrapper == WRAP_NO_RECHECK) {
			note(x, VFN_wrap_directory_iterator,
			     "wrapper no-recheck: IS_DEADDIR not checked again after "
			     "down_write (deliberately wrong)");
			go(x, RP(iterate_dir, iterate));
			return;
		}
		/* we dropped the lock: rmdir may have killed the directory */
		if (w->inodes[f->inode].dead) {
			f->res = -VE_NOENT;
			go(x, RP(wrap_directory_iterator, downgrade));
			return;
		}
		go(x, RP(iterate_dir, iterate));        /* ret = iter(file, ctx) */
		return;
	case RP(wrap_directory_iterator, hooked):
		/* its error is iterate_dir's; else what its iterate counted */
		if (f->kfn.kret < 0)
			f->res = f->kfn.kret;
		go(x, RP(iterate_dir, set_pos));
		return;
	case RP(wrap_directory_iterator, downgrade):
		/* back to shared, as iterate_dir expects: nobody gets in */
		lock_downgrade(x, VFN_downgrade_write, VFS_LID(LID_INODE, f->inode));
		fn_exit(x, VFN_wrap_directory_iterator, f->res);
		go(x, RP(iterate_dir, set_pos));
		return;
	}
}
