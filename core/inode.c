/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * inode.c - inodes and their names, as fs/inode.c and fs/dcache.c keep
 * them: slots made by new_inode, linked into a directory (d_add), found by
 * name through a hash (d_lookup), unlinked, and evicted (iput_final) once
 * no name, open file or call in progress refers to them, so a slot is
 * reused under a new i_ino.  File data lives here too: a copy-on-write
 * buffer that world copies share.
 */
#include <stdlib.h>
#include "internal.h"

/* ---- the table: shared by world copies, copied on the first change ---- */

static size_t itab_size(int32_t cap)
{
	return sizeof(struct vfs_itab) + sizeof(struct vfs_inode) * (size_t)cap;
}

void itab_get(struct vfs_itab *t)
{
	if (t)
		__atomic_add_fetch(&t->refs, 1, __ATOMIC_RELAXED);
}

void itab_put(struct vfs_itab *t)
{
	if (!t || __atomic_sub_fetch(&t->refs, 1, __ATOMIC_ACQ_REL))
		return;
	for (int i = 0; i < t->n; i++)
		data_put(t->v[i].data);
	free(t->d_hash);
	free(t);
}

/* W's own table with room for CAP slots and at least as many hash
 * buckets: a copy when it is shared, a larger one when it is full. */
static int itab_own(struct vfs_world *w, int32_t cap)
{
	struct vfs_itab *t = w->itab;
	bool shared = t && __atomic_load_n(&t->refs, __ATOMIC_ACQUIRE) > 1;
	if (t && !shared && t->cap >= cap)
		return 0;
	int32_t n = t ? t->n : 0, c = t && t->cap > cap ? t->cap : cap;
	if (c < 16)
		c = 16;
	while (c < cap)
		c *= 2;
	struct vfs_itab *nt;
	if (t && !shared) {
		if (!(nt = realloc(t, itab_size(c))))
			return -VE_NOMEM;
	} else {
		if (!(nt = malloc(itab_size(c))))
			return -VE_NOMEM;
		nt->refs = 1;
		nt->n = n;
		nt->d_hash = NULL;
		nt->d_hash_mask = 0;
		if (t) {
			uint32_t nb = t->d_hash_mask + 1;
			if (t->d_hash && !(nt->d_hash = malloc(sizeof *nt->d_hash * nb))) {
				free(nt);
				return -VE_NOMEM;
			}
			if (t->d_hash) {
				memcpy(nt->d_hash, t->d_hash, sizeof *nt->d_hash * nb);
				nt->d_hash_mask = t->d_hash_mask;
			}
			memcpy(nt->v, t->v, sizeof *nt->v * (size_t)n);
			for (int i = 0; i < n; i++)
				data_get(nt->v[i].data);
			itab_put(t);
		}
	}
	nt->cap = c;
	w->itab = nt;
	w->inodes = nt->v;
	return 0;
}

struct vfs_inode *inode_mut(struct vfs_world *w, int i)
{
	struct vfs_itab *t = w->itab;
	if (__atomic_load_n(&t->refs, __ATOMIC_ACQUIRE) > 1 &&
	    itab_own(w, t->cap) < 0) {
		/* (out of memory: the world says so, and changes a scratch
		 * inode instead of one another world shares) */
		static _Thread_local struct vfs_inode scratch;
		w->oom = 1;
		return &scratch;
	}
	return &w->itab->v[i];
}

/* ---- the dentry hash: (parent, name) -> inode slot ---- */

static uint32_t d_hash(int parent, const char *name)
{
	uint32_t h = 2166136261u ^ (uint32_t)parent * 0x9e3779b1u;
	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		h = (h ^ *s) * 16777619u;
	return h ^ h >> 15;
}

static int32_t *d_bucket(const struct vfs_itab *t, int parent, const char *name)
{
	return &t->d_hash[d_hash(parent, name) & t->d_hash_mask];
}

/* (the table is W's own: callers made it so) */
static void d_hash_add(struct vfs_world *w, int i)
{
	struct vfs_itab *t = w->itab;
	int32_t *b = d_bucket(t, t->v[i].parent, t->v[i].name);
	t->v[i].hash_next = *b;
	*b = i;
}

static void d_hash_del(struct vfs_world *w, int i)
{
	struct vfs_itab *t = w->itab;
	int32_t *b = d_bucket(t, t->v[i].parent, t->v[i].name);
	while (*b >= 0 && *b != i)
		b = &t->v[*b].hash_next;
	if (*b == i)
		*b = t->v[i].hash_next;
	t->v[i].hash_next = -1;
}

/* Buckets for at least N names: a power of two, rebuilt from the tree. */
static int d_hash_resize(struct vfs_world *w, int32_t n)
{
	struct vfs_itab *t = w->itab;
	uint32_t size = 64;
	while (size < (uint32_t)n)
		size <<= 1;
	if (t->d_hash && size <= t->d_hash_mask + 1)
		return 0;
	int32_t *b = malloc(sizeof *b * size);
	if (!b)
		return -VE_NOMEM;
	free(t->d_hash);
	t->d_hash = b;
	t->d_hash_mask = size - 1;
	memset(b, 0xff, sizeof *b * size);
	for (int i = 0; i < t->n; i++) {
		struct vfs_inode *in = &t->v[i];
		in->hash_next = -1;
		if (!in->freed && in->parent >= 0 && !in->unlinked)
			d_hash_add(w, i);
	}
	return 0;
}

int inode_child(const struct vfs_world *w, int dir, const char *name)
{
	const struct vfs_itab *t = w->itab;
	if (!t || !t->d_hash)
		return -1;
	for (int c = *d_bucket(t, dir, name); c >= 0; c = t->v[c].hash_next)
		if (t->v[c].parent == dir && !strcmp(t->v[c].name, name))
			return c;
	return -1;
}

/* ---- slots ---- */

static void inode_clear(struct vfs_inode *ino)
{
	memset(ino, 0, sizeof *ino);
	ino->parent = ino->first_child = ino->last_child = -1;
	ino->next_sibling = ino->prev_sibling = ino->hash_next = -1;
	ino->next_off = 2;
}

/* A table's first room: 16 elements, or just NEED of an element larger
 * than a line.  Every copy of a world a search makes (its levels, the
 * probe's checkpoints, the shortest search's) allocates its own tables:
 * an fd table is 2 KB (its VFS_NR_OPEN slots), a race detector's shadow
 * about 1 KB, a pass 1.3 KB, and 16 of each were most of what a search
 * touched.  Plain explore on the pidfd thieves, 4x4 v6.5: 42 MB resident
 * at most with 16, 31 MB with NEED; on this project's guests a page
 * touched for the first time is paid again after another process gave
 * memory back (the host backs it anew), and the 4x4 proof run after one
 * that freed 900 MB took 171 ms with 16, 147 ms with NEED (median of 5;
 * 3x3 41 -> 34 ms).  A table that grows later doubles from there. */
bool world_grow_slow(void **p, int32_t *cap, int32_t need, size_t elem)
{
	int64_t n = *cap ? *cap : elem > 64 ? need : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, elem * (size_t)n);
	if (!q)
		return false;
	*p = q;
	*cap = (int32_t)n;
	return true;
}

/* world_grow, the new room zeroed (a table whose slots a copy of a
 * world fills in part, a thread's say: the rest must be as calloc made
 * it, as an array in the world was). */
bool world_grow_zeroed(void **p, int32_t *cap, int32_t need, size_t elem)
{
	int32_t old = *cap;
	if (need <= old)
		return true;
	if (!world_grow_slow(p, cap, need, elem))
		return false;
	memset((char *)*p + elem * (size_t)old, 0, elem * (size_t)(*cap - old));
	return true;
}

/* new_inode: a free slot (evicted before) or a new one, with a new i_ino. */
int inode_new(struct vfs_world *w, int type)
{
	int i, n = w->ninodes;
	if (w->free_inode < 0 && n >= VFS_MAX_INODES)
		return -VE_NOSPC;
	if (itab_own(w, w->free_inode >= 0 ? n : n + 1) < 0 ||
	    !world_grow((void **)&w->ilocks, &w->ilocks_cap, n + 1,
			sizeof *w->ilocks) ||
	    d_hash_resize(w, n + 1) < 0)
		return -VE_NOMEM;
	struct vfs_itab *t = w->itab;
	if (w->free_inode >= 0) {
		i = w->free_inode;
		w->free_inode = t->v[i].next_sibling;
		w->nfree_inodes--;
	} else {
		i = t->n++;
		w->ninodes = t->n;
	}
	inode_clear(&t->v[i]);
	ufield_made(w, UFV_INODE, i);
	t->v[i].type = (uint8_t)type;
	w->allocs++;
	t->v[i].ino = w->next_ino++;
	lock_init(&w->ilocks[i], LK_RWSEM);
	objs_touch(w, TOUCH_ILOCKS);
	if (w->ndlocks && dlocks_own(w) < 0)
		return -VE_NOMEM;
	if (i < w->ndlocks)
		lock_init(&w->dlocks[i], LK_MUTEX);
	return i;
}

/* d_add: INO becomes PARENT's newest entry, at a new directory offset. */
void inode_link_entry(struct vfs_world *w, int i, int parent, const char *name)
{
	struct vfs_inode *p = inode_mut(w, parent);
	struct vfs_inode *ino = inode_mut(w, i);
	struct vfs_itab *t = w->itab;
	ino->parent = parent;
	ino->unlinked = 0;
	snprintf(ino->name, sizeof ino->name, "%s", name);
	ino->d_off = p->next_off++;   /* a new name gets a new position */
	ino->prev_sibling = p->last_child;
	ino->next_sibling = -1;
	if (p->last_child >= 0)
		t->v[p->last_child].next_sibling = i;
	else
		p->first_child = i;
	p->last_child = i;
	p->nchildren++;
	d_hash_add(w, i);
}

int inode_alloc(struct vfs_world *w, int parent, const char *name, int type)
{
	if (strlen(name) >= VFS_NAME_MAX)
		return -VE_NAMETOOLONG;
	int i = inode_new(w, type);
	if (i < 0)
		return i;
	inode_mut(w, i)->sb = w->inodes[parent].sb;
	inode_link_entry(w, i, parent, name);
	return i;
}

/* Remove an entry from its parent (the inode lives on while files use it). */
void inode_unlink_entry(struct vfs_world *w, int i)
{
	struct vfs_inode *ino = inode_mut(w, i);
	struct vfs_itab *t = w->itab;
	struct vfs_inode *p = &t->v[ino->parent];
	d_hash_del(w, i);
	if (ino->prev_sibling >= 0)
		t->v[ino->prev_sibling].next_sibling = ino->next_sibling;
	else
		p->first_child = ino->next_sibling;
	if (ino->next_sibling >= 0)
		t->v[ino->next_sibling].prev_sibling = ino->prev_sibling;
	else
		p->last_child = ino->prev_sibling;
	ino->next_sibling = ino->prev_sibling = -1;
	p->nchildren--;
	if (!ino->unlinked)
		w->ndying++;
	ino->unlinked = 1;
}

bool inode_is_ancestor(const struct vfs_world *w, int anc, int ino)
{
	for (int i = ino; i >= 0; i = w->inodes[i].parent)
		if (i == anc)
			return true;
	return false;
}

/*
 * iput_final for every unlinked inode nothing refers to any more: no open
 * file, no lock holder or waiter, no call in progress (the caller runs it
 * only when every thread is between calls, so no frame holds an index),
 * no entry of a thread's last getdents (still shown by name).  Its slot
 * goes on the free list and its i_ino is never given again.
 */
void inode_evict_unused(struct vfs_world *w)
{
	if (!w->ndying)
		return;
	uint8_t *pinned = calloc((size_t)w->ninodes, 1);
	if (!pinned)
		return;         /* (later: nothing is lost by waiting) */
	for (int f = 0; f < w->nfiles; f++) {
		const struct vfs_file *fl = &w->files[f];
		if (fl->kind == FK_INODE && fl->inode >= 0)
			pinned[fl->inode] = 1;
	}
	for (int t = 0; t < w->nthreads; t++)
		for (int e = 0; e < w->threads[t].rec.nent && w->rec_ent[t].v; e++)
			if (w->rec_ent[t].v[e] >= 0 && w->rec_ent[t].v[e] < w->ninodes)
				pinned[w->rec_ent[t].v[e]] = 1;
	for (int i = 0; i < w->ninodes && w->ndying; i++) {
		const struct vfs_inode *in = &w->inodes[i];
		const struct vfs_lock *l = &w->ilocks[i];
		if (in->freed || !in->unlinked || pinned[i] || l->owner >= 0 ||
		    l->nreaders || l->wait_head >= 0 ||
		    vfs_lock_busy(w, VFS_LID(LID_DENTRY, i)))
			continue;
		struct vfs_inode *m = inode_mut(w, i);
		data_put(m->data);
		vfs_detect_forget(w, LID_INODE, i);
		vfs_detect_forget(w, LID_DENTRY, i);
		inode_clear(m);
		ufield_made(w, UFV_INODE, i);
		m->freed = 1;
		m->next_sibling = w->free_inode;
		w->free_inode = i;
		w->nfree_inodes++;
		w->allocs++;
		w->ndying--;
	}
	free(pinned);
}

/* ---- file data ---- */

void data_put(struct vfs_blob *b)
{
	if (b && __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0)
		free(b);
}

void data_get(struct vfs_blob *b)
{
	if (b)
		__atomic_add_fetch(&b->refs, 1, __ATOMIC_RELAXED);
}

/* Room for END bytes in inode I's data, not shared with any other world:
 * 0, -EFBIG past what a file keeps, -ENOMEM. */
int data_reserve(struct vfs_world *w, int i, int64_t end)
{
	struct vfs_inode *ino = inode_mut(w, i);
	if (end > VFS_DATA_MAX)
		return -VE_FBIG;
	struct vfs_blob *b = ino->data;
	bool shared = b && __atomic_load_n(&b->refs, __ATOMIC_ACQUIRE) > 1;
	if (b && !shared && (int64_t)b->cap >= end)
		return 0;
	size_t cap = b ? b->cap : 0;
	if ((int64_t)cap < end) {
		cap = cap ? cap : 64;
		while ((int64_t)cap < end)
			cap *= 2;
		if (cap > VFS_DATA_MAX)
			cap = VFS_DATA_MAX;
	}
	struct vfs_blob *n = malloc(sizeof *n + cap);
	if (!n)
		return -VE_NOMEM;
	n->refs = 1;
	n->cap = cap;
	size_t keep = 0;
	if (b) {
		keep = ino->size < 0 ? 0 : (size_t)ino->size;
		if (keep > b->cap)
			keep = b->cap;
		memcpy(n->bytes, b->bytes, keep);
	}
	memset(n->bytes + keep, 0, cap - keep);
	data_put(b);
	ino->data = n;
	return 0;
}

/* Byte OFF of INO's data (0 past what was written: a hole). */
char data_byte(const struct vfs_inode *ino, int64_t off)
{
	const struct vfs_blob *b = ino->data;
	return b && off >= 0 && off < (int64_t)b->cap && off < ino->size ?
	       b->bytes[off] : 0;
}

/* ---- an inode and its dentry as the shell reads them (vfs_inode.h) ---------- */
/* the accessors vfs_inode.h declares (core/accessors.tbl), a field each */
VFS_INODE_FIELDS(VFS_ACCESSOR_DEF)
