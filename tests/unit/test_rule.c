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
	p = pat("i_rwsem:5");   /* lockdep's /5: the kernel's I_MUTEX_PARENT2 */
	assert_true(vfs_lockpat_match(&p, LC_I_RWSEM_DIR, LDSUB_PARENT2));
	assert_false(vfs_lockpat_match(&p, LC_I_RWSEM_DIR, LDSUB_CHILD));
	p = pat("i_rwsem:child");               /* I_MUTEX_CHILD, /2 */
	assert_true(vfs_lockpat_match(&p, LC_I_RWSEM_DIR, 2));
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
	assert_int_equal(vfs_lockpat_parse("i_rwsem:grandchild", &p, &bad), -1);
	assert_int_equal(bad, 8);
	assert_int_equal(vfs_lockpat_parse("f_pos_lock:parent", &p, &bad), -1);
	assert_int_equal(bad, 11);
	assert_int_equal(vfs_lockpat_parse("i_rwsem:6", &p, &bad), -1);
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

/* Add R, the only rule, and check the words `rule` lists it with. */
static void add_as(struct h *h, const struct vfs_rule *r, const char *text)
{
	char t[96];
	assert_int_equal(vfs_rule_add(h->w, r), 0);
	vfs_rule_text(vfs_rule_get(h->w, 0), t, sizeof t);
	assert_string_equal(t, text);
}

/* rule write f_pos under f_pos_lock: v6.4's count test lets a directory's
 * owner alone write f_pos unlocked; v6.5 locks every directory, and a
 * write under the lock keeps the rule on both */
static void test_invariant_under(void **state)
{
	(void)state;
	const char *presets[] = { "v6.4", "v6.5" };
	for (int p = 0; p < 2; p++) {
		struct h *h = h_new(presets[p]);
		struct vfs_rule r = { .kind = VRULE_UNDER, .field = FLD_F_POS,
				      .a = pat("f_pos_lock") };
		add_as(h, &r, "write f_pos under f_pos_lock");
		int a = h_spawn(h, "A", 0);
		h_mkdir(h, "/d");
		h_touch(h, "/d/x");
		assert_int_equal(h_do(h, a, C_OPEN("/d", VO_DIRECTORY)), 3);
		assert_int_equal(h_do(h, a, C_GETDENTS(3, -1)), 3);
		assert_int_equal(nrule(h), p == 0);
		if (p == 0) {
			const struct vfs_report *rp = &h->w->det.reports[h->w->det.nreports - 1];
			assert_int_equal(rp->kind, DK_RULE);
			assert_int_equal(rp->field, FLD_F_POS);
			assert_int_equal(rp->b.fn, VFN_iterate_dir);
			assert_non_null(strstr(rp->text, "without holding its f_pos_lock"));
		}
		/* a second file reference: v6.4 locks too, nothing more broken */
		assert_int_equal(h_do(h, a, C_DUP(3)), 4);
		assert_int_equal(h_do(h, a, C_LSEEK(3, 0, VSEEK_SET)), 0);
		assert_int_equal(nrule(h), p == 0);
		h_free(h);
	}
}

/* rule entries once per pass: the duplicate detector's finding, as a
 * rule; its text */
static void test_invariant_once(void **state)
{
	(void)state;
	struct h *h = h_new("v6.4");
	struct vfs_rule r = { .kind = VRULE_ONCE };
	add_as(h, &r, "entries once per pass");
	int a = h_spawn(h, "A", 0);
	h_mkdir(h, "/d");
	assert_int_equal(h_do(h, a, C_OPEN("/d", VO_DIRECTORY)), 3);
	assert_int_equal(h_do(h, a, C_GETDENTS(3, -1)), 2);
	assert_int_equal(h_do(h, a, C_GETDENTS(3, -1)), 0);
	assert_int_equal(nrule(h), 0);  /* one pass, each entry once */
	/* a thief's getdents while A's has handed out its entries and not
	 * yet moved f_pos (v6.4: A skipped the lock): the same entries again */
	int b = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, a, C_LSEEK(3, 0, VSEEK_SET)), 0);
	assert_int_equal(h_do(h, b, C_PIDFD_OPEN(h_pid(h, a))), 3);
	h_submit(h, a, C_GETDENTS(3, -1));
	h_until(h, a, VFN_ext4_readdir);
	h_step(h, a);
	assert_int_equal(h_do(h, b, C_PIDFD_GETFD(3, 3)), 4);
	assert_int_equal(h_do(h, b, C_GETDENTS(4, -1)), 2);
	int dups = vfs_report_count(h->w, DK_DUPLICATE, FLD_NONE);
	assert_true(dups > 0);
	assert_int_equal(nrule(h), dups);
	int said = 0;
	for (int i = 0; i < h->w->det.nreports; i++)
		said += h->w->det.reports[i].kind == DK_RULE &&
			strstr(h->w->det.reports[i].text, "rule entries once per pass: "
			       "entry") != NULL;
	assert_int_equal(said, dups);
	h_free(h);
}

/* rule remove: the others stay, in their order; a copy keeps its own */
static void test_remove(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	add_rank(h, "s_vfs_rename_mutex", 1);
	add_order(h, "s_vfs_rename_mutex", "i_rwsem:parent");
	add_rank(h, "i_rwsem:parent", 2);
	struct vfs_world *c = vfs_world_dup(h->w);
	assert_non_null(c);
	assert_int_equal(vfs_rule_remove(h->w, 1), 0);
	assert_int_equal(vfs_nrules(h->w), 2);
	assert_int_equal(vfs_rule_get(h->w, 1)->rank, 2);
	assert_int_equal(vfs_rule_remove(h->w, 2), -VE_INVAL);
	assert_int_equal(vfs_nrules(c), 3);
	assert_int_equal(vfs_rule_get(c, 1)->kind, VRULE_ORDER);
	vfs_world_free(c);
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
		cmocka_unit_test_teardown(test_invariant_under, h_teardown),
		cmocka_unit_test_teardown(test_invariant_once, h_teardown),
		cmocka_unit_test_teardown(test_remove, h_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
