/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_stateful.h - what the files of the stateful search share
 * (`explore stateful`, and plain `explore`'s proof):
 *   explore_state.c          what a state is: its canonical form, its hash
 *   explore_copy.c           the copy of a world a state's successors are
 *                            made in (what a block's steps marked)
 *   explore_obs.c            what one step did (the reduction, races)
 *   explore_visited.c        the visited set (sharded, grown in place)
 *   explore_stateful.c       one worker's search: a state's successors,
 *                            depth first
 *   explore_stateful_viol.c  a violation found: counted, its schedule kept;
 *                            an outcome; the progress
 *   explore_frontier.c       the frontier the workers share out
 *   explore_stateful_run.c   the rounds of the locking guess,
 *                            the shortest search beside it, the result
 *   explore_shortest.c       the shortest counterexample (step by step)
 *   explore_pool.c           the workers' threads and the clocks, shared
 *                            with DPOR (explore.c)
 */
#ifndef VFSIM_EXPLORE_STATEFUL_H
#define VFSIM_EXPLORE_STATEFUL_H

#include "explore_int.h"
#include "explore_visited.h"
#include "internal.h"
#include "grow.h"

#define ABORT_FULL 1
#define ABORT_ERROR 2
#define ABORT_FIRST 3           /* opts.first: a violation was found */
#define ABORT_MAX 4             /* opts.max states were visited */
#define SPLIT_PER_JOB 128        /* frontier states per worker */
#define XACC_FIRST 8            /* checked accesses a block's table holds
				 * at first (it grows: xobs.acc) */

/* ---- the check of the locking guess, inline in the search's sink
 * (explore_movers.c) ---- */

void xm_violated(struct xmovers *m, uint32_t key);
void xm_memo_fill(struct xmovers *m, struct xmemo_e *e, const struct vfs_world *w,
		  const struct vfs_event *ev, uint64_t k0, uint64_t k1, uint64_t k2);

/* What location L of the table (NULL: not in it), written or not, makes
 * of an event of OP's class where that reads nothing of the thread: XM_L
 * or XM_N (visible: a release moves left, a wake-up being an event of
 * its own), XM_B (read-only, read); -1: it depends on the thread (a
 * single thread's, a lock's, or a write of a read-only one). */
static inline int xm_loc_fixed(const struct xmloc *l, int op, bool write)
{
	if (!l || l->cls == XM_VISIBLE)
		return op == OP_RELEASE ? XM_L : XM_N;
	return l->cls == XM_RDONLY && !write ? XM_B : -1;
}

/* Location L of the table, of a class that reads the thread (XM_SINGLE,
 * XM_RDONLY, XM_LOCKED), kept by EV (written: WRITE) as its row says: by
 * its one thread, read only, under its lock (held exclusively for a
 * write). */
static inline bool xm_loc_kept(const struct xmloc *l, const struct vfs_world *w,
			       const struct vfs_event *ev, bool write)
{
	int mode = M_NONE;
	switch (l->cls) {
	case XM_SINGLE:
		return ev->tid == l->tid;
	case XM_RDONLY:
		return !write;
	default:        /* XM_LOCKED */
		return thread_holds(&w->threads[ev->tid], l->lock, &mode) &&
		       (!write || mode != M_READ);
	}
}

/* EV's class from its N locations KEY (written: WRITE) and their rows L
 * of the table (NULL: not in it). */
static inline __attribute__((always_inline)) int
xm_classify(struct xmovers *m, const struct vfs_world *w,
	    const struct vfs_event *ev, int n, const uint32_t key[2],
	    const uint8_t write[2], const struct xmloc *const l[2],
	    int *vis_access)
{
	*vis_access = 0;
	if (n < 0)
		return XM_N;
	int cls = XM_B;
	for (int i = 0; i < n; i++) {
		int c = xm_loc_fixed(l[i], ev->op, write[i]);
		if (c > XM_B) {         /* visible */
			if (c > cls)
				cls = c;
			if (i == 0)
				*vis_access = 1;
			continue;
		}
		if (c == XM_B)
			continue;
		if (!xm_loc_kept(l[i], w, ev, write[i])) {
			xm_violated(m, key[i]);
			cls = XM_N;
			if (i == 0)
				*vis_access = 1;
		}
	}
	return cls;
}

/* EV's slot of memo C and its keys K (xm_memo_entry). */
static inline struct xmemo_e *xm_memo_slot(struct xmemo *c,
					   const struct vfs_event *ev,
					   uint64_t k[3])
{
	/* everything vfs_footprint reads of EV, in three loads: the lock
	 * and the object, the file and the directory, and the bytes from
	 * op to the flags (the thread's masked off, which the class reads
	 * itself, and the step's resume point's, which only names it); and
	 * a read's or write's kind (akind: a +1 and a -1 of one counter by
	 * one function are two entries), put in the thread's byte */
	_Static_assert(offsetof(struct vfs_event, obj) ==
		       offsetof(struct vfs_event, lock) + 4 &&
		       offsetof(struct vfs_event, dir) ==
		       offsetof(struct vfs_event, file) + 4 &&
		       offsetof(struct vfs_event, op) ==
		       offsetof(struct vfs_event, tid) + 1 &&
		       offsetof(struct vfs_event, rp) ==
		       offsetof(struct vfs_event, tid) + 3 &&
		       offsetof(struct vfs_event, tid) + 8 == sizeof *ev,
		       "the memo's loads");
	memcpy(&k[0], &ev->tid, 8);
	memcpy(&k[1], &ev->lock, 8);
	memcpy(&k[2], &ev->file, 8);
	static const uint8_t keep[8] = { 0, 0xff, 0xff, 0, 0xff, 0xff, 0xff, 0xff };
	uint64_t mask;          /* (by bytes: any byte order) */
	memcpy(&mask, keep, 8);
	k[0] &= mask;
	if (ev->op == OP_READ || ev->op == OP_WRITE) {
		static const uint8_t low[8] = { 1, 0, 0, 0, 0, 0, 0, 0 };
		uint64_t one;   /* (the thread's byte, any byte order) */
		memcpy(&one, low, 8);
		k[0] |= one * ev->akind;
	}
	uint64_t h = ((k[0] ^ k[1] * 0x9e3779b97f4a7c15ull ^
		       k[2] * 0xbf58476d1ce4e5b9ull) * 0x94d049bb133111ebull) >> 56;
	return &c->e[h & c->mask];
}

/* Slot E holds the entry of keys K. */
static inline bool xm_memo_hit(const struct xmemo_e *e, const uint64_t k[3])
{
	return e->used && e->k[0] == k[0] && e->k[1] == k[1] && e->k[2] == k[2];
}

/* EV's entry of memo C (filled on a miss): its locations as the
 * discipline and as DPOR see them, their rows of the table. */
static inline struct xmemo_e *xm_memo_entry(struct xmovers *m, struct xmemo *c,
					    const struct vfs_world *w,
					    const struct vfs_event *ev)
{
	uint64_t k[3];
	struct xmemo_e *e = xm_memo_slot(c, ev, k);
	if (!xm_memo_hit(e, k))
		xm_memo_fill(m, e, w, ev, k[0], k[1], k[2]);
	return e;
}

/* EV, of memo entry E whose class reads the thread (fixed < 0), a mover
 * by xm_classify: each location read only and read, or kept as its row
 * says (no violation, no visible access). */
static inline bool xm_memo_mover(const struct xmemo_e *e, const struct vfs_world *w,
				 const struct vfs_event *ev)
{
	for (int i = 0; i < e->n; i++) {
		int c = xm_loc_fixed(e->l[i], ev->op, e->write[i]);
		if (c > XM_B || (c < 0 && !xm_loc_kept(e->l[i], w, ev, e->write[i])))
			return false;
	}
	return e->n >= 0;
}

/* xm_event of EV from its memo entry E. */
static inline int xm_memo_class(struct xmovers *m, const struct xmemo_e *e,
				const struct vfs_world *w,
				const struct vfs_event *ev, int *vis_access)
{
	if (e->fixed >= 0 && e->gen == m->gen) {
		*vis_access = e->fixed_vis;
		return e->fixed;
	}
	return xm_classify(m, w, ev, e->n, e->key, e->write, e->l, vis_access);
}

/* xm_event, its footprint and table rows from C (filled on a miss). */
static inline int xm_event_memo(struct xmovers *m, struct xmemo *c,
				const struct vfs_world *w,
				const struct vfs_event *ev, int *vis_access)
{
	return xm_memo_class(m, xm_memo_entry(m, c, w, ev), w, ev, vis_access);
}

/* ---- what a state is (explore_state.c) ---- */

struct sbuf {
	uint8_t *p;
	size_t n, cap;
};

/* A step of a call whose row says it leaves the tree alone (the inodes'
 * locks apart; core/syscalls.c, VSYS_TREE): its successor keeps its
 * parent's tree_hash. */
static inline bool tree_clean_call(const struct vfs_world *w, int t)
{
	return !(vfs_sys[w->threads[t].rec.call.sys].flags & VSYS_TREE);
}
/* ... and made or freed no inode since STAMP0 (inode_stamp). */
static inline bool tree_clean(const struct vfs_world *w, int t, uint64_t stamp0)
{
	return inode_stamp(w) == stamp0 && tree_clean_call(w, t);
}

/* vfs_runnable, inline: the search asks it after every step. */
static inline bool xs_runnable(const struct vfs_world *w, int t)
{
	const struct vfs_thread *th = &w->threads[t];
	_Static_assert(TS_RUNNING == TS_IDLE + 1, "idle or running");
	return (unsigned)th->state - TS_IDLE < 2 &&
	       (th->f.pc != RP_IDLE || th->npending > 0);
}

/* Races with the snapshot's own accesses (made in the set-up): a shadow
 * of the race detector, a write or a read, that some other thread is not
 * yet ordered after is "open".  A search that makes no access conflicting
 * with an open one runs without clocks; the first that does starts the
 * search again with them (as a wrong guess of the discipline does), and
 * the state then holds, per open access, which threads and lock clocks
 * are ordered after it, and which shadows a write has replaced. */
struct xopen { uint8_t field, write; int8_t tid; int32_t obj; uint32_t clock; int sh; };

struct xacc {
	uint32_t loc;           /* field, object kind, object */
	uint8_t write, nl;
	vfs_lid_t lk[VFS_MAX_HELD];
	uint8_t lm[VFS_MAX_HELD];
};

struct xobs {                   /* what the block being run did */
	struct xfp *fp;                 /* sleep sets: the block's footprint
					 * as DPOR sees it (NULL: off) */
	struct xmovers *xm;
	struct xmemo *memo;             /* the worker's, or NULL */
	const struct xopen *open;       /* without clocks: the open accesses */
	int nopen;
	int *need_hist;
	uint8_t cls;            /* the step just run: XM_B, XM_L, XM_N */
	uint8_t shared;         /* the block has a visible step */
	uint8_t over;           /* the table could not grow: out of memory
				 * (the search fails; no race is skipped) */
	uint32_t nacc;
	/* fp's key of each bit (xfp_bitno): the last added with it, a hint
	 * (xfp_add_entry checks it: fp may have been put back as it was) */
	uint8_t fppos[64];
	/* the last entry handed out (OP_EMIT): its event's number, step,
	 * file and directory (0: none yet in this block) */
	uint64_t emit_seq;
	int32_t emit_step, emit_file, emit_dir;
	size_t cap;             /* acc: the block's checked accesses, all of
				 * them (grown, kept from block to block) */
	struct xacc *acc;
};

size_t xs_canon_bound(const struct vfs_world *w, bool data);
int xs_buf_grow(struct sbuf *b, uint64_t *kept, const struct vfs_world *w,
		bool data, const uint64_t *key);
/* The room for W's canonical state in B (xs_buf_grow): without the
 * files' data the bound is of the tables' sizes only, and when they are
 * KEPT, those last reserved (most successors'), the room is made (the
 * key's top bit: made once). */
static inline int xs_buf_reserve(struct sbuf *b, uint64_t *kept,
				 const struct vfs_world *w, bool data)
{
	uint64_t key[3] = {
		(uint32_t)w->nfiles | (uint64_t)(uint32_t)w->ninodes << 32,
		(uint32_t)w->nfdt | (uint64_t)(uint32_t)w->det.nshadows << 32,
		(uint16_t)w->nprocs | (uint32_t)(uint16_t)w->nthreads << 16 |
		(uint64_t)(uint32_t)ufields_n(w) << 32 | UINT64_C(1) << 63 };
	if (!data && !((key[0] ^ kept[0]) | (key[1] ^ kept[1]) |
		       (key[2] ^ kept[2])))
		return 0;
	return xs_buf_grow(b, kept, w, data, key);
}
uint64_t xs_tree_hash(struct sbuf *b, const struct vfs_world *w);
/* The snapshot's open accesses, all of them, in *O (malloc'd; NULL when
 * none): how many, or -1 when out of memory. */
int xs_open_accesses(const struct vfs_world *snap, struct xopen **o);
uint64_t xs_hash_buf(const uint8_t *p, size_t n);
uint64_t xs_hash_seed(const uint8_t *p, size_t n, uint64_t seed);

/* A state's hash by components (explore_state.c): the hash of each, in
 * the order of xs_state_hash. */
struct xhash {
	uint64_t *h;
	int n, cap;
};
struct xst;
/* Room in X for N components (-1: out of memory). */
int xs_hash_grow(struct xhash *x, int n);
/* (the components before the threads': explore_state.c's XC_THREADS) */
enum { XS_NGLOBAL = 6 };
/* Room in X for W's components (-1: out of memory); inline: a hash per
 * successor. */
static inline int xs_hash_reserve(struct xhash *x, const struct vfs_world *w)
{
	int n = XS_NGLOBAL + w->nthreads + w->nfiles + w->nfdt + w->det.npasses;
	if (n > x->cap && xs_hash_grow(x, n) < 0)
		return -1;
	x->n = n;
	return 0;
}
/* What steps may have changed of a world since its touch marks were
 * cleared: the threads (w->touched, and the one that ran), the files and
 * fd tables by slot (w->touched_files, w->touched_fdts: bit 31 for every
 * slot from 31 on) and the processes, inode locks and passes (TOUCH_*,
 * w->touched_objs).  XTOUCH_ALL: anything. */
struct xtouch {
	uint32_t threads, files, fdts;
	uint8_t objs;
};
#define XTOUCH_ALL ((struct xtouch){ UINT32_MAX, UINT32_MAX, UINT32_MAX, 0xff })
/* W's hash, its components' in X (reserved for W); TREE: its tree_hash;
 * HIST: the search whose open accesses W's history holds, or NULL.  PW:
 * a world whose component hashes PX are (W's parent), or NULL: the
 * components whose bytes are PW's are not hashed again; TOUCHED: what may
 * differ from PW (xs_touched): a thread, a file, an fd table outside it
 * takes PW's hash without comparing, and so do the processes, the inode
 * locks and the passes; those inside are compared, and hashed again when
 * they differ (threads: hashed again without comparing). */
uint64_t xs_state_hash(struct sbuf *b, struct xhash *x,
		       const struct vfs_world *w, uint64_t tree, uint32_t fixed,
		       const struct xst *hist, const struct vfs_world *pw,
		       const struct xhash *px, struct xtouch touched);
/* What the steps since W's touch marks were cleared touched, thread T's
 * having run (xs_state_hash's TOUCHED); the marks cleared. */
static inline struct xtouch xs_marks(const struct vfs_world *w)
{
	return (struct xtouch){ w->touched, w->touched_files, w->touched_fdts,
				w->touched_objs };
}
static inline void xs_marks_set(struct vfs_world *w, struct xtouch m)
{
	w->touched = m.threads;
	w->touched_files = m.files;
	w->touched_fdts = m.fdts;
	w->touched_objs = m.objs;
}
static inline struct xtouch xs_touched(const struct vfs_world *w, int t)
{
	struct xtouch m = xs_marks(w);
	m.threads |= 1u << t;
	return m;
}
static inline void xs_touch_clear(struct vfs_world *w)
{
	xs_marks_set(w, (struct xtouch){ 0, 0, 0, 0 });
}
/* (the guard of TOUCHED: when set, every thread, file, fd table taken as
 * its parent's is compared with it, and so are the processes, the inode
 * locks and the passes when taken as the parent's, and each that differs
 * is counted in the misses; and xs_fcopy_back copies everything) */
extern bool xs_check_touched;
extern unsigned long xs_touched_misses;
void xs_obs_sink(void *ctx, const struct vfs_world *w,
		 const struct vfs_event *ev);
/* An event xs_obs_sink leaves out: a plain frame (a function's exit or
 * entry: no location), or one a later event of its step covers (the same
 * location, touched as strongly, with the same locks, for the search's
 * checks and the sleep sets' footprint alike: a filesystem's
 * iterator's entry, whose dead-directory check reads the directory the
 * iterator reads next, and its read of the file's cursor, which it writes
 * back in the end; core/readdir.c's dir_iterate, the one step that makes
 * an iterator's events; tests/unit/test_world.c checks the cover). */
static inline bool xs_obs_covered(const struct vfs_event *ev)
{
	return ev->op == OP_ENTER || ev->op == OP_EXIT ||
	       (ev->op == OP_READ && ev->field == FLD_CURSOR &&
		fn_is_iterator(ev->fn));
}
bool xs_steps_race(const struct xobs *x, const struct xobs *y);
void xs_fcopy(struct vfs_world *d, const struct vfs_world *s,
	      uint32_t fixed, bool recs);
/* D, a copy of S that steps have changed since, made S's again: of the
 * threads only THREADS copied (those the steps ran or touched), the
 * others are S's already; and when THREADS is not UINT32_MAX (D's marks
 * were cleared when it was S's), of the files, fd tables, passes,
 * processes and inode locks only those D's touch marks name. */
void xs_fcopy_back(struct vfs_world *d, const struct vfs_world *s,
		   uint32_t fixed, bool recs, uint32_t threads);
/* D, a world holding the parent of S (S its successor by thread T's
 * block, S's marks that block's), made ready to be made S by
 * xs_fcopy_back: S's marks put in D; the threads to copy (a copy
 * forward, from parent to child: xs_fcopy_back then copies all when S
 * has more of anything than D). */
uint32_t xs_fcopy_fwd(struct vfs_world *d, const struct vfs_world *s, int t);
struct sworker;
/* The spare made W, a successor being made of S by thread T: only what
 * differs when the spare is near S (xs_fcopy_back), else all. */
void xs_spare_copy(struct sworker *s, const struct vfs_world *S,
		   const struct vfs_world *W, int t);
/* LAST kept as a state (the successor of S by thread T's block): the
 * spare, copied in that block before its last steps, or near S and not
 * copied since, is near it. */
void xs_spare_kept(struct sworker *s, const struct vfs_world *S,
		   const struct vfs_world *last, int t);
/* W remade as successor I of level L's state (xs_regen_next): the spare,
 * near L's last successor (not I), is near W. */
struct lvl;
void xs_spare_remade(struct sworker *s, const struct lvl *L, int i,
		     const struct vfs_world *W);
struct vfs_world *xs_wnew(void);

/* The violations a step shows: the detectors' counts that grew from A
 * to B. */
static inline uint32_t counts_kinds(const struct vfs_world *a,
				    const struct vfs_world *b)
{
	uint32_t k = 0;
	if (b->det.counts[DK_DUPLICATE] != a->det.counts[DK_DUPLICATE])
		k |= DK_BIT(DK_DUPLICATE);
	if (b->det.counts[DK_DEADDIR] != a->det.counts[DK_DEADDIR])
		k |= DK_BIT(DK_DEADDIR);
	if (b->det.counts[DK_SKIPPED] != a->det.counts[DK_SKIPPED])
		k |= DK_BIT(DK_SKIPPED);
	if (b->det.counts[DK_LOCKORDER] != a->det.counts[DK_LOCKORDER])
		k |= DK_BIT(DK_LOCKORDER);
	if (b->det.counts[DK_RULE] != a->det.counts[DK_RULE])
		k |= DK_BIT(DK_RULE);
	/* (only counted with the clocks on: races with the snapshot's
	 * accesses, a property of the state (its history: explore_state.c,
	 * xs_canon_history); a race of two steps of the search, which the
	 * clocks see on some paths to a state and not on others, is found
	 * by comparing the enabled steps, xs_expand) */
	if (!b->det.no_clocks && b->det.open_races != a->det.open_races)
		k |= DK_BIT(DK_RACE);
	if (b->det.overflowed != a->det.overflowed)
		k |= DK_BIT(DK_OVERFLOW);
	return k;
}

/* ---- the search (explore_stateful.c) ---- */

/* What a block may change of a state that no location of its footprint
 * names, in bytes that depend on the order of the blocks: lockdep's
 * graph and reports, the duplicate detector's passes, a detector's table
 * that filled (allocations and the tree are watched apart). */
struct xorder {
	uint8_t nedges, nseen, ndead, ldover, npasses;
	uint32_t overflowed;
};
static inline struct xorder xorder_of(const struct vfs_world *w)
{
	const struct vfs_lockdep *ld = &w->det.ld;
	return (struct xorder){ ld->nedges, ld->nseen, ld->ndead, ld->overflow,
				w->det.npasses, w->det.overflowed };
}
static inline bool xorder_same(const struct xorder *a, const struct vfs_world *w)
{
	struct xorder b = xorder_of(w);
	return a->nedges == b.nedges && a->nseen == b.nseen && a->ndead == b.ndead &&
	       a->ldover == b.ldover && a->npasses == b.npasses &&
	       a->overflowed == b.overflowed;
}

#define MAXBLOCK 255            /* steps in one transition at most */

struct lvl {
	struct vfs_world *state;        /* this level's state */
	uint64_t hash;
	int plen;                       /* steps from the snapshot to it */
	int n, next;                    /* successors made, next to visit */
	uint8_t tid[XMAXT];             /* successor i: thread, */
	uint8_t nst[XMAXT];             /* steps in the transition, */
	uint8_t ncut[XMAXT];            /* steps up to its visible one, */
	uint8_t kinds[XMAXT];           /* DK_BIT of the transition, */
	uint64_t h[XMAXT], tr[XMAXT];   /* hash and tree_hash of the state */
	uint64_t tree;                  /* tree_hash of this level's state */
	uint64_t acc;                   /* opts.outcomes: the calls' results */
	uint64_t sacc[XMAXT];           /* ... of successor i */
	/* the successors are hashed when made and not kept, but for the
	 * last one (the search mostly finds the others seen: the first new
	 * state below a state is mostly its last successor); another is made
	 * again (its block run again) when the search goes down to it */
	struct vfs_world *buf;          /* this level's state when remade */
	struct vfs_world *last;         /* successor n - 1 */
	struct xhash hx;                /* this level's state's components */
	struct xhash hxlast;            /* ... and successor n - 1's */
	/* sleep sets (explore_sleep.c) */
	uint32_t slp;                   /* threads asleep at this state */
	/* the state's first visit (its violations, races, deadlock and
	 * count shown); else expanded again by a search of a lesser rank
	 * (st->ranked), which shows nothing */
	bool first;
	bool ample;                     /* one local block taken alone */
	int ilast;                      /* the successor kept in last */
	uint8_t asleep[XMAXT];          /* successor i: a sleeping thread's
					 * block, not run (what it does is at
					 * its run: sref) */
	int32_t sref_d[XMAXT];          /* thread u asleep: the level and */
	uint8_t sref_i[XMAXT];          /* successor its block was run at */
	struct xfp fp[XMAXT];           /* successor i's footprint */
	uint8_t cup[XMAXT];             /* ... no f_count it wrote lower
					 * after its block (xs_commute) */
	struct xobs obs[XMAXT];         /* what successor i's block did */
};

struct xst;

struct sworker {
	struct xst *st;
	int id;
	struct lvl *lv;
	int caplv;
	uint8_t *path;                  /* thread per step from the snapshot */
	int cappath;
	struct sbuf buf;
	uint64_t bufkey[3];             /* the sizes BUF has room for */
	struct xhash hxw;               /* the work buffer's components */
	struct xmemo *memo;             /* what events are to the discipline */
	/* counters */
	uint64_t states, transitions, matched, probes, local, violating;
	uint64_t retaken;               /* (st->ranked) states expanded again */
	uint32_t rank;                  /* (st->ranked) its frontier item's */
	uint64_t kind_n[DK__COUNT];
	uint32_t kinds;
	uint32_t overflowed;    /* limits whose tables filled (1u << VL_*) */
	int maxdepth;
	uint8_t cut;
	int failed;
	/* the best counterexample: shortest prefix, then lowest schedule */
	uint8_t *cex;
	int cexlen, cexpre;
	uint32_t cexkinds;
	uint8_t *kcex[DK__COUNT];       /* the first of each kind */
	int kcexlen[DK__COUNT];
	struct vfs_world *scratch;
	struct vfs_world *work;         /* where successors are made */
	/* the work buffer holds the parent of the state expanded next
	 * (dfs): the threads that may differ (xs_fcopy_fwd); else
	 * UINT32_MAX (WNEAR false) */
	bool wnear;
	uint32_t wdiff;
	struct vfs_world *spare;        /* the copy before a maybe-visible step */
	int cutd;                       /* (xs_top) the depth whose new states
					 * are made frontier items, not searched */
	struct vfs_world *itemw;        /* a frontier item's state, made again */
	/* the spare holds SPARE_NEAR's state (a world of the search) or
	 * one of its ancestors on the path to it, but for the parts
	 * SPARE_DIFF names (xs_spare_copy, xs_spare_kept); NULL: unknown */
	const struct vfs_world *spare_near;
	struct xtouch spare_diff;
	bool spare_fresh;               /* copied since the last kept */
	uint8_t nsite[RP__COUNT];       /* resume points seen visible after a block's */
	uint64_t told_states, told_viol;        /* already in the progress */
	double cpu;                     /* seconds of its thread in worker_main */
} __attribute__((aligned(64)));      /* (a worker's own lines: xstate_run) */

/* A thread asleep at a frontier state: its block as run where it fell
 * asleep (a level of the search that made the frontier, gone since) */
struct xsleeper {
	struct xfp fp;
	uint8_t cup, nst, ncut, kinds;
	uint32_t nacc;
	struct xacc *acc;               /* (malloc'd) */
};

struct xitem_s {                        /* a frontier state */
	struct vfs_world *w;
	uint64_t hash, tree, acc;
	int depth;                      /* transitions from the snapshot */
	int plen;                       /* steps from the snapshot */
	uint8_t *path;
	uint32_t slp;                   /* threads asleep at it (made by a
					 * search with sleep sets: xs_top) */
	struct xsleeper *zz;            /* ... one each, in thread order */
	int switches;                   /* its path's passes from one thread
					 * to another (xs_take_item) */
};

/* The counts of switches xs_take_item tells apart: an item with more
 * is taken with those of XS_SWITCHES - 1 (the order only: every item
 * is searched whatever its place) */
#define XS_SWITCHES 16

struct xst {
	const struct vfs_world *snap;
	struct vfs_explore_opts o;
	uint32_t viol;
	int maxdepth;
	struct xmovers xm;
	int jobs;
	uint32_t fixed;                 /* threads whose pending calls are fixed */
	bool hist;                      /* clocks on: open accesses matter */
	bool sleep;                     /* sleep sets on */
	bool ranked;                    /* ... with several workers: the
					 * visited table keeps ranks */
	bool fcount;                    /* ... f_count's tests threshold tests */
	int need_hist;                  /* atomic: an access conflicts with one */
	struct xopen *open;             /* every one: xs_open_accesses */
	int nopen;
	uint64_t live_states, live_viol;        /* atomic: progress, and the
						 * pace of the search beside */
	double t0, last_report;
	int bits, maxbits;              /* the visited table: 2^bits slots at
					 * first, 2^maxbits at most */
	struct vtable vt;
	struct xitem_s *items;
	int nitems;
	size_t capitems;                /* (grow_array's) */
	int ntaken;                     /* the items taken so far */
	/* (xs_take_item) for each count of switches, the least index an
	 * item with that count not yet taken may have */
	int swnext[XS_SWITCHES];
	/* the items taken and made under IMU: the workers may start while
	 * the frontier is still being made (top_sleep's last try, once it
	 * has EARLY items: MAKING, and STARTED workers in TH) */
	pthread_mutex_t imu;
	pthread_cond_t icv;             /* an item more, or no more */
	bool making;
	int early;                      /* 0: the workers start after it */
	int started;
	int early_items;                /* taken while MAKING */
	struct sworker *ws;
	pthread_t th[MAX_WORKERS];
	int abort;                      /* ABORT_FULL (the table), ABORT_ERROR;
					 * atomic: every worker reads it */
	int probe_found;                /* atomic: the shortest search found one */
	uint64_t visited;               /* atomic: states, for opts.max */
	uint64_t tries_states, tries_tr;        /* (top_sleep) the frontier's
						 * tries discarded: charged */
	/* opts.max: one budget the parts share (explore_probe.c,
	 * xs_spend): CAPPED when given, LEFT the units the parts still to
	 * run may use */
	bool capped;
	uint64_t left;
	/* opts.outcomes: the distinct outcomes, one schedule each */
	pthread_mutex_t omu;
	struct xset out;
	uint8_t **osched;
	int *olen;
	int nosched, caposched;
};

void xs_canon_history(struct sbuf *b, const struct vfs_world *w,
		      const struct xst *st);
int xs_stopped(struct sworker *s);
int xs_lv_grow(struct sworker *s, int d);
int xs_path_grow(struct sworker *s, int need);
void xs_violation(struct sworker *s, int plen, const uint8_t *extra, int nx,
		  uint32_t kinds);
int xs_outcome(struct sworker *s, uint64_t h, int plen);
void xs_report(struct sworker *s);
/* The other workers started on the items so far (top_sleep's last try,
 * explore_stateful_run.c) */
void xs_start_early(struct xst *st);
/* (tests) the frontier, having started the workers, waits until one has
 * taken an item: the early start seen whatever the timing */
extern bool xs_early_wait;
struct vfs_world *xs_regen_next(struct sworker *s, int d, int i);
int xs_expand(struct sworker *s, int d);
/* A race of two of level L's enabled blocks, those of the successors
 * ACCM has (explore_obs.c): the first pair's reported, one per state. */
void xs_race_check(struct sworker *s, const struct lvl *L, uint32_t accm);
int xs_level_hash(struct sworker *s, int d, bool parent, int ran);
int xs_path_push(struct sworker *s, const struct lvl *L, int i);
bool xs_count_state(struct sworker *s, uint64_t h);
/* (tests: called with each state's hash as it is counted, with one
 * worker only; with 0 when the search starts again, its states so far
 * not counted) */
extern void (*xs_state_hook)(uint64_t h);
uint8_t xs_abort_cut(int abort);
/* ---- sleep sets (explore_sleep.c) ---- */
/* The threshold of f_count's tests, the count a file must have where a
 * block that tests it and one that raises it are taken to commute
 * (xkey_commute; explore_stateful.c, "Access kinds"): VFS_COUNT_TEST_MIN,
 * tests lower it to see the rule made too strong fail. */
extern int xs_fcount_min;
bool xs_fcount_rule(const struct vfs_world *w);
bool xs_count_up(const struct xfp *fp, const struct vfs_world *S,
		 const struct vfs_world *W);
void xs_sleep_child(struct sworker *s, int d, int i);
void xs_worker_free(struct sworker *s);
void xs_worker_restart(struct sworker *s);
void *xs_worker_main(void *arg);
/* ---- the frontier (explore_frontier.c) ---- */
/* W (hash H, ...) as the last frontier item (W NULL: its state made
 * again from its path when searched); -1: out of memory. */
int xs_add_item(struct xst *st, const struct vfs_world *w, uint64_t h,
		uint64_t tree, uint64_t acc, const uint8_t *path, int plen,
		int depth);
void xs_free_items(struct xst *st, int from, int to);
/* The index of the next item a worker searches, -1 when every item is
 * taken (under st->imu) */
int xs_take_item(struct xst *st);
/* W, a copy of the snapshot, made the searches' (the clocks off unless
 * the history counts). */
void xs_item_world(const struct xst *st, struct vfs_world *w);
/* xs_top's items (explore_frontier.c): level D's successor I (level D + 1
 * made) made one (NP: its path's steps); an item's state, made again;
 * the threads asleep at it put back, at level BASE - 1 of the search
 * that starts at it (level BASE). */
int xs_make_item(struct sworker *s, int d, int i, int np);
struct vfs_world *xs_item_state(struct sworker *s, const struct xitem_s *it);
int xs_item_sleepers(struct sworker *s, const struct xitem_s *it, int base);
/* The snapshot, the one item, put in the visited set by worker S. */
int xs_root_item(struct xst *st, struct sworker *s);
/* The frontier breadth first, without sleep sets: SPLIT_PER_JOB items a
 * worker (one worker: the snapshot alone). */
int xs_top_bfs(struct xst *st, struct sworker *s);
/* The frontier of several workers with sleep sets: the search of one
 * worker, depth first from the snapshot, its new states at depth CUTD
 * made items (in the order of the paths, their ranks), with their sleep
 * sets; 0, or -1 (out of memory). */
int xs_top(struct sworker *s, const struct xitem_s *root, int cutd);

/* ---- a successor taken ---- */
enum { XR_ERROR = -1, XR_SEEN, XR_NEW, XR_CUT };  /* xs_reach's */
/* Level L's successor I, reached: its path pushed (*NP steps), the
 * violation its block made reported (on L's first visit), its state put
 * in the visited set (st->ranked: *TAKE as vt_insert_own's).
 * The one way both the frontier (explore_stateful_run.c, top) and the
 * depth-first search (explore_stateful.c, dfs) take a successor; inline:
 * dfs takes one per transition. */
static inline int xs_reach(struct sworker *s, const struct lvl *L, int i,
			   int *np, bool *take)
{
	if ((*np = xs_path_push(s, L, i)) < 0)
		return XR_ERROR;
	if (L->kinds[i] && L->first)
		xs_violation(s, *np, NULL, 0, L->kinds[i]);
	uint64_t h = L->h[i];
	int r = s->st->ranked ?
		vt_insert_own(&s->st->vt, h, s->id, s->rank, take) :
		vt_insert(&s->st->vt, h, s->id);
	if (r == -2)
		return XR_ERROR;
	if (r < 0) {
		__atomic_store_n(&s->st->abort, ABORT_FULL, __ATOMIC_RELAXED);
		s->cut = XCUT_TABLE;
		return XR_CUT;
	}
	if (!r) {
		s->matched++;
		return XR_SEEN;
	}
	return XR_NEW;          /* (counted once expanded: xs_count_node) */
}

/* Level L's state, just expanded: counted on its first visit, unless its expansion
 * is one local block taken alone (a pre-local state: a step inside an
 * edge of the merged graph, not one of its nodes; explore_stateful.c,
 * "Reduction"); false (and S->cut set) past opts.max. */
static inline bool xs_count_node(struct sworker *s, const struct lvl *L)
{
	if (L->ample || !L->first || xs_count_state(s, L->hash))
		return true;
	s->cut = XCUT_MAX;
	return false;
}

#endif
