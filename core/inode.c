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

/* ---- the dentry hash: (parent, name) -> inode slot ---- */

static uint32_t d_hash(int parent, const char *name)
{
	uint32_t h = 2166136261u ^ (uint32_t)parent * 0x9e3779b1u;
	for (const unsigned char *s = (const unsigned char *)name; *s; s++)
		h = (h ^ *s) * 16777619u;
	return h ^ h >> 15;
}

static int32_t *d_bucket(const struct vfs_world *w, int parent,
			 const char *name)
{
	return &w->d_hash[d_hash(parent, name) & w->d_hash_mask];
}

static void d_hash_add(struct vfs_world *w, int i)
{
	int32_t *b = d_bucket(w, w->inodes[i].parent, w->inodes[i].name);
	w->inodes[i].hash_next = *b;
	*b = i;
}

static void d_hash_del(struct vfs_world *w, int i)
{
	int32_t *b = d_bucket(w, w->inodes[i].parent, w->inodes[i].name);
	while (*b >= 0 && *b != i)
		b = &w->inodes[*b].hash_next;
	if (*b == i)
		*b = w->inodes[i].hash_next;
	w->inodes[i].hash_next = -1;
}

/* Buckets for at least N names: a power of two, rebuilt from the tree. */
static int d_hash_resize(struct vfs_world *w, int32_t n)
{
	uint32_t size = 64;
	while (size < (uint32_t)n)
		size <<= 1;
	if (size <= w->d_hash_mask + 1 && w->d_hash)
		return 0;
	int32_t *b = malloc(sizeof *b * size);
	if (!b)
		return -VE_NOMEM;
	free(w->d_hash);
	w->d_hash = b;
	w->d_hash_mask = size - 1;
	w->d_hash_cap = (int32_t)size;
	memset(b, 0xff, sizeof *b * size);
	for (int i = 0; i < w->ninodes; i++) {
		struct vfs_inode *in = &w->inodes[i];
		in->hash_next = -1;
		if (!in->freed && in->parent >= 0 && !in->unlinked)
			d_hash_add(w, i);
	}
	return 0;
}

int inode_child(const struct vfs_world *w, int dir, const char *name)
{
	if (!w->d_hash)
		return -1;
	for (int c = *d_bucket(w, dir, name); c >= 0; c = w->inodes[c].hash_next)
		if (w->inodes[c].parent == dir && !strcmp(w->inodes[c].name, name))
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
	lock_init(&ino->i_rwsem, LK_RWSEM);
}

bool world_grow(void **p, int32_t *cap, int32_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	int64_t n = *cap ? *cap : 16;
	while (n < need)
		n *= 2;
	void *q = realloc(*p, elem * (size_t)n);
	if (!q)
		return false;
	*p = q;
	*cap = (int32_t)n;
	return true;
}

/* new_inode: a free slot (evicted before) or a new one, with a new i_ino. */
int inode_new(struct vfs_world *w, int type)
{
	int i;
	if (w->free_inode >= 0) {
		i = w->free_inode;
		w->free_inode = w->inodes[i].next_sibling;
		w->nfree_inodes--;
	} else {
		if (w->ninodes >= VFS_MAX_INODES)
			return -VE_NOSPC;
		if (!world_grow((void **)&w->inodes, &w->inodes_cap,
				w->ninodes + 1, sizeof *w->inodes))
			return -VE_NOMEM;
		if (d_hash_resize(w, w->ninodes + 1) < 0)
			return -VE_NOMEM;
		i = w->ninodes++;
	}
	inode_clear(&w->inodes[i]);
	w->inodes[i].type = (uint8_t)type;
	w->inodes[i].ino = w->next_ino++;
	return i;
}

/* d_add: INO becomes PARENT's newest entry, at a new directory offset. */
void inode_link_entry(struct vfs_world *w, int i, int parent, const char *name)
{
	struct vfs_inode *ino = &w->inodes[i], *p = &w->inodes[parent];
	ino->parent = parent;
	ino->unlinked = 0;
	snprintf(ino->name, sizeof ino->name, "%s", name);
	ino->d_off = p->next_off++;   /* a new name gets a new position */
	ino->prev_sibling = p->last_child;
	ino->next_sibling = -1;
	if (p->last_child >= 0)
		w->inodes[p->last_child].next_sibling = i;
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
	w->inodes[i].sb = w->inodes[parent].sb;
	inode_link_entry(w, i, parent, name);
	return i;
}

/* Remove an entry from its parent (the inode lives on while files use it). */
void inode_unlink_entry(struct vfs_world *w, int i)
{
	struct vfs_inode *ino = &w->inodes[i];
	struct vfs_inode *p = &w->inodes[ino->parent];
	d_hash_del(w, i);
	if (ino->prev_sibling >= 0)
		w->inodes[ino->prev_sibling].next_sibling = ino->next_sibling;
	else
		p->first_child = ino->next_sibling;
	if (ino->next_sibling >= 0)
		w->inodes[ino->next_sibling].prev_sibling = ino->prev_sibling;
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
 * only when every thread is between calls, so no frame holds an index).
 * Its slot goes on the free list and its i_ino is never given again.
 */
void inode_evict_unused(struct vfs_world *w)
{
	if (!w->ndying)
		return;
	for (int f = 0; f < w->nfiles; f++) {
		const struct vfs_file *fl = &w->files[f];
		if (fl->kind == FK_INODE && fl->inode >= 0)
			w->inodes[fl->inode].pinned = 1;
	}
	for (int i = 0; i < w->ninodes && w->ndying; i++) {
		struct vfs_inode *in = &w->inodes[i];
		if (in->freed || !in->unlinked)
			continue;
		const struct vfs_lock *l = &in->i_rwsem;
		if (in->pinned || l->owner >= 0 || l->nreaders || l->wait_head >= 0)
			continue;
		data_put(in->data);
		vfs_detect_forget(w, LID_INODE, i);
		inode_clear(in);
		in->freed = 1;
		in->next_sibling = w->free_inode;
		w->free_inode = i;
		w->nfree_inodes++;
		w->ndying--;
	}
	for (int f = 0; f < w->nfiles; f++) {
		const struct vfs_file *fl = &w->files[f];
		if (fl->kind == FK_INODE && fl->inode >= 0)
			w->inodes[fl->inode].pinned = 0;
	}
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

/* Room for END bytes in INO's data, not shared with any other world:
 * 0, -EFBIG past what a file keeps, -ENOMEM. */
int data_reserve(struct vfs_inode *ino, int64_t end)
{
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
