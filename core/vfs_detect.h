/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_detect.h - the detectors: their state inside the world (races,
 * duplicate and skipped entries, dead directories, deadlocks, lock
 * order), the reports they make and how those are printed
 * (core/race.c, core/deadlock.c, core/lockdep.c).
 */
#ifndef VFSIM_VFS_DETECT_H
#define VFSIM_VFS_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vfs_limits.h"
#include "vfs_lock.h"
#include "vfs_trace.h"

struct vfs_world;

/* ---- detectors' state (core/race.c, core/dirent_check.c) ----------------------- */
typedef uint32_t vfs_vclock[VFS_MAX_THREADS];

struct vfs_access {             /* one side of a potential race */
	int32_t step;           /* global step number, 0 = none */
	int8_t tid;
	uint8_t fn;
	uint8_t write;
	uint8_t nlocks;
	vfs_lid_t locks[4];
	uint32_t clock;         /* the thread's own clock at the access */
};

struct vfs_shadow {
	uint8_t field;
	uint8_t used;
	int32_t obj;            /* file or inode index */
	struct vfs_access w;    /* last write */
	struct vfs_access r[VFS_MAX_THREADS]; /* last read per thread */
};


struct vfs_lockclock { vfs_lid_t lock; uint8_t used; vfs_vclock w, r; };

/*
 * The detector kinds, one enum: what a detector reports (a report's kind),
 * what the explorers count in an execution (bit DK_BIT(kind) of a kind
 * mask), what the pictures mark, and the word `reports`, `expect` and
 * `explore` take for it.  Each kind's row of vfs_kinds (core/kinds.c)
 * holds its words; `vfsim --tables` prints them for the drift test.  The
 * order is the explorers' summaries'.
 */
enum vfs_kind {
	DK_DUPLICATE,   /* an entry handed out twice in one pass */
	DK_RACE,        /* two accesses, one a write, not ordered by a lock */
	DK_DEADDIR,     /* an rmdir'ed directory iterated */
	DK_DEADLOCK,    /* a wait-for cycle; to the explorers, an end with
			 * every live thread blocked and work left */
	DK_SKIPPED,     /* an entry a pass never handed out */
	DK_LOCKORDER,   /* lockdep: an order that can deadlock */
	DK_RULE,        /* a lock-order rule the script declared, broken */
	DK__REPORTS,    /* the kinds above are reported (struct vfs_report) */
	/* the explorers only: a detector's table filled in the execution,
	 * so its verdicts are refused (not a violation) */
	DK_OVERFLOW = DK__REPORTS,
	DK__COUNT
};
#define DK_BIT(k) (1u << (k))
struct vfs_kind_desc {
	const char *name;       /* the word: `reports deaddir`, `expect no
				 * deaddir`, explore's `violations deaddir` */
	const char *title;      /* a report's heading in `reports` */
	const char *what;       /* expect's message: "dead directory" */
	const char *mark;       /* the pictures' mark (a rule's: lockorder) */
	bool violation;         /* the explorers stop at it unless told */
};
extern const struct vfs_kind_desc vfs_kinds[DK__COUNT];
const char *vfs_kind_name(int kind);    /* "duplicate", ...; "?" */
int vfs_kind_lookup(const char *name);  /* -1: no such kind */
/* DK_BIT of the kinds that are violations unless told otherwise */
uint32_t vfs_kind_violations(void);
/* One link of a deadlock's wait-for cycle (thread tid holds `held`, which
 * the previous thread wants, and waits for `want`), or one edge of a lock
 * order chain (thread tid took `want` while holding `held`). */
struct vfs_link {
	int8_t tid;
	uint8_t fn;             /* the lock function */
	uint8_t held_mode, want_mode;
	uint8_t held_key, want_key; /* lockdep keys (vfs_ld_key_name) */
	uint8_t queued;         /* deadlock: waits behind a queued waiter, not a holder */
	vfs_lid_t held, want;   /* lock ids; held 0: none */
	int32_t step;
};

/* DK_LOCKORDER: which check fired (vfs_report.rule) */
enum vfs_ld_rule { LDR_CYCLE, LDR_RECURSIVE, LDR_SAME_LOCK, LDR_RANK_RENAME,
		   LDR_RANK_NONDIR_DIR, LDR_FPOS_UNDER_INODE, LDR_TWO_DIRS,
		   LDR_TWO_NONDIRS, LDR_UNDER_SPIN, LDR__COUNT };

struct vfs_report {
	uint8_t kind;
	uint8_t field;
	int32_t obj;
	struct vfs_access a, b; /* race: both sides; duplicate: both receivers */
	int32_t entry;          /* duplicate: the entry's inode (-1 . -2 ..);
				 * deadlock: the cycle's length (nlinks: kept) */
	char text[160];         /* one line in the kernel's vocabulary */
	/* deadlock: the cycle; lock order: link[0] the new acquisition,
	 * link[1..] the chain that already ordered the other way */
	uint8_t rule;           /* lock order: enum vfs_ld_rule; DK_RULE: the
				 * index of the script's rule broken */
	uint8_t nlinks;
	struct vfs_link link[VFS_MAX_LINKS];
};

struct vfs_pass {               /* one pass of an open directory */
	int8_t used;
	int32_t file;
	int32_t epoch;          /* bumps when a seek starts a new pass */
	int16_t hi;             /* by[] and at[] hold data below hi only (a
				 * copy takes no more: race.c pass_extend) */
	/* receiver (tid+1) and step of each offset handed out; 0 = not yet;
	 * -1: before the pass began, or reported skipped.  An offset past
	 * the table turns the duplicate detector off (VL_PASS_OFFSETS). */
	int8_t by[VFS_MAX_PASS_OFFSETS];
	int32_t at[VFS_MAX_PASS_OFFSETS];
};

/* The lock-order graph (core/lockdep.c): nodes are lockdep keys, a lock
 * class with its nesting subclass (key = class * 4 + subclass); each edge
 * keeps the first acquisition that made it. */
/* include/linux/fs.h's enum inode_i_mutex_lock_class, by the kernel's
 * numbers (lockdep prints them: i_rwsem_dir_key/5 is I_MUTEX_PARENT2) */
enum { LDSUB_NORMAL, LDSUB_PARENT, LDSUB_CHILD, LDSUB_XATTR, LDSUB_NONDIR2,
       LDSUB_PARENT2, LDSUB__COUNT };
extern const char *const vfs_ldsub_names[LDSUB__COUNT]; /* "normal", "parent"... */
#define VFS_LD_SUBS 8                   /* a key's room for subclasses */
#define VFS_LD_KEY(cls, sub) ((cls) * VFS_LD_SUBS + (sub))
#define VFS_LD_KEY_CLS(key) ((key) / VFS_LD_SUBS)
#define VFS_LD_KEY_SUB(key) ((key) % VFS_LD_SUBS)
#define VFS_LD_KEYS (LC__COUNT * VFS_LD_SUBS)
struct vfs_ldedge { uint8_t from, to; uint32_t count; struct vfs_link first; };
struct vfs_lockdep {
	uint8_t nedges, nseen, ndead;
	uint8_t overflow;       /* edges not recorded: the graph was full */
	uint32_t woken;         /* threads whose next acquire is a handoff */
	uint32_t seen[VFS_MAX_LDSEEN]; /* lock-order reports made (deduplication) */
	uint32_t dead[VFS_MAX_LDDEAD]; /* deadlocks reported: thread sets */
	struct vfs_ldedge edges[VFS_MAX_LDEDGES];
};

struct vfs_detect {
	uint8_t enabled;
	/* no vector clocks (no race reports): the stateful explorer, which
	 * finds races by comparing enabled steps, sets it in its copies */
	uint8_t no_clocks;
	vfs_vclock vc[VFS_MAX_THREADS];
	uint16_t nshadows, nlockclocks;
	uint8_t npasses;
	/* Heap tables, grown as they fill up to their VFS_MAX_* bound (so a
	 * world is tens of KiB, not hundreds, and a copy touches only what
	 * is used); a copy grows the destination's own, vfs_world_release
	 * frees them.  Never memcpy a vfs_detect whole. */
	int32_t shadows_cap, lockclocks_cap, passes_cap;
	struct vfs_shadow *shadows;
	struct vfs_lockclock *lockclocks;
	struct vfs_pass *passes;
	uint8_t nreports;
	uint32_t counts[DK__REPORTS]; /* reports seen, also past the list's end */
	uint32_t race_fields[FLD__COUNT]; /* races seen per field, likewise */
	/* The stateful search with the clocks on (core/explore_stateful.c):
	 * the accesses made up to step OPEN_STEP are the snapshot's (0: none
	 * told apart), OPEN_RACES the races with one of them, the only races
	 * of the clocks it counts (the others depend on the path) */
	int32_t open_step;
	uint32_t open_races;
	/* the bounds of core/limits.h reached: bit VL_x, the step it was
	 * first reached in, and which the shell has told (vfs_overflow_text) */
	uint32_t overflowed, told;
	int32_t overflow_step[VL__COUNT];
	struct vfs_report reports[VFS_MAX_REPORTS];
	struct vfs_lockdep ld;
};

/* ---- detectors (core/race.c, core/dirent_check.c) ----------------------------- */
/* The detectors consume the trace; vfs_step feeds them when enabled. */
void vfs_detect_event(struct vfs_world *w, const struct vfs_event *ev);
int vfs_report_count(const struct vfs_world *w, int kind, int field);
/* A detector table that filled (core/limits.h): the name of the limit
 * ("lock clocks"), its value, and the detector it turned off. */
const char *vfs_limit_name(int limit);
int vfs_limit_value(int limit);
/* The first limit reached that makes a verdict on report KIND unknowable
 * (the detector deciding it was turned off), or VL_NONE. */
int vfs_verdict_refused(const struct vfs_world *w, int kind);
/* "vfsim: too many lock clocks (limit 769): the race detector is off from
 * step 12", for LIMIT reached in W. */
void vfs_overflow_text(const struct vfs_world *w, int limit, char *buf, size_t n);
/* "too many directory passes (limit 16), too many lock clocks (limit
 * 1024)" for the limits in MASK (1u << VL_*), e.g. those that filled in
 * an explore (vfs_explore_result.overflowed); "" for none. */
void vfs_limits_text(uint32_t mask, char *buf, size_t n);
void vfs_report_text(const struct vfs_world *w, const struct vfs_report *r,
		     char *buf, size_t n);
/* Several lines, no final newline: deadlocks as lockdep's "Possible unsafe
 * locking scenario" table with the threads as columns, lock-order reports
 * with both chains; other kinds as vfs_report_text. */
void vfs_report_detail(const struct vfs_world *w, const struct vfs_report *r,
		       char *buf, size_t n);

/* ---- deadlocks (core/deadlock.c) ------------------------------------------- */
/* The wait-for cycle through tid (or through any blocked thread when tid is
 * -1) into *r (kind DK_DEADLOCK, not recorded); false when there is none.
 * Edges: a waiter waits for every holder of its lock (rwsem readers too)
 * and for the waiters queued ahead of it (FIFO). */
bool vfs_deadlock_find(const struct vfs_world *w, int tid, struct vfs_report *r);
/* "A blocks in down_write on /d i_rwsem (write), held by B (read); queued
 * behind C (write)" */
void vfs_blocked_why(const struct vfs_world *w, int tid, char *buf, size_t n);

/* ---- lock order (core/lockdep.c) ------------------------------------------- */
/* "&type->i_rwsem_dir_key/1" style names of lockdep keys */
const char *vfs_ld_key_name(int key);
const char *vfs_ld_rule_name(int rule);
/* The order graph as text lines: "A -> B  (first: thread, fn, step)". */
void vfs_lockdep_graph_text(const struct vfs_world *w, char *buf, size_t n);

#endif
