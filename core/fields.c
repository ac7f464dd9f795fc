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
 * difference from the initial value (its row of the world's ufv table,
 * zero when made), so every file or inode starts at it, those made before
 * the declaration too.  The rows are out of the objects and the frame:
 * a world that declares none copies, hashes and compares nothing more.
 */
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

#define UFIELD_NAMES 240
_Static_assert(FLD__COUNT + UFIELD_NAMES <= 255, "a field id is a uint8_t");
_Static_assert(UFIELD_NAMES >= VFS_MAX_UFIELDS, "a world's fields have names");
_Static_assert(UFV__COUNT == sizeof ((struct vfs_world *)0)->ufv /
	       sizeof ((struct vfs_world *)0)->ufv[0], "a table per UFV_*");
static char names_v[UFIELD_NAMES][VFS_KFN_NAME_MAX];
struct name_tab ufield_names = { 0, UFIELD_NAMES, FLD__COUNT, names_v };

/* ---- the values: a row per file, inode and call, nufields wide ---- */

/* TAB with at least ROWS rows of WIDTH values, the new ones zero */
static bool ufv_grow(struct vfs_ufvals *t, int rows, int width)
{
	if (rows <= t->rows)
		return true;
	if (rows > t->cap) {
		int cap = t->cap ? t->cap : 4;
		while (cap < rows)
			cap *= 2;
		int64_t *v = realloc(t->v, sizeof *v * (size_t)cap * (size_t)width);
		if (!v)
			return false;
		t->v = v;
		t->cap = cap;
	}
	memset(t->v + (size_t)t->rows * (size_t)width, 0,
	       sizeof *t->v * (size_t)(rows - t->rows) * (size_t)width);
	t->rows = rows;
	return true;
}

const int64_t *ufield_row(const struct vfs_world *w, int tab, int i)
{
	int n = vfs_nufields(w);
	return n && i >= 0 && i < w->ufv[tab].rows ? w->ufv[tab].v + (size_t)i * (size_t)n : NULL;
}

static int64_t *row_mut(struct vfs_world *w, int tab, int i)
{
	int n = vfs_nufields(w);
	if (tab == UFV_FILE)    /* (a file's row: its component) */
		file_touch(w, i);
	if (!n || i < 0 || !ufv_grow(&w->ufv[tab], i + 1, n)) {
		if (n)
			w->oom = 1;
		return NULL;
	}
	return w->ufv[tab].v + (size_t)i * (size_t)n;
}

void ufield_made(struct vfs_world *w, int tab, int i)
{
	int n = ufields_n(w);
	int64_t *r = n ? row_mut(w, tab, i) : NULL;      /* (hot: none declared) */
	if (r)
		memset(r, 0, sizeof *r * (size_t)n);
}

void ufield_set(struct vfs_world *w, int slot, int obj, int64_t v)
{
	const struct vfs_ufield *u = vfs_ufield_get(w, slot);
	int64_t *r = u ? row_mut(w, u->obj, obj) : NULL;
	if (r)
		r[slot] = (int64_t)((uint64_t)v - (uint64_t)u->init);
}

int64_t ufield_kval(const struct vfs_world *w, int tid, int slot)
{
	const int64_t *r = ufield_row(w, UFV_CALL, tid);
	return r ? r[slot] : 0;
}

void ufield_kval_set(struct vfs_world *w, int tid, int slot, int64_t v)
{
	int64_t *r = row_mut(w, UFV_CALL, tid);
	if (r)
		r[slot] = v;
}

bool ufield_copy_rows(struct vfs_world *d, const struct vfs_world *s)
{
	int n = ufields_n(s);
	for (int tab = 0; tab < UFV__COUNT; tab++) {
		d->ufv[tab].rows = 0;
		if (!n || !s->ufv[tab].rows)
			continue;
		if (!ufv_grow(&d->ufv[tab], s->ufv[tab].rows, n))
			return false;
		memcpy(d->ufv[tab].v, s->ufv[tab].v,
		       sizeof *d->ufv[tab].v * (size_t)s->ufv[tab].rows * (size_t)n);
	}
	return true;
}

void ufield_free(struct vfs_world *w)
{
	for (int tab = 0; tab < UFV__COUNT; tab++) {
		free(w->ufv[tab].v);
		w->ufv[tab] = (struct vfs_ufvals){ 0 };
	}
}

/* Every row one value wider (the field declared as slot N of N + 1): the
 * rows of the objects and threads there are, the new value zero. */
static bool ufv_widen(struct vfs_world *w, int n)
{
	int rows[UFV__COUNT] = { w->nfiles, w->ninodes, w->nthreads };
	struct vfs_ufvals nt[UFV__COUNT] = { { 0 } };
	for (int tab = 0; tab < UFV__COUNT; tab++) {
		int keep = n ? w->ufv[tab].rows : 0;
		if (!ufv_grow(&nt[tab], rows[tab] > keep ? rows[tab] : keep, n + 1)) {
			for (int i = 0; i <= tab; i++)
				free(nt[i].v);
			return false;   /* (the world as it was) */
		}
		for (int i = 0; i < keep; i++)
			memcpy(nt[tab].v + (size_t)i * (size_t)(n + 1),
			       w->ufv[tab].v + (size_t)i * (size_t)n, sizeof *nt[tab].v * (size_t)n);
	}
	ufield_free(w);
	memcpy(w->ufv, nt, sizeof nt);
	return true;
}

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
	const int64_t *r = ufield_row(w, u->obj, obj);
	return (int64_t)((uint64_t)u->init + (uint64_t)(r ? r[slot] : 0));
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
	if (!k || !ufv_widen(w, k->nufields)) {
		snprintf(err, nerr, "out of memory");
		return -VE_NOMEM;
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
