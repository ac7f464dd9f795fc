/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * deadlock.c - the wait-for graph: why a thread waits, and the cycle that
 * makes a deadlock.
 *
 * A blocked thread waits for every holder of the lock it asked for (an
 * rw_semaphore's read holders too) and, since the queue is FIFO
 * (kernel/locking/rwsem.c, modelled strictly), for every waiter queued
 * ahead of it.  A cycle in that graph can never resolve: a deadlock.
 * A thread that holds the lock it waits for (a read-to-write "upgrade")
 * waits for itself: a cycle of one.
 *
 * A waiter queued behind a writer that waits for running readers is not
 * deadlocked: the readers run, release, the writer gets the lock, then the
 * waiter.  The graph says so because the readers wait for nobody.
 *
 * Detection runs on every OP_BLOCK (a cycle can only close when a thread
 * starts to wait), so a deadlock among some threads is found while others
 * still run; DK_DEADLOCK is recorded once per set of threads.
 */
#include <stdio.h>
#include "internal.h"

static bool holds(const struct vfs_thread *t, vfs_lid_t lid, int *mode)
{
	return thread_holds(t, lid, mode);
}

/* The threads tid waits for, others first and itself last. */
static int waits_for(const struct vfs_world *w, int tid, int8_t *out,
		     uint8_t *queued)
{
	const struct vfs_thread *t = &w->threads[tid];
	int n = 0, self = 0;
	if (t->state != TS_BLOCKED)
		return 0;
	for (int i = 0; i < w->nthreads; i++)
		if (holds(&w->threads[i], t->wait_lock, NULL)) {
			if (i == tid) {
				self = 1;
				continue;
			}
			out[n] = (int8_t)i;
			queued[n++] = 0;
		}
	const struct vfs_lock *l = lock_cptr(w, t->wait_lock);
	for (int c = l->wait_head; c >= 0 && c != tid; c = w->threads[c].wait_next) {
		bool dup = false;
		for (int k = 0; k < n; k++)
			dup |= out[k] == c;
		if (!dup && n < VFS_MAX_THREADS) {
			out[n] = (int8_t)c;
			queued[n++] = 1;
		}
	}
	if (self && n < VFS_MAX_THREADS) {
		out[n] = (int8_t)tid;
		queued[n++] = 0;
	}
	return n;
}

struct dfs {
	const struct vfs_world *w;
	int start;
	int8_t path[VFS_MAX_THREADS];
	uint8_t via_queue[VFS_MAX_THREADS]; /* path[i] -> path[i+1] is a queue edge */
	int len;
	uint32_t visited;
};

static bool dfs(struct dfs *d, int u)
{
	int8_t nb[VFS_MAX_THREADS];
	uint8_t q[VFS_MAX_THREADS];
	int n = waits_for(d->w, u, nb, q);
	d->path[d->len++] = (int8_t)u;
	d->visited |= 1u << u;
	for (int i = 0; i < n; i++) {
		d->via_queue[d->len - 1] = q[i];
		if (nb[i] == d->start)
			return true;
		if (!(d->visited & (1u << nb[i])) && dfs(d, nb[i]))
			return true;
	}
	d->len--;
	return false;
}

static void link_of(const struct vfs_world *w, int tid, vfs_lid_t held,
		    struct vfs_link *l)
{
	const struct vfs_thread *t = &w->threads[tid];
	int mode = 0;
	memset(l, 0, sizeof *l);
	l->tid = (int8_t)tid;
	l->fn = t->nfn ? t->fnstack[t->nfn - 1] : VFN_none;
	l->want = t->wait_lock;
	l->want_mode = t->wait_mode;
	l->want_key = (uint8_t)VFS_LD_KEY(lock_class(w, t->wait_lock), 0);
	l->step = t->block_step;
	if (held && holds(t, held, &mode)) {
		l->held = held;
		l->held_mode = (uint8_t)mode;
		l->held_key = (uint8_t)VFS_LD_KEY(lock_class(w, held), 0);
	}
}

static void names(const struct vfs_world *w, int tid, vfs_lid_t lid, char *th,
		  size_t nth, char *ln, size_t nln)
{
	if (th)
		vfs_thread_name(w, tid, th, nth);
	if (ln)
		vfs_lock_name(w, lid, ln, nln);
}

static void summary(const struct vfs_world *w, struct vfs_report *r)
{
	size_t o = 0;
	char th[32], ln[VFS_PATH_MAX + 32], nx[32];
	char *b = r->text;
	size_t n = sizeof r->text;
	if (r->nlinks == 1) {
		const struct vfs_link *l = &r->link[0];
		names(w, l->tid, l->want, th, sizeof th, ln, sizeof ln);
		snprintf(b, n, "deadlock: %s holds %s (%s) and waits for it (%s) "
			 "in %s: it waits for itself", th, ln,
			 vfs_mode_name(l->held_mode), vfs_mode_name(l->want_mode),
			 vfs_fn_name(l->fn));
		return;
	}
	o += (size_t)snprintf(b, n, "deadlock:");
	for (int i = 0; i < r->nlinks && o < n; i++) {
		const struct vfs_link *l = &r->link[i];
		const struct vfs_link *m = &r->link[(i + 1) % r->nlinks];
		names(w, l->tid, l->want, th, sizeof th, ln, sizeof ln);
		vfs_thread_name(w, m->tid, nx, sizeof nx);
		o += (size_t)snprintf(b + o, n - o, "%s %s waits for %s %s %s",
				      i ? "," : "", th, ln, m->held ? "held by" :
				      "queued behind", nx);
	}
}

bool vfs_deadlock_find(const struct vfs_world *w, int tid, struct vfs_report *r)
{
	struct dfs d = { .w = w };
	bool found = false;
	for (int s = tid >= 0 ? tid : 0; s < w->nthreads && !found;
	     s = tid >= 0 ? w->nthreads : s + 1) {
		if (w->threads[s].state != TS_BLOCKED)
			continue;
		d.start = s;
		d.len = 0;
		d.visited = 0;
		found = dfs(&d, s);
	}
	if (!found)
		return false;
	memset(r, 0, sizeof *r);
	r->kind = DK_DEADLOCK;
	r->obj = -1;
	int n = d.len < VFS_MAX_LINKS ? d.len : VFS_MAX_LINKS;
	r->entry = d.len;       /* the whole cycle's length */
	r->nlinks = (uint8_t)n;
	for (int i = 0; i < n; i++) {
		int prev = d.path[(i + d.len - 1) % d.len];
		link_of(w, d.path[i], w->threads[prev].wait_lock, &r->link[i]);
		r->link[i].queued = d.via_queue[i];
	}
	r->b.tid = d.path[0];
	r->b.step = w->step;
	summary(w, r);
	return true;
}

/* Called by the detectors on every OP_BLOCK. */
void deadlock_on_block(struct vfs_world *w, int tid)
{
	struct vfs_report tmp;
	struct vfs_lockdep *ld = &w->det.ld;
	if (!vfs_deadlock_find(w, tid, &tmp))
		return;
	uint32_t set = 0;
	for (int i = 0; i < tmp.nlinks; i++)
		set |= 1u << tmp.link[i].tid;
	for (int i = 0; i < ld->ndead; i++)
		if (ld->dead[i] == set)
			return;
	if (ld->ndead < VFS_MAX_LDDEAD) {
		ld->dead[ld->ndead++] = set;
	} else {
		detect_overflow(w, VL_LDDEAD);
		return;
	}
	if (tmp.entry > VFS_MAX_LINKS)  /* the report shows the first links */
		detect_overflow(w, VL_LINKS);
	w->det.counts[DK_DEADLOCK]++;
	if (w->det.nreports < VFS_MAX_REPORTS)
		w->det.reports[w->det.nreports++] = tmp;
}

void vfs_blocked_why(const struct vfs_world *w, int tid, char *buf, size_t n)
{
	const struct vfs_thread *t = &w->threads[tid];
	char th[32], ln[VFS_PATH_MAX + 32], nn[32];
	size_t o;
	vfs_thread_name(w, tid, th, sizeof th);
	if (t->state != TS_BLOCKED) {
		snprintf(buf, n, "%s is not blocked", th);
		return;
	}
	vfs_lock_name(w, t->wait_lock, ln, sizeof ln);
	o = (size_t)snprintf(buf, n, "%s blocks in %s on %s (%s)", th,
			     vfs_fn_name(t->nfn ? t->fnstack[t->nfn - 1] : VFN_none),
			     ln, vfs_mode_name(t->wait_mode));
	int nh = 0;
	for (int i = 0; i < w->nthreads && o < n; i++) {
		int mode;
		if (!holds(&w->threads[i], t->wait_lock, &mode))
			continue;
		vfs_thread_name(w, i, nn, sizeof nn);
		o += (size_t)snprintf(buf + o, n - o, "%s %s (%s%s)",
				      nh++ ? "," : ", held by", nn, vfs_mode_name(mode),
				      i == tid ? ": itself" : "");
	}
	if (!nh && o < n)
		o += (size_t)snprintf(buf + o, n - o, ", held by nobody");
	const struct vfs_lock *l = lock_cptr(w, t->wait_lock);
	int nq = 0;
	for (int c = l->wait_head; c >= 0 && c != tid && o < n;
	     c = w->threads[c].wait_next) {
		vfs_thread_name(w, c, nn, sizeof nn);
		o += (size_t)snprintf(buf + o, n - o, "%s %s (%s)",
				      nq++ ? "," : "; queued behind", nn,
				      vfs_mode_name(w->threads[c].wait_mode));
	}
	if (nq && !nh && o < n)
		snprintf(buf + o, n - o, " (FIFO: a waiting writer holds back new "
			 "readers)");
}

/* ---- the lockdep-shaped table ---- */

static void lockname(const struct vfs_world *w, vfs_lid_t lid, int mode,
		     char *buf, size_t n)
{
	char ln[VFS_PATH_MAX + 32];
	vfs_lock_name(w, lid, ln, sizeof ln);
	const char *verb = "lock";
	if (VFS_LID_KIND(lid) == LID_INODE && w->k.dir_lock)
		verb = mode == M_READ ? "down_read" : "down_write";
	else if (VFS_LID_KIND(lid) == LID_FILE_LOCK)
		verb = "spin_lock";
	else
		verb = "mutex_lock";
	snprintf(buf, n, "%s(%s);", verb, ln);
}

#define APP(...) do { if (o < n) o += (size_t)snprintf(buf + o, n - o, __VA_ARGS__); } while (0)

/* One row: text in column col of ncol. */
static size_t row(char *buf, size_t n, size_t o, int col, const char *text)
{
	const int W = 30;
	APP("  %*s%s\n", col * W, "", text);
	return o;
}

size_t deadlock_detail(const struct vfs_world *w, const struct vfs_report *r,
		       char *buf, size_t n)
{
	size_t o = 0;
	char th[32], ln[VFS_PATH_MAX + 64], hn[32];
	int k = r->nlinks;
	APP("============================================\n");
	APP("WARNING: deadlock: %s\n", k == 1 ? "a thread waits for itself" :
	    "threads wait for each other in a cycle");
	APP("--------------------------------------------\n");
	for (int i = 0; i < k; i++) {
		const struct vfs_link *l = &r->link[i];
		const struct vfs_link *nx = &r->link[(i + 1) % k];
		vfs_thread_name(w, l->tid, th, sizeof th);
		vfs_thread_name(w, nx->tid, hn, sizeof hn);
		vfs_lock_name(w, l->want, ln, sizeof ln);
		APP("%s is trying to acquire %s (%s) in %s, since step %d,\n", th, ln,
		    vfs_mode_name(l->want_mode), vfs_fn_name(l->fn), l->step);
		if (l->queued || !nx->held)
			APP("  queued behind %s, which waits too (the queue is FIFO)\n", hn);
		else if (nx->tid == l->tid)
			APP("  but it holds that lock itself (%s)\n",
			    vfs_mode_name(nx->held_mode));
		else
			APP("  held by %s (%s)\n", hn, vfs_mode_name(nx->held_mode));
	}
	APP("\n other info that might help us debug this:\n\n");
	APP(" Possible unsafe locking scenario:\n\n");
	char hdr[256] = "", und[256] = "";
	size_t ho = 0, uo = 0;
	for (int i = 0; i < k; i++) {
		vfs_thread_name(w, r->link[i].tid, th, sizeof th);
		ho += (size_t)snprintf(hdr + ho, sizeof hdr - ho, "%s%-30s",
				       i ? "" : "  ", th);
		uo += (size_t)snprintf(und + uo, sizeof und - uo, "%s%-30s",
				       i ? "" : "  ", "----");
	}
	while (ho && hdr[ho - 1] == ' ')
		hdr[--ho] = 0;
	while (uo && und[uo - 1] == ' ')
		und[--uo] = 0;
	APP("%s\n%s\n", hdr, und);
	/* first every thread takes what it holds, then asks for the next */
	for (int i = 0; i < k; i++)
		if (r->link[i].held) {
			lockname(w, r->link[i].held, r->link[i].held_mode, ln, sizeof ln);
			o = row(buf, n, o, i, ln);
		}
	for (int i = 0; i < k; i++) {
		lockname(w, r->link[i].want, r->link[i].want_mode, ln, sizeof ln);
		o = row(buf, n, o, i, ln);
	}
	APP("\n *** DEADLOCK ***\n\n");
	/* plain words */
	if (k == 1) {
		const struct vfs_link *l = &r->link[0];
		vfs_thread_name(w, l->tid, th, sizeof th);
		vfs_lock_name(w, l->want, ln, sizeof ln);
		APP("In plain words: %s already holds %s for %s and now asks for it "
		    "for %s. An rw_semaphore cannot be upgraded: the %s waits for "
		    "every reader to leave, %s included, and %s never will.",
		    th, ln, vfs_mode_name(l->held_mode), vfs_mode_name(l->want_mode),
		    vfs_mode_name(l->want_mode), th, th);
	} else {
		APP("In plain words: each of these threads holds what the next one "
		    "needs, and waits; none can go on, so none will release. ");
		APP("Only a fixed lock order (or a single upgrade-free path) avoids it.");
	}
	return o;
}
