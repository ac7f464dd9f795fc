/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_irwsem.c - the directory lock that getdents takes, per era and per
 * filesystem (kernel-reference.md sections 4 and 6):
 *   before v4.7        every filesystem: i_mutex, exclusive
 *   v4.7 .. v6.4       ext4 shared (->iterate_shared); exfat, ceph and
 *                      overlayfs exclusive (->iterate)
 *   v6.5 (3e3271549670) ext4 shared; the others through
 *                      wrap_directory_iterator
 * and the exact i_rwsem event sequence of the wrapper.
 */
#include "harness.h"

#define SEQ_EXCL    "acquire:excl release:excl"
#define SEQ_READ    "acquire:read release:read"
#define SEQ_WRITE   "acquire:write release:write"
#define SEQ_WRAPPED "acquire:read release:read acquire:write downgrade:read release:read"

enum kind { MUTEX, SHARED, EXCLUSIVE, WRAPPED };

static const struct {
	const char *preset;
	enum kind ext4, legacy;  /* legacy: exfat, ceph, overlayfs */
} eras[] = {
	{ "v3.13",        MUTEX,  MUTEX },
	{ "v4.6",         MUTEX,  MUTEX },
	{ "v4.7",         SHARED, EXCLUSIVE },
	{ "v5.6",         SHARED, EXCLUSIVE },
	{ "v5.10",        SHARED, EXCLUSIVE },
	{ "v6.4",         SHARED, EXCLUSIVE },
	{ "20ea1e7d13c1", SHARED, EXCLUSIVE },
	{ "797964253d35", SHARED, EXCLUSIVE },
	{ "3e3271549670", SHARED, WRAPPED },
	{ "v6.5",         SHARED, WRAPPED },
	{ "mainline",     SHARED, WRAPPED },
};

static const char *seq_of(enum kind k)
{
	switch (k) {
	case MUTEX:     return SEQ_EXCL;
	case SHARED:    return SEQ_READ;
	case EXCLUSIVE: return SEQ_WRITE;
	default:        return SEQ_WRAPPED;
	}
}

/* getdents on DIR (mounted as FSTYPE unless ext4), i_rwsem events of it */
static void getdents_seq(const char *preset, const char *fstype, char *buf,
			 size_t n, int *lock_kind)
{
	struct h *h = h_new(preset);
	const char *dir = "/d";
	if (strcmp(fstype, "ext4")) {
		h_mount(h, fstype, "/m");
		dir = "/m";
	} else {
		h_mkdir(h, "/d");
	}
	char p[32];
	snprintf(p, sizeof p, "%s/a", dir);
	h_touch(h, p);
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN(dir, VO_RDONLY)), 3);
	size_t mark = h_mark(h);
	assert_int_equal(h_do(h, A, C_GETDENTS(3, 10)), 3);
	h_irwsem_seq(h, mark, A, buf, n);
	*lock_kind = h->w->ilocks[vfs_path_lookup(h->w, dir)].kind;
	h_free(h);
}

static void test_modes(void **state)
{
	(void)state;
	static const char *const legacy[] = { "exfat", "ceph", "overlayfs" };
	char buf[256];
	int kind;
	assert_int_equal(vfs_npresets, (int)(sizeof eras / sizeof eras[0]));
	for (size_t i = 0; i < sizeof eras / sizeof eras[0]; i++) {
		const char *pre = eras[i].preset;
		assert_string_equal(vfs_presets[i].name, pre);
		getdents_seq(pre, "ext4", buf, sizeof buf, &kind);
		if (strcmp(buf, seq_of(eras[i].ext4)))
			fail_msg("%s ext4: expected \"%s\", got \"%s\"", pre,
				 seq_of(eras[i].ext4), buf);
		assert_int_equal(kind, eras[i].ext4 == MUTEX ? LK_MUTEX : LK_RWSEM);
		for (size_t j = 0; j < 3; j++) {
			getdents_seq(pre, legacy[j], buf, sizeof buf, &kind);
			if (strcmp(buf, seq_of(eras[i].legacy)))
				fail_msg("%s %s: expected \"%s\", got \"%s\"", pre,
					 legacy[j], seq_of(eras[i].legacy), buf);
			assert_int_equal(kind, eras[i].legacy == MUTEX ? LK_MUTEX :
					 LK_RWSEM);
		}
	}
}

/* v6.5 exfat: iterate_dir's down_read_killable, then the wrapper's
 * up_read, down_write (not killable), downgrade_write; iterate_dir's
 * up_read.  exfat_iterate runs holding the lock for writing. */
static void test_wrapper_sequence_v65_exfat(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_mount(h, "exfat", "/x");
	h_touch(h, "/x/a");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/x", VO_RDONLY)), 3);
	size_t mark = h_mark(h);
	h_submit(h, A, C_GETDENTS(3, 10));
	h_until(h, A, VFN_exfat_iterate);
	int ino = vfs_path_lookup(h->w, "/x");
	const struct vfs_lock *l = &h->w->ilocks[ino];
	assert_int_equal(l->owner, A);          /* held for writing inside */
	assert_int_equal(l->nreaders, 0);
	assert_int_equal(h_finish(h, A), 3);
	char buf[256];
	h_irwsem_seq(h, mark, A, buf, sizeof buf);
	assert_string_equal(buf, SEQ_WRAPPED);
	h_irwsem_fns(h, mark, A, buf, sizeof buf);
	assert_string_equal(buf, "down_read_killable up_read down_write "
			    "downgrade_write up_read");
	assert_int_equal(l->owner, -1);
	assert_int_equal(l->nreaders, 0);
	/* the wrapper is in the trace */
	int wrap = 0;
	for (size_t i = mark; i < h->log.n; i++)
		wrap += h->log.ev[i].op == OP_ENTER &&
			h->log.ev[i].fn == VFN_wrap_directory_iterator;
	assert_int_equal(wrap, 1);
	h_free(h);
}

static void test_iterate_sequence_v64_exfat(void **state)
{
	(void)state;
	struct h *h = h_new("v6.4");
	h_mount(h, "exfat", "/x");
	h_touch(h, "/x/a");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/x", VO_RDONLY)), 3);
	size_t mark = h_mark(h);
	assert_int_equal(h_do(h, A, C_GETDENTS(3, 10)), 3);
	char buf[256];
	h_irwsem_seq(h, mark, A, buf, sizeof buf);
	assert_string_equal(buf, SEQ_WRITE);
	h_irwsem_fns(h, mark, A, buf, sizeof buf);
	assert_string_equal(buf, "down_write_killable up_write");
	h_free(h);
}

/* Between the wrapper's up_read and down_write, rmdir gets in: the
 * re-check of IS_DEADDIR gives ENOENT and exfat_iterate never runs. */
static void test_wrapper_recheck(void **state)
{
	(void)state;
	for (int wrong = 0; wrong < 2; wrong++) {
		struct h *h = h_new("v6.5");
		if (wrong)
			h->w->k.wrapper = WRAP_NO_RECHECK;
		h_mount(h, "exfat", "/x");
		h_mkdir(h, "/x/e");
		int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
		assert_int_equal(h_do(h, A, C_OPEN("/x/e", VO_RDONLY)), 3);
		h_submit(h, A, C_GETDENTS(3, 10));
		h_until(h, A, VFN_down_write);  /* after up_read */
		assert_int_equal(h_do(h, B, C_RMDIR("/x/e")), 0);
		size_t mark = h_mark(h);
		int64_t r = h_finish(h, A);
		int iter = 0;
		for (size_t i = mark; i < h->log.n; i++)
			iter += h->log.ev[i].op == OP_ENTER &&
				h->log.ev[i].fn == VFN_exfat_iterate;
		if (!wrong) {
			assert_int_equal(r, -VE_NOENT);
			assert_int_equal(iter, 0);
			assert_int_equal(vfs_report_count(h->w, DK_DEADDIR, 0), 0);
		} else {
			assert_int_equal(r, 2);         /* . and .. of a dead dir */
			assert_int_equal(iter, 1);
			assert_int_equal(vfs_report_count(h->w, DK_DEADDIR, 0), 1);
		}
		h_free(h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modes),
		cmocka_unit_test(test_wrapper_sequence_v65_exfat),
		cmocka_unit_test(test_iterate_sequence_v64_exfat),
		cmocka_unit_test(test_wrapper_recheck),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
