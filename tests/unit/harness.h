/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * harness.h - a small header-only harness for the cmocka tests of core/.
 *
 * It drives the core API directly (no shell): a world on the heap, a sink
 * that records every trace event, call builders, and helpers that run one
 * thread until its call completes or blocks, or until it is about to enter
 * a kernel function.  Every world made by h_new() is freed by h_free() or,
 * when a test failed half-way, by the group teardown h_teardown().
 */
#ifndef VFSIM_TEST_HARNESS_H
#define VFSIM_TEST_HARNESS_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "vfsim.h"
#include "world_layout.h"   /* the unit tests of core/ read its fields */

#define H_BLOCKED INT64_MIN     /* h_finish: the thread is waiting */
#define H_MAX_STEPS 100000      /* one call never needs more */

struct h_log {
	struct vfs_event *ev;
	size_t n, cap;
	bool keep;              /* false: count events, do not store them */
	size_t total;
};

struct h {
	struct vfs_world *w;
	struct h_log log;
	struct vfs_sink sink;
	struct h *next;         /* registry, for the teardown */
};

static struct h *h_all;

static void h_sink_fn(void *ctx, const struct vfs_world *w,
		      const struct vfs_event *ev)
{
	struct h_log *l = ctx;
	(void)w;
	l->total++;
	if (!l->keep)
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->ev = realloc(l->ev, l->cap * sizeof *l->ev);
		if (!l->ev)
			abort();
	}
	l->ev[l->n++] = *ev;
}

static inline struct h *h_new(const char *preset)
{
	const struct vfs_preset *p = vfs_preset_lookup(preset);
	if (!p)
		fail_msg("unknown preset %s", preset);
	struct h *h = calloc(1, sizeof *h);
	assert_non_null(h);
	h->w = calloc(1, sizeof *h->w);
	assert_non_null(h->w);
	vfs_world_init(h->w, p);
	h->log.keep = true;
	h->sink.fn = h_sink_fn;
	h->sink.ctx = &h->log;
	h->next = h_all;
	h_all = h;
	return h;
}

static inline void h_free(struct h *h)
{
	for (struct h **pp = &h_all; *pp; pp = &(*pp)->next)
		if (*pp == h) {
			*pp = h->next;
			break;
		}
	free(h->log.ev);
	vfs_world_free(h->w);
	free(h);
}

/* Group teardown: frees what failed tests left behind. */
static inline int h_teardown(void **state)
{
	(void)state;
	while (h_all)
		h_free(h_all);
	return 0;
}

/* ---- set-up ---- */

static inline void h_mkdir(struct h *h, const char *path)
{
	assert_int_equal(vfs_setup_mkdir(h->w, path, true), 0);
}

static inline void h_touch(struct h *h, const char *path)
{
	assert_int_equal(vfs_setup_touch(h->w, path, true), 0);
}

/* The story's directory: /d with a, b and c (ino order: d, a, b, c). */
static inline void h_dir_abc(struct h *h)
{
	h_mkdir(h, "/d");
	h_touch(h, "/d/a");
	h_touch(h, "/d/b");
	h_touch(h, "/d/c");
}

static inline void h_mount(struct h *h, const char *fstype, const char *path)
{
	assert_int_equal(vfs_setup_mount(h->w, fstype, path, NULL), 0);
}

/* Set knob NAME of H's world to VALUE (as `set NAME VALUE`). */
static inline void h_knob(struct h *h, const char *name, const char *value)
{
	const struct vfs_knob_desc *d = vfs_knob_lookup(name);
	assert_non_null(d);
	assert_int_equal(vfs_knob_set(&h->w->k, d, value), 0);
}

/* v6.5 with /a/x and /b/y, cross-directory renames taking their parents
 * as knob rename-lock RENLOCK says */
static inline struct h *h_two_dirs(const char *renlock)
{
	struct h *h = h_new("v6.5");
	h_knob(h, "rename-lock", renlock);
	h_mkdir(h, "/a");
	h_mkdir(h, "/b");
	h_touch(h, "/a/x");
	h_touch(h, "/b/y");
	return h;
}

static inline int h_tid(struct h *h, const char *name)
{
	int t = vfs_thread_by_name(h->w, name);
	if (t < 0)
		fail_msg("no thread %s", name);
	return t;
}

/* Spawns NAME and returns its (first) thread's index. */
static inline int h_spawn(struct h *h, const char *name, int uid)
{
	int p = vfs_spawn(h->w, name, uid);
	assert_true(p >= 0);
	return h_tid(h, name);
}

static inline int h_pid(struct h *h, int tid)
{
	return h->w->procs[h->w->threads[tid].proc].pid;
}

/* The file index that thread TID's process has at FD (-1: none). */
static inline int h_file(struct h *h, int tid, int fd)
{
	return vfs_fd_file(h->w, h->w->threads[tid].proc, fd);
}

static inline int h_count(struct h *h, int tid, int fd)
{
	int f = h_file(h, tid, fd);
	assert_true(f >= 0);
	return h->w->files[f].f_count;
}

/* ---- calls ---- */

/* A call and its strings, interned into the world it is submitted to. */
struct hcall { struct vfs_call c; const char *s0, *s1; };

static inline struct hcall h_c(int sys, int64_t a0, int64_t a1, int64_t a2,
				  const char *s0, const char *s1)
{
	struct hcall c;
	memset(&c, 0, sizeof c);
	c.c.sys = (uint8_t)sys;
	c.c.a[0] = a0;
	c.c.a[1] = a1;
	c.c.a[2] = a2;
	c.s0 = s0;
	c.s1 = s1;
	return c;
}

/* vfs_submit with the strings: 0, or -1 when vfs_submit refuses. */
static inline int h_vsubmit(struct vfs_world *w, int tid, struct hcall c)
{
	if (c.s0)
		assert_int_equal(vfs_call_set_str(w, &c.c, 0, c.s0), 0);
	if (c.s1)
		assert_int_equal(vfs_call_set_str(w, &c.c, 1, c.s1), 0);
	return vfs_submit(w, tid, &c.c) < 0 ? -1 : 0;
}
#define C_OPEN(path, fl)      h_c(SYS_OPEN, 0, (fl), 0, (path), NULL)
#define C_CLOSE(fd)           h_c(SYS_CLOSE, (fd), 0, 0, NULL, NULL)
#define C_DUP(fd)             h_c(SYS_DUP, (fd), 0, 0, NULL, NULL)
#define C_DUP2(o, n)          h_c(SYS_DUP2, (o), (n), 0, NULL, NULL)
#define C_CLONE()             h_c(SYS_CLONE, 0, 0, 0, NULL, NULL)
#define C_FORK(name)          h_c(SYS_FORK, 0, 0, 0, (name), NULL)
#define C_EXIT()              h_c(SYS_EXIT, 0, 0, 0, NULL, NULL)
#define C_PIDFD_OPEN(pid)     h_c(SYS_PIDFD_OPEN, (pid), 0, 0, NULL, NULL)
#define C_PIDFD_GETFD(p, fd)  h_c(SYS_PIDFD_GETFD, (p), (fd), 0, NULL, NULL)
#define C_GETDENTS(fd, n)     h_c(SYS_GETDENTS, (fd), (n), 0, NULL, NULL)
#define C_LSEEK(fd, off, wh)  h_c(SYS_LSEEK, (fd), (off), (wh), NULL, NULL)
#define C_READ(fd, n)         h_c(SYS_READ, (fd), (n), 0, NULL, NULL)
#define C_WRITE(fd, text)     h_c(SYS_WRITE, (fd), 0, 0, (text), NULL)
#define C_PREAD(fd, n, off)   h_c(SYS_PREAD, (fd), (n), (off), NULL, NULL)
#define C_PWRITE(fd, t, off)  h_c(SYS_PWRITE, (fd), 0, (off), (t), NULL)
#define C_MKDIR(path)         h_c(SYS_MKDIR, 0, 0, 0, (path), NULL)
#define C_RMDIR(path)         h_c(SYS_RMDIR, 0, 0, 0, (path), NULL)
#define C_UNLINK(path)        h_c(SYS_UNLINK, 0, 0, 0, (path), NULL)
#define C_RENAME(a, b)        h_c(SYS_RENAME, 0, 0, 0, (a), (b))
#define C_CREAT(path)         h_c(SYS_CREAT, 0, 0, 0, (path), NULL)

static inline void h_submit(struct h *h, int tid, struct hcall c)
{
	assert_int_equal(h_vsubmit(h->w, tid, c), 0);
}

static inline bool h_step(struct h *h, int tid)
{
	assert_true(vfs_runnable(h->w, tid));
	return vfs_step(h->w, tid, &h->sink);
}

/* Step TID until a call completes (its result) or it blocks (H_BLOCKED). */
static inline int64_t h_finish(struct h *h, int tid)
{
	struct vfs_world *w = h->w;
	for (int i = 0; i < H_MAX_STEPS; i++) {
		if (!vfs_runnable(w, tid))
			break;
		if (vfs_step(w, tid, &h->sink))
			return w->threads[tid].rec.ret;
	}
	if (w->threads[tid].state == TS_BLOCKED)
		return H_BLOCKED;
	fail_msg("thread %d neither finished nor blocked", tid);
	return 0;
}

/* Submit C on TID and run it until it completes or blocks. */
static inline int64_t h_do(struct h *h, int tid, struct hcall c)
{
	h_submit(h, tid, c);
	return h_finish(h, tid);
}

/* Step TID until it is about to run a step in kernel function FN.
 * Fails the test when the call completes or blocks first. */
static inline void h_until(struct h *h, int tid, int fn)
{
	struct vfs_world *w = h->w;
	for (int i = 0; i < H_MAX_STEPS; i++) {
		if (!vfs_runnable(w, tid))
			fail_msg("thread %d stopped before %s", tid, vfs_fn_name(fn));
		if (vfs_next_fn(w, tid, NULL) == fn)
			return;
		if (vfs_step(w, tid, &h->sink) && !vfs_has_work(w, tid))
			fail_msg("thread %d completed before %s", tid,
				 vfs_fn_name(fn));
	}
	fail_msg("thread %d never reached %s", tid, vfs_fn_name(fn));
}

/* v6.4, /d with a, b and c: A has read ".", ".." and "a" (fd 3), B has a
 * pidfd on A (fd 3), and A's getdents 3 2 is pending: it borrows the file
 * (f_count 1: no f_pos_lock), so a thief's lseek may come between its
 * read of f_pos (3) and the entries it hands out (the skipped-entry
 * detector's case). */
static inline struct h *h_seek_under_getdents(void)
{
	struct h *h = h_new("v6.4");
	h_dir_abc(h);
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, A, C_GETDENTS(3, 3)), 3);
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
	h_submit(h, A, C_GETDENTS(3, 2));
	return h;
}

/* Run the scheduler until nothing is runnable; returns the steps run. */
static inline int h_run(struct h *h, int max_steps)
{
	int n = 0, t;
	while (n < max_steps && (t = vfs_sched_pick(h->w)) >= 0) {
		vfs_step(h->w, t, &h->sink);
		n++;
	}
	return n;
}

/* ---- looking at the recorded events ---- */

static inline size_t h_mark(struct h *h)
{
	return h->log.n;
}

static inline void h_clear(struct h *h)
{
	h->log.n = 0;
}

/* Events since MARK of thread TID (-1: any) with OP and lock class CLS
 * (LC_NONE: any). */
static inline int h_nev(struct h *h, size_t mark, int tid, int op, int cls)
{
	int n = 0;
	for (size_t i = mark; i < h->log.n; i++) {
		const struct vfs_event *e = &h->log.ev[i];
		if ((tid < 0 || e->tid == tid) && e->op == op &&
		    (cls == LC_NONE || e->cls == cls))
			n++;
	}
	return n;
}

static inline bool h_is_irwsem(int cls)
{
	return cls == LC_I_RWSEM_DIR || cls == LC_I_RWSEM;
}

/* The i_rwsem (or i_mutex) lock events of TID since MARK, as text:
 * "acquire:read release:read acquire:write downgrade:read release:read" */
static inline void h_irwsem_seq(struct h *h, size_t mark, int tid, char *buf,
				size_t n)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = mark; i < h->log.n; i++) {
		const struct vfs_event *e = &h->log.ev[i];
		if (e->tid != tid || !h_is_irwsem(e->cls))
			continue;
		if (e->op != OP_ACQUIRE && e->op != OP_RELEASE &&
		    e->op != OP_DOWNGRADE && e->op != OP_BLOCK &&
		    e->op != OP_WAKE)
			continue;
		int r = snprintf(buf + o, n - o, "%s%s:%s", o ? " " : "",
				 vfs_op_name(e->op), vfs_mode_name(e->mode));
		if (r < 0 || (size_t)r >= n - o)
			break;
		o += (size_t)r;
	}
}

/* Same, with the kernel function of each event: "down_read_killable ..." */
static inline void h_irwsem_fns(struct h *h, size_t mark, int tid, char *buf,
				size_t n)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = mark; i < h->log.n; i++) {
		const struct vfs_event *e = &h->log.ev[i];
		if (e->tid != tid || !h_is_irwsem(e->cls) ||
		    (e->op != OP_ACQUIRE && e->op != OP_RELEASE &&
		     e->op != OP_DOWNGRADE))
			continue;
		int r = snprintf(buf + o, n - o, "%s%s", o ? " " : "",
				 vfs_fn_name(e->fn));
		if (r < 0 || (size_t)r >= n - o)
			break;
		o += (size_t)r;
	}
}

/* A thread's most recent getdents entries as names: ". .. a b" */
static inline void h_entries(struct h *h, int tid, char *buf, size_t n)
{
	const struct vfs_callrec *r = &h->w->threads[tid].rec;
	size_t o = 0;
	buf[0] = 0;
	for (int i = 0; i < r->nent && o < n; i++) {
		const char *name = vfs_rec_entry_name(h->w, tid, i);
		int k = snprintf(buf + o, n - o, "%s%s", i ? " " : "", name);
		if (k < 0)
			break;
		o += (size_t)k;
	}
}

#endif
