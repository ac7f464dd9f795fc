/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_dependence.c - the access kinds of the event model (enum
 * vfs_akind) and the one dependence function DPOR and the sleep sets use
 * (core/explore_int.h, xkey_commute and xfp_commute; the proof in
 * core/explore_stateful.c, "Access kinds"): each pair of kinds, on one
 * location, commutes exactly where the rules say, so each assertion fails
 * if its rule is made weaker or stronger; and the kernel paths record the
 * kinds where they make the accesses (fget +1, fput -1,
 * file_needs_f_pos_lock's test).
 */
#include "harness.h"
#include "explore_stateful.h"

#define K VFS_COUNT_TEST_MIN
#define LOC KFCOUNT(3)
#define INC (LOC | XW)                  /* fget */
#define DEC (LOC | XW | XDEC)           /* fput */
#define TST (LOC | XTST)                /* file_needs_f_pos_lock */
#define RD  (LOC | XPR)                 /* a defined function's read */
#define WR  (LOC | XW | XPW)            /* a plain write */

/* KA and KB commute at a node where the count is V (-1: DPOR, no node),
 * both blocks leaving it no lower. */
static bool c(uint32_t ka, uint32_t kb, int64_t v)
{
	bool ab = xkey_commute(ka, kb, true, true, v, K);
	/* the relation is symmetric */
	assert_int_equal(ab, xkey_commute(kb, ka, true, true, v, K));
	return ab;
}

static void test_two_increments(void **state)
{
	(void)state;
	/* +1 and +1 commute anywhere: at any count, and for DPOR */
	assert_true(c(INC, INC, -1));
	assert_true(c(INC, INC, 1));
	assert_true(c(INC, INC, 7));
	/* one that also tests the count: only where the test holds in
	 * either order (the values both see are the node's or more) */
	assert_true(c(INC | XTST, INC, K));
	assert_false(c(INC | XTST, INC, K - 1));
	assert_false(c(INC | XTST, INC, -1));
	/* tests taken as plain reads (the rule off): never */
	assert_false(xkey_commute(INC | XTST, INC, true, true, 5, 0));
	assert_true(xkey_commute(INC, INC, true, true, 5, 0));
}

static void test_increment_and_test(void **state)
{
	(void)state;
	/* at or above the threshold the test answers the same */
	assert_true(c(INC, TST, K));
	assert_true(c(INC, TST, K + 3));
	/* below it the +1 may turn the answer (v6.4: 1 then 2) */
	assert_false(c(INC, TST, K - 1));
	/* DPOR has no node: dependent */
	assert_false(c(INC, TST, -1));
	/* the rule off (an override that asks more of the count) */
	assert_false(xkey_commute(INC, TST, true, true, K, 0));
	assert_false(xkey_commute(TST, INC, true, true, K, 0));
	/* a writer that leaves the count lower: dependent */
	assert_false(xkey_commute(INC | XDEC, TST, false, true, K + 3, K));
	assert_false(xkey_commute(TST, INC | XDEC, true, false, K + 3, K));
	/* one that takes and drops (net 0) commutes with a test */
	assert_true(xkey_commute(INC | XDEC, TST, true, true, K, K));
	assert_false(xkey_commute(INC | XDEC, TST, true, true, K - 1, K));
}

static void test_decrement(void **state)
{
	(void)state;
	/* a -1 reads its result (fput frees at 0): dependent with every
	 * change, at any count */
	assert_false(c(DEC, INC, 9));
	assert_false(c(DEC, DEC, 9));
	assert_false(c(DEC, INC, -1));
	/* and with a test where it leaves the count lower */
	assert_false(xkey_commute(DEC, TST, false, true, 9, K));
}

static void test_plain(void **state)
{
	(void)state;
	/* a plain read of a counter depends on every change */
	assert_false(c(RD, INC, 9));
	assert_false(c(RD | XTST, INC, 9));
	assert_false(c(RD, DEC, 9));
	/* a plain write on everything */
	assert_false(c(WR, INC, 9));
	assert_false(c(WR, TST, 9));
	assert_false(c(WR, RD, 9));
	assert_false(c(WR, WR, 9));
	assert_false(c(WR | XTST, TST, 9));
}

/* A v6.5 world where thread *A has directory /d open as fd 3. */
static struct h *dir_open(int *A)
{
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	*A = h_spawn(h, "A", 1000);
	assert_int_equal(h_do(h, *A, C_OPEN("/d", VO_RDONLY)), 3);
	return h;
}

/* xfp_commute: reads alone, other locations, node values. */
static void test_footprints(void **state)
{
	(void)state;
	struct xfp a = { 0 }, b = { 0 };
	xfp_add(&a, LOC, XTST);
	xfp_add(&b, LOC, XTST);
	assert_true(xfp_commute(&a, true, &b, true, NULL, 0));  /* two reads */
	xfp_add(&b, LOC, XW);
	assert_false(xfp_commute(&a, true, &b, true, NULL, K)); /* no node */
	xfp_add(&a, KFCOUNT(4), XW);    /* another file's count */
	assert_false(xfp_indep(&a, &b));
	struct xfp i1 = { 0 }, i2 = { 0 };
	xfp_add(&i1, LOC, XW);
	xfp_add(&i2, LOC, XW);
	xfp_add(&i2, KFLD(FLD_F_POS, VOK_FILE, 3), XW | XPW);
	xfp_add(&i1, KFLD(FLD_F_POS, VOK_FILE, 4), XPR);
	assert_true(xfp_indep(&i1, &i2));       /* two fgets, other f_pos */
	xfp_add(&i1, KFLD(FLD_F_POS, VOK_FILE, 3), XPR);
	assert_false(xfp_indep(&i1, &i2));      /* one f_pos: read, written */
	/* a kind added to a location already there: one key, both kinds */
	struct xfp m = { 0 };
	xfp_add(&m, LOC, XW);
	xfp_add(&m, LOC, XW | XDEC);
	assert_int_equal(m.n, 1);
	assert_int_equal(m.key[0], DEC);
	/* the node's count (the file's) decides the test */
	int A;
	struct h *h = dir_open(&A);
	int f = h_file(h, A, 3);
	struct xfp t = { 0 }, g = { 0 };
	xfp_add(&t, KFCOUNT(f), XTST);
	xfp_add(&g, KFCOUNT(f), XW);
	assert_false(xfp_commute(&t, true, &g, true, h->w, K));        /* 1 */
	assert_int_equal(h_do(h, A, C_DUP(3)), 4);
	assert_true(xfp_commute(&t, true, &g, true, h->w, K));         /* 2 */
	h_free(h);
}

/* KIND added to KEY's location in F as xfp_add did before it kept bits:
 * by looking for it always. */
static void add_slow(struct xfp *f, uint32_t key, uint32_t kind)
{
	if (f->all)
		return;
	for (int i = 0; i < f->n; i++)
		if (XKEY(f->key[i]) == key) {
			f->key[i] |= kind;
			return;
		}
	if (f->n == XFP)
		f->all = 1;
	else
		f->key[f->n++] = key | kind;
}

/* The footprints' bits (xfp_add's in and wr, xfp_commute's first test):
 * random footprints over locations some of which share a bit, built with
 * and without them, hold the same keys, and every pair commutes by the
 * bits as by the keys (at a node and without one, with and without the
 * threshold), the bits answering some pairs alone. */
static void test_footprint_bits(void **state)
{
	(void)state;
	int A;
	struct h *h = dir_open(&A);
	int f = h_file(h, A, 3);
	assert_int_equal(h_do(h, A, C_DUP(3)), 4);      /* f_count 2 */
	uint32_t loc[16] = { KFCOUNT(f), KFCOUNT(f + 1), KFLD(FLD_F_POS, VOK_FILE, f),
			     KFLD(FLD_CURSOR, VOK_FILE, f), KPASS(f), KALLOC(1) };
	int nloc = 6;
	/* locations sharing a bit with some of the first ones (the counts'
	 * is their own) */
	for (uint32_t o = 0; nloc < 12 && o < 100000; o++) {
		uint32_t k = KFLD(FLD_F_POS, VOK_INODE, o);
		if (xfp_bit(k) == xfp_bit(loc[2 + nloc % 3]) && k != loc[2 + nloc % 3])
			loc[nloc++] = k;
	}
	assert_int_equal(nloc, 12);
	for (int i = 12; i < 16; i++)
		loc[i] = KFLD(FLD_DIR, VOK_INODE, 1000 + i);
	static const uint32_t kinds[] = { XPR, XTST, XW, XW | XPW, XW | XDEC };
	srand(12);
	int by_bits = 0, same = 0, differ = 0;
	enum { NFP = 400 };
	static struct xfp fp[NFP];
	for (int i = 0; i < NFP; i++) {
		struct xfp slow = { 0 };
		xfp_clear(&fp[i]);
		int n = rand() % (i % 7 == 0 ? 30 : 8);
		for (int j = 0; j < n; j++) {
			uint32_t key = loc[rand() % (i % 2 ? 16 : 6)];
			uint32_t kind = kinds[rand() % 5];
			xfp_add(&fp[i], key, kind);
			add_slow(&slow, key, kind);
		}
		assert_int_equal(fp[i].n, slow.n);
		assert_int_equal(fp[i].all, slow.all);
		assert_memory_equal(fp[i].key, slow.key, sizeof *slow.key * slow.n);
		for (int j = 0; j < fp[i].n; j++) {
			uint64_t bit = xfp_bit(XKEY(fp[i].key[j]));
			assert_true(fp[i].in & bit);
			if (fp[i].key[j] & XW)
				assert_true(fp[i].wr & bit);
		}
	}
	for (int i = 0; i < NFP; i++)
		for (int j = 0; j < NFP; j += 3) {
			const struct xfp *a = &fp[i], *b = &fp[j];
			bool aup = (i + j) % 3, bup = (i * j) % 5;
			const struct vfs_world *X = j % 2 ? h->w : NULL;
			int k = i % 2 ? K : 0;
			bool fast = xfp_commute(a, aup, b, bup, X, k);
			bool slow = xfp_commute_keys(a, aup, b, bup, X, k);
			assert_int_equal(fast, slow);
			by_bits += !a->all && !b->all &&
				   !((a->in & b->wr) | (a->wr & b->in));
			same += fast;
			differ += !fast;
		}
	assert_true(by_bits > 1000);
	assert_true(same > by_bits + 1000);     /* some by the keys */
	assert_true(differ > 1000);
	h_free(h);
}

/* Key K a count's change that leaves it lower from S to W (or names a
 * file one of them lacks). */
static bool lowers(uint32_t k, const struct vfs_world *S, const struct vfs_world *W)
{
	uint32_t f = XKEY(k) - KFCOUNT(0);
	if (!(k & XW) || f > KFCOUNT_FILE)
		return false;
	return (int)f >= S->nfiles || (int)f >= W->nfiles ||
	       S->files[f].f_count > W->files[f].f_count;
}

/* xs_count_up as it was before it read the bits: every key looked at. */
static bool count_up_slow(const struct xfp *fp, const struct vfs_world *S,
			  const struct vfs_world *W)
{
	int low = 0;
	for (int i = 0; i < fp->n; i++)
		low += lowers(fp->key[i], S, W);
	return !low;
}

/* The sink's footprint (xfp_add_entry: the memo entry's bits, the key
 * of each bit kept as a hint) and xs_count_up (by f_count's bit, every
 * file's count's own): random entries of random keys, some sharing a bit,
 * with the footprint saved and put back between (as a block's before a
 * step that turns out the next block's), make the footprint xfp_add_keys
 * makes, and a block wrote a count lower exactly when the keys say so. */
static void test_footprint_entries(void **state)
{
	(void)state;
	int A, B;
	struct h *h = dir_open(&A), *h1 = dir_open(&B);
	int f = h_file(h, A, 3);
	assert_int_equal(h_file(h1, B, 3), f);
	assert_int_equal(h_do(h, A, C_DUP(3)), 4);      /* 2 in h, 1 in h1 */
	/* every count's bit is f_count's, and only theirs */
	for (uint32_t o = 0; o < 5000; o++) {
		assert_int_equal(xfp_bitno(KFCOUNT(o)), 63);
		assert_true(xfp_bitno(KFLD(FLD_F_POS, VOK_FILE, o)) < 63);
		assert_true(xfp_bitno(KLOCK(o)) < 63);
	}
	uint32_t loc[12] = { KFCOUNT(f), KFCOUNT(f + 1), KFLD(FLD_F_POS, VOK_FILE, f),
			     KPASS(f), KALLOC(1) };
	int nloc = 5;
	for (uint32_t o = 0; nloc < 12 && o < 100000; o++) {
		uint32_t k = KFLD(FLD_F_POS, VOK_INODE, o);
		if (xfp_bitno(k) == xfp_bitno(loc[2 + nloc % 3]))
			loc[nloc++] = k;
	}
	assert_int_equal(nloc, 12);
	static const uint32_t kinds[] = { XPR, XTST, XW, XW | XPW, XW | XDEC };
	static struct xmemo_e e[64];
	for (int i = 0; i < 64; i++) {
		e[i].fpn = (int8_t)(i == 63 ? -1 : 1 + i % 2);
		for (int j = 0; j < e[i].fpn; j++) {
			e[i].fpk[j] = loc[(i * 7 + j * 5) % 12] | kinds[(i + j) % 5];
			e[i].fpb[j] = (uint8_t)xfp_bitno(XKEY(e[i].fpk[j]));
		}
	}
	srand(17);
	int hinted = 0, down = 0, up = 0;
	for (int round = 0; round < 300; round++) {
		uint8_t pos[64];        /* (xobs.fppos) */
		struct xfp fast, slow, fsave = { 0 }, ssave = { 0 };
		xfp_clear(&fast);
		xfp_clear(&slow);
		memset(pos, round % 2 ? 0xff : 0, sizeof pos);
		int n = rand() % (round % 9 == 0 ? 40 : 12);
		for (int k = 0; k < n; k++) {
			int r = rand() % 100;
			if (r < 8) {            /* saved before a step */
				fsave = fast;
				ssave = slow;
				continue;
			}
			if (r < 14) {           /* ... and put back */
				fast = fsave;
				slow = ssave;
				continue;
			}
			const struct xmemo_e *x = &e[rand() % (round % 5 ? 63 : 64)];
			xfp_add_entry(&fast, pos, x);
			xfp_add_keys(&slow, x->fpn, x->fpk);
			assert_int_equal(fast.n, slow.n);
			assert_int_equal(fast.all, slow.all);
			assert_memory_equal(fast.key, slow.key, sizeof *slow.key * slow.n);
			assert_true(fast.in == slow.in && fast.wr == slow.wr);
		}
		for (int i = 0; i < fast.n; i++)
			hinted += pos[xfp_bitno(XKEY(fast.key[i]))] == i;
		bool d = count_up_slow(&fast, h->w, h1->w);
		bool u = count_up_slow(&fast, h1->w, h->w);
		assert_int_equal(xs_count_up(&fast, h->w, h1->w), d);
		assert_int_equal(xs_count_up(&fast, h1->w, h->w), u);
		down += !d;
		up += u && (fast.wr & XFP_FCOUNT_BIT);
	}
	assert_true(hinted > 300);
	assert_true(down > 20);
	assert_true(up > 5);    /* counts written, none lower: by the keys */
	h_free(h1);
	h_free(h);
}

/* The kind of the f_count access of the events from MARK on (the first
 * READ if READ, else the first WRITE), or -1. */
static int count_kind(struct h *h, size_t mark, bool read)
{
	for (size_t i = mark; i < h->log.n; i++) {
		const struct vfs_event *ev = &h->log.ev[i];
		if (ev->field == FLD_F_COUNT &&
		    ev->op == (read ? OP_READ : OP_WRITE))
			return ev->akind;
	}
	return -1;
}

static void test_recorded(void **state)
{
	(void)state;
	int A;
	struct h *h = dir_open(&A);
	size_t m = h_mark(h);
	assert_int_equal(h_do(h, A, C_DUP(3)), 4);
	assert_int_equal(count_kind(h, m, false), VAK_INC);
	m = h_mark(h);
	assert_true(h_do(h, A, C_GETDENTS(3, 8)) >= 0);
	assert_int_equal(count_kind(h, m, true), VAK_TEST);
	m = h_mark(h);
	assert_int_equal(h_do(h, A, C_CLOSE(4)), 0);
	assert_int_equal(count_kind(h, m, false), VAK_DEC);
	/* every other access is plain */
	for (size_t i = 0; i < h->log.n; i++) {
		const struct vfs_event *ev = &h->log.ev[i];
		if ((ev->op == OP_READ || ev->op == OP_WRITE) &&
		    ev->field != FLD_F_COUNT)
			assert_int_equal(ev->akind, VAK_PLAIN);
	}
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_increments),
		cmocka_unit_test(test_increment_and_test),
		cmocka_unit_test(test_decrement),
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_footprints),
		cmocka_unit_test(test_footprint_bits),
		cmocka_unit_test(test_footprint_entries),
		cmocka_unit_test(test_recorded),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
