/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsim.h - the simulated kernel's public interface.
 *
 * The world is one plain value (struct vfs_world): processes, threads, fd
 * tables, open files, inodes, locks, each thread's place inside its kernel
 * path and the detectors' state.  Nothing lives on a C stack across a step,
 * so a world can be copied with vfs_world_copy() and replayed.
 *
 * A system call is a kernel path: a sequence of atomic steps, each named
 * after the kernel function it models.  vfs_step() runs one step of one
 * thread and reports what happened as trace events to a sink.
 */
#ifndef VFSIM_H
#define VFSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fns.h"

struct vfs_world;

#include "vfs_limits.h"

/* ---- errno (the kernel's numbers) ---------------------------------------- */
enum {
	VE_PERM = 1, VE_NOENT = 2, VE_SRCH = 3, VE_INTR = 4, VE_BADF = 9,
	VE_AGAIN = 11, VE_NFILE = 23,
	VE_NOMEM = 12, VE_BUSY = 16, VE_EXIST = 17, VE_XDEV = 18, VE_NOTDIR = 20,
	VE_SPIPE = 29,
	VE_ISDIR = 21, VE_INVAL = 22, VE_MFILE = 24, VE_FBIG = 27, VE_NOSPC = 28,
	VE_NAMETOOLONG = 36, VE_NOSYS = 38, VE_NOTEMPTY = 39,
	VE_OVERFLOW = 75, VE_OPNOTSUPP = 95,
};
const char *vfs_errno_name(int err);     /* "ENOENT"; NULL if unknown */
/* A return value as strace shows it: "3" or "-1 ENOENT". */
void vfs_ret_text(int64_t ret, char *buf, size_t n);
int vfs_errno_lookup(const char *name);  /* 0 if unknown */

/* ---- presets and knobs (core/presets.c) ------------------------------------ */
enum vfs_fpos_lock { FPOS_NONE, FPOS_COUNT, FPOS_ALWAYS, FPOS_COUNT_OR_DIR,
		     FPOS_COUNT_OR_ITERATE };
enum vfs_iterate { ITER_EXCLUSIVE, ITER_DUAL, ITER_SHARED };
enum vfs_wrapper { WRAP_CORRECT, WRAP_NO_RECHECK, WRAP_NAIVE_UPGRADE };
enum vfs_rename_lock { RENLOCK_CORRECT, RENLOCK_NO_MUTEX };
/* the target's lock __pidfd_fget holds around ptrace_may_access and
 * fget_task: a row of vfs_exec_locks (core/presets.c) */
enum vfs_exec_lock { EXECLOCK_CRED_GUARD, EXECLOCK_UPDATE_MUTEX,
		     EXECLOCK_UPDATE_RWSEM, EXECLOCK__COUNT };

struct vfs_knobs {
	uint8_t fpos_lock;      /* enum vfs_fpos_lock */
	uint8_t iterate;        /* enum vfs_iterate */
	uint8_t wrapper;        /* enum vfs_wrapper */
	uint8_t pidfd_getfd;    /* pidfd_open and pidfd_getfd exist */
	uint8_t atomic_pos_dir; /* do_dentry_open sets FMODE_ATOMIC_POS on dirs */
	uint8_t dir_lock;       /* 0: i_mutex (mutex), 1: i_rwsem */
	uint8_t killable;       /* iterate_dir takes the lock killably */
	uint8_t tmpfs_offsets;  /* tmpfs: offset_readdir/offset_dir_llseek (6.6) */
	uint8_t ntfs3;          /* "ntfs" means ntfs3 (native shared, 6.9+) */
	uint8_t rename_lock;    /* enum vfs_rename_lock (no-mutex: wrong) */
	uint8_t exec_lock;      /* enum vfs_exec_lock */
	/* The release whose code the preset follows where no knob decides
	 * (errno answers, lock details): VFS_ERA(6, 5).  Not a knob: `set`
	 * leaves it as the preset made it. */
	uint16_t era;
};
#define VFS_ERA(major, minor) ((major) * 100 + (minor))
/* `mainline`: the kernel the differential harness last ran against */
#define VFS_ERA_MAINLINE VFS_ERA(6, 18)

struct vfs_preset {
	const char *name;
	const char *summary;    /* one line for `kernel list` */
	struct vfs_knobs k;
};

struct vfs_knob_desc {
	const char *name;       /* fixed names: fpos-lock, iterate, ... */
	const char *const *values; /* NULL-terminated */
	const char *help;
	size_t offset;          /* into struct vfs_knobs */
	/* values that make a deliberately wrong kernel, noted in the trace */
	uint32_t wrong_mask;
};

extern const struct vfs_preset vfs_presets[];
extern const int vfs_npresets;
extern const struct vfs_knob_desc vfs_knobs[];
extern const int vfs_nknobs;
const struct vfs_preset *vfs_preset_lookup(const char *name);
const struct vfs_knob_desc *vfs_knob_lookup(const char *name);
int vfs_knob_get(const struct vfs_knobs *k, const struct vfs_knob_desc *d);
/* 0, or -1 when VALUE is not one of the knob's values */
int vfs_knob_set(struct vfs_knobs *k, const struct vfs_knob_desc *d,
		 const char *value);

/* ---- decisions a script overrides (core/override.c) ------------------------ */
/*
 * A decision of a kernel function, replaced by an expression over the state
 * it sees (`override FUNC EXPR`).  The expression is a small tree: integer
 * constants, the decision's variables, !, &&, || (short-circuit: a variable
 * is read, and its read traced, only when the kernel's code would reach
 * it), comparisons.  Each variable is what the function reads.
 */
enum vfs_decision { VDEC_FPOS_LOCK, VDEC_FGET_LIGHT, VDEC__COUNT };
/* file_needs_f_pos_lock's variables */
enum { VDV_ATOMIC_POS, VDV_COUNT, VDV_DIR, VDV_ITERATE_SHARED, VDV_REGULAR };
/* __fget_light's (true: borrow the file, no reference) */
enum { VDV_TABLE_USERS };
enum vfs_xop { XO_CONST, XO_VAR, XO_NOT, XO_AND, XO_OR, XO_LT, XO_LE, XO_GT,
	       XO_GE, XO_EQ, XO_NE, XO__COUNT };
#define VFS_EXPR_NODES 32
struct vfs_xnode { uint8_t op, l, r; int16_t v; };  /* v: a constant or a variable */
struct vfs_expr {
	uint8_t n;              /* nodes; 0: not overridden */
	uint8_t root;
	struct vfs_xnode node[VFS_EXPR_NODES];
};
struct vfs_decision_desc {
	const char *fn;                 /* the kernel function: "file_needs_f_pos_lock" */
	const char *const *vars;        /* its variables, NULL-terminated */
	const char *const *var_help;
	const char *help;
};
extern const struct vfs_decision_desc vfs_decisions[VDEC__COUNT];
int vfs_decision_lookup(const char *fn);                /* -1: none */
int vfs_decision_var(int dec, const char *name);        /* -1: none */
/* The kernel's own decision under K as an expression of the same words. */
const char *vfs_decision_builtin(int dec, const struct vfs_knobs *k);
/* 0, or -VE_INVAL for a tree that is not one (a node out of range, a
 * cycle, an unknown variable or operator). */
int vfs_expr_check(int dec, const struct vfs_expr *e);
int64_t vfs_expr_eval(const struct vfs_expr *e, int64_t (*var)(void *ctx, int id),
		      void *ctx);
/* "atomic_pos && (count > 1 || dir)" */
void vfs_expr_text(int dec, const struct vfs_expr *e, char *buf, size_t n);

/* ---- filesystem types (core/fstypes.c) ------------------------------------- */
enum vfs_llseek { LLSEEK_GENERIC, LLSEEK_EXT4_DIR, LLSEEK_DCACHE_DIR,
		  LLSEEK_OFFSET_DIR, LLSEEK_CEPH_DIR, LLSEEK_OVL_DIR,
		  LLSEEK_DEFAULT };
enum vfs_dirread { DIRREAD_EISDIR, DIRREAD_CEPH, DIRREAD_NONE };

/* What a filesystem type's directories do under one kernel. */
struct vfs_fsops {
	bool native_shared;     /* has ->iterate_shared since v4.7 */
	uint8_t iter_fn;        /* VFN_ext4_readdir ... */
	uint8_t llseek;         /* enum vfs_llseek, for directories */
	uint8_t dir_read;       /* enum vfs_dirread */
	int64_t maxbytes;       /* sb->s_maxbytes (vfs_setpos: EINVAL past it) */
};

struct vfs_fstype {
	char name[VFS_FSTYPE_NAME_MAX]; /* (an array: a defined row lives in
					 * the world, which is copied whole) */
	struct vfs_fsops ops;
	/* The implementation a knob swaps in (tmpfs's stable offsets in v6.6,
	 * ntfs3 for "ntfs"): VFS_FS_KNOB(field) of struct vfs_knobs, 0 if
	 * none; the knob on means `later` replaces `ops`. */
	uint8_t later_knob;
	struct vfs_fsops later;
	uint16_t since_era, until_era;  /* VFS_ERA; until 0: still there */
	const char *since;      /* first release that has it, for `fs list` */
	const char *until;      /* last release that has it, or NULL */
	const char *note;
};
#define VFS_FS_KNOB(field) ((uint8_t)(offsetof(struct vfs_knobs, field) + 1))
extern const struct vfs_fstype vfs_fstypes[];
extern const int vfs_nfstypes;
/* The one resolver: what FT's directories do under the knobs K (no path
 * compares a filesystem's name). */
struct vfs_fsops vfs_fs_ops(const struct vfs_knobs *k, const struct vfs_fstype *ft);
/* whether K's knob swaps in FT's later implementation */
bool vfs_fs_uses_later(const struct vfs_knobs *k, const struct vfs_fstype *ft);
/* A built-in row by name (the world's types, defined ones too:
 * vfs_world_fstype_lookup). */
const struct vfs_fstype *vfs_fstype_lookup(const char *name);

/*
 * The kernel as the script made it: the filesystem types it defined (after
 * the built-in rows: sb.fstype vfs_nfstypes + i) and the decisions it
 * overrode (n 0: the kernel's own; `kernel PRESET` clears them, as it
 * resets the knobs).  No step changes it, so world copies share one
 * (refs, atomic); the first world that changes it copies it (kdefs_mut).
 */
struct vfs_lockpat {
	uint8_t cls;            /* LC_*; LC_NONE with inode: either i_rwsem */
	uint8_t inode;          /* 1: both i_rwsem classes (dir and non-dir) */
	int8_t sub;             /* LDSUB_*, or -1: any */
};
enum vfs_rule_kind { VRULE_ORDER, VRULE_RANK };
struct vfs_rule {
	uint8_t kind;           /* enum vfs_rule_kind */
	int16_t rank;           /* VRULE_RANK */
	struct vfs_lockpat a, b; /* ORDER: a before b; RANK: a */
};
#define VFS_MAX_RULES 16

struct vfs_kdefs {
	long refs;
	int16_t nfsdefs;
	/* the lock-order rules the script declared, in its order (a check,
	 * not the kernel: `kernel PRESET` keeps them) */
	int16_t nrules;
	struct vfs_rule rules[VFS_MAX_RULES];
	struct vfs_expr overrides[VDEC__COUNT];
	struct vfs_fstype fsdefs[];     /* VFS_MAX_FSDEFS */
};
/* W's override of decision DEC, or NULL: the kernel decides. */
static inline const struct vfs_expr *vfs_override(const struct vfs_world *w, int dec);
/* Set (E NULL: clear) the override of DEC.  0, -VE_INVAL (not an
 * expression: vfs_expr_check), -VE_NOMEM. */
int vfs_override_set(struct vfs_world *w, int dec, const struct vfs_expr *e);
/* Lock-order rules (core/lockdep.c).  vfs_lockpat_parse: a lock as
 * lockdep and vfsim print it, CLASS[:SUBCLASS] (s_vfs_rename_mutex,
 * f_pos_lock, i_rwsem, i_rwsem_dir, i_rwsem_nondir, f_lock, the exec
 * locks; subclass normal, parent, parent2, nondir2 or 0-3); 0, or -1 and
 * *bad_at the offset of the word at fault (0: the class, else the
 * subclass).  vfs_rule_add: 0, -VE_NOSPC (VFS_MAX_RULES), -VE_NOMEM.
 * vfs_rule_text: the rule as `rule` takes it ("lockorder A before B"). */
int vfs_lockpat_parse(const char *s, struct vfs_lockpat *p, int *bad_at);
void vfs_lockpat_text(const struct vfs_lockpat *p, char *buf, size_t n);
int vfs_rule_add(struct vfs_world *w, const struct vfs_rule *r);
int vfs_nrules(const struct vfs_world *w);
const struct vfs_rule *vfs_rule_get(const struct vfs_world *w, int i);
void vfs_rule_text(const struct vfs_rule *r, char *buf, size_t n);
/* The I-th lock name a rule takes (the classes, then each i_rwsem
 * subclass as "i_rwsem:parent"...), NULL past the last: for completion. */
const char *vfs_lockpat_name(int i);
/* whether lock class CLS taken with subclass SUB matches P */
bool vfs_lockpat_match(const struct vfs_lockpat *p, int cls, int sub);
/*
 * The parts a row is built from, by the kernel function that does each:
 * the directory llseek of each flavour (enum vfs_llseek) and read() on a
 * directory (enum vfs_dirread; VFN_none: no ->read, EINVAL).  -1 from a
 * lookup: FN is no such part.
 */
extern const uint8_t vfs_llseek_fn[LLSEEK_DEFAULT + 1];
extern const uint8_t vfs_dirread_fn[DIRREAD_NONE + 1];
int vfs_llseek_lookup(int fn);
int vfs_dirread_lookup(int fn);

/* ---- locks (core/locking.c) ------------------------------------------------ */
enum vfs_lock_kind { LK_MUTEX, LK_RWSEM, LK_SPIN };
enum vfs_lock_class { LC_NONE, LC_F_POS_LOCK, LC_I_RWSEM_DIR, LC_I_RWSEM,
		      LC_F_LOCK, LC_RENAME_MUTEX, LC_CRED_GUARD_MUTEX,
		      LC_EXEC_UPDATE_MUTEX, LC_EXEC_UPDATE_LOCK, LC__COUNT };
enum vfs_mode { M_NONE, M_EXCL, M_READ, M_WRITE };

/* The lock of the target process that pidfd_getfd's __pidfd_fget holds
 * around ptrace_may_access and fget_task, per era (w->k.exec_lock): its
 * class, kind, how it is taken and the kernel functions that take and
 * release it (core/presets.c). */
struct vfs_exec_lock_desc {
	const char *name;       /* the knob's value, the class's name */
	uint8_t cls;            /* LC_CRED_GUARD_MUTEX ... */
	uint8_t kind;           /* LK_MUTEX, LK_RWSEM */
	uint8_t mode;           /* M_EXCL, M_READ */
	uint8_t lock_fn, unlock_fn;     /* VFN_mutex_lock_killable ... */
	const char *since;      /* the release and commit that brought it */
};
extern const struct vfs_exec_lock_desc vfs_exec_locks[EXECLOCK__COUNT];

/* A lock id names a lock inside the world: its object kind and index. */
typedef uint32_t vfs_lid_t;
enum { LID_FILE_POS = 1, LID_FILE_LOCK = 2, LID_INODE = 3, LID_RENAME = 4,
       /* not a lock: a dentry's d_seq seqcount, which only the race
	* detector keeps a clock for (the RCU path walk) */
       LID_DSEQ = 5,
       /* a process's signal->exec_update_lock (or the era's mutex) */
       LID_EXEC = 6 };
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

/* ---- objects ---------------------------------------------------------------- */
enum vfs_itype { IT_NONE, IT_DIR, IT_REG, IT_PIDFS };

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

enum { FK_NONE, FK_INODE, FK_PIDFD };
#define FMODE_READ        0x1
#define FMODE_WRITE       0x2
#define FMODE_ATOMIC_POS  0x8000

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

#define FD_CLOEXEC_BIT 0x8000
#define FD_RESERVED    0x7fff  /* taken by an open in progress */
#define FD_STDIO       0x7ffe  /* 0-2: taken, as stdio would be (no file modelled) */
struct vfs_fdtable {
	int16_t count;          /* tasks sharing it (files->count) */
	int16_t nfds;           /* one past the highest slot ever used */
	uint16_t fd[VFS_NR_OPEN]; /* file index + 1, 0 = free, | FD_CLOEXEC_BIT */
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

/* ---- system calls: core/syscalls.h ---------------------------------------- */
#include "syscalls.h"

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
enum vfs_tstate { TS_FREE, TS_IDLE, TS_RUNNING, TS_BLOCKED, TS_DEAD };

struct vfs_held {
	vfs_lid_t lock; uint8_t mode; uint8_t cls;
	uint8_t fn;             /* the kernel function it was taken in */
	uint8_t frame;          /* its index in fnstack then */
	uint8_t sub;            /* lockdep nesting subclass it was taken with */
};

/* Locals of the kernel path in progress: plain data, so steps can resume. */
struct vfs_frame {
	uint16_t pc;            /* the next site (core/sites.h) */
	uint16_t ret_pc[4];     /* return sites of nested sub-paths */
	uint8_t depth;
	uint8_t fdput_flags;    /* FDPUT_FPUT | FDPUT_POS_UNLOCK */
	int32_t file;           /* struct file in use */
	int32_t inode, parent, victim, parent2, victim2;
	int32_t sparent, dparent; /* rename: the parents as looked up (source, target) */
	int32_t fd;             /* reserved/looked-up descriptor */
	int64_t pos;            /* ctx->pos, or the local pos of ksys_read */
	int64_t res;            /* result so far */
	uint8_t locked_parent, locked_victim, locked_rename, locked_parent2,
		locked_victim2, dir_locked;
	int32_t newproc;
	uint8_t flavour;        /* lseek: enum vfs_llseek in use */
	uint8_t pos_get;        /* went through fdget_pos (else fdget) */
	uint8_t wrapped;        /* readdir through wrap_directory_iterator */
};

struct vfs_thread {
	uint8_t state;          /* enum vfs_tstate */
	int8_t wait_next;       /* next waiter in a lock's queue */
	uint8_t wait_mode;
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

/* ---- detectors' state (core/race.c, core/dirent_check.c) ----------------------- */
enum vfs_field { FLD_NONE, FLD_F_POS, FLD_CURSOR, FLD_DIR, FLD_SIZE,
		 FLD_DATA, FLD_F_COUNT, FLD_FDTABLE, FLD__COUNT };
const char *vfs_field_name(int field);
int vfs_field_lookup(const char *name);

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

enum vfs_report_kind { RPT_RACE, RPT_DUPLICATE, RPT_SKIPPED, RPT_DEADDIR,
		       RPT_DEADLOCK, RPT_LOCKORDER, RPT_RULE, RPT__COUNT };
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

/* RPT_LOCKORDER: which check fired (vfs_report.rule) */
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
	uint8_t rule;           /* lock order: enum vfs_ld_rule; RPT_RULE: the
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
enum { LDSUB_NORMAL, LDSUB_PARENT, LDSUB_PARENT2, LDSUB_NONDIR2 };
#define VFS_LD_KEYS (LC__COUNT * 4)
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
	uint32_t counts[RPT__COUNT]; /* reports seen, also past the list's end */
	uint32_t race_fields[FLD__COUNT]; /* races seen per field, likewise */
	/* the bounds of core/limits.h reached: bit VL_x, the step it was
	 * first reached in, and which the shell has told (vfs_overflow_text) */
	uint32_t overflowed, told;
	int32_t overflow_step[VL__COUNT];
	struct vfs_report reports[VFS_MAX_REPORTS];
	struct vfs_lockdep ld;
};

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
	struct vfs_lock rename_mutex;   /* s_vfs_rename_mutex (one sb model) */
	struct vfs_stats stats;
	struct vfs_detect det;
	int32_t call_started[VFS_MAX_THREADS]; /* call_seq at start, for fifo */
	struct vfs_proc procs[VFS_MAX_PROCS];
	struct vfs_thread threads[VFS_MAX_THREADS];
	struct vfs_sb sbs[VFS_MAX_SB];
	/*
	 * Heap tables owned by this world (vfs_world_free), grown as needed.
	 * Only [0, n) of each is copied, hashed or compared.
	 */
	int32_t nfiles, ninodes, nfdt;  /* slots in use or free, high-water */
	int32_t files_cap, fdt_cap, ilocks_cap;
	struct vfs_file *files;
	struct vfs_fdtable *fdt;
	/* the inodes: read them here; change them through inode_mut()
	 * (core/inode.c), which unshares the table first */
	const struct vfs_inode *inodes; /* itab->v */
	struct vfs_itab *itab;
	struct vfs_lock *ilocks;        /* each inode's i_rwsem, by slot */
	/* the entries each thread's most recent getdents handed out: inode
	 * index, or -1 ".", -2 ".." (rec.nent of them) */
	struct vfs_entvec { int32_t *v; int32_t cap; } rec_ent[VFS_MAX_THREADS];
	/* threads that exited and whose slot a new one took (the trace still
	 * names them): kernel tid, process, thread number */
	struct vfs_tident { int32_t ktid; int16_t proc, tnum; } *retired;
	int32_t nretired, retired_cap;
	/* the kernel as the script made it (vfs_kdefs), or NULL */
	struct vfs_kdefs *kdefs;
	/* the strings of submitted calls, interned: a handle is an offset
	 * (0 is ""); append-only, so every copy of a world reads the same */
	struct vfs_strtab {
		char *buf;
		uint32_t len, cap;
		uint32_t *slot;         /* open addressing: handle or 0 */
		uint32_t mask, count;
	} strs;
};

static inline const struct vfs_expr *vfs_override(const struct vfs_world *w, int dec)
{
	return w->kdefs && w->kdefs->overrides[dec].n ? &w->kdefs->overrides[dec] : NULL;
}

/* ---- trace events (core/trace.c) ------------------------------------------- */
enum vfs_objkind { VOK_NONE, VOK_FILE, VOK_INODE, VOK_FDTABLE, VOK_GLOBAL,
		   VOK_PROC };
enum vfs_op { OP_ENTER, OP_EXIT, OP_ACQUIRE, OP_RELEASE, OP_BLOCK, OP_WAKE,
	      OP_SKIP, OP_READ, OP_WRITE, OP_DOWNGRADE, OP_EMIT, OP_NOTE,
	      OP__COUNT };

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
		};
	};
	union {
		int64_t value;          /* read/write: the value; emit: d_off */
		const char *note;       /* OP_NOTE: text (static storage) */
	};
	int8_t tid;             /* the thread it happened to (its slot) */
	uint8_t op;             /* enum vfs_op */
	uint8_t fn;             /* kernel function */
	uint8_t cls;            /* lock class, for lock events */
	uint8_t field;          /* read/write: enum vfs_field */
	uint8_t objkind;        /* enum vfs_objkind */
	uint8_t sys;            /* enter/exit of a syscall frame: enum vfs_sys */
	uint8_t mode : 2;       /* lock events: enum vfs_mode */
	uint8_t atomic : 1;     /* read/write of an atomic counter */
	/* read: lockless, validated by a seqcount and retried (the RCU path
	 * walk): never a race, ordered after the writes it saw */
	uint8_t rcu : 1;
};
/* One cache line: the core replay's cost is mostly making events. */
_Static_assert(sizeof(struct vfs_event) == 64, "struct vfs_event is 64 bytes");


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
void vfs_event_jsonl(const struct vfs_world *w, const struct vfs_event *ev,
		     char *buf, size_t n);

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
/* The file PROC's fd refers to, or -1. */
int vfs_fd_file(const struct vfs_world *w, int proc, int fd);
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

/* ---- running (core/sched.c) ------------------------------------------------- */
/* Queue a call on a thread: its sequence number (> 0, the order of
 * submission the fifo scheduler follows), or -1 when the queue is full or
 * the thread dead. */
int vfs_submit(struct vfs_world *w, int tid, const struct vfs_call *c);
/* Has a call in progress or queued, and is not blocked. */
bool vfs_runnable(const struct vfs_world *w, int tid);
bool vfs_has_work(const struct vfs_world *w, int tid);
/* A call has begun and not finished (queued calls aside). */
bool vfs_in_call(const struct vfs_world *w, int tid);
/* Run one atomic step of tid (must be runnable). Returns true if the step
 * completed a call. */
bool vfs_step(struct vfs_world *w, int tid, const struct vfs_sink *sink);
/*
 * SIGKILL to a process (kernel/signal.c, as far as the paths here care):
 * its queued calls are dropped and each thread exits after its current
 * call; a thread asleep in a killable wait (iterate_dir's
 * down_read_killable, ...) gives up with -EINTR, others keep waiting (the
 * v6.5 wrapper's down_write is not killable: it must return holding the
 * lock).  Returns how many waits were interrupted, or -1 if no such live
 * process.
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
void vfs_report_text(const struct vfs_world *w, const struct vfs_report *r,
		     char *buf, size_t n);
/* Several lines, no final newline: deadlocks as lockdep's "Possible unsafe
 * locking scenario" table with the threads as columns, lock-order reports
 * with both chains; other kinds as vfs_report_text. */
void vfs_report_detail(const struct vfs_world *w, const struct vfs_report *r,
		       char *buf, size_t n);

/* ---- deadlocks (core/deadlock.c) ------------------------------------------- */
/* The wait-for cycle through tid (or through any blocked thread when tid is
 * -1) into *r (kind RPT_DEADLOCK, not recorded); false when there is none.
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
