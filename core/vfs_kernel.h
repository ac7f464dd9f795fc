/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_kernel.h - the kernel a world runs: the presets and their knobs
 * (core/presets.tbl), the decisions a script overrides (core/override.c),
 * the filesystem types (core/fstypes.c), the lock-order rules a script
 * declares (core/lockdep.c) and the era's exec lock.
 */
#ifndef VFSIM_VFS_KERNEL_H
#define VFSIM_VFS_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fns.h"
#include "vfs_limits.h"
#include "vfs_lock.h"

struct vfs_world;

/* ---- presets and knobs (core/presets.tbl) ---------------------------------- */
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
enum vfs_decision { VDEC_FPOS_LOCK, VDEC_FGET_LIGHT, VDEC_ITERATE, VDEC__COUNT };
/* file_needs_f_pos_lock's variables */
enum { VDV_ATOMIC_POS, VDV_COUNT, VDV_DIR, VDV_ITERATE_SHARED, VDV_REGULAR,
       VDV_LSEEK };
/* __fget_light's (true: borrow the file, no reference) */
enum { VDV_TABLE_USERS };
/* iterate_dir's dispatch (true: i_rwsem shared and ->iterate_shared, through
 * wrap_directory_iterator for a filesystem without one where the kernel
 * has the wrapper; false: i_rwsem exclusive and ->iterate) */
enum { VDV_NATIVE_SHARED, VDV_WRAPPER };
enum vfs_xop { XO_CONST, XO_VAR, XO_NOT, XO_AND, XO_OR, XO_LT, XO_LE, XO_GT,
	       XO_GE, XO_EQ, XO_NE, XO__COUNT };
#define VFS_EXPR_NODES 32
struct vfs_xnode { uint8_t op, l, r; int16_t v; };  /* v: a constant or a variable */
/* a variable VFS_XVAR_FIELD + FLD: a field the script declared ('field'),
 * of the file the decision sees or of its inode (not __fget_light's) */
#define VFS_XVAR_FIELD 256
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
	bool no_fsync;          /* its f_op has no ->fsync: fsync says EINVAL */
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
/* ORDER: `lockorder A before B`; RANK: `rank A N`; UNDER: `write FIELD
 * under A` (`access`: reads too): FIELD of an object only while holding
 * A of that object (of the file's inode for an i_rwsem); ONCE: `entries
 * once per pass`, each directory entry handed out once in one pass;
 * VALUE: `field FIELD CMP N`, every value written to FIELD of any object
 * is CMP N (enum vfs_kcmp). */
enum vfs_rule_kind { VRULE_ORDER, VRULE_RANK, VRULE_UNDER, VRULE_ONCE, VRULE_VALUE };
struct vfs_rule {
	uint8_t kind;           /* enum vfs_rule_kind */
	uint8_t field;          /* VRULE_UNDER, VRULE_VALUE: enum vfs_field */
	uint8_t reads;          /* VRULE_UNDER: reads too (`access`) */
	uint8_t cmp;            /* VRULE_VALUE: enum vfs_kcmp */
	int16_t rank;           /* VRULE_RANK */
	struct vfs_lockpat a, b; /* ORDER: a before b; RANK: a */
	int64_t value;          /* VRULE_VALUE: N */
};
#define VFS_MAX_RULES 16

/*
 * Fields the script declares (`field NAME of file|inode [= N]`,
 * core/fields.c).  A name gets a field id after the built-in FLD_* (the
 * same id for the same name in every world of the process, as defined
 * functions' names do), so events, races, rules and footprints carry it
 * as they carry f_pos; the world's declaration (its slot) says which
 * object has it and its initial value.
 */
struct vfs_ufield { uint8_t fld, obj; int64_t init; };
/* Declare NAME on OBJ (KO_FILE, KO_INODE): its slot, or -1 and ERR
 * (-VE_NOMEM: out of memory, the world as it was). */
int vfs_ufield_declare(struct vfs_world *w, const char *name, int obj,
		       int64_t init, char *err, size_t nerr);
int vfs_nufields(const struct vfs_world *w);
const struct vfs_ufield *vfs_ufield_get(const struct vfs_world *w, int slot);
/* the slot of field id FLD in W, or -1 (a built-in field, or undeclared) */
int vfs_ufield_slot(const struct vfs_world *w, int fld);
/* the value of slot SLOT of file or inode OBJ (an index of its table) */
int64_t vfs_ufield_value(const struct vfs_world *w, int slot, int obj);

/*
 * Built-in paths a defined function can be put into (`hook POINT
 * FUNCTION`, core/defined.c): VHOOK_LLSEEK runs it instead of vfs_llseek
 * (lseek's file, after fdget_pos; its return is lseek's), VHOOK_LOOKUP
 * before the lookup of the last component, under the parent's lock (its
 * inode: the parent directory; a negative return fails the call),
 * VHOOK_WRAP in wrap_directory_iterator's place (a __must_hold(i_rwsem)
 * function: entered holding the directory's i_rwsem for reading, it
 * returns so; `iterate` is the legacy ->iterate; a negative return is
 * getdents's).
 */
enum vfs_hook { VHOOK_LLSEEK, VHOOK_LOOKUP, VHOOK_WRAP, VHOOK__COUNT };
struct vfs_hook_desc { const char *point, *help; };
extern const struct vfs_hook_desc vfs_hooks[VHOOK__COUNT];
int vfs_hook_lookup(const char *point);                         /* -1: none */
/* Put defined function K (-1: the kernel's own again) at HOOK: 0, or -1
 * and ERR (a system call, a step that would change the path's file). */
int vfs_hook_set(struct vfs_world *w, int hook, int k, char *err, size_t nerr);
int vfs_hook_get(const struct vfs_world *w, int hook);          /* -1: none */
/* A pair around the point's built-in step (`hook lookup before K after
 * G`): the locks K returns holding are those G releases.  0, or -1, ERR
 * and *BAD_WORD: 0 K is at fault, 1 G. */
int vfs_hook_set_pair(struct vfs_world *w, int hook, int k, int g, int *bad_word,
		      char *err, size_t nerr);
int vfs_hook_get_after(const struct vfs_world *w, int hook);    /* -1: none */

struct vfs_call;
#define VFS_MAX_KFNS      16    /* functions and system calls a script defines */
#define VFS_KFN_STEPS     24    /* steps of one (its implicit `return 0` too) */
#define VFS_KFN_NAME_MAX  24    /* a name, NUL included */
#define VFS_KFN_PARAM_MAX 12
#define VFS_KFN_DEPTH     4     /* defined functions nested in one call */
/* steps of the world's definitions named FUNCTION:LABEL (their events
 * carry the name's id, after the built-in resume points, in one byte) */
#define VFS_KFN_POINTS    128
#define VFS_KFN_POINT_MAX 64    /* "FUNCTION:LABEL", NUL included */
enum vfs_kstep_op { KS_LOCK, KS_UNLOCK, KS_DOWNGRADE, KS_READ, KS_WRITE,
		    KS_CALL, KS_FDGET, KS_FDGET_POS, KS_FDPUT, KS_FDPUT_POS,
		    KS_RETURN,
		    /* hand out the directory's entries from a position (`emit
		     * entries of inode from V [max N]`): ret is where it stopped */
		    KS_EMIT,
		    /* `upgrade i_rwsem of inode`: inode_upgrade_trylock, ret
		     * 1 (held for writing now) or 0 (still for reading) */
		    KS_UPGRADE,
		    /* `iterate`: the filesystem's ->iterate on the file, as
		     * the wrapper's iter(file, ctx) (wrap_directory_iterator's
		     * place only): ret is its count, or its error */
		    KS_ITERATE,
		    /* `if CA CMP CB` ... [`else` ...] `end`: no step of their
		     * own (the scheduler's step runs the next real one); jump:
		     * where `if` goes when false, `else` always */
		    KS_IF, KS_ELSE, KS_ENDIF, KS__COUNT };
enum vfs_kobj { KO_FILE, KO_INODE };    /* fdget's file, its inode */
/* d_update: the inode's dentry's sleeping update lock (a mutex), as the
 * parallel directory operations proposed for 2025 lock a dentry */
enum vfs_klock { KL_F_POS_LOCK, KL_F_LOCK, KL_I_RWSEM, KL_D_UPDATE, KL__COUNT };
/* KV_DEAD: IS_DEADDIR of the inode as the last `read dir of inode` saw it */
enum vfs_kval { KV_CONST, KV_PARAM, KV_FIELD, KV_RET, KV_DEAD };
enum vfs_kcmp { KC_NONE, KC_LT, KC_LE, KC_GT, KC_GE, KC_EQ, KC_NE, KC__COUNT };
/* the comparisons as a script writes them ("<", "<=" ...; "" for KC_NONE),
 * and whether A CMP B holds (KC_NONE: always) */
extern const char *const vfs_kcmp_names[KC__COUNT];
bool vfs_kcmp_holds(int64_t a, int cmp, int64_t b);
struct vfs_kvalue { uint8_t kind; int64_t v; };  /* v: the number, param, field */
struct vfs_kstep {
	uint8_t op;             /* enum vfs_kstep_op */
	uint8_t obj;            /* enum vfs_kobj */
	uint8_t lock;           /* enum vfs_klock */
	uint8_t mode;           /* M_EXCL, M_READ, M_WRITE */
	uint8_t killable;
	int8_t sub;             /* LDSUB_* it is taken with (i_rwsem) */
	uint8_t field;          /* enum vfs_field */
	uint8_t callee;         /* KS_CALL: the index of the defined function */
	uint8_t arith;          /* 0, '+' or '-': value a ARITH b */
	uint8_t cmp;            /* KS_RETURN, KS_IF: enum vfs_kcmp, KC_NONE always */
	uint8_t jump;           /* KS_IF, KS_ELSE: the step to go on at (set
				 * by vfs_kfn_define) */
	struct vfs_kvalue a, b; /* the value (write, return, fdget's FD) */
	struct vfs_kvalue ca, cb; /* the condition: ca CMP cb */
	/* (set by vfs_kfn_define) the resume point its events and `where`
	 * name it by: FUNCTION:LABEL (core/defined.c, kfn_name_points), or 0:
	 * defined_step:step (`if`, `else`, `end`; past VFS_KFN_POINTS) */
	uint8_t point;
};
/* A function that returns holding locks (`define function NAME
 * __acquires`) or releases locks its caller holds (`__releases`), as
 * sparse's annotations say of the kernel's: the halves of a hook pair
 * around a built-in step (`hook lookup before F after G`). */
enum vfs_kspan { KSPAN_NONE, KSPAN_ACQUIRES, KSPAN_RELEASES,
		 /* `__must_hold(LOCK)`: entered holding LOCK (an i_rwsem
		  * for reading), and returns so (spanl[0]) */
		 KSPAN_HOLDS };
#define VFS_KFN_SPAN 4          /* locks a half takes or releases */
struct vfs_kfn {
	char name[VFS_KFN_NAME_MAX];
	uint8_t syscall;        /* a system call (a thread's command) */
	uint8_t span;           /* enum vfs_kspan */
	uint8_t nspan;          /* (set by vfs_kfn_define) the locks it
				 * returns holding, or releases */
	struct { uint8_t lock, obj; } spanl[VFS_KFN_SPAN];
	uint8_t nparams, nsteps;
	uint8_t fn;             /* its kernel function id (vfs_fn_intern) */
	char params[3][VFS_KFN_PARAM_MAX];  /* VFS_SYS_MAXARGS */
	struct vfs_kstep step[VFS_KFN_STEPS];
};
/* Check F and add it to W's kernel: its index; or -1 with *BAD the step
 * at fault (-1: the definition as a whole) and the message in ERR. */
int vfs_kfn_define(struct vfs_world *w, const struct vfs_kfn *f, int *bad,
		   char *err, size_t nerr);
int vfs_nkfns(const struct vfs_world *w);
/* The steps of W's definitions left without a FUNCTION:LABEL name, past
 * VFS_KFN_POINTS names: each is defined_step:step in traces and `where`
 * (a name only: what it does is the same). */
int vfs_kfn_unnamed(const struct vfs_world *w);
const struct vfs_kfn *vfs_kfn_get(const struct vfs_world *w, int i);
int vfs_kfn_lookup(const struct vfs_world *w, const char *name); /* -1: none */
/* The kernel function id of a defined name (the same for the same name in
 * every world of the process), or VFN_none when the table is full. */
int vfs_fn_intern(const char *name);
/* A call of defined system call K from words (numbers, one a parameter). */
int vfs_kfn_call_parse(struct vfs_world *w, int k, int argc, char *const *argv,
		       struct vfs_call *c, char *err, size_t nerr);
/* The kernel function of a call's frame (a defined one's own). */
int vfs_call_fn(const struct vfs_world *w, const struct vfs_call *c);
/* the lock words of a step ("f_pos_lock"), the objects ("file", "inode") */
extern const char *const vfs_klock_names[KL__COUNT];
extern const char *const vfs_kobj_names[2];
/* One step as the line that defines it: "lock i_rwsem of inode read". */
void vfs_kstep_text(const struct vfs_world *w, const struct vfs_kfn *f,
		    const struct vfs_kstep *s, char *buf, size_t n);

struct vfs_kdefs {
	long refs;
	int16_t nfsdefs;
	/* the lock-order rules the script declared, in its order (a check,
	 * not the kernel: `kernel PRESET` keeps them) */
	int16_t nrules;
	struct vfs_rule rules[VFS_MAX_RULES];
	struct vfs_expr overrides[VDEC__COUNT];
	/* the kernel functions and system calls it defined (core/defined.c) */
	int16_t nkfns;
	struct vfs_kfn kfns[VFS_MAX_KFNS];
	/* the fields it declared (core/fields.c), in its order: slot i is
	 * u[i] of each file or inode */
	int16_t nufields;
	struct vfs_ufield ufields[VFS_MAX_UFIELDS];
	int8_t hooks[VHOOK__COUNT];     /* the function at each (index + 1), 0 */
	int8_t hooks_after[VHOOK__COUNT]; /* a pair's after half (index + 1), 0 */
	/* the names of the definitions' steps, "shared_llseek:lock_i_rwsem":
	 * point RP__COUNT + i is points[i] (core/defined.c) */
	int16_t npoints, point_width;
	char points[VFS_KFN_POINTS][VFS_KFN_POINT_MAX];
	struct vfs_fstype fsdefs[];     /* VFS_MAX_FSDEFS */
};
/* Set (E NULL: clear) the override of DEC.  0, -VE_INVAL (not an
 * expression: vfs_expr_check), -VE_NOMEM. */
int vfs_override_set(struct vfs_world *w, int dec, const struct vfs_expr *e);
/* Lock-order rules (core/rules.c).  vfs_lockpat_parse: a lock as
 * lockdep and vfsim print it, CLASS[:SUBCLASS] (s_vfs_rename_mutex,
 * f_pos_lock, i_rwsem, i_rwsem_dir, i_rwsem_nondir, f_lock, the exec
 * locks; subclass normal, parent, parent2, nondir2 or 0-3); 0, or -1 and
 * *bad_at the offset of the word at fault (0: the class, else the
 * subclass).  vfs_rule_add: 0, -VE_NOSPC (VFS_MAX_RULES), -VE_NOMEM.
 * vfs_rule_text: the rule as `rule` takes it ("lockorder A before B"). */
int vfs_lockpat_parse(const char *s, struct vfs_lockpat *p, int *bad_at);
void vfs_lockpat_text(const struct vfs_lockpat *p, char *buf, size_t n);
int vfs_rule_add(struct vfs_world *w, const struct vfs_rule *r);
/* Remove rule I (`rule remove`): 0, -VE_INVAL, -VE_NOMEM. */
int vfs_rule_remove(struct vfs_world *w, int i);
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

#endif
