/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_lock.h - the simulated locks: their kinds, classes and modes, the
 * lock id that names one inside the world, and the lock itself.
 */
#ifndef VFSIM_VFS_LOCK_H
#define VFSIM_VFS_LOCK_H

#include <stdbool.h>
#include <stdint.h>

/* ---- locks (core/locking.c) ------------------------------------------------ */
enum vfs_lock_kind { LK_MUTEX, LK_RWSEM, LK_SPIN };
enum vfs_lock_class { LC_NONE, LC_F_POS_LOCK, LC_I_RWSEM_DIR, LC_I_RWSEM,
		      LC_F_LOCK, LC_RENAME_MUTEX, LC_CRED_GUARD_MUTEX,
		      LC_EXEC_UPDATE_MUTEX, LC_EXEC_UPDATE_LOCK,
		      /* a directory's per-dentry update lock, which only a
		       * script's steps take (`lock d_update of inode`) */
		      LC_D_UPDATE, LC__COUNT };
enum vfs_mode { M_NONE, M_EXCL, M_READ, M_WRITE };


/* A lock id names a lock inside the world: its object kind and index. */
typedef uint32_t vfs_lid_t;
enum { LID_FILE_POS = 1, LID_FILE_LOCK = 2, LID_INODE = 3, LID_RENAME = 4,
       /* not a lock: a dentry's d_seq seqcount, which only the race
	* detector keeps a clock for (the RCU path walk) */
       LID_DSEQ = 5,
       /* a process's signal->exec_update_lock (or the era's mutex) */
       LID_EXEC = 6,
       /* an inode's dentry's d_update (a sleeping lock, exclusive) */
       LID_DENTRY = 7 };
#define VFS_LID(kind, idx) ((vfs_lid_t)(((uint32_t)(kind) << 28) | (uint32_t)(idx)))
#define VFS_LID_KIND(l)    ((int)((l) >> 28))
#define VFS_LID_IDX(l)     ((int)((l) & 0xfffffff))

struct vfs_lock {
	uint8_t kind;           /* enum vfs_lock_kind */
	int8_t owner;           /* exclusive holder's tid, or -1 */
	int8_t nreaders;        /* rwsem read holders */
	int8_t wait_head;       /* FIFO of waiting threads (t->wait_next) */
	int8_t wait_tail;
};

/* ---- reading the world's locks (core/locking.c): views call these and
 * never decode a lock id or a lock's fields ---------------------------- */
struct vfs_world;
/* The world's locks one after another, in the order `locks` lists them
 * (each open file's f_pos_lock and f_lock, each inode's i_rwsem,
 * s_vfs_rename_mutex, each process's exec lock): start with *LID = 0;
 * false after the last. */
bool vfs_lock_next(const struct vfs_world *w, vfs_lid_t *lid);
/* Somebody holds it or waits for it. */
bool vfs_lock_busy(const struct vfs_world *w, vfs_lid_t lid);
/* Its exclusive holder's tid, or -1. */
int vfs_lock_owner(const struct vfs_world *w, vfs_lid_t lid);
/* The I-th thread (0: the first) in its queue of waiters and in *MODE the
 * mode it waits for; -1 past the last. */
int vfs_lock_waiter(const struct vfs_world *w, vfs_lid_t lid, int i, int *mode);
/* File index FILE's f_pos_lock. */
vfs_lid_t vfs_file_pos_lock(int file);
/* One of an open file's locks (f_pos_lock, f_lock): its id names the file
 * by a slot that a later file may reuse. */
bool vfs_lock_of_file(vfs_lid_t lid);

#endif
