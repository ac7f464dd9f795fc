/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_copy.c - the copy of a world the stateful search makes its
 * successors in (explore_stateful.c): what a state is (explore_state.c)
 * and no more, and, where the work buffer already holds the parent, only
 * what the block's steps marked (the touched threads, files, fd tables,
 * passes, processes and inode locks: thread_touch, file_touch, fdt_touch,
 * objs_touch).
 */
#include <stdlib.h>
#include <string.h>
#include "explore_stateful.h"

/* A has no more of any table than B: threads, processes, files, fd
 * tables, inodes, inode locks, passes, lockdep's edges (the touch marks
 * name slots that were there; a copy from a world with more is whole). */
static inline bool no_more(const struct vfs_world *a, const struct vfs_world *b)
{
	return a->nthreads <= b->nthreads && a->nprocs <= b->nprocs &&
	       a->nfiles <= b->nfiles && a->nfdt <= b->nfdt &&
	       a->ninodes <= b->ninodes && a->ndlocks <= b->ndlocks &&
	       a->det.npasses <= b->det.npasses &&
	       a->det.ld.nedges <= b->det.ld.nedges;
}

/* ---- copying: what the stateful search needs of a world ----
 * Like vfs_world_copy, less: no vector clocks (the search's copies run
 * with det.no_clocks), no report list (nreports is pinned at the
 * maximum: the detectors still count, which is all this search reads),
 * no pass steps, no call record entries or text (results, not state).
 * The pending calls of the threads in FIXED are not copied: a search only
 * ever takes calls off their queues, so every copy already holds them.
 * The inodes: the table is shared (a reference), their locks copied.
 * D must have been made by vfs_world_copy once (initialised), from a
 * world of the same search: the superblocks, which only the set-up
 * changes (vfs_setup_mount), are S's and not copied.  THREADS:
 * the threads copied, the others being S's already in D (D was copied
 * from S, and steps since touched only THREADS: w->touched); and then
 * (THREADS not all) D's marks, cleared when it was S's, name the files,
 * fd tables, passes, processes and inode locks to copy. */
static inline void fcopy(struct vfs_world *d, const struct vfs_world *s,
			 uint32_t fixed, bool recs, uint32_t threads)
{
	int n = s->nthreads;
	/* the files, fd tables, passes, processes and inode locks copied:
	 * all, or when D was S's when its marks were cleared (THREADS is
	 * not all), those its steps marked (read before the marks are
	 * overwritten); the guard: all, as the threads */
	uint32_t files = UINT32_MAX, fdts = UINT32_MAX;
	uint8_t objs = 0xff;
	bool back = threads != UINT32_MAX && !__builtin_expect(xs_check_touched, 0);
	/* (forward, xs_fcopy_fwd: S may have more threads, files, fd
	 * tables, inodes, processes, passes or lockdep edges than D, which
	 * no mark names; back, it never has) */
	if (back && !no_more(s, d)) {
		back = false;
		threads = UINT32_MAX;
	}
	if (back) {
		files = d->touched_files;
		fdts = d->touched_fdts;
		objs = d->touched_objs;
	}
	/* (the room first, D as it was when there is none) */
	if (!world_tasks_room(d, s)) {
		d->oom = 1;
		return;
	}
	/* (not the statistics: counters no step reads) */
	memcpy(d, s, offsetof(struct vfs_world, stats));
	struct vfs_detect *dd = &d->det;
	const struct vfs_detect *sd = &s->det;
	dd->enabled = sd->enabled;
	dd->no_clocks = sd->no_clocks;
	/* (out of memory: the copy says so and keeps no detector tables;
	 * the room there mostly: no call) */
	bool dok = (sd->nshadows <= dd->shadows_cap &&
		    sd->nlockclocks <= dd->lockclocks_cap &&
		    sd->npasses <= dd->passes_cap) || detect_reserve(dd, sd);
	if (!dok) {
		d->oom = 1;
		dd->nshadows = dd->nlockclocks = 0;
	}
	dd->npasses = dok ? sd->npasses : 0;
	dd->nreports = VFS_MAX_REPORTS;
	memcpy(dd->counts, sd->counts, sizeof dd->counts);
	dd->open_step = sd->open_step;
	dd->open_races = sd->open_races;
	dd->overflowed = sd->overflowed;
	dd->told = sd->told;
	if (sd->overflowed)
		memcpy(dd->overflow_step, sd->overflow_step, sizeof dd->overflow_step);
	if (!sd->no_clocks && dok) {
		memcpy(dd->race_fields, sd->race_fields, sizeof dd->race_fields);
		dd->nshadows = sd->nshadows;
		dd->nlockclocks = sd->nlockclocks;
		for (int i = 0; i < n; i++)
			memcpy(dd->vc[i], sd->vc[i], sizeof dd->vc[i][0] * (size_t)n);
		for (int i = 0; i < sd->nshadows; i++) {
			memcpy(&dd->shadows[i], &sd->shadows[i],
			       offsetof(struct vfs_shadow, r));
			memcpy(dd->shadows[i].r, sd->shadows[i].r,
			       sizeof sd->shadows[i].r[0] * (size_t)n);
		}
		for (int i = 0; i < sd->nlockclocks; i++) {
			memcpy(&dd->lockclocks[i], &sd->lockclocks[i],
			       offsetof(struct vfs_lockclock, w));
			memcpy(dd->lockclocks[i].w, sd->lockclocks[i].w,
			       sizeof sd->lockclocks[i].w[0] * (size_t)n);
			memcpy(dd->lockclocks[i].r, sd->lockclocks[i].r,
			       sizeof sd->lockclocks[i].r[0] * (size_t)n);
		}
	}
	for (int i = 0; i < dd->npasses && (objs & TOUCH_PASSES); i++)
		memcpy(&dd->passes[i], &sd->passes[i],
		       offsetof(struct vfs_pass, by) + (size_t)sd->passes[i].hi);
	memcpy(&dd->ld, &sd->ld, offsetof(struct vfs_lockdep, edges));
	/* (lockdep's graph only grows, edge by edge: when D was S's, its
	 * first S->nedges are S's but for their counts and first links,
	 * which no search reads) */
	if (!back)
		memcpy(dd->ld.edges, sd->ld.edges,
		       sizeof dd->ld.edges[0] * sd->ld.nedges);
	if ((objs & TOUCH_PROCS) && s->nprocs)
		memcpy(d->procs, s->procs, sizeof d->procs[0] * (size_t)s->nprocs);
	/* (a thread's results: any step's; the guard: every thread, for a
	 * search to compare with) */
	if (recs || __builtin_expect(xs_check_touched, 0))
		threads = UINT32_MAX;
	if (n < 32)
		threads &= (1u << n) - 1;
	bool nokfn = !s->kdefs && !d->kdefs;
	for (; threads; threads &= threads - 1) {
		int i = __builtin_ctz(threads);
		struct vfs_thread *dt = &d->threads[i];
		const struct vfs_thread *st = &s->threads[i];
		memcpy(dt, st, offsetof(struct vfs_thread, pending));
		if (!(fixed >> i & 1))
			for (int k = 0; k < st->npending; k++) {
				int j = (st->pend_head + k) % VFS_MAX_PENDING;
				dt->pending[j] = st->pending[j];
			}
		/* (the frame's part of the defined functions, a third of
		 * what is copied here, is zero in every world of a search
		 * without them: no step writes it) */
		if (!nokfn) {
			memcpy(&dt->f, &st->f, offsetof(struct vfs_thread, rec) -
			       offsetof(struct vfs_thread, f));
		} else {
			memcpy(&dt->f, &st->f, offsetof(struct vfs_frame, kfn));
			memcpy(&dt->f + 1, &st->f + 1, offsetof(struct vfs_thread, rec) -
			       offsetof(struct vfs_thread, f) - sizeof st->f);
		}
		/* the call in progress: a copy of a submitted one, never
		 * changed, so its submission number tells it */
		if (dt->rec.call.seq != st->rec.call.seq ||
		    dt->rec.call.sys != st->rec.call.sys)
			dt->rec.call = st->rec.call;
		memcpy(&dt->rec.started, &st->rec.started,
		       offsetof(struct vfs_callrec, text) -
		       offsetof(struct vfs_callrec, started));
		memcpy(&dt->rec.start_step, &st->rec.start_step,
		       sizeof *st - offsetof(struct vfs_thread, rec) -
		       offsetof(struct vfs_callrec, start_step));
		if (recs)       /* opts.outcomes: the results so far */
			memcpy(dt->rec.text, st->rec.text, sizeof st->rec.text);
		/* the entries of the thread's getdents, whatever recs says:
		 * inode_evict_unused keeps their inodes (rec.nent, copied
		 * above, counts them), so stale ones would pin others */
		int32_t ne = st->rec.nent > 0 ? st->rec.nent : 0;
		if (ne && s->rec_ent[i].v && s->rec_ent[i].cap >= ne &&
		    world_grow((void **)&d->rec_ent[i].v, &d->rec_ent[i].cap, ne,
			       sizeof *d->rec_ent[i].v))
			memcpy(d->rec_ent[i].v, s->rec_ent[i].v,
			       sizeof *d->rec_ent[i].v * (size_t)ne);
		else if (ne)
			dt->rec.nent = 0;
	}
	bool ok;
	/* (the inode table is shared, not copied: only the locks are) */
	ok = world_copy_objects_some(d, s, files, fdts, objs & TOUCH_ILOCKS) &&
	     ufield_copy(d, s);
	if (!ok)
		d->oom = 1;
}

void xs_fcopy(struct vfs_world *d, const struct vfs_world *s,
	      uint32_t fixed, bool recs)
{
	fcopy(d, s, fixed, recs, UINT32_MAX);
}

void xs_fcopy_back(struct vfs_world *d, const struct vfs_world *s,
		   uint32_t fixed, bool recs, uint32_t threads)
{
	fcopy(d, s, fixed, recs, threads);
}

uint32_t xs_fcopy_fwd(struct vfs_world *d, const struct vfs_world *s, int t)
{
	xs_marks_set(d, xs_marks(s));
	return s->touched | 1u << t;
}

static inline struct xtouch touch_or(struct xtouch a, struct xtouch b)
{
	return (struct xtouch){ a.threads | b.threads, a.files | b.files,
				a.fdts | b.fdts, (uint8_t)(a.objs | b.objs) };
}

/* (W is S but for what its marks name, and thread T; the spare, near S,
 * is S but for SPARE_DIFF: their union names what the spare lacks; it
 * is then W, near S but for W's marks and T) */
void xs_spare_copy(struct sworker *s, const struct vfs_world *S,
		   const struct vfs_world *W, int t)
{
	struct vfs_world *d = s->spare;
	struct xtouch m = xs_touched(W, t);
	if (s->spare_near == S) {
		struct xtouch u = touch_or(s->spare_diff, m);
		xs_marks_set(d, u);
		xs_fcopy_back(d, W, s->st->fixed, s->st->o.outcomes, u.threads);
	} else {
		xs_fcopy(d, W, s->st->fixed, s->st->o.outcomes);
	}
	s->spare_near = S;
	s->spare_diff = m;
	s->spare_fresh = true;
}

/* (the spare, copied from LAST's block before a step: then LAST but for
 * the block's marks and T, or, the step taken back after the copy, for
 * the step's too, its marks, when it made no object: no_more; not copied
 * in S's expansion but near S: LAST but for its difference from S and
 * the block's marks and T) */
void xs_spare_kept(struct sworker *s, const struct vfs_world *S,
		   const struct vfs_world *last, int t)
{
	const struct vfs_world *p = s->spare;
	struct xtouch m = xs_touched(last, t);
	bool near = false;
	if (s->spare_fresh) {
		near = no_more(p, last);
		m = touch_or(m, xs_marks(p));
	} else if (p && s->spare_near == S) {
		near = no_more(p, last);
		m = touch_or(m, s->spare_diff);
	}
	s->spare_near = near ? last : NULL;
	s->spare_diff = m;
	s->spare_fresh = false;
}

/* (the spare near LAST, S's last successor, but for SPARE_DIFF, which
 * names LAST's block too: S but for SPARE_DIFF, and so W, another
 * successor of S remade by thread T's block, but for that and W's marks
 * and T; lockdep's graph, copied back as far as the source's edges go,
 * no further than S's: the edges past it are each successor's own) */
void xs_spare_remade(struct sworker *s, const struct lvl *L, int i,
		     const struct vfs_world *W)
{
	const struct vfs_world *p = s->spare;
	if (i == L->ilast || !p || !L->last || s->spare_near != L->last ||
	    !no_more(p, W) || p->det.ld.nedges > L->state->det.ld.nedges)
		return;
	s->spare_near = W;
	s->spare_diff = touch_or(s->spare_diff, xs_touched(W, L->tid[i]));
}

/* The reports zeroed: the copies pin nreports at the maximum without
 * copying them, and the race detector (clocks on) still reads them. */
struct vfs_world *xs_wnew(void)
{
	/* (calloc: the heap tables start empty; pages never touched stay
	 * unfaulted) */
	return calloc(1, sizeof(struct vfs_world));
}
