/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_lockorder.c - "f_pos_lock before i_rwsem; nothing takes an f_pos
 * lock while holding an inode lock" (kernel-reference.md section 7), on
 * every path of long random runs: several threads in several processes
 * making getdents, lseek, read, write, mkdir, rmdir and rename calls on
 * shared files and directories of several filesystem types, scheduled at
 * random, under several presets.  The check reads the trace only.
 */
#include "harness.h"

#define MAXHELD 16

/* Which locks each thread holds, from the events alone. */
struct order {
	vfs_lid_t held[VFS_MAX_THREADS][MAXHELD];
	uint8_t cls[VFS_MAX_THREADS][MAXHELD];
	int n[VFS_MAX_THREADS];
	long fpos_acq, irwsem_acq, blocks, violations, events;
	char first[200];
};

static void order_event(struct order *o, const struct vfs_event *e)
{
	int t = e->tid;
	o->events++;
	if (t < 0 || t >= VFS_MAX_THREADS)
		return;
	if ((e->op == OP_ACQUIRE || e->op == OP_BLOCK) && e->cls == LC_F_POS_LOCK) {
		for (int i = 0; i < o->n[t]; i++)
			if (h_is_irwsem(o->cls[t][i])) {
				if (!o->violations++)
					snprintf(o->first, sizeof o->first,
						 "step %d: thread %d %s f_pos_lock in "
						 "%s while holding an i_rwsem", e->step,
						 t, vfs_op_name(e->op),
						 vfs_fn_name(e->fn));
				break;
			}
	}
	switch (e->op) {
	case OP_ACQUIRE:
		if (o->n[t] < MAXHELD) {
			o->held[t][o->n[t]] = e->lock;
			o->cls[t][o->n[t]] = e->cls;
			o->n[t]++;
		}
		o->fpos_acq += e->cls == LC_F_POS_LOCK;
		o->irwsem_acq += h_is_irwsem(e->cls);
		break;
	case OP_RELEASE:
		for (int i = o->n[t] - 1; i >= 0; i--)
			if (o->held[t][i] == e->lock) {
				memmove(&o->held[t][i], &o->held[t][i + 1],
					(size_t)(o->n[t] - i - 1) * sizeof o->held[t][0]);
				memmove(&o->cls[t][i], &o->cls[t][i + 1],
					(size_t)(o->n[t] - i - 1));
				o->n[t]--;
				break;
			}
		break;
	case OP_BLOCK:
		o->blocks++;
		break;
	}
}

static void order_sink(void *ctx, const struct vfs_world *w,
		       const struct vfs_event *ev)
{
	(void)w;
	order_event(ctx, ev);
}

/* The checker itself must be able to say no. */
static void test_checker_detects(void **state)
{
	(void)state;
	static struct order o;
	memset(&o, 0, sizeof o);
	struct vfs_event e = { .tid = 1, .op = OP_ACQUIRE, .cls = LC_I_RWSEM_DIR,
		.lock = VFS_LID(LID_INODE, 3), .mode = M_READ };
	order_event(&o, &e);
	e.cls = LC_F_POS_LOCK;
	e.lock = VFS_LID(LID_FILE_POS, 0);
	e.mode = M_EXCL;
	order_event(&o, &e);
	assert_int_equal(o.violations, 1);
	/* released first: fine */
	memset(&o, 0, sizeof o);
	e = (struct vfs_event){ .tid = 1, .op = OP_ACQUIRE, .cls = LC_I_RWSEM,
		.lock = VFS_LID(LID_INODE, 3), .mode = M_WRITE };
	order_event(&o, &e);
	e.op = OP_RELEASE;
	order_event(&o, &e);
	e = (struct vfs_event){ .tid = 1, .op = OP_BLOCK, .cls = LC_F_POS_LOCK,
		.lock = VFS_LID(LID_FILE_POS, 0), .mode = M_EXCL };
	order_event(&o, &e);
	assert_int_equal(o.violations, 0);
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const char *const dirs[] = { "/d/s1", "/d/s2", "/x/s1", "/t/s1",
	"/o/s1", "/e/s1" };
static const char *const renames[][2] = {
	{ "/d/a", "/d/z" }, { "/d/z", "/d/a" }, { "/d/s1", "/e/s1" },
	{ "/e/s1", "/d/s1" }, { "/x/a", "/x/y" }, { "/x/y", "/x/a" },
	{ "/d/b", "/e/b" }, { "/e/b", "/d/b" },
};

static struct hcall random_call(uint64_t *s, bool pidfd_fd)
{
	int dirfds[] = { 3, 5, 6, 7, 8, 9 };
	int nd = pidfd_fd ? 6 : 5;
	int fd = dirfds[rnd(s) % (uint64_t)nd];
	switch (rnd(s) % 10) {
	case 0: case 1: case 2:
		return C_GETDENTS(fd, (int64_t)(rnd(s) % 4));
	case 3: case 4:
		return C_LSEEK(rnd(s) % 3 ? fd : 4, (int64_t)(rnd(s) % 6) - 1,
			       (int64_t)(rnd(s) % 3));
	case 5:
		return C_READ(rnd(s) % 2 ? fd : 4, (int64_t)(rnd(s) % 8));
	case 6:
		return C_WRITE(4, "xy");
	case 7:
		return C_MKDIR(dirs[rnd(s) % 6]);
	case 8:
		return C_RMDIR(dirs[rnd(s) % 6]);
	default: {
		int k = (int)(rnd(s) % 8);
		return C_RENAME(renames[k][0], renames[k][1]);
	}
	}
}

static void run_one(const char *preset, uint64_t seed, struct order *o)
{
	struct h *h = h_new(preset);
	struct vfs_world *w = h->w;
	h->sink.fn = order_sink;
	h->sink.ctx = o;
	h_mkdir(h, "/d");
	h_mkdir(h, "/e");
	h_touch(h, "/d/a");
	h_touch(h, "/d/b");
	h_touch(h, "/d/c");
	h_touch(h, "/f");
	h_mount(h, "exfat", "/x");
	h_touch(h, "/x/a");
	h_mount(h, "tmpfs", "/t");
	h_touch(h, "/t/a");
	h_mount(h, "ceph", "/c");
	h_touch(h, "/c/a");
	h_mount(h, "overlayfs", "/o");
	h_touch(h, "/o/a");
	int A = h_spawn(h, "A", 0), C = h_spawn(h, "C", 0);
	static const char *const opens[] = { "/d", "/f", "/x", "/t", "/c", "/o" };
	for (int i = 0; i < 6; i++)
		assert_int_equal(h_do(h, A, C_OPEN(opens[i], i == 1 ? VO_RDWR :
						    VO_RDONLY)), 3 + i);
	/* C: its own /d and /f, and A's /d through pidfd_getfd (fd 9) */
	assert_int_equal(h_do(h, C, C_OPEN("/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, C, C_OPEN("/f", VO_RDWR)), 4);
	for (int fd = 5; fd < 9; fd++)
		assert_int_equal(h_do(h, C, C_DUP(3)), fd);
	bool pidfd = w->k.pidfd_getfd;
	if (pidfd) {
		assert_int_equal(h_do(h, C, C_PIDFD_OPEN(h_pid(h, A))), 9);
		assert_int_equal(h_do(h, C, C_PIDFD_GETFD(9, 3)), 10);
		assert_int_equal(h_do(h, C, C_DUP2(10, 9)), 9);
	}
	assert_true(h_do(h, A, C_CLONE()) > 0);
	assert_true(h_do(h, A, C_CLONE()) > 0);
	assert_true(h_do(h, A, C_FORK("B")) > 0);

	w->sched = VSCHED_RANDOM;
	w->rng = seed * 0x9e3779b97f4a7c15ull + 1;
	uint64_t s = seed + 12345;
	int calls = 0;
	for (int step = 0; step < 100000; step++) {
		for (int t = 0; t < w->nthreads; t++)
			if (!vfs_has_work(w, t) && calls < 10000 && rnd(&s) % 3 == 0) {
				assert_int_equal(h_vsubmit(w, t, random_call(&s, pidfd)), 0);
				calls++;
			}
		int t = vfs_sched_pick(w);
		if (t < 0) {
			if (vfs_all_blocked(w))
				fail_msg("%s seed %llu: every thread blocked at step %d",
					 preset, (unsigned long long)seed, w->step);
			if (calls >= 10000)
				break;
			continue;
		}
		vfs_step(w, t, &h->sink);
		if (o->violations)
			fail_msg("%s seed %llu: %s", preset,
				 (unsigned long long)seed, o->first);
	}
	/* whatever is left runs out */
	h_run(h, 100000);
	assert_int_equal(vfs_nrunnable(w), 0);
	assert_false(vfs_all_blocked(w));
	for (int t = 0; t < w->nthreads; t++)
		assert_int_equal(w->threads[t].nheld, 0);
	h_free(h);
}

static void test_random_runs(void **state)
{
	(void)state;
	static const char *const presets[] = { "v3.13", "v4.7", "v6.4",
		"20ea1e7d13c1", "v6.5", "mainline" };
	static struct order o;
	for (size_t p = 0; p < sizeof presets / sizeof presets[0]; p++)
		for (uint64_t seed = 1; seed <= 4; seed++) {
			memset(&o, 0, sizeof o);
			run_one(presets[p], seed, &o);
			assert_int_equal(o.violations, 0);
			/* the run exercised both locks and some contention */
			if (strcmp(presets[p], "v3.13"))
				assert_true(o.fpos_acq > 0);
			assert_true(o.irwsem_acq > 100);
			assert_true(o.blocks > 0);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checker_detects),
		cmocka_unit_test(test_random_runs),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
