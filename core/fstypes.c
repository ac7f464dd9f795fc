/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fstypes.c - filesystem types as a table: each one's directory iterator,
 * its directory llseek and its answer to read() on a directory
 * (kernel-reference.md sections 5 and 6; the filesystems' dir.c files).
 */
#include <string.h>
#include "vfsim.h"

const struct vfs_fstype vfs_fstypes[] = {
	/* natively shared since v4.7 */
	{ "ext4", true, VFN_ext4_readdir, LLSEEK_EXT4_DIR, DIRREAD_EISDIR,
	  "2.6.28", NULL, "htree cursor in file->private_data; the root filesystem" },
	{ "tmpfs", true, VFN_dcache_readdir, LLSEEK_DCACHE_DIR, DIRREAD_EISDIR,
	  "2.6", NULL, "cursor dentry; stable offsets (offset_readdir) since v6.6" },
	{ "ramfs", true, VFN_dcache_readdir, LLSEEK_DCACHE_DIR, DIRREAD_EISDIR,
	  "2.4", NULL, "libfs cursor dentry" },
	{ "xfs", true, VFN_xfs_file_readdir, LLSEEK_GENERIC, DIRREAD_EISDIR,
	  "2.4", NULL, NULL },
	{ "btrfs", true, VFN_btrfs_real_readdir, LLSEEK_GENERIC, DIRREAD_EISDIR,
	  "2.6.29", NULL, NULL },
	{ "procfs", true, VFN_proc_readdir, LLSEEK_GENERIC, DIRREAD_EISDIR,
	  "1.0", NULL, NULL },
	/* the legacy ->iterate, wrapped by wrap_directory_iterator from v6.5 */
	{ "ceph", false, VFN_ceph_readdir, LLSEEK_CEPH_DIR, DIRREAD_CEPH,
	  "2.6.34", NULL, "read() on a directory with -o dirstat; llseek takes i_rwsem exclusive" },
	{ "coda", false, VFN_coda_readdir, LLSEEK_GENERIC, DIRREAD_EISDIR,
	  "2.1", NULL, NULL },
	{ "exfat", false, VFN_exfat_iterate, LLSEEK_GENERIC, DIRREAD_EISDIR,
	  "5.7", NULL, NULL },
	{ "jfs", false, VFN_jfs_readdir, LLSEEK_GENERIC, DIRREAD_EISDIR,
	  "2.4", NULL, NULL },
	{ "ntfs", false, VFN_ntfs_readdir, LLSEEK_GENERIC, DIRREAD_EISDIR,
	  "2.2", "6.8", "classic ntfs; with the ntfs3 knob, ntfs3 (native shared)" },
	{ "ocfs2", false, VFN_ocfs2_readdir, LLSEEK_GENERIC, DIRREAD_EISDIR,
	  "2.6.16", NULL, NULL },
	{ "overlayfs", false, VFN_ovl_iterate, LLSEEK_OVL_DIR, DIRREAD_EISDIR,
	  "3.18", NULL, "llseek takes the overlay inode's i_rwsem exclusive" },
	{ "vboxsf", false, VFN_vboxsf_dir_iterate, LLSEEK_GENERIC, DIRREAD_EISDIR,
	  "5.6", NULL, NULL },
};
const int vfs_nfstypes = (int)(sizeof vfs_fstypes / sizeof vfs_fstypes[0]);

/*
 * sb->s_maxbytes. ext4_max_size(): 2^32 - 1 blocks of 4 KiB (extents);
 * the others modelled here set MAX_LFS_FILESIZE (LLONG_MAX on 64-bit).
 */
int64_t vfs_fstype_maxbytes(const struct vfs_fstype *ft)
{
	if (!strcmp(ft->name, "ext4"))
		return ((INT64_C(1) << 32) - 1) << 12;
	return INT64_MAX;
}

const struct vfs_fstype *vfs_fstype_lookup(const char *name)
{
	for (int i = 0; i < vfs_nfstypes; i++)
		if (!strcmp(vfs_fstypes[i].name, name))
			return &vfs_fstypes[i];
	return NULL;
}
