/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * world_copy.c - the world copied as one value: what `back`, `compare`,
 * the shell's undo and every explorer's successor state are made from.
 * Only the slots in use are copied; the string table's copy stays with
 * the table in world.c.
 */
#include <stdlib.h>
#include "internal.h"
#include "grow.h"

bool vfs_world_copy(struct vfs_world *d, const struct vfs_world *s)
{
	if (d == s)
		return true;
	/* (the room first: out of memory, D stays the world it was) */
	if (!world_tasks_room(d, s)) {
		d->oom = 1;
		return false;
	}
	/* (d's own tables stay: they are after det, out of the memcpy;
	 * its inode data references are dropped by world_copy_objects) */
	memcpy(d, s, offsetof(struct vfs_world, det));
	bool dok = detect_copy(&d->det, &s->det, s->nthreads);
	memcpy(d->call_started, s->call_started, sizeof d->call_started);
	if (s->nprocs)
		memcpy(d->procs, s->procs, sizeof d->procs[0] * (size_t)s->nprocs);
	if (s->nthreads)
		memcpy(d->threads, s->threads, sizeof d->threads[0] * (size_t)s->nthreads);
	memcpy(d->sbs, s->sbs, sizeof d->sbs[0] * (size_t)s->nsb);
	if (d->kdefs != s->kdefs) {     /* (shared: no step changes it) */
		kdefs_get(s->kdefs);
		kdefs_put(d->kdefs);
		d->kdefs = s->kdefs;
	}
	bool ok = dok && world_copy_objects(d, s) && world_copy_strings(d, s) &&
		  ufield_copy(d, s) &&
		  world_grow((void **)&d->retired, &d->retired_cap, s->nretired,
			     sizeof *d->retired);
	if (ok && s->nretired)
		memcpy(d->retired, s->retired, sizeof *d->retired * (size_t)s->nretired);
	d->nretired = ok ? s->nretired : 0;
	for (int t = 0; t < s->nthreads && ok; t++) {
		int32_t n = s->threads[t].rec.nent;
		if (!n)
			continue;
		if (!s->rec_ent[t].v || s->rec_ent[t].cap < n) {
			d->threads[t].rec.nent = 0;     /* (an explorer's copy) */
			continue;
		}
		ok = world_grow((void **)&d->rec_ent[t].v, &d->rec_ent[t].cap, n,
				sizeof *d->rec_ent[t].v);
		if (ok)
			memcpy(d->rec_ent[t].v, s->rec_ent[t].v,
			       sizeof *d->rec_ent[t].v * (size_t)n);
	}
	if (!ok) {
		/* (a world that can still be freed, and says what it lost) */
		d->oom = 1;
		for (int t = 0; t < d->nthreads; t++)
			if (d->rec_ent[t].cap < d->threads[t].rec.nent)
				d->threads[t].rec.nent = 0;
	}
	return ok;
}

struct vfs_world *vfs_world_dup(const struct vfs_world *s)
{
	struct vfs_world *w = calloc(1, sizeof *w);
	if (w && !vfs_world_copy(w, s)) {
		vfs_world_free(w);
		return NULL;
	}
	return w;
}

/* Files and fd tables: only the slots in use, and of those only the
 * ones FILES and FDTS name (marked_range: the others are S's in D already);
 * false: out of memory. */
static inline __attribute__((always_inline)) bool
copy_files(struct vfs_world *d, const struct vfs_world *s, uint32_t files,
	   uint32_t fdts)
{
	if (!world_grow((void **)&d->files, &d->files_cap, s->nfiles,
			sizeof *d->files) ||
	    !world_grow((void **)&d->fdt, &d->fdt_cap, s->nfdt, sizeof *d->fdt)) {
		d->nfiles = d->nfdt = 0;
		return false;
	}
	d->nfiles = s->nfiles;
	d->nfdt = s->nfdt;
	if (files == UINT32_MAX) {
		if (s->nfiles)
			memcpy(d->files, s->files, sizeof d->files[0] * (size_t)s->nfiles);
	} else {
		for (int i, end; marked_range(&files, s->nfiles, &i, &end); )
			memcpy(&d->files[i], &s->files[i], sizeof d->files[0] *
			       (size_t)(end - i));
	}
	/* (most tables hold a few descriptors: their head is copied whole,
	 * a constant size, without a call; the slots past nfds are never
	 * read) */
	enum { HEAD = 32 };
	_Static_assert(sizeof(struct vfs_fdtable) >= HEAD, "an fd table's head");
	for (int i, end; marked_range(&fdts, s->nfdt, &i, &end); ) {
		for (; i < end; i++) {
			struct vfs_fdtable *dt = &d->fdt[i];
			const struct vfs_fdtable *st = &s->fdt[i];
			if (offsetof(struct vfs_fdtable, fd) + sizeof st->fd[0] *
			    (size_t)st->nfds <= HEAD) {
				memcpy(dt, st, HEAD);
				continue;
			}
			dt->count = st->count;
			dt->nfds = st->nfds;
			memcpy(dt->fd, st->fd, sizeof st->fd[0] * (size_t)st->nfds);
		}
	}
	return true;
}

bool world_copy_files(struct vfs_world *d, const struct vfs_world *s)
{
	return copy_files(d, s, UINT32_MAX, UINT32_MAX);
}

/* The inode locks: every slot's, copied (inline: the stateful search
 * copies them per successor that took or let go one, through
 * world_copy_objects_some). */
static inline __attribute__((always_inline)) bool
copy_ilocks(struct vfs_world *d, const struct vfs_world *s)
{
	if (!world_grow((void **)&d->ilocks, &d->ilocks_cap, s->ninodes,
			sizeof *d->ilocks))
		return false;
	if (s->ninodes)
		memcpy(d->ilocks, s->ilocks, sizeof *d->ilocks * (size_t)s->ninodes);
	if (s->ndlocks && !world_grow((void **)&d->dlocks, &d->dlocks_cap, s->ndlocks,
				      sizeof *d->dlocks))
		return false;
	if (s->ndlocks)
		memcpy(d->dlocks, s->dlocks, sizeof *d->dlocks * (size_t)s->ndlocks);
	d->ndlocks = s->ndlocks;
	return true;
}

bool world_copy_ilocks(struct vfs_world *d, const struct vfs_world *s)
{
	return copy_ilocks(d, s);
}

bool world_copy_objects_some(struct vfs_world *d, const struct vfs_world *s,
			     uint32_t files, uint32_t fdts, bool ilocks)
{
	if (d->itab != s->itab) {
		itab_get(s->itab);
		itab_put(d->itab);
		d->itab = s->itab;
		d->inodes = s->inodes;
	}
	d->ninodes = s->ninodes;
	if (ilocks && !copy_ilocks(d, s)) {
		d->ninodes = 0;
		return false;
	}
	return copy_files(d, s, files, fdts);
}

/* Files, inodes and fd tables: the inode table (and its dentry hash) is
 * shared, the rest copied as far as it is used.  False when out of
 * memory (D can still be freed). */
bool world_copy_objects(struct vfs_world *d, const struct vfs_world *s)
{
	return world_copy_objects_some(d, s, UINT32_MAX, UINT32_MAX, true);
}
