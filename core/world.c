/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * world.c - the world as one value: creating it (copying it is
 * world_copy.c), the instant set-up commands (mkdir, touch, mount, spawn)
 * and name lookups.
 */
#include <stdlib.h>
#include "internal.h"
#include "grow.h"

/* ---- the world's memory ---- */

void vfs_world_init(struct vfs_world *w, const struct vfs_preset *p)
{
	vfs_world_release(w);
	memset(w, 0, sizeof *w);
	if (!p)
		p = vfs_preset_lookup("v6.5");
	w->k = p->k;
	w->preset = (uint8_t)(p - vfs_presets);
	w->next_pid = 100;
	w->next_file_id = 1;
	w->next_ino = 2;        /* ext4's root is inode 2 */
	w->free_inode = -1;
	w->rng = 0x9e3779b97f4a7c15ull;
	w->rr_last = -1;
	w->last_done_tid = w->last_gd_tid = -1;
	w->det.enabled = 1;
	lock_init(&w->rename_mutex, LK_MUTEX);
	/* "/" is ext4, superblock 0 */
	w->nsb = 1;
	w->sbs[0].fstype = 0;
	w->sbs[0].root = 0;
	int r = inode_new(w, IT_DIR);
	if (r == 0)
		inode_mut(w, 0)->is_mountpoint = 1;
	else
		w->oom = 1;
}

struct vfs_world *vfs_world_new(const struct vfs_preset *p)
{
	struct vfs_world *w = calloc(1, sizeof *w);
	if (w) {
		vfs_world_init(w, p);
		if (w->oom) {
			vfs_world_free(w);
			return NULL;
		}
	}
	return w;
}

void vfs_world_release(struct vfs_world *w)
{
	itab_put(w->itab);
	kdefs_put(w->kdefs);
	w->kdefs = NULL;
	free(w->ilocks);
	free(w->dlocks);
	free(w->files);
	free(w->fdt);
	free(w->procs);
	free(w->threads);
	for (int t = 0; t < VFS_MAX_THREADS; t++)
		free(w->rec_ent[t].v);
	free(w->strs.buf);
	free(w->strs.slot);
	free(w->retired);
	detect_free(&w->det);
	ufield_free(w);
	w->retired = NULL;
	w->nretired = w->retired_cap = 0;
	w->itab = NULL;
	w->inodes = NULL;
	w->ilocks = NULL;
	w->dlocks = NULL;
	w->ndlocks = w->dlocks_cap = 0;
	w->files = NULL;
	w->fdt = NULL;
	w->procs = NULL;
	w->threads = NULL;
	memset(w->rec_ent, 0, sizeof w->rec_ent);
	memset(&w->strs, 0, sizeof w->strs);
	w->ilocks_cap = w->files_cap = w->fdt_cap = 0;
	w->procs_cap = w->threads_cap = 0;
	w->ninodes = w->nfiles = w->nfdt = 0;
	w->nprocs = w->nthreads = 0;
}

void vfs_world_free(struct vfs_world *w)
{
	if (!w)
		return;
	vfs_world_release(w);
	free(w);
}

void vfs_set_preset(struct vfs_world *w, const struct vfs_preset *p)
{
	w->k = p->k;
	w->preset = (uint8_t)(p - vfs_presets);
	w->knobs_overridden = 0;
	for (int i = 0; i < VDEC__COUNT; i++)
		if (vfs_override(w, i) && vfs_override_set(w, i, NULL) < 0)
			w->oom = 1;
}

/* ---- the script's kernel: shared by copies, copied for a change ---- */

void kdefs_get(struct vfs_kdefs *k)
{
	if (k)
		__atomic_add_fetch(&k->refs, 1, __ATOMIC_RELAXED);
}

void kdefs_put(struct vfs_kdefs *k)
{
	if (k && !__atomic_sub_fetch(&k->refs, 1, __ATOMIC_ACQ_REL))
		free(k);
}

struct vfs_kdefs *kdefs_mut(struct vfs_world *w)
{
	struct vfs_kdefs *k = w->kdefs;
	if (k && __atomic_load_n(&k->refs, __ATOMIC_ACQUIRE) == 1)
		return k;
	size_t size = sizeof *k + sizeof k->fsdefs[0] * VFS_MAX_FSDEFS;
	struct vfs_kdefs *n = malloc(size);
	if (!n)
		return NULL;
	if (k)
		memcpy(n, k, size);
	else
		memset(n, 0, size);
	n->refs = 1;
	kdefs_put(k);
	w->kdefs = n;
	return n;
}

/* ---- the strings of calls ---- */

static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

bool world_copy_strings(struct vfs_world *d, const struct vfs_world *s)
{
	struct vfs_strtab *dt = &d->strs;
	const struct vfs_strtab *st = &s->strs;
	if (st->cap > dt->cap) {
		char *b = realloc(dt->buf, st->cap);
		if (!b)
			return false;
		dt->buf = b;
		dt->cap = st->cap;
	}
	if (st->mask != dt->mask || !dt->slot) {
		uint32_t *sl = st->slot ? malloc(sizeof *sl * (st->mask + 1)) : NULL;
		if (st->slot && !sl)
			return false;
		free(dt->slot);
		dt->slot = sl;
		dt->mask = st->mask;
	}
	if (st->len)
		memcpy(dt->buf, st->buf, st->len);
	if (st->slot)
		memcpy(dt->slot, st->slot, sizeof *dt->slot * (st->mask + 1));
	dt->len = st->len;
	dt->count = st->count;
	return true;
}

/* The handle of STR in W's table, added if new; 0 for "", -1 out of memory. */
static int64_t str_intern(struct vfs_world *w, const char *str)
{
	struct vfs_strtab *t = &w->strs;
	size_t len = strlen(str);
	if (!len)
		return 0;
	if (!t->slot || (t->count + 1) * 2 > t->mask + 1) {
		uint32_t size = t->slot ? (t->mask + 1) * 2 : 64;
		uint32_t *sl = calloc(size, sizeof *sl);
		if (!sl)
			return -1;
		for (uint32_t i = 0; t->slot && i <= t->mask; i++) {
			uint32_t h = t->slot[i];
			if (!h)
				continue;
			uint32_t j = str_hash(t->buf + h) & (size - 1);
			while (sl[j])
				j = (j + 1) & (size - 1);
			sl[j] = h;
		}
		free(t->slot);
		t->slot = sl;
		t->mask = size - 1;
	}
	uint32_t j = str_hash(str) & t->mask;
	for (; t->slot[j]; j = (j + 1) & t->mask)
		if (!strcmp(t->buf + t->slot[j], str))
			return t->slot[j];
	if (!t->len)
		t->len = 1;     /* offset 0 is "" */
	if (t->len + len + 1 > t->cap) {
		size_t cap = t->cap;
		char *b = grow_array(t->buf, &cap, t->len + len + 1, 1, 256);
		if (!b)
			return -1;
		t->buf = b;
		t->cap = (uint32_t)cap;
		t->buf[0] = 0;
	}
	uint32_t h = t->len;
	memcpy(t->buf + h, str, len + 1);
	t->len += (uint32_t)len + 1;
	t->slot[j] = h;
	t->count++;
	return h;
}

int vfs_call_set_str(struct vfs_world *w, struct vfs_call *c, int i,
		     const char *str)
{
	if (strlen(str) >= VFS_CALL_STR_MAX)
		return -VE_NAMETOOLONG;
	int64_t h = str_intern(w, str);
	if (h < 0)
		return -VE_NOMEM;
	c->s[i] = (uint32_t)h;
	return 0;
}

const char *vfs_call_str(const struct vfs_world *w, const struct vfs_call *c,
			 int i)
{
	return c->s[i] && c->s[i] < w->strs.len ? w->strs.buf + c->s[i] : "";
}

const int32_t *vfs_rec_entries(const struct vfs_world *w, int tid)
{
	return w->rec_ent[tid].v;
}

const char *vfs_rec_entry_name(const struct vfs_world *w, int tid, int i)
{
	int e = w->rec_ent[tid].v[i];
	return e == -1 ? "." : e == -2 ? ".." : w->inodes[e].name;
}

void vfs_rec_entries_text(const struct vfs_world *w, int tid, char *buf,
			  size_t n)
{
	int nent = w->threads[tid].rec.nent;
	size_t o = 0;
	char more[48];
	if (n < sizeof more + 2) {
		snprintf(buf, n, "[...]");
		return;
	}
	buf[o++] = '[';
	for (int i = 0; i < nent; i++) {
		const char *nm = vfs_rec_entry_name(w, tid, i);
		size_t len = strlen(nm) + (i ? 1 : 0);
		/* room for this one and, unless it is the last, the tail */
		snprintf(more, sizeof more, "%s... (%d more)]", i ? " " : "",
			 nent - i);
		if (o + len + (i + 1 < nent ? strlen(more) : 0) + 2 > n) {
			snprintf(buf + o, n - o, "%s", more);
			return;
		}
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? " " : "", nm);
	}
	snprintf(buf + o, n - o, "]");
}

/* ---- the tree ---- */

int path_walk(const struct vfs_world *w, const char *path)
{
	char comp[VFS_NAME_MAX];
	int cur = 0;
	if (path[0] != '/')
		return -VE_NOENT;
	if (strlen(path) >= VFS_PATH_MAX)
		return -VE_NAMETOOLONG;         /* getname: PATH_MAX */
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
	if (strlen(slash + 1) >= VFS_NAME_MAX)
		return -VE_NAMETOOLONG;         /* a name past NAME_MAX */
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

bool vfs_parent_exists(const struct vfs_world *w, const char *path)
{
	int parent;
	const char *last;
	return path_parent(w, path, &parent, &last) == 0;
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
	int fti = vfs_world_fstype_lookup(w, fstype);
	if (fti < 0)
		return -VE_INVAL;
	const struct vfs_fstype *ft = vfs_world_fstype(w, fti);
	if (option && *option && strcmp(option, "dirstat"))
		return -VE_INVAL;
	if (option && *option && ft->ops.dir_read != DIRREAD_CEPH)
		return -VE_INVAL;
	if (w->nsb >= VFS_MAX_SB)
		return -VE_NOSPC;
	int r = setup_create(w, path, IT_DIR, true);
	if (r < 0)
		return r;
	int sb = w->nsb++;
	w->sbs[sb].fstype = (uint8_t)fti;
	w->sbs[sb].dirstat = option && !strcmp(option, "dirstat");
	w->sbs[sb].root = r;
	inode_mut(w, r)->sb = (uint8_t)sb;
	inode_mut(w, r)->is_mountpoint = 1;
	return 0;
}

const struct vfs_fstype *vfs_inode_fstype(const struct vfs_world *w, int ino)
{
	int ft = w->sbs[w->inodes[ino].sb].fstype;
	/* (the built-in rows without a call: every getdents and lseek asks) */
	return ft < vfs_nfstypes ? &vfs_fstypes[ft] : vfs_world_fstype(w, ft);
}

struct vfs_fsops vfs_inode_fsops(const struct vfs_world *w, int ino)
{
	return vfs_fs_ops(&w->k, vfs_inode_fstype(w, ino));
}

/* ---- processes and threads ---- */

bool vfs_valid_name(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		return false;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/*
 * A slot for a new thread: a new one while fewer than VFS_MAX_THREADS were
 * made, then the slot of a thread that exited (not the one whose result
 * `expect` reads).  Its clock row stays and goes on: the new thread comes
 * after the old one (the shell started it after that one's exit), and
 * what the others know of the slot stays true.  -EAGAIN when every slot
 * holds a live thread, -ENOMEM.  *REUSED: the slot had a thread.  A new
 * slot may move w->threads: a pointer into it is taken again after.
 */
int thread_slot(struct vfs_world *w, bool *reused)
{
	*reused = false;
	if (w->nthreads < VFS_MAX_THREADS) {
		if (!world_grow_zeroed((void **)&w->threads, &w->threads_cap,
				       w->nthreads + 1, sizeof *w->threads))
			return -VE_NOMEM;
		return w->allocs++, w->nthreads++;
	}
	for (int t = 0; t < w->nthreads; t++) {
		const struct vfs_thread *th = &w->threads[t];
		if (th->state != TS_DEAD || t == w->last_done_tid ||
		    t == w->last_gd_tid)
			continue;
		if (!world_grow((void **)&w->retired, &w->retired_cap,
				w->nretired + 1, sizeof *w->retired))
			return -VE_NOMEM;
		w->retired[w->nretired++] = (struct vfs_tident){ th->tid, th->proc,
								 th->tnum };
		*reused = true;
		return t;
	}
	return -VE_AGAIN;
}

/* A new process with one thread; shared by spawn and fork. */
int proc_new(struct vfs_world *w, const char *name, int uid, int fdt)
{
	if (!vfs_valid_name(name))
		return -VE_INVAL;
	if (strlen(name) >= VFS_COMM_MAX - 4)   /* room for ".NN" */
		return -VE_NAMETOOLONG;
	if (vfs_proc_by_name(w, name) >= 0)
		return -VE_EXIST;
	if (w->nprocs >= VFS_MAX_PROCS)
		return -VE_AGAIN;
	if (!world_grow_zeroed((void **)&w->procs, &w->procs_cap, w->nprocs + 1,
			       sizeof *w->procs))
		return -VE_NOMEM;
	bool reused;
	int t = thread_slot(w, &reused);
	if (t < 0)
		return t;
	if (fdt < 0) {
		/* before the world changes: -ENOMEM leaves it as it was */
		if ((fdt = fdt_new(w)) < 0)
			return fdt;
		w->fdt[fdt].nfds = 3;
		/* 0-2 are taken, as stdio would be (model: no file behind them) */
		for (int i = 0; i < 3; i++)
			w->fdt[fdt].fd[i] = FD_STDIO;
	}
	w->allocs++;
	int p = w->nprocs++;
	struct vfs_proc *pr = &w->procs[p];
	objs_touch(w, TOUCH_PROCS);
	memset(pr, 0, sizeof *pr);
	lock_init(&pr->exec_lock, vfs_exec_locks[w->k.exec_lock].kind);
	pr->exists = pr->alive = 1;
	pr->pid = w->next_pid++;
	pr->uid = uid;
	strcpy(pr->name, name);
	pr->fdt = (int16_t)fdt;
	struct vfs_thread *th = &w->threads[t];
	thread_touch(w, t);
	memset(th, 0, sizeof *th);
	th->state = TS_IDLE;
	th->proc = (int16_t)p;
	th->tnum = 1;
	th->tid = pr->pid;
	th->wait_next = -1;
	th->rec.done = 1;
	pr->nthreads_made = 1;
	if (!reused)
		memset(w->det.vc[t], 0, sizeof w->det.vc[t]);
	w->det.vc[t][t]++;
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

int vfs_fd_slot(const struct vfs_world *w, int fdt, int fd, bool *cloexec)
{
	unsigned v = w->fdt[fdt].fd[fd];
	if (cloexec)
		*cloexec = v & FD_CLOEXEC_BIT;
	v &= ~FD_CLOEXEC_BIT;
	return v == 0 ? VFD_FREE : v == FD_RESERVED ? VFD_RESERVED
		: v == FD_STDIO ? VFD_STDIO : (int)v - 1;
}

int vfs_proc_fdtable(const struct vfs_world *w, int proc, int *nfds, int *shared)
{
	int t = w->procs[proc].fdt;
	if (t >= 0) {
		*nfds = w->fdt[t].nfds;
		*shared = w->fdt[t].count;
	}
	return t;
}

/* ---- the world as the shell reads it ---------------------------------------- */
struct vfs_world *vfs_world_alloc(void)
{
	return calloc(1, sizeof(struct vfs_world));
}

int vfs_world_step(const struct vfs_world *w) { return w->step; }
int vfs_world_call_seq(const struct vfs_world *w) { return w->call_seq; }
int vfs_world_preset(const struct vfs_world *w) { return w->preset; }
const struct vfs_knobs *vfs_world_knobs(const struct vfs_world *w) { return &w->k; }
bool vfs_world_knobs_overridden(const struct vfs_world *w) { return w->knobs_overridden; }

void vfs_world_set_knobs(struct vfs_world *w, const struct vfs_knobs *k, bool overridden)
{
	w->k = *k;
	w->knobs_overridden = overridden;
}

int vfs_world_sched(const struct vfs_world *w) { return w->sched; }

void vfs_world_set_sched(struct vfs_world *w, int sched, long long seed)
{
	if (sched == VSCHED_RANDOM) {
		w->rng = (uint64_t)seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
		if (!w->rng)
			w->rng = 1;
	}
	w->sched = (uint8_t)sched;
}

const struct vfs_detect *vfs_world_detect(const struct vfs_world *w) { return &w->det; }

uint32_t vfs_world_overflow_news(struct vfs_world *w)
{
	uint32_t fresh = w->det.overflowed & ~w->det.told;
	w->det.told |= fresh;
	return fresh;
}

const struct vfs_stats *vfs_world_stats(const struct vfs_world *w) { return &w->stats; }

int vfs_world_oom(const struct vfs_world *w) { return w->oom; }

void vfs_world_oom_said(struct vfs_world *w) { w->oom = 2; }

int vfs_world_ninodes(const struct vfs_world *w) { return w->ninodes; }
int vfs_world_nsb(const struct vfs_world *w) { return w->nsb; }
int vfs_world_nfiles(const struct vfs_world *w) { return w->nfiles; }
int vfs_world_nprocs(const struct vfs_world *w) { return w->nprocs; }
int vfs_world_nthreads(const struct vfs_world *w) { return w->nthreads; }
int vfs_world_last_done(const struct vfs_world *w) { return w->last_done_tid; }
int vfs_world_last_getdents(const struct vfs_world *w) { return w->last_gd_tid; }

const struct vfs_expr *vfs_world_override(const struct vfs_world *w, int dec)
{
	return vfs_override(w, dec);
}
