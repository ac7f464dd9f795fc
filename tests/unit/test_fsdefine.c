/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_fsdefine.c - a filesystem type defined from the parts (`fs define`,
 * vfs_fs_define): the one resolver answers with its row, a copy of exfat's
 * row makes the same trace as exfat, a copy of the world carries it, and a
 * row that is not one is refused.
 */
#include "harness.h"

static struct vfs_fstype row_like(const char *name, const char *builtin)
{
	struct vfs_fstype r;
	memset(&r, 0, sizeof r);
	r.ops = vfs_fstype_lookup(builtin)->ops;
	snprintf(r.name, sizeof r.name, "%s", name);
	return r;
}

/* /x of TYPE with /x/d holding a and b; A and B each open /x/d and both
 * list it at once, round robin: the trace as text lines. */
static char *two_readers(const char *preset, const char *type, bool define)
{
	struct h *h = h_new(preset);
	if (define) {
		struct vfs_fstype r = row_like(type, "exfat");
		assert_true(vfs_fs_define(h->w, &r) >= vfs_nfstypes);
	}
	h_mount(h, type, "/x");
	h_mkdir(h, "/x/d");
	h_touch(h, "/x/d/a");
	h_touch(h, "/x/d/b");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/x/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, B, C_OPEN("/x/d", VO_RDONLY)), 3);
	h_clear(h);
	h_submit(h, A, C_GETDENTS(3, -1));
	h_submit(h, B, C_GETDENTS(3, -1));
	assert_true(h_run(h, 1000) > 0);
	assert_int_equal(h->w->threads[A].rec.ret, 4);
	assert_int_equal(h->w->threads[B].rec.ret, 4);
	size_t len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);
	assert_non_null(f);
	for (size_t i = 0; i < h->log.n; i++) {
		char line[256];
		vfs_event_text(h->w, &h->log.ev[i], line, sizeof line);
		fprintf(f, "%s\n", line);
	}
	fclose(f);
	h_free(h);
	return text;
}

static void test_copy_of_exfat_traces_alike(void **state)
{
	(void)state;
	static const char *const presets[] = { "v4.6", "v6.4", "3e3271549670", "v6.5" };
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
		char *builtin = two_readers(presets[i], "exfat", false);
		char *defined = two_readers(presets[i], "myexfat", true);
		assert_string_equal(builtin, defined);
		/* (and the wrapper's lock is in it from v6.5's wrapper on) */
		bool wrapped = strstr(builtin, "wrap_directory_iterator") != NULL;
		assert_int_equal(wrapped, i >= 2);
		free(builtin);
		free(defined);
	}
}

static void test_resolver_answers_with_the_row(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	struct vfs_fstype r = row_like("shared", "exfat");
	r.ops.native_shared = true;
	r.ops.llseek = LLSEEK_CEPH_DIR;
	r.ops.dir_read = DIRREAD_NONE;
	r.ops.maxbytes = 4096;
	int ft = vfs_fs_define(h->w, &r);
	assert_int_equal(ft, vfs_nfstypes);
	assert_true(vfs_fstype_defined(ft));
	assert_int_equal(vfs_world_fstype_lookup(h->w, "shared"), ft);
	assert_int_equal(vfs_world_nfstypes(h->w), vfs_nfstypes + 1);
	h_mount(h, "shared", "/s");
	h_mkdir(h, "/s/d");
	int ino = vfs_path_lookup(h->w, "/s/d");
	assert_string_equal(vfs_inode_fstype(h->w, ino)->name, "shared");
	struct vfs_fsops o = vfs_inode_fsops(h->w, ino);
	assert_true(o.native_shared);
	assert_int_equal(o.llseek, LLSEEK_CEPH_DIR);
	assert_int_equal(o.maxbytes, 4096);
	/* natively shared: iterate_dir takes i_rwsem for reading only */
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/s/d", VO_RDONLY)), 3);
	assert_int_equal(h_do(h, A, C_GETDENTS(3, -1)), 2);
	const struct vfs_callrec *rec = &h->w->threads[A].rec;
	assert_true(rec->took >> (LC_I_RWSEM_DIR * 4 + M_READ) & 1);
	assert_false(rec->took >> (LC_I_RWSEM_DIR * 4 + M_WRITE) & 1);
	/* read() with no ->read: EINVAL; ceph_dir_llseek: i_rwsem exclusive */
	assert_int_equal(h_do(h, A, C_READ(3, 10)), -VE_INVAL);
	assert_int_equal(h_do(h, A, C_LSEEK(3, 0, VSEEK_SET)), 0);
	assert_true(rec->took >> (LC_I_RWSEM_DIR * 4 + M_WRITE) & 1);
	h_free(h);
}

static void test_copies_carry_the_rows(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	struct vfs_fstype r = row_like("legacy", "jfs");
	assert_true(vfs_fs_define(h->w, &r) >= 0);
	h_mount(h, "legacy", "/j");
	struct vfs_world *c = vfs_world_dup(h->w);
	assert_non_null(c);
	assert_int_equal(vfs_world_fstype_lookup(c, "legacy"), vfs_nfstypes);
	assert_string_equal(vfs_inode_fstype(c, vfs_path_lookup(c, "/j"))->name,
			    "legacy");
	/* a copy into a world that had none, and back into a fresh one */
	struct h *g = h_new("v6.5");
	vfs_world_copy(g->w, c);
	assert_int_equal(vfs_world_nfstypes(g->w), vfs_nfstypes + 1);
	assert_ptr_equal(g->w->kdefs, c->kdefs);          /* shared, not copied */
	assert_string_equal(vfs_world_fstype(g->w, vfs_nfstypes)->name, "legacy");
	vfs_world_init(g->w, vfs_preset_lookup("v6.5"));
	assert_int_equal(vfs_world_nfstypes(g->w), vfs_nfstypes);
	assert_int_equal(vfs_world_fstype_lookup(g->w, "legacy"), -1);
	vfs_world_free(c);
	h_free(g);
	h_free(h);
}

static void test_bad_rows_refused(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	struct vfs_fstype r = row_like("exfat", "exfat");
	assert_int_equal(vfs_fs_define(h->w, &r), -VE_EXIST);      /* a built-in name */
	r = row_like("notiter", "exfat");
	r.ops.iter_fn = VFN_vfs_read;
	assert_int_equal(vfs_fs_define(h->w, &r), -VE_INVAL);
	r = row_like("badseek", "exfat");
	r.ops.llseek = LLSEEK_DEFAULT + 1;
	assert_int_equal(vfs_fs_define(h->w, &r), -VE_INVAL);
	r = row_like("", "exfat");
	assert_int_equal(vfs_fs_define(h->w, &r), -VE_INVAL);
	r = row_like("knobbed", "tmpfs");
	r.later_knob = vfs_fstype_lookup("tmpfs")->later_knob;
	assert_int_equal(vfs_fs_define(h->w, &r), -VE_INVAL);
	assert_int_equal(vfs_world_nfstypes(h->w), vfs_nfstypes);
	for (int i = 0; i < VFS_MAX_FSDEFS; i++) {
		char name[16];
		snprintf(name, sizeof name, "t%d", i);
		r = row_like(name, "exfat");
		assert_int_equal(vfs_fs_define(h->w, &r), vfs_nfstypes + i);
		assert_int_equal(vfs_fs_define(h->w, &r), -VE_EXIST);   /* twice */
	}
	r = row_like("onemore", "exfat");
	assert_int_equal(vfs_fs_define(h->w, &r), -VE_NOSPC);
	assert_int_equal(vfs_setup_mount(h->w, "onemore", "/o", NULL), -VE_INVAL);
	h_free(h);
}

static void test_parts_by_function(void **state)
{
	(void)state;
	for (int i = 0; i <= LLSEEK_DEFAULT; i++)
		assert_int_equal(vfs_llseek_lookup(vfs_llseek_fn[i]), i);
	for (int i = 0; i <= DIRREAD_NONE; i++)
		assert_int_equal(vfs_dirread_lookup(vfs_dirread_fn[i]), i);
	assert_int_equal(vfs_llseek_lookup(VFN_exfat_iterate), -1);
	assert_int_equal(vfs_dirread_lookup(VFN_ext4_dir_llseek), -1);
	assert_string_equal(vfs_fn_name(vfs_llseek_fn[LLSEEK_OVL_DIR]), "ovl_dir_llseek");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_of_exfat_traces_alike),
		cmocka_unit_test(test_resolver_answers_with_the_row),
		cmocka_unit_test(test_copies_carry_the_rows),
		cmocka_unit_test(test_bad_rows_refused),
		cmocka_unit_test(test_parts_by_function),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
