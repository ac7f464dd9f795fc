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

struct vfs_world;

enum vfs_itype { IT_NONE, IT_DIR, IT_REG, IT_PIDFS };

/* Inode slots in use or free: 0 <= INO < vfs_world_ninodes. */
int vfs_world_ninodes(const struct vfs_world *w);
/* Filesystems mounted, / included (at most VFS_MAX_SB). */
int vfs_world_nsb(const struct vfs_world *w);
/* Inode slot INO: its type (enum vfs_itype), whether it is a free slot,
 * unlinked, the root of a mounted filesystem. */
int vfs_inode_type(const struct vfs_world *w, int ino);
bool vfs_inode_freed(const struct vfs_world *w, int ino);
bool vfs_inode_unlinked(const struct vfs_world *w, int ino);
bool vfs_inode_is_mountpoint(const struct vfs_world *w, int ino);
/* Its i_size (the field 'size'). */
int64_t vfs_inode_size(const struct vfs_world *w, int ino);
/* Its dentry: the name, the offset of its entry in the parent directory,
 * and the children of a directory in the order getdents lists them: the
 * first, then each one's next; -1 after the last. */
const char *vfs_dentry_name(const struct vfs_world *w, int ino);
int vfs_dentry_offset(const struct vfs_world *w, int ino);
int vfs_dentry_first_child(const struct vfs_world *w, int ino);
int vfs_dentry_next_sibling(const struct vfs_world *w, int ino);
/* How many children a directory has (the field 'dir'). */
int vfs_dentry_nchildren(const struct vfs_world *w, int ino);

#endif
