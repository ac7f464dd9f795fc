/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_file.h - open files and descriptor tables as the shell reads them:
 * one accessor per field (core/file.c), so that a view never knows how a
 * struct file or an fd slot is laid out (core/world_layout.h).
 */
#ifndef VFSIM_VFS_FILE_H
#define VFSIM_VFS_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "vfs_accessor.h"

struct vfs_world;

/* What a file slot holds: FK_NONE is a free slot. */
enum { FK_NONE, FK_INODE, FK_PIDFD };
/* f_mode's bits */
#define FMODE_READ        0x1
#define FMODE_WRITE       0x2
#define FMODE_ATOMIC_POS  0x8000

/* Slots of the file table in use or free: 0 <= FILE < vfs_world_nfiles. */
int vfs_world_nfiles(const struct vfs_world *w);
/* File slot FILE, one accessor per field: TYPE NAME(w, FILE).  They are
 * the rows under `object VFS_FILE_FIELDS` in core/accessors.tbl, each with
 * what it gives: vfs_file_kind (FK_*), vfs_file_id, vfs_file_mode,
 * vfs_file_pos, vfs_file_cursor, vfs_file_count, vfs_file_inode,
 * vfs_file_pidfd_pid; core/file.c defines them (vfs_accessor.h). */
VFS_FILE_FIELDS(VFS_ACCESSOR_DECL)

/* The file PROC's fd refers to, or -1. */
int vfs_fd_file(const struct vfs_world *w, int proc, int fd);
/* What slot FD of fd table FDT (0 <= FD < its nfds) holds, for views that
 * list a table: an open file's index, or one of VFD_*; *CLOEXEC (when not
 * NULL) whether close-on-exec is set on it. */
enum { VFD_FREE = -1, VFD_RESERVED = -2 /* an open in progress */,
       VFD_STDIO = -3 /* 0-2: taken, as stdio would be (no file modelled) */ };
int vfs_fd_slot(const struct vfs_world *w, int fdt, int fd, bool *cloexec);
/* PROC's fd table: its index for vfs_fd_slot, *NFDS (one past its highest
 * slot used) and *SHARED (the threads sharing it, files->count); -1 when
 * the process has exited. */
int vfs_proc_fdtable(const struct vfs_world *w, int proc, int *nfds, int *shared);

#endif
