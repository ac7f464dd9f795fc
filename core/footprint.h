/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * footprint.h - vfs_footprint(), the locations a trace event touches (see
 * core/footprint.c for the consumers' table and their differences).
 * Inline, always: DPOR and the movers ask it for every event of every
 * step.
 */
#ifndef VFSIM_FOOTPRINT_H
#define VFSIM_FOOTPRINT_H

#include "vfsim.h"

static inline void field_loc_(struct vfs_loc *l, int why, int field, int objkind,
		      int obj, bool write)
{
	*l = (struct vfs_loc){ .kind = LOC_FIELD, .why = (uint8_t)why,
		.write = write, .field = (uint8_t)field, .objkind = (uint8_t)objkind,
		.obj = obj };
}

static inline void pass_loc_(struct vfs_loc *l, int why, int file)
{
	*l = (struct vfs_loc){ .kind = LOC_PASS, .why = (uint8_t)why, .write = 1,
		.objkind = VOK_FILE, .obj = file };
}

static inline __attribute__((always_inline)) int
vfs_footprint(const struct vfs_event *ev, struct vfs_loc loc[VFS_FOOTPRINT_MAX])
{
	switch (ev->op) {
	case OP_ACQUIRE: case OP_RELEASE:
		/* exec_update_lock is only ever read-held: reads commute
		 * (footprint.c) */
		if (VFS_LID_KIND(ev->lock) == LID_EXEC && ev->mode == M_READ) {
			loc[0] = (struct vfs_loc){ .kind = LOC_LOCK,
				.why = LW_LOCK_SHARED, .write = 0,
				.lock = ev->lock, .objkind = ev->objkind,
				.obj = ev->obj };
			return 1;
		}
		/* fall through */
	case OP_DOWNGRADE: case OP_BLOCK: case OP_WAKE: case OP_FAIL:
		/* (a failed trylock read what any lock operation changes) */
		loc[0] = (struct vfs_loc){ .kind = LOC_LOCK,
			.why = ev->op == OP_BLOCK || ev->op == OP_WAKE ?
			       LW_LOCK_WAIT : LW_LOCK_OP,
			.write = ev->op == OP_DOWNGRADE || ev->op == OP_FAIL ||
				 (ev->op == OP_ACQUIRE && ev->mode != M_READ),
			.lock = ev->lock, .objkind = ev->objkind, .obj = ev->obj };
		return 1;
	case OP_READ: case OP_WRITE:
		field_loc_(&loc[0], ev->rcu ? LW_RCU_WALK : LW_ACCESS, ev->field,
			  ev->objkind, ev->obj, ev->op == OP_WRITE);
		loc[0].akind = ev->akind;       /* (the kind: xkey_commute) */
		/* a seek starts a new pass of the duplicate detector */
		if (ev->op == OP_WRITE && ev->field == FLD_F_POS &&
		    ev->objkind == VOK_FILE) {
			pass_loc_(&loc[1], LW_SEEK_PASS, ev->obj);
			return 2;
		}
		return 1;
	case OP_EMIT:
		/* the pass's record of who got what; the skipped check reads
		 * the directory's children */
		if (ev->file < 0 || ev->dir < 0)
			return -1;
		pass_loc_(&loc[0], LW_EMIT_PASS, ev->file);
		field_loc_(&loc[1], LW_EMIT_DIR, FLD_DIR, VOK_INODE, ev->dir, false);
		return 2;
	case OP_ENTER:
		/* the dead-directory check reads the inode's S_DEAD */
		if (!vfs_fn_is_iterator(ev->fn))
			return 0;
		if (ev->dir < 0)
			return -1;
		field_loc_(&loc[0], LW_DEADCHECK, FLD_DIR, VOK_INODE, ev->dir, false);
		return 1;
	case OP_NOTE:
		if (ev->fn != VFN_copy_process)
			return 0;
		loc[0] = (struct vfs_loc){ .kind = LOC_ALLOC, .why = LW_SPAWN,
			.write = 1, .objkind = VOK_GLOBAL };
		return 1;
	default:
		return 0;
	}
}

#endif
