/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_rule.c - lock-order rules the script declares (`rule`,
 * core/lockdep.c check_rules): the lock names they take, the check on
 * each acquisition (an order, ranks of one or two levels, the subclass
 * over the class), the report's words, and that world copies keep the
 * rules while a change to one copy leaves the other alone.
 */
#include "harness.h"

static struct vfs_lockpat pat(const char *s)
{
	struct vfs_lockpat p;
	int bad = -1;
	assert_int_equal(vfs_lockpat_parse(s, &p, &bad), 0);
	return p;
}

static void add_rank(struct h *h, const char *lock, int rank)
{
	struct vfs_rule r = { .kind = VRULE_RANK, .rank = (int16_t)rank, .a = pat(lock) };
	assert_int_equal(vfs_rule_add(h->w, &r), 0);
}

static void add_order(struct h *h, const char *a, const char *b)
{
	struct vfs_rule r = { .kind = VRULE_ORDER, .a = pat(a), .b = pat(b) };
	assert_int_equal(vfs_rule_add(h->w, &r), 0);
}

static int nrule(struct h *h)
{
	return vfs_report_count(h->w, DK_RULE, FLD_NONE);
}


static void test_lock_names(void **state)
{
	(void)state;
	struct vfs_lockpat p;
	int bad;
	p = pat("i_rwsem:parent");
	assert_true(vfs_lockpat_match(&p, LC_I_RWSEM_DIR, LDSUB_PARENT));
	assert_true(vfs_lockpat_match(&p, LC_I_RWSEM, LDSUB_PARENT));
	assert_false(vfs_lockpat_match(&p, LC_I_RWSEM_DIR, LDSUB_NORMAL));
	p = pat("i_rwsem:2");                   /* lockdep's /2 */
	assert_true(vfs_lockpat_match(&p, LC_I_RWSEM_DIR, LDSUB_PARENT2));
	p = pat("i_rwsem_nondir");
	assert_false(vfs_lockpat_match(&p, LC_I_RWSEM_DIR, LDSUB_NORMAL));
	assert_true(vfs_lockpat_match(&p, LC_I_RWSEM, LDSUB_NONDIR2));
	p = pat("rename_mutex");
	assert_true(vfs_lockpat_match(&p, LC_RENAME_MUTEX, 0));
	assert_false(vfs_lockpat_match(&p, LC_F_POS_LOCK, 0));
	char t[64];
	vfs_lockpat_text(&p, t, sizeof t);
	assert_string_equal(t, "s_vfs_rename_mutex");
	/* refused: the word at fault */
	assert_int_equal(vfs_lockpat_parse("i_sem", &p, &bad), -1);
	assert_int_equal(bad, 0);
	assert_int_equal(vfs_lockpat_parse("i_rwsem:child", &p, &bad), -1);
	assert_int_equal(bad, 8);
	assert_int_equal(vfs_lockpat_parse("f_pos_lock:parent", &p, &bad), -1);
	assert_int_equal(bad, 11);
	assert_int_equal(vfs_lockpat_parse("i_rwsem:4", &p, &bad), -1);
	struct vfs_rule r = { .kind = VRULE_ORDER, .a = pat("s_vfs_rename_mutex"),
			      .b = pat("i_rwsem_dir:parent") };
	vfs_rule_text(&r, t, sizeof t);
	assert_string_equal(t, "lockorder s_vfs_rename_mutex before i_rwsem_dir:parent");
}


static void dir_ranks(struct h *h)
{
	add_rank(h, "s_vfs_rename_mutex", 1);
	add_rank(h, "i_rwsem:parent", 2);
	add_rank(h, "i_rwsem:parent2", 3);
	add_rank(h, "i_rwsem:normal", 4);
	add_rank(h, "i_rwsem:nondir2", 5);
}

/* lock_rename keeps directory-locking.rst's ranks; two plain parents
 * (rename-lock no-mutex) nest two locks of one rank */
static void test_ranks(void **state)
{
	(void)state;
	struct h *h = h_two_dirs("correct");
	dir_ranks(h);
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_RENAME("/a/x", "/b/x")), 0);
	assert_int_equal(h_do(h, A, C_RENAME("/b/y", "/a/y")), 0);
	assert_int_equal(h_do(h, A, C_UNLINK("/a/y")), 0);
	assert_int_equal(nrule(h), 0);
	h_knob(h, "rename-lock", "no-mutex");
	assert_int_equal(h_do(h, A, C_RENAME("/b/x", "/a/x")), 0);
	assert_true(nrule(h) > 0);
	const struct vfs_report *r = &h->w->det.reports[0];
	for (int i = 0; i < h->w->det.nreports && r->kind != DK_RULE; i++)
		r = &h->w->det.reports[i];
	assert_int_equal(r->kind, DK_RULE);
	assert_int_equal(r->rule, 3);           /* i_rwsem:normal 4 */
	assert_int_equal(r->entry, 3);          /* under one of its own rank */
	assert_int_equal(r->link[0].tid, A);
	assert_int_equal(VFS_LID_IDX(r->link[0].want), vfs_path_lookup(h->w, "/a"));
	assert_int_equal(VFS_LID_IDX(r->link[0].held), vfs_path_lookup(h->w, "/b"));
	assert_non_null(strstr(r->text, "rule rank i_rwsem:normal 4: A takes /a i_rwsem"));
	static char buf[8192];
	vfs_report_detail(h->w, r, buf, sizeof buf);
	assert_non_null(strstr(buf, "WARNING: the script's rule broken: rule rank "
			       "i_rwsem:normal 4"));
	assert_non_null(strstr(buf, "but it already holds lock:\n  &type->i_rwsem_dir_key (/b"));
	h_free(h);
}

/* a rank naming the subclass wins over one naming the class; an order */
static void test_specific_rank_and_order(void **state)
{
	(void)state;
	struct h *h = h_two_dirs("correct");
	add_rank(h, "i_rwsem", 1);              /* would forbid any nesting */
	add_rank(h, "i_rwsem:parent", 0);       /* the parent before the rest */
	add_rank(h, "i_rwsem:parent2", 0);      /* one rank with parent: refused */
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_UNLINK("/a/x")), 0);      /* parent, child */
	assert_int_equal(nrule(h), 0);
	assert_int_equal(h_do(h, A, C_RENAME("/b/y", "/a/y")), 0);
	/* parent2 under parent, same rank 0 */
	assert_true(nrule(h) > 0);
	h_free(h);

	h = h_two_dirs("correct");
	add_order(h, "i_rwsem:parent2", "s_vfs_rename_mutex");
	A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_UNLINK("/a/x")), 0);
	assert_int_equal(nrule(h), 0);          /* no mutex, no parent2 */
	assert_int_equal(h_do(h, A, C_RENAME("/b/y", "/a/y")), 0);
	assert_int_equal(nrule(h), 1);
	h_free(h);
}

/* copies share the rules; adding to one leaves the other as it was; no
 * rule: nothing reported, lockdep's own checks as before */
static void test_copies(void **state)
{
	(void)state;
	struct h *h = h_two_dirs("no-mutex");
	add_rank(h, "i_rwsem", 1);
	struct vfs_world *c = vfs_world_new(vfs_preset_lookup("v6.5"));
	assert_non_null(c);
	assert_true(vfs_world_copy(c, h->w));
	assert_int_equal(vfs_nrules(c), 1);
	add_order(h, "f_pos_lock", "i_rwsem");
	assert_int_equal(vfs_nrules(h->w), 2);
	assert_int_equal(vfs_nrules(c), 1);
	vfs_world_free(c);
	h_free(h);

	h = h_two_dirs("no-mutex");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_RENAME("/a/x", "/b/x")), 0);
	assert_int_equal(nrule(h), 0);
	assert_true(vfs_report_count(h->w, DK_LOCKORDER, FLD_NONE) > 0);
	h_free(h);
}

static void test_too_many(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	for (int i = 0; i < VFS_MAX_RULES; i++)
		add_rank(h, "f_lock", i);
	struct vfs_rule r = { .kind = VRULE_RANK, .a = pat("f_lock") };
	assert_int_equal(vfs_rule_add(h->w, &r), -VE_NOSPC);
	assert_int_equal(vfs_nrules(h->w), VFS_MAX_RULES);
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lock_names),
		cmocka_unit_test(test_ranks),
		cmocka_unit_test(test_specific_rank_and_order),
		cmocka_unit_test(test_copies),
		cmocka_unit_test(test_too_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
