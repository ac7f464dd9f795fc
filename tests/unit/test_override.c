/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_override.c - a decision replaced by an expression (core/override.c,
 * the world's overrides): evaluation with short-circuit reads, the text
 * it prints as, the checks, and file_needs_f_pos_lock and __fget_light
 * deciding by it, noted where they disagree with the kernel.
 */
#include "harness.h"

/* atomic_pos && (count > 1 || dir), made as the parser makes it: each
 * node's operands before it */
static struct vfs_expr count_or_dir(void)
{
	return (struct vfs_expr){ .n = 7, .root = 6, .node = {
		{ .op = XO_VAR, .v = VDV_ATOMIC_POS },
		{ .op = XO_VAR, .v = VDV_COUNT },
		{ .op = XO_CONST, .v = 1 },
		{ .op = XO_GT, .l = 1, .r = 2 },
		{ .op = XO_VAR, .v = VDV_DIR },
		{ .op = XO_OR, .l = 3, .r = 4 },
		{ .op = XO_AND, .l = 0, .r = 5 } } };
}

struct seen { int64_t v[5]; int reads[5]; };
static int64_t var(void *ctx, int id)
{
	struct seen *s = ctx;
	s->reads[id]++;
	return s->v[id];
}

static void test_eval_short_circuits(void **state)
{
	(void)state;
	struct vfs_expr e = count_or_dir();
	assert_int_equal(vfs_expr_check(VDEC_FPOS_LOCK, &e), 0);
	struct seen s = { .v = { [VDV_ATOMIC_POS] = 0, [VDV_COUNT] = 2 } };
	assert_int_equal(vfs_expr_eval(&e, var, &s), 0);
	assert_int_equal(s.reads[VDV_COUNT], 0);        /* never reached */
	s = (struct seen){ .v = { [VDV_ATOMIC_POS] = 1, [VDV_COUNT] = 2 } };
	assert_int_equal(vfs_expr_eval(&e, var, &s), 1);
	assert_int_equal(s.reads[VDV_COUNT], 1);
	assert_int_equal(s.reads[VDV_DIR], 0);
	s = (struct seen){ .v = { [VDV_ATOMIC_POS] = 1, [VDV_COUNT] = 1, [VDV_DIR] = 1 } };
	assert_int_equal(vfs_expr_eval(&e, var, &s), 1);
	assert_int_equal(s.reads[VDV_DIR], 1);
	char text[128];
	vfs_expr_text(VDEC_FPOS_LOCK, &e, text, sizeof text);
	assert_string_equal(text, "atomic_pos && (count > 1 || dir)");
	assert_string_equal(vfs_decision_builtin(VDEC_FPOS_LOCK,
				&vfs_preset_lookup("797964253d35")->k), text);
}

static void test_check_refuses(void **state)
{
	(void)state;
	struct vfs_expr e = count_or_dir();
	e.node[6].l = 6;                                /* a cycle */
	assert_int_equal(vfs_expr_check(VDEC_FPOS_LOCK, &e), -VE_INVAL);
	e = count_or_dir();
	e.node[4].v = 9;                                /* no such variable */
	assert_int_equal(vfs_expr_check(VDEC_FPOS_LOCK, &e), -VE_INVAL);
	struct h *h = h_new("v6.5");
	assert_int_equal(vfs_override_set(h->w, VDEC_FPOS_LOCK, &e), -VE_INVAL);
	assert_null(h->w->kdefs);
	h_free(h);
	e = count_or_dir();
	e.root = 7;
	assert_int_equal(vfs_expr_check(VDEC_FPOS_LOCK, &e), -VE_INVAL);
	assert_int_equal(vfs_decision_lookup("file_needs_f_pos_lock"), VDEC_FPOS_LOCK);
	assert_int_equal(vfs_decision_lookup("fdget_pos"), -1);
	assert_int_equal(vfs_decision_var(VDEC_FPOS_LOCK, "count"), VDV_COUNT);
	assert_int_equal(vfs_decision_var(VDEC_FPOS_LOCK, "f_count"), -1);
}

static size_t notes(struct h *h)
{
	size_t n = 0;
	for (size_t i = 0; i < h->log.n; i++)
		n += h->log.ev[i].op == OP_NOTE;
	return n;
}

static void test_fdget_pos_decides_by_it(void **state)
{
	(void)state;
	struct h *h = h_new("v6.4");
	h_mkdir(h, "/d");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	/* v6.4: a directory with count 1 skips the lock */
	assert_int_equal(h_do(h, A, C_GETDENTS(3, -1)), 2);
	assert_true(h->w->threads[A].rec.skipped_fpos);
	/* 797964253d35's test: taken, and noted (the kernel would not) */
	struct vfs_expr e = count_or_dir();
	assert_int_equal(vfs_override_set(h->w, VDEC_FPOS_LOCK, &e), 0);
	h_clear(h);
	assert_int_equal(h_do(h, A, C_LSEEK(3, 0, VSEEK_SET)), 0);
	assert_false(h->w->threads[A].rec.skipped_fpos);
	assert_int_equal(notes(h), 1);
	/* the copy carries it; the preset gives the decision back */
	struct vfs_world *c = vfs_world_dup(h->w);
	assert_non_null(c);
	assert_int_equal(vfs_override(c, VDEC_FPOS_LOCK)->n, 7);
	vfs_set_preset(c, vfs_preset_lookup("v6.4"));
	assert_null(vfs_override(c, VDEC_FPOS_LOCK));
	assert_non_null(vfs_override(h->w, VDEC_FPOS_LOCK));   /* (copied, not changed) */
	vfs_world_free(c);
	/* under 797964253d35 the same expression is the kernel's: no note */
	vfs_set_preset(h->w, vfs_preset_lookup("797964253d35"));
	assert_int_equal(vfs_override_set(h->w, VDEC_FPOS_LOCK, &e), 0);
	h_clear(h);
	assert_int_equal(h_do(h, A, C_LSEEK(3, 0, VSEEK_SET)), 0);
	assert_false(h->w->threads[A].rec.skipped_fpos);
	assert_int_equal(notes(h), 0);
	h_free(h);
}

/* __fget_light decides by "false": a real reference on every use */
static void test_fget_light_counts_every_use(void **state)
{
	(void)state;
	struct h *h = h_new("v6.4");
	h_mkdir(h, "/d");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	struct vfs_expr never = { .n = 1, .root = 0, .node = { { .op = XO_CONST, .v = 0 } } };
	assert_int_equal(vfs_override_set(h->w, VDEC_FGET_LIGHT, &never), 0);
	h_submit(h, A, C_GETDENTS(3, -1));
	h_until(h, A, VFN_iterate_dir);
	/* the reference makes the count 2: v6.4's test takes the lock */
	assert_int_equal(h_count(h, A, 3), 2);
	assert_false(h->w->threads[A].rec.skipped_fpos);
	assert_int_equal(notes(h), 1);
	assert_int_equal(h_finish(h, A), 2);
	assert_int_equal(h_count(h, A, 3), 1);
	/* the kernel's own: borrowed again, nothing noted */
	struct vfs_expr own = { .n = 3, .root = 2,
		.node = { { .op = XO_VAR, .v = VDV_TABLE_USERS }, { .op = XO_CONST, .v = 1 },
			  { .op = XO_EQ, .l = 0, .r = 1 } } };
	assert_int_equal(vfs_override_set(h->w, VDEC_FGET_LIGHT, &own), 0);
	h_clear(h);
	assert_int_equal(h_do(h, A, C_LSEEK(3, 0, VSEEK_SET)), 0);
	assert_true(h->w->threads[A].rec.skipped_fpos);
	assert_int_equal(notes(h), 0);
	assert_string_equal(vfs_decision_builtin(VDEC_FGET_LIGHT, &h->w->k), "table_users == 1");
	h_free(h);
}

/* iterate_dir's dispatch: exfat (a legacy ->iterate) under v6.4 called
 * under i_rwsem shared by "true" (no wrapper: noted), and under v6.5
 * exclusive again by "native_shared"; the kernel's own expressions */
static int irwsem_mode(struct h *h, int tid)
{
	int mode = -1;
	for (size_t i = 0; i < h->log.n; i++)
		if (h->log.ev[i].op == OP_ACQUIRE && h->log.ev[i].tid == tid &&
		    (h->log.ev[i].cls == LC_I_RWSEM_DIR || h->log.ev[i].cls == LC_I_RWSEM))
			mode = h->log.ev[i].mode;
	return mode;
}

static void test_iterate_dispatch(void **state)
{
	(void)state;
	struct vfs_expr yes = { .n = 1, .root = 0, .node = { { .op = XO_CONST, .v = 1 } } };
	struct vfs_expr native = { .n = 1, .root = 0,
		.node = { { .op = XO_VAR, .v = VDV_NATIVE_SHARED } } };
	const char *presets[] = { "v4.6", "v6.4", "v6.5" };
	const char *own[] = { "false", "native_shared", "true" };
	for (int p = 0; p < 3; p++) {
		struct h *h = h_new(presets[p]);
		assert_string_equal(vfs_decision_builtin(VDEC_ITERATE, &h->w->k), own[p]);
		h_mount(h, "exfat", "/x");
		h_mkdir(h, "/x/d");
		int A = h_spawn(h, "A", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/x/d", VO_RDONLY)), 3);
		if (p == 0) {           /* (i_mutex before v4.7: no shared mode) */
			h_free(h);
			continue;
		}
		h_clear(h);
		assert_int_equal(vfs_override_set(h->w, VDEC_ITERATE, p == 1 ? &yes : &native), 0);
		assert_int_equal(h_do(h, A, C_GETDENTS(3, -1)), 2);
		assert_int_equal(notes(h), 1);
		/* v6.4: exfat's own iterator under the shared lock, no wrapper;
		 * v6.5: exclusive, without wrap_directory_iterator */
		assert_int_equal(irwsem_mode(h, A), p == 1 ? M_READ : M_WRITE);
		for (size_t i = 0; i < h->log.n; i++)
			assert_int_not_equal(h->log.ev[i].fn, VFN_wrap_directory_iterator);
		h_free(h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eval_short_circuits),
		cmocka_unit_test(test_check_refuses),
		cmocka_unit_test(test_fdget_pos_decides_by_it),
		cmocka_unit_test(test_fget_light_counts_every_use),
		cmocka_unit_test_teardown(test_iterate_dispatch, h_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
