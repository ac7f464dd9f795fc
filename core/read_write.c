/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * read_write.c - lseek, read, write, pread64, pwrite64 (fs/read_write.c)
 * and the directory llseeks of the filesystems (fs/libfs.c, ceph, ovl).
 *
 * ksys_read and ksys_write copy f_pos to a local, call vfs_read/vfs_write,
 * then store it back: without the f_pos lock two threads can both read
 * the old position and one update is lost.
 */
#include "internal.h"

static void finish_llseek(struct vx *x, int fsfn)
{
	fn_exit(x, fsfn, x->t->f.res);
	fn_exit(x, VFN_vfs_llseek, x->t->f.res);
	put_pos_sub(x, RP(do_syscall_64, exit));
}

int f_op_llseek_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	(void)w;
	return vfs_llseek_fn[t->f.llseek.flavour];
}

int llseek_inode_lock_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	if (!w->k.dir_lock)
		return VFN_mutex_lock;
	return t->f.llseek.mode == M_READ ? VFN_down_read : VFN_down_write;
}

int llseek_inode_unlock_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	if (!w->k.dir_lock)
		return VFN_mutex_unlock;
	return t->f.llseek.mode == M_READ ? VFN_up_read : VFN_up_write;
}

/*
 * Where the seek goes, into *POS; false when it goes nowhere, the call's
 * result then EINVAL.  vfs_setpos() refuses a negative offset and, for
 * generic_file_llseek, one past the filesystem's s_maxbytes.  NO_END: the
 * `switch (whence)` that dcache_dir_lseek, offset_dir_llseek and
 * ovl_dir_llseek each open with, which knows SEEK_SET and SEEK_CUR only.
 * The kernel's f_pos + offset (or i_size + offset) wraps negative on
 * overflow; here the sum is checked, with the same answer.
 */
static bool target(struct vx *x, int fsfn, bool no_end, int64_t *pos)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	struct vfs_file *fl = &w->files[f->file];
	struct vfs_call *c = cur_call(x);
	int64_t base = 0;

	f->res = -VE_INVAL;
	if (no_end && c->a[2] == VSEEK_END)
		return false;
	switch (c->a[2]) {
	case VSEEK_CUR:
		base = fl->f_pos;
		access_file(x, fsfn, FLD_F_POS, f->file, base, false, false);
		break;
	case VSEEK_END: {
		const struct vfs_inode *ino = &w->inodes[fl->inode];
		base = ino->type == IT_DIR ? ino->nchildren + 2 : ino->size;
		/* i_size_read(): lockless by design (generic_file_llseek,
		 * ext4_dir_llseek), for directories too: the inode's size,
		 * not its entries */
		access_inode(x, fsfn, FLD_SIZE, fl->inode, base, false);
		break;
	}
	}
	int64_t maxsize = f->llseek.flavour == LLSEEK_GENERIC ?
		vfs_inode_fsops(w, fl->inode).maxbytes : INT64_MAX;
	return !__builtin_add_overflow(base, c->a[1], pos) && *pos >= 0 &&
	       *pos <= maxsize;
}

static void write_fpos(struct vx *x, int fsfn, int64_t pos)
{
	struct vfs_frame *f = &x->t->f;
	file_touch(x->w, f->file);
	x->w->files[f->file].f_pos = pos;
	access_file(x, fsfn, FLD_F_POS, f->file, pos, true, false);
}

/* vfs_setpos: "if (offset != file->f_pos)" - f_pos written only when it
 * changes, so seeks to where the file stands only read it */
static void setpos(struct vx *x, int fsfn, int64_t pos, bool cursor)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_file *fl = &x->w->files[f->file];
	access_file(x, fsfn, FLD_F_POS, f->file, fl->f_pos, false, false);
	if (pos != fl->f_pos)
		write_fpos(x, fsfn, pos);
	if (cursor) {   /* the filesystem resets its readdir state */
		file_touch(x->w, f->file);
		fl->cursor = pos;
		access_file(x, fsfn, FLD_CURSOR, f->file, pos, true, false);
	}
	f->res = pos;
}

/* The filesystem's ->llseek (generic_file_llseek, dcache_dir_lseek, ...:
 * f_op_llseek_fn), up to the lock it may take. */
static void fs_llseek(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	struct vfs_file *fl = &w->files[f->file];
	int fsfn = f_op_llseek_fn(w, x->t);
	int64_t whence = cur_call(x)->a[2], pos;

	fn_enter(x, fsfn);
	switch (f->llseek.flavour) {
	case LLSEEK_GENERIC:
	case LLSEEK_EXT4_DIR:
		if (whence == VSEEK_CUR) {
			if (cur_call(x)->a[1] == 0) {   /* the lockless shortcut */
				f->res = fl->f_pos;
				access_file(x, fsfn, FLD_F_POS, f->file, f->res, false, false);
				break;
			}
			/* SEEK_CUR reads and writes f_pos: f_lock keeps that
			 * atomic even without the f_pos lock */
			go(x, RP(vfs_llseek, spin_lock));
			return;
		}
		if (target(x, fsfn, false, &pos))
			setpos(x, fsfn, pos, false);
		break;
	case LLSEEK_DCACHE_DIR:
		if (w->k.era < VFS_ERA(4, 7)) {
			/* up to v4.6 the whole call holds i_mutex */
			f->llseek.mode = M_WRITE;
			go(x, RP(vfs_llseek, inode_lock));
			return;
		}
		if (!target(x, fsfn, true, &pos))
			break;
		access_file(x, fsfn, FLD_F_POS, f->file, fl->f_pos, false, false);
		if (pos == fl->f_pos) {
			f->res = pos;
			break;
		}
		if (w->k.era >= VFS_ERA(5, 4)) {
			/* since v5.4 every move takes the lock shared and
			 * writes f_pos inside it (vfs_llseek:inode_locked) */
			f->llseek.mode = M_READ;
			f->pos = f->res = pos;
			go(x, RP(vfs_llseek, inode_lock));
			return;
		}
		/* v4.7 .. v5.3: f_pos first, the lock only to move the
		 * cursor past position 2 */
		write_fpos(x, fsfn, pos);
		f->res = pos;
		if (pos < 2) {
			file_touch(w, f->file);
			fl->cursor = pos;
			access_file(x, fsfn, FLD_CURSOR, f->file, pos, true, false);
		}
		if (pos >= 2) {
			/* moving the cursor dentry walks the children */
			f->llseek.mode = M_READ;
			f->pos = pos;
			go(x, RP(vfs_llseek, inode_lock));
			return;
		}
		break;
	case LLSEEK_OFFSET_DIR:
		if (!target(x, fsfn, true, &pos))
			break;
		/* "->private_data is protected by f_pos_lock" */
		setpos(x, fsfn, pos, true);
		break;
	case LLSEEK_CEPH_DIR:
	case LLSEEK_OVL_DIR:
	case LLSEEK_DEFAULT:
		/* the whole seek under the inode lock, exclusive */
		f->llseek.mode = M_WRITE;
		go(x, RP(vfs_llseek, inode_lock));
		return;
	}
	finish_llseek(x, fsfn);
}

/* ... and its work under the inode lock (ceph, ovl, default_llseek, and
 * dcache_dir_lseek by era). */
static void fs_llseek_locked(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	struct vfs_file *fl = &w->files[f->file];
	int fsfn = f_op_llseek_fn(w, x->t);
	int64_t pos;

	go(x, RP(vfs_llseek, inode_unlock));
	if (f->llseek.flavour == LLSEEK_DCACHE_DIR && f->llseek.mode == M_WRITE) {
		/* up to v4.6: whence, the new position and f_pos under
		 * i_mutex; the cursor moves only past position 2 */
		if (!target(x, fsfn, true, &pos))
			return;
		access_file(x, fsfn, FLD_F_POS, f->file, fl->f_pos, false, false);
		f->res = f->pos = pos;
		if (pos == fl->f_pos)
			return;
		write_fpos(x, fsfn, pos);
		if (pos < 2)
			return;
	}
	if (f->llseek.flavour == LLSEEK_DCACHE_DIR) {
		/* scan_positives + list_move of the cursor */
		access_inode(x, fsfn, FLD_DIR, f->inode, w->inodes[f->inode].nchildren,
			     false);
		file_touch(w, f->file);
		fl->cursor = f->pos;
		access_file(x, fsfn, FLD_CURSOR, f->file, f->pos, true, false);
		if (w->k.era >= VFS_ERA(5, 4))
			write_fpos(x, fsfn, f->pos);
		return;
	}
	if (cur_call(x)->a[2] == VSEEK_END && f->llseek.flavour == LLSEEK_CEPH_DIR) {
		f->res = -VE_OPNOTSUPP;
		return;
	}
	if (!target(x, fsfn, f->llseek.flavour == LLSEEK_OVL_DIR, &pos))
		return;
	if (pos != fl->f_pos)
		setpos(x, fsfn, pos, f->llseek.flavour != LLSEEK_DEFAULT);
	f->res = pos;
}

/*
 * vfs_llseek (fs/read_write.c), under ksys_lseek's fdget_pos: the
 * filesystem's ->llseek, with the lock it takes: f_lock (spin_lock) for
 * SEEK_CUR, or the inode lock, by filesystem and era.
 */
KERNEL_FN(vfs_llseek)
{
	switch (f->pc) {
	case RP(vfs_llseek, enter): {
		struct vfs_world *w = x->w;
		if (f->file < 0) {
			sys_return(x, -VE_BADF);
			return;
		}
		/* the script's function in vfs_llseek's place ('hook vfs_llseek') */
		if (kfn_hook(x, VHOOK_LLSEEK, RP(vfs_llseek, hooked), -1))
			return;
		fn_enter(x, VFN_vfs_llseek);
		struct vfs_file *fl = &w->files[f->file];
		int64_t whence = cur_call(x)->a[2];
		if (fl->kind == FK_PIDFD || whence < VSEEK_SET || whence > VSEEK_END) {
			f->res = fl->kind == FK_PIDFD ? -VE_SPIPE : -VE_INVAL;
			fn_exit(x, VFN_vfs_llseek, f->res);
			put_pos_sub(x, RP(do_syscall_64, exit));
			return;
		}
		const struct vfs_inode *ino = &w->inodes[fl->inode];
		if (ino->type != IT_DIR) {
			f->llseek.flavour = LLSEEK_GENERIC;
		} else {
			f->llseek.flavour = vfs_inode_fsops(w, fl->inode).llseek;
		}
		f->inode = fl->inode;
		go(x, RP(vfs_llseek, f_op_llseek));
		return;
	}
	case RP(vfs_llseek, f_op_llseek):
		fs_llseek(x);
		return;
	case RP(vfs_llseek, spin_lock):
		go(x, RP(vfs_llseek, f_lock_held));
		lock_acquire(x, VFN_spin_lock, VFS_LID(LID_FILE_LOCK, f->file), M_EXCL);
		return;
	case RP(vfs_llseek, f_lock_held): {
		int fsfn = f_op_llseek_fn(x->w, x->t);
		int64_t pos;
		if (target(x, fsfn, false, &pos))
			setpos(x, fsfn, pos, false);
		lock_release(x, VFN_spin_unlock, VFS_LID(LID_FILE_LOCK, f->file));
		finish_llseek(x, fsfn);
		return;
	}
	case RP(vfs_llseek, inode_lock):
		go(x, RP(vfs_llseek, inode_locked));
		lock_acquire(x, llseek_inode_lock_fn(x->w, x->t),
			     VFS_LID(LID_INODE, f->inode), f->llseek.mode);
		return;
	case RP(vfs_llseek, inode_locked):
		fs_llseek_locked(x);
		return;
	case RP(vfs_llseek, hooked):
		f->res = f->kfn.kret;
		put_pos_sub(x, RP(do_syscall_64, exit));
		return;
	case RP(vfs_llseek, inode_unlock):
		lock_release(x, llseek_inode_unlock_fn(x->w, x->t),
			     VFS_LID(LID_INODE, f->inode));
		finish_llseek(x, f_op_llseek_fn(x->w, x->t));
		return;
	}
}



/* ---- read ---- */

/* `if (!f.file) return -EBADF;` after fdget/fdget_pos: true when so */
static bool no_file(struct vx *x)
{
	if (x->t->f.file >= 0)
		return false;
	sys_return(x, -VE_BADF);
	return true;
}

/* Before pidfs (v6.9) a pidfd was an anon inode file without FMODE_PREAD
 * and FMODE_PWRITE: pread64 and pwrite64 say ESPIPE; pidfs opens it
 * through do_dentry_open. */
static bool no_fmode_ppos(const struct vx *x)
{
	return x->w->files[x->t->f.file].kind == FK_PIDFD && x->w->k.era < VFS_ERA(6, 9);
}

/* On to NEXT; the end of the call is through fdput (pread64, pwrite64's
 * plain fdget) */
static void go_or_fdput(struct vx *x, int next)
{
	if (next == RP(do_syscall_64, exit))
		call_sub(x, RP(fdput, enter), RP(do_syscall_64, exit));
	else
		go(x, next);
}

/* pos = *file_ppos(file): ksys_read and ksys_write work on a copy */
static void pos_read(struct vx *x, int fn, int next)
{
	struct vfs_frame *f = &x->t->f;
	if (no_file(x))
		return;
	f->pos = x->w->files[f->file].f_pos;
	access_file(x, fn, FLD_F_POS, f->file, f->pos, false, false);
	go(x, next);
}

/* ... and store it back when the call worked: file->f_pos = pos */
static void pos_write(struct vx *x, int fn)
{
	struct vfs_frame *f = &x->t->f;
	if (f->res >= 0) {
		file_touch(x->w, f->file);
		x->w->files[f->file].f_pos = f->pos;
		access_file(x, fn, FLD_F_POS, f->file, f->pos, true, false);
	}
	put_pos_sub(x, RP(do_syscall_64, exit));
}

/*
 * ksys_read, ksys_write and do_readv share their first and last steps
 * (file_ppos: pos = *ppos, then file->f_pos = pos when the vfs_ function
 * did not fail, under fdget_pos's lock); a row names the path's kernel
 * function and its resume points for the two, and the one file_pos goes
 * on to (a trace and 'where' name ksys_write:set_pos, never a shared step).
 */
struct ppos_path { int16_t fn, file_pos, vfs_op, set_pos; };
#define PPOS_PATH(func, vfs) \
	{ VFN_##func, RP(func, file_pos), RP(func, vfs), RP(func, set_pos) }
enum { PPOS_KSYS_READ, PPOS_KSYS_WRITE, PPOS_DO_READV };
static const struct ppos_path ppos_paths[] = {
	[PPOS_KSYS_READ] = PPOS_PATH(ksys_read, vfs_read),
	[PPOS_KSYS_WRITE] = PPOS_PATH(ksys_write, vfs_write),
	[PPOS_DO_READV] = PPOS_PATH(do_readv, vfs_readv),
};

/* P's file_pos or set_pos step; false at any other (the path's own) */
static bool ppos_step(struct vx *x, const struct ppos_path *p)
{
	int pc = x->t->f.pc;
	if (pc == p->file_pos)
		pos_read(x, p->fn, p->vfs_op);
	else if (pc == p->set_pos)
		pos_write(x, p->fn);
	else
		return false;
	return true;
}

/* rw_verify_area(): a negative count or offset, or an end past LLONG_MAX,
 * is EINVAL (no file here has FMODE_UNSIGNED_OFFSET, hence no EOVERFLOW) */
static bool verify_area(int64_t pos, int64_t count)
{
	int64_t end;
	return count >= 0 && pos >= 0 && !__builtin_add_overflow(pos, count, &end);
}

/* vfs_read's first checks: FMODE_READ, then FMODE_CAN_READ (a pidfd,
 * a directory of a filesystem without ->read) */
static int64_t read_check(struct vx *x)
{
	struct vfs_world *w = x->w;
	const struct vfs_file *fl = &w->files[x->t->f.file];
	if (!(fl->f_mode & FMODE_READ))
		return -VE_BADF;
	if (fl->kind == FK_PIDFD)
		return -VE_INVAL;
	if (w->inodes[fl->inode].type == IT_DIR &&
	    vfs_inode_fsops(w, fl->inode).dir_read == DIRREAD_NONE)
		return -VE_INVAL;       /* no ->read at all */
	return 0;
}

/* Read from pos into the record; returns bytes or -errno. */
static int64_t do_read(struct vx *x, int64_t *pos, int64_t count)
{
	struct vfs_world *w = x->w;
	struct vfs_frame *f = &x->t->f;
	struct vfs_file *fl = &w->files[f->file];
	struct vfs_callrec *r = &x->t->rec;
	int64_t err = read_check(x);

	if (err < 0)
		return err;
	if (!verify_area(*pos, count))
		return -VE_INVAL;
	const struct vfs_inode *ino = &w->inodes[fl->inode];
	if (ino->type == IT_DIR) {
		const struct vfs_fsops ops = vfs_inode_fsops(w, fl->inode);
		if (ops.dir_read == DIRREAD_CEPH && w->sbs[ino->sb].dirstat) {
			/* ceph_read_dir: a text of directory statistics,
			 * served by the position like a file */
			char stat[VFS_TEXT_MAX];
			fn_enter(x, VFN_ceph_read_dir);
			int len = snprintf(stat, sizeof stat,
					   "entries: %d\nfiles: %d\nsubdirs: %d\n",
					   ino->nchildren, ino->nchildren, 0);
			int64_t n = 0;
			access_inode(x, VFN_ceph_read_dir, FLD_DIR, fl->inode,
				     ino->nchildren, false);
			if (*pos < len) {
				n = len - *pos < count ? len - *pos : count;
				memcpy(r->text, stat + *pos, (size_t)n);
				r->text[n] = 0;
				*pos += n;
			}
			fn_exit(x, VFN_ceph_read_dir, n);
			return n;
		}
		fn_enter(x, VFN_generic_read_dir);
		fn_exit(x, VFN_generic_read_dir, -VE_ISDIR);
		return -VE_ISDIR;
	}
	fn_enter(x, VFN_generic_file_read_iter);
	access_inode(x, VFN_generic_file_read_iter, FLD_DATA, fl->inode, ino->size,
		     false);
	int64_t n = *pos < ino->size ? ino->size - *pos : 0;
	if (n > count)
		n = count;
	int64_t shown = 0;     /* (the record keeps the first bytes, to show) */
	for (int64_t i = 0; i < n && shown < VFS_TEXT_MAX; i++, shown++)
		r->text[shown] = data_byte(ino, *pos + i);
	r->text[shown] = 0;
	*pos += n;
	fn_exit(x, VFN_generic_file_read_iter, n);
	return n;
}

/* ksys_read: f_pos copied to a local (ppos_step), vfs_read, the local
 * stored back (ppos_step) */
KERNEL_FN(ksys_read)
{
	if (ppos_step(x, &ppos_paths[PPOS_KSYS_READ]))
		return;
	/* RP(ksys_read, vfs_read) */
	fn_enter(x, VFN_vfs_read);
	f->res = do_read(x, &f->pos, cur_call(x)->a[1]);
	fn_exit(x, VFN_vfs_read, f->res);
	go(x, RP(ksys_read, set_pos));
}

/* ---- readv: do_readv -> vfs_readv, f_pos as read's ---- */

#define MAX_RW_COUNT 0x7ffff000         /* INT_MAX & PAGE_MASK */

/* do_readv: f_pos under fdget_pos's lock, as ksys_read's (ppos_step:
 * file_pos, and set_pos, file_pos_write when vfs_readv did not fail) */
KERNEL_FN(do_readv)
{
	if (ppos_step(x, &ppos_paths[PPOS_DO_READV]))
		return;
	/*
	 * RP(do_readv, vfs_readv): FMODE_READ (EBADF) and FMODE_CAN_READ
	 * (EINVAL) first, then import_iovec (a length negative as ssize_t is
	 * EINVAL; the total is cut to MAX_RW_COUNT), nothing to do for a
	 * total of 0, else one read of the total: ->read_iter takes the
	 * iovecs in one pass; a file with only ->read (a directory) gets one
	 * ->read per iovec (do_loop_readv_writev), which here comes to the
	 * same: generic_read_dir refuses the first, ceph_read_dir serves by
	 * position.
	 */
	const struct vfs_call *c = cur_call(x);
	int64_t n1 = c->a[1], n2 = c->a[2] < 0 ? 0 : c->a[2], total;
	fn_enter(x, VFN_vfs_readv);
	if (__builtin_add_overflow(n1, n2, &total) || total > MAX_RW_COUNT)
		total = MAX_RW_COUNT;
	f->res = read_check(x);
	if (!f->res && n1 < 0)
		f->res = -VE_INVAL;
	else if (!f->res && total > 0)
		f->res = do_read(x, &f->pos, total);
	fn_exit(x, VFN_vfs_readv, f->res);
	go(x, RP(do_readv, set_pos));
}

/* ---- write ---- */

/* vfs_write's checks; 0 when the write may go on. */
static int64_t write_check(struct vx *x, int64_t pos)
{
	struct vfs_file *fl = &x->w->files[x->t->f.file];
	if (!(fl->f_mode & FMODE_WRITE))
		return -VE_BADF;
	if (fl->kind == FK_PIDFD ||
	    !verify_area(pos, (int64_t)strlen(vfs_call_str(x->w, cur_call(x), 0))))
		return -VE_INVAL;
	if (x->w->inodes[fl->inode].type == IT_DIR)
		return -VE_ISDIR;
	return 0;
}

/* vfs_write at f->pos (PPOS: pwrite64's, which a pidfd refuses before
 * v6.9): its checks, then into generic_file_write_iter (LOCK_RP), or out
 * with the error (AFTER_RP) */
static void start_write(struct vx *x, bool ppos, int lock_rp, int after_rp)
{
	struct vfs_frame *f = &x->t->f;
	fn_enter(x, VFN_vfs_write);
	f->res = write_check(x, f->pos);
	if (ppos && f->res == -VE_INVAL && no_fmode_ppos(x))
		f->res = -VE_SPIPE;
	if (f->res < 0) {
		fn_exit(x, VFN_vfs_write, f->res);
		go_or_fdput(x, after_rp);
		return;
	}
	f->inode = x->w->files[f->file].inode;
	fn_enter(x, VFN_generic_file_write_iter);
	go(x, lock_rp);
}

static void lock_for_write(struct vx *x, int next)
{
	go(x, next);
	/* inode_lock: writers of one file exclude each other (i_size, data) */
	lock_acquire(x, VFN_down_write, VFS_LID(LID_INODE, x->t->f.inode), M_WRITE);
}

static void do_write(struct vx *x, int64_t *pos, int next)
{
	struct vfs_frame *f = &x->t->f;
	const char *text = vfs_call_str(x->w, cur_call(x), 0);
	int64_t len = (int64_t)strlen(text);
	/* (model) a file keeps VFS_DATA_MAX bytes: its s_maxbytes, so a write
	 * past it is EFBIG as generic_write_check_limits says, never dropped */
	int err = len && *pos > VFS_DATA_MAX - len ? -VE_FBIG :
		  len ? data_reserve(x->w, f->inode, *pos + len) : 0;
	struct vfs_inode *ino = inode_mut(x->w, f->inode);
	if (err < 0) {
		if (err == -VE_FBIG)
			note(x, VFN_generic_file_write_iter,
			     "vfsim keeps 16 MiB of data per file (VFS_DATA_MAX): "
			     "a write past it is EFBIG here, not on ext4");
		f->res = err;
		go(x, next);
		return;
	}
	if (len)        /* (a file never written has no data buffer) */
		memcpy(ino->data->bytes + *pos, text, (size_t)len);
	*pos += len;
	if (len && *pos > ino->size)    /* (a write of nothing extends nothing) */
		ino->size = *pos;
	access_inode(x, VFN_generic_file_write_iter, FLD_DATA, f->inode, ino->size,
		     true);
	f->res = len;
	go(x, next);
}

static void unlock_write(struct vx *x, int next)
{
	lock_release(x, VFN_up_write, VFS_LID(LID_INODE, x->t->f.inode));
	fn_exit(x, VFN_generic_file_write_iter, x->t->f.res);
	fn_exit(x, VFN_vfs_write, x->t->f.res);
	go_or_fdput(x, next);
}

/* ksys_write: as ksys_read, around vfs_write and the inode lock of
 * generic_file_write_iter */
KERNEL_FN(ksys_write)
{
	if (ppos_step(x, &ppos_paths[PPOS_KSYS_WRITE]))
		return;
	switch (f->pc) {
	case RP(ksys_write, vfs_write):
		start_write(x, false, RP(ksys_write, inode_lock), RP(ksys_write, set_pos));
		return;
	case RP(ksys_write, inode_lock):
		lock_for_write(x, RP(ksys_write, write_iter));
		return;
	case RP(ksys_write, write_iter):
		do_write(x, &f->pos, RP(ksys_write, inode_unlock));
		return;
	case RP(ksys_write, inode_unlock):
		unlock_write(x, RP(ksys_write, set_pos));
		return;
	}
}

/* ---- pread64, pwrite64: plain fdget, f_pos untouched ---- */

/* ksys_pread64: one step, RP(ksys_pread64, vfs_read) */
KERNEL_FN(ksys_pread64)
{
	if (no_file(x))
		return;
	int64_t pos = cur_call(x)->a[2];
	fn_enter(x, VFN_vfs_read);
	f->res = no_fmode_ppos(x) ? -VE_SPIPE : do_read(x, &pos, cur_call(x)->a[1]);
	fn_exit(x, VFN_vfs_read, f->res);
	go_or_fdput(x, RP(do_syscall_64, exit));
}

/* ksys_pwrite64: vfs_write at the call's offset, f_pos untouched */
KERNEL_FN(ksys_pwrite64)
{
	switch (f->pc) {
	case RP(ksys_pwrite64, vfs_write):
		if (no_file(x))
			return;
		f->pos = cur_call(x)->a[2];
		start_write(x, true, RP(ksys_pwrite64, inode_lock), RP(do_syscall_64, exit));
		return;
	case RP(ksys_pwrite64, inode_lock):
		lock_for_write(x, RP(ksys_pwrite64, write_iter));
		return;
	case RP(ksys_pwrite64, write_iter): {
		int64_t pos = cur_call(x)->a[2];
		do_write(x, &pos, RP(ksys_pwrite64, inode_unlock));
		return;
	}
	case RP(ksys_pwrite64, inode_unlock):
		unlock_write(x, RP(do_syscall_64, exit));
		return;
	}
}
