/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fstypes.c - filesystem types as a table: each one's directory iterator,
 * its directory llseek and its answer to read() on a directory
 * (kernel-reference.md sections 5 and 6; the filesystems' dir.c files).
 * A script adds rows of its own to a world (`fs define`), built from the
 * same parts; every path reaches a row through one resolver.
 */
#include <string.h>
#include "internal.h"

/* ext4_max_size(): 2^32 - 1 blocks of 4 KiB (extents); the others set
 * MAX_LFS_FILESIZE (LLONG_MAX on 64-bit) */
#define EXT4_MAXBYTES (((INT64_C(1) << 32) - 1) << 12)
#define MAX_LFS_FILESIZE INT64_MAX

/* a directory's operations: natively shared iteration or the legacy
 * ->iterate, the iterator, the llseek, read() on a directory, s_maxbytes */
#define OPS_MAX(shared, iter, seek, rd, max) { .native_shared = shared, \
	.iter_fn = VFN_##iter, .llseek = LLSEEK_##seek, .dir_read = DIRREAD_##rd, \
	.maxbytes = max }
#define OPS(shared, iter, seek, rd) OPS_MAX(shared, iter, seek, rd, MAX_LFS_FILESIZE)
/* The first (last) release that has the filesystem, said once: the era
 * the paths compare and the text `fs list` prints.  PATCH is empty or a
 * point release, .28: SINCE(2, 6, .28) is "2.6.28", VFS_ERA(2, 6). */
#define SINCE(major, minor, patch) .since_era = VFS_ERA(major, minor), \
	.since = #major "." #minor #patch
#define UNTIL(major, minor, patch) .until_era = VFS_ERA(major, minor), \
	.until = #major "." #minor #patch

/* a row per type; no until: still there */
const struct vfs_fstype vfs_fstypes[] = {
	/* natively shared since v4.7 */
	{ .name = "ext4", .ops = OPS_MAX(true, ext4_readdir, EXT4_DIR, EISDIR, EXT4_MAXBYTES),
	  SINCE(2, 6, .28), .note = "htree cursor in file->private_data; the root filesystem" },
	{ .name = "tmpfs", .ops = OPS(true, dcache_readdir, DCACHE_DIR, EISDIR),
	  /* v6.6: simple_offset_dir_operations */
	  .later_knob = VFS_FS_KNOB(tmpfs_offsets),
	  .later = OPS(true, offset_readdir, OFFSET_DIR, EISDIR),
	  SINCE(2, 6,), .note = "cursor dentry; stable offsets (offset_readdir) since v6.6" },
	{ .name = "ramfs", .ops = OPS(true, dcache_readdir, DCACHE_DIR, EISDIR),
	  SINCE(2, 4,), .note = "libfs cursor dentry" },
	{ .name = "xfs", .ops = OPS(true, xfs_file_readdir, GENERIC, EISDIR), SINCE(2, 4,) },
	{ .name = "btrfs", .ops = OPS(true, btrfs_real_readdir, GENERIC, EISDIR), SINCE(2, 6, .29) },
	/* proc_root_operations and the others: no ->fsync */
	{ .name = "procfs", .ops = { .native_shared = true, .iter_fn = VFN_proc_readdir,
		.llseek = LLSEEK_GENERIC, .dir_read = DIRREAD_EISDIR, .no_fsync = true,
		.maxbytes = MAX_LFS_FILESIZE },
	  SINCE(1, 0,) },
	/* the legacy ->iterate, wrapped by wrap_directory_iterator from v6.5 */
	{ .name = "ceph", .ops = OPS(false, ceph_readdir, CEPH_DIR, CEPH), SINCE(2, 6, .34),
	  .note = "read() on a directory with -o dirstat; llseek takes i_rwsem exclusive" },
	{ .name = "coda", .ops = OPS(false, coda_readdir, GENERIC, EISDIR), SINCE(2, 1,) },
	{ .name = "exfat", .ops = OPS(false, exfat_iterate, GENERIC, EISDIR), SINCE(5, 7,) },
	{ .name = "jfs", .ops = OPS(false, jfs_readdir, GENERIC, EISDIR), SINCE(2, 4,) },
	{ .name = "ntfs", .ops = OPS(false, ntfs_readdir, GENERIC, EISDIR),
	  /* ntfs3 (v5.15; "ntfs" since classic ntfs left in v6.9) */
	  .later_knob = VFS_FS_KNOB(ntfs3),
	  .later = OPS(true, ntfs_readdir, GENERIC, EISDIR),
	  SINCE(2, 2,), UNTIL(6, 8,),
	  .note = "classic ntfs; with the ntfs3 knob, ntfs3 (native shared)" },
	{ .name = "ocfs2", .ops = OPS(false, ocfs2_readdir, GENERIC, EISDIR), SINCE(2, 6, .16) },
	{ .name = "overlayfs", .ops = OPS(false, ovl_iterate, OVL_DIR, EISDIR), SINCE(3, 18,),
	  .note = "llseek takes the overlay inode's i_rwsem exclusive" },
	{ .name = "vboxsf", .ops = OPS(false, vboxsf_dir_iterate, GENERIC, EISDIR), SINCE(5, 6,) },
};
const int vfs_nfstypes = (int)(sizeof vfs_fstypes / sizeof vfs_fstypes[0]);

bool vfs_fs_uses_later(const struct vfs_knobs *k, const struct vfs_fstype *ft)
{
	return ft->later_knob && ((const uint8_t *)k)[ft->later_knob - 1];
}

struct vfs_fsops vfs_fs_ops(const struct vfs_knobs *k, const struct vfs_fstype *ft)
{
	return vfs_fs_uses_later(k, ft) ? ft->later : ft->ops;
}

const struct vfs_fstype *vfs_fstype_lookup(const char *name)
{
	for (int i = 0; i < vfs_nfstypes; i++)
		if (!strcmp(vfs_fstypes[i].name, name))
			return &vfs_fstypes[i];
	return NULL;
}

/* ---- the parts a row is made of ---- */

const uint8_t vfs_llseek_fn[LLSEEK_DEFAULT + 1] = {
	[LLSEEK_GENERIC] = VFN_generic_file_llseek,
	[LLSEEK_EXT4_DIR] = VFN_ext4_dir_llseek,
	[LLSEEK_DCACHE_DIR] = VFN_dcache_dir_lseek,
	[LLSEEK_OFFSET_DIR] = VFN_offset_dir_llseek,
	[LLSEEK_CEPH_DIR] = VFN_ceph_dir_llseek,
	[LLSEEK_OVL_DIR] = VFN_ovl_dir_llseek,
	[LLSEEK_DEFAULT] = VFN_default_llseek,
};

const uint8_t vfs_dirread_fn[DIRREAD_NONE + 1] = {
	[DIRREAD_EISDIR] = VFN_generic_read_dir,
	[DIRREAD_CEPH] = VFN_ceph_read_dir,
	[DIRREAD_NONE] = VFN_none,
};

int vfs_llseek_lookup(int fn)
{
	for (int i = 0; i <= LLSEEK_DEFAULT; i++)
		if (vfs_llseek_fn[i] == fn)
			return i;
	return -1;
}

int vfs_dirread_lookup(int fn)
{
	for (int i = 0; i <= DIRREAD_NONE; i++)
		if (vfs_dirread_fn[i] == fn)
			return i;
	return -1;
}

/* ---- the world's types: the built-in rows, then the defined ---- */

int vfs_world_nfstypes(const struct vfs_world *w)
{
	return vfs_nfstypes + (w->kdefs ? w->kdefs->nfsdefs : 0);
}

const struct vfs_fstype *vfs_world_fstype(const struct vfs_world *w, int ft)
{
	if (ft >= 0 && ft < vfs_nfstypes)
		return &vfs_fstypes[ft];
	if (ft >= vfs_nfstypes && ft < vfs_world_nfstypes(w))
		return &w->kdefs->fsdefs[ft - vfs_nfstypes];
	return NULL;
}

int vfs_world_fstype_lookup(const struct vfs_world *w, const char *name)
{
	for (int i = 0; i < vfs_world_nfstypes(w); i++)
		if (!strcmp(vfs_world_fstype(w, i)->name, name))
			return i;
	return -1;
}

int vfs_fs_define(struct vfs_world *w, const struct vfs_fstype *row)
{
	const struct vfs_fsops *o = &row->ops;
	if (!memchr(row->name, 0, sizeof row->name) || !vfs_valid_name(row->name) ||
	    !vfs_fn_is_iterator(o->iter_fn) || o->llseek > LLSEEK_DEFAULT ||
	    o->dir_read > DIRREAD_NONE || o->maxbytes < 0 || row->later_knob)
		return -VE_INVAL;
	if (vfs_world_fstype_lookup(w, row->name) >= 0)
		return -VE_EXIST;
	if (vfs_world_nfstypes(w) - vfs_nfstypes >= VFS_MAX_FSDEFS)
		return -VE_NOSPC;
	struct vfs_kdefs *k = kdefs_mut(w);
	if (!k)
		return -VE_NOMEM;
	struct vfs_fstype *d = &k->fsdefs[k->nfsdefs];
	*d = *row;
	/* (only static strings: copies share the row) */
	d->since = d->until = NULL;
	d->note = "defined in the script";
	return vfs_nfstypes + k->nfsdefs++;
}
