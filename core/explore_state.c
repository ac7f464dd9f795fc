/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_state.c - what a state of the stateful search is (`explore
 * stateful`, explore_stateful.c): its canonical form and its hash (the
 * copy of a world the search makes its successors in is explore_copy.c;
 * what one step did to the reduction and the race check, explore_obs.c).
 *
 * The canonical state: what determines the future and the checked
 * properties, nothing that only records history.  Threads (state, lock
 * wait, frame: pc and locals, held locks, the function stack, the pending
 * calls, the call in progress), processes, fd tables, files (f_pos,
 * f_count, cursor, f_mode, both locks with their FIFO queues), inodes (the
 * tree, dead flags, sizes, data, i_rwsem), the allocation counters, and
 * for the detectors: per pass of an open directory, which offsets were
 * handed out (given, not given, or before the pass: duplicates are then
 * decided by the state), and lockdep's order graph (edges, reports made,
 * handoffs).  Not in it: w->step, w->seq, call_seq, statistics, the call
 * record's results (entries, return value), the receivers and steps of
 * the pass entries, vector clocks, shadows and reports, the touched marks
 * and w->allocs (the search's own bookkeeping of a block).
 *
 * Hashing: the canonical state is serialised by component (the globals,
 * the processes, the inode locks, each thread, file, fd table and pass:
 * used slots only), each hashed to 64 bits, and the state's hash is their
 * sum, mixed; a successor hashes again only the components whose bytes
 * are not its parent's (xs_state_hash).  The visited set keeps the hashes
 * only (hash compaction, as SPIN's -DHC): two distinct states collide
 * with probability about n^2 / 2^65 for n states, reported in the result.
 */
#include <stdlib.h>
#include <string.h>
#include "explore_stateful.h"

/* ---- serialisation and hashing ---- */


static inline void put(struct sbuf *b, const void *v, size_t n)
{
	memcpy(b->p + b->n, v, n);
	b->n += n;
}
#define PUT(b, x) put((b), &(x), sizeof(x))

static inline void put_lock(struct sbuf *b, const struct vfs_lock *l)
{
	uint8_t v[5] = { l->kind, (uint8_t)l->owner, (uint8_t)l->nreaders,
			 (uint8_t)l->wait_head, (uint8_t)l->wait_tail };
	put(b, v, 5);
}

static inline void put_str(struct sbuf *b, const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	uint8_t len = (uint8_t)n;
	PUT(b, len);
	put(b, s, n);
}

static void put_call(struct sbuf *b, const struct vfs_call *c)
{
	PUT(b, c->sys);
	put(b, c->a, sizeof c->a);
	/* (handles: a search interns nothing, so equal strings have equal
	 * handles in every state of it) */
	if (c->s[0] || c->s[1])
		put(b, c->s, sizeof c->s);
}


/* The inodes but their locks: the tree, names, dead flags, sizes, data. */
uint64_t xs_tree_hash(struct sbuf *b, const struct vfs_world *w)
{
	b->n = 0;
	for (int i = 0; i < w->ninodes; i++) {
		const struct vfs_inode *n = &w->inodes[i];
		uint8_t h[6] = { n->type, n->dead, n->unlinked, n->is_mountpoint,
				 n->sb, n->freed };
		put(b, h, 6);
		int32_t l[5] = { n->parent, n->first_child, n->last_child,
				 n->next_sibling, n->prev_sibling };
		put(b, l, sizeof l);
		int32_t o[3] = { n->d_off, n->next_off, n->nchildren };
		put(b, o, sizeof o);
		PUT(b, n->size);
		put_str(b, n->name, VFS_NAME_MAX);
		if (n->type == IT_REG && n->data) {
			size_t sz = n->size < 0 ? 0 : (size_t)n->size;
			put(b, n->data->bytes, sz < n->data->cap ? sz : n->data->cap);
		}
	}
	return xs_hash_buf(b->p, b->n);
}


/* Bytes needed at most for W's canonical state, and with DATA for its
 * tree_hash too (the files' data: a walk over the inodes, only when the
 * tree is hashed again). */
size_t xs_canon_bound(const struct vfs_world *w, bool data)
{
	size_t n = 256;
	n += (size_t)w->nprocs * (24 + VFS_NAME_MAX);  /* + exec_lock */
	n += (size_t)w->nthreads * (64 + sizeof(struct vfs_frame) +
		VFS_MAX_HELD * 8 + VFS_MAX_FNSTACK +
		(VFS_MAX_PENDING + 1) * (sizeof(struct vfs_call) + 8));
	size_t nu = sizeof(int64_t) * (size_t)ufields_n(w);  /* declared fields */
	n += (size_t)w->nthreads * nu;
	n += (size_t)w->nfiles * (48 + nu);
	n += (size_t)w->ninodes * (64 + nu + VFS_NAME_MAX);
	for (int i = 0; data && i < w->ninodes; i++)
		if (w->inodes[i].data)
			n += w->inodes[i].data->cap;
	for (int i = 0; i < w->nfdt; i++)
		n += 8 + 2 * (size_t)VFS_NR_OPEN;
	n += (size_t)VFS_MAX_PASSES * (8 + VFS_MAX_PASS_OFFSETS);
	n += sizeof(struct vfs_lockdep);
	/* canon_history: a bit per thread and a word for the locks for each
	 * open access (at most one per shadow and thread, and its write),
	 * a bit per shadow */
	const struct vfs_detect *d = &w->det;
	size_t words = (size_t)w->nthreads / 64 + 2;
	n += (size_t)d->nshadows * ((size_t)w->nthreads + 1) * 8 * words;
	n += 8 * ((size_t)d->nshadows / 64 + 2);
	return n;
}

/* The room for W's canonical state in B, and for the 32 zero bytes
 * comp_hash writes after a component; KEY: W's sizes (xs_buf_reserve,
 * explore_stateful.h), put in KEPT (those B has room for) without DATA. */
int xs_buf_grow(struct sbuf *b, uint64_t *kept, const struct vfs_world *w,
		bool data, const uint64_t *key)
{
	size_t need = xs_canon_bound(w, data) + 32;
	kept[2] = 0;
	if (b->cap < need) {
		free(b->p);
		b->cap = need * 2;
		if (!(b->p = malloc(b->cap)))
			return -1;
	}
	if (!data)
		memcpy(kept, key, 3 * sizeof *key);
	return 0;
}

/* Races with the snapshot's own accesses (made in the set-up): a shadow
 * of the race detector, a write or a read, that some other thread is not
 * yet ordered after is "open".  A search that makes no access conflicting
 * with an open one runs without clocks; the first that does starts the
 * search again with them (as a wrong guess of the discipline does), and
 * the state then holds, per open access, which threads and lock clocks
 * are ordered after it, and which shadows a write has replaced. */

/* (two passes: the count, then the accesses) */
int xs_open_accesses(const struct vfs_world *snap, struct xopen **out)
{
	const struct vfs_detect *d = &snap->det;
	struct xopen *o = NULL;
	int n = 0;
	*out = NULL;
	if (!d->enabled)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		if (pass && !n)
			return 0;
		if (pass && !(o = malloc(sizeof *o * (size_t)n)))
			return -1;
		n = 0;
		for (int i = 0; i < d->nshadows; i++) {
			const struct vfs_shadow *sh = &d->shadows[i];
			for (int u = -1; u < snap->nthreads; u++) {
				const struct vfs_access *a = u < 0 ? &sh->w : &sh->r[u];
				if (!a->step)
					continue;
				bool open = false;
				for (int t = 0; t < snap->nthreads && !open; t++)
					open = t != a->tid && a->clock > d->vc[t][a->tid];
				if (open && o)
					o[n] = (struct xopen){ sh->field, u < 0, (int8_t)a->tid,
							       sh->obj, a->clock, i };
				n += open;
			}
		}
	}
	*out = o;
	return n;
}

/* ---- the canonical state, by component ----
 * A state's hash is the sum of its components' hashes (each seeded with
 * its place), mixed: the globals (allocation counters, sizes, the rename
 * mutex, the tree's hash, lockdep, the history), the processes, the inode
 * locks, then each thread, file, fd table and pass.  A successor differs
 * from its parent in a few components: those whose bytes are the parent's
 * keep the parent's hash (xs_state_hash), the others are serialised and
 * hashed again.  Two distinct states collide with probability about
 * 2^-64, as with one hash of the whole (the sum of independent 64-bit
 * hashes). */

/* (XC_SUM: no component, the sum of the others' hashes, kept with them
 * so that a successor's sum is its parent's and what changed) */
/* (XC_TREE: no component either, the tree_hash the globals' hash was
 * made with, 0 when with the history: a successor with the same takes
 * its parent's when the rest of its globals are the parent's, glob_same) */
enum { XC_SUM, XC_TREE, XC_GLOB, XC_PROCS, XC_ILOCKS, XC_UINODES, XC_THREADS };

static void canon_glob(struct sbuf *b, const struct vfs_world *w, uint64_t tree)
{
	int32_t g[7] = { w->next_pid, w->next_file_id,
			 (int32_t)w->nprocs | (int32_t)w->nthreads << 16,
			 w->nfiles, w->ninodes, w->next_ino, w->free_inode };
	put(b, g, sizeof g);
	PUT(b, w->nfdt);
	put_lock(b, &w->rename_mutex);
	PUT(b, tree);
	/* the detectors: what decides their future reports (the passes are
	 * components of their own) */
	const struct vfs_detect *d = &w->det;
	PUT(b, d->npasses);
	const struct vfs_lockdep *ld = &d->ld;
	uint8_t lh[4] = { ld->nedges, ld->nseen, ld->ndead, ld->overflow };
	put(b, lh, 4);
	PUT(b, d->overflowed);  /* a detector turned off decides nothing more */
	PUT(b, ld->woken);
	put(b, ld->seen, sizeof ld->seen[0] * ld->nseen);
	put(b, ld->dead, sizeof ld->dead[0] * ld->ndead);
	for (int i = 0; i < ld->nedges; i++) {
		uint8_t e[2] = { ld->edges[i].from, ld->edges[i].to };
		put(b, e, 2);
	}
}

static void canon_procs(struct sbuf *b, const struct vfs_world *w)
{
	for (int i = 0; i < w->nprocs; i++) {
		const struct vfs_proc *p = &w->procs[i];
		uint8_t h[2] = { p->alive, p->exists };
		put(b, h, 2);
		PUT(b, p->pid);
		PUT(b, p->uid);
		PUT(b, p->fdt);
		PUT(b, p->nthreads_made);
		put_str(b, p->name, VFS_NAME_MAX);
		put_lock(b, &p->exec_lock);
	}
}

/* The inode locks that are not idle (an idle lock's kind is set again
 * when taken); the inodes themselves are the tree's hash. */
static void canon_ilocks(struct sbuf *b, const struct vfs_world *w)
{
	_Static_assert(offsetof(struct vfs_lock, owner) == 1 &&
		       offsetof(struct vfs_lock, nreaders) == 2 &&
		       offsetof(struct vfs_lock, wait_head) == 3,
		       "the idle test reads owner, nreaders, wait_head at once");
	static const uint8_t idle[4] = { 0, (uint8_t)-1, 0, (uint8_t)-1 },
			     busy[4] = { 0, 0xff, 0xff, 0xff };
	uint32_t idle_bits, idle_mask;
	memcpy(&idle_bits, idle, 4);
	memcpy(&idle_mask, busy, 4);
	for (int32_t i = 0; i < w->ninodes; i++) {
		/* (most are idle: owner, readers and queue head in one load,
		 * against an idle lock's, the kind masked off) */
		uint32_t x;
		memcpy(&x, &w->ilocks[i], 4);
		if ((x & idle_mask) == idle_bits)
			continue;
		PUT(b, i);
		put_lock(b, &w->ilocks[i]);
	}
	/* a script's d_update locks (none until one was taken) */
	for (int32_t i = 0; i < w->ndlocks; i++) {
		uint32_t x;
		memcpy(&x, &w->dlocks[i], 4);
		if ((x & idle_mask) == idle_bits)
			continue;
		int32_t di = i | INT32_C(0x40000000);
		PUT(b, di);
		put_lock(b, &w->dlocks[i]);
	}
}

static void canon_thread(struct sbuf *b, const struct vfs_world *w, int i,
			 uint32_t fixed, size_t nu)
{
	const struct vfs_thread *t = &w->threads[i];
	uint8_t h[4] = { t->state, (uint8_t)t->wait_next, t->wait_mode,
			 t->npending };
	put(b, h, 4);
	if (t->state == TS_FREE || t->state == TS_DEAD)
		return;
	PUT(b, t->wait_lock);
	PUT(b, t->proc);
	PUT(b, t->tnum);
	PUT(b, t->tid);
	/* fixed: the queue is a suffix of the snapshot's */
	if (fixed >> i & 1)
		PUT(b, t->pend_head);
	else
		for (int k = 0; k < t->npending; k++)
			put_call(b, &t->pending[(t->pend_head + k) %
						VFS_MAX_PENDING]);
	PUT(b, t->nheld);
	for (int k = 0; k < t->nheld; k++) {
		const struct vfs_held *hd = &t->held[k];
		uint8_t v[7] = { (uint8_t)hd->lock, (uint8_t)(hd->lock >> 8),
				 hd->mode, hd->cls, hd->fn, hd->frame, hd->sub };
		put(b, v, 7);
	}
	PUT(b, t->nfn);
	put(b, t->fnstack, t->nfn < VFS_MAX_FNSTACK ? t->nfn : VFS_MAX_FNSTACK);
	uint8_t rs[2] = { t->rec.started, t->rec.done };
	put(b, rs, 2);
	const void *frame;
	size_t fsize;
	int pc = vfs_thread_resume_point(w, i, &frame, &fsize);
	if (pc != RP_IDLE) {
		/* the call in progress: its arguments and its locals (the
		 * frame is cleared whole when a call starts) */
		put(b, frame, fsize);
		/* (a defined call's values of the declared fields) */
		if (nu && t->f.kfn.kdepth && ufield_row(w, UFV_CALL, i))
			put(b, ufield_row(w, UFV_CALL, i), nu);
		if (fixed >> i & 1) {   /* a submitted call: its number */
			PUT(b, t->rec.call.seq);
		} else {
			put_call(b, &t->rec.call);
		}
	} else {
		uint16_t site = (uint16_t)pc;
		PUT(b, site);
	}
}

static void canon_file(struct sbuf *b, const struct vfs_world *w, int i,
		       size_t nu)
{
	const struct vfs_file *f = &w->files[i];
	PUT(b, f->kind);
	if (f->kind == FK_NONE)
		return;
	PUT(b, f->f_mode);
	PUT(b, f->id);
	PUT(b, f->f_count);
	PUT(b, f->inode);
	PUT(b, f->pid);
	PUT(b, f->f_pos);
	PUT(b, f->cursor);
	if (nu && ufield_row(w, UFV_FILE, i))
		put(b, ufield_row(w, UFV_FILE, i), nu);
	put_lock(b, &f->f_pos_lock);
	put_lock(b, &f->f_lock);
}

static void canon_fdt(struct sbuf *b, const struct vfs_fdtable *t)
{
	PUT(b, t->count);
	PUT(b, t->nfds);
	put(b, t->fd, sizeof t->fd[0] * (size_t)(t->nfds > 0 ? t->nfds : 0));
}

/* An open directory's pass: given (1), not given (0), before the pass or
 * reported skipped (2) per offset; not who got it, nor when. */
static void canon_pass(struct sbuf *b, const struct vfs_pass *p)
{
	PUT(b, p->used);
	PUT(b, p->file);
	PUT(b, p->epoch);
	int last = p->hi;       /* (8 at a time: hot) */
	while (last >= 8) {
		uint64_t x;
		memcpy(&x, p->by + last - 8, 8);
		if (x)
			break;
		last -= 8;
	}
	while (last > 0 && !p->by[last - 1])
		last--;
	int16_t nl = (int16_t)last;
	PUT(b, nl);
	uint8_t *v = b->p + b->n;
	int k = 0;
	/* 8 at a time: a byte's sign bit says < 0, its low seven bits plus
	 * 0x7f carry into bit 7 when nonzero */
	for (; k + 8 <= nl; k += 8) {
		const uint64_t lo = 0x0101010101010101ull, m7 = 0x7f7f7f7f7f7f7f7full;
		uint64_t x, y;
		memcpy(&x, p->by + k, 8);
		uint64_t neg = x >> 7 & lo;
		uint64_t nz = (((x & m7) + m7) | x) >> 7 & lo;
		y = (nz & ~neg) | neg << 1;
		memcpy(v + k, &y, 8);
	}
	for (; k < nl; k++)
		v[k] = (uint8_t)((p->by[k] > 0) | (p->by[k] < 0) << 1);
	b->n += (size_t)nl;
}

static uint64_t hash_padded(const uint8_t *p, size_t n, uint64_t seed);

/* Component I's hash from the bytes serialised into B (emptied).  The 32
 * bytes after them zeroed, the hash's last round reads them in place
 * (the buffer is twice the canonical state's bound, xs_canon_bound: at
 * least 256 bytes past any component). */
static inline uint64_t comp_hash(struct sbuf *b, int i)
{
	memset(b->p + b->n, 0, 32);
	uint64_t h = hash_padded(b->p, b->n, (uint64_t)i);
	b->n = 0;
	return h;
}

/* N bytes at A and B equal, N a small constant: 16 at a time, no call */
typedef uint8_t xv16 __attribute__((vector_size(16)));
static inline bool eq(const void *a, const void *b, size_t n)
{
	const uint8_t *p = a, *q = b;
	xv16 d = { 0 };
	size_t i = 0;
#pragma GCC unroll 16
	for (; i + 16 <= n; i += 16) {
		xv16 x, y;
		memcpy(&x, p + i, 16);
		memcpy(&y, q + i, 16);
		d |= x ^ y;
	}
	uint64_t r[2];
	memcpy(r, &d, 16);
	r[0] |= r[1];
	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;
		memcpy(&x, p + i, 8);
		memcpy(&y, q + i, 8);
		r[0] |= x ^ y;
	}
	for (; i + 4 <= n; i += 4) {
		uint32_t x, y;
		memcpy(&x, p + i, 4);
		memcpy(&y, q + i, 4);
		r[0] |= x ^ y;
	}
	for (; i < n; i++)
		r[0] |= (uint64_t)(p[i] ^ q[i]);
	return !r[0];
}

/* (equal bytes: an equal canonical form; unequal ones may still have
 * one, and are only serialised again).  A thread's frame up to its
 * defined function's part, that part while one runs in either, its held
 * locks, function stack and call, its header, and its queue unless
 * FIXED (the snapshot's: never changed, only taken from). */
static inline bool thread_same(const struct vfs_thread *a,
			       const struct vfs_thread *b, bool fixed)
{
	size_t h = offsetof(struct vfs_thread, nheld),
	       end = offsetof(struct vfs_thread, rec) +
		     offsetof(struct vfs_callrec, ret);
	if (!eq(&a->f, &b->f, offsetof(struct vfs_frame, kfn)) ||
	    !eq((const char *)a + h, (const char *)b + h, end - h) ||
	    !eq(a, b, offsetof(struct vfs_thread, pending)))
		return false;
	if ((a->f.kfn.kdepth | b->f.kfn.kdepth) &&
	    memcmp(&a->f.kfn, &b->f.kfn, sizeof a->f.kfn))
		return false;
	return fixed || !memcmp(a->pending, b->pending, sizeof a->pending);
}

static inline bool pass_same(const struct vfs_pass *a, const struct vfs_pass *b)
{
	return a->hi == b->hi &&
	       eq(a, b, offsetof(struct vfs_pass, by)) &&
	       !memcmp(a->by, b->by, (size_t)a->hi);
}

/* (a table of a few descriptors is copied by its head, 32 bytes whole:
 * world_copy_files; the successor's head is then its parent's but for
 * what a step changed, slots past nfds too) */
static inline bool fdt_same(const struct vfs_fdtable *a,
			    const struct vfs_fdtable *b)
{
	enum { HEAD = 32, HEADFDS = (HEAD - offsetof(struct vfs_fdtable, fd)) / 2 };
	if (a->nfds <= HEADFDS && b->nfds <= HEADFDS)
		return eq(a, b, HEAD);
	return a->count == b->count && a->nfds == b->nfds &&
	       !memcmp(a->fd, b->fd, sizeof a->fd[0] *
		       (size_t)(a->nfds > 0 ? a->nfds : 0));
}

/* The globals of A and B but the tree's hash (canon_glob's bytes), the
 * sizes being equal: equal, or maybe not (the lockdep tables compared
 * whole: what lies past their counts was copied with them) */
static inline bool glob_same(const struct vfs_world *a, const struct vfs_world *b)
{
	const struct vfs_lockdep *x = &a->det.ld, *y = &b->det.ld;
	if (a->next_pid != b->next_pid || a->next_file_id != b->next_file_id ||
	    a->next_ino != b->next_ino || a->free_inode != b->free_inode ||
	    a->det.overflowed != b->det.overflowed ||
	    !eq(&a->rename_mutex, &b->rename_mutex, sizeof a->rename_mutex) ||
	    !eq(x, y, offsetof(struct vfs_lockdep, edges)))
		return false;
	for (int i = 0; i < x->nedges; i++)
		if (x->edges[i].from != y->edges[i].from ||
		    x->edges[i].to != y->edges[i].to)
			return false;
	return true;
}

/* Row I of table TAB of the declared fields' values (NU bytes), in A
 * and in B: both missing, or equal. */
static inline bool urow_same(const struct vfs_world *a, const struct vfs_world *b,
			     int tab, int i, size_t nu)
{
	if (!nu)
		return true;
	const int64_t *x = ufield_row(a, tab, i), *y = ufield_row(b, tab, i);
	return x ? y && !memcmp(x, y, nu) : !y;
}

_Static_assert((int)XC_THREADS == (int)XS_NGLOBAL, "xs_hash_reserve counts the globals");

int xs_hash_grow(struct xhash *x, int n)
{
	int cap = n * 2 > 64 ? n * 2 : 64;
	uint64_t *h = realloc(x->h, sizeof *h * (size_t)cap);
	if (!h)
		return -1;
	x->h = h;
	x->cap = cap;
	return 0;
}

/* File I of A and of B: equal bytes and rows of declared fields */
static inline bool file_same(const struct vfs_world *a, const struct vfs_world *b,
			     int i, size_t nu)
{
	return eq(&a->files[i], &b->files[i], sizeof a->files[i]) &&
	       urow_same(a, b, UFV_FILE, i, nu);
}

/* The guard of the touched marks (tests/unit/test_state_hash.c): when
 * set, each thread, file, fd table taken as its parent's is compared
 * with it all the same, and so are the processes, the inode locks and
 * the passes, and each that differs counted. */
bool xs_check_touched;
unsigned long xs_touched_misses;

static void miss(void)
{
	__atomic_add_fetch(&xs_touched_misses, 1, __ATOMIC_RELAXED);
}

static void check_touched(const struct vfs_world *w, const struct vfs_world *pw,
			  uint32_t fixed, struct xtouch touched, size_t nu)
{
	if ((!(touched.objs & TOUCH_PROCS) &&
	     memcmp(pw->procs, w->procs, sizeof w->procs[0] * (size_t)w->nprocs)) ||
	    (!(touched.objs & TOUCH_ILOCKS) &&
	     (memcmp(pw->ilocks, w->ilocks, sizeof w->ilocks[0] * (size_t)w->ninodes) ||
	      pw->ndlocks != w->ndlocks ||
	      (w->ndlocks && memcmp(pw->dlocks, w->dlocks,
				    sizeof w->dlocks[0] * (size_t)w->ndlocks)))))
		miss();
	for (int i = 0; i < w->nthreads; i++)
		if (!(touched.threads >> i & 1) &&
		    (!thread_same(&pw->threads[i], &w->threads[i], fixed >> i & 1) ||
		     /* (its row, made when another's call made theirs, is
		      * hashed only while its defined function runs) */
		     (w->threads[i].f.kfn.kdepth && !urow_same(pw, w, UFV_CALL, i, nu))))
			miss();
	for (int i = 0; i < w->nfiles; i++)
		if (!(touched.files & touch_bit(i)) && !file_same(pw, w, i, nu))
			miss();
	for (int i = 0; i < w->nfdt; i++)
		if (!(touched.fdts & touch_bit(i)) && !fdt_same(&pw->fdt[i], &w->fdt[i]))
			miss();
	for (int i = 0; i < w->det.npasses; i++)
		if (!(touched.objs & TOUCH_PASSES) &&
		    !pass_same(&pw->det.passes[i], &w->det.passes[i]))
			miss();
}

uint64_t xs_state_hash(struct sbuf *b, struct xhash *x,
		       const struct vfs_world *w, uint64_t tree, uint32_t fixed,
		       const struct xst *hist, const struct vfs_world *pw,
		       const struct xhash *px, struct xtouch touched)
{
	/* a local copy of the buffer's cursor: stores through b->p may not
	 * then change b->n, which the compiler otherwise reloads per put */
	struct sbuf lb = *b, *lbp = &lb;
	size_t nu = sizeof(int64_t) * (size_t)ufields_n(w);  /* declared fields */
	/* the parent's hashes are the same components' when the sizes are */
	if (pw && (pw->nthreads != w->nthreads || pw->nfiles != w->nfiles ||
		   pw->nfdt != w->nfdt || pw->det.npasses != w->det.npasses ||
		   pw->nprocs != w->nprocs || pw->ninodes != w->ninodes))
		pw = NULL;
	lb.n = 0;
	/* the parent's hashes and their sum, or none; then each component
	 * that may differ from the parent's (all without one) */
	uint64_t *h = x->h, sum;
	if (pw) {
		memcpy(h, px->h, sizeof *h * (size_t)x->n);
		sum = h[XC_SUM];
	} else {
		memset(h, 0, sizeof *h * (size_t)x->n);
		sum = 0;
	}
	/* component C hashed again from CANON's bytes, in the sum */
#define REDO(c, canon) do {                             \
		canon;                                  \
		uint64_t v_ = comp_hash(lbp, c);        \
		sum += v_ - h[c];                       \
		h[c] = v_;                              \
	} while (0)
	/* the globals: the parent's when made of the same tree, without
	 * the history, and the rest alike (most steps allocate nothing and
	 * leave lockdep's graph as it was) */
	if (!pw || hist || !tree || h[XC_TREE] != tree || !glob_same(w, pw)) {
		canon_glob(lbp, w, tree);
		if (hist)
			xs_canon_history(lbp, w, hist);
		REDO(XC_GLOB, );
	}
	h[XC_TREE] = hist ? 0 : tree;
	/* the processes and the inode locks: the parent's unless a step
	 * touched them (objs_touch), else compared (a lock taken and let go
	 * in one block is as it was) */
	if (__builtin_expect(xs_check_touched, 0) && pw)
		check_touched(w, pw, fixed, touched, nu);
	if (!pw || ((touched.objs & TOUCH_PROCS) &&
		    memcmp(pw->procs, w->procs, sizeof w->procs[0] * (size_t)w->nprocs)))
		REDO(XC_PROCS, canon_procs(lbp, w));
	if (!pw || ((touched.objs & TOUCH_ILOCKS) &&
		    (memcmp(pw->ilocks, w->ilocks, sizeof w->ilocks[0] * (size_t)w->ninodes) ||
		     pw->ndlocks != w->ndlocks ||
		     (w->ndlocks && memcmp(pw->dlocks, w->dlocks,
					   sizeof w->dlocks[0] * (size_t)w->ndlocks)))))
		REDO(XC_ILOCKS, canon_ilocks(lbp, w));
	/* the inodes' declared fields: here, not in the tree's hash, which a
	 * step that is no VSYS_TREE call leaves as it was (a hook in lseek
	 * writes them too); one block, none when none is declared */
	const struct vfs_ufvals *ui = &w->ufv[UFV_INODE];
	if (!nu || !ui->rows) {
		sum -= h[XC_UINODES];
		h[XC_UINODES] = 0;
	} else if (!pw || pw->ufv[UFV_INODE].rows != ui->rows ||
		   memcmp(pw->ufv[UFV_INODE].v, ui->v, nu * (size_t)ui->rows)) {
		REDO(XC_UINODES, put(lbp, ui->v, nu * (size_t)ui->rows));
	}
	/* the threads: those no step touched are the parent's (a thread's
	 * struct is written by its own steps, and by another's only where
	 * thread_touch marks it); so are the files, fd tables and passes no
	 * step touched (file_touch, fdt_touch, TOUCH_PASSES), the others
	 * compared (written back to what they were: the parent's) */
	int c = XC_THREADS;
	uint32_t m = pw ? touched.threads : UINT32_MAX;
	for (int i, end; marked_range(&m, w->nthreads, &i, &end); )
		for (; i < end; i++)
			REDO(c + i, canon_thread(lbp, w, i, fixed, nu));
	c += w->nthreads;
	m = pw ? touched.files : UINT32_MAX;
	for (int i, end; marked_range(&m, w->nfiles, &i, &end); )
		for (; i < end; i++)
			if (!pw || !file_same(pw, w, i, nu))
				REDO(c + i, canon_file(lbp, w, i, nu));
	c += w->nfiles;
	m = pw ? touched.fdts : UINT32_MAX;
	for (int i, end; marked_range(&m, w->nfdt, &i, &end); )
		for (; i < end; i++)
			if (!pw || !fdt_same(&pw->fdt[i], &w->fdt[i]))
				REDO(c + i, canon_fdt(lbp, &w->fdt[i]));
	c += w->nfdt;
	if (!pw || (touched.objs & TOUCH_PASSES))
		for (int i = 0; i < w->det.npasses; i++)
			if (!pw || !pass_same(&pw->det.passes[i], &w->det.passes[i]))
				REDO(c + i, canon_pass(lbp, &w->det.passes[i]));
#undef REDO
	h[XC_SUM] = sum;
	*b = lb;
	uint64_t r = xmix(sum);
	return r ? r : 1;
}

static inline uint64_t rd64(const uint8_t *p)
{
	uint64_t x;
	memcpy(&x, p, 8);
	return x;
}

/* The 128-bit product of A and B folded to 64 bits: every bit of both
 * reaches the middle of the product, and one multiply mixes 16 bytes
 * (wyhash's round). */
static inline uint64_t mum(uint64_t a, uint64_t b)
{
	unsigned __int128 r = (unsigned __int128)a * b;
	return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* wyhash-style rounds, 16 bytes per multiply, in two independent lanes
 * (a lane's multiply waits for its previous one), then a full
 * avalanche: half the instructions per byte of four lanes of xxhash64's
 * 8-byte rounds.  A lane's state enters as the second factor's key, so
 * a zero factor needs a word equal to a random key or to the lane's
 * state (probability 2^-64 a round, as in wyhash). */
static inline __attribute__((always_inline)) uint64_t
hash_of(const uint8_t *p, size_t n, uint64_t seed, bool padded)
{
	const uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull,
		       k2 = 0x8ebc6af09c88c6e3ull, k3 = 0x589965cc75374cc3ull;
	uint64_t a = 0x60ea27eeadc0b5d6ull ^ n,
		 b = 0x2d358dccaa6c78a5ull ^ seed * 0x9e3779b97f4a7c15ull;
	size_t i = 0;
	for (; i + 32 <= n; i += 32) {
		a = mum(rd64(p + i) ^ k0, rd64(p + i + 8) ^ a);
		b = mum(rd64(p + i + 16) ^ k1, rd64(p + i + 24) ^ b);
	}
	/* the last 0-31 bytes, zero-padded to 32: read in place when the
	 * caller zeroed the 32 bytes after them (PADDED), else copied */
	uint8_t tail[32] = { 0 };
	const uint8_t *q = tail;
	if (padded) {
		q = p + i;
	} else if (n - i <= 16) {       /* (small components: no call) */
		for (size_t k = 0; k < n - i; k++)
			tail[k] = p[i + k];
	} else {
		memcpy(tail, p + i, n - i);
	}
	a = mum(rd64(q) ^ k2, rd64(q + 8) ^ a);
	b = mum(rd64(q + 16) ^ k3, rd64(q + 24) ^ b);
	uint64_t h = xmix(a ^ (b << 32 | b >> 32));
	return h ? h : 1;
}

uint64_t xs_hash_seed(const uint8_t *p, size_t n, uint64_t seed)
{
	return hash_of(p, n, seed, false);
}

/* xs_hash_seed's value, the 32 bytes at P + N being zero */
static uint64_t hash_padded(const uint8_t *p, size_t n, uint64_t seed)
{
	return hash_of(p, n, seed, true);
}

uint64_t xs_hash_buf(const uint8_t *p, size_t n)
{
	return xs_hash_seed(p, n, 0);
}

void xs_canon_history(struct sbuf *b, const struct vfs_world *w,
			  const struct xst *st)
{
	const struct vfs_detect *d = &w->det, *sd = &st->snap->det;
	int n = w->nthreads;
	/* the bits in 64-bit words, each put when full (every thread and
	 * lock clock, every shadow: no table bounds them) */
#define BIT(on) do {                                    \
		word |= (uint64_t)(on) << (k & 63);     \
		if ((++k & 63) == 0) {                  \
			PUT(b, word);                   \
			word = 0;                       \
		}                                       \
	} while (0)
	for (int e = 0; e < st->nopen; e++) {
		const struct xopen *x = &st->open[e];
		uint64_t word = 0;      /* threads */
		int k = 0;
		for (int t = 0; t < n; t++)
			BIT(d->vc[t][x->tid] >= x->clock);
		if (k & 63)
			PUT(b, word);
		/* the locks whose clocks have seen it, by lock: race.c keeps
		 * them in the order a path first used them, and a lock no
		 * clock of which has seen it says nothing, so the sum, which
		 * no order changes, of each such lock's id and two bits (one
		 * path's table order made two of one state) */
		uint64_t locks = 0;
		for (int i = 0; i < d->nlockclocks; i++) {
			const struct vfs_lockclock *l = &d->lockclocks[i];
			uint64_t on = (uint64_t)(l->w[x->tid] >= x->clock) << 1 |
				      (uint64_t)(l->r[x->tid] >= x->clock);
			if (on)
				locks += xmix((uint64_t)l->lock << 2 | on);
		}
		PUT(b, locks);
	}
	/* the shadows a write replaced: two words at least */
	uint64_t word = 0;
	int k = 0;
	for (int i = 0; i < sd->nshadows; i++)
		BIT(d->shadows[i].w.step != sd->shadows[i].w.step);
	if (k & 63) {
		PUT(b, word);
		k = (k | 63) + 1;
	}
	for (word = 0; k < 128; k += 64)
		PUT(b, word);
#undef BIT
}
