/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_limits.h - every fixed size of the simulated kernel and its detectors,
 * in one place, with the couplings between them checked at compile time.
 *
 * A detector table that fills does not answer wrongly: the world records
 * the overflow (enum vfs_limit, the step), the shell prints it once, and
 * the verdicts that table decides ("expect no race", "no duplicate", "no
 * deadlock", explore's "no violation") are refused from then on.
 * (Not "limits.h": with -Icore that name would hide <limits.h>.)
 */
#ifndef VFSIM_VFS_LIMITS_H
#define VFSIM_VFS_LIMITS_H

/* ---- the simulated kernel ---------------------------------------------- */
/*
 * Sizes of real use.  The object tables (inodes, files, fd tables) are heap
 * arrays owned by the world that grow as needed and are copied only as far
 * as they are used; what stays bounded answers as the kernel does (EMFILE,
 * ENFILE, ENAMETOOLONG, EFBIG) or with a clear message, never in silence.
 */
#define VFS_MAX_PROCS     256   /* processes ever spawned or forked */
#define VFS_MAX_THREADS   32    /* also the width of a vector clock and of
				 * the uint32_t thread masks: a bound that stays */
#define VFS_FILE_MAX      32000 /* fs.file-max: files alive at once, then ENFILE */
#define VFS_MAX_INODES    (1 << 24) /* inode slots in use (reused when freed) */
#define VFS_MAX_SB        16
#define VFS_MAX_FSDEFS    16    /* filesystem types a script defines (fs define) */
#define VFS_MAX_UFIELDS   64    /* fields a script declares (field NAME of OBJ);
				 * their values are heap rows (core/fields.c) */
#define VFS_FSTYPE_NAME_MAX 16  /* a filesystem type's name, NUL included */
#define VFS_NR_OPEN       1024  /* descriptors per table (RLIMIT_NOFILE), then EMFILE */
#define VFS_MAX_PENDING   8     /* queued calls per thread */
#define VFS_NAME_MAX      256   /* NAME_MAX 255 and its NUL: ENAMETOOLONG past it */
#define VFS_PATH_MAX      4096  /* PATH_MAX, NUL included */
#define VFS_COMM_MAX      32    /* a process's name ("A", "owner"), NUL included */
#define VFS_DATA_MAX      (16 << 20) /* bytes of data a file keeps: EFBIG past it */
#define VFS_TEXT_MAX      64    /* bytes of a read kept for display in its record */
#define VFS_CALL_STR_MAX  (1 << 20) /* a string argument (write's text, a path) */
_Static_assert(VFS_FILE_MAX < 0x7ffe, "an fd slot keeps file index + 1 in 15 bits");
_Static_assert(VFS_FILE_MAX > VFS_NR_OPEN, "a process meets EMFILE before ENFILE");
#define VFS_MAX_HELD      8     /* locks one thread can hold (loud: VL_HELD) */
#define VFS_MAX_FNSTACK   8     /* kernel functions nested (loud: VL_FNSTACK) */

/* ---- the detectors (core/race.c, core/lockdep.c, core/deadlock.c) ------- */
#define VFS_MAX_REPORTS   16    /* reports kept; all are counted (exact) */
#define VFS_MAX_SHADOWS   128   /* (field, object) pairs with an access */
/* a clock per lock ever taken (an inode's i_rwsem, a file slot's two
 * locks, s_vfs_rename_mutex) and per directory whose entries changed (its
 * d_seq: what a lockless path walk is ordered after) */
#define VFS_MAX_LOCKCLOCKS 1024
#define VFS_MAX_PASSES    16    /* passes of open directories */
#define VFS_MAX_PASS_OFFSETS 256 /* directory offsets a pass records */
#define VFS_MAX_LINKS     8     /* links of a deadlock cycle, lock chain */
#define VFS_MAX_LDEDGES   48    /* lockdep: dependencies between keys */
#define VFS_MAX_LDSEEN    32    /* lockdep: reports made (deduplication) */
#define VFS_MAX_LDDEAD    8     /* deadlocks reported (thread sets) */

/* A bound that was reached: which one (vfs_limit_name, vfs_limit_value). */
enum vfs_limit {
	VL_NONE, VL_SHADOWS, VL_LOCKCLOCKS, VL_PASSES, VL_PASS_OFFSETS,
	VL_LDEDGES, VL_LDSEEN, VL_LDDEAD, VL_LINKS, VL_HELD, VL_FNSTACK,
	VL__COUNT
};

/* The couplings. */
_Static_assert(VFS_MAX_THREADS <= 32, "thread sets are uint32_t masks");
_Static_assert(VFS_MAX_THREADS <= 127, "tids are int8_t");
_Static_assert(VL__COUNT <= 32, "the overflow record is a uint32_t mask");
_Static_assert(VFS_MAX_LOCKCLOCKS <= 65535, "nlockclocks is uint16_t");
_Static_assert(VFS_MAX_SHADOWS <= 65535, "nshadows is uint16_t");
_Static_assert(VFS_MAX_PASSES <= 255 && VFS_MAX_REPORTS <= 255 &&
	       VFS_MAX_LDEDGES <= 255 && VFS_MAX_LDSEEN <= 255 &&
	       VFS_MAX_LDDEAD <= 255, "counted in uint8_t");
_Static_assert(VFS_MAX_PASS_OFFSETS % 8 == 0,
	       "explore_state.c scans a pass's offsets 8 at a time");
_Static_assert(VFS_MAX_HELD <= 255 && VFS_MAX_FNSTACK <= 255,
	       "nheld and nfn are uint8_t");
_Static_assert(VFS_MAX_LINKS >= 2, "a lock-order report has two links");
_Static_assert(VFS_MAX_INODES <= 0xfffffff && VFS_FILE_MAX <= 0xfffffff,
	       "a lock id keeps its object index in 28 bits");
_Static_assert(VFS_MAX_PASS_OFFSETS <= 32767, "vfs_pass.hi is int16_t");
_Static_assert(VFS_MAX_FSDEFS + 64 <= 255,
	       "vfs_sb.fstype (uint8_t) indexes the built-in rows, then the defined");

#endif
