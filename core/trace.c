/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * trace.c - the one stream of trace events, and its two line formats.
 *
 * Every step reports what it does as events; the detectors and every view
 * (the live trace, JSON lines, where, stats, pictures) read this stream
 * and never recompute the simulation.
 */
#include <inttypes.h>
#include <stdio.h>
#include "internal.h"

static const char *const fn_names[] = {
#define FN_STR(n) #n,
	VFS_FN_LIST(FN_STR)
#undef FN_STR
};

const char *vfs_fn_name(int fn)
{
	return fn >= 0 && fn < VFN__COUNT ? fn_names[fn] : kfn_name(fn);
}

/* NAME's index in NAMES[1..COUNT) (0 is each table's "none"), or 0. */
static int name_lookup(const char *const *names, int count, const char *name)
{
	for (int i = 1; i < count; i++)
		if (!strcmp(names[i], name))
			return i;
	return 0;
}

int vfs_fn_lookup(const char *name)
{
	int fn = name_lookup(fn_names, VFN__COUNT, name);       /* 0: VFN_none */
	return fn ? fn : kfn_name_lookup(name);  /* a function a script defined */
}

static const char *const op_names[OP__COUNT] = {
	"enter", "exit", "acquire", "release", "block", "wake", "skip",
	"read", "write", "downgrade", "emit", "note", "fail",
};
const char *vfs_op_name(int op)
{
	return op >= 0 && op < OP__COUNT ? op_names[op] : "?";
}

static const char *const class_names[LC__COUNT] = {
	"none", "f_pos_lock", "i_rwsem", "i_rwsem", "f_lock", "rename_mutex",
	"cred_guard_mutex", "exec_update_mutex", "exec_update_lock", "d_update",
};
const char *vfs_class_name(int cls)
{
	return cls >= 0 && cls < LC__COUNT ? class_names[cls] : "?";
}

int vfs_class_lookup(const char *name)
{
	if (!strcmp(name, "i_mutex"))
		return LC_I_RWSEM_DIR;
	return name_lookup(class_names, LC__COUNT, name);     /* 0: LC_NONE */
}

const char *vfs_mode_name(int mode)
{
	static const char *const n[] = { "", "excl", "read", "write" };
	return mode >= 0 && mode <= M_WRITE ? n[mode] : "?";
}

static const char *const field_names[FLD__COUNT] = {
	"none", "f_pos", "cursor", "dir", "size", "data", "f_count", "fdtable",
};
const char *vfs_field_name(int f)
{
	return f >= 0 && f < FLD__COUNT ? field_names[f] :
	       name_tab_name(&ufield_names, f);
}
int vfs_field_lookup(const char *name)
{
	int f = name_lookup(field_names, FLD__COUNT, name);
	if (!f && (!strcmp(name, "readdir") || !strcmp(name, "readdir-cursor")))
		return FLD_CURSOR;
	if (!f && (f = name_tab_find(&ufield_names, name)) < 0)
		f = FLD_NONE;           /* (a field the script declared) */
	return f;                                               /* 0: FLD_NONE */
}

static const struct { int e; const char *n; } errnos[] = {
	{ VE_PERM, "EPERM" }, { VE_NOENT, "ENOENT" }, { VE_SRCH, "ESRCH" },
	{ VE_INTR, "EINTR" }, { VE_BADF, "EBADF" }, { VE_AGAIN, "EAGAIN" },
	{ VE_NOMEM, "ENOMEM" }, { VE_BUSY, "EBUSY" }, { VE_EXIST, "EEXIST" },
	{ VE_XDEV, "EXDEV" }, { VE_SPIPE, "ESPIPE" },
	{ VE_NOTDIR, "ENOTDIR" }, { VE_ISDIR, "EISDIR" }, { VE_INVAL, "EINVAL" },
	{ VE_NFILE, "ENFILE" }, { VE_MFILE, "EMFILE" }, { VE_FBIG, "EFBIG" },
	{ VE_NOSPC, "ENOSPC" }, { VE_OVERFLOW, "EOVERFLOW" },
	{ VE_NAMETOOLONG, "ENAMETOOLONG" }, { VE_NOSYS, "ENOSYS" },
	{ VE_NOTEMPTY, "ENOTEMPTY" }, { VE_OPNOTSUPP, "EOPNOTSUPP" },
};
const char *vfs_errno_name(int err)
{
	for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
		if (errnos[i].e == err)
			return errnos[i].n;
	return NULL;
}
const char *vfs_ret_errno(int64_t ret)
{
	enum { MAX_ERRNO = 4095 };      /* include/linux/err.h */
	return ret < 0 && ret >= -MAX_ERRNO ? vfs_errno_name((int)-ret) : NULL;
}
int vfs_errno_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
		if (!strcmp(errnos[i].n, name))
			return errnos[i].e;
	return 0;
}

void vfs_thread_name(const struct vfs_world *w, int tid, char *buf, size_t n)
{
	if (tid < 0 || tid >= w->nthreads) {
		snprintf(buf, n, "?");
		return;
	}
	const struct vfs_thread *t = &w->threads[tid];
	if (t->tnum <= 1)
		snprintf(buf, n, "%s", w->procs[t->proc].name);
	else
		snprintf(buf, n, "%s.%d", w->procs[t->proc].name, t->tnum);
}

void vfs_event_thread_name(const struct vfs_world *w,
			   const struct vfs_event *ev, char *buf, size_t n)
{
	if (ev->tid >= 0 && ev->tid < w->nthreads && ev->ktid &&
	    w->threads[ev->tid].tid != ev->ktid)
		for (int i = 0; i < w->nretired; i++) {
			const struct vfs_tident *r = &w->retired[i];
			if (r->ktid != ev->ktid)
				continue;
			if (r->tnum <= 1)
				snprintf(buf, n, "%s", w->procs[r->proc].name);
			else
				snprintf(buf, n, "%s.%d", w->procs[r->proc].name, r->tnum);
			return;
		}
	vfs_thread_name(w, ev->tid, buf, n);
}

void vfs_inode_path(const struct vfs_world *w, int ino, char *buf, size_t n)
{
	int chain[64], len = 0;
	if (ino < 0 || ino >= w->ninodes) {
		snprintf(buf, n, "?");
		return;
	}
	for (int i = ino; i > 0 && len < 64; i = w->inodes[i].parent)
		chain[len++] = i;
	size_t off = 0;
	buf[0] = 0;
	if (!len)
		snprintf(buf, n, "/");
	while (len-- > 0 && off < n) {
		int r = snprintf(buf + off, n - off, "/%s", w->inodes[chain[len]].name);
		if (r < 0)
			break;
		off += (size_t)r;
	}
}

void vfs_obj_name(const struct vfs_world *w, int objkind, int obj, char *buf,
		  size_t n)
{
	switch (objkind) {
	case 1: snprintf(buf, n, "file#%d", w->files[obj].id); break;
	case 2: vfs_inode_path(w, obj, buf, n); break;
	case 3: snprintf(buf, n, "files#%d", obj); break;
	case 4: snprintf(buf, n, "s_vfs_rename_mutex"); break;
	case VOK_PROC: snprintf(buf, n, "%s", w->procs[obj].name); break;
	default: snprintf(buf, n, "-"); break;
	}
}

void vfs_lock_name(const struct vfs_world *w, vfs_lid_t lid, char *buf, size_t n)
{
	char obj[VFS_PATH_MAX];
	int idx = VFS_LID_IDX(lid);
	switch (VFS_LID_KIND(lid)) {
	case LID_FILE_POS:
		snprintf(buf, n, "file#%d f_pos_lock", w->files[idx].id); break;
	case LID_FILE_LOCK:
		snprintf(buf, n, "file#%d f_lock", w->files[idx].id); break;
	case LID_INODE:
		vfs_inode_path(w, idx, obj, sizeof obj);
		snprintf(buf, n, "%s %s", obj, w->k.dir_lock ? "i_rwsem" : "i_mutex");
		break;
	case LID_DENTRY:
		vfs_inode_path(w, idx, obj, sizeof obj);
		snprintf(buf, n, "%s d_update", obj);
		break;
	case LID_EXEC:          /* the process's signal_struct's lock */
		snprintf(buf, n, "%s %s", w->procs[idx].name,
			 vfs_exec_locks[w->k.exec_lock].name);
		break;
	default:
		snprintf(buf, n, "s_vfs_rename_mutex"); break;
	}
}

void vfs_ret_text(int64_t ret, char *buf, size_t n)
{
	const char *e = vfs_ret_errno(ret);
	if (e)
		snprintf(buf, n, "-1 %s", e);
	else
		snprintf(buf, n, "%" PRId64, ret);
}

/* The event's inode slot holds another inode now (or none). */
static bool ev_inode_gone(const struct vfs_world *w, const struct vfs_event *ev,
			  int slot)
{
	return ev->ino && (slot < 0 || slot >= w->ninodes ||
			   w->inodes[slot].ino != ev->ino);
}

/* Names of an event's object as it was when the event happened. */
void vfs_event_obj_name(const struct vfs_world *w, const struct vfs_event *ev,
			char *buf, size_t n)
{
	if (ev->objkind == 1 && ev->file_id)
		snprintf(buf, n, "file#%d", ev->file_id);
	else if (ev->objkind == 2 && ev_inode_gone(w, ev, ev->obj))
		snprintf(buf, n, "inode#%d", ev->ino);
	else
		vfs_obj_name(w, ev->objkind, ev->obj, buf, n);
}

void vfs_event_lock_name(const struct vfs_world *w, const struct vfs_event *ev,
			 char *buf, size_t n)
{
	int k = VFS_LID_KIND(ev->lock);
	if (ev->op == OP_SKIP) {
		if (ev->file_id)
			snprintf(buf, n, "file#%d f_pos_lock", ev->file_id);
		else
			snprintf(buf, n, "f_pos_lock");
	} else if ((k == LID_FILE_POS || k == LID_FILE_LOCK) && ev->file_id) {
		snprintf(buf, n, "file#%d %s", ev->file_id,
			 k == LID_FILE_POS ? "f_pos_lock" : "f_lock");
	} else if (k == LID_EXEC) {     /* named as the era it was taken in */
		snprintf(buf, n, "%s %s", w->procs[VFS_LID_IDX(ev->lock)].name,
			 vfs_class_name(ev->cls));
	} else if ((k == LID_INODE || k == LID_DENTRY) &&
		   ev_inode_gone(w, ev, VFS_LID_IDX(ev->lock))) {
		snprintf(buf, n, "inode#%d %s", ev->ino, k == LID_DENTRY ? "d_update" :
			 w->k.dir_lock ? "i_rwsem" : "i_mutex");
	} else {
		vfs_lock_name(w, ev->lock, buf, n);
	}
}

void vfs_event_entry_name(const struct vfs_world *w, const struct vfs_event *ev,
			  char *buf, size_t n)
{
	if (ev->value == 0)
		snprintf(buf, n, ".");
	else if (ev->value == 1)
		snprintf(buf, n, "..");
	else if (ev->obj < 0 || ev->obj >= w->ninodes)
		snprintf(buf, n, "?");
	else if (ev_inode_gone(w, ev, ev->obj))
		snprintf(buf, n, "inode#%d", ev->ino);
	else
		snprintf(buf, n, "%s", w->inodes[ev->obj].name);
}

const char *vfs_event_point(const struct vfs_world *w, const struct vfs_event *ev)
{
	return ev->rp < RP__COUNT ? vfs_rps[ev->rp].name : kfn_point_name(w, ev->rp);
}

/* The widest "function:step" (the column of `trace steps`), the
 * definitions' steps too. */
static int point_width(const struct vfs_world *w)
{
	static int width;
	if (!width)
		for (int i = 0; i < RP__COUNT; i++)
			if ((int)strlen(vfs_rps[i].name) > width)
				width = (int)strlen(vfs_rps[i].name);
	return w->kdefs && w->kdefs->point_width > width ? w->kdefs->point_width : width;
}

/* The line; POINT: with the step's column after the thread's. */
static void event_text(const struct vfs_world *w, const struct vfs_event *ev,
		       bool point, char *buf, size_t n)
{
	char th[32], obj[VFS_PATH_MAX + 16], r[32];
	int o;

	vfs_event_thread_name(w, ev, th, sizeof th);
	if (point)
		o = snprintf(buf, n, "%5d %-6s %-*s %-24s %-9s", ev->step, th,
			     point_width(w), vfs_event_point(w, ev),
			     vfs_fn_name(ev->fn), vfs_op_name(ev->op));
	else
		o = snprintf(buf, n, "%5d %-6s %-24s %-9s", ev->step, th,
			     vfs_fn_name(ev->fn), vfs_op_name(ev->op));
	if (o < 0 || (size_t)o >= n)
		return;
	buf += o;
	n -= (size_t)o;
	switch (ev->op) {
	case OP_EXIT:
		vfs_ret_text(ev->ret, r, sizeof r);
		snprintf(buf, n, " = %s", r);
		break;
	case OP_ACQUIRE: case OP_RELEASE: case OP_BLOCK: case OP_WAKE:
	case OP_DOWNGRADE: case OP_SKIP: case OP_FAIL: {
		char ln[VFS_PATH_MAX + 32];
		if (ev->op == OP_SKIP) {
			vfs_event_obj_name(w, ev, obj, sizeof obj);
			snprintf(buf, n, " f_pos_lock %s (not taken)", obj);
			break;
		}
		vfs_event_lock_name(w, ev, ln, sizeof ln);
		o = snprintf(buf, n, " %s %s", ln, vfs_mode_name(ev->mode));
		if (ev->op == OP_BLOCK && ev->other >= 0 && o > 0 && (size_t)o < n) {
			vfs_thread_name(w, ev->other, th, sizeof th);
			snprintf(buf + o, n - (size_t)o, " (held by %s)", th);
		}
		break;
	}
	case OP_READ: case OP_WRITE:
		vfs_event_obj_name(w, ev, obj, sizeof obj);
		snprintf(buf, n, " %s %s = %" PRId64 "%s", vfs_field_name(ev->field),
			 obj, ev->value, ev->atomic ? " (atomic)" : ev->rcu ? " (rcu-walk)" : "");
		break;
	case OP_EMIT:
		vfs_event_entry_name(w, ev, obj, sizeof obj);
		snprintf(buf, n, " %s (offset %" PRId64 ")", obj, ev->value);
		break;
	case OP_NOTE:
		snprintf(buf, n, " %s", ev->note ? ev->note : "");
		break;
	default:
		break;
	}
}

void vfs_event_text(const struct vfs_world *w, const struct vfs_event *ev,
		    char *buf, size_t n)
{
	event_text(w, ev, false, buf, n);
}

void vfs_event_text_point(const struct vfs_world *w, const struct vfs_event *ev,
			  char *buf, size_t n)
{
	event_text(w, ev, true, buf, n);
}

/* JSON string escaping for names we made (paths, thread names). */
static size_t json_str(char *buf, size_t n, const char *s)
{
	size_t o = 0;
	if (n < 3)
		return 0;
	buf[o++] = '"';
	for (; *s && o + 7 < n; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			buf[o++] = '\\';
			buf[o++] = (char)c;
		} else if (c < 0x20) {
			o += (size_t)snprintf(buf + o, n - o, "\\u%04x", c);
		} else {
			buf[o++] = (char)c;
		}
	}
	buf[o++] = '"';
	buf[o] = 0;
	return o;
}

#define APPEND(...) do { int r_ = snprintf(buf + o, n > o ? n - o : 0, __VA_ARGS__); \
	if (r_ > 0) o += (size_t)r_; } while (0)
#define APPEND_STR(key, s) do { APPEND(",\"%s\":", key); \
	if (o < n) o += json_str(buf + o, n - o, s); } while (0)

void vfs_event_jsonl(const struct vfs_world *w, const struct vfs_event *ev,
		     char *buf, size_t n)
{
	char th[32], obj[VFS_PATH_MAX + 16];
	size_t o = 0;

	vfs_event_thread_name(w, ev, th, sizeof th);
	APPEND("{\"seq\":%" PRIu64 ",\"step\":%d", ev->seq, ev->step);
	APPEND_STR("thread", th);
	APPEND_STR("fn", vfs_fn_name(ev->fn));
	APPEND_STR("op", vfs_op_name(ev->op));
	APPEND_STR("point", vfs_event_point(w, ev));
	switch (ev->op) {
	case OP_ENTER:
		if (ev->sys)
			APPEND(",\"syscall\":true");
		break;
	case OP_EXIT: {
		const char *e = vfs_ret_errno(ev->ret);
		APPEND(",\"ret\":%" PRId64, ev->ret);
		if (e)
			APPEND_STR("errno", e);
		break;
	}
	case OP_ACQUIRE: case OP_RELEASE: case OP_BLOCK: case OP_WAKE:
	case OP_DOWNGRADE: case OP_SKIP: case OP_FAIL:
		APPEND_STR("lock", ev->op == OP_SKIP ? "f_pos_lock" :
			   (ev->cls == LC_I_RWSEM_DIR || ev->cls == LC_I_RWSEM) &&
			   !w->k.dir_lock ? "i_mutex" : vfs_class_name(ev->cls));
		vfs_event_obj_name(w, ev, obj, sizeof obj);
		APPEND_STR("obj", obj);
		if (ev->op != OP_SKIP)
			APPEND_STR("mode", vfs_mode_name(ev->mode));
		if (ev->op == OP_BLOCK && ev->other >= 0) {
			vfs_thread_name(w, ev->other, th, sizeof th);
			APPEND_STR("holder", th);
		}
		break;
	case OP_READ: case OP_WRITE:
		APPEND_STR("field", vfs_field_name(ev->field));
		vfs_event_obj_name(w, ev, obj, sizeof obj);
		APPEND_STR("obj", obj);
		APPEND(",\"value\":%" PRId64, ev->value);
		if (ev->atomic)
			APPEND(",\"atomic\":true");
		if (ev->rcu)
			APPEND(",\"rcu\":true");
		break;
	case OP_EMIT:
		vfs_event_entry_name(w, ev, obj, sizeof obj);
		APPEND_STR("entry", obj);
		APPEND(",\"off\":%" PRId64, ev->value);
		break;
	case OP_NOTE:
		APPEND_STR("note", ev->note ? ev->note : "");
		break;
	default:
		break;
	}
	APPEND("}");
}

/* ---- emitting, for the paths ---- */

/* Enter FN, its entry's event EV made. */
static void fn_push(struct vx *x, struct vfs_event *ev, int fn)
{
	fn_stack_push(x, fn);
	if (x->t->nfn == 1)
		ev->sys = x->t->rec.call.sys;
	emit(x, ev);
}

/* Most entries: no file or directory (nothing reads them but the
 * dead-directory check and footprints of an iterator's entry). */
void fn_enter_made(struct vx *x, int fn)
{
	struct vfs_event ev = { .op = OP_ENTER, .fn = (uint8_t)fn,
		.file = -1, .dir = -1 };
	fn_push(x, &ev, fn);
}

/* A filesystem's iterator (->iterate_shared / ->iterate): the entry
 * carries the open file and the directory, which iterate_dir checked for
 * IS_DEADDIR before calling it (the dead-directory detector, and the
 * S_DEAD read in the explorers' footprint). */
void fn_enter_iter(struct vx *x, int fn)
{
	struct vfs_event ev = { .op = OP_ENTER, .fn = (uint8_t)fn,
		.file = x->t->f.file, .dir = x->t->f.inode };
	fn_push(x, &ev, fn);
}

void fn_exit_made(struct vx *x, int fn, int64_t ret)
{
	struct vfs_thread *t = x->t;
	fn_stack_pop(t, fn);
	struct vfs_event ev = { .op = OP_EXIT, .fn = (uint8_t)fn, .ret = ret };
	if (t->nfn == 0)
		ev.sys = t->rec.call.sys;
	emit(x, &ev);
}

void access_inode(struct vx *x, int fn, int field, int ino, int64_t v,
		  bool write)
{
	struct vfs_event ev = { .tid = (int8_t)x->tid,
		.op = write ? OP_WRITE : OP_READ, .fn = (uint8_t)fn,
		.field = (uint8_t)field, .objkind = VOK_INODE, .obj = ino, .value = v,
		.dir = -1 };
	emit(x, &ev);
}

void access_dir_change(struct vx *x, int fn, int dir, int entry)
{
	struct vfs_event ev = { .tid = (int8_t)x->tid, .op = OP_WRITE,
		.fn = (uint8_t)fn, .field = FLD_DIR, .objkind = VOK_INODE,
		.obj = dir, .value = x->w->inodes[dir].nchildren,
		.dir = entry };
	emit(x, &ev);
}

void access_rcu_walk(struct vx *x, int fn, int dir, int reached)
{
	struct vfs_event ev = { .tid = (int8_t)x->tid, .op = OP_READ,
		.fn = (uint8_t)fn, .field = FLD_DIR, .objkind = VOK_INODE,
		.obj = dir, .rcu = 1, .dir = reached };
	emit(x, &ev);
}

void access_fdt(struct vx *x, int fn, int fdt, bool write)
{
	struct vfs_event ev = { .tid = (int8_t)x->tid,
		.op = write ? OP_WRITE : OP_READ, .fn = (uint8_t)fn,
		.field = FLD_FDTABLE, .objkind = 3, .obj = fdt };
	emit(x, &ev);
}

void note(struct vx *x, int fn, const char *text)
{
	struct vfs_event ev = { .tid = (int8_t)x->tid, .op = OP_NOTE,
		.fn = (uint8_t)fn, .note = text };
	emit(x, &ev);
}
