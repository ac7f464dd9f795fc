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
/* File slot FILE, one accessor per field: TYPE NAME(w, FILE) (core/file.c
 * defines them from this list; vfs_accessor.h). */
#define VFS_FILE_FIELDS(X)                                                   \
	/* its kind (FK_*), its number (file#N), f_mode, f_pos */             \
	X(int, vfs_file_kind, kind)                                          \
	X(int, vfs_file_id, id)                                              \
	X(unsigned, vfs_file_mode, f_mode)                                   \
	X(int64_t, vfs_file_pos, f_pos)                                      \
	/* the filesystem's private readdir state (the field 'cursor') */    \
	X(int64_t, vfs_file_cursor, cursor)                                  \
	/* f_count, the inode it opened (FK_INODE) and the pid a pidfd      \
	 * refers to (FK_PIDFD) */                                           \
	X(int, vfs_file_count, f_count)                                      \
	X(int, vfs_file_inode, inode)                                        \
	X(int, vfs_file_pidfd_pid, pid)
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
