/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kinds.c - the detector kinds as rows (enum vfs_kind, core/vfs_detect.h):
 * each kind's word, its heading in `reports`, its words in `expect`'s
 * messages, the mark the pictures draw for it, and whether the explorers
 * stop at it by default.  The reports, the explorers, the pictures,
 * `reports`, `expect` and `explore` read these rows; `vfsim --tables`
 * prints them and tests/cli/tables.sh checks the shell's lists against
 * them.
 */

#include "rows.h"
#include "vfs_detect.h"

const struct vfs_kind_desc vfs_kinds[DK__COUNT] = {
	[DK_DUPLICATE] = { "duplicate", "duplicate", "duplicate entry",
			   "duplicate", true },
	[DK_RACE]      = { "race", "race", "race", "race", true },
	[DK_DEADDIR]   = { "deaddir", "dead directory",
			   "iteration of a dead directory", "deaddir", true },
	[DK_DEADLOCK]  = { "deadlock", "deadlock", "deadlock", "deadlock", true },
	/* a pass that misses an entry is what POSIX allows when the
	 * directory changes: reported, not a violation unless asked */
	[DK_SKIPPED]   = { "skipped", "skipped", "skipped entry", "skipped",
			   false },
	/* lockdep's warning: an order that could deadlock, not one */
	[DK_LOCKORDER] = { "lockorder", "lock order", "lock-order problem",
			   "lockorder", false },
	/* the script's own order: drawn as lockdep's */
	[DK_RULE]      = { "rule", "rule", "broken rule", "lockorder", true },
	[DK_OVERFLOW]  = { "overflow", "overflow", "a detector's table filled",
			   NULL, false },
};

const char *vfs_kind_name(int kind)
{
	return kind >= 0 && kind < DK__COUNT ? vfs_kinds[kind].name : "?";
}

int vfs_kind_lookup(const char *name)
{
	return ROW_LOOKUP(vfs_kinds, DK__COUNT, name, name);
}

uint32_t vfs_kind_violations(void)
{
	uint32_t m = 0;
	for (int k = 0; k < DK__COUNT; k++)
		if (vfs_kinds[k].violation)
			m |= DK_BIT(k);
	return m;
}
