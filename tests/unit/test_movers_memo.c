/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_movers_memo.c - the stateful search's memo of what an event is to
 * the guessed locking discipline (core/explore_movers.c, xm_event_memo):
 * for every event of random walks of the thieves (v5.6, v6.4, v6.5), the
 * memo's answer is xm_event's (the class and whether the access is of a
 * visible location, and DPOR's keys of the event, which the sleep sets'
 * footprint adds), it answers most events from what it kept, and it
 * still agrees once the table's classes changed under it (a demotion
 * between two rounds); where the sink's common path answers from the entry
 * alone (xm_memo_mover, fixed_acc), xm_event finds nothing it skips.
 */
#include "harness.h"
#include "explore_stateful.h"

#define NKEEP 4000

struct cmp {
	struct xmovers *m;
	struct xmemo *memo;
	int events, seen[3];
	uint64_t misses;
	/* events the sink's common path takes that it did not before cost16:
	 * [0] a fixed class, visible, no checked access; [1] a mover whose
	 * class reads the thread */
	int fast[2];
	struct vfs_event kept[NKEEP];   /* the first events */
	int nkept;
};

static void both(void *ctx, const struct vfs_world *w, const struct vfs_event *ev)
{
	struct cmp *c = ctx;
	int va = -1, vb = -1;
	int a = xm_event(c->m, w, ev, &va);
	struct xmemo_e before[XMEMO_SIZE];
	memcpy(before, c->memo->e, sizeof before);
	int b = xm_event_memo(c->m, c->memo, w, ev, &vb);
	c->misses += memcmp(before, c->memo->e, sizeof before) != 0;
	assert_int_equal(a, b);
	assert_int_equal(va, vb);
	/* and its footprint as DPOR sees it, the sleep sets' (xs_obs_sink
	 * adds the entry's keys) */
	uint32_t key[VFS_FOOTPRINT_MAX];
	int n = xfp_keys(ev, key);
	const struct xmemo_e *e = xm_memo_entry(c->m, c->memo, w, ev);
	assert_int_equal(e->fpn, n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(e->fpk[i], key[i]);
		assert_int_equal(e->fpb[i], xfp_bitno(XKEY(key[i])));
	}
	/* the sink's common path (xs_obs_sink) answers from the entry
	 * without xm_event: where it does, what it skips must be nothing.
	 * A class that reads the thread, taken as a mover there, is one
	 * (no violation, no visible access); a fixed class without
	 * fixed_acc makes no access obs_access would record. */
	if (e->gen == c->m->gen && e->fixed < 0 && xm_memo_mover(e, w, ev)) {
		assert_int_equal(a, XM_B);
		assert_int_equal(va, 0);
	}
	if (e->gen == c->m->gen && e->fixed >= 0 && !e->fixed_acc)
		assert_false(a != XM_B && va &&
			     (ev->op == OP_READ || ev->op == OP_WRITE) &&
			     vfs_access_checked(ev));
	if (e->gen == c->m->gen)
		c->fast[e->fixed < 0] += e->fixed < 0 ? xm_memo_mover(e, w, ev) :
					 e->fixed != XM_B && !e->fixed_acc;
	c->events++;
	c->seen[a]++;
	if (c->nkept < NKEEP)
		c->kept[c->nkept++] = *ev;
}

/* The events kept, moved to other objects, locks, files, directories and
 * (reads and writes) access kinds
 * (many more than the memo's slots, alike but for those): the memo tells
 * them apart as xm_event does. */
static void moved(struct cmp *c, const struct vfs_world *w)
{
	int step = c->nkept / 500 + 1;
	for (int i = 0; i < c->nkept; i += step)
		for (int d = 0; d < 20; d++) {
			struct vfs_event ev = c->kept[i];
			/* (each field moved after the event itself: with one
			 * slot, the memo holds the unmoved one then) */
			switch (d / 4) {
			case 0: ev.obj += d % 4; break;
			case 1: ev.lock += (vfs_lid_t)(d % 4); break;
			case 2: ev.file += d % 4; break;
			case 3: ev.dir += d % 4; break;
			case 4:         /* a read's or write's other kinds */
				if (ev.op != OP_READ && ev.op != OP_WRITE)
					continue;
				ev.akind = (uint8_t)((ev.akind + d % 4) % 4);
				break;
			}
			both(c, w, &ev);
		}
}

static void walks(const struct vfs_world *snap, struct cmp *c, uint64_t seed)
{
	struct vfs_world *w = xs_wnew();
	assert_non_null(w);
	struct vfs_sink sink = { both, c };
	uint64_t rng = seed;
	for (int run = 0; run < 30; run++) {
		assert_true(vfs_world_copy(w, snap));
		w->det.no_clocks = 1;
		for (int d = 0; d < 500; d++) {
			/* the k-th runnable thread, k at random */
			int n = 0, t = 0;
			for (int i = 0; i < w->nthreads; i++)
				n += vfs_runnable(w, i);
			if (!n)
				break;
			for (int k = (int)(xorshift64(&rng) % (uint64_t)n);
			     !vfs_runnable(w, t) || k-- > 0; t++)
				;
			vfs_step(w, t, &sink);
		}
	}
	vfs_world_free(w);
}

static void test_memo_agrees(void **state)
{
	(void)state;
	const char *presets[] = { "v5.6", "v6.4", "v6.5" };
	for (int p = 0; p < 3; p++) {
		struct h *h = h_new(presets[p]);
		h_dir_abc(h);
		int A = h_spawn(h, "A", 1000), B = h_spawn(h, "B", 1000);
		int C = h_spawn(h, "C", 1000);
		assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY | VO_DIRECTORY)), 3);
		assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
		assert_int_equal(h_do(h, C, C_PIDFD_OPEN(h_pid(h, A))), 3);
		h_submit(h, A, C_GETDENTS(3, 1));
		h_submit(h, A, C_LSEEK(3, 0, 0));
		h_submit(h, B, C_PIDFD_GETFD(3, 3));
		h_submit(h, B, C_GETDENTS(4, 1));
		h_submit(h, C, C_PIDFD_GETFD(3, 3));
		h_submit(h, C, C_GETDENTS(4, 1));
		struct xmovers m;
		assert_int_equal(xm_learn(&m, h->w, 1000, 0), 0);
		struct xmemo *memo = calloc(1, sizeof *memo);
		assert_non_null(memo);
		memo->mask = XMEMO_SIZE - 1;
		static struct cmp c;    /* (the kept events: not on the stack) */
		memset(&c, 0, sizeof c);
		c.m = &m;
		c.memo = memo;
		uint64_t seed = 0x9e3779b97f4a7c15ull + (uint64_t)p;
		walks(h->w, &c, seed);
		assert_true(c.events > 1000);
		if (c.misses * 4 >= (uint64_t)c.events)   /* (the first of each: misses) */
			fail_msg("misses %llu of %d", (unsigned long long)c.misses, c.events);
		assert_true(c.seen[XM_B] > 0 && c.seen[XM_N] > 0);
		assert_true(c.fast[0] > 0 && c.fast[1] > 0);
		int before = c.seen[XM_B], events = c.events;
		moved(&c, h->w);
		/* and with one slot: every event replaces the last */
		memo->mask = 0;
		moved(&c, h->w);
		memo->mask = XMEMO_SIZE - 1;
		/* every location demoted (as between rounds): the memo kept
		 * its rows, and reads their classes as they are now */
		int hidden = 0;
		for (uint32_t i = 0; i <= m.mask; i++)
			if (m.t[i].key && m.t[i].cls != XM_VISIBLE) {
				m.t[i].cls = XM_VISIBLE;
				hidden++;
			}
		assert_true(hidden > 0);
		m.gen++;        /* (as xm_apply does) */
		/* (the same walks: fewer steps invisible now) */
		memset(c.seen, 0, sizeof c.seen);
		c.events = c.nkept = 0;
		walks(h->w, &c, seed);
		assert_int_equal(c.events, events);
		assert_true(c.seen[XM_B] < before);
		moved(&c, h->w);
		free(memo);
		xm_free(&m);
		h_free(h);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memo_agrees),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
