/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file.c - descriptor tables and the lookups of fs/file.c: __fget_light,
 * fdget_pos with file_needs_f_pos_lock, fdput_pos, close, dup, dup2.
 */
#include "internal.h"

struct vfs_fdtable *proc_fdt(struct vfs_world *w, int proc)
{
	int i = w->procs[proc].fdt;
	return i < 0 ? NULL : &w->fdt[i];
}

/* A new, empty descriptor table (files->count 1); -ENOMEM, and the
 * world says it ran out (w->oom: the shell undoes the command). */
int fdt_new(struct vfs_world *w)
{
	if (!world_grow((void **)&w->fdt, &w->fdt_cap, w->nfdt + 1, sizeof *w->fdt)) {
		w->oom = 1;
		return -VE_NOMEM;
	}
	struct vfs_fdtable *t = &w->fdt[w->nfdt];
	fdt_touch(w, w->nfdt);
	t->count = 1;
	t->nfds = 0;
	w->allocs++;
	return w->nfdt++;
}

int alloc_fd(struct vfs_world *w, int proc, bool cloexec)
{
	struct vfs_fdtable *t = proc_fdt(w, proc);
	if (!t)
		return -VE_BADF;
	fdt_touch(w, w->procs[proc].fdt);
	for (int i = 0; i < VFS_NR_OPEN; i++) {
		if (i >= t->nfds) {
			t->fd[i] = 0;
			t->nfds = (int16_t)(i + 1);
		}
		if (t->fd[i] == 0) {
			t->fd[i] = FD_RESERVED | (cloexec ? FD_CLOEXEC_BIT : 0);
			return i;
		}
	}
	return -VE_MFILE;
}

static void fd_set_file(struct vfs_world *w, int proc, int fd, int file)
{
	struct vfs_fdtable *t = proc_fdt(w, proc);
	fdt_touch(w, w->procs[proc].fdt);
	t->fd[fd] = (uint16_t)((t->fd[fd] & FD_CLOEXEC_BIT) | (file + 1));
}

static void fd_clear(struct vfs_world *w, int proc, int fd)
{
	fdt_touch(w, w->procs[proc].fdt);
	proc_fdt(w, proc)->fd[fd] = 0;
}

int fd_lookup(const struct vfs_world *w, int proc, int64_t fd)
{
	int ti = w->procs[proc].fdt;
	if (ti < 0 || fd < 0 || fd >= w->fdt[ti].nfds)
		return -VE_BADF;
	unsigned v = w->fdt[ti].fd[fd] & ~FD_CLOEXEC_BIT;
	if (v == 0 || v == FD_RESERVED || v == FD_STDIO)
		return -VE_BADF;
	return (int)v - 1;
}

int file_alloc(struct vfs_world *w, int kind)
{
	int i;
	/* A free slot that no thread's frame still points at. */
	for (i = 0; i < w->nfiles; i++) {
		if (w->files[i].kind != FK_NONE)
			continue;
		bool busy = false;
		for (int t = 0; t < w->nthreads && !busy; t++)
			busy = w->threads[t].state != TS_FREE &&
			       w->threads[t].state != TS_DEAD &&
			       w->threads[t].f.pc != RP_IDLE &&
			       w->threads[t].f.file == i;
		if (!busy)
			break;
	}
	if (i == w->nfiles) {
		if (w->nfiles >= VFS_FILE_MAX)
			return -VE_NFILE;
		if (!world_grow((void **)&w->files, &w->files_cap, w->nfiles + 1,
				sizeof *w->files)) {
			w->oom = 1;     /* vfsim's memory, not the kernel's */
			return -VE_NOMEM;
		}
		w->nfiles++;
	}
	struct vfs_file *f = &w->files[i];
	/* a slot a closed file had: the race detector forgets that file's
	 * accesses and its locks' clocks (the kernel frees it after the last
	 * fput; a new file is no continuation of it) */
	vfs_detect_forget(w, LID_FILE_POS, i);
	vfs_detect_forget(w, LID_FILE_LOCK, i);
	file_touch(w, i);
	memset(f, 0, sizeof *f);
	ufield_made(w, UFV_FILE, i);
	f->kind = (uint8_t)kind;
	w->allocs++;
	f->id = w->next_file_id++;
	f->f_count = 1;
	f->inode = -1;
	lock_init(&f->f_pos_lock, LK_MUTEX);
	lock_init(&f->f_lock, LK_SPIN);
	return i;
}

void file_get(struct vx *x, int fn, int file)
{
	struct vfs_file *f = &x->w->files[file];
	file_touch(x->w, file);
	f->f_count++;
	access_file_kind(x, fn, FLD_F_COUNT, file, f->f_count, true, true, VAK_INC);
}

void file_put(struct vx *x, int fn, int file)
{
	struct vfs_file *f = &x->w->files[file];
	file_touch(x->w, file);
	f->f_count--;
	access_file_kind(x, fn, FLD_F_COUNT, file, f->f_count, true, true, VAK_DEC);
	if (f->f_count == 0) {
		/* (model) __fput runs at once; the kernel defers it */
		fn_enter(x, VFN___fput);
		fn_exit(x, VFN___fput, 0);
		f->kind = FK_NONE;
	}
}

bool dir_native_shared(const struct vfs_world *w, int ino)
{
	return vfs_inode_fsops(w, ino).native_shared;
}

/* FN (fput, filp_close) drops a reference to FILE, as a function of its own */
static void put_in(struct vx *x, int fn, int file)
{
	fn_enter(x, fn);
	file_put(x, fn, file);
	fn_exit(x, fn, 0);
}

/* ---- fdget_pos / fdget: the sub-paths every f_pos user goes through ---- */

static int64_t table_users(void *ctx, int id)
{
	(void)id;               /* (its one variable) */
	return *(const int16_t *)ctx;
}

/* Borrow (no reference) when no other task shares the table: nobody can
 * close the descriptor under us.  Or as the script's override says,
 * noted where it decides otherwise. */
static bool borrows(struct vx *x, int fn, int16_t users)
{
	bool kernel = users == 1;
	const struct vfs_expr *e = vfs_override(x->w, VDEC_FGET_LIGHT);
	if (!e)
		return kernel;
	bool b = vfs_expr_eval(e, table_users, &users) != 0;
	if (b != kernel)
		note(x, fn, b ? "__fget_light overridden by the script: borrows the "
		     "file from a shared table (no reference)" :
		     "__fget_light overridden by the script: takes a reference "
		     "where the kernel would borrow");
	return b;
}

/* __fget_light: no reference when the table is not shared (files->count 1) */
static void fget_light(struct vx *x, int fn)
{
	struct vfs_frame *f = &x->t->f;
	struct vfs_world *w = x->w;
	int proc = x->t->proc;
	int file = fd_lookup(w, proc, f->fd);

	f->fdput_flags = 0;
	f->file = file;
	access_fdt(x, fn, w->procs[proc].fdt, false);
	if (file < 0) {
		f->res = -VE_BADF;
		return;
	}
	if (!borrows(x, fn, proc_fdt(w, proc)->count)) {
		file_get(x, fn, file);
		f->fdput_flags |= FDPUT_FPUT;
	}
}

static bool file_is(const struct vfs_world *w, const struct vfs_file *fl, int type)
{
	return fl->kind == FK_INODE && w->inodes[fl->inode].type == type;
}

/* ->iterate_shared: every directory once ->iterate is gone; before that
 * only the converted filesystems have it */
static bool has_iterate_shared(const struct vfs_world *w, const struct vfs_file *fl)
{
	return file_is(w, fl, IT_DIR) &&
	       (w->k.iterate == ITER_SHARED ||
		(w->k.iterate == ITER_DUAL && dir_native_shared(w, fl->inode)));
}

/*
 * file_needs_f_pos_lock, by era.  The count is read first, as the kernel's
 * "file_count(file) > 1 || ..." does; 20ea1e7d13c1 did not read it at all.
 * X NULL: the answer only, nothing traced (to mark an override that
 * decides otherwise).
 */
static bool needs_f_pos_lock(struct vx *x, const struct vfs_world *w,
			     const struct vfs_file *fl, int fn)
{
	if (!(fl->f_mode & FMODE_ATOMIC_POS))
		return false;
	if (w->k.fpos_lock == FPOS_ALWAYS)
		return true;
	if (x)
		access_file_kind(x, fn, FLD_F_COUNT, (int)(fl - w->files),
				 fl->f_count, false, true, VAK_TEST);
	if (fl->f_count >= VFS_COUNT_TEST_MIN)
		return true;
	switch (w->k.fpos_lock) {
	case FPOS_COUNT_OR_DIR:
		return file_is(w, fl, IT_DIR);
	case FPOS_COUNT_OR_ITERATE:
		return has_iterate_shared(w, fl);
	default:
		return false;
	}
}

/* The script's expression (override file_needs_f_pos_lock) reads what the
 * kernel's test reads, each read traced as the kernel's is. */
struct fpos_seen { struct vx *x; const struct vfs_file *fl; int fn; };

static int64_t fpos_var(void *ctx, int id)
{
	struct fpos_seen *c = ctx;
	const struct vfs_world *w = c->x->w;
	const struct vfs_file *fl = c->fl;
	if (id >= VFS_XVAR_FIELD)       /* a field the script declared */
		return ufield_read(c->x, c->fn, id - VFS_XVAR_FIELD, (int)(fl - w->files),
				   fl->kind == FK_INODE ? fl->inode : -1);
	switch (id) {
	case VDV_ATOMIC_POS:
		return !!(fl->f_mode & FMODE_ATOMIC_POS);
	case VDV_COUNT:
		access_file_kind(c->x, c->fn, FLD_F_COUNT, (int)(fl - w->files),
				 fl->f_count, false, true, VAK_TEST);
		return fl->f_count;
	case VDV_DIR:
		return file_is(w, fl, IT_DIR);
	case VDV_ITERATE_SHARED:
		return has_iterate_shared(w, fl);
	case VDV_LSEEK:         /* (the thread's own call: nothing shared read) */
		return c->x->t->rec.call.sys == SYS_LSEEK;
	default:
		return file_is(w, fl, IT_REG);
	}
}

static bool decide_f_pos_lock(struct vx *x, const struct vfs_file *fl, int fn)
{
	const struct vfs_expr *e = vfs_override(x->w, VDEC_FPOS_LOCK);
	if (!e)
		return needs_f_pos_lock(x, x->w, fl, fn);
	struct fpos_seen seen = { x, fl, fn };
	bool need = vfs_expr_eval(e, fpos_var, &seen) != 0;
	/* marked, as the knobs' deliberately wrong values are, where it
	 * decides otherwise than the kernel would */
	if (need != needs_f_pos_lock(NULL, x->w, fl, fn))
		note(x, fn, need ? "file_needs_f_pos_lock overridden by the script: "
		     "takes f_pos_lock where the kernel's test would not" :
		     "file_needs_f_pos_lock overridden by the script: skips "
		     "f_pos_lock where the kernel's test would take it");
	return need;
}

/* the helper exists since 20ea1e7d13c1 (v6.5); before, __fdget_pos
 * tested FMODE_ATOMIC_POS and file_count inline */
int fdget_pos_check_fn(const struct vfs_world *w, const struct vfs_thread *t)
{
	(void)t;
	return w->k.era >= VFS_ERA(6, 5) ? VFN_file_needs_f_pos_lock : VFN_fdget_pos;
}

/*
 * fdget_pos (fs/file.c; __fdget_pos before v6.5): the descriptor's file
 * by __fget_light, then f_pos_lock when file_needs_f_pos_lock says so.
 * Entered with call_sub (get_pos_sub), left with ret_sub.
 */
KERNEL_FN(fdget_pos)
{
	switch (f->pc) {
	case RP(fdget_pos, enter):
		fn_enter(x, VFN_fdget_pos);
		fget_light(x, VFN_fdget_pos);
		if (f->file < 0) {
			fn_exit(x, VFN_fdget_pos, -VE_BADF);
			ret_sub(x);
			return;
		}
		go(x, RP(fdget_pos, needs_f_pos_lock));
		return;
	case RP(fdget_pos, needs_f_pos_lock): {
		struct vfs_file *fl = &x->w->files[f->file];
		int fn = fdget_pos_check_fn(x->w, x->t);
		bool helper = fn == VFN_file_needs_f_pos_lock;
		if (helper)
			fn_enter(x, fn);
		bool need = decide_f_pos_lock(x, fl, fn);
		if (helper)
			fn_exit(x, fn, need);
		if (need) {
			go(x, RP(fdget_pos, lock));
			return;
		}
		struct vfs_event ev = { .tid = (int8_t)x->tid, .op = OP_SKIP,
			.fn = VFN_fdget_pos, .cls = LC_F_POS_LOCK, .objkind = 1,
			.obj = f->file, .lock = VFS_LID(LID_FILE_POS, f->file) };
		emit(x, &ev);
		x->t->rec.skipped_fpos = 1;
		fn_exit(x, VFN_fdget_pos, 0);
		ret_sub(x);
		return;
	}
	case RP(fdget_pos, lock):
		f->fdput_flags |= FDPUT_POS_UNLOCK;
		go(x, RP(fdget_pos, locked));
		/* f_pos_lock: whoever moves f_pos holds it across read-modify-write */
		if (lock_acquire(x, VFN_mutex_lock, VFS_LID(LID_FILE_POS, f->file), M_EXCL))
			fdget_pos(x);
		return;
	case RP(fdget_pos, locked):
		fn_exit(x, VFN_fdget_pos, 0);
		ret_sub(x);
		return;
	}
}

/* fdget: the plain lookup of pread/pwrite (and of everything before v3.14) */
KERNEL_FN(fdget)
{
	/* one step: RP(fdget, enter) */
	fn_enter(x, VFN_fdget);
	fget_light(x, VFN_fdget);
	fn_exit(x, VFN_fdget, f->file < 0 ? -VE_BADF : 0);
	ret_sub(x);
}

/* fdput_pos: f_pos_lock released if fdget_pos took it, then the file's
 * reference dropped if it took one */
KERNEL_FN(fdput_pos)
{
	switch (f->pc) {
	case RP(fdput_pos, unlock):
		fn_enter(x, VFN_fdput_pos);
		if (f->fdput_flags & FDPUT_POS_UNLOCK)
			lock_release(x, VFN_mutex_unlock, VFS_LID(LID_FILE_POS, f->file));
		if (f->fdput_flags & FDPUT_FPUT) {
			go(x, RP(fdput_pos, fput));
			return;
		}
		fn_exit(x, VFN_fdput_pos, 0);
		ret_sub(x);
		return;
	case RP(fdput_pos, fput):
		put_in(x, VFN_fput, f->file);
		fn_exit(x, VFN_fdput_pos, 0);
		ret_sub(x);
		return;
	}
}

/* fdput: the reference fdget took, if it took one */
KERNEL_FN(fdput)
{
	/* one step: RP(fdput, enter) */
	fn_enter(x, VFN_fdput);
	if (f->fdput_flags & FDPUT_FPUT)
		file_put(x, VFN_fdput, f->file);
	fn_exit(x, VFN_fdput, 0);
	ret_sub(x);
}

/* ---- close ---- */

/* close_fd: the descriptor taken out of the table (pick_file), then
 * filp_close drops the table's reference */
KERNEL_FN(close_fd)
{
	switch (f->pc) {
	case RP(close_fd, pick_file): {
		int proc = x->t->proc;

		fn_enter(x, VFN_close_fd);
		f->file = (int32_t)fd_lookup(x->w, proc, cur_call(x)->a[0]);
		access_fdt(x, VFN_close_fd, x->w->procs[proc].fdt, true);
		int64_t fd = cur_call(x)->a[0];
		struct vfs_fdtable *t = proc_fdt(x->w, proc);
		if (f->file < 0 && t && fd >= 0 && fd < t->nfds && t->fd[fd] == FD_STDIO) {
			fdt_touch(x->w, x->w->procs[proc].fdt);
			t->fd[fd] = 0;  /* stdio: no file modelled behind it */
			sys_return_from(x, VFN_close_fd, 0);
			return;
		}
		if (f->file < 0) {
			sys_return_from(x, VFN_close_fd, -VE_BADF);
			return;
		}
		fd_clear(x->w, proc, (int)cur_call(x)->a[0]);
		go(x, RP(close_fd, filp_close));
		return;
	}
	case RP(close_fd, filp_close):
		put_in(x, VFN_filp_close, f->file);
		sys_return_from(x, VFN_close_fd, 0);
		return;
	}
}

/* ---- dup, dup2 ---- */

/* SYSCALL_DEFINE1(dup) (ksys_dup in the releases that had it): fget_raw
 * takes a reference, fd_install gives it a new descriptor */
KERNEL_FN(ksys_dup)
{
	switch (f->pc) {
	case RP(ksys_dup, fget_raw):
		fn_enter(x, VFN_fget_raw);
		f->file = (int32_t)fd_lookup(x->w, x->t->proc, cur_call(x)->a[0]);
		access_fdt(x, VFN_fget_raw, x->w->procs[x->t->proc].fdt, false);
		if (f->file < 0) {
			sys_return_from(x, VFN_fget_raw, -VE_BADF);
			return;
		}
		file_get(x, VFN_fget_raw, f->file);
		fn_exit(x, VFN_fget_raw, 0);
		go(x, RP(ksys_dup, fd_install));
		return;
	case RP(ksys_dup, fd_install): {
		int proc = x->t->proc;
		fn_enter(x, VFN_fd_install);
		int fd = alloc_fd(x->w, proc, false);
		access_fdt(x, VFN_fd_install, x->w->procs[proc].fdt, true);
		if (fd < 0) {
			file_put(x, VFN_fd_install, f->file);
			sys_return_from(x, VFN_fd_install, fd);
			return;
		}
		fd_set_file(x->w, proc, fd, f->file);
		sys_return_from(x, VFN_fd_install, fd);
		return;
	}
	}
}

/* do_dup2 (dup2 through ksys_dup3): the new descriptor replaces the old
 * one at once; the file it pointed to is closed after (filp_close) */
KERNEL_FN(do_dup2)
{
	switch (f->pc) {
	case RP(do_dup2, enter): {
		struct vfs_call *c = cur_call(x);
		int proc = x->t->proc;
		struct vfs_fdtable *t = proc_fdt(x->w, proc);

		fn_enter(x, VFN_do_dup2);
		f->file = (int32_t)fd_lookup(x->w, proc, c->a[0]);
		access_fdt(x, VFN_do_dup2, x->w->procs[proc].fdt, true);
		if (f->file < 0 || c->a[1] < 0 || c->a[1] >= VFS_NR_OPEN) {
			sys_return_from(x, VFN_do_dup2, -VE_BADF);
			return;
		}
		if (c->a[0] == c->a[1]) {
			sys_return_from(x, VFN_do_dup2, c->a[1]);
			return;
		}
		int nfd = (int)c->a[1];
		fdt_touch(x->w, x->w->procs[proc].fdt);
		while (t->nfds <= nfd)
			t->fd[t->nfds++] = 0;
		int old = fd_lookup(x->w, proc, nfd);
		/* being opened (reserved, maybe with O_CLOEXEC): dup2 says EBUSY */
		if ((t->fd[nfd] & ~FD_CLOEXEC_BIT) == FD_RESERVED) {
			sys_return_from(x, VFN_do_dup2, -VE_BUSY);
			return;
		}
		file_get(x, VFN_do_dup2, f->file);
		t->fd[nfd] = 0;
		fd_set_file(x->w, proc, nfd, f->file);
		fn_exit(x, VFN_do_dup2, nfd);
		if (old >= 0) {
			f->dup2.tofree = (int32_t)old;
			go(x, RP(do_dup2, filp_close));
			return;
		}
		sys_return(x, nfd);
		return;
	}
	case RP(do_dup2, filp_close):
		put_in(x, VFN_filp_close, f->dup2.tofree);
		sys_return(x, cur_call(x)->a[1]);
		return;
	}
}


/* ---- an open file as the shell reads it (vfs_file.h) ------------------------ */
/* the accessors vfs_file.h declares (core/accessors.tbl), a field each */
VFS_FILE_FIELDS(VFS_ACCESSOR_DEF)
