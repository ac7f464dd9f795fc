/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sched.c - running steps: the resume points' table, sub-paths, finishing
 * calls, and the scheduler's choice (rr, fifo, random SEED).
 */
#include "internal.h"

const struct vfs_rp_desc vfs_rps[RP__COUNT] = {
#define P_DESC(func, step, fn, res, en, in) \
	[RP(func, step)] = { #func ":" #step, VFN_##fn, res, en, in, func },
	VFS_RP_LIST(P_DESC)
#undef P_DESC
};

void call_sub(struct vx *x, int rp, int ret_rp)
{
	struct vfs_frame *f = &x->t->f;
	if (f->depth < sizeof f->ret_pc / sizeof f->ret_pc[0])
		f->ret_pc[f->depth++] = (uint16_t)ret_rp;
	go(x, rp);
}

void ret_sub(struct vx *x)
{
	struct vfs_frame *f = &x->t->f;
	int rp = f->depth ? f->ret_pc[--f->depth] : RP_IDLE;
	go(x, rp);
	if (vfs_rps[rp].inline_ret)
		run_at(x, rp);
}

void get_pos_sub(struct vx *x, int ret_rp)
{
	/* before v3.14 there is no f_pos lock: a plain fdget */
	x->t->f.pos_get = x->w->k.fpos_lock != FPOS_NONE;
	if (!x->t->f.pos_get && x->w->k.pidfd_getfd)
		note(x, VFN_fdget, "fpos-lock none: no f_pos lock at all, although "
		     "pidfd_getfd exists (a kernel that never was)");
	call_sub(x, x->t->f.pos_get ? RP(fdget_pos, enter) : RP(fdget, enter),
		 ret_rp);
}

void put_pos_sub(struct vx *x, int ret_rp)
{
	call_sub(x, x->t->f.pos_get ? RP(fdput_pos, unlock) : RP(fdput, enter),
		 ret_rp);
}

void sys_return(struct vx *x, int64_t ret)
{
	struct vfs_thread *t = x->t;
	struct vfs_world *w = x->w;
	struct vfs_callrec *r = &t->rec;

	fn_exit(x, vfs_call_fn(w, &r->call), ret);
	t->nfn = 0;
	r->ret = ret;
	r->done = 1;
	r->end_step = w->step;
	w->last_done_tid = x->tid;
	if (vfs_sys[r->call.sys].flags & VSYS_DIRENTS)
		w->last_gd_tid = x->tid;
	w->stats.calls++;
	w->stats.calls_by_sys[r->call.sys]++;
	t->f.pc = RP_IDLE;
	t->f.depth = 0;
	if (t->state == TS_RUNNING)
		t->state = TS_IDLE;
	x->completed = true;
}

int vfs_submit(struct vfs_world *w, int tid, const struct vfs_call *c)
{
	/* (a slot not made yet: as a free one) */
	if (tid < 0 || tid >= w->nthreads)
		return -VE_SRCH;
	struct vfs_thread *t = &w->threads[tid];
	if (t->state == TS_FREE || t->state == TS_DEAD)
		return -VE_SRCH;
	if (t->npending >= VFS_MAX_PENDING)
		return -VE_AGAIN;
	int slot = (t->pend_head + t->npending) % VFS_MAX_PENDING;
	t->pending[slot] = *c;
	t->pending[slot].seq = ++w->call_seq;
	t->npending++;
	return t->pending[slot].seq;
}

bool vfs_has_work(const struct vfs_world *w, int tid)
{
	if (tid < 0 || tid >= w->nthreads)
		return false;
	const struct vfs_thread *t = &w->threads[tid];
	if (t->state == TS_FREE || t->state == TS_DEAD)
		return false;
	return t->f.pc != RP_IDLE || t->npending > 0;
}

bool vfs_in_call(const struct vfs_world *w, int tid)
{
	return tid >= 0 && tid < w->nthreads && w->threads[tid].f.pc != RP_IDLE;
}

/* the accessors vfs_thread.h declares (core/accessors.tbl), a field each */
VFS_PROC_FIELDS(VFS_ACCESSOR_DEF)
VFS_THREAD_FIELDS(VFS_ACCESSOR_DEF)
VFS_CALL_FIELDS(VFS_ACCESSOR_DEF)

const struct vfs_call *vfs_thread_call(const struct vfs_world *w, int tid)
{
	return &w->threads[tid].rec.call;
}

int vfs_thread_frame_fn(const struct vfs_world *w, int tid, int i)
{
	return w->threads[tid].fnstack[i];
}

bool vfs_thread_held(const struct vfs_world *w, int tid, int i,
		     struct vfs_held_lock *h)
{
	const struct vfs_thread *t = &w->threads[tid];
	if (i < 0 || i >= t->nheld)
		return false;
	const struct vfs_held *e = &t->held[i];
	h->lock = e->lock;
	h->mode = e->mode;
	h->fn = e->fn;
	h->returned = !(e->frame < t->nfn && t->fnstack[e->frame] == e->fn);
	h->frame = e->frame;
	if (h->returned) {
		int f = (e->frame < t->nfn ? e->frame : t->nfn) - 1;
		h->frame = f < 0 ? 0 : f;
	}
	return true;
}

bool vfs_runnable(const struct vfs_world *w, int tid)
{
	return vfs_has_work(w, tid) && w->threads[tid].state != TS_BLOCKED;
}

int vfs_nrunnable(const struct vfs_world *w)
{
	int n = 0;
	for (int i = 0; i < w->nthreads; i++)
		n += vfs_runnable(w, i);
	return n;
}

bool vfs_all_blocked(const struct vfs_world *w)
{
	int blocked = 0;
	for (int i = 0; i < w->nthreads; i++) {
		if (vfs_runnable(w, i))
			return false;
		blocked += w->threads[i].state == TS_BLOCKED;
	}
	return blocked > 0;
}

/* Some thread is inside a call (its frame may hold object indices). */
static bool calls_in_progress(const struct vfs_world *w)
{
	for (int i = 0; i < w->nthreads; i++)
		if (w->threads[i].f.pc != RP_IDLE)
			return true;
	return false;
}

/* (inline: vfs_step_noframes is a search's one call per step) */
static inline __attribute__((always_inline)) bool
step(struct vfs_world *w, int tid, const struct vfs_sink *sink, bool no_frames)
{
	/* (a world a copy out of memory left without its threads, w->oom
	 * set: the searches step it and then look at w->oom) */
	if (__builtin_expect(tid >= w->nthreads, 0))
		return false;
	struct vfs_thread *t = &w->threads[tid];
	struct vx x = { .w = w, .t = t, .tid = tid, .sink = sink,
		.no_frames = no_frames };

	w->step++;
	t->steps++;
	/* (between calls: do_syscall_64 enters the next queued call) */
	run_at(&x, t->f.pc);
	if (x.completed && w->ndying && !calls_in_progress(w))
		inode_evict_unused(w);
	return x.completed;
}

bool vfs_step(struct vfs_world *w, int tid, const struct vfs_sink *sink)
{
	return step(w, tid, sink, false);
}

bool vfs_step_noframes(struct vfs_world *w, int tid, const struct vfs_sink *sink)
{
	return step(w, tid, sink, true);
}

int vfs_next_fn(const struct vfs_world *w, int tid, bool *enters)
{
	const struct vfs_thread *t = &w->threads[tid];
	const struct vfs_rp_desc *s;
	bool dummy;
	if (!enters)
		enters = &dummy;
	*enters = false;
	if (t->state == TS_BLOCKED)
		return t->nfn ? t->fnstack[t->nfn - 1] : VFN_none;
	s = &vfs_rps[t->f.pc == RP_IDLE && t->npending ?
		     RP(do_syscall_64, enter) : t->f.pc];
	int fn = s->resolve ? s->resolve(w, t) : s->fn;
	/* a rp that goes on in the function the thread is in (an era
	 * without the helper the rp is named after) enters nothing */
	*enters = s->enters && !(t->nfn && t->fnstack[t->nfn - 1] == fn);
	return fn;
}

const char *vfs_resume_point_name(const struct vfs_world *w, int tid)
{
	const struct vfs_thread *t = &w->threads[tid];
	return t->f.pc == RP(defined_step, step) ?   /* the definition's step */
	       kfn_point_name(w, kfn_point(w, t)) : vfs_rps[t->f.pc].name;
}

int vfs_thread_resume_point(const struct vfs_world *w, int tid,
			    const void **frame, size_t *size)
{
	const struct vfs_frame *f = &w->threads[tid].f;
	if (frame) {
		*frame = f;
		/* a defined function's part (core/defined.c) decides nothing
		 * once none runs: the locks it took are in held[], its values
		 * die with it (a hook's return is read in its last step; the
		 * declared fields' values are the world's ufv[UFV_CALL] row,
		 * which explore_state.c adds while one runs) */
		*size = !f->kfn.kdepth ? offsetof(struct vfs_frame, kfn) : sizeof *f;
	}
	return f->pc;
}

uint64_t xorshift64(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

int vfs_sched_pick(struct vfs_world *w)
{
	int n = w->nthreads, best = -1;
	if (!n)
		return -1;
	switch (w->sched) {
	case VSCHED_FIFO: {
		int32_t key = 0;
		for (int i = 0; i < n; i++) {
			if (!vfs_runnable(w, i))
				continue;
			const struct vfs_thread *t = &w->threads[i];
			int32_t k = t->f.pc != RP_IDLE ? w->call_started[i] :
				    t->pending[t->pend_head].seq;
			if (best < 0 || k < key) {
				best = i;
				key = k;
			}
		}
		return best;
	}
	case VSCHED_RANDOM: {
		int cnt = vfs_nrunnable(w);
		if (!cnt)
			return -1;
		int k = (int)(xorshift64(&w->rng) % (uint64_t)cnt);
		for (int i = 0; i < n; i++)
			if (vfs_runnable(w, i) && k-- == 0)
				return i;
		return -1;
	}
	default:
		for (int d = 1; d <= n; d++) {
			int i = (w->rr_last + d) % n;
			if (i < 0)
				i += n;
			if (vfs_runnable(w, i)) {
				w->rr_last = (int8_t)i;
				return i;
			}
		}
		return -1;
	}
}
