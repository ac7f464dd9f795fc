/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * world.c - the world as one value: creating, copying, the instant
 * set-up commands (mkdir, touch, mount, spawn) and name lookups.
 */
#include <stdlib.h>
#include "internal.h"

static void inode_clear(struct vfs_inode *ino)
{
	memset(ino, 0, sizeof *ino);
	ino->parent = ino->first_child = ino->last_child = -1;
	ino->next_sibling = ino->prev_sibling = -1;
	ino->next_off = 2;
	lock_init(&ino->i_rwsem, LK_RWSEM);
}

void vfs_world_init(struct vfs_world *w, const struct vfs_preset *p)
{
	memset(w, 0, sizeof *w);
	if (!p)
		p = vfs_preset_lookup("v6.5");
	w->k = p->k;
	w->preset = (uint8_t)(p - vfs_presets);
	w->next_pid = 100;
	w->next_file_id = 1;
	w->rng = 0x9e3779b97f4a7c15ull;
	w->rr_last = -1;
	w->last_done_tid = w->last_gd_tid = -1;
	w->det.enabled = 1;
	lock_init(&w->rename_mutex, LK_MUTEX);
	/* "/" is ext4, superblock 0 */
	w->nsb = 1;
	w->sbs[0].fstype = 0;
	w->sbs[0].root = 0;
	w->ninodes = 1;
	inode_clear(&w->inodes[0]);
	w->inodes[0].type = IT_DIR;
	w->inodes[0].is_mountpoint = 1;
}

void vfs_set_preset(struct vfs_world *w, const struct vfs_preset *p)
{
	w->k = p->k;
	w->preset = (uint8_t)(p - vfs_presets);
	w->knobs_overridden = 0;
}

void vfs_world_copy(struct vfs_world *d, const struct vfs_world *s)
{
	memcpy(d, s, offsetof(struct vfs_world, det));
	/* the detectors: only what is in use */
	d->det.enabled = s->det.enabled;
	d->det.no_clocks = s->det.no_clocks;
	d->det.nshadows = s->det.nshadows;
	d->det.nlockclocks = s->det.nlockclocks;
	d->det.npasses = s->det.npasses;
	d->det.nreports = s->det.nreports;
	memcpy(d->det.counts, s->det.counts, sizeof d->det.counts);
	memcpy(d->det.vc, s->det.vc, sizeof d->det.vc[0] * (size_t)s->nthreads);
	memcpy(d->det.shadows, s->det.shadows,
	       sizeof d->det.shadows[0] * s->det.nshadows);
	memcpy(d->det.lockclocks, s->det.lockclocks,
	       sizeof d->det.lockclocks[0] * s->det.nlockclocks);
	memcpy(d->det.passes, s->det.passes,
	       sizeof d->det.passes[0] * s->det.npasses);
	memcpy(d->det.reports, s->det.reports,
	       sizeof d->det.reports[0] * s->det.nreports);
	memcpy(&d->det.ld, &s->det.ld, offsetof(struct vfs_lockdep, edges));
	memcpy(d->det.ld.edges, s->det.ld.edges,
	       sizeof d->det.ld.edges[0] * s->det.ld.nedges);
	memcpy(d->call_started, s->call_started, sizeof d->call_started);
	memcpy(d->procs, s->procs, sizeof d->procs[0] * (size_t)s->nprocs);
	memcpy(d->threads, s->threads, sizeof d->threads[0] * (size_t)s->nthreads);
	world_copy_objects(d, s);
}

/* Files, superblocks, inodes and fd tables: only the slots in use. */
void world_copy_objects(struct vfs_world *d, const struct vfs_world *s)
{
	memcpy(d->files, s->files, sizeof d->files[0] * (size_t)s->nfiles);
	memcpy(d->sbs, s->sbs, sizeof d->sbs[0] * (size_t)s->nsb);
	memcpy(d->inodes, s->inodes, sizeof d->inodes[0] * (size_t)s->ninodes);
	for (int i = 0; i < s->nfdt; i++) {
		d->fdt[i].count = s->fdt[i].count;
		d->fdt[i].nfds = s->fdt[i].nfds;
		memcpy(d->fdt[i].fd, s->fdt[i].fd,
		       sizeof s->fdt[i].fd[0] * (size_t)s->fdt[i].nfds);
	}
}

/* ---- the tree ---- */

int inode_child(const struct vfs_world *w, int dir, const char *name)
{
	for (int c = w->inodes[dir].first_child; c >= 0; c = w->inodes[c].next_sibling)
		if (!strcmp(w->inodes[c].name, name))
			return c;
	return -1;
}

int inode_alloc(struct vfs_world *w, int parent, const char *name, int type)
{
	if (w->ninodes >= VFS_MAX_INODES)
		return -VE_NOSPC;
	if (strlen(name) >= VFS_NAME_MAX)
		return -VE_NAMETOOLONG;
	int i = w->ninodes++;
	struct vfs_inode *ino = &w->inodes[i], *p = &w->inodes[parent];
	inode_clear(ino);
	ino->type = (uint8_t)type;
	ino->sb = p->sb;
	ino->parent = (int16_t)parent;
	strcpy(ino->name, name);
	ino->d_off = p->next_off++;
	ino->prev_sibling = p->last_child;
	if (p->last_child >= 0)
		w->inodes[p->last_child].next_sibling = (int16_t)i;
	else
		p->first_child = (int16_t)i;
	p->last_child = (int16_t)i;
	p->nchildren++;
	return i;
}

/* Remove an entry from its parent (the inode lives on while files use it). */
void inode_unlink_entry(struct vfs_world *w, int i)
{
	struct vfs_inode *ino = &w->inodes[i];
	struct vfs_inode *p = &w->inodes[ino->parent];
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
	ino->unlinked = 1;
}

bool inode_is_ancestor(const struct vfs_world *w, int anc, int ino)
{
	for (int i = ino; i >= 0; i = w->inodes[i].parent)
		if (i == anc)
			return true;
	return false;
}

int path_walk(const struct vfs_world *w, const char *path)
{
	char comp[VFS_NAME_MAX];
	int cur = 0;
	if (path[0] != '/')
		return -VE_NOENT;
	const char *s = path;
	while (*s) {
		while (*s == '/')
			s++;
		if (!*s)
			break;
		size_t len = strcspn(s, "/");
		if (len >= sizeof comp)
			return -VE_NAMETOOLONG;
		memcpy(comp, s, len);
		comp[len] = 0;
		s += len;
		if (w->inodes[cur].type != IT_DIR)
			return -VE_NOTDIR;
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) {
			if (w->inodes[cur].parent >= 0)
				cur = w->inodes[cur].parent;
			continue;
		}
		int c = inode_child(w, cur, comp);
		if (c < 0)
			return -VE_NOENT;
		cur = c;
	}
	return cur;
}

int path_parent(const struct vfs_world *w, const char *path, int *parent,
		const char **last)
{
	char buf[VFS_PATH_MAX];
	size_t len = strlen(path);
	if (len >= sizeof buf)
		return -VE_NAMETOOLONG;
	memcpy(buf, path, len + 1);
	while (len > 1 && buf[len - 1] == '/')
		buf[--len] = 0;
	char *slash = strrchr(buf, '/');
	if (!slash || slash[1] == 0)
		return -VE_NOENT;      /* "/" itself, or a relative path */
	*last = path + (slash + 1 - buf);
	if (slash == buf)
		buf[1] = 0;
	else
		*slash = 0;
	int p = path_walk(w, buf);
	if (p < 0)
		return p;
	if (w->inodes[p].type != IT_DIR)
		return -VE_NOTDIR;
	*parent = p;
	return 0;
}

int vfs_path_lookup(const struct vfs_world *w, const char *path)
{
	int r = path_walk(w, path);
	return r < 0 ? -1 : r;
}

/* last component without trailing slashes, into buf */
static int last_name(const char *last, char *buf)
{
	size_t len = strcspn(last, "/");
	if (len == 0 || len >= VFS_NAME_MAX)
		return -VE_NAMETOOLONG;
	memcpy(buf, last, len);
	buf[len] = 0;
	return 0;
}

static int setup_create(struct vfs_world *w, const char *path, int type,
			bool parents)
{
	int parent, r;
	const char *last;
	char name[VFS_NAME_MAX];

	r = path_parent(w, path, &parent, &last);
	if (r == -VE_NOENT && parents && strcmp(path, "/")) {
		char up[VFS_PATH_MAX];
		snprintf(up, sizeof up, "%s", path);
		char *slash = strrchr(up, '/');
		if (slash && slash != up) {
			*slash = 0;
			r = setup_create(w, up, IT_DIR, true);
			if (r < 0 && r != -VE_EXIST)
				return r;
			r = path_parent(w, path, &parent, &last);
		}
	}
	if (r < 0)
		return r;
	if ((r = last_name(last, name)) < 0)
		return r;
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return -VE_EXIST;
	if (inode_child(w, parent, name) >= 0)
		return -VE_EXIST;
	return inode_alloc(w, parent, name, type);
}

int vfs_setup_mkdir(struct vfs_world *w, const char *path, bool parents)
{
	int r = setup_create(w, path, IT_DIR, parents);
	return r < 0 ? r : 0;
}

int vfs_setup_touch(struct vfs_world *w, const char *path, bool parents)
{
	int r = setup_create(w, path, IT_REG, parents);
	if (r == -VE_EXIST) {
		int i = path_walk(w, path);
		return i >= 0 && w->inodes[i].type == IT_REG ? 0 : -VE_EXIST;
	}
	return r < 0 ? r : 0;
}

int vfs_setup_mount(struct vfs_world *w, const char *fstype, const char *path,
		    const char *option)
{
	const struct vfs_fstype *ft = vfs_fstype_lookup(fstype);
	if (!ft)
		return -VE_INVAL;
	if (option && *option && strcmp(option, "dirstat"))
		return -VE_INVAL;
	if (option && *option && ft->dir_read != DIRREAD_CEPH)
		return -VE_INVAL;
	if (w->nsb >= VFS_MAX_SB)
		return -VE_NOSPC;
	int r = setup_create(w, path, IT_DIR, true);
	if (r < 0)
		return r;
	int sb = w->nsb++;
	w->sbs[sb].fstype = (uint8_t)(ft - vfs_fstypes);
	w->sbs[sb].dirstat = option && !strcmp(option, "dirstat");
	w->sbs[sb].root = (int16_t)r;
	w->inodes[r].sb = (uint8_t)sb;
	w->inodes[r].is_mountpoint = 1;
	return 0;
}

const struct vfs_fstype *vfs_inode_fstype(const struct vfs_world *w, int ino)
{
	return &vfs_fstypes[w->sbs[w->inodes[ino].sb].fstype];
}

/* ---- processes and threads ---- */

static bool valid_name(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return false;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* A new process with one thread; shared by spawn and fork. */
int proc_new(struct vfs_world *w, const char *name, int uid, int fdt)
{
	if (!valid_name(name) || strlen(name) >= VFS_NAME_MAX - 4)
		return -VE_INVAL;
	if (vfs_proc_by_name(w, name) >= 0)
		return -VE_EXIST;
	if (w->nprocs >= VFS_MAX_PROCS || w->nthreads >= VFS_MAX_THREADS)
		return -VE_AGAIN;
	int p = w->nprocs++;
	struct vfs_proc *pr = &w->procs[p];
	memset(pr, 0, sizeof *pr);
	pr->exists = pr->alive = 1;
	pr->pid = w->next_pid++;
	pr->uid = uid;
	strcpy(pr->name, name);
	if (fdt < 0) {
		fdt = w->nfdt++;
		w->fdt[fdt].count = 1;
		w->fdt[fdt].nfds = 3;
		/* 0-2 are taken, as stdio would be (model: no file behind them) */
		for (int i = 0; i < 3; i++)
			w->fdt[fdt].fd[i] = FD_STDIO;
	}
	pr->fdt = (int16_t)fdt;
	int t = w->nthreads++;
	struct vfs_thread *th = &w->threads[t];
	memset(th, 0, sizeof *th);
	th->state = TS_IDLE;
	th->proc = (int16_t)p;
	th->tnum = 1;
	th->tid = pr->pid;
	th->wait_next = -1;
	th->rec.done = 1;
	pr->nthreads_made = 1;
	memset(w->det.vc[t], 0, sizeof w->det.vc[t]);
	w->det.vc[t][t] = 1;
	return p;
}

int vfs_spawn(struct vfs_world *w, const char *name, int uid)
{
	return proc_new(w, name, uid, -1);
}

int vfs_proc_by_name(const struct vfs_world *w, const char *name)
{
	for (int i = 0; i < w->nprocs; i++)
		if (!strcmp(w->procs[i].name, name))
			return i;
	return -1;
}

int vfs_proc_by_pid(const struct vfs_world *w, int pid)
{
	for (int i = 0; i < w->nprocs; i++)
		if (w->procs[i].pid == pid)
			return i;
	return -1;
}

int vfs_thread_by_name(const struct vfs_world *w, const char *name)
{
	char pn[VFS_NAME_MAX];
	const char *dot = strchr(name, '.');
	int tnum = 1;
	size_t len = dot ? (size_t)(dot - name) : strlen(name);
	if (len == 0 || len >= sizeof pn)
		return -1;
	memcpy(pn, name, len);
	pn[len] = 0;
	if (dot) {
		char *end;
		long v = strtol(dot + 1, &end, 10);
		if (*end || v < 1 || end == dot + 1)
			return -1;
		tnum = (int)v;
	}
	if (pn[0] >= '0' && pn[0] <= '9') {
		char *end;
		long id = strtol(pn, &end, 10);
		if (*end)
			return -1;
		for (int i = 0; i < w->nthreads; i++)
			if (w->threads[i].tid == id && !dot)
				return i;
		return -1;
	}
	int p = vfs_proc_by_name(w, pn);
	if (p < 0)
		return -1;
	for (int i = 0; i < w->nthreads; i++)
		if (w->threads[i].proc == p && w->threads[i].tnum == tnum)
			return i;
	return -1;
}

int vfs_file_by_id(const struct vfs_world *w, int id)
{
	for (int i = 0; i < w->nfiles; i++)
		if (w->files[i].kind != FK_NONE && w->files[i].id == id)
			return i;
	return -1;
}

int vfs_fd_file(const struct vfs_world *w, int proc, int fd)
{
	int f = fd_lookup(w, proc, fd);
	return f < 0 ? -1 : f;
}
