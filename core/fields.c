/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fields.c - the fields a script declares (`field NAME of file|inode
 * [= N]`, cli/cmd_define.c): a counter or flag of its locking idea that the
 * kernel's struct file or struct inode does not have, read and written by
 * defined steps (core/defined.c) as f_pos is, so that races, the rules
 * (`rule write NAME under LOCK`), the explorers' footprints and the
 * stateful search's states (explore_state.c) see it.
 *
 * A name gets a field id after the built-in FLD_* (process-wide, as
 * defined functions' names get kernel function ids: events carry a field
 * as a byte, and a world's copies, explore's workers and `compare`'s
 * replays see the same id); the world's declaration, in w->kdefs, says
 * which objects have it and its initial value.  An object keeps the
 * difference from the initial value (u[slot], zero when made), so every
 * file or inode starts at it, those made before the declaration too.
 */
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

#define UFIELD_NAMES 32
_Static_assert(FLD__COUNT + UFIELD_NAMES <= 255, "a field id is a uint8_t");
_Static_assert(sizeof ((struct vfs_frame *)0)->kfn.kval / sizeof (int64_t) ==
	       FLD__COUNT + VFS_MAX_UFIELDS, "a defined call keeps the value last "
	       "read of each field, the declared ones too");
static char names_v[UFIELD_NAMES][VFS_KFN_NAME_MAX];
struct name_tab ufield_names = { 0, UFIELD_NAMES, FLD__COUNT, names_v };

int vfs_nufields(const struct vfs_world *w)
{
	return w->kdefs ? w->kdefs->nufields : 0;
}

const struct vfs_ufield *vfs_ufield_get(const struct vfs_world *w, int slot)
{
	return slot >= 0 && slot < vfs_nufields(w) ? &w->kdefs->ufields[slot] : NULL;
}

int vfs_ufield_slot(const struct vfs_world *w, int fld)
{
	if (fld < FLD__COUNT)
		return -1;
	for (int i = 0; i < vfs_nufields(w); i++)
		if (w->kdefs->ufields[i].fld == fld)
			return i;
	return -1;
}

int64_t vfs_ufield_value(const struct vfs_world *w, int slot, int obj)
{
	const struct vfs_ufield *u = vfs_ufield_get(w, slot);
	if (!u)
		return 0;
	uint64_t d = (uint64_t)(u->obj == KO_FILE ? w->files[obj].u[slot] :
				w->inodes[obj].u[slot]);
	return (int64_t)((uint64_t)u->init + d);
}

int vfs_ufield_declare(struct vfs_world *w, const char *name, int obj,
		       int64_t init, char *err, size_t nerr)
{
	int fld = vfs_field_lookup(name);
	if (!vfs_valid_name(name) || strlen(name) >= VFS_KFN_PARAM_MAX) {
		snprintf(err, nerr, "'%s' is no field name ([A-Za-z][A-Za-z0-9_]*, "
			 "at most %d characters)", name, VFS_KFN_PARAM_MAX - 1);
		return -1;
	}
	if (fld != FLD_NONE && fld < FLD__COUNT) {
		snprintf(err, nerr, "%s is a field of the kernel's already", name);
		return -1;
	}
	if (!strcmp(name, "ret") || vfs_errno_lookup(name)) {
		snprintf(err, nerr, "%s is a word of a step's value (%s)", name,
			 name[0] == 'r' ? "the last call's return" : "an errno");
		return -1;
	}
	if (vfs_ufield_slot(w, fld) >= 0) {
		const struct vfs_ufield *u = vfs_ufield_get(w, vfs_ufield_slot(w, fld));
		snprintf(err, nerr, "%s is declared already (of %s, = %lld)", name,
			 vfs_kobj_names[u->obj], (long long)u->init);
		return -1;
	}
	if (vfs_nufields(w) >= VFS_MAX_UFIELDS) {
		snprintf(err, nerr, "too many fields (at most %d)", VFS_MAX_UFIELDS);
		return -1;
	}
	fld = name_tab_intern(&ufield_names, name);
	if (fld < 0) {
		snprintf(err, nerr, "too many field names in this run (at most %d)",
			 UFIELD_NAMES);
		return -1;
	}
	struct vfs_kdefs *k = kdefs_mut(w);
	if (!k) {
		snprintf(err, nerr, "out of memory");
		return -1;
	}
	k->ufields[k->nufields] = (struct vfs_ufield){ (uint8_t)fld, (uint8_t)obj, init };
	return k->nufields++;
}

int64_t ufield_read(struct vx *x, int fn, int fld, int file, int ino)
{
	int slot = vfs_ufield_slot(x->w, fld);
	if (slot < 0)
		return 0;
	bool of_file = x->w->kdefs->ufields[slot].obj == KO_FILE;
	int obj = of_file ? file : ino;
	if (obj < 0)
		return 0;
	int64_t v = vfs_ufield_value(x->w, slot, obj);
	if (of_file)
		access_file(x, fn, fld, obj, v, false, false);
	else
		access_inode(x, fn, fld, obj, v, false);
	return v;
}
