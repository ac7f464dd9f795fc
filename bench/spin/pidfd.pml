/*
 * pidfd.pml -- SPIN model of the vfsim benchmark scenario "pidfd thieves".
 *
 * The scenario (kernel-reference.md sections 1, 2 and 4):
 *   Process A owns fd 3 on directory /d (ext4, NENT entries including
 *   "." and ".."); f_count is 1.  NTHIEVES single-threaded processes each
 *   do pidfd_open(A), pidfd_getfd(pidfd, 3) (a real reference: f_count+1)
 *   and then NCALLS getdents64(fd, NPER).  A makes NCALLS getdents64(3, NPER)
 *   too.  All calls are pending at once and interleave arbitrarily.
 *
 * Granularity: one Promela transition per vfsim step (DESIGN.md: a step is
 * the unit of interleaving).  d_step is used only to make one kernel step
 * indivisible; no whole call is collapsed.  getdents64 is
 *
 *   fdget_pos               light lookup, no reference (single-threaded)
 *   file_needs_f_pos_lock   reads f_count (the v6.4 / v6.5 condition)
 *   mutex_lock(f_pos_lock)  blocking; only when the check said so
 *   down_read_killable      iterate_dir takes i_rwsem shared
 *   ctx->pos = f_pos
 *   ext4_readdir            hands out up to NPER entries from ctx->pos
 *   f_pos = ctx->pos
 *   up_read
 *   fdput_pos               mutex_unlock if it was locked
 *
 * and pidfd_getfd is fget_task (f_count += 1, atomic) then receive_fd.
 *
 * Property: within the pass, each directory entry is handed out at most
 * once (vfsim's "duplicate" detector).  Under v6.5 it holds; under v6.4
 * (-DV64) the owner can pass the count check before a thief's fget_task,
 * so both read the same f_pos and SPIN reports an assertion violation.
 *
 * Parameters (pass to spin as -DNAME=VALUE):
 *   V64            use the v3.14..v6.4 condition file_count > 1
 *                  (default: v6.5, file_count > 1 || ->iterate_shared)
 *   NTHIEVES       thief processes (default 3, at most 250)
 *   NCALLS         getdents64 calls per process (default 3)
 *   NPER           entries asked for per call (default 2)
 *   NENT           entries in /d including . and .. (default 32)
 *   PIDFD_OPENED   thieves start with their pidfd already open (as when the
 *                  vfsim script runs pidfd_open without '&'); by default
 *                  pidfd_open is a pending call too, one step.
 */

#ifndef NTHIEVES
#define NTHIEVES 3
#endif
#ifndef NCALLS
#define NCALLS 3
#endif
#ifndef NPER
#define NPER 2
#endif
#ifndef NENT
#define NENT 32
#endif

/* ext4 directories have ->iterate_shared */
#define ITERATE_SHARED 1

#ifdef V64
/* v3.14 .. v6.4: FMODE_ATOMIC_POS && file_count(file) > 1 */
#define NEEDS_F_POS_LOCK  (f_count > 1)
#else
/* 7d84d1b9af63 (v6.5): file_count(file) > 1 || file->f_op->iterate_shared */
#define NEEDS_F_POS_LOCK  (f_count > 1 || ITERATE_SHARED)
#endif

/* ---- the one open directory: struct file and its inode ---------------- */
byte f_count = 1;          /* A's fd 3 is the only reference             */
byte f_pos = 0;            /* file->f_pos                                */
byte f_pos_lock = 0;       /* mutex: 0 free, else holder's _pid + 1      */
byte i_rwsem_readers = 0;  /* inode->i_rwsem, readers only here          */
byte delivered[NENT];      /* per entry: times handed out in this pass   */

/*
 * One getdents64(fd, NPER) call.  `i' counts the calls already made; its
 * guard is folded into the first step so that loop control adds no step.
 * Locals ctx and locked are cleared at the step after their last use, as
 * vfsim's world forgets a finished call's frame (no spurious states).
 */
inline getdents64()
{
	/* fdget_pos: __fget_light, files->count == 1, so no reference */
	d_step { i < NCALLS; assert(have_fd) };

	/* file_needs_f_pos_lock, then mutex_lock only if it said yes */
	if
	:: d_step { NEEDS_F_POS_LOCK -> locked = 1 };
	   d_step { f_pos_lock == 0 -> f_pos_lock = _pid + 1 }
	:: d_step { !(NEEDS_F_POS_LOCK) -> locked = 0 }
	fi;

	/* iterate_dir: down_read_killable(&inode->i_rwsem), never contended */
	d_step { i_rwsem_readers++ };

	/* ctx->pos = file->f_pos */
	d_step { ctx = f_pos };

	/* ext4_readdir: dir_emit up to NPER entries starting at ctx->pos */
	d_step {
		n = 0;
		do
		:: n < NPER && ctx < NENT ->
			delivered[ctx]++;
			assert(delivered[ctx] <= 1);	/* each entry at most once */
			ctx++;
			n++
		:: else -> break
		od;
		n = 0
	};

	/* file->f_pos = ctx->pos */
	d_step { f_pos = ctx; ctx = 0 };

	/* up_read(&inode->i_rwsem) */
	d_step { i_rwsem_readers-- };

	/* fdput_pos: mutex_unlock if FDPUT_POS_UNLOCK; no reference to drop */
	d_step {
		if
		:: locked -> assert(f_pos_lock == _pid + 1); f_pos_lock = 0
		:: else -> skip
		fi;
		locked = 0;
		i++
	}
}

active proctype owner()		/* process A, fd 3 */
{
	byte i = 0, ctx = 0, n = 0;
	bit locked = 0;
	bit have_fd = 1;

	do
	:: getdents64()
	:: i >= NCALLS -> break
	od
}

active [NTHIEVES] proctype thief()	/* processes B, C, D, ... */
{
	byte i = 0, ctx = 0, n = 0;
	bit locked = 0;
	bit have_fd = 0;
#ifdef PIDFD_OPENED
	bit have_pidfd = 1;
#else
	bit have_pidfd = 0;

	/* pidfd_open(A, 0): an fd in this process's own table */
	have_pidfd = 1;
#endif

	/* pidfd_getfd(pidfd, 3, 0): fget_task takes a real reference */
	d_step { assert(have_pidfd); f_count++ };
	/* receive_fd: install it at the lowest free fd (O_CLOEXEC) */
	have_fd = 1;

	do
	:: getdents64()
	:: i >= NCALLS -> break
	od
}
