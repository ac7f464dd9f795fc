/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_int.h - what explore.c (the coordinator: splitting, workers,
 * merging, the schedule table) and explore_search.c (one subtree's depth
 * first search) share, and what DPOR and the stateful search
 * (explore_stateful.h) share: the worker pool (explore_pool.c).
 */
#ifndef VFSIM_EXPLORE_INT_H
#define VFSIM_EXPLORE_INT_H

/* vfsim.h first: <sched.h> (from <pthread.h>) defines SCHED_RR and
 * SCHED_FIFO as macros, which vfsim.h uses as enum names */
#include "explore.h"
#include "world_layout.h"
#include <pthread.h>
#include <string.h>

#define XMAXT VFS_MAX_THREADS
#define MAX_WORKERS 64          /* threads of one search at most */
#define XFP 20                  /* keys one step may touch, then "all" */
#define XW 0x80000000u          /* key bit: a write (of any kind) */
/* Key bits: the kinds of the accesses a footprint made of one location
 * (enum vfs_akind; xkey_commute).  A key has XW or a read bit or both. */
#define XPR  0x40000000u        /* a plain read */
#define XPW  0x20000000u        /* a plain write */
#define XDEC 0x10000000u        /* a counter's -1 (XW too) */
#define XTST 0x08000000u        /* a threshold test */
#define XKIND (XW | XPR | XPW | XDEC | XTST)
/* (a key's location: the key without its kind bits) */
#define XKEY(k) ((k) & ~XKIND)

/* What one step touched: keys with kind bits.  all: conflicts with all.
 * in, wr: a bit per key (xfp_bit) touched, written: two footprints with
 * no bit of one's writes among the other's keys share no written key,
 * and commute without comparing them; a key absent from IN is added
 * without looking for it (bits only ever set, but by xfp_clear: a
 * superset of the keys', and a world copied whole keeps them right). */
struct xfp {
	uint8_t n, all;
	uint32_t key[XFP];
	uint64_t in, wr;
};
static inline void xfp_clear(struct xfp *f)
{
	f->n = f->all = 0;
	f->in = f->wr = 0;
}
/* (the lock's kind in bits 20-23, its index below: indexes are slots of
 * the world's tables, far below 2^20) */
#define KLOCK(l)      ((1u << 24) | ((uint32_t)VFS_LID_KIND(l) << 20) | \
		       ((uint32_t)VFS_LID_IDX(l) & 0xfffff))
#define KFLD(f, k, o) ((2u << 24) | ((uint32_t)(f) << 20) | \
		       ((uint32_t)(k) << 17) | ((uint32_t)(o) & 0x1ffff))
#define KPASS(f)      ((3u << 24) | (uint32_t)(f))
#define KALLOC(a)     ((4u << 24) | (uint32_t)(a))
/* File F's f_count, the model's one counter (F in its low bits). */
#define KFCOUNT(f)    KFLD(FLD_F_COUNT, VOK_FILE, f)
#define KFCOUNT_FILE  0x1ffffu
/* Two locations in one key only make two accesses dependent (sound), but
 * a counter's key names the one file whose count xkey_value reads: no
 * two files may share it (fs.file-max is below 2^17). */
_Static_assert(VFS_FILE_MAX <= KFCOUNT_FILE + 1, "a file's f_count key is its own");
_Static_assert(FLD__COUNT <= 16 && VOK_PROC < 8, "KFLD's field and object kind bits");

/* Location KEY's bit (a location's: without its kind bits), and its
 * number: every file's f_count has the last (a footprint whose wr lacks
 * it wrote no count: xs_count_up), the others one of the rest. */
#define XFP_FCOUNT_BIT (UINT64_C(1) << 63)
static inline unsigned xfp_bitno(uint32_t key)
{
	unsigned b = (key * 0x9e3779b9u) >> 26;
	if ((key & ~KFCOUNT_FILE) == KFCOUNT(0))
		return 63;
	return b == 63 ? 62 : b;
}
static inline uint64_t xfp_bit(uint32_t key)
{
	return UINT64_C(1) << xfp_bitno(key);
}

/* The kind bits of an access: WRITE or not, of kind AKIND. */
static inline uint32_t xkind_bits(bool write, int akind)
{
	if (write)
		return XW | (akind == VAK_INC ? 0 : akind == VAK_DEC ? XDEC : XPW);
	return akind == VAK_TEST ? XTST : XPR;
}

/* KIND (kind bits) added to location KEY's in F. */
static inline void xfp_add(struct xfp *f, uint32_t key, uint32_t kind)
{
	if (f->all)
		return;
	uint64_t bit = xfp_bit(key);
	uint64_t wbit = kind & XW ? bit : 0;
	if (f->in & bit)
		for (int i = 0; i < f->n; i++)
			if (XKEY(f->key[i]) == key) {
				f->key[i] |= kind;
				f->wr |= wbit;
				return;
			}
	if (f->n == XFP) {
		f->all = 1;
		return;
	}
	f->in |= bit;
	f->wr |= wbit;
	f->key[f->n++] = key | kind;
}

/*
 * The dependence of two blocks' accesses of one location, by kind: KA and
 * KB (keys of one location, from footprints of blocks of two threads, at
 * least one with XW) commute.  AUP, BUP: the block leaves every counter it
 * wrote no lower; V: the counter's value at the node both are run at, or
 * -1 (not a counter, or no node: DPOR); K: the threshold its tests test
 * (VFS_COUNT_TEST_MIN; 0: take tests as plain reads).  The rules, with
 * their proof in core/explore_stateful.c "Access kinds":
 *  - a plain write conflicts with every access;
 *  - two blocks that change the counter by +1s only commute, anywhere;
 *    when either also tests it, where V >= K (the values both see are V
 *    or more in either order);
 *  - a block that only tests it commutes with one that changes it by
 *    +1s and -1s leaving it no lower, where V >= K;
 *  - any other pair (a plain read and a change, a -1 and a change) is
 *    dependent: a -1 reads its result (fput frees at 0).
 */
static inline bool xkey_commute(uint32_t ka, uint32_t kb, bool aup, bool bup,
				int64_t v, int k)
{
	uint32_t any = ka | kb;
	if (any & XPW)
		return false;
	bool tests_hold = k > 0 && v >= k;
	if ((ka & kb & XW)) {           /* two changers */
		if (any & (XDEC | XPR))
			return false;
		return !(any & XTST) || tests_hold;
	}
	/* a changer W and a reader R */
	uint32_t r = ka & XW ? kb : ka;
	bool wup = ka & XW ? aup : bup;
	return !(r & XPR) && wup && tests_hold;
}

/* The value of KEY's location at node X, if it is a counter: else -1. */
static inline int64_t xkey_value(const struct vfs_world *X, uint32_t key)
{
	if (!X || (XKEY(key) & ~KFCOUNT_FILE) != KFCOUNT(0))
		return -1;
	int f = (int)(key & KFCOUNT_FILE);
	return f < X->nfiles ? X->files[f].f_count : -1;
}

/* Two blocks A (AUP: no counter it wrote lower after it) and B (BUP) of
 * two threads commute at node X (NULL: anywhere, DPOR's question): at
 * each location both touch, one writing, xkey_commute says so (K: as
 * there).  The one dependence function of DPOR and the sleep sets. */
static inline bool xfp_commute_keys(const struct xfp *a, bool aup,
				    const struct xfp *b, bool bup,
				    const struct vfs_world *X, int k)
{
	if (a->all || b->all)
		return false;
	for (int i = 0; i < a->n; i++)
		for (int j = 0; j < b->n; j++) {
			uint32_t ka = a->key[i], kb = b->key[j];
			if (!(XKEY(ka ^ kb)) && ((ka | kb) & XW) &&
			    !xkey_commute(ka, kb, aup, bup, xkey_value(X, ka), k))
				return false;
		}
	return true;
}
/* ... by the keys' bits first: most pairs of blocks that commute share no
 * written location's bit (tests/unit/test_dependence.c checks the two
 * agree). */
static inline bool xfp_commute(const struct xfp *a, bool aup,
			       const struct xfp *b, bool bup,
			       const struct vfs_world *X, int k)
{
	if (!((a->in & b->wr) | (a->wr & b->in)) && !a->all && !b->all)
		return true;
	return xfp_commute_keys(a, aup, b, bup, X, k);
}

/* Two steps commute anywhere (DPOR's sleep sets: no node, no threshold). */
static inline bool xfp_indep(const struct xfp *a, const struct xfp *b)
{
	return xfp_commute(a, false, b, false, NULL, 0);
}
/* EV's locations as DPOR treats them (core/footprint.c): their keys in
 * KEY (XW: written), how many, or -1: all (core/explore_search.c; the
 * stateful search keeps them in its memo, xmemo_e.fpk). */
int xfp_keys(const struct vfs_event *ev, uint32_t key[VFS_FOOTPRINT_MAX]);
/* N keys of xfp_keys (-1: all) added to F. */
static inline void xfp_add_keys(struct xfp *f, int n, const uint32_t *key)
{
	if (n < 0)
		f->all = 1;
	for (int i = 0; i < n; i++)
		xfp_add(f, XKEY(key[i]), key[i] & XKIND);
}
/* EV's locations as DPOR treats them, added to F (core/explore_search.c;
 * the stateful search's sleep sets too). */
void xfp_event(struct xfp *f, const struct vfs_event *ev);

/* ---- small containers ---- */
struct xset {                   /* a set of nonzero 64-bit hashes */
	uint64_t *v;
	size_t cap, n;
};
int xset_add(struct xset *s, uint64_t h);      /* 1 new, 0 had, -1 ENOMEM */
void xset_free(struct xset *s);

struct xrec {
	uint64_t hash; uint16_t pre; uint8_t kinds;
	uint32_t overflowed;    /* the limits that filled (DK_OVERFLOW) */
};

struct xsched {                 /* kept schedules, in execution order */
	uint64_t k;             /* execution number (local or global) */
	uint32_t off;
	uint32_t len;
	uint8_t kinds;
};
struct xtable {
	struct xsched *e;
	size_t n, cap;
	uint8_t *bytes;
	size_t nbytes, capbytes;
};
int xtable_add(struct xtable *t, uint64_t k, uint8_t kinds, const uint8_t *s,
	       uint32_t len);
void xtable_free(struct xtable *t);

/* ---- one piece of the split search ---- */
struct xitem {
	int plen;
	uint8_t *prefix;        /* the schedule to the subtree's root */
	uint32_t slp;           /* sleep set at the root */
	struct xfp *slpfp;      /* XMAXT entries, for the threads in slp */

	/* results, local numbering from 1 */
	uint64_t execs, redundant, steps, violating;
	uint64_t kind_execs[DK__COUNT];
	uint32_t overflowed;    /* limits whose tables filled (1u << VL_*) */
	int maxpre;
	uint8_t cut;            /* enum vfs_xcut */
	struct xset out;
	struct xrec *recs;      /* per execution, only with a cap (opts.max) */
	size_t nrecs, caprecs;
	struct xtable cands;    /* violating, each with fewer preemptions */
	struct xtable kept;     /* the first executions' and violating ones' */
	uint64_t kept_viol;
	bool keep_first, keep_viol;
	uint64_t budget;        /* executions + redundant allowed (max) */
	uint64_t step_budget;   /* steps allowed (max_steps) */
	int failed;             /* ENOMEM */
	int done;
};

struct xshared {
	const struct vfs_world *snap;
	struct vfs_explore_opts o;
	uint32_t viol;
	int keep;
	int maxdepth;
	/* the split */
	int split_depth;
	uint8_t top_cut;         /* the top was cut (bound) */
	struct xitem *items;
	int nitems;
	size_t capitems;        /* (grow_array's) */
	/* work distribution and the in-order prefix of finished items */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int next_item;
	int merged_upto;        /* items 0..merged_upto-1 are done */
	uint64_t merged_execs, merged_viol, merged_units, merged_steps;
	int running;            /* workers not finished */
	/* progress counters, summed by the coordinator */
	uint64_t live_execs[64], live_steps[64], live_viol[64];
	int nworkers;
	int items_done;
};

/* explore_search.c */
struct xsearch;
struct xsearch *xsearch_new(struct xshared *sh, int worker);
void xsearch_free(struct xsearch *s);
/* Explore ITEM's subtree (mode 0), or the top of the tree down to DEPTH,
 * appending one item per leaf to sh->items (mode 1). -1: out of memory. */
int xsearch_item(struct xsearch *s, struct xitem *item);
int xsearch_top(struct xsearch *s, int depth, uint8_t *cut);
bool xsearch_stopped(const struct xshared *sh);

/* explore_movers.c: the locking discipline the stateful search reduces by */
enum xmclass { XM_VISIBLE, XM_SINGLE, XM_RDONLY, XM_LOCKED };
struct xmloc {
	uint32_t key;           /* 0: empty slot */
	uint8_t cls;            /* enum xmclass */
	int8_t tid;             /* XM_SINGLE: the one thread */
	vfs_lid_t lock;         /* XM_LOCKED: the lock */
	/* what the guessing runs saw */
	uint32_t tids;
	uint8_t seen, written, nany, nexcl;
	vfs_lid_t any[VFS_MAX_HELD], excl[VFS_MAX_HELD];
};
#define XM_MAXDEMOTE 64
struct xmovers {
	struct xmloc *t;        /* NULL: every location visible */
	uint32_t mask;
	int n;
	int inited;
	pthread_mutex_t mu;     /* the demotion list */
	uint32_t demote[XM_MAXDEMOTE];
	int ndemote;
	int violated;           /* atomic: a search must start again */
	int rounds, demoted;
	/* bumped when rows' classes change once guessed (xm_apply): a
	 * memo's answer worked out from them is of one generation */
	uint32_t gen;
	uint64_t changes;       /* guessing: what the runs taught so far */
	int learn_runs;
};
#define XM_BATCH 16             /* guessing runs: batches of 16 ... */
#define XM_MAXRUNS 512          /* ... until one teaches nothing, at most */
/* Guess the discipline from random executions from SNAP: RUNS of them,
 * or (0) batches until one teaches nothing new. */
int xm_learn(struct xmovers *m, const struct vfs_world *snap, int maxdepth,
	     int runs);
void xm_free(struct xmovers *m);
/* What a step is to the reduction: invisible (both-mover), a release
 * with nobody waiting (left-mover), visible. */
enum { XM_B, XM_L, XM_N };
/* EV (of a step being searched): XM_B, XM_L or XM_N;
 * *VIS_ACCESS: its read or write is of a visible location.  A violation
 * of the discipline is recorded and sets m->violated. */
int xm_event(struct xmovers *m, const struct vfs_world *w,
	     const struct vfs_event *ev, int *vis_access);
/* A worker's memo for xm_event_memo: by what an event's footprint reads
 * of it (op, lock, mode, field, object, file, directory, function), its
 * locations and their rows of the discipline's table (whose class is read
 * when used, or its class worked out from them while their generation
 * lasts; the table is not reallocated while a worker lives). */
#define XMEMO_SIZE 256          /* direct mapped */
struct xmemo {
	uint32_t mask;          /* the slots used, less one: XMEMO_SIZE - 1
				 * (a test uses fewer) */
	struct xmemo_e {
		uint64_t k[3];
		int8_t n;       /* locations, -1: visible whatever the table */
		uint8_t used;
		uint8_t write[2];
		/* the class whatever thread makes it with whatever locks
		 * (no row XM_SINGLE or XM_LOCKED, none broken), -1: read
		 * the rows; and its vis_access then */
		int8_t fixed;
		uint8_t fixed_vis;
		/* ... and an access a race may involve then (fixed_vis, a
		 * read or write vfs_access_checked keeps: what obs_access
		 * records; all of it read from the keys) */
		uint8_t fixed_acc;
		int8_t fpn;     /* DPOR's footprint (xfp_keys): fpk, -1: all */
		uint32_t gen;   /* (xmovers.gen when filled) */
		uint32_t key[2];
		const struct xmloc *l[2];
		uint32_t fpk[VFS_FOOTPRINT_MAX];
		uint8_t fpb[VFS_FOOTPRINT_MAX]; /* their xfp_bitno */
	} e[XMEMO_SIZE];
};
/* Memo entry E's keys added to footprint F as xfp_add_keys adds them
 * (the same keys, in the same order), each with the entry's bit, looked
 * for first where its bit's last key is (POS: per bit, a hint, checked;
 * xobs.fppos): the stateful search's sink adds a key or two per event,
 * mostly one the block touched before (tests/unit/test_dependence.c
 * checks the two agree). */
static inline void xfp_add_entry(struct xfp *f, uint8_t pos[64],
				 const struct xmemo_e *e)
{
	if (e->fpn < 0)
		f->all = 1;
	for (int i = 0; i < e->fpn && !f->all; i++) {
		uint32_t key = XKEY(e->fpk[i]), kind = e->fpk[i] & XKIND;
		unsigned b = e->fpb[i];
		uint64_t bit = UINT64_C(1) << b, wbit = kind & XW ? bit : 0;
		int j = -1;
		if (f->in & bit) {
			j = pos[b];
			if (j >= f->n || XKEY(f->key[j]) != key)
				for (j = f->n - 1; j >= 0; j--)
					if (XKEY(f->key[j]) == key)
						break;
		}
		if (j >= 0) {
			f->key[j] |= kind;
			f->wr |= wbit;
		} else if (f->n == XFP) {
			f->all = 1;
		} else {
			pos[b] = f->n;
			f->in |= bit;
			f->wr |= wbit;
			f->key[f->n++] = key | kind;
		}
	}
}

/* xm_event_memo (explore_stateful.h, inline): xm_event, its footprint
 * and table rows from C (filled on a miss). */
/* Demote the locations found violated; returns how many. */
int xm_apply(struct xmovers *m);
void xm_count(const struct xmovers *m, int *visible, int *hidden);

/* explore_pool.c: the workers and clocks both searches use */
double xnow(void);              /* seconds, monotonic */
/* CLK's time MS milliseconds from now: a timed wait's deadline */
struct timespec xdeadline(clockid_t clk, long ms);
double xthread_cpu(void);       /* the calling thread's CPU seconds */
/* The heap grown and advised huge pages before a search (explore_heap.c) */
void xheap_huge(void);
int xonline_cpus(void);         /* 1 .. MAX_WORKERS */
/* W lost a table a step grew (a detector's, say: its kinds are then
 * the overflow's, not what the steps did): the search that stepped it
 * fails with ENOMEM, never answers from it (w->oom 1; 2 once said). */
static inline bool xw_lost(const struct vfs_world *w)
{
	return w->oom == 1;
}
/* D made SRC for a search whose threads may spawn: vfs_world_copy, which
 * leaves the clocks of unused thread slots alone, and those clocks
 * cleared (a thread made later joins into its slot's clock). */
static inline bool xwcopy_spawn(struct vfs_world *d, const struct vfs_world *src)
{
	if (!vfs_world_copy(d, src))
		return false;
	memset(d->det.vc[src->nthreads], 0,
	       sizeof d->det.vc[0] * (size_t)(VFS_MAX_THREADS - src->nthreads));
	return true;
}
/* Threads FROM .. TO - 1 into TH, thread i running FN(ARGS + i * SIZE),
 * with SIGINT (and with TERM SIGTERM) blocked in them; returns the index
 * of the first that could not be made (TO: all made). */
int xpool_start(pthread_t *th, int from, int to, void *(*fn)(void *),
		void *args, size_t size, bool term);
/* Tell O's progress function P, its seconds (since T0, the explore's
 * start) and rate (COUNT per second since SINCE, when the count began)
 * set from the time now, T. */
void xprogress_tell(const struct vfs_explore_opts *o,
		    struct vfs_explore_progress *p, double t0, double since,
		    double t, uint64_t count);

/* explore_stateful_run.c: the stateful search (opts.stateful) */
int xstate_run(const struct vfs_world *snap, const struct vfs_explore_opts *o,
	       struct vfs_explore_result *r);

/* explore.c */
uint32_t xkinds_of(const struct vfs_world *snap, const struct vfs_world *w);
/* The limits whose tables filled between FROM and TO (1u << VL_*): what a
 * DK_OVERFLOW in xkinds_of means. */
static inline uint32_t xoverflowed(const struct vfs_world *from,
				   const struct vfs_world *to)
{
	return to->det.overflowed & ~from->det.overflowed;
}
uint64_t xcall_hash(const struct vfs_world *w, int t);
uint64_t xfinal_hash(const struct vfs_world *w);
int xsched_dup(uint8_t **dst, const uint8_t *src, int len);
/* *N schedules of *SCHED, their lengths in *LEN (one schedule per
 * outcome: the stateful search's, then its result's), freed, all zeroed */
void xscheds_free(uint8_t ***sched, int **len, int *n);
static inline uint64_t xmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

#endif
