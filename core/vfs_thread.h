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
/* Process slot PROC, one accessor per field: TYPE NAME(w, PROC).  They are
 * the rows under `object VFS_PROC_FIELDS` in core/accessors.tbl:
 * vfs_proc_name (comm), vfs_proc_pid, vfs_proc_uid; core/sched.c defines
 * them (vfs_accessor.h). */
VFS_PROC_FIELDS(VFS_ACCESSOR_DECL)

/* ---- threads ---------------------------------------------------------------- */
enum vfs_tstate { TS_FREE, TS_IDLE, TS_RUNNING, TS_BLOCKED, TS_DEAD };

/* Thread slots made: 0 <= TID < vfs_world_nthreads. */
int vfs_world_nthreads(const struct vfs_world *w);
/* Thread slot TID, one accessor per field: TYPE NAME(w, TID).  They are the
 * rows under `object VFS_THREAD_FIELDS` in core/accessors.tbl, each with
 * what it gives: vfs_thread_state (enum vfs_tstate), vfs_thread_proc,
 * vfs_thread_ktid, vfs_thread_wait_lock (TS_BLOCKED), vfs_thread_npending,
 * vfs_thread_nframes; core/sched.c defines them (vfs_accessor.h). */
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
/* What became of it, one accessor per field: TYPE NAME(w, TID).  They are
 * the rows under `object VFS_CALL_FIELDS` in core/accessors.tbl, each with
 * what it gives: vfs_call_started, vfs_call_done, vfs_call_skipped_fpos,
 * vfs_call_start_step, vfs_call_ret, vfs_call_text (the first bytes a read
 * gave), vfs_call_nent (vfs_rec_entry_name names them); core/sched.c
 * defines them (vfs_accessor.h). */
VFS_CALL_FIELDS(VFS_ACCESSOR_DECL)
/* It took a lock of class CLS in MODE (-1: any mode); i_rwsem_dir matches
 * an i_rwsem too, and write an exclusive one (i_mutex) (core/locking.c). */
bool vfs_call_took(const struct vfs_world *w, int tid, int cls, int mode);
/* The threads of the most recently completed call and of the most recent
 * getdents, or -1. */
int vfs_world_last_done(const struct vfs_world *w);
int vfs_world_last_getdents(const struct vfs_world *w);

#endif
