/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * world_layout.h - how the world and its objects are laid out: processes,
 * threads, fd tables, open files, inodes and dentries, each thread's place
 * inside its kernel path.  Private to core/: the kernel paths, the
 * detectors and the explorers read and write these fields; the shell
 * (cli/) reads the world only through the accessors of the public headers
 * by subject (vfs_file.h, vfs_inode.h, vfs_thread.h, vfs_lock.h,
 * vfs_world.h), and tests/cli/headers.sh fails when it includes this one.
 */
#ifndef VFSIM_WORLD_LAYOUT_H
#define VFSIM_WORLD_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fns.h"
#include "vfs_limits.h"
#include "vfs_lock.h"
#include "vfs_kernel.h"
#include "vfs_detect.h"
#include "syscalls.h"
#include "vfs_file.h"
#include "vfs_inode.h"
#include "vfs_thread.h"
#include "vfs_world.h"

/* ---- objects ---------------------------------------------------------------- */

struct vfs_inode {
	uint8_t type;           /* enum vfs_itype */
	uint8_t dead;           /* S_DEAD: rmdir'ed */
	uint8_t unlinked;
	uint8_t is_mountpoint;  /* root of a mounted filesystem */
	uint8_t sb;             /* superblock index */
	uint8_t freed;          /* a free slot (on the world's free list) */
	int32_t ino;            /* i_ino: stable, never reused (slots are) */
	int32_t parent;         /* -1 for "/" */
	int32_t first_child, last_child, next_sibling, prev_sibling;
	int32_t hash_next;      /* next in its dentry hash chain */
	int32_t d_off;          /* this entry's offset in its parent */
	int32_t next_off;       /* next offset to give a child (from 2) */
	int32_t nchildren;
	int64_t size;
	struct vfs_blob *data;  /* the bytes written, shared copy-on-write */
	char name[VFS_NAME_MAX];
	/* (i_rwsem: the world's ilocks[], beside the table, which world
	 * copies share until one of them changes an inode) */
};

/* The inodes and the dentry hash, shared by world copies (refs, atomic)
 * and copied by the first world that changes them (inode_mut). */
struct vfs_itab {
	long refs;
	int32_t n, cap;                 /* slots in use or free; room */
	int32_t *d_hash;                /* (parent, name) -> slot, chained
					 * through hash_next; d_hash_mask + 1 */
	uint32_t d_hash_mask;
	struct vfs_inode v[];
};

/* File data: shared by world copies, copied on the first write to a shared
 * one (refs is atomic: explore's workers copy worlds concurrently). */
struct vfs_blob {
	long refs;              /* (accessed with __atomic builtins) */
	size_t cap;
	char bytes[];
};

struct vfs_sb {
	uint8_t fstype;         /* index into the world's types: vfs_fstypes,
				 * then those the script defined (fsdefs) */
	uint8_t dirstat;        /* ceph mount option */
	int32_t root;
};


struct vfs_file {
	uint8_t kind;           /* FK_* ; FK_NONE = free slot */
	uint16_t f_mode;
	int32_t id;             /* file#N, N from 1 in creation order */
	int32_t f_count;
	int32_t inode;          /* FK_INODE */
	int32_t pid;            /* FK_PIDFD: the process it refers to */
	int64_t f_pos;
	int64_t cursor;         /* the filesystem's private readdir state */
	struct vfs_lock f_pos_lock;
	struct vfs_lock f_lock;
};

struct vfs_fdtable {
	int16_t count;          /* tasks sharing it (files->count) */
	int16_t nfds;           /* one past the highest slot ever used */
	uint16_t fd[VFS_NR_OPEN]; /* core's encoding (internal.h): vfs_fd_slot */
};

struct vfs_proc {
	uint8_t alive;          /* has live threads */
	uint8_t exists;
	int32_t pid;
	int32_t uid;
	int16_t fdt;            /* fd table index, -1 after exit */
	int16_t nthreads_made;  /* for NAME.N numbering */
	char name[VFS_COMM_MAX];
	/* signal_struct's lock against exec (cred_guard_mutex, then
	 * exec_update_mutex, then exec_update_lock: w->k.exec_lock) */
	struct vfs_lock exec_lock;
};


/* What a thread's most recent call did: for `expect took/skipped`, results. */
struct vfs_callrec {
	struct vfs_call call;
	uint8_t started, done;
	int64_t ret;            /* >= 0, or -errno */
	uint64_t took;          /* bit (class * 4 + mode) for each acquisition */
	uint8_t skipped_fpos;   /* went through fdget_pos without the lock */
	int32_t nent;           /* getdents: entries handed out (the entries
				 * themselves: vfs_rec_entries) */
	char text[VFS_TEXT_MAX + 1];  /* read: the first bytes, for display */
	int32_t start_step, end_step;
};

/* ---- threads ---------------------------------------------------------------- */

struct vfs_held {
	vfs_lid_t lock; uint8_t mode; uint8_t cls;
	uint8_t fn;             /* the kernel function it was taken in */
	uint8_t frame;          /* its index in fnstack then */
	uint8_t sub;            /* lockdep nesting subclass it was taken with */
};

/* Locals of the kernel path in progress: plain data, so steps can resume. */
/*
 * A call's locals.  The common part is every call's: where it is (pc),
 * the sub-paths it returns from, fdget's struct fd (file, fdput_flags,
 * and whether fdget_pos took it), the descriptor, the inode it works on,
 * a position (iterate_dir's ctx->pos, ksys_read's local pos) and the
 * result so far.  The union holds each kernel path's own locals, named
 * as the kernel names them; only the member of the call in progress is
 * used.  do_syscall_64 clears the frame whole when a call starts (the
 * explorers hash and compare it as bytes: the unused ones stay zero).
 */
struct vfs_frame {
	uint16_t pc;            /* the next resume point (core/internal.h) */
	uint16_t ret_pc[4];     /* return points of nested sub-paths */
	uint8_t depth;
	uint8_t fdput_flags;    /* FDPUT_FPUT | FDPUT_POS_UNLOCK */
	uint8_t pos_get;        /* went through fdget_pos (else fdget) */
	int32_t file;           /* struct file in use */
	int32_t fd;             /* reserved/looked-up descriptor */
	int32_t inode;          /* the inode the call works on */
	int64_t pos;            /* ctx->pos, or the local pos of ksys_read */
	int64_t res;            /* result so far */
	union {
		/* getdents64: iterate_dir's i_rwsem mode (shared: M_READ),
		 * and whether the legacy ->iterate runs through
		 * wrap_directory_iterator */
		struct { uint8_t mode, wrapped; } iterate_dir;
		/* lseek: vfs_llseek's ->llseek (enum vfs_llseek), and the
		 * inode lock's mode a directory's llseek took */
		struct { uint8_t flavour, mode; } llseek;
		/* dup2: do_dup2's tofree, the file the new fd replaced */
		struct { int32_t tofree; } dup2;
		/* openat, creat: open_last_lookups' dir (the parent locked to
		 * create) and the inode opened (handle_truncate's) */
		struct { int32_t dir, inode; } open;
		/* mkdir, rmdir, unlink, rename (fs/namei.c): the parents in
		 * the order they are locked (lock_rename's), rename's
		 * old_path.dentry and new_path.dentry as looked up, the name
		 * looked up (do_rmdir's dentry, do_renameat2's old_dentry)
		 * and rename's new_dentry, the second victim lock
		 * (lock_two_inodes' inode2; the first is f->inode), and
		 * what is locked */
		struct vfs_namei_locals {
			int32_t parent, parent2, old_dir, new_dir;
			int32_t dentry, new_dentry, inode2;
			uint8_t locked_parent, locked_parent2, locked_rename,
				locked_victim, locked_victim2;
			/* where the path goes on after a 'hook lookup before F
			 * after G''s G (the lookup's answer in res) */
			uint16_t after_next;
		} namei;
		/* pidfd_getfd: the target task (its process) */
		struct { int32_t task; } pidfd_getfd;
	};
	/* a defined function or system call (core/defined.c), outside the
	 * union: a defined function put into a built-in path ('hook') runs
	 * while that path's locals live.  The functions nested (index in
	 * kdefs->kfns, next step), the subclass of a lock, an fdget of the
	 * call not yet put, 1 while a hook runs (returning to the path's
	 * ret_pc) and how many locks the path held when it began (those
	 * below are the path's own: a kill unwinds only the hook's), the
	 * inode it works on when the path has no file (the
	 * parent directory of a lookup), the last call's return, and the
	 * value last read of each built-in field (FLD_*; the declared
	 * ones' are the world's ufv[UFV_CALL] row of the thread) */
	struct {
		uint8_t kdepth;
		int8_t ksub;
		uint8_t kgot;
		uint8_t khook;
		uint8_t kheld;
		struct { uint8_t fn, pc; } kstack[4];
		int32_t kino;
		int64_t kret;
		int64_t kval[8];
	} kfn;
};

struct vfs_thread {
	uint8_t state;          /* enum vfs_tstate */
	int8_t wait_next;       /* next waiter in a lock's queue */
	uint8_t wait_mode;
	uint8_t wait_rp;        /* the resume point of the step it blocked in */
	vfs_lid_t wait_lock;    /* the lock it waits for */
	int16_t proc;
	int16_t tnum;           /* NAME.tnum */
	int32_t tid;
	uint8_t npending, pend_head;
	struct vfs_call pending[VFS_MAX_PENDING];
	struct vfs_frame f;
	uint8_t nheld;
	struct vfs_held held[VFS_MAX_HELD];
	uint8_t nfn;
	uint8_t fnstack[VFS_MAX_FNSTACK];
	struct vfs_callrec rec; /* current or most recent call */
	int32_t steps;          /* steps this thread has run */
	int32_t block_step;     /* world step when it began to wait */
};

struct vfs_world {
	struct vfs_knobs k;
	uint8_t preset;         /* index into vfs_presets */
	uint8_t knobs_overridden;
	uint8_t sched;          /* enum vfs_sched */
	uint8_t oom;            /* a copy or set-up ran out of memory */
	uint64_t rng;           /* xorshift state for VSCHED_RANDOM */
	int8_t rr_last;         /* last thread picked by rr */
	int32_t step;           /* steps run so far */
	uint64_t seq;           /* trace events emitted so far */
	int32_t next_pid;
	int32_t next_file_id;
	int32_t call_seq;       /* calls started, for fifo */
	int32_t last_done_tid;  /* thread of the most recently completed call */
	int32_t last_gd_tid;    /* ... and of the most recent getdents */
	int32_t next_ino;       /* i_ino of the next inode made */
	int16_t nprocs, nthreads, nsb;
	int32_t nfree_inodes;           /* slots on the free list */
	int32_t free_inode;             /* its head (linked by next_sibling) */
	int32_t ndying;                 /* unlinked inodes not yet freed */
	/* the threads whose struct a step wrote on another's behalf (a lock
	 * handed to a waiter, a wait queue relinked, a thread made or
	 * killed: thread_touch); the stateful search clears it before a
	 * block and hashes again only these and the thread that ran */
	uint32_t touched;
	/* ... and whether it wrote a process, an inode's lock or a pass of
	 * the detectors (TOUCH_*, objs_touch) */
	uint8_t touched_objs;
	/* bumped by every allocation and free of a thread, process, file,
	 * file table or inode (the search's visible steps: they number the
	 * objects) */
	uint16_t allocs;
	/* ... and which files and fd tables (a bit per slot, the last for
	 * every slot from 31 on: file_touch, fdt_touch) */
	uint32_t touched_files, touched_fdts;
	struct vfs_lock rename_mutex;   /* s_vfs_rename_mutex (one sb model) */
	struct vfs_stats stats;
	struct vfs_detect det;
	int32_t call_started[VFS_MAX_THREADS]; /* call_seq at start, for fifo */
	struct vfs_sb sbs[VFS_MAX_SB];
	/*
	 * Heap tables owned by this world (vfs_world_free), grown as needed.
	 * Only [0, n) of each is copied, hashed or compared.
	 */
	/* the processes [0, nprocs) and threads [0, nthreads): sized to
	 * what was made, not to VFS_MAX_PROCS and VFS_MAX_THREADS (256 and
	 * 32: 40 KB of a world's 53, where a search's copies have a few);
	 * a thread made may move the array (thread_slot: take its thread
	 * again, as x->t after copy_process) */
	struct vfs_proc *procs;
	struct vfs_thread *threads;
	int32_t procs_cap, threads_cap;
	int32_t nfiles, ninodes, nfdt;  /* slots in use or free, high-water */
	int32_t files_cap, fdt_cap, ilocks_cap;
	struct vfs_file *files;
	struct vfs_fdtable *fdt;
	/* the inodes: read them here; change them through inode_mut()
	 * (core/inode.c), which unshares the table first */
	const struct vfs_inode *inodes; /* itab->v */
	struct vfs_itab *itab;
	struct vfs_lock *ilocks;        /* each inode's i_rwsem, by slot */
	/* each inode's dentry's d_update, by slot: none (ndlocks 0) until
	 * a script's step takes one (dlocks_own), so that a world without
	 * them copies and hashes nothing more */
	struct vfs_lock *dlocks;
	int32_t ndlocks, dlocks_cap;
	/* the entries each thread's most recent getdents handed out: inode
	 * index, or -1 ".", -2 ".." (rec.nent of them) */
	struct vfs_entvec { int32_t *v; int32_t cap; } rec_ent[VFS_MAX_THREADS];
	/* threads that exited and whose slot a new one took (the trace still
	 * names them): kernel tid, process, thread number */
	struct vfs_tident { int32_t ktid; int16_t proc, tnum; } *retired;
	int32_t nretired, retired_cap;
	/* the kernel as the script made it (vfs_kdefs), or NULL */
	struct vfs_kdefs *kdefs;
	/* the values of the fields the script declared (core/fields.c), out
	 * of the objects so that a world without any copies and hashes
	 * nothing more: row I of ufv[UFV_FILE] is file slot I's, of
	 * ufv[UFV_INODE] inode slot I's (each the difference from the
	 * field's initial value: zero when made), of ufv[UFV_CALL] thread
	 * I's values last read in its call; a row has kdefs->nufields
	 * values, in declaration order */
	struct vfs_ufvals { int64_t *v; int32_t rows, cap; } ufv[3];
	/* the strings of submitted calls, interned: a handle is an offset
	 * (0 is ""); append-only, so every copy of a world reads the same */
	struct vfs_strtab {
		char *buf;
		uint32_t len, cap;
		uint32_t *slot;         /* open addressing: handle or 0 */
		uint32_t mask, count;
	} strs;
};

/* W's override of decision DEC, or NULL: the kernel decides. */
static inline const struct vfs_expr *vfs_override(const struct vfs_world *w, int dec);
static inline const struct vfs_expr *vfs_override(const struct vfs_world *w, int dec)
{
	return w->kdefs && w->kdefs->overrides[dec].n ? &w->kdefs->overrides[dec] : NULL;
}


#endif
