/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sync.c - fs/sync.c: fsync(2).  do_fsync looks the descriptor up with a
 * plain fdget (f_pos is not touched: no f_pos lock), calls vfs_fsync, which
 * is vfs_fsync_range over the whole file, then fdput.  vfs_fsync_range
 * says EINVAL for a file whose f_op has no ->fsync: a pidfd (anon_inode's
 * pidfd_fops, and pidfs's since v6.9) and procfs's (its row in fstypes.c).
 * The others' ->fsync write back what the model never keeps apart from
 * the page cache: the step returns 0.
 */
#include "internal.h"

/* do_fsync: `struct fd f = fdget(fd); if (f.file) { ret = vfs_fsync(f.file,
 * datasync); fdput(f); }`; one step after fdget, RP(do_fsync,
 * vfs_fsync_range) */
KERNEL_FN(do_fsync)
{
	if (f->file < 0) {
		sys_return(x, -VE_BADF);
		return;
	}
	fn_enter(x, VFN_vfs_fsync_range);
	/* if (!file->f_op->fsync) return -EINVAL; */
	const struct vfs_file *fl = &x->w->files[f->file];
	bool none = fl->kind == FK_PIDFD || vfs_inode_fsops(x->w, fl->inode).no_fsync;
	f->res = none ? -VE_INVAL : 0;
	fn_exit(x, VFN_vfs_fsync_range, f->res);
	call_sub(x, RP(fdput, enter), RP(do_syscall_64, exit));
}
