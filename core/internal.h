/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * internal.h - what the kernel paths share inside core/.
 *
 * A kernel path is one C function per kernel function, named after it
 * (iterate_dir() in readdir.c models fs/readdir.c's iterate_dir).  The
 * function is a switch on the thread's resume point (t->f.pc): each case is
 * one atomic step, read top to bottom beside the kernel's source; the step
 * names the kernel function it runs in (for the trace, `where` and
 * `until`), does its work on the world and says where the thread goes next
 * with go(x, RP(function, step)).  Sub-paths (fdget_pos, fdput_pos, ...)
 * are entered with call_sub() and left with ret_sub(), like a tiny call
 * stack of resume points.
 */
#ifndef VFSIM_INTERNAL_H
#define VFSIM_INTERNAL_H

#include <string.h>
#include "vfsim.h"
#include "world_layout.h"


struct vx {
	struct vfs_world *w;
	struct vfs_thread *t;
	int tid;
	const struct vfs_sink *sink;
	bool completed;         /* this step finished the thread's call */
	bool no_frames;         /* the plain frames are not made (vfs_step_noframes) */
	/* the resume point whose step runs (or whose step the events are
	 * of): what emit() gives each event (vfs_event_point) */
	int rp;
};

/* A kernel function: runs the step its thread resumes at (t->f.pc). */
typedef void kfn(struct vx *x);
/*
 * KERNEL_FN(name) { ... }: every kernel function is defined through it, as
 * every system call is through SYSCALL_DEFINEn.  name(x) is the kfn that
 * vfs_rps[] runs for each of its resume points; the body that follows is
 * the step, with the thread's frame as f: a switch (f->pc) with a case per
 * resume point, read beside the kernel's source, or a function of one step.
 */
#define KERNEL_FN(name)                                                        \
	static inline __attribute__((always_inline)) void                      \
	name##_steps(struct vx *x, struct vfs_frame *f);                       \
	void name(struct vx *x) { name##_steps(x, &x->t->f); }                 \
	static inline void name##_steps(struct vx *x,                          \
					struct vfs_frame *f __attribute__((unused)))
/* For steps whose kernel function depends on the preset or the file. */
typedef int kfn_resolver(const struct vfs_world *w, const struct vfs_thread *t);

/* An accessor of core/accessors.tbl (vfs_accessor.h): TYPE NAME(w, i) is
 * the field FIELD of w->ARRAY[i]; the object's owner expands its list. */
#define VFS_ACCESSOR_DEF(type, name, array, field) \
	type name(const struct vfs_world *w, int i) { return w->array[i].field; }

/* The resume point STEP of the C function FUNC (a kernel function's). */
#define RP(func, step) RP_##func##__##step

/*
 * The resume points, declared once: P(C function, step, kernel function
 * the step runs in, resolver-or-NULL, enters, inline); they make the
 * enum, the names ("iterate_dir:lock") and the table vfs_rps[] that the
 * scheduler, `where`, footprints and the explorers read.
 * The kernel function: what the trace and `where` name, the C function's
 * own or a callee's (up_read); a resolver instead where it depends on the
 * preset or the filesystem (iterate_dir_lock_fn picks down_read_killable
 * or down_write).
 * enters: the step is the first one in that function ("about to enter").
 * inline: a return point whose work runs in the step that returns to it.
 */
#define VFS_RP_LIST(P) \
	/* the system call: between calls (idle), its entry, and its end \
	 * once its result is in the frame (exit, after the puts) */ \
	P(do_syscall_64, idle,                 none,                    NULL,                  0, 0) \
	P(do_syscall_64, enter,                none,                    sys_fn_of,             1, 0) \
	P(do_syscall_64, exit,                 none,                    NULL,                  0, 1) \
	/* fs/file.c: fdget_pos / fdget and their puts */ \
	P(fdget_pos, enter,                    fdget_pos,               NULL,                  1, 0) \
	P(fdget_pos, needs_f_pos_lock,         none,                    fdget_pos_check_fn,    1, 0) \
	P(fdget_pos, lock,                     mutex_lock,              NULL,                  1, 0) \
	P(fdget_pos, locked,                   fdget_pos,               NULL,                  0, 0) \
	P(fdget, enter,                        fdget,                   NULL,                  1, 0) \
	P(fdput_pos, unlock,                   fdput_pos,               NULL,                  1, 0) \
	P(fdput_pos, fput,                     fput,                    NULL,                  1, 0) \
	P(fdput, enter,                        fdput,                   NULL,                  1, 0) \
	/* fs/readdir.c: iterate_dir */ \
	P(iterate_dir, enter,                  iterate_dir,             NULL,                  1, 0) \
	P(iterate_dir, lock,                   none,                    iterate_dir_lock_fn,   1, 0) \
	P(iterate_dir, deaddir,                iterate_dir,             NULL,                  0, 0) \
	P(iterate_dir, iterate,                none,                    iterate_dir_actor_fn,  1, 0) \
	P(iterate_dir, set_pos,                iterate_dir,             NULL,                  0, 0) \
	P(iterate_dir, unlock,                 none,                    iterate_dir_unlock_fn, 1, 0) \
	/* fs/readdir.c: wrap_directory_iterator (v6.5) */ \
	P(wrap_directory_iterator, enter,      wrap_directory_iterator, NULL,                  1, 0) \
	P(wrap_directory_iterator, up_read,    up_read,                 NULL,                  1, 0) \
	P(wrap_directory_iterator, down_write, down_write,              NULL,                  1, 0) \
	P(wrap_directory_iterator, deaddir,    wrap_directory_iterator, NULL,                  0, 0) \
	P(wrap_directory_iterator, downgrade,  downgrade_write,         NULL,                  1, 0) \
	/* (back from the script's function in its place: 'hook wrap_directory_iterator') */ \
	P(wrap_directory_iterator, hooked,     iterate_dir,             NULL,                  0, 1) \
	/* fs/read_write.c */ \
	P(vfs_llseek, enter,                   vfs_llseek,              NULL,                  1, 0) \
	P(vfs_llseek, f_op_llseek,             none,                    f_op_llseek_fn,        1, 0) \
	P(vfs_llseek, spin_lock,               spin_lock,               NULL,                  1, 0) \
	P(vfs_llseek, f_lock_held,             none,                    f_op_llseek_fn,        0, 0) \
	P(vfs_llseek, inode_lock,              none,                    llseek_inode_lock_fn,  1, 0) \
	P(vfs_llseek, inode_locked,            none,                    f_op_llseek_fn,        0, 0) \
	P(vfs_llseek, inode_unlock,            none,                    llseek_inode_unlock_fn, 1, 0) \
	/* (after a defined function in vfs_llseek's place: 'hook vfs_llseek') */ \
	P(vfs_llseek, hooked,                  lseek,                   NULL,                  0, 1) \
	P(ksys_read, file_pos,                 ksys_read,               NULL,                  0, 0) \
	P(ksys_read, vfs_read,                 vfs_read,                NULL,                  1, 0) \
	P(ksys_read, set_pos,                  ksys_read,               NULL,                  0, 0) \
	P(ksys_write, file_pos,                ksys_write,              NULL,                  0, 0) \
	P(ksys_write, vfs_write,               vfs_write,               NULL,                  1, 0) \
	P(ksys_write, inode_lock,              down_write,              NULL,                  1, 0) \
	P(ksys_write, write_iter,              generic_file_write_iter, NULL,                  0, 0) \
	P(ksys_write, inode_unlock,            up_write,                NULL,                  1, 0) \
	P(ksys_write, set_pos,                 ksys_write,              NULL,                  0, 0) \
	P(ksys_pread64, vfs_read,              vfs_read,                NULL,                  1, 0) \
	P(ksys_pwrite64, vfs_write,            vfs_write,               NULL,                  1, 0) \
	P(ksys_pwrite64, inode_lock,           down_write,              NULL,                  1, 0) \
	P(ksys_pwrite64, write_iter,           generic_file_write_iter, NULL,                  0, 0) \
	P(ksys_pwrite64, inode_unlock,         up_write,                NULL,                  1, 0) \
	P(do_readv, file_pos,                  do_readv,                NULL,                  0, 0) \
	P(do_readv, vfs_readv,                 vfs_readv,               NULL,                  1, 0) \
	P(do_readv, set_pos,                   do_readv,                NULL,                  0, 0) \
	/* fs/sync.c: fsync */ \
	P(do_fsync, vfs_fsync_range,           vfs_fsync_range,         NULL,                  1, 0) \
	/* fs/open.c, fs/file.c: open, close, dup */ \
	P(do_sys_open, path_lookup,            do_sys_open,             NULL,                  1, 0) \
	P(do_sys_open, parent_lookup,          do_sys_open,             NULL,                  1, 0) \
	P(do_sys_open, do_dentry_open,         do_dentry_open,          NULL,                  1, 0) \
	P(do_sys_open, fd_install,             fd_install,              NULL,                  1, 0) \
	P(open_last_lookups, inode_lock,       none,                    inode_lock_fn,         1, 0) \
	P(open_last_lookups, vfs_create,       vfs_create,              NULL,                  1, 0) \
	P(open_last_lookups, inode_unlock,     none,                    inode_unlock_fn,       1, 0) \
	P(handle_truncate, inode_lock,         handle_truncate,         NULL,                  1, 0) \
	P(handle_truncate, do_truncate,        do_truncate,             NULL,                  0, 0) \
	P(handle_truncate, inode_unlock,       none,                    inode_unlock_fn,       1, 0) \
	P(close_fd, pick_file,                 close_fd,                NULL,                  1, 0) \
	P(close_fd, filp_close,                fput,                    NULL,                  1, 0) \
	P(ksys_dup, fget_raw,                  fget_raw,                NULL,                  1, 0) \
	P(ksys_dup, fd_install,                fd_install,              NULL,                  1, 0) \
	P(do_dup2, enter,                      do_dup2,                 NULL,                  1, 0) \
	P(do_dup2, filp_close,                 fput,                    NULL,                  1, 0) \
	/* kernel/fork.c, kernel/exit.c, kernel/pid.c */ \
	P(copy_process, clone_files,           copy_process,            NULL,                  1, 0) \
	P(copy_process, dup_fd,                copy_process,            NULL,                  1, 0) \
	P(do_exit, exit_files,                 do_exit,                 NULL,                  1, 0) \
	P(pidfd_open, enter,                   pidfd_open,              NULL,                  0, 0) \
	/* __pidfd_fget: the target's exec lock (the era's) around the check */ \
	P(pidfd_getfd, exec_lock,              none,                    pidfd_exec_lock_fn,    1, 0) \
	P(pidfd_getfd, ptrace_may_access,      ptrace_may_access,       NULL,                  1, 0) \
	P(pidfd_getfd, fget_task,              fget_task,               NULL,                  1, 0) \
	P(pidfd_getfd, exec_unlock,            none,                    pidfd_exec_unlock_fn,  1, 0) \
	P(pidfd_getfd, receive_fd,             receive_fd,              NULL,                  1, 0) \
	/* fs/namei.c */ \
	/* lookup_hooked: back from the script's function before the lookup ('hook lookup'); \
	 * lookup_after: back from a pair's after half, on to where the lookup sent it */ \
	P(do_mkdirat, parentat,                do_mkdirat,              NULL,                  1, 0) \
	P(do_mkdirat, lock_parent,             none,                    inode_lock_fn,         1, 0) \
	P(do_mkdirat, lookup,                  do_mkdirat,              NULL,                  0, 0) \
	P(do_mkdirat, lookup_hooked,           do_mkdirat,              NULL,                  0, 1) \
	P(do_mkdirat, lookup_after,            do_mkdirat,              NULL,                  0, 1) \
	P(do_mkdirat, vfs_mkdir,               vfs_mkdir,               NULL,                  1, 0) \
	P(do_mkdirat, unlock_parent,           none,                    inode_unlock_fn,       1, 0) \
	P(do_unlinkat, parentat,               do_unlinkat,             NULL,                  1, 0) \
	P(do_unlinkat, lock_parent,            none,                    inode_lock_fn,         1, 0) \
	P(do_unlinkat, lookup,                 do_unlinkat,             NULL,                  0, 0) \
	P(do_unlinkat, lookup_hooked,          do_unlinkat,             NULL,                  0, 1) \
	P(do_unlinkat, lookup_after,           do_unlinkat,             NULL,                  0, 1) \
	P(do_unlinkat, vfs_unlink,             vfs_unlink,              NULL,                  1, 0) \
	P(do_unlinkat, lock_victim,            none,                    inode_lock_fn,         1, 0) \
	P(do_unlinkat, unlink,                 vfs_unlink,              NULL,                  0, 0) \
	P(do_unlinkat, unlock_victim,          none,                    inode_unlock_fn,       1, 0) \
	P(do_unlinkat, unlock_parent,          none,                    inode_unlock_fn,       1, 0) \
	P(do_rmdir, parentat,                  do_rmdir,                NULL,                  1, 0) \
	P(do_rmdir, lock_parent,               none,                    inode_lock_fn,         1, 0) \
	P(do_rmdir, lookup,                    do_rmdir,                NULL,                  0, 0) \
	P(do_rmdir, lookup_hooked,             do_rmdir,                NULL,                  0, 1) \
	P(do_rmdir, lookup_after,              do_rmdir,                NULL,                  0, 1) \
	P(do_rmdir, vfs_rmdir,                 vfs_rmdir,               NULL,                  1, 0) \
	P(do_rmdir, lock_victim,               none,                    inode_lock_fn,         1, 0) \
	P(do_rmdir, rmdir,                     vfs_rmdir,               NULL,                  0, 0) \
	P(do_rmdir, unlock_victim,             none,                    inode_unlock_fn,       1, 0) \
	P(do_rmdir, unlock_parent,             none,                    inode_unlock_fn,       1, 0) \
	P(do_renameat2, parentat,              do_renameat2,            NULL,                  1, 0) \
	P(do_renameat2, rename_mutex,          mutex_lock,              NULL,                  1, 0) \
	P(do_renameat2, lock_parent,           none,                    inode_lock_fn,         1, 0) \
	P(do_renameat2, lock_parent2,          none,                    inode_lock_fn,         1, 0) \
	P(do_renameat2, lookup,                do_renameat2,            NULL,                  0, 0) \
	P(do_renameat2, lookup_hooked,         do_renameat2,            NULL,                  0, 1) \
	P(do_renameat2, lookup_after,          do_renameat2,            NULL,                  0, 1) \
	P(do_renameat2, vfs_rename,            vfs_rename,              NULL,                  1, 0) \
	P(do_renameat2, lock_victim,           none,                    inode_lock_fn,         1, 0) \
	P(do_renameat2, lock_victim2,          none,                    inode_lock_fn,         1, 0) \
	P(do_renameat2, rename,                vfs_rename,              NULL,                  0, 0) \
	P(do_renameat2, unlock_victim2,        none,                    inode_unlock_fn,       1, 0) \
	P(do_renameat2, unlock_victim,         none,                    inode_unlock_fn,       1, 0) \
	P(do_renameat2, unlock_parent,         none,                    inode_unlock_fn,       1, 0) \
	P(do_renameat2, unlock_parent2,        none,                    inode_unlock_fn,       1, 0) \
	P(do_renameat2, rename_mutex_unlock,   mutex_unlock,            NULL,                  1, 0) \
	/* a function the script defined: one step of it (core/defined.c) */ \
	P(defined_step, step,                 none,                    kfn_fn,                1, 0)

enum vfs_rp {
#define P_ENUM(func, step, fn, res, en, in) RP(func, step),
	VFS_RP_LIST(P_ENUM)
#undef P_ENUM
	RP__COUNT
};
/* between calls: the thread is in user space */
#define RP_IDLE RP(do_syscall_64, idle)

struct vfs_rp_desc {
	const char *name;       /* "iterate_dir:lock" */
	uint8_t fn;
	kfn_resolver *resolve;
	uint8_t enters;
	uint8_t inline_ret;
	kfn *run;               /* the C function the step is a case of */
};
extern const struct vfs_rp_desc vfs_rps[RP__COUNT];
/* (events carry the resume point as a byte, and a blocked thread's) */
_Static_assert(RP__COUNT <= 256, "a resume point fits vfs_event.rp");

/* Run the step at resume point RP, its events marked with it. */
static inline void run_at(struct vx *x, int rp)
{
	x->rp = rp;
	vfs_rps[rp].run(x);
}
/* Where thread T's events are, outside a step of its own (a lock handed
 * to it, a signal): the step it blocked in, or the one it resumes at. */
static inline int thread_rp(const struct vfs_thread *t)
{
	return t->state == TS_BLOCKED ? t->wait_rp : t->f.pc;
}

/* Thread TID's struct written by a step that may be another thread's
 * (w->touched: every such writer marks it; tests/unit/test_state_hash.c
 * checks that no write goes unmarked). */
static inline void thread_touch(struct vfs_world *w, int tid)
{
	w->touched |= 1u << tid;
}

/* The processes (their exec_lock too), the inode locks (i_rwsem and
 * d_update) written by a step (w->touched_objs: lock_ptr, and where a
 * process or an inode is made or a process exits). */
enum { TOUCH_PROCS = 1, TOUCH_ILOCKS = 2, TOUCH_PASSES = 4 };
static inline void objs_touch(struct vfs_world *w, int bits)
{
	w->touched_objs |= (uint8_t)bits;
}

/* The bit of slot I in a touched mask of files or fd tables: its own
 * below 31, the last one for every slot from 31 on ('many'). */
static inline uint32_t touch_bit(int i)
{
	return UINT32_C(1) << ((unsigned)i < 31u ? (unsigned)i : 31u);
}
/* The slots of a touched mask *M among N: [*I, *END) for its lowest bit
 * (bit 31: from 31 to N), the bit taken off; false when none is left. */
static inline bool marked_range(uint32_t *m, int n, int *i, int *end)
{
	if (n <= 31)
		*m &= (UINT32_C(1) << (n > 0 ? n : 0)) - 1;
	if (!*m)
		return false;
	*i = __builtin_ctz(*m);
	*m &= *m - 1;
	*end = *i < 31 ? *i + 1 : n;
	return true;
}
/* File slot I written by a step: its f_pos, cursor, f_count, f_mode, a
 * lock (lock_ptr), its kind (file_alloc, the last fput) or its row of
 * declared fields (w->touched_files; tests/unit/test_state_hash.c checks
 * that no write goes unmarked). */
static inline void file_touch(struct vfs_world *w, int i)
{
	w->touched_files |= touch_bit(i);
}
/* Fd table I written by a step: a slot, nfds or count (w->touched_fdts) */
static inline void fdt_touch(struct vfs_world *w, int i)
{
	w->touched_fdts |= touch_bit(i);
}

/* The kernel functions, each defined in the file named after the kernel's
 * (do_syscall_64: syscalls.c). */
#define P_DECL(func, step, fn, res, en, in) kfn func;
VFS_RP_LIST(P_DECL)
#undef P_DECL
kfn_resolver sys_fn_of, iterate_dir_lock_fn, iterate_dir_actor_fn,
	iterate_dir_unlock_fn, f_op_llseek_fn, llseek_inode_lock_fn,
	llseek_inode_unlock_fn, inode_lock_fn, inode_unlock_fn,
	fdget_pos_check_fn, pidfd_exec_lock_fn,
	pidfd_exec_unlock_fn, kfn_fn;

/* ---- control flow (sched.c) ---- */
static inline void go(struct vx *x, int rp) { x->t->f.pc = (uint16_t)rp; }
void call_sub(struct vx *x, int rp, int ret_rp);
/* fdget_pos (or plain fdget where the era has no f_pos lock), then RET */
void get_pos_sub(struct vx *x, int ret_rp);
/* the matching put: fdput_pos or fdput */
void put_pos_sub(struct vx *x, int ret_rp);
int proc_new(struct vfs_world *w, const char *name, int uid, int fdt);
int thread_slot(struct vfs_world *w, bool *reused);
void ret_sub(struct vx *x);
/* Finish the thread's call: exit event of the syscall frame and record. */
void sys_return(struct vx *x, int64_t ret);
/* The current call. */
static inline struct vfs_call *cur_call(struct vx *x) { return &x->t->rec.call; }
/* Where thread TID resumes (its resume point, RP_IDLE between calls) and, when
 * FRAME is not NULL, the locals it resumes with: the kernel path's
 * private frame, for the stateful search's encoding of a state and its
 * choice of where to keep a copy.  The one reader of the frame outside
 * the kernel paths: detectors and footprints read events only. */
int vfs_thread_resume_point(const struct vfs_world *w, int tid,
			    const void **frame, size_t *size);

/* The random scheduler's generator (also the explorer's guessing runs). */
uint64_t xorshift64(uint64_t *s);

/* vfs_fn_is_iterator's table, by function id (a uint8_t), made once
 * (race.c): the explorers' sink reads it per event. */
const uint8_t *vfs_iterator_fns(void);
/* (the table itself, for fn_is_iterator: written once, before
 * vfs_iterator_made says so) */
extern uint8_t vfs_iterator_fn[256];
extern uint8_t vfs_iterator_made;
/* vfs_fn_is_iterator, inline: every function entry of a search asks it */
static inline bool fn_is_iterator(int fn)
{
	const uint8_t *t = __atomic_load_n(&vfs_iterator_made, __ATOMIC_ACQUIRE) ?
			   vfs_iterator_fn : vfs_iterator_fns();
	return fn >= 0 && fn < 256 && t[fn];
}

/* ---- trace (trace.c) ---- */
/* The events vfs_detect_event (race.c, lockdep.c, deadlock.c) reads; the
 * rest are not handed to it: a function's exit, a lock not taken, a
 * non-iterator's entry (no directory to check for S_DEAD), a note other
 * than copy_process's (the only one that orders threads).  A world
 * without vector clocks (det.no_clocks: the explorers' copies) reads
 * fewer: no release or downgrade (they only move clocks), no
 * copy_process note, and of the accesses only a write of f_pos (a seek
 * starts a new pass) unless the script declared rules (rules_access). */
static inline bool detect_needs(const struct vfs_world *w,
				const struct vfs_event *ev, bool clocks)
{
	enum { NEED = 1u << OP_ACQUIRE | 1u << OP_BLOCK | 1u << OP_WAKE |
		1u << OP_EMIT,
	       CLOCKS = 1u << OP_RELEASE | 1u << OP_DOWNGRADE,
	       ACCESS = 1u << OP_READ | 1u << OP_WRITE };
	/* (with clocks, plain stepping: one test for all but the frames) */
	if ((clocks ? NEED | CLOCKS | ACCESS : NEED) >> ev->op & 1)
		return true;
	if (!clocks && (ACCESS >> ev->op & 1))
		return (ev->op == OP_WRITE && ev->field == FLD_F_POS) ||
		       (w->kdefs && w->kdefs->nrules);
	return (ev->op == OP_ENTER && ev->dir >= 0) ||
	       (ev->op == OP_NOTE && ev->fn == VFN_copy_process && clocks);
}
/* EV made by the step X runs: numbered, named (the file's id, the
 * inode's i_ino, the thread's kernel tid, the resume point), given to the
 * detectors that read it and to the step's sink.  A world without vector
 * clocks (det.no_clocks: the explorers' copies, whose events no view
 * shows; the detectors and the searches' sinks read slots and tids)
 * leaves them unnamed.  (inline: every access, lock and entry of every
 * step of a search comes through here) */
static inline __attribute__((always_inline)) void
emit(struct vx *x, struct vfs_event *ev)
{
	struct vfs_world *w = x->w;
	bool clocks = !w->det.no_clocks;
	ev->seq = ++w->seq;
	ev->step = w->step;
	ev->tid = (int8_t)x->tid;
	if (clocks) {
		if (ev->objkind == VOK_FILE && ev->obj >= 0)
			ev->file_id = w->files[ev->obj].id;
		else if (ev->objkind == VOK_INODE && ev->obj >= 0)
			ev->ino = w->inodes[ev->obj].ino;
		ev->ktid = x->t->tid;
		ev->rp = (uint8_t)x->rp;
	}
	if (w->det.enabled && detect_needs(w, ev, clocks))
		vfs_detect_event(w, ev);
	if (x->sink && x->sink->fn)
		x->sink->fn(x->sink->ctx, w, ev);
}
void detect_overflow(struct vfs_world *w, int limit);
/* FN onto the thread's function stack, and off it (with those above) */
static inline void fn_stack_push(struct vx *x, int fn)
{
	struct vfs_thread *t = x->t;
	if (t->nfn < VFS_MAX_FNSTACK)
		t->fnstack[t->nfn++] = (uint8_t)fn;
	else
		detect_overflow(x->w, VL_FNSTACK);
}
static inline void fn_stack_pop(struct vfs_thread *t, int fn)
{
	for (int i = t->nfn - 1; i >= 0; i--)
		if (t->fnstack[i] == fn) {
			t->nfn = (uint8_t)i;
			break;
		}
}
/* The entry and the exit of FN, their events made (trace.c) */
void fn_enter_made(struct vx *x, int fn);
void fn_exit_made(struct vx *x, int fn, int64_t ret);
/* ... but a search's plain frames (vfs_step_noframes: an exit, a
 * non-iterator's entry), not made, numbered all the same (inline: every
 * step of a search enters and leaves a few) */
static inline void fn_enter(struct vx *x, int fn)
{
	if (x->no_frames && !fn_is_iterator(fn)) {
		fn_stack_push(x, fn);
		x->w->seq++;
		return;
	}
	fn_enter_made(x, fn);
}
static inline void fn_exit(struct vx *x, int fn, int64_t ret)
{
	if (x->no_frames) {
		fn_stack_pop(x->t, fn);
		x->w->seq++;
		return;
	}
	fn_exit_made(x, fn, ret);
}
/* A search's step (vfs_step_noframes) in a world whose detectors read no
 * access (no clocks, no rules: detect_needs): an event its sink leaves
 * out as covered by a later one of the step (xs_obs_covered) is read by
 * nobody, so not made, only numbered, as a plain frame is: dir_iterate's
 * read of the cursor, and its iterator's entry when the directory is not
 * dead (on_enter reads no other). */
static inline bool unread_events(const struct vx *x)
{
	const struct vfs_world *w = x->w;
	return x->no_frames && w->det.no_clocks && !(w->kdefs && w->kdefs->nrules);
}
/* The entry of a filesystem's iterator: carries the file and directory. */
void fn_enter_iter(struct vx *x, int fn);
/* Out of the kernel function FN with RET, and out of the call with it. */
static inline void sys_return_from(struct vx *x, int fn, int64_t ret)
{
	fn_exit(x, fn, ret);
	sys_return(x, ret);
}
/* A read or write of FIELD of open file FILE of kind AKIND (enum
 * vfs_akind; V: its value; ATOMIC: an atomic counter's).  (inline: most
 * steps make one or two, and each caller's constants fold) */
static inline void access_file_kind(struct vx *x, int fn, int field, int file,
				    int64_t v, bool write, bool atomic, int akind)
{
	struct vfs_event ev = { .tid = (int8_t)x->tid,
		.op = write ? OP_WRITE : OP_READ, .fn = (uint8_t)fn,
		.field = (uint8_t)field, .objkind = VOK_FILE, .obj = file,
		.value = v, .atomic = atomic, .akind = (uint8_t)akind };
	if (atomic) {
		x->w->stats.atomics++;
		x->w->stats.atomics_by_sys[x->t->rec.call.sys]++;
	}
	emit(x, &ev);
}
/* A plain read or write of FIELD of open file FILE. */
static inline void access_file(struct vx *x, int fn, int field, int file,
			       int64_t v, bool write, bool atomic)
{
	access_file_kind(x, fn, field, file, v, write, atomic, VAK_PLAIN);
}
void access_inode(struct vx *x, int fn, int field, int ino, int64_t v,
		  bool write);
/* The lockless path walk (fs/namei.c, RCU mode) read the entries of DIR
 * and reached REACHED: under rcu_read_lock, validated against the
 * dentries' d_seq seqcounts and retried, so never a data race. */
void access_rcu_walk(struct vx *x, int fn, int dir, int reached);
/* A write of DIR's entries that adds, removes or moves ENTRY (under DIR's
 * i_rwsem; d_instantiate, d_delete, d_move bump ENTRY's d_seq). */
void access_dir_change(struct vx *x, int fn, int dir, int entry);
void access_fdt(struct vx *x, int fn, int fdt, bool write);
void note(struct vx *x, int fn, const char *text);

/* ---- locking.c ---- */
/* Returns true when acquired at once; false: the thread now waits and will
 * continue at its current pc once the lock is handed to it. */
bool lock_acquire(struct vx *x, int fn, vfs_lid_t lid, int mode);
void lock_release(struct vx *x, int fn, vfs_lid_t lid);
void lock_downgrade(struct vx *x, int fn, vfs_lid_t lid);
/* inode_upgrade_trylock of a lock the thread holds for reading: true
 * when it holds it for writing now. */
bool lock_upgrade_try(struct vx *x, int fn, vfs_lid_t lid);
/* readdir.c: the filesystem's iterator on the call's file from f->pos
 * (ctx->pos), its count in f->res; the wrapper's iter(file, ctx) */
void dir_iterate(struct vx *x);
/* A fatal signal: true when the thread's wait was killable and it left. */
bool lock_wait_abort(struct vx *x);
/* inode_lock(INO), exclusive (i_rwsem or i_mutex by era: open.c), the
 * thread resuming at NEXT once it holds it; and inode_unlock(INO). */
void inode_lock_then(struct vx *x, int ino, int next);
void inode_unlock_of(struct vx *x, int ino);
/* readdir.c: a fatal signal reaches the thread asleep; true when it slept
 * in iterate_dir's killable wait for the directory lock, which gave up:
 * getdents64 returns -EINTR. */
bool iterate_dir_kill_wait(struct vx *x);
/* pidfd.c: likewise for __pidfd_fget's killable wait for the exec lock. */
bool pidfd_getfd_kill_wait(struct vx *x);
struct vfs_lock *lock_ptr(struct vfs_world *w, vfs_lid_t lid);
const struct vfs_lock *lock_cptr(const struct vfs_world *w, vfs_lid_t lid);
int lock_class(const struct vfs_world *w, vfs_lid_t lid);
void lock_init(struct vfs_lock *l, int kind);
/* Whether T holds LID, and in which *MODE (inline: the explorers' check
 * of the locking discipline asks it at every access under a lock). */
static inline bool thread_holds(const struct vfs_thread *t, vfs_lid_t lid, int *mode)
{
	for (int i = 0; i < t->nheld; i++)
		if (t->held[i].lock == lid) {
			if (mode)
				*mode = t->held[i].mode;
			return true;
		}
	return false;
}

/* ---- objects (world.c, inode.c, file.c) ---- */
/* Room for NEED elements of ELEM bytes in *P (capacity *CAP, doubled). */
bool world_grow_slow(void **p, int32_t *cap, int32_t need, size_t elem);
bool world_grow_zeroed(void **p, int32_t *cap, int32_t need, size_t elem);
/* (inline: every copy of a world asks it of each table, and the table
 * is nearly always big enough already) */
static inline bool world_grow(void **p, int32_t *cap, int32_t need, size_t elem)
{
	return need <= *cap || world_grow_slow(p, cap, need, elem);
}
/* Room in D for S's processes and threads (a copy of S into D needs it
 * first); false: out of memory.  (inline: every copy of a search asks,
 * and the room is nearly always there already) */
static inline bool world_tasks_room(struct vfs_world *d, const struct vfs_world *s)
{
	return (s->nprocs <= d->procs_cap ||
		world_grow_zeroed((void **)&d->procs, &d->procs_cap, s->nprocs,
				  sizeof *d->procs)) &&
	       (s->nthreads <= d->threads_cap ||
		world_grow_zeroed((void **)&d->threads, &d->threads_cap,
				  s->nthreads, sizeof *d->threads));
}
/* The tail of vfs_world_copy: files, inodes, fd tables (false: no memory). */
bool world_copy_objects(struct vfs_world *d, const struct vfs_world *s);
/* ... of the files and fd tables only those FILES and FDTS name
 * (touch_bit), of the inode locks none unless ILOCKS: the others are S's
 * in D already (the stateful search's copy back, xs_fcopy_back) */
bool world_copy_objects_some(struct vfs_world *d, const struct vfs_world *s,
			     uint32_t files, uint32_t fdts, bool ilocks);
bool world_copy_files(struct vfs_world *d, const struct vfs_world *s);
bool world_copy_ilocks(struct vfs_world *d, const struct vfs_world *s);
/* locking.c: the d_update locks from the first one taken on (ndlocks) */
int dlocks_own(struct vfs_world *w);
/* Inode I, to change: the world's own copy of the table (inode.c). */
struct vfs_inode *inode_mut(struct vfs_world *w, int i);
void itab_get(struct vfs_itab *t);
void itab_put(struct vfs_itab *t);
/* the script's kernel (struct vfs_kdefs): shared by copies; W's own,
 * copied or made first, for a change (NULL: out of memory) */
void kdefs_get(struct vfs_kdefs *k);
void kdefs_put(struct vfs_kdefs *k);
struct vfs_kdefs *kdefs_mut(struct vfs_world *w);
bool world_copy_strings(struct vfs_world *d, const struct vfs_world *s);
/* A slot with a new i_ino, not in the tree; -ENOSPC, -ENOMEM. */
int inode_new(struct vfs_world *w, int type);
/* The new entry NAME of PARENT (d_add); -ENAMETOOLONG, -ENOSPC, -ENOMEM. */
int inode_alloc(struct vfs_world *w, int parent, const char *name, int type);
/* Link INO (not in the tree) into PARENT as NAME, at a new offset. */
void inode_link_entry(struct vfs_world *w, int ino, int parent,
		      const char *name);
void inode_unlink_entry(struct vfs_world *w, int ino);
/* Free the slots of unlinked inodes nothing uses (between calls only). */
void inode_evict_unused(struct vfs_world *w);
void data_get(struct vfs_blob *b);
void data_put(struct vfs_blob *b);
int data_reserve(struct vfs_world *w, int i, int64_t end);
char data_byte(const struct vfs_inode *ino, int64_t off);
int fdt_new(struct vfs_world *w);
/* Changes whenever an inode slot is made or freed (explore: allocations
 * are visible steps, and such a step changes the tree). */
static inline uint64_t inode_stamp(const struct vfs_world *w)
{
	return (uint64_t)(uint32_t)w->next_ino << 32 | (uint32_t)w->nfree_inodes;
}
/* The detectors forget a lock and the fields of an object whose slot is
 * freed (race.c): a new object in the slot is not ordered by the old one's. */
void vfs_detect_forget(struct vfs_world *w, int lidkind, int idx);
int inode_child(const struct vfs_world *w, int dir, const char *name);
/* Split PATH into its parent directory and last name; -errno on failure. */
int path_parent(const struct vfs_world *w, const char *path, int *parent,
		const char **last);
/* Resolve PATH; -errno (ENOENT, ENOTDIR) on failure. */
int path_walk(const struct vfs_world *w, const char *path);
bool inode_is_ancestor(const struct vfs_world *w, int anc, int ino);
int file_alloc(struct vfs_world *w, int kind);
struct vfs_fdtable *proc_fdt(struct vfs_world *w, int proc);
/* Lowest free descriptor (marked reserved), or -EMFILE. */
int alloc_fd(struct vfs_world *w, int proc, bool cloexec);
int fd_lookup(const struct vfs_world *w, int proc, int64_t fd);
/* A slot of struct vfs_fdtable: the file index + 1, 0 when free, or one of
 * the two markers, with FD_CLOEXEC_BIT (views read it with vfs_fd_slot). */
#define FD_CLOEXEC_BIT 0x8000
#define FD_RESERVED    0x7fff  /* taken by an open in progress */
#define FD_STDIO       0x7ffe  /* 0-2: taken, as stdio would be (no file modelled) */
/* Drop one reference; frees the file at zero (emits the events). */
void file_put(struct vx *x, int fn, int file);
void file_get(struct vx *x, int fn, int file);
bool dir_native_shared(const struct vfs_world *w, int ino);

/* ---- detectors (race.c, deadlock.c, lockdep.c) ---- */
/* The detectors' part of vfs_world_copy: only what is in use (false: out
 * of memory; D's tables are then empty and D can still be freed). */
bool detect_copy(struct vfs_detect *d, const struct vfs_detect *s, int nthreads);
/* Room in D's heap tables for S's entries (false: out of memory). */
bool detect_reserve(struct vfs_detect *d, const struct vfs_detect *s);
/* Free D's heap tables (vfs_world_release). */
void detect_free(struct vfs_detect *d);
/* A bound of core/limits.h was reached at the current step: record it
 * (the first time), which turns off the detector that needed the room. */
void detect_overflow(struct vfs_world *w, int limit);
/* Whether the detector deciding reports of KIND is still on (asked at
 * every lock event: no table filled, no call). */
bool detect_on_slow(const struct vfs_detect *d, int kind);
static inline bool detect_on(const struct vfs_detect *d, int kind)
{
	return !d->overflowed || detect_on_slow(d, kind);
}
void deadlock_on_block(struct vfs_world *w, int tid);
size_t deadlock_detail(const struct vfs_world *w, const struct vfs_report *r,
		       char *buf, size_t n);
void lockdep_event(struct vfs_world *w, const struct vfs_event *ev);
/* tests: every acquire through lockdep's check, none the short way of
 * an order seen before (known_order) */
extern bool lockdep_slow_only;
/* tests: acquires the short way took, this thread's (the tests check
 * the short way runs at all; a thread's own, so workers do not race) */
extern _Thread_local unsigned long lockdep_short_ways;
/* An acquire lockdep_event has work for: the thread was handed the lock
 * on a wake (a mark to clear: checked when it began to wait) or holds
 * another lock (an order to check); lockdep_event's first test, and the
 * search's short way to it (vfs_detect_event) */
static inline bool lockdep_acquire_matters(const struct vfs_world *w,
					   const struct vfs_event *ev)
{
	return (w->det.ld.woken >> ev->tid & 1) ||
	       w->threads[ev->tid].nheld > 1;
}

#define FDPUT_FPUT 1
#define FDPUT_POS_UNLOCK 2


/* the script's invariants (lockdep.c, beside its lock-order rules): a
 * read or write against `rule write|access FIELD under LOCK`; a duplicate
 * entry (WHAT: the duplicate detector's words) against `rule entries once
 * per pass` */
/* lockdep.c, for rules.c */
bool lockdep_seen(struct vfs_world *w, int rule, int from, int to);
struct vfs_report *lockdep_new_report(struct vfs_world *w, int kind, int rule);
/* rules.c: the script's rules, for lockdep.c and the detectors */
bool rules_on(const struct vfs_world *w);
void rules_check(struct vfs_world *w, const struct vfs_link *l, int wcls,
		 int wsub, const struct vfs_held *h);
void rules_access(struct vfs_world *w, const struct vfs_event *ev);
void rules_duplicate(struct vfs_world *w, const struct vfs_event *ev,
		     const char *what);

/* ---- defined.c: the script's kernel functions and system calls ---- */
/* SYS_DEFINED's entry: the first step of the definition the call names */
void sys_defined(struct vx *x);
/* readdir.c: hand out the entries of directory INO (the frame's f.inode,
 * from its f.file, the getdents having begun at f.pos) from offset POS
 * on, at most MAX ("." and ".." first): the offset after the last one;
 * *COUNT how many */
int64_t emit_entries(struct vx *x, int fn, int ino, int64_t pos, int64_t max,
		     int64_t *count);
/* readdir.c: the first of DIR's (slot D's) children at offset POS or
 * after, or -1; with READDIR_WALK_ONLY (tests) by the walk alone */
int first_child_from(const struct vfs_world *w, const struct vfs_inode *dir,
		     int d, int64_t pos);
extern bool readdir_walk_only;
/* tests: first_child_from's answers from the guessed slot, this thread's */
extern _Thread_local unsigned long readdir_guesses;
/* a fatal signal in a defined step's killable wait: true when it gave up
 * (the call unwinds and returns -EINTR) */
bool kfn_kill_wait(struct vx *x);
/* the function the script put at HOOK, if any: entered (its first step
 * run in this one), coming back to RET_RP with its return in f.kfn.kret, the
 * inode INO its steps work on when the frame has no file; false: none */
/* (HOOK + VHOOK__COUNT: the after half of HOOK's pair) */
bool kfn_hook(struct vx *x, int hook, int ret_rp, int ino);
/* A defined function's steps as the kernel's are named (core/defined.c):
 * name F's steps in K's table (vfs_kfn_define), the point thread T's next
 * step has (RP(defined_step, step) when none), and a point's name
 * ("?" when W's kernel has none of that number). */
void kfn_name_points(const struct vfs_world *w, struct vfs_kdefs *k, struct vfs_kfn *f);
int kfn_point(const struct vfs_world *w, const struct vfs_thread *t);
const char *kfn_point_name(const struct vfs_world *w, int rp);
_Static_assert(RP__COUNT + VFS_KFN_POINTS <= 256, "a defined step's point fits a byte");
/* A process-wide table of the names a script makes (defined functions,
 * declared fields): each an id, BASE + its index, the same in every world
 * of the process (events carry it as a byte); it only grows.  intern and
 * find: the id, or -1 (full; not there); name: "?" for an unknown id. */
struct name_tab { int n, max, base; char (*v)[VFS_KFN_NAME_MAX]; };
int name_tab_intern(struct name_tab *t, const char *name);
int name_tab_find(const struct name_tab *t, const char *name);
const char *name_tab_name(const struct name_tab *t, int id);
/* the names of defined functions, past the built-in ones (trace.c) */
const char *kfn_name(int fn);
int kfn_name_lookup(const char *name);
/* the names of declared fields, past the built-in ones (trace.c) */
extern struct name_tab ufield_names;
/* Read declared field FLD of FILE (or of inode INO, as it is declared),
 * traced as FN's read; 0 where the object is not there. */
int64_t ufield_read(struct vx *x, int fn, int fld, int file, int ino);
/* The world's tables of declared fields' values (w->ufv): a file's, an
 * inode's, a call's (the values last read in it). */
enum { UFV_FILE = KO_FILE, UFV_INODE = KO_INODE, UFV_CALL, UFV__COUNT };
/* Row I of table TAB made anew (a new file, inode or call: every field at
 * its initial value); nothing when no field is declared; w->oom when out
 * of memory. */
void ufield_made(struct vfs_world *w, int tab, int i);
/* Set declared field SLOT of object OBJ (as it is declared) to V. */
void ufield_set(struct vfs_world *w, int slot, int obj, int64_t v);
/* The value thread TID last read of declared field SLOT in its call. */
int64_t ufield_kval(const struct vfs_world *w, int tid, int slot);
void ufield_kval_set(struct vfs_world *w, int tid, int slot, int64_t v);
/* Row I of TAB (nufields values), NULL past the rows made. */
const int64_t *ufield_row(const struct vfs_world *w, int tab, int i);
/* world.c: copy SRC's tables into DST's (false: out of memory), free. */
bool ufield_copy_rows(struct vfs_world *d, const struct vfs_world *s);
void ufield_free(struct vfs_world *w);
/* how many fields W declared (vfs_nufields, inline: the explorers ask per
 * state and per copy) */
static inline int ufields_n(const struct vfs_world *w)
{
	return w->kdefs ? w->kdefs->nufields : 0;
}
/* (hot: the explorers copy a world per step; nothing to do when neither
 * world has a declared field's row) */
static inline bool ufield_copy(struct vfs_world *d, const struct vfs_world *s)
{
	if (!ufields_n(s) && !(d->ufv[0].rows | d->ufv[1].rows | d->ufv[2].rows))
		return true;
	return ufield_copy_rows(d, s);
}
void kfn_call_print(FILE *f, const struct vfs_world *w, const struct vfs_call *c);
void kfn_call_strace(const struct vfs_world *w, const struct vfs_call *c,
		     char *buf, size_t n);

#endif
