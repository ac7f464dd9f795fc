/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * footprint.c - the locations a trace event touches, for every consumer.
 *
 * One function (vfs_footprint) says which locations an event touches: a
 * lock, a field of an object, the duplicate detector's pass of an open
 * directory; read or written.  One table (vfs_loc_use) says how each
 * consumer treats each reason an event touches a location:
 *
 *   race      core/race.c, the vector-clock race detector
 *   dpor      core/explore_search.c xsink, the dependencies of DPOR
 *   movers    core/explore_movers.c ev_keys, the locking discipline the
 *             stateful search guesses and checks (its blocks)
 *   stateful  core/explore_stateful.c, its race check between enabled steps
 *
 * The differences are deliberate (each is noted in the table):
 *   - every lock operation is a write for DPOR (two acquisitions of a read
 *     lock do not commute for the wait queues it models), while the movers
 *     treat a read acquisition as a read; blocking and waking make a step
 *     visible to the movers, and a conflict for DPOR;
 *   - except the read side of a process's exec_update_lock (v5.11+,
 *     pidfd_getfd's down_read_killable and up_read): nothing in the model
 *     takes it for writing (exec is not modelled), so no reader ever
 *     waits and two readers' operations commute, for DPOR too.  The
 *     mutexes of older eras (cred_guard_mutex, exec_update_mutex) stay
 *     writes; a modelled exec's down_write would be a write as well;
 *   - DPOR does not see the reads of a directory that the duplicate and
 *     dead-directory checks make when an entry is handed out or an iterator
 *     is entered: the iterator read the directory (a field access) under
 *     its lock in the same call, which orders it already;
 *   - the race detector and the stateful search check only some accesses
 *     (vfs_access_checked): not atomic counters, the fd table (RCU and
 *     files->file_lock, not modelled), f_count, reads of file data and
 *     size (the page cache orders them), nor the lockless path walk (RCU,
 *     validated by d_seq: race.c orders it after the changes it saw);
 *   - allocations (a new file, inode, process, fd table) are not events:
 *     DPOR finds them by comparing the world's counters around a step
 *     (explore_search.c KALLOC); the others need not (an allocation is
 *     made under the locks that order its use).
 */
#include "internal.h"
#include "footprint.h"

const char *const vfs_consumer_names[VC__COUNT] = {
	"race", "dpor", "movers", "stateful",
};

/*                               race        dpor        movers      stateful */
const uint8_t vfs_loc_use[LW__COUNT][VC__COUNT] = {
	[LW_LOCK_OP]      = { LU_OWN,     LU_WRITE,   LU_AS_IS,   LU_IGNORE },
	[LW_LOCK_WAIT]    = { LU_OWN,     LU_WRITE,   LU_VISIBLE, LU_IGNORE },
	[LW_LOCK_SHARED]  = { LU_OWN,     LU_AS_IS,   LU_AS_IS,   LU_IGNORE },
	[LW_ACCESS]       = { LU_CHECKED, LU_AS_IS,   LU_AS_IS,   LU_CHECKED },
	[LW_RCU_WALK]     = { LU_OWN,     LU_AS_IS,   LU_AS_IS,   LU_IGNORE },
	[LW_SEEK_PASS]    = { LU_OWN,     LU_AS_IS,   LU_AS_IS,   LU_IGNORE },
	[LW_EMIT_PASS]    = { LU_OWN,     LU_AS_IS,   LU_AS_IS,   LU_IGNORE },
	[LW_EMIT_DIR]     = { LU_OWN,     LU_IGNORE,  LU_AS_IS,   LU_IGNORE },
	[LW_DEADCHECK]    = { LU_OWN,     LU_IGNORE,  LU_AS_IS,   LU_IGNORE },
	[LW_SPAWN]        = { LU_OWN,     LU_IGNORE,  LU_VISIBLE, LU_IGNORE },
};

bool vfs_access_checked(const struct vfs_event *ev)
{
	if (ev->atomic || ev->rcu || ev->field == FLD_FDTABLE ||
	    ev->field == FLD_F_COUNT)
		return false;
	/* (model) reads of file data race benignly with writers: the page
	 * cache's own locks order them; only writers are checked */
	return ev->op == OP_WRITE || (ev->field != FLD_DATA && ev->field != FLD_SIZE);
}
