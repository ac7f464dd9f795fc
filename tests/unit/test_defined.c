/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_defined.c - kernel functions and system calls a script defines as
 * steps (core/defined.c): what a definition refuses, each step as one
 * traced atomic step named after the definition, the race detector and
 * explore on defined accesses, lockdep's subclass of a nested step, the
 * definitions shared by world copies, each step named FUNCTION:LABEL as
 * the kernel's own are.
 */
#include "harness.h"
#include "explore.h"

#define LOCK(l, o)   { .op = KS_LOCK, .lock = (l), .obj = (o), .sub = -1, .mode = M_EXCL }
#define UNLOCK(l, o) { .op = KS_UNLOCK, .lock = (l), .obj = (o), .sub = -1 }
#define READ(fl, o)  { .op = KS_READ, .field = (fl), .obj = (o), .sub = -1 }
#define FDGET_P0     { .op = KS_FDGET, .a = { KV_PARAM, 0 }, .sub = -1 }
#define FDPUT        { .op = KS_FDPUT, .sub = -1 }
#define RETURN(k, v) { .op = KS_RETURN, .a = { (k), (v) }, .sub = -1 }

static struct vfs_kfn kfn(const char *name, bool sys, int n,
			  const struct vfs_kstep *steps)
{
	struct vfs_kfn f;
	memset(&f, 0, sizeof f);
	snprintf(f.name, sizeof f.name, "%s", name);
	f.syscall = sys;
	if (sys) {
		f.nparams = 1;
		strcpy(f.params[0], "FD");
	}
	f.nsteps = (uint8_t)n;
	memcpy(f.step, steps, sizeof steps[0] * (size_t)n);
	return f;
}

static int define(struct h *h, const struct vfs_kfn *f, int *bad, char *err)
{
	return vfs_kfn_define(h->w, f, bad, err, 256);
}

static struct hcall c_def(int k, int64_t fd)
{
	struct hcall c = h_c(SYS_DEFINED, fd, 0, 0, NULL, NULL);
	c.c.def = (uint8_t)k;
	return c;
}

/* f_pos, read under f_pos_lock: the lock's own use */
static const struct vfs_kstep getpos[] = {
	FDGET_P0, LOCK(KL_F_POS_LOCK, KO_FILE), READ(FLD_F_POS, KO_FILE),
	UNLOCK(KL_F_POS_LOCK, KO_FILE), FDPUT, RETURN(KV_FIELD, FLD_F_POS),
};

static void test_refused(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	char err[256];
	int bad;
	/* a lock still held at return: the return is at fault */
	const struct vfs_kstep held[] = { FDGET_P0, LOCK(KL_F_POS_LOCK, KO_FILE),
					  FDPUT, RETURN(KV_CONST, 0) };
	struct vfs_kfn f = kfn("held", true, 4, held);
	assert_int_equal(define(h, &f, &bad, err), -1);
	assert_int_equal(bad, 2);       /* the fdput under the lock */
	const struct vfs_kstep held2[] = { FDGET_P0, FDPUT, LOCK(KL_F_POS_LOCK, KO_FILE),
					   RETURN(KV_CONST, 0) };
	f = kfn("held", false, 2, held2 + 2);
	assert_int_equal(define(h, &f, &bad, err), -1);
	assert_int_equal(bad, 1);
	assert_non_null(strstr(err, "still held at return"));
	/* an unlock of a lock not held */
	const struct vfs_kstep unheld[] = { FDGET_P0, UNLOCK(KL_F_POS_LOCK, KO_FILE),
					    FDPUT };
	f = kfn("unheld", true, 3, unheld);
	assert_int_equal(define(h, &f, &bad, err), -1);
	assert_int_equal(bad, 1);
	assert_non_null(strstr(err, "not held here"));
	/* fdget without fdput: the implicit return at the end is at fault */
	f = kfn("leak", true, 1, getpos);
	assert_int_equal(define(h, &f, &bad, err), -1);
	assert_int_equal(bad, 1);
	assert_non_null(strstr(err, "without fdput"));
	/* the inode's field on the file; i_rwsem of the file */
	const struct vfs_kstep wrong[] = { FDGET_P0, READ(FLD_SIZE, KO_FILE), FDPUT };
	f = kfn("wrong", true, 3, wrong);
	assert_int_equal(define(h, &f, &bad, err), -1);
	assert_int_equal(bad, 1);
	const struct vfs_kstep wrong2[] = { FDGET_P0, LOCK(KL_I_RWSEM, KO_FILE) };
	f = kfn("wrong", true, 2, wrong2);
	assert_int_equal(define(h, &f, &bad, err), -1);
	assert_int_equal(bad, 1);
	/* a system call's file comes from fdget */
	f = kfn("nofile", true, 1, getpos + 2);
	assert_int_equal(define(h, &f, &bad, err), -1);
	assert_int_equal(bad, 0);
	/* a cycle: a function calling itself (the index it would get) */
	const struct vfs_kstep self[] = { { .op = KS_CALL, .callee = 0, .sub = -1 } };
	f = kfn("self", false, 1, self);
	assert_int_equal(define(h, &f, &bad, err), -1);
	assert_non_null(strstr(err, "cycle"));
	/* a built-in kernel function's name; nothing was added */
	f = kfn("iterate_dir", true, 6, getpos);
	assert_int_equal(define(h, &f, &bad, err), -1);
	assert_int_equal(bad, -1);
	assert_int_equal(vfs_nkfns(h->w), 0);
	assert_null(h->w->kdefs);
	/* and a good one, then its name again */
	f = kfn("getpos", true, 6, getpos);
	assert_int_equal(define(h, &f, &bad, err), 0);
	assert_int_equal(define(h, &f, &bad, err), -1);
	assert_non_null(strstr(err, "defined already"));
	h_free(h);
}

static void test_steps(void **state)
{
	(void)state;
	struct h *h = h_new("v6.4");
	char err[256];
	int bad, a = h_spawn(h, "A", 0);
	h_mkdir(h, "/d");
	struct vfs_kfn f = kfn("getpos", true, 6, getpos);
	int k = define(h, &f, &bad, err);
	assert_int_equal(k, 0);
	int fn = vfs_kfn_get(h->w, k)->fn;
	assert_string_equal(vfs_fn_name(fn), "getpos");
	assert_int_equal(vfs_fn_lookup("getpos"), fn);
	assert_int_equal(vfs_kfn_get(h->w, k)->nsteps, 6);
	assert_int_equal(h_do(h, a, C_OPEN("/d", VO_DIRECTORY)), 3);
	assert_int_equal(h_do(h, a, C_LSEEK(3, 2, VSEEK_SET)), 2);
	size_t mark = h_mark(h);
	int32_t step0 = h->w->step;
	assert_int_equal(h_do(h, a, c_def(k, 3)), 2);
	/* entry, fdget, lock, read, unlock, fdput, return: a step each */
	assert_int_equal(h->w->step - step0, 7);
	assert_int_equal(h_nev(h, mark, a, OP_ACQUIRE, LC_F_POS_LOCK), 1);
	assert_int_equal(h_nev(h, mark, a, OP_RELEASE, LC_F_POS_LOCK), 1);
	bool read = false, entered = false;
	for (size_t i = mark; i < h->log.n; i++) {
		const struct vfs_event *ev = &h->log.ev[i];
		if (ev->op == OP_READ && ev->field == FLD_F_POS) {
			assert_int_equal(ev->fn, fn);
			assert_int_equal(ev->value, 2);
			read = true;
		}
		if (ev->op == OP_ENTER && ev->fn == fn) {
			assert_int_equal(ev->sys, SYS_DEFINED);
			entered = true;
		}
		if (ev->op == OP_ACQUIRE)
			assert_int_equal(ev->fn, VFN_mutex_lock);
	}
	assert_true(read && entered);
	/* the strace line and the words */
	char buf[64];
	vfs_call_strace(h->w, &h->w->threads[a].rec.call, buf, sizeof buf);
	assert_string_equal(buf, "getpos(3)");
	/* a descriptor that names nothing: fdget's -EBADF, no lock taken */
	mark = h_mark(h);
	assert_int_equal(h_do(h, a, c_def(k, 9)), -VE_BADF);
	assert_int_equal(h_nev(h, mark, a, OP_ACQUIRE, LC_NONE), 0);
	h_free(h);
}

/* f_pos read and written back one more, under the lock or not */
static struct h *bumpers(bool locked, int *k)
{
	struct h *h = h_new("v6.5");
	char err[256];
	int bad, a = h_spawn(h, "A", 0);
	h_mkdir(h, "/d");
	const struct vfs_kstep body[] = {
		READ(FLD_F_POS, KO_FILE),
		{ .op = KS_WRITE, .field = FLD_F_POS, .obj = KO_FILE, .sub = -1,
		  .a = { KV_FIELD, FLD_F_POS }, .arith = '+', .b = { KV_CONST, 1 } },
	};
	struct vfs_kfn g = kfn("bump_pos", false, 2, body);
	assert_int_equal(define(h, &g, &bad, err), 0);
	const struct vfs_kstep plain[] = { FDGET_P0, { .op = KS_CALL, .callee = 0, .sub = -1 },
					   FDPUT, RETURN(KV_RET, 0) };
	const struct vfs_kstep lk[] = { FDGET_P0, LOCK(KL_F_POS_LOCK, KO_FILE),
					{ .op = KS_CALL, .callee = 0, .sub = -1 },
					UNLOCK(KL_F_POS_LOCK, KO_FILE), FDPUT,
					RETURN(KV_FIELD, FLD_F_POS) };
	struct vfs_kfn f = locked ? kfn("bump_locked", true, 6, lk) :
			   kfn("bump", true, 4, plain);
	*k = define(h, &f, &bad, err);
	assert_int_equal(*k, 1);
	assert_int_equal(h_do(h, a, C_OPEN("/d", VO_DIRECTORY)), 3);
	assert_int_equal(h_do(h, a, C_CLONE()), h_pid(h, a) + 1);
	return h;
}

static void test_race_explore(void **state)
{
	(void)state;
	for (int locked = 0; locked < 2; locked++) {
		int k;
		struct h *h = bumpers(locked, &k);
		int a = h_tid(h, "A"), a2 = h_tid(h, "A.2");
		h_submit(h, a, c_def(k, 3));
		h_submit(h, a2, c_def(k, 3));
		struct vfs_explore_opts o;
		struct vfs_explore_result r;
		vfs_explore_opts_init(&o);
		o.jobs = 1;
		assert_int_equal(vfs_explore(h->w, &o, &r), 0);
		/* the lost update: a race on f_pos unless the lock orders them */
		if (locked)
			assert_int_equal(r.cex_kinds, 0);
		else
			assert_true(r.cex_kinds & DK_BIT(DK_RACE));
		vfs_explore_result_free(&r);
		/* stepped round robin: the reads interleave, and without the
		 * lock the second write loses the first's update */
		h_run(h, 1000);
		assert_int_equal(h->w->files[h_file(h, a, 3)].f_pos, locked ? 2 : 1);
		assert_int_equal(vfs_report_count(h->w, DK_RACE, FLD_F_POS) > 0, !locked);
		h_free(h);
	}
}

static void test_nested_and_copy(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	char err[256];
	int bad, a = h_spawn(h, "A", 0);
	h_mkdir(h, "/d");
	const struct vfs_kstep st[] = {
		FDGET_P0,
		{ .op = KS_LOCK, .lock = KL_I_RWSEM, .obj = KO_INODE, .mode = M_READ,
		  .sub = LDSUB_PARENT, .killable = 1 },
		READ(FLD_DIR, KO_INODE),
		UNLOCK(KL_I_RWSEM, KO_INODE), FDPUT, RETURN(KV_FIELD, FLD_DIR),
	};
	struct vfs_kfn f = kfn("count_entries", true, 6, st);
	int k = define(h, &f, &bad, err);
	assert_int_equal(k, 0);
	/* a copy shares the definitions; a definition in it is its own */
	struct vfs_world *w2 = vfs_world_dup(h->w);
	assert_non_null(w2);
	assert_ptr_equal(w2->kdefs, h->w->kdefs);
	struct vfs_kfn g = kfn("other", true, 6, getpos);
	assert_int_equal(vfs_kfn_define(w2, &g, &bad, err, sizeof err), 1);
	assert_int_equal(vfs_nkfns(w2), 2);
	assert_int_equal(vfs_nkfns(h->w), 1);
	vfs_world_free(w2);
	h_mkdir(h, "/d/x");
	assert_int_equal(h_do(h, a, C_OPEN("/d", VO_DIRECTORY)), 3);
	size_t mark = h_mark(h);
	assert_int_equal(h_do(h, a, c_def(k, 3)), 1);
	bool seen = false;
	for (size_t i = mark; i < h->log.n; i++) {
		const struct vfs_event *ev = &h->log.ev[i];
		if (ev->op != OP_ACQUIRE)
			continue;
		assert_int_equal(ev->fn, VFN_down_read_killable);
		assert_int_equal(ev->subclass, LDSUB_PARENT);
		assert_int_equal(ev->mode, M_READ);
		seen = true;
	}
	assert_true(seen);
	h_free(h);
}

/* emit: the entries from f_pos, at most max, as OP_EMIT events of the
 * file's pass; ret the offset after the last */
static void test_emit(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	char err[256];
	int bad, a = h_spawn(h, "A", 0);
	h_mkdir(h, "/d");
	h_touch(h, "/d/x");
	h_touch(h, "/d/y");
	const struct vfs_kstep st[] = {
		FDGET_P0, READ(FLD_F_POS, KO_FILE),
		{ .op = KS_EMIT, .obj = KO_INODE, .sub = -1, .a = { KV_FIELD, FLD_F_POS },
		  .arith = 'm', .b = { KV_CONST, 3 } },
		{ .op = KS_WRITE, .field = FLD_F_POS, .obj = KO_FILE, .sub = -1,
		  .a = { KV_RET, 0 } },
		FDPUT, RETURN(KV_RET, 0),
	};
	struct vfs_kfn f = kfn("list3", true, 6, st);
	int k = define(h, &f, &bad, err);
	assert_int_equal(k, 0);
	/* the file's object: refused for the entries */
	struct vfs_kfn g = f;
	snprintf(g.name, sizeof g.name, "wrong");
	g.step[2].obj = KO_FILE;
	assert_int_equal(define(h, &g, &bad, err), -1);
	assert_int_equal(bad, 2);
	assert_int_equal(h_do(h, a, C_OPEN("/d", VO_DIRECTORY)), 3);
	size_t mark = h_mark(h);
	assert_int_equal(h_do(h, a, c_def(k, 3)), 3);
	int64_t offs[8];
	int n = 0;
	for (size_t i = mark; i < h->log.n; i++)
		if (h->log.ev[i].op == OP_EMIT && n < 8)
			offs[n++] = h->log.ev[i].value;
	assert_int_equal(n, 3);
	assert_int_equal(offs[0], 0);
	assert_int_equal(offs[2], 2);
	/* the rest, from f_pos 3: y only; then nothing */
	assert_int_equal(h_do(h, a, c_def(k, 3)), 4);
	assert_int_equal(h_do(h, a, c_def(k, 3)), 4);
	assert_int_equal(h->w->files[h_file(h, a, 3)].f_pos, 4);
	assert_int_equal(vfs_report_count(h->w, DK_DUPLICATE, FLD_NONE), 0);
	h_free(h);
}

/* A defined call's steps are named as the kernel's own (FUNCTION:LABEL,
 * a label that comes again numbered): `where`'s name before each step is
 * the point of the events the step makes in the function (its fdget's
 * are fdget's own), and no event is defined_step:step's. */
static const struct vfs_kstep getpos2[] = {
	FDGET_P0, LOCK(KL_F_POS_LOCK, KO_FILE), READ(FLD_F_POS, KO_FILE),
	UNLOCK(KL_F_POS_LOCK, KO_FILE), LOCK(KL_F_POS_LOCK, KO_FILE),
	UNLOCK(KL_F_POS_LOCK, KO_FILE), FDPUT, RETURN(KV_FIELD, FLD_F_POS),
};

static void test_step_names(void **state)
{
	static const char *const want[] = {
		"getpos2:fdget", "getpos2:lock_f_pos_lock", "getpos2:read_f_pos",
		"getpos2:unlock_f_pos_lock", "getpos2:lock_f_pos_lock2",
		"getpos2:unlock_f_pos_lock2", "getpos2:fdput", "getpos2:return",
	};
	struct h *h = h_new("v6.5");
	struct vfs_kfn f = kfn("getpos2", true, 8, getpos2);
	char err[256];
	int bad, k = define(h, &f, &bad, err), a = h_spawn(h, "A", 0);
	(void)state;
	assert_true(k >= 0);
	h_mkdir(h, "/d");
	assert_int_equal(h_do(h, a, C_OPEN("/d", VO_DIRECTORY)), 3);
	h_submit(h, a, c_def(k, 3));
	int n = 0, named = 0;
	while (vfs_has_work(h->w, a)) {
		char at[VFS_KFN_POINT_MAX];
		snprintf(at, sizeof at, "%s", vfs_resume_point_name(h->w, a));
		if (n < 8 && !strcmp(at, want[n]))
			n++;
		size_t mark = h_mark(h);
		h_step(h, a);
		for (size_t i = mark; i < h->log.n; i++) {
			const char *p = vfs_event_point(h->w, &h->log.ev[i]);
			assert_string_not_equal(p, "defined_step:step");
			if (!strncmp(p, "getpos2:", 8)) {
				assert_string_equal(p, at);
				named++;
			}
		}
	}
	assert_int_equal(n, 8);
	assert_true(named >= 6);        /* (the fdget's events are fdget's) */
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_refused, h_teardown),
		cmocka_unit_test_teardown(test_steps, h_teardown),
		cmocka_unit_test_teardown(test_race_explore, h_teardown),
		cmocka_unit_test_teardown(test_nested_and_copy, h_teardown),
		cmocka_unit_test_teardown(test_emit, h_teardown),
		cmocka_unit_test_teardown(test_step_names, h_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
