/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_trace.h - the trace: the events a step emits (core/trace.c), the
 * sink they go to, the names every view prints them with, and the
 * locations each event touches (core/footprint.c).
 */
#ifndef VFSIM_VFS_TRACE_H
#define VFSIM_VFS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfs_lock.h"

struct vfs_world;

/* ---- fields (what a read or write touches) ------------------------------- */
enum vfs_field { FLD_NONE, FLD_F_POS, FLD_CURSOR, FLD_DIR, FLD_SIZE,
		 FLD_DATA, FLD_F_COUNT, FLD_FDTABLE, FLD__COUNT };
const char *vfs_field_name(int field);
int vfs_field_lookup(const char *name);

/* The kind of a read or write (vfs_event.akind), recorded where the kernel
 * path makes the access, for the dependence of two accesses of one
 * location (core/explore_int.h, xkey_commute): a plain read or write, a
 * counter's +1 or -1 (the -1 reads the result: fput frees at 0), or a
 * threshold test, a read whose answer is the same for every value at or
 * above the field's threshold (VFS_COUNT_TEST_MIN for f_count: the
 * kernel's "file_count(file) > 1"). */
enum vfs_akind { VAK_PLAIN, VAK_INC, VAK_DEC, VAK_TEST };
#define VFS_COUNT_TEST_MIN 2

/* ---- trace events (core/trace.c) ------------------------------------------- */
enum vfs_objkind { VOK_NONE, VOK_FILE, VOK_INODE, VOK_FDTABLE, VOK_GLOBAL,
		   VOK_PROC };
enum vfs_op { OP_ENTER, OP_EXIT, OP_ACQUIRE, OP_RELEASE, OP_BLOCK, OP_WAKE,
	      OP_SKIP, OP_READ, OP_WRITE, OP_DOWNGRADE, OP_EMIT, OP_NOTE,
	      /* a trylock that failed (inode_upgrade_trylock): it read the
	       * lock and took nothing */
	      OP_FAIL, OP__COUNT };

struct vfs_event {
	uint64_t seq;
	int32_t step;           /* the world step this happened in */
	vfs_lid_t lock;         /* lock id */
	int32_t obj;            /* file or inode index (see objkind) */
	int32_t file_id;        /* file#N of a file object or file lock */
	int32_t ktid;           /* that thread's kernel tid (a slot is reused
				 * once its thread exited and 32 were made) */
	int32_t ino;            /* i_ino of an inode object or inode lock (obj
				 * is its slot, which a later inode may reuse) */
	/* OP_EMIT: the open file (index) and directory (inode) the entry is
	 * handed out of; OP_ENTER of an iterator: the file and the directory
	 * it iterates, or -1 (other entries: 0, read by nobody).  A read or
	 * write of FLD_DIR: dir is the dentry (inode) added, removed or
	 * moved, whose d_seq the write bumps, or -1; the RCU walk's read: the
	 * inode it reached. */
	int32_t file, dir;
	/* Fields by op share storage (the event is one cache line: every
	 * step makes a few, and the detectors and sinks copy them).  Read a
	 * member only for the ops it is written for. */
	union {
		int64_t ret;    /* exit: return value (or -errno); emit: where
				 * that getdents began (ctx->pos) */
		struct {
			/* block: the holder's tid, -1 if several/none;
			 * copy_process's note: the child's tid */
			int8_t other;
			/* acquire/block of an inode lock: the lockdep
			 * nesting subclass (LDSUB_*) it is taken with */
			uint8_t subclass;
			/* read/write: enum vfs_akind */
			uint8_t akind;
		};
	};
	union {
		int64_t value;          /* read/write: the value; emit: d_off */
		const char *note;       /* OP_NOTE: text (static storage) */
	};
	int8_t tid;             /* the thread it happened to (its slot) */
	uint8_t op;             /* enum vfs_op */
	uint8_t fn;             /* kernel function */
	/* the resume point of the step it happened in (iterate_dir:iterate,
	 * the names `where` uses): vfs_event_point */
	uint8_t rp;
	uint8_t field;          /* read/write: enum vfs_field */
	uint8_t objkind;        /* enum vfs_objkind */
	uint8_t sys;            /* enter/exit of a syscall frame: enum vfs_sys */
	uint8_t mode : 2;       /* lock events: enum vfs_mode */
	uint8_t cls : 4;        /* lock events: the lock class (LC_*) */
	uint8_t atomic : 1;     /* read/write of an atomic counter */
	/* read: lockless, validated by a seqcount and retried (the RCU path
	 * walk): never a race, ordered after the writes it saw */
	uint8_t rcu : 1;
};
/* One cache line: the core replay's cost is mostly making events. */
_Static_assert(sizeof(struct vfs_event) == 64, "struct vfs_event is 64 bytes");
_Static_assert(LC__COUNT <= 16, "a lock class fits vfs_event.cls");


typedef void vfs_sink_fn(void *ctx, const struct vfs_world *w,
			 const struct vfs_event *ev);
struct vfs_sink { vfs_sink_fn *fn; void *ctx; };

/* Formatting: names and lines shared by every view. */
const char *vfs_op_name(int op);
const char *vfs_class_name(int cls);   /* "f_pos_lock", "i_rwsem", ... */
const char *vfs_mode_name(int mode);   /* "read", "write", "excl" */
int vfs_class_lookup(const char *name);
/* "A", "A.2" */
void vfs_thread_name(const struct vfs_world *w, int tid, char *buf, size_t n);
/* The thread an event happened to, named as it was (its slot may hold
 * another thread now). */
void vfs_event_thread_name(const struct vfs_world *w,
			   const struct vfs_event *ev, char *buf, size_t n);
/* "file#3", or a path for inodes, "rename_mutex" */
void vfs_obj_name(const struct vfs_world *w, int objkind, int obj, char *buf,
		  size_t n);
void vfs_lock_name(const struct vfs_world *w, vfs_lid_t lock, char *buf,
		   size_t n);
void vfs_inode_path(const struct vfs_world *w, int ino, char *buf, size_t n);
/* The class of a lock id (LC_*). */
int vfs_lock_class(const struct vfs_world *w, vfs_lid_t lock);
/* An event's object, lock and entry as they were when it happened (a
 * freed inode: "inode#N"): the names every view prints. */
void vfs_event_obj_name(const struct vfs_world *w, const struct vfs_event *ev,
			char *buf, size_t n);
void vfs_event_lock_name(const struct vfs_world *w, const struct vfs_event *ev,
			 char *buf, size_t n);
void vfs_event_entry_name(const struct vfs_world *w, const struct vfs_event *ev,
			  char *buf, size_t n);
/* One line, no newline. */
void vfs_event_text(const struct vfs_world *w, const struct vfs_event *ev,
		    char *buf, size_t n);
/* The step an event happened in, "function:step" ("iterate_dir:iterate",
 * "do_syscall_64:enter" for a call's first step; a step of a function the
 * script defined by W's definitions, "shared_llseek:lock_i_rwsem"): the
 * name `where` gives the resume point (vfs_resume_point_name), from the
 * same tables; and the line with it in a column after the thread's
 * (`trace steps`). */
const char *vfs_event_point(const struct vfs_world *w, const struct vfs_event *ev);
void vfs_event_text_point(const struct vfs_world *, const struct vfs_event *,
			  char *line, size_t n);
void vfs_event_jsonl(const struct vfs_world *w, const struct vfs_event *ev,
		     char *buf, size_t n);

/* ---- footprint (core/footprint.c) ------------------------------------------ */
/* The locations an event touches, and how each consumer treats them. */
enum vfs_loc_kind { LOC_LOCK, LOC_FIELD, LOC_PASS, LOC_ALLOC, LOC__COUNT };
/* why the event touches it: the row of vfs_loc_use */
enum vfs_loc_why {
	LW_LOCK_OP,     /* acquire, release, downgrade */
	LW_LOCK_WAIT,   /* block, wake */
	LW_LOCK_SHARED, /* acquire, release for reading of a lock that
			 * nothing takes for writing (exec_update_lock) */
	LW_ACCESS,      /* a read or write of a field */
	LW_RCU_WALK,    /* the lockless path walk's read of a directory */
	LW_SEEK_PASS,   /* a write of f_pos starts a new directory pass */
	LW_EMIT_PASS,   /* an entry handed out: the pass's record */
	LW_EMIT_DIR,    /* ... and the skipped check's read of the directory */
	LW_DEADCHECK,   /* an iterator entered: the dead-directory check */
	LW_SPAWN,       /* copy_process: a new thread */
	LW__COUNT
};
enum vfs_consumer { VC_RACE, VC_DPOR, VC_MOVERS, VC_STATEFUL, VC__COUNT };
enum vfs_loc_use {
	LU_IGNORE,      /* not a location for it */
	LU_AS_IS,       /* read or written as the location says */
	LU_WRITE,       /* every touch conflicts */
	LU_VISIBLE,     /* the step is always visible (touches everything) */
	LU_CHECKED,     /* only accesses vfs_access_checked() keeps */
	LU_OWN,         /* its own semantics (race.c: clocks, passes, lockdep) */
};
struct vfs_loc {
	uint8_t kind;           /* enum vfs_loc_kind */
	uint8_t why;            /* enum vfs_loc_why */
	uint8_t write;
	uint8_t field;          /* LOC_FIELD: enum vfs_field */
	uint8_t objkind;        /* enum vfs_objkind */
	uint8_t akind;          /* LOC_FIELD: enum vfs_akind */
	vfs_lid_t lock;         /* LOC_LOCK: the lock id */
	int32_t obj;            /* the object (LOC_PASS: the open file) */
};
#define VFS_FOOTPRINT_MAX 2
/* vfs_footprint(EV, LOC) (core/footprint.h, inline): the locations EV
 * touches into LOC, how many, or -1 when they are not known (the step
 * must count as touching everything). */
extern const uint8_t vfs_loc_use[LW__COUNT][VC__COUNT];
extern const char *const vfs_consumer_names[VC__COUNT];
/* Whether the race detector checks this read or write (not atomics, the fd
 * table, nor reads of file data): the explorer's race check asks the same
 * (LU_CHECKED). */
bool vfs_access_checked(const struct vfs_event *ev);
/* Whether FN is a filesystem's directory iterator (ext4_readdir, ...). */
bool vfs_fn_is_iterator(int fn);

#endif
