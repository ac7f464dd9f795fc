/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_inode.h - inodes, their dentries and the mounted filesystems as the
 * shell reads them: one accessor per field (core/inode.c), so that a view
 * never walks the inode table's layout (core/world_layout.h).
 */
#ifndef VFSIM_VFS_INODE_H
#define VFSIM_VFS_INODE_H

#include <stdbool.h>
#include <stdint.h>

#include "vfs_accessor.h"

struct vfs_world;

enum vfs_itype { IT_NONE, IT_DIR, IT_REG, IT_PIDFS };

/* Inode slots in use or free: 0 <= INO < vfs_world_ninodes. */
int vfs_world_ninodes(const struct vfs_world *w);
/* Filesystems mounted, / included (at most VFS_MAX_SB). */
int vfs_world_nsb(const struct vfs_world *w);
/* Inode slot INO, one accessor per field: TYPE NAME(w, INO) (core/inode.c
 * defines them from this list; vfs_accessor.h). */
#define VFS_INODE_FIELDS(X)                                                  \
	/* its type (enum vfs_itype), whether it is a free slot, unlinked,  \
	 * the root of a mounted filesystem */                               \
	X(int, vfs_inode_type, type)                                         \
	X(bool, vfs_inode_freed, freed)                                      \
	X(bool, vfs_inode_unlinked, unlinked)                                \
	X(bool, vfs_inode_is_mountpoint, is_mountpoint)                      \
	/* its i_size (the field 'size') */                                  \
	X(int64_t, vfs_inode_size, size)                                     \
	/* its dentry: the name, the offset of its entry in the parent      \
	 * directory, and the children of a directory in the order getdents \
	 * lists them: the first, then each one's next; -1 after the last */ \
	X(const char *, vfs_dentry_name, name)                               \
	X(int, vfs_dentry_offset, d_off)                                     \
	X(int, vfs_dentry_first_child, first_child)                          \
	X(int, vfs_dentry_next_sibling, next_sibling)                        \
	/* how many children a directory has (the field 'dir') */            \
	X(int, vfs_dentry_nchildren, nchildren)
VFS_INODE_FIELDS(VFS_ACCESSOR_DECL)

#endif
