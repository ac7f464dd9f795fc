/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_world.c - the world is one value: vfs_world_copy() in the middle
 * of a run gives a world that continues exactly like the original, and
 * a copy into a buffer that held a bigger world keeps nothing of it
 * (here: the detectors' vector clocks of threads made after the copy).
 */
#include "harness.h"
#include "footprint.h"
#include "explore_stateful.h"

#define OP_NONE_FOUND OP__COUNT

/* A v6.4 pidfd race stopped inside A's getdents; B has stolen the file. */
static struct h *half_race(void)
{
	struct h *h = h_new("v6.4");
	h_mkdir(h, "/d");
	h_touch(h, "/d/a");
	h_touch(h, "/d/b");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	h_submit(h, A, C_GETDENTS(3, 2));
	h_until(h, A, VFN_ext4_readdir);
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(h_pid(h, A))), 3);
	assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 3)), 4);
	h_submit(h, B, C_GETDENTS(4, 2));
	return h;
}

static void test_copy_continues_alike(void **state)
{
	(void)state;
	struct h *h = half_race();
	struct h *c = h_new("v6.5");
	vfs_world_copy(c->w, h->w);
	int A = h_tid(h, "A"), B = h_tid(h, "B");
	h_clear(h);
	h_clear(c);
	/* the same schedule on both */
	assert_int_equal(h_finish(h, B), 2);
	assert_int_equal(h_finish(c, B), 2);
	assert_int_equal(h_finish(h, A), 2);
	assert_int_equal(h_finish(c, A), 2);
	h_run(h, 1000);
	h_run(c, 1000);
	assert_int_equal(h->log.n, c->log.n);
	for (size_t i = 0; i < h->log.n; i++) {
		char x[256], y[256];
		vfs_event_text(h->w, &h->log.ev[i], x, sizeof x);
		vfs_event_text(c->w, &c->log.ev[i], y, sizeof y);
		assert_string_equal(x, y);
	}
	assert_int_equal(vfs_report_count(h->w, DK_DUPLICATE, 0),
			 vfs_report_count(c->w, DK_DUPLICATE, 0));
	assert_true(vfs_report_count(c->w, DK_DUPLICATE, 0) > 0);
	assert_int_equal(vfs_report_count(h->w, DK_RACE, FLD_F_POS),
			 vfs_report_count(c->w, DK_RACE, FLD_F_POS));
	assert_int_equal(h->w->step, c->w->step);
	h_free(h);
	h_free(c);
}

/* A plain frame: what vfs_step_noframes does not make. */
static bool plain_frame(const struct vfs_event *ev)
{
	return ev->op == OP_EXIT ||
	       (ev->op == OP_ENTER && !vfs_fn_is_iterator(ev->fn));
}

/* Location L of an event is covered by location G of a later one: the
 * same, touched as strongly (a write covers a read), and used by the
 * search (the movers' discipline, its race check, the sleep sets'
 * footprint, which is DPOR's) as L is. */
static bool loc_covers(const struct vfs_loc *g, const struct vfs_loc *l)
{
	static const int search[] = { VC_MOVERS, VC_STATEFUL, VC_DPOR };
	if (g->kind != l->kind || g->field != l->field || g->objkind != l->objkind ||
	    g->obj != l->obj || g->lock != l->lock || (l->write && !g->write))
		return false;
	for (int i = 0; i < 3; i++)
		if (vfs_loc_use[l->why][search[i]] != LU_IGNORE &&
		    vfs_loc_use[g->why][search[i]] != vfs_loc_use[l->why][search[i]])
			return false;
	return true;
}

/* Event LOG[I] is covered by later events of its step (the same thread,
 * no lock taken or dropped in between): what the search's sink may leave
 * out (xs_obs_covered). */
static bool covered_later(const struct vfs_event *log, size_t n, size_t i)
{
	struct vfs_loc l[VFS_FOOTPRINT_MAX], g[VFS_FOOTPRINT_MAX];
	int nl = vfs_footprint(&log[i], l);
	if (nl <= 0)
		return false;
	bool done[VFS_FOOTPRINT_MAX] = { false };
	int left = nl;
	for (size_t k = i + 1; k < n && left; k++) {
		const struct vfs_event *e = &log[k];
		if (e->step != log[i].step || e->tid != log[i].tid)
			break;
		if (e->op == OP_ACQUIRE || e->op == OP_RELEASE ||
		    e->op == OP_DOWNGRADE || e->op == OP_BLOCK)
			break;
		int ng = vfs_footprint(e, g);
		for (int a = 0; a < nl; a++)
			for (int b = 0; b < ng && !done[a]; b++)
				if (loc_covers(&g[b], &l[a])) {
					done[a] = true;
					left--;
				}
	}
	return left == 0;
}

/* vfs_step_noframes runs the same steps as vfs_step: the same world after
 * each (its function stacks, its event numbers, the detectors' reports),
 * and the sink sees the same events, numbered the same, but the plain
 * frames (exits, non-iterators' entries), which vfs_step hands it.  Of
 * those the search's sink leaves out some (xs_obs_covered: an iterator's
 * entry, its read of the cursor): a later event of their step covers
 * each.  NO_CLOCKS: both worlds without clocks (an explorer's copy), where
 * no detector reads those either (the directory is not dead):
 * vfs_step_noframes does not make them (unread_events), numbered all the
 * same.  H stepped both ways:
 * TIDS[0]'s calls to the end, then TIDS[1]'s; they report KIND. */
static void steps_alike(struct h *h, const int tids[2], int kind,
			bool no_clocks)
{
	struct h *c = h_new("v6.5");
	h->w->det.no_clocks = no_clocks;
	vfs_world_copy(c->w, h->w);
	assert_int_equal(c->w->det.no_clocks, no_clocks);
	h_clear(h);
	h_clear(c);
	for (int i = 0; i < 2; i++)
		while (vfs_runnable(h->w, tids[i])) {
			assert_true(vfs_runnable(c->w, tids[i]));
			assert_int_equal(vfs_step(h->w, tids[i], &h->sink),
					 vfs_step_noframes(c->w, tids[i], &c->sink));
			assert_int_equal(h->w->seq, c->w->seq);
			for (int t = 0; t < h->w->nthreads; t++) {
				assert_int_equal(vfs_thread_nframes(h->w, t),
						 vfs_thread_nframes(c->w, t));
				for (int f = 0; f < vfs_thread_nframes(h->w, t); f++)
					assert_int_equal(vfs_thread_frame_fn(h->w, t, f),
							 vfs_thread_frame_fn(c->w, t, f));
			}
		}
	assert_false(vfs_has_work(h->w, tids[0]) || vfs_has_work(h->w, tids[1]));
	size_t j = 0, frames = 0, iters = 0, entries = 0, cursors = 0,
	       unread[2] = { 0, 0 };     /* entries of iterators, reads */
	for (size_t i = 0; i < h->log.n; i++) {
		const struct vfs_event *e = &h->log.ev[i];
		if (plain_frame(e)) {
			assert_true(xs_obs_covered(e));
			frames++;
			continue;
		}
		iters += e->op == OP_ENTER;
		entries += e->op == OP_EMIT;
		if (no_clocks && (e->op == OP_ENTER ||
				  (e->op == OP_READ && e->field == FLD_CURSOR))) {
			/* not made: covered, and no detector reads it (the
			 * iterator's entry: its directory is not dead) */
			assert_true(xs_obs_covered(e));
			assert_true(covered_later(h->log.ev, h->log.n, i));
			assert_true(j == c->log.n || c->log.ev[j].seq > e->seq);
			unread[e->op == OP_READ]++;
			continue;
		}
		assert_true(j < c->log.n);
		assert_int_equal(e->seq, c->log.ev[j].seq);
		if (xs_obs_covered(&c->log.ev[j])) {
			/* left out of the search's sink: covered */
			assert_true(covered_later(h->log.ev, h->log.n, i));
			cursors += e->op == OP_READ;
		}
		char x[256], y[256];
		vfs_event_text(h->w, e, x, sizeof x);
		vfs_event_text(c->w, &c->log.ev[j], y, sizeof y);
		assert_string_equal(x, y);
		j++;
	}
	assert_int_equal(j, c->log.n);
	assert_true(frames > 0);        /* vfs_step made them, ... */
	assert_true(iters > 0);         /* ... and both the iterators' entries */
	/* and reads of the cursor, left out (or, without clocks, not made) */
	assert_true(no_clocks ? unread[0] > 0 && unread[1] > 0 && cursors == 0 :
				cursors > 0);
	assert_true(entries > 0);       /* (a getdents of two entries) */
	/* each entry checked: the same reports, one by one */
	for (int k = 0; k < DK__REPORTS; k++)
		assert_int_equal(vfs_report_count(h->w, k, 0),
				 vfs_report_count(c->w, k, 0));
	assert_true(vfs_report_count(c->w, kind, 0) > 0);
	assert_int_equal(h->w->det.nreports, c->w->det.nreports);
	for (int i = 0; i < h->w->det.nreports; i++) {
		char x[512], y[512];
		vfs_report_text(h->w, &h->w->det.reports[i], x, sizeof x);
		vfs_report_text(c->w, &c->w->det.reports[i], y, sizeof y);
		assert_string_equal(x, y);
	}
	assert_int_equal(vfs_report_count(h->w, DK_RACE, FLD_F_POS),
			 vfs_report_count(c->w, DK_RACE, FLD_F_POS));
	h_free(c);
}

/* B's getdents, then A's: two entries handed out twice; with clocks, and
 * without (an explorer's copy). */
static void test_noframes_steps_alike(void **state)
{
	(void)state;
	for (int no_clocks = 0; no_clocks < 2; no_clocks++) {
		struct h *h = half_race();
		int tids[2] = { h_tid(h, "B"), h_tid(h, "A") };
		steps_alike(h, tids, DK_DUPLICATE, no_clocks);
		assert_int_equal(vfs_report_count(h->w, DK_DUPLICATE, 0), 2);
		h_free(h);
	}
}

/* A search's step without clocks still makes an iterator's entry on a
 * dead directory, which the dead-directory check reads (unread_events):
 * v6.5 with the wrapper's re-check removed, A's getdents of /x/e waits
 * for its i_rwsem while B's rmdir runs, then A's iterator runs on it. */
static void test_noframes_deaddir_made(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_knob(h, "wrapper", "no-recheck");
	h_mount(h, "exfat", "/x");
	h_mkdir(h, "/x/e");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/x/e", VO_RDONLY)), 3);
	h_submit(h, A, C_GETDENTS(3, 2));
	h_until(h, A, VFN_down_write);
	assert_int_equal(h_do(h, B, C_RMDIR("/x/e")), 0);
	h->w->det.no_clocks = 1;
	h_clear(h);
	int enters = 0;
	while (vfs_runnable(h->w, A))
		vfs_step_noframes(h->w, A, &h->sink);
	for (size_t i = 0; i < h->log.n; i++)
		enters += h->log.ev[i].op == OP_ENTER &&
			  vfs_fn_is_iterator(h->log.ev[i].fn);
	assert_int_equal(enters, 1);
	assert_int_equal(vfs_report_count(h->w, DK_DEADDIR, 0), 1);
	h_free(h);
}

/* v6.4: A read f_pos (3) without f_pos_lock, B's lseek to 0 starts a new
 * pass, then A hands out offsets 3 and 4 in one step: ".", ".." and "a"
 * were skipped, reported at the first of them. */
static void test_noframes_skips_alike(void **state)
{
	(void)state;
	struct h *h = h_seek_under_getdents();
	int A = h_tid(h, "A"), B = h_tid(h, "B");
	h_until(h, A, VFN_ext4_readdir);
	assert_int_equal(h_do(h, B, C_PIDFD_GETFD(3, 3)), 4);
	assert_int_equal(h_do(h, B, C_LSEEK(4, 0, VSEEK_SET)), 0);
	int tids[2] = { A, B };
	steps_alike(h, tids, DK_SKIPPED, false);
	assert_int_equal(vfs_report_count(h->w, DK_SKIPPED, 0), 3);
	h_free(h);
}

/* A copy without vector clocks (det.no_clocks: an explorer's) runs the
 * same steps, its events the same but unnamed: no file#, i_ino, kernel
 * tid nor step's name (emit), which only views of the trace read. */
static void test_no_clocks_unnamed(void **state)
{
	(void)state;
	struct h *h = half_race();
	struct h *c = h_new("v6.5");
	vfs_world_copy(c->w, h->w);
	c->w->det.no_clocks = 1;
	h_clear(h);
	h_clear(c);
	int B = h_tid(h, "B"), A = h_tid(h, "A");
	assert_int_equal(h_finish(h, B), 2);
	assert_int_equal(h_finish(c, B), 2);
	assert_int_equal(h_finish(h, A), 2);
	assert_int_equal(h_finish(c, A), 2);
	assert_int_equal(h->log.n, c->log.n);
	int files = 0, inodes = 0;
	for (size_t i = 0; i < h->log.n; i++) {
		const struct vfs_event *e = &h->log.ev[i];
		struct vfs_event n = c->log.ev[i];
		assert_int_equal(n.file_id, 0);
		assert_int_equal(n.ino, 0);
		assert_int_equal(n.ktid, 0);
		assert_int_equal(n.rp, 0);
		assert_int_not_equal(e->ktid, 0);
		files += e->file_id != 0;
		inodes += e->ino != 0;
		n.file_id = e->file_id;
		n.ino = e->ino;
		n.ktid = e->ktid;
		n.rp = e->rp;
		char x[256], y[256];
		vfs_event_text(h->w, e, x, sizeof x);
		vfs_event_text(c->w, &n, y, sizeof y);
		assert_string_equal(x, y);
	}
	assert_true(files > 0 && inodes > 0);   /* (named with the clocks) */
	assert_int_equal(vfs_report_count(h->w, DK_DUPLICATE, 0),
			 vfs_report_count(c->w, DK_DUPLICATE, 0));
	assert_true(vfs_report_count(c->w, DK_DUPLICATE, 0) > 0);
	h_free(h);
	h_free(c);
}

/* getdents from any offset hands out the first entry at that offset or
 * after, in a directory with holes (unlinked names) and a name renamed
 * in (a new offset, last): the iterator's walk to the offset, from
 * either end of the children, finds the entry a walk over all of them
 * finds; with no room (count 0), -EINVAL while an entry is left, else 0. */
static void test_getdents_from_any_offset(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	char path[32];
	h_mkdir(h, "/d");
	h_mkdir(h, "/e");
	h_touch(h, "/e/moved");
	for (int i = 0; i < 10; i++) {
		snprintf(path, sizeof path, "/d/f%d", i);
		h_touch(h, path);
	}
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_UNLINK("/d/f1")), 0);
	assert_int_equal(h_do(h, A, C_UNLINK("/d/f5")), 0);
	assert_int_equal(h_do(h, A, C_UNLINK("/d/f9")), 0);
	assert_int_equal(h_do(h, A, C_RENAME("/d/f2", "/d/g")), 0);
	assert_int_equal(h_do(h, A, C_RENAME("/e/moved", "/d/m")), 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 3);
	int d = vfs_path_lookup(h->w, "/d");
	assert_true(d >= 0);
	int last = 0, found = 0;
	for (int pos = 2; pos < 20; pos++) {
		/* the first child at POS or after, from every child */
		const char *want = NULL;
		int wo = 1 << 30;
		for (int c = 0; c < h->w->ninodes; c++)
			if (h->w->inodes[c].parent == d && !h->w->inodes[c].unlinked &&
			    vfs_dentry_offset(h->w, c) >= pos &&
			    vfs_dentry_offset(h->w, c) < wo) {
				wo = vfs_dentry_offset(h->w, c);
				want = vfs_dentry_name(h->w, c);
			}
		assert_int_equal(h_do(h, A, C_LSEEK(3, pos, VSEEK_SET)), pos);
		assert_int_equal(h_do(h, A, C_GETDENTS(3, 0)), want ? -VE_INVAL : 0);
		assert_int_equal(h_do(h, A, C_LSEEK(3, pos, VSEEK_SET)), pos);
		assert_int_equal(h_do(h, A, C_GETDENTS(3, 1)), want ? 1 : 0);
		char got[64];
		h_entries(h, A, got, sizeof got);
		assert_string_equal(got, want ? want : "");
		if (want) {
			last = wo;
			found++;
		}
	}
	assert_int_equal(found, last - 1);      /* (offsets 2 .. last) */
	assert_true(last > 12);                 /* "m", renamed in last */
	h_free(h);
}

/* The iterator's first child at an offset (core/readdir.c
 * first_child_from), by the slot its guess tries or by the walk, against
 * every slot: in directories whose names were made, removed, renamed
 * across and made again, so that freed slots are reused out of order and
 * the guess lands on freed, unlinked (kept open) and other directories'
 * slots. */
static void test_first_child_guess(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int A = h_spawn(h, "A", 0);
	const char *const dirs[] = { "/d", "/e", "/d/s" };
	char a[32], b[32];
	for (int i = 0; i < 3; i++)
		assert_int_equal(h_do(h, A, C_MKDIR(dirs[i])), 0);
	uint64_t r = 88172645463325252ull;
	int tries = 0, guessed = 0;
	for (int round = 0; round < 60; round++) {
		for (int k = 0; k < 6; k++) {
			r ^= r << 13, r ^= r >> 7, r ^= r << 17;
			snprintf(a, sizeof a, "%s/n%d", dirs[r % 3], (int)(r >> 8) % 12);
			snprintf(b, sizeof b, "%s/n%d", dirs[(r >> 20) % 3], (int)(r >> 28) % 12);
			switch ((r >> 40) % 4) {
			case 0: h_do(h, A, C_MKDIR(a)); break;
			/* (kept open: removed, unlinked but not freed) */
			case 1: h_do(h, A, C_OPEN(a, VO_RDONLY)); break;
			case 2: h_do(h, A, C_RMDIR(a)); break;
			default: h_do(h, A, C_RENAME(a, b)); break;
			}
		}
		const struct vfs_world *w = h->w;
		for (int i = 0; i < 3; i++) {
			int d = vfs_path_lookup(w, dirs[i]);
			const struct vfs_inode *dir = &w->inodes[d];
			for (int64_t pos = 0; pos <= dir->next_off + 1; pos++) {
				int want = -1;
				for (int c = 0; c < w->ninodes; c++)
					if (w->inodes[c].parent == d && !w->inodes[c].unlinked &&
					    !w->inodes[c].freed && w->inodes[c].d_off >= pos &&
					    (want < 0 || w->inodes[c].d_off < w->inodes[want].d_off))
						want = c;
				unsigned long g0 = readdir_guesses;
				int got = first_child_from(w, dir, d, pos);
				bool by_guess = readdir_guesses != g0;
				readdir_walk_only = true;
				int walked = first_child_from(w, dir, d, pos);
				readdir_walk_only = false;
				assert_true(readdir_guesses == g0 + by_guess);
				assert_int_equal(got, want);
				assert_int_equal(walked, want);
				tries++;
				int c0 = dir->first_child;
				bool predicted = want >= 0 && c0 >= 0 &&
					want == c0 + (pos > w->inodes[c0].d_off ?
						      pos - w->inodes[c0].d_off : 0);
				/* (the guessed slot answers exactly when it is
				 * the child sought) */
				assert_true(by_guess == predicted);
				guessed += by_guess;
			}
			assert_int_equal(first_child_from(w, dir, d, INT64_MAX), -1);
		}
	}
	/* (both ways taken: the guess right, and wrong) */
	assert_true(guessed > 100 && tries - guessed > 100);
	h_free(h);
}

/* A clone made in a copied world starts from its parent's clock, not from
 * whatever an earlier, bigger world left in the buffer. */
static void test_copy_into_used_buffer(void **state)
{
	(void)state;
	/* the buffer: a world in which thread 1 learnt a lot of thread 0 */
	struct h *big = h_new("v6.5");
	h_mkdir(big, "/d");
	int A = h_spawn(big, "A", 0), B = h_spawn(big, "B", 0);
	assert_int_equal(h_do(big, A, C_OPEN("/d", VO_RDONLY)), 3);
	for (int i = 0; i < 50; i++) {
		assert_true(h_do(big, A, C_GETDENTS(3, 10)) >= 0);
		assert_int_equal(h_do(big, A, C_LSEEK(3, 0, VSEEK_SET)), 0);
	}
	assert_int_equal(h_do(big, B, C_MKDIR("/d/x")), 0);
	assert_true(big->w->det.vc[1][0] > 50);

	/* a small world, copied over it */
	struct h *small = h_new("v3.13");
	h_touch(small, "/f");
	h_spawn(small, "A", 0);
	vfs_world_copy(big->w, small->w);
	h_free(small);
	struct h *h = big;
	h_clear(h);
	A = h_tid(h, "A");
	assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDWR)), 3);
	assert_true(h_do(h, A, C_CLONE()) > 0);
	int A2 = h_tid(h, "A.2");
	/* v3.13: no f_pos lock; two unordered writes of f_pos */
	assert_int_equal(h_do(h, A, C_LSEEK(3, 1, VSEEK_SET)), 1);
	assert_int_equal(h_do(h, A2, C_LSEEK(3, 2, VSEEK_SET)), 2);
	assert_true(vfs_report_count(h->w, DK_RACE, FLD_F_POS) > 0);
	h_free(h);
}

/* A copy's tables of large elements are the source's size, not 16 (an
 * fd table is 2 KB: every copy a search makes allocated 16 of them, most
 * of its memory); a process forked in the copy then grows them, and the
 * copy goes on like the original. */
static void test_copy_tables_sized(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_touch(h, "/f");
	int A = h_spawn(h, "A", 0);
	h_spawn(h, "B", 0);
	h_spawn(h, "C", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/f", VO_RDWR)), 3);
	int nfdt = h->w->nfdt;
	assert_true(nfdt >= 3 && nfdt < 16);
	struct vfs_world *c = vfs_world_dup(h->w);
	assert_non_null(c);
	assert_int_equal(c->fdt_cap, nfdt);
	/* the files (56 bytes each) keep their 16 */
	assert_int_equal(c->files_cap, 16);
	/* the threads (800 bytes each) are the three made, the processes
	 * (56) their 16: not VFS_MAX_THREADS and VFS_MAX_PROCS in each
	 * world, 40 KB of 53 when they were arrays in it */
	assert_int_equal(c->threads_cap, 3);
	assert_int_equal(c->procs_cap, 16);
	assert_true(sizeof(struct vfs_world) < 16 * 1024);
	struct vfs_world *orig = h->w;
	for (int pass = 0; pass < 2; pass++) {
		h->w = pass ? c : orig;
		assert_true(h_do(h, A, C_FORK("A2")) > 0);
		int A2 = h_tid(h, "A2");
		assert_int_equal(h->w->nfdt, nfdt + 1);
		assert_true(h->w->fdt_cap >= nfdt + 1);
		assert_int_equal(h_do(h, A2, C_WRITE(3, "forked")), 6);
		assert_int_equal(h_do(h, A, C_PREAD(3, 6, 0)), 6);
		assert_string_equal(h->w->threads[A].rec.text, "forked");
		/* a thread made in a step grows the array, which may move
		 * (the step's own thread taken again: ASan sees a stale
		 * one); the original's is full here (1, 2, 4 slots) */
		if (!pass)
			assert_int_equal(h->w->threads_cap, h->w->nthreads);
		assert_true(h_do(h, A, C_CLONE()) > 0);
		assert_int_equal(h->w->nthreads, 5);
		assert_true(h->w->threads_cap >= 5);
		assert_int_equal(h->w->threads[A].rec.ret, h->w->threads[4].tid);
	}
	h->w = orig;
	vfs_world_free(c);
	h_free(h);
}

/* Two worlds that share the inode table and file data until one changes
 * them: the other never sees the change. */
static void test_copies_share_nothing_visible(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_mkdir(h, "/d");
	h_touch(h, "/d/f");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_OPEN("/d/f", VO_RDWR)), 3);
	assert_int_equal(h_do(h, A, C_WRITE(3, "before")), 6);
	struct h *c = h_new("v6.5");
	vfs_world_copy(c->w, h->w);
	assert_ptr_equal(c->w->inodes, h->w->inodes);   /* shared */
	assert_int_equal(h_do(c, A, C_PWRITE(3, "AFTER", 0)), 5);
	assert_int_equal(h_do(c, A, C_MKDIR("/d/new")), 0);
	assert_int_equal(h_do(c, A, C_RENAME("/d/f", "/d/g")), 0);
	assert_ptr_not_equal(c->w->inodes, h->w->inodes);
	/* the original: its names, its tree and its bytes */
	assert_true(vfs_path_lookup(h->w, "/d/f") >= 0);
	assert_true(vfs_path_lookup(h->w, "/d/g") < 0);
	assert_true(vfs_path_lookup(h->w, "/d/new") < 0);
	assert_int_equal(h_do(h, A, C_PREAD(3, 6, 0)), 6);
	assert_string_equal(h->w->threads[A].rec.text, "before");
	assert_int_equal(h_do(c, A, C_PREAD(3, 6, 0)), 6);
	assert_string_equal(c->w->threads[A].rec.text, "AFTERe");
	h_free(c);
	h_free(h);
}

/* An rmdir'ed directory's slot is reused by the next mkdir once nothing
 * refers to it, under a new inode number; an event about the old one names
 * it by its number, not by the slot's new path. */
static void test_inode_slots_reused(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int A = h_spawn(h, "A", 0);
	assert_int_equal(h_do(h, A, C_MKDIR("/x")), 0);
	int slot = vfs_path_lookup(h->w, "/x");
	int32_t ino = h->w->inodes[slot].ino;
	size_t mark = h_mark(h);
	assert_int_equal(h_do(h, A, C_RMDIR("/x")), 0);
	struct vfs_event lock = { .op = OP_NONE_FOUND };
	for (size_t i = mark; i < h->log.n && lock.op == OP_NONE_FOUND; i++)
		if (h->log.ev[i].op == OP_ACQUIRE &&
		    VFS_LID_IDX(h->log.ev[i].lock) == slot &&
		    VFS_LID_KIND(h->log.ev[i].lock) == LID_INODE)
			lock = h->log.ev[i];    /* (a copy: the log grows) */
	assert_int_equal(lock.op, OP_ACQUIRE);
	assert_int_equal(lock.ino, ino);
	int32_t n = h->w->ninodes;
	for (int k = 0; k < 1000; k++) {
		assert_int_equal(h_do(h, A, C_MKDIR("/y")), 0);
		assert_int_equal(h_do(h, A, C_RMDIR("/y")), 0);
	}
	assert_int_equal(h->w->ninodes, n);     /* no slot more */
	assert_int_equal(h_do(h, A, C_MKDIR("/z")), 0);
	int z = vfs_path_lookup(h->w, "/z");
	assert_true(h->w->inodes[z].ino > ino + 1000);
	char buf[64];
	vfs_event_lock_name(h->w, &lock, buf, sizeof buf);
	assert_int_equal(z, slot);              /* the freed slot, again */
	assert_int_equal(ino, 3);               /* ("/" is 2, as on ext4) */
	assert_string_equal(buf, "inode#3 i_rwsem");
	/* a file still open keeps its unlinked inode */
	h_touch(h, "/keep");
	assert_int_equal(h_do(h, A, C_OPEN("/keep", VO_RDWR)), 3);
	int k = vfs_path_lookup(h->w, "/keep");
	assert_int_equal(h_do(h, A, C_WRITE(3, "data")), 4);
	assert_int_equal(h_do(h, A, C_UNLINK("/keep")), 0);
	assert_int_equal(h_do(h, A, C_MKDIR("/w")), 0);
	assert_int_not_equal(vfs_path_lookup(h->w, "/w"), k);
	assert_int_equal(h_do(h, A, C_PREAD(3, 4, 0)), 4);
	assert_string_equal(h->w->threads[A].rec.text, "data");
	h_free(h);
}

/* Past 32 threads, a new one takes the slot of one that exited; events
 * of the old one still name it. */
static void test_thread_slots_reused(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int A = h_spawn(h, "A", 0);
	size_t mark = h_mark(h);
	assert_int_equal(h_do(h, A, C_OPEN("/", VO_RDONLY)), 3);
	struct vfs_event old = h->log.ev[mark];
	assert_int_equal(h_do(h, A, C_EXIT()), 0);
	char name[16], buf[32];
	for (int i = 0; i < 40; i++) {
		snprintf(name, sizeof name, "P%d", i);
		int t = h_spawn(h, name, 0);
		assert_int_equal(h_do(h, t, C_EXIT()), 0);
	}
	assert_int_equal(h->w->nthreads, VFS_MAX_THREADS);
	assert_true(h->w->nretired > 0);
	assert_int_not_equal(h->w->threads[A].tid, old.ktid);   /* reused */
	vfs_event_thread_name(h->w, &old, buf, sizeof buf);
	assert_string_equal(buf, "A");
	/* 32 live threads: the next one is refused */
	struct h *g = h_new("v6.5");
	int B = h_spawn(g, "B", 0);
	for (int i = 1; i < VFS_MAX_THREADS; i++)
		assert_true(h_do(g, B, C_CLONE()) > 0);
	assert_int_equal(h_do(g, B, C_CLONE()), -VE_AGAIN);
	h_free(g);
	h_free(h);
}

/* The accessors the shell reads the world through (vfs_file.h,
 * vfs_inode.h, vfs_thread.h, vfs_world.h, issue 14) give what the model
 * did: each answer below is the kernel's, not copied from a field. */
static void test_object_accessors(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	struct vfs_world *w = h->w;
	h_mkdir(h, "/d");
	h_touch(h, "/d/a");
	h_touch(h, "/d/b");
	int A = h_spawn(h, "A", 0), B = h_spawn(h, "B", 1000);
	assert_int_equal(vfs_world_nthreads(w), 2);
	assert_int_equal(vfs_world_nprocs(w), 2);
	int pa = vfs_thread_proc(w, A), pb = vfs_thread_proc(w, B);
	assert_string_equal(vfs_proc_name(w, pb), "B");
	assert_int_equal(vfs_proc_uid(w, pb), 1000);
	assert_int_equal(vfs_proc_uid(w, pa), 0);
	assert_int_equal(vfs_proc_by_pid(w, vfs_proc_pid(w, pb)), pb);
	assert_int_equal(vfs_thread_ktid(w, A), vfs_proc_pid(w, pa)); /* the leader */
	assert_int_equal(vfs_thread_state(w, A), TS_IDLE);
	assert_int_equal(vfs_world_last_done(w), -1);

	/* a file: its inode, mode, position, count, what a read gave */
	assert_int_equal(h_do(h, A, C_OPEN("/d/a", VO_RDWR)), 3);
	int f = h_file(h, A, 3), a = vfs_path_lookup(w, "/d/a");
	assert_int_equal(vfs_file_kind(w, f), FK_INODE);
	assert_int_equal(vfs_file_inode(w, f), a);
	assert_int_equal(vfs_file_by_id(w, vfs_file_id(w, f)), f);
	assert_int_equal(vfs_file_mode(w, f) & (FMODE_READ | FMODE_WRITE),
			 FMODE_READ | FMODE_WRITE);
	assert_int_equal(vfs_inode_size(w, a), 0);
	assert_int_equal(h_do(h, A, C_WRITE(3, "hello")), 5);
	assert_int_equal(vfs_file_pos(w, f), 5);
	assert_int_equal(vfs_inode_size(w, a), 5);
	assert_int_equal(h_do(h, A, C_LSEEK(3, 1, 0)), 1);
	assert_int_equal(h_do(h, A, C_READ(3, 3)), 3);
	assert_int_equal(vfs_file_pos(w, f), 4);
	assert_int_equal(vfs_file_count(w, f), 1);
	assert_int_equal(vfs_thread_call(w, A)->sys, SYS_READ);
	assert_true(vfs_call_started(w, A) && vfs_call_done(w, A));
	assert_int_equal(vfs_call_ret(w, A), 3);
	assert_string_equal(vfs_call_text(w, A), "ell");
	assert_int_equal(vfs_world_last_done(w), A);

	/* the tree: types, names, offsets, children in getdents' order */
	int d = vfs_path_lookup(w, "/d"), b = vfs_path_lookup(w, "/d/b");
	assert_int_equal(vfs_inode_type(w, d), IT_DIR);
	assert_int_equal(vfs_inode_type(w, a), IT_REG);
	assert_int_equal(vfs_dentry_first_child(w, d), a);
	assert_int_equal(vfs_dentry_next_sibling(w, a), b);
	assert_int_equal(vfs_dentry_next_sibling(w, b), -1);
	assert_string_equal(vfs_dentry_name(w, b), "b");
	assert_true(vfs_dentry_offset(w, a) < vfs_dentry_offset(w, b));
	assert_false(vfs_inode_is_mountpoint(w, d));
	assert_int_equal(vfs_world_nsb(w), 1);
	assert_int_equal(vfs_dentry_nchildren(w, d), 2);
	assert_true(vfs_world_ninodes(w) >= 4);
	assert_int_equal(h_do(h, A, C_OPEN("/d", VO_RDONLY)), 4);
	assert_int_equal(h_do(h, A, C_GETDENTS(4, 10)), 4);
	assert_int_equal(vfs_call_nent(w, A), 4);      /* . .. a b */
	assert_int_equal(vfs_world_last_getdents(w), A);
	assert_string_equal(vfs_rec_entry_name(w, A, 3), "b");
	int df = h_file(h, A, 4);      /* ext4's readdir keeps its place */
	assert_true(vfs_file_pos(w, df) > 0);
	assert_int_equal(vfs_file_cursor(w, df), vfs_file_pos(w, df));
	/* unlinked while open: still a slot, (deleted) */
	assert_int_equal(h_do(h, B, C_UNLINK("/d/a")), 0);
	assert_true(vfs_inode_unlinked(w, a));
	assert_int_equal(vfs_dentry_nchildren(w, d), 1);
	assert_false(vfs_inode_freed(w, a));
	assert_false(vfs_inode_unlinked(w, b));

	/* a pidfd names its process */
	assert_int_equal(h_do(h, B, C_PIDFD_OPEN(vfs_proc_pid(w, pa))), 3);
	int pf = h_file(h, B, 3);
	assert_int_equal(vfs_file_kind(w, pf), FK_PIDFD);
	assert_int_equal(vfs_file_pidfd_pid(w, pf), vfs_proc_pid(w, pa));

	/* asleep on /d's i_rwsem, since its call's first step */
	h_submit(h, A, C_GETDENTS(4, 10));
	h_until(h, A, VFN_ext4_readdir);
	int step0 = vfs_world_step(w);
	assert_true(h_do(h, B, C_MKDIR("/d/x")) == H_BLOCKED);
	assert_int_equal(vfs_thread_state(w, B), TS_BLOCKED);
	assert_int_equal(vfs_lock_class(w, vfs_thread_wait_lock(w, B)), LC_I_RWSEM_DIR);
	assert_int_equal(vfs_thread_call(w, B)->sys, SYS_MKDIR);
	assert_true(vfs_call_started(w, B) && !vfs_call_done(w, B));
	assert_true(vfs_call_start_step(w, B) >= step0 &&
		    vfs_call_start_step(w, B) < vfs_world_step(w));
	assert_true(vfs_world_step(w) > step0);

	/* the world's own: preset, knobs, scheduler, what is left to tell */
	assert_string_equal(vfs_presets[vfs_world_preset(w)].name, "v6.5");
	assert_false(vfs_world_knobs_overridden(w));
	struct vfs_knobs k = *vfs_world_knobs(w);
	const struct vfs_knob_desc *kd = vfs_knob_lookup("killable");
	assert_non_null(kd);
	assert_int_equal(vfs_knob_get(vfs_world_knobs(w), kd), 1);     /* v6.5's */
	assert_int_equal(vfs_knob_set(&k, kd, "off"), 0);
	vfs_world_set_knobs(w, &k, true);
	assert_true(vfs_world_knobs_overridden(w));
	assert_int_equal(vfs_knob_get(vfs_world_knobs(w), kd), 0);
	vfs_world_set_sched(w, VSCHED_RANDOM, 7);
	assert_int_equal(vfs_world_sched(w), VSCHED_RANDOM);
	assert_int_equal(vfs_world_oom(w), 0);
	assert_int_equal(vfs_world_overflow_news(w), 0);
	/* 8 calls returned (the last getdents and mkdir are under way); 10
	 * submitted and 10 started took a sequence number each */
	assert_int_equal(vfs_world_stats(w)->calls, 8);
	assert_int_equal(vfs_world_stats(w)->calls_by_sys[SYS_READ], 1);
	assert_int_equal(vfs_world_stats(w)->calls_by_sys[SYS_GETDENTS], 1);
	assert_int_equal(vfs_world_call_seq(w), 20);
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_copy_continues_alike),
		cmocka_unit_test(test_noframes_steps_alike),
		cmocka_unit_test(test_noframes_deaddir_made),
		cmocka_unit_test(test_noframes_skips_alike),
		cmocka_unit_test(test_no_clocks_unnamed),
		cmocka_unit_test(test_getdents_from_any_offset),
		cmocka_unit_test(test_first_child_guess),
		cmocka_unit_test(test_copy_into_used_buffer),
		cmocka_unit_test(test_copy_tables_sized),
		cmocka_unit_test(test_copies_share_nothing_visible),
		cmocka_unit_test(test_inode_slots_reused),
		cmocka_unit_test(test_thread_slots_reused),
		cmocka_unit_test(test_object_accessors),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
