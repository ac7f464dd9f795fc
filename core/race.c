/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * race.c - the detectors that read the trace: data races (vector clocks),
 * what each open directory handed out per pass (duplicates and skips),
 * and iteration of a dead directory.
 *
 * Happens-before comes from program order, thread creation and lock
 * release -> acquire: a mutex or a write-held rwsem orders everything;
 * read holders of one rwsem are not ordered with each other, only with
 * the writers before and after them.  Atomic counters (f_count) and the
 * fd table (RCU plus files->file_lock, not modelled) are not checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"
/* after vfsim.h: <sched.h> defines SCHED_RR as a macro */
#include <pthread.h>

/* ---- the bounds of core/limits.h, when a table is full ---- */

#define RK(k) (1u << (k))
static const struct {
	const char *name;       /* "too many NAME" */
	int value;
	const char *off;        /* what stops answering */
	uint32_t kinds;         /* the report kinds whose verdicts it decides */
} limits[VL__COUNT] = {
	[VL_NONE] = { "?", 0, "", 0 },
	[VL_SHADOWS] = { "shadow words", VFS_MAX_SHADOWS,
		"the race detector is off", RK(DK_RACE) },
	[VL_LOCKCLOCKS] = { "lock clocks", VFS_MAX_LOCKCLOCKS,
		"the race detector is off", RK(DK_RACE) },
	[VL_PASSES] = { "directory passes", VFS_MAX_PASSES,
		"the duplicate detector is off", RK(DK_DUPLICATE) | RK(DK_SKIPPED) },
	[VL_PASS_OFFSETS] = { "directory offsets in a pass", VFS_MAX_PASS_OFFSETS,
		"the duplicate detector is off", RK(DK_DUPLICATE) | RK(DK_SKIPPED) },
	[VL_LDEDGES] = { "lock dependencies", VFS_MAX_LDEDGES,
		"lockdep is off", RK(DK_LOCKORDER) },
	[VL_LDSEEN] = { "lock-order reports", VFS_MAX_LDSEEN,
		"lockdep is off", RK(DK_LOCKORDER) | RK(DK_RULE) },
	[VL_LDDEAD] = { "deadlocks", VFS_MAX_LDDEAD,
		"the deadlock detector is off", RK(DK_DEADLOCK) },
	[VL_LINKS] = { "links in a lock chain", VFS_MAX_LINKS,
		"deadlock and lock-order reports show only the first links", 0 },
	[VL_HELD] = { "locks held by one thread", VFS_MAX_HELD,
		"lockdep is off", RK(DK_LOCKORDER) | RK(DK_RULE) },
	[VL_FNSTACK] = { "nested kernel functions", VFS_MAX_FNSTACK,
		"the trace's function of a lock is unreliable", 0 },
};

const char *vfs_limit_name(int limit)
{
	return limit > VL_NONE && limit < VL__COUNT ? limits[limit].name : "?";
}

int vfs_limit_value(int limit)
{
	return limit > VL_NONE && limit < VL__COUNT ? limits[limit].value : 0;
}

void detect_overflow(struct vfs_world *w, int limit)
{
	struct vfs_detect *d = &w->det;
	if (d->overflowed & RK(limit))
		return;
	d->overflowed |= RK(limit);
	d->overflow_step[limit] = w->step;
}

bool detect_on_slow(const struct vfs_detect *d, int kind)
{
	for (uint32_t m = d->overflowed; m; m &= m - 1)
		if (limits[__builtin_ctz(m)].kinds & RK(kind))
			return false;
	return true;
}

int vfs_verdict_refused(const struct vfs_world *w, int kind)
{
	int first = VL_NONE;
	for (int l = VL_NONE + 1; l < VL__COUNT; l++)
		if ((w->det.overflowed & RK(l)) && (limits[l].kinds & RK(kind)) &&
		    (first == VL_NONE ||
		     w->det.overflow_step[l] < w->det.overflow_step[first]))
			first = l;
	return first;
}

void vfs_overflow_text(const struct vfs_world *w, int limit, char *buf, size_t n)
{
	snprintf(buf, n, "vfsim: too many %s (limit %d): %s from step %d",
		 vfs_limit_name(limit), vfs_limit_value(limit),
		 limit > VL_NONE && limit < VL__COUNT ? limits[limit].off : "?",
		 w->det.overflow_step[limit]);
}

void vfs_limits_text(uint32_t mask, char *buf, size_t n)
{
	size_t o = 0;
	if (n)
		buf[0] = 0;
	for (int l = VL_NONE + 1; l < VL__COUNT && o < n; l++)
		if (mask & RK(l)) {
			int r = snprintf(buf + o, n - o, "%stoo many %s (limit %d)",
					 o ? ", " : "", vfs_limit_name(l),
					 vfs_limit_value(l));
			if (r < 0)
				break;
			o += (size_t)r;
		}
}

bool detect_reserve(struct vfs_detect *d, const struct vfs_detect *s)
{
	return world_grow((void **)&d->shadows, &d->shadows_cap, s->nshadows,
			  sizeof *d->shadows) &&
	       world_grow((void **)&d->lockclocks, &d->lockclocks_cap,
			  s->nlockclocks, sizeof *d->lockclocks) &&
	       world_grow((void **)&d->passes, &d->passes_cap, s->npasses,
			  sizeof *d->passes);
}

void detect_free(struct vfs_detect *d)
{
	free(d->shadows);
	free(d->lockclocks);
	free(d->passes);
	d->shadows = NULL;
	d->lockclocks = NULL;
	d->passes = NULL;
	d->shadows_cap = d->lockclocks_cap = d->passes_cap = 0;
	d->nshadows = d->nlockclocks = d->npasses = 0;
}

bool detect_copy(struct vfs_detect *d, const struct vfs_detect *s, int nthreads)
{
	bool ok = detect_reserve(d, s);
	d->enabled = s->enabled;
	d->no_clocks = s->no_clocks;
	d->nshadows = ok ? s->nshadows : 0;
	d->nlockclocks = ok ? s->nlockclocks : 0;
	d->npasses = ok ? s->npasses : 0;
	d->nreports = s->nreports;
	memcpy(d->counts, s->counts, sizeof d->counts);
	memcpy(d->race_fields, s->race_fields, sizeof d->race_fields);
	d->open_step = s->open_step;
	d->open_races = s->open_races;
	d->overflowed = s->overflowed;
	d->told = s->told;
	memcpy(d->overflow_step, s->overflow_step, sizeof d->overflow_step);
	memcpy(d->vc, s->vc, sizeof d->vc[0] * (size_t)nthreads);
	if (d->nshadows)
		memcpy(d->shadows, s->shadows, sizeof d->shadows[0] * d->nshadows);
	if (d->nlockclocks)
		memcpy(d->lockclocks, s->lockclocks,
		       sizeof d->lockclocks[0] * d->nlockclocks);
	if (d->npasses)
		memcpy(d->passes, s->passes, sizeof d->passes[0] * d->npasses);
	memcpy(d->reports, s->reports, sizeof d->reports[0] * s->nreports);
	memcpy(&d->ld, &s->ld, offsetof(struct vfs_lockdep, edges));
	memcpy(d->ld.edges, s->ld.edges, sizeof d->ld.edges[0] * s->ld.nedges);
	return ok;
}

/* Room for one more entry in a detector table at N of its bound MAX
 * (false: the bound is reached, or no memory for it: either way the
 * detector that needed it is turned off, loudly, as at the bound). */
static bool detect_room(struct vfs_world *w, void **v, int32_t *cap, int n,
			int max, size_t elem, int limit)
{
	if (n >= max || !world_grow(v, cap, n + 1, elem)) {
		if (n < max)
			w->oom = 1;
		detect_overflow(w, limit);
		return false;
	}
	return true;
}

/* ---- data races ---- */

/* Only the first nthreads entries: a thread's entry is 0 in every clock
 * until the thread exists (its own row is cleared when it is made). */
static void vc_join(vfs_vclock d, const vfs_vclock s, int n)
{
	for (int i = 0; i < n; i++)
		if (s[i] > d[i])
			d[i] = s[i];
}

static struct vfs_lockclock *lockclock(struct vfs_world *w, vfs_lid_t lid)
{
	struct vfs_detect *d = &w->det;
	for (int i = 0; i < d->nlockclocks; i++)
		if (d->lockclocks[i].lock == lid)
			return &d->lockclocks[i];
	if (!detect_room(w, (void **)&d->lockclocks, &d->lockclocks_cap,
			 d->nlockclocks, VFS_MAX_LOCKCLOCKS, sizeof *d->lockclocks,
			 VL_LOCKCLOCKS))
		return NULL;
	struct vfs_lockclock *l = &d->lockclocks[d->nlockclocks++];
	memset(l, 0, sizeof *l);
	l->lock = lid;
	l->used = 1;
	return l;
}

static struct vfs_shadow *shadow(struct vfs_world *w, int field, int obj)
{
	struct vfs_detect *d = &w->det;
	for (int i = 0; i < d->nshadows; i++)
		if (d->shadows[i].field == field && d->shadows[i].obj == obj)
			return &d->shadows[i];
	if (!detect_room(w, (void **)&d->shadows, &d->shadows_cap, d->nshadows,
			 VFS_MAX_SHADOWS, sizeof *d->shadows, VL_SHADOWS))
		return NULL;
	struct vfs_shadow *s = &d->shadows[d->nshadows++];
	memset(s, 0, sizeof *s);
	s->field = (uint8_t)field;
	s->obj = obj;
	s->used = 1;
	return s;
}

void vfs_detect_forget(struct vfs_world *w, int lidkind, int idx)
{
	struct vfs_detect *d = &w->det;
	vfs_lid_t lid = VFS_LID(lidkind, idx);
	/* an inode slot's dentry goes too: its d_seq clock (LID_DSEQ) */
	vfs_lid_t dseq = lidkind == LID_INODE ? VFS_LID(LID_DSEQ, idx) : lid;
	/* (in place: the explorer names shadows by their index) */
	for (int i = 0; i < d->nlockclocks; i++)
		if (d->lockclocks[i].lock == lid || d->lockclocks[i].lock == dseq) {
			memset(d->lockclocks[i].w, 0, sizeof d->lockclocks[i].w);
			memset(d->lockclocks[i].r, 0, sizeof d->lockclocks[i].r);
		}
	if (lidkind != LID_INODE && lidkind != LID_FILE_POS)
		return;
	bool inode = lidkind == LID_INODE;      /* else a struct file's slot */
	for (int i = 0; i < d->nshadows; i++) {
		struct vfs_shadow *sh = &d->shadows[i];
		int slot = vfs_ufield_slot(w, sh->field);   /* a declared one */
		bool mine = slot >= 0 ? w->kdefs->ufields[slot].obj == (inode ? KO_INODE : KO_FILE) :
			    inode ? sh->field == FLD_DIR || sh->field == FLD_SIZE ||
				    sh->field == FLD_DATA :
			    sh->field == FLD_F_POS || sh->field == FLD_CURSOR ||
			    sh->field == FLD_F_COUNT;
		if (sh->obj == idx && mine) {
			memset(&sh->w, 0, sizeof sh->w);
			memset(sh->r, 0, sizeof sh->r);
		}
	}
}

static void describe(const struct vfs_world *w, const struct vfs_access *a,
		     char *buf, size_t n)
{
	char th[32], ln[VFS_PATH_MAX + 32];
	size_t o;
	vfs_thread_name(w, a->tid, th, sizeof th);
	o = (size_t)snprintf(buf, n, "step %d %s %s %s", a->step, th,
			     vfs_fn_name(a->fn), a->write ? "write" : "read");
	if (o >= n)
		return;
	if (!a->nlocks) {
		snprintf(buf + o, n - o, " (no locks held)");
		return;
	}
	o += (size_t)snprintf(buf + o, n - o, " (holding ");
	for (int i = 0; i < a->nlocks && o < n; i++) {
		vfs_lock_name(w, a->locks[i], ln, sizeof ln);
		o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? ", " : "", ln);
	}
	if (o < n)
		snprintf(buf + o, n - o, ")");
}

static struct vfs_report *add_report(struct vfs_world *w, int kind)
{
	struct vfs_detect *d = &w->det;
	d->counts[kind]++;
	if (d->nreports >= VFS_MAX_REPORTS)
		return NULL;
	struct vfs_report *r = &d->reports[d->nreports++];
	memset(r, 0, sizeof *r);
	r->kind = (uint8_t)kind;
	return r;
}

static bool already(const struct vfs_world *w, int kind, int field, int obj,
		    const struct vfs_access *a, const struct vfs_access *b)
{
	for (int i = 0; i < w->det.nreports; i++) {
		const struct vfs_report *r = &w->det.reports[i];
		if (r->kind == kind && r->field == field && r->obj == obj &&
		    r->a.tid == a->tid && r->b.tid == b->tid &&
		    r->a.fn == a->fn && r->b.fn == b->fn &&
		    r->a.write == a->write && r->b.write == b->write)
			return true;
	}
	return false;
}

static void race(struct vfs_world *w, const struct vfs_event *ev,
		 const struct vfs_access *a, const struct vfs_access *b)
{
	if (ev->field < FLD__COUNT)
		w->det.race_fields[ev->field]++;
	if (a->step <= w->det.open_step)
		w->det.open_races++;
	if (already(w, DK_RACE, ev->field, ev->obj, a, b)) {
		w->det.counts[DK_RACE]++;
		return;
	}
	struct vfs_report *r = add_report(w, DK_RACE);
	if (!r)
		return;
	char obj[VFS_PATH_MAX + 16];
	r->field = ev->field;
	r->obj = (int32_t)ev->obj;
	r->a = *a;
	r->b = *b;
	vfs_obj_name(w, ev->objkind, ev->obj, obj, sizeof obj);
	snprintf(r->text, sizeof r->text, "race on %s of %s", vfs_field_name(ev->field),
		 obj);
}

/*
 * The lockless path walk (fs/namei.c: RCU mode, link_path_walk under
 * rcu_read_lock) reads a directory's entries without i_rwsem: each step
 * samples the dentry's d_seq (and rename_lock) and validates it after, and
 * a walk that met a concurrent change retries or drops to ref-walk.  So it
 * never races with the writers (d_alloc, d_delete, d_move run under the
 * parent's i_rwsem and bump d_seq), and what it found orders it after the
 * write that made it: write_seqcount_end is a release, a validated read an
 * acquire.  The detector keeps a clock per dentry for its d_seq (LID_DSEQ):
 * adding, removing or moving an entry releases into the entry's clock, a
 * walk acquires from the clocks of the dentries on its path.  Calls the
 * shell ran one after another are ordered only that way: `A: open /a` is
 * not ordered after `B: rmdir /b`, which it did not need to see.
 */
static void on_dseq(struct vfs_world *w, const struct vfs_event *ev)
{
	struct vfs_detect *d = &w->det;
	int t = ev->tid;
	if (ev->dir < 0)
		return;
	if (ev->op == OP_WRITE) {       /* write_seqcount_end(&dentry->d_seq) */
		struct vfs_lockclock *l = lockclock(w, VFS_LID(LID_DSEQ, ev->dir));
		if (!l)
			return;         /* full: the race detector is off */
		vc_join(l->w, d->vc[t], w->nthreads);
		d->vc[t][t]++;
		return;
	}
	/* every dentry of the path, from the one reached up to the root */
	for (int i = ev->dir; i >= 0; i = w->inodes[i].parent)
		for (int k = 0; k < d->nlockclocks; k++)
			if (d->lockclocks[k].lock == VFS_LID(LID_DSEQ, i))
				vc_join(d->vc[t], d->lockclocks[k].w, w->nthreads);
}

static void on_access(struct vfs_world *w, const struct vfs_event *ev)
{
	struct vfs_detect *d = &w->det;
	int t = ev->tid;
	bool write = ev->op == OP_WRITE;

	if (ev->rcu) {
		on_dseq(w, ev);
		return;
	}
	if (!vfs_access_checked(ev))
		return;
	struct vfs_shadow *s = shadow(w, ev->field, ev->obj);
	if (!s)
		return;         /* full: the race detector is off */
	const struct vfs_thread *th = &w->threads[t];
	struct vfs_access cur = { .step = ev->step, .tid = (int8_t)t,
		.fn = ev->fn, .write = write, .clock = d->vc[t][t] };
	for (int i = 0; i < th->nheld && cur.nlocks < 4; i++)
		cur.locks[cur.nlocks++] = th->held[i].lock;

	if (s->w.step && s->w.tid != t && s->w.clock > d->vc[t][s->w.tid])
		race(w, ev, &s->w, &cur);
	if (write) {
		for (int u = 0; u < w->nthreads; u++)
			if (u != t && s->r[u].step && s->r[u].clock > d->vc[t][u])
				race(w, ev, &s->r[u], &cur);
		s->w = cur;
		/* reads are only ever recorded for existing threads */
		memset(s->r, 0, sizeof s->r[0] * (size_t)w->nthreads);
		if (ev->field == FLD_DIR && ev->objkind == VOK_INODE)
			on_dseq(w, ev);         /* write_seqcount_end */
	} else {
		s->r[t] = cur;
	}
}

static void on_lock(struct vfs_world *w, const struct vfs_event *ev)
{
	struct vfs_detect *d = &w->det;
	struct vfs_lockclock *l = lockclock(w, ev->lock);
	int t = ev->tid;
	if (!l)
		return;
	switch (ev->op) {
	case OP_ACQUIRE:
		vc_join(d->vc[t], l->w, w->nthreads);
		if (ev->mode != M_READ)
			vc_join(d->vc[t], l->r, w->nthreads);
		break;
	case OP_RELEASE:
		vc_join(ev->mode == M_READ ? l->r : l->w, d->vc[t], w->nthreads);
		d->vc[t][t]++;
		break;
	case OP_DOWNGRADE:      /* a write release, still holding for read */
		vc_join(l->w, d->vc[t], w->nthreads);
		d->vc[t][t]++;
		break;
	}
}

/* ---- what each open directory handed out ---- */

/* (inline: every entry handed out finds its pass) */
static inline struct vfs_pass *pass_of(struct vfs_world *w, int file,
				       bool create)
{
	struct vfs_detect *d = &w->det;
	int id = w->files[file].id;
	objs_touch(w, TOUCH_PASSES);    /* (every caller writes the pass) */
	for (int i = 0; i < d->npasses; i++)
		if (d->passes[i].file == file && d->passes[i].epoch == id)
			return &d->passes[i];
	if (!create)
		return NULL;
	int slot = -1;
	for (int i = 0; i < d->npasses && slot < 0; i++)
		if (w->files[d->passes[i].file].kind == FK_NONE ||
		    w->files[d->passes[i].file].id != d->passes[i].epoch)
			slot = i;
	if (slot < 0) {
		if (!detect_room(w, (void **)&d->passes, &d->passes_cap,
				 d->npasses, VFS_MAX_PASSES, sizeof *d->passes,
				 VL_PASSES))
			return NULL;
		slot = d->npasses++;
	}
	struct vfs_pass *p = &d->passes[slot];
	memset(p, 0, sizeof *p);
	p->used = 1;
	p->file = file;
	p->epoch = id;          /* the file's id: slots are reused */
	return p;
}

/* Make offsets below END (at most the table) valid and not yet handed out:
 * a copy of the world (explore_copy.c xs_fcopy) takes only those below hi.
 * (inline: every entry handed out extends its pass) */
static inline void pass_extend(struct vfs_pass *p, int64_t end)
{
	if (end > VFS_MAX_PASS_OFFSETS)
		end = VFS_MAX_PASS_OFFSETS;
	if (end <= p->hi)
		return;
	if (end == p->hi + 1) {         /* (the next entry: most calls) */
		p->by[p->hi] = 0;
		p->at[p->hi] = 0;
	} else {
		memset(p->by + p->hi, 0, (size_t)(end - p->hi) * sizeof p->by[0]);
		memset(p->at + p->hi, 0, (size_t)(end - p->hi) * sizeof p->at[0]);
	}
	p->hi = (int16_t)end;
}

/* The first offset below END that P has not handed out (by[] 0), or END:
 * eight offsets at a time, as most below an entry were handed out. */
static int64_t pass_first_open(const struct vfs_pass *p, int64_t end)
{
	int64_t o = 0;
	for (; o + 8 <= end; o += 8) {
		uint64_t v;
		memcpy(&v, p->by + o, sizeof v);
		if ((v - UINT64_C(0x0101010101010101)) & ~v &
		    UINT64_C(0x8080808080808080))
			break;          /* a zero byte among them */
	}
	while (o < end && p->by[o])
		o++;
	return o;
}

static void entry_label(const struct vfs_world *w, int dir, int64_t off,
			char *buf, size_t n)
{
	if (off == 0) { snprintf(buf, n, "."); return; }
	if (off == 1) { snprintf(buf, n, ".."); return; }
	for (int c = w->inodes[dir].first_child; c >= 0; c = w->inodes[c].next_sibling)
		if (w->inodes[c].d_off == off) {
			snprintf(buf, n, "%s", w->inodes[c].name);
			return;
		}
	snprintf(buf, n, "offset %lld", (long long)off);
}

static void on_emit(struct vfs_world *w, const struct vfs_event *ev)
{
	int file = ev->file, dir = ev->dir;
	int64_t off = ev->value;
	if (file < 0 || off < 0)
		return;
	if (off >= VFS_MAX_PASS_OFFSETS) {
		detect_overflow(w, VL_PASS_OFFSETS);
		return;
	}
	struct vfs_pass *p = pass_of(w, file, false);
	if (!p) {
		/* a new pass begins where this getdents began (ctx->pos):
		 * what lies before was not skipped by it */
		p = pass_of(w, file, true);
		if (!p)
			return;
		pass_extend(p, ev->ret);
		for (int64_t o = 0; o < ev->ret && o < VFS_MAX_PASS_OFFSETS; o++)
			p->by[o] = -1;
	}
	pass_extend(p, off + 1);
	char th1[32], th2[32], name[VFS_NAME_MAX + 16], dn[VFS_PATH_MAX];
	if (p->by[off] > 0) {
		struct vfs_report *r = add_report(w, DK_DUPLICATE);
		if (r) {
			r->obj = file;
			r->entry = (int32_t)off;
			r->a.tid = (int8_t)(p->by[off] - 1);
			r->a.step = p->at[off];
			r->b.tid = ev->tid;
			r->b.step = ev->step;
			r->b.fn = ev->fn;
			vfs_thread_name(w, r->a.tid, th1, sizeof th1);
			vfs_thread_name(w, r->b.tid, th2, sizeof th2);
			entry_label(w, dir, off, name, sizeof name);
			vfs_inode_path(w, dir, dn, sizeof dn);
			snprintf(r->text, sizeof r->text,
				 "duplicate entry '%s' of %s from file#%d in one pass: "
				 "to %s at step %d and to %s at step %d", name, dn,
				 w->files[file].id, th1, r->a.step, th2, r->b.step);
			rules_duplicate(w, ev, r->text + strlen("duplicate "));
		}
	} else {
		p->by[off] = (int8_t)(ev->tid + 1);
		p->at[off] = ev->step;
	}
	/* anything before this offset, present and not handed out: skipped */
	for (int64_t o = pass_first_open(p, off); o < off; o++) {
		if (p->by[o])
			continue;
		bool exists = o < 2;
		for (int c = w->inodes[dir].first_child; c >= 0 && !exists;
		     c = w->inodes[c].next_sibling)
			exists = w->inodes[c].d_off == o;
		if (!exists)
			continue;
		p->by[o] = -1;  /* reported once */
		struct vfs_report *r = add_report(w, DK_SKIPPED);
		if (!r)
			continue;
		r->obj = file;
		r->entry = (int32_t)o;
		r->b.tid = ev->tid;
		r->b.step = ev->step;
		vfs_thread_name(w, ev->tid, th1, sizeof th1);
		entry_label(w, dir, o, name, sizeof name);
		vfs_inode_path(w, dir, dn, sizeof dn);
		snprintf(r->text, sizeof r->text,
			 "entry '%s' of %s skipped by file#%d: %s was handed "
			 "offset %lld first", name, dn, w->files[file].id, th1,
			 (long long)off);
	}
}

static bool is_llseek_fn(int fn)
{
	switch (fn) {
	case VFN_generic_file_llseek: case VFN_ext4_dir_llseek:
	case VFN_dcache_dir_lseek: case VFN_offset_dir_llseek:
	case VFN_ceph_dir_llseek: case VFN_ovl_dir_llseek: case VFN_default_llseek:
		return true;
	}
	return false;
}

/* (asked at every function entry: a table, made once; once made, one
 * load says so, without a call of pthread_once) */
uint8_t vfs_iterator_fn[256];
uint8_t vfs_iterator_made;
static pthread_once_t iterator_once = PTHREAD_ONCE_INIT;

static void iterator_init(void)
{
	for (int i = 0; i < vfs_nfstypes; i++) {
		vfs_iterator_fn[vfs_fstypes[i].ops.iter_fn] = 1;
		if (vfs_fstypes[i].later_knob)
			vfs_iterator_fn[vfs_fstypes[i].later.iter_fn] = 1;
	}
	__atomic_store_n(&vfs_iterator_made, 1, __ATOMIC_RELEASE);
}

const uint8_t *vfs_iterator_fns(void)
{
	if (!__atomic_load_n(&vfs_iterator_made, __ATOMIC_ACQUIRE))
		pthread_once(&iterator_once, iterator_init);
	return vfs_iterator_fn;
}

bool vfs_fn_is_iterator(int fn)
{
	return fn_is_iterator(fn);
}

/* A seek starts a new pass: whatever came before may come again. */
static void on_seek(struct vfs_world *w, const struct vfs_event *ev)
{
	struct vfs_pass *p = pass_of(w, ev->obj, false);
	if (!p)
		return;
	p->hi = 0;
	pass_extend(p, ev->value);
	/* offsets below the new position are not "skipped" in this pass */
	for (int64_t o = 0; o < ev->value && o < VFS_MAX_PASS_OFFSETS; o++)
		p->by[o] = -1;
}

static void on_enter(struct vfs_world *w, const struct vfs_event *ev)
{
	if (ev->dir < 0 || !fn_is_iterator(ev->fn) || !w->inodes[ev->dir].dead)
		return;
	struct vfs_report *r = add_report(w, DK_DEADDIR);
	if (!r)
		return;
	char th[32], dn[VFS_PATH_MAX];
	vfs_thread_name(w, ev->tid, th, sizeof th);
	vfs_inode_path(w, ev->dir, dn, sizeof dn);
	r->obj = ev->dir;
	r->b.tid = ev->tid;
	r->b.step = ev->step;
	r->b.fn = ev->fn;
	snprintf(r->text, sizeof r->text,
		 "%s runs %s on dead directory %s (S_DEAD: rmdir'ed while the "
		 "lock was dropped, and nobody re-checked IS_DEADDIR)", th,
		 vfs_fn_name(ev->fn), dn);
}

/* FN is the script's function in vfs_llseek's place ('hook vfs_llseek'):
 * its write of f_pos is a seek, as the kernel's */
static bool seek_hook_fn(const struct vfs_world *w, int fn)
{
	int k = fn >= VFN__COUNT ? vfs_hook_get(w, VHOOK_LLSEEK) : -1;
	return k >= 0 && vfs_kfn_get(w, k)->fn == fn;
}

/* (the events but a search's common ones: vfs_detect_event) */
static __attribute__((noinline)) void detect_event(struct vfs_world *w,
						   const struct vfs_event *ev)
{
	/* a detector whose table filled stays off (core/limits.h) */
	bool clocks = !w->det.no_clocks && detect_on(&w->det, DK_RACE);
	bool passes = detect_on(&w->det, DK_DUPLICATE);
	switch (ev->op) {
	case OP_READ:
	case OP_WRITE:
		if (ev->op == OP_WRITE && ev->field == FLD_F_POS && passes &&
		    (is_llseek_fn(ev->fn) || seek_hook_fn(w, ev->fn)))
			on_seek(w, ev);
		if (clocks)
			on_access(w, ev);
		if (w->kdefs && w->kdefs->nrules)       /* (a call only then) */
			rules_access(w, ev);    /* rules.c: the script's invariants */
		break;
	case OP_ACQUIRE: case OP_RELEASE: case OP_DOWNGRADE:
		if (clocks)
			on_lock(w, ev);
		if (ev->op == OP_ACQUIRE)
			lockdep_event(w, ev);   /* lockdep.c */
		break;
	case OP_BLOCK: case OP_WAKE:
		lockdep_event(w, ev);           /* lockdep.c, deadlock.c */
		break;
	case OP_EMIT:
		if (passes)
			on_emit(w, ev);
		break;
	case OP_ENTER:
		on_enter(w, ev);
		break;
	case OP_NOTE:
		if (ev->fn == VFN_copy_process && ev->other >= 0 &&
		    !w->det.no_clocks) {
			struct vfs_detect *d = &w->det;
			vc_join(d->vc[ev->other], d->vc[ev->tid], w->nthreads);
			d->vc[ev->other][ev->other]++;
			d->vc[ev->tid][ev->tid]++;
		}
		break;
	}
}

void vfs_detect_event(struct vfs_world *w, const struct vfs_event *ev)
{
	/* A search's copies (det.no_clocks) hand over acquires and entries
	 * handed out mostly: an acquire is lockdep's alone, and nothing to
	 * it unless the thread holds another lock or was handed this one on
	 * a wake (lockdep_event's own first tests); an entry, the duplicate
	 * and skip check's.  (no call but theirs) */
	if (w->det.no_clocks) {
		if (ev->op == OP_ACQUIRE) {
			if (lockdep_acquire_matters(w, ev))
				lockdep_event(w, ev);
			return;
		}
		if (ev->op == OP_EMIT) {
			if (detect_on(&w->det, DK_DUPLICATE))
				on_emit(w, ev);
			return;
		}
	}
	detect_event(w, ev);
}

int vfs_report_count(const struct vfs_world *w, int kind, int field)
{
	if (field == FLD_NONE)
		return (int)w->det.counts[kind];
	if (kind == DK_RACE && field > FLD_NONE && field < FLD__COUNT)
		return (int)w->det.race_fields[field];
	int n = 0;
	for (int i = 0; i < w->det.nreports; i++)
		n += w->det.reports[i].kind == kind && w->det.reports[i].field == field;
	return n;
}

void vfs_report_text(const struct vfs_world *w, const struct vfs_report *r,
		     char *buf, size_t n)
{
	if (r->kind != DK_RACE) {
		snprintf(buf, n, "%s", r->text);
		return;
	}
	char da[200], db[200];
	describe(w, &r->a, da, sizeof da);
	describe(w, &r->b, db, sizeof db);
	snprintf(buf, n, "%s: %s, and %s, not ordered by any lock", r->text, da, db);
}
