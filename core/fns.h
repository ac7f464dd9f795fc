/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fns.h - the kernel functions that vfsim's steps are named after.
 *
 * One X-macro list, so that the trace, `where`, `step T until FUNC` and
 * completion all read the same names.  A name here is the kernel's own.
 */
#ifndef VFSIM_FNS_H
#define VFSIM_FNS_H

#define VFS_FN_LIST(X) \
	X(none) \
	/* system call entries */ \
	X(openat) X(close) X(dup) X(dup2) X(clone) X(fork) X(exit) \
	X(pidfd_open) X(pidfd_getfd) X(getdents64) X(lseek) X(read) X(write) \
	X(pread64) X(pwrite64) X(mkdir) X(creat) X(unlink) X(rmdir) X(rename) \
	X(readv) X(fsync) \
	/* fs/file.c */ \
	X(fdget) X(fdget_pos) X(file_needs_f_pos_lock) X(fdput) X(fdput_pos) \
	X(fput) X(__fput) X(get_unused_fd_flags) X(fd_install) X(close_fd) \
	X(filp_close) X(fget_raw) X(do_dup2) X(fget_task) X(receive_fd) \
	X(dup_fd) X(put_files_struct) \
	/* locking */ \
	X(mutex_lock) X(mutex_lock_killable) X(mutex_unlock) \
	X(down_read) X(down_read_killable) X(down_write) X(down_write_killable) \
	X(up_read) X(up_write) X(downgrade_write) X(spin_lock) X(spin_unlock) \
	X(inode_upgrade_trylock) \
	/* fs/open.c, fs/namei.c */ \
	X(do_sys_open) X(path_openat) X(do_dentry_open) X(filename_create) \
	X(do_mkdirat) X(vfs_mkdir) X(vfs_create) X(do_unlinkat) X(vfs_unlink) \
	X(do_rmdir) X(vfs_rmdir) X(do_renameat2) X(lock_rename) X(vfs_rename) \
	X(unlock_rename) X(handle_truncate) X(do_truncate) \
	/* fs/readdir.c */ \
	X(iterate_dir) X(wrap_directory_iterator) \
	/* filesystem iterators */ \
	X(ext4_readdir) X(dcache_readdir) X(offset_readdir) X(xfs_file_readdir) \
	X(btrfs_real_readdir) X(proc_readdir) X(exfat_iterate) X(ceph_readdir) \
	X(ovl_iterate) X(jfs_readdir) X(coda_readdir) X(ntfs_readdir) \
	X(ocfs2_readdir) X(vboxsf_dir_iterate) \
	/* fs/read_write.c and llseeks */ \
	X(ksys_read) X(ksys_write) X(ksys_lseek) X(vfs_read) X(vfs_write) \
	X(vfs_llseek) X(generic_file_llseek) X(ext4_dir_llseek) \
	X(dcache_dir_lseek) X(offset_dir_llseek) X(ceph_dir_llseek) \
	X(ovl_dir_llseek) X(default_llseek) X(generic_read_dir) \
	X(ceph_read_dir) X(generic_file_read_iter) X(generic_file_write_iter) \
	X(do_readv) X(vfs_readv) \
	/* fs/sync.c */ \
	X(vfs_fsync_range) \
	/* kernel/fork.c, kernel/exit.c, kernel/pid.c */ \
	X(copy_process) X(do_exit) X(pidfd_get_task) X(__pidfd_fget) \
	X(ptrace_may_access)

enum vfs_fn {
#define VFS_FN_ENUM(n) VFN_##n,
	VFS_FN_LIST(VFS_FN_ENUM)
#undef VFS_FN_ENUM
	VFN__COUNT
};

const char *vfs_fn_name(int fn);
/* VFN_none when the name is unknown. */
int vfs_fn_lookup(const char *name);

struct vfs_world;
/* Where thread TID's next step is, named as "function:step": the C
 * function (the kernel function it models) and its resume point
 * ("iterate_dir:lock"; "do_syscall_64:idle" between calls), for a trace
 * or `where` line. */
const char *vfs_resume_point_name(const struct vfs_world *w, int tid);

#endif
