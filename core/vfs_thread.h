/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_thread.h - processes, threads and what each thread's calls did, as
 * the shell reads them: one accessor per field (core/sched.c), so that a
 * view never reads a thread's queue, frame, function stack or held locks
 * as laid out (core/world_layout.h).
 */
#ifndef VFSIM_VFS_THREAD_H
#define VFSIM_VFS_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "vfs_accessor.h"
#include "vfs_lock.h"

struct vfs_world;
struct vfs_call;

/* ---- processes -------------------------------------------------------------- */
/* Process slots made: 0 <= PROC < vfs_world_nprocs. */
int vfs_world_nprocs(const struct vfs_world *w);
/* Process slot PROC, one accessor per field: TYPE NAME(w, PROC) (core/sched.c
 * defines them from this list; vfs_accessor.h). */
#define VFS_PROC_FIELDS(X)                                                   \
	/* its name (comm), pid and uid */                                   \
	X(const char *, vfs_proc_name, name)                                 \
	X(int, vfs_proc_pid, pid)                                            \
	X(int, vfs_proc_uid, uid)
VFS_PROC_FIELDS(VFS_ACCESSOR_DECL)

/* ---- threads ---------------------------------------------------------------- */
enum vfs_tstate { TS_FREE, TS_IDLE, TS_RUNNING, TS_BLOCKED, TS_DEAD };

/* Thread slots made: 0 <= TID < vfs_world_nthreads. */
int vfs_world_nthreads(const struct vfs_world *w);
/* Thread slot TID, one accessor per field: TYPE NAME(w, TID) (core/sched.c
 * defines them from this list; vfs_accessor.h). */
#define VFS_THREAD_FIELDS(X)                                                 \
	/* its state (enum vfs_tstate), its process, its kernel tid, and    \
	 * the lock it sleeps on (TS_BLOCKED) */                             \
	X(int, vfs_thread_state, state)                                      \
	X(int, vfs_thread_proc, proc)                                        \
	X(int, vfs_thread_ktid, tid)                                         \
	X(vfs_lid_t, vfs_thread_wait_lock, wait_lock)                        \
	/* calls queued on TID that have not begun */                        \
	X(int, vfs_thread_npending, npending)                                \
	/* how many kernel functions TID is inside (vfs_thread_frame_fn) */  \
	X(int, vfs_thread_nframes, nfn)
VFS_THREAD_FIELDS(VFS_ACCESSOR_DECL)
/* The kernel functions TID is inside: frame I's VFN_* (0 is the outermost,
 * the system call's own; I < vfs_thread_nframes). */
int vfs_thread_frame_fn(const struct vfs_world *w, int tid, int i);
/* A lock a thread holds: the kernel function it was taken in (FN) and the
 * frame it belongs to: where it was taken or, when that function has
 * returned holding it (fdget_pos returns holding f_pos_lock), the deepest
 * live frame above it (RETURNED). */
struct vfs_held_lock {
	vfs_lid_t lock;
	int mode;               /* enum vfs_mode */
	int fn, frame;
	bool returned;
};
/* The I-th lock TID holds (0: the first taken), or false past the last. */
bool vfs_thread_held(const struct vfs_world *w, int tid, int i,
		     struct vfs_held_lock *h);

/* ---- a thread's current or most recent call ----------------------------------- */
/* The call, as submitted (its sequence number, system call, arguments). */
const struct vfs_call *vfs_thread_call(const struct vfs_world *w, int tid);
/* What became of it, one accessor per field: TYPE NAME(w, TID) (core/sched.c
 * defines them from this list; vfs_accessor.h). */
#define VFS_CALL_FIELDS(X)                                                   \
	/* it has begun; it has returned; it went through fdget_pos without \
	 * taking f_pos_lock; the world's step it began at */                \
	X(bool, vfs_call_started, rec.started)                               \
	X(bool, vfs_call_done, rec.done)                                     \
	X(bool, vfs_call_skipped_fpos, rec.skipped_fpos)                     \
	X(int, vfs_call_start_step, rec.start_step)                          \
	/* its result (>= 0, or -errno), the first bytes a read gave (the   \
	 * result's count up to VFS_TEXT_MAX, holes as zeros, then a NUL)   \
	 * and how many entries a getdents handed out (their names:         \
	 * vfs_rec_entry_name) */                                            \
	X(int64_t, vfs_call_ret, rec.ret)                                    \
	X(const char *, vfs_call_text, rec.text)                             \
	X(int, vfs_call_nent, rec.nent)
VFS_CALL_FIELDS(VFS_ACCESSOR_DECL)
/* It took a lock of class CLS in MODE (-1: any mode); i_rwsem_dir matches
 * an i_rwsem too, and write an exclusive one (i_mutex) (core/locking.c). */
bool vfs_call_took(const struct vfs_world *w, int tid, int cls, int mode);
/* The threads of the most recently completed call and of the most recent
 * getdents, or -1. */
int vfs_world_last_done(const struct vfs_world *w);
int vfs_world_last_getdents(const struct vfs_world *w);

#endif
