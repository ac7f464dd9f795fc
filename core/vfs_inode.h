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
/* Inode slot INO and its dentry, one accessor per field: TYPE NAME(w,
 * INO).  They are the rows under `object VFS_INODE_FIELDS` in
 * core/accessors.tbl, each with what it gives: vfs_inode_type (enum
 * vfs_itype), vfs_inode_freed, vfs_inode_unlinked, vfs_inode_is_mountpoint,
 * vfs_inode_size, and its dentry's vfs_dentry_name, vfs_dentry_offset,
 * vfs_dentry_first_child, vfs_dentry_next_sibling (the children in the
 * order getdents lists them), vfs_dentry_nchildren; core/inode.c defines
 * them (vfs_accessor.h). */
VFS_INODE_FIELDS(VFS_ACCESSOR_DECL)

#endif
