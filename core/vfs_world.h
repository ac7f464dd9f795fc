/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_world.h - the world, one plain value: processes, threads, fd
 * tables, open files, inodes, locks, each thread's place inside its
 * kernel path and the detectors' state; how to make, copy and free one
 * (core/world.c), look things up in it, and run it (core/sched.c).  Its
 * layout is private to core/ (world_layout.h).
 */
#ifndef VFSIM_VFS_WORLD_H
#define VFSIM_VFS_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfs_lock.h"
#include "vfs_kernel.h"
#include "syscalls.h"

/* The world's layout is core's own (world_layout.h): the shell holds a
 * pointer and reads its objects through the headers by subject,
 * vfs_file.h, vfs_inode.h, vfs_thread.h and vfs_lock.h. */
struct vfs_world;
struct vfs_sink;
struct vfs_detect;

/* ---- statistics (per lock class) -------------------------------------------- */
struct vfs_stats {
	uint32_t acquire[LC__COUNT];
	uint32_t contended[LC__COUNT];
	uint32_t wait_steps[LC__COUNT];
	uint32_t atomics;       /* atomic operations: lock ops, f_count changes */
	uint32_t calls;
	uint32_t calls_by_sys[SYS__COUNT];
	uint32_t atomics_by_sys[SYS__COUNT];
};

/* ---- the world ------------------------------------------------------------ */
enum vfs_sched { VSCHED_RR, VSCHED_FIFO, VSCHED_RANDOM };

/* ---- world set-up (core/world.c) ------------------------------------------- */
/*
 * A world owns heap tables: make one with vfs_world_new() (or zero it and
 * vfs_world_init it), copy into a zeroed or live world, free it with
 * vfs_world_free().  NULL / false: out of memory.
 */
struct vfs_world *vfs_world_new(const struct vfs_preset *p);
void vfs_world_init(struct vfs_world *w, const struct vfs_preset *p);
void vfs_world_free(struct vfs_world *w);       /* the tables and W */
void vfs_world_release(struct vfs_world *w);    /* the tables only */
/* Copies only the used parts: cheap for exploration.  DST is zeroed or a
 * world; its tables are reused when large enough. */
bool vfs_world_copy(struct vfs_world *dst, const struct vfs_world *src);
/* A new world with SRC's contents, or NULL. */
struct vfs_world *vfs_world_dup(const struct vfs_world *src);
/* The entries thread TID's most recent getdents handed out (rec.nent). */
const int32_t *vfs_rec_entries(const struct vfs_world *w, int tid);
/* The name of its entry I: ".", "..", a name. */
const char *vfs_rec_entry_name(const struct vfs_world *w, int tid, int i);
/* All of them as "[. .. a b]"; when they do not fit in N bytes, as many as
 * do and "... (K more)]". */
void vfs_rec_entries_text(const struct vfs_world *w, int tid, char *buf,
			  size_t n);
/* Setup commands: instant, not traced. Return 0 or -errno. */
int vfs_setup_mkdir(struct vfs_world *w, const char *path, bool parents);
int vfs_setup_touch(struct vfs_world *w, const char *path, bool parents);
int vfs_setup_mount(struct vfs_world *w, const char *fstype, const char *path,
		    const char *option);
/* NAME is [A-Za-z][A-Za-z0-9_]* (processes, defined filesystem types). */
bool vfs_valid_name(const char *name);
/* Returns the new process index, or -errno (-VE_EXIST: name taken). */
int vfs_spawn(struct vfs_world *w, const char *name, int uid);
void vfs_set_preset(struct vfs_world *w, const struct vfs_preset *p);

/* Lookups. -1 when not found. */
int vfs_path_lookup(const struct vfs_world *w, const char *path);
/* PATH's parent directory exists. */
bool vfs_parent_exists(const struct vfs_world *w, const char *path);
int vfs_proc_by_name(const struct vfs_world *w, const char *name);
int vfs_proc_by_pid(const struct vfs_world *w, int pid);
/* "A", "A.1", "A.2", or a pid number. */
int vfs_thread_by_name(const struct vfs_world *w, const char *name);
int vfs_file_by_id(const struct vfs_world *w, int id);
/* The world's filesystem types: the built-in rows, then the defined ones
 * (index vfs_nfstypes + i).  NULL / -1 when there is no such type. */
int vfs_world_nfstypes(const struct vfs_world *w);
const struct vfs_fstype *vfs_world_fstype(const struct vfs_world *w, int ft);
int vfs_world_fstype_lookup(const struct vfs_world *w, const char *name);
static inline bool vfs_fstype_defined(int ft) { return ft >= vfs_nfstypes; }
/* Add ROW as a type of W (`fs define`): its index, or -VE_EXIST (a type of
 * that name exists, built in or defined), -VE_NOSPC (VFS_MAX_FSDEFS made
 * already), -VE_INVAL (no name, an iterator that is not one, a part out
 * of range, a knob-swapped `later`), -VE_NOMEM. */
int vfs_fs_define(struct vfs_world *w, const struct vfs_fstype *row);
const struct vfs_fstype *vfs_inode_fstype(const struct vfs_world *w, int ino);
/* what INO's filesystem does under W's kernel (vfs_fs_ops) */
struct vfs_fsops vfs_inode_fsops(const struct vfs_world *w, int ino);

/* ---- the world as the shell reads it (core/world.c) ------------------------- */
/* A zeroed world, for vfs_world_init or vfs_world_copy (NULL: out of
 * memory); the shell never knows its size. */
struct vfs_world *vfs_world_alloc(void);
/* Steps run so far; the last sequence number handed out: a submitted
 * call takes one (its seq) and a call that starts another (the fifo
 * scheduler's order). */
int vfs_world_step(const struct vfs_world *w);
int vfs_world_call_seq(const struct vfs_world *w);
/* The preset it runs (index into vfs_presets), its knobs, and whether a
 * script changed them ('set'); setting them marks them changed when
 * OVERRIDDEN. */
int vfs_world_preset(const struct vfs_world *w);
const struct vfs_knobs *vfs_world_knobs(const struct vfs_world *w);
bool vfs_world_knobs_overridden(const struct vfs_world *w);
void vfs_world_set_knobs(struct vfs_world *w, const struct vfs_knobs *k,
			 bool overridden);
/* The scheduler (enum vfs_sched); VSCHED_RANDOM draws from SEED. */
int vfs_world_sched(const struct vfs_world *w);
void vfs_world_set_sched(struct vfs_world *w, int sched, long long seed);
/* The detectors' state and reports (vfs_detect.h), and the overflows of
 * their tables not yet told (marked told). */
const struct vfs_detect *vfs_world_detect(const struct vfs_world *w);
uint32_t vfs_world_overflow_news(struct vfs_world *w);
/* W's override of decision DEC (vfs_kernel.h), or NULL: the kernel
 * decides. */
const struct vfs_expr *vfs_world_override(const struct vfs_world *w, int dec);
/* The lock and call counters ('stats'). */
const struct vfs_stats *vfs_world_stats(const struct vfs_world *w);
/* Out of memory in a copy, a set-up or a step: 0 never, 1 and nobody was
 * told yet, 2 told (vfs_world_oom_said: the shell said it is incomplete). */
int vfs_world_oom(const struct vfs_world *w);
void vfs_world_oom_said(struct vfs_world *w);

/* ---- running (core/sched.c) ------------------------------------------------- */
/* Queue a call on a thread: its sequence number (> 0, the order of
 * submission the fifo scheduler follows), or -VE_AGAIN when the queue is
 * full (VFS_MAX_PENDING), -VE_SRCH when the thread has exited. */
int vfs_submit(struct vfs_world *w, int tid, const struct vfs_call *c);
/* Has a call in progress or queued, and is not blocked. */
bool vfs_runnable(const struct vfs_world *w, int tid);
bool vfs_has_work(const struct vfs_world *w, int tid);
/* A call has begun and not finished (queued calls aside). */
bool vfs_in_call(const struct vfs_world *w, int tid);
/* Run one atomic step of tid (must be runnable). Returns true if the step
 * completed a call. */
bool vfs_step(struct vfs_world *w, int tid, const struct vfs_sink *sink);
/* vfs_step for a sink that reads no plain frame of the function stack (a
 * function's exit, the entry of one that is not a filesystem's iterator;
 * no detector reads them either), as a search's sinks: those events are
 * not made, and the world changes as with vfs_step (the function stack,
 * the event numbers). */
bool vfs_step_noframes(struct vfs_world *w, int tid, const struct vfs_sink *sink);
/*
 * SIGKILL to a process (kernel/signal.c, as far as the paths here care):
 * its queued calls are dropped and each thread exits after its current
 * call; a thread asleep in a killable wait (iterate_dir's
 * down_read_killable, ...) gives up with -EINTR, others keep waiting (the
 * v6.5 wrapper's down_write is not killable: it must return holding the
 * lock).  Returns how many waits were interrupted, or -VE_SRCH if no such
 * live process.
 */
int vfs_kill(struct vfs_world *w, int proc, const struct vfs_sink *sink);
/* The scheduler's choice among runnable threads, or -1. Advances its state. */
int vfs_sched_pick(struct vfs_world *w);
/* The kernel function the thread's next step is in, and whether that step
 * enters it ("about to enter FUNC"). VFN_none when idle. */
int vfs_next_fn(const struct vfs_world *w, int tid, bool *enters);
/* The kernel function of the next step of the site (for explore tables). */
int vfs_nrunnable(const struct vfs_world *w);
/* Live threads all blocked and at least one blocked. */
bool vfs_all_blocked(const struct vfs_world *w);

#endif
