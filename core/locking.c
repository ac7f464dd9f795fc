/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * locking.c - mutex, rw_semaphore and spinlock (kernel/locking/).
 *
 * Waiters queue in FIFO order.  A lock is handed to the waiter by the
 * thread that releases it, so a woken thread resumes already holding it.
 * rw_semaphore: once anybody waits, new readers queue too (a waiting writer
 * holds back new readers); a writer at the head is woken alone; a reader at
 * the head wakes every waiting reader, skipping writers, as rwsem_mark_wake
 * does since v5.3 ("wake up almost all readers in wait queue"); before
 * v5.3 __rwsem_mark_wake granted the readers at the front of the queue
 * only, up to the first waiting writer.
 * (model) The kernel lets a free lock be stolen by a running task before a
 * handoff; vfsim treats the queue as strictly FIFO.
 */
#include "internal.h"

void lock_init(struct vfs_lock *l, int kind)
{
	l->kind = (uint8_t)kind;
	l->owner = -1;
	l->nreaders = 0;
	l->wait_head = l->wait_tail = -1;
}

/* The bit of rec.took for a lock of class CLS taken in MODE. */
static uint64_t took_bit(int cls, int mode)
{
	return UINT64_C(1) << (cls * 4 + mode);
}

static const struct vfs_lock idle_mutex = { LK_MUTEX, -1, 0, -1, -1 };

/* The d_update locks, one per inode slot, from the first that is taken
 * on: 0, or -VE_NOMEM. */
int dlocks_own(struct vfs_world *w)
{
	objs_touch(w, TOUCH_ILOCKS);
	if (w->ndlocks == w->ninodes)
		return 0;
	if (!world_grow((void **)&w->dlocks, &w->dlocks_cap, w->ninodes,
			sizeof *w->dlocks))
		return -VE_NOMEM;
	for (int i = w->ndlocks; i < w->ninodes; i++)
		lock_init(&w->dlocks[i], LK_MUTEX);
	w->ndlocks = w->ninodes;
	return 0;
}

/* The object a lock of each kind (VFS_LID_KIND) belongs to: the file's,
 * the inode's, the process's, or none (s_vfs_rename_mutex, d_seq): its
 * events' objkind, and what a write of it marks for the stateful search
 * (lock_wptr) */
static const uint8_t lock_objkind[16] = {
	[0] = VOK_GLOBAL, [LID_FILE_POS] = VOK_FILE,
	[LID_FILE_LOCK] = VOK_FILE, [LID_INODE] = VOK_INODE,
	[LID_RENAME] = VOK_GLOBAL, [LID_DSEQ] = VOK_GLOBAL,
	[LID_DENTRY] = VOK_INODE, [LID_EXEC] = VOK_PROC,
	[8] = VOK_GLOBAL, VOK_GLOBAL, VOK_GLOBAL, VOK_GLOBAL,
	VOK_GLOBAL, VOK_GLOBAL, VOK_GLOBAL, VOK_GLOBAL };

/* (inline here: every lock operation of a step finds its lock) */
static inline const struct vfs_lock *lock_of(const struct vfs_world *w,
					     vfs_lid_t lid)
{
	int idx = VFS_LID_IDX(lid);
	switch (VFS_LID_KIND(lid)) {
	case LID_FILE_POS:  return &w->files[idx].f_pos_lock;
	case LID_FILE_LOCK: return &w->files[idx].f_lock;
	case LID_INODE:     return &w->ilocks[idx];
	case LID_DENTRY:    /* (none taken yet: an idle one) */
		return idx < w->ndlocks ? &w->dlocks[idx] : &idle_mutex;
	case LID_EXEC:      return &w->procs[idx].exec_lock;
	default:            return &w->rename_mutex;
	}
}

const struct vfs_lock *lock_cptr(const struct vfs_world *w, vfs_lid_t lid)
{
	return lock_of(w, lid);
}

static inline struct vfs_lock *lock_wptr(struct vfs_world *w, vfs_lid_t lid)
{
	/* (the lock is written: its object's component marked; loads, no
	 * branch: plain stepping takes this path per lock operation) */
	static const uint8_t touch[VOK_PROC + 1] = { [VOK_INODE] = TOUCH_ILOCKS,
		[VOK_PROC] = TOUCH_PROCS };
	int ok = lock_objkind[VFS_LID_KIND(lid)];
	objs_touch(w, touch[ok]);
	w->touched_files |= (uint32_t)(ok == VOK_FILE) * touch_bit(VFS_LID_IDX(lid));
	return (struct vfs_lock *)lock_of(w, lid);
}

struct vfs_lock *lock_ptr(struct vfs_world *w, vfs_lid_t lid)
{
	return lock_wptr(w, lid);
}

/* (inline here: each acquire and release names its class) */
static inline int class_of(const struct vfs_world *w, vfs_lid_t lid)
{
	switch (VFS_LID_KIND(lid)) {
	case LID_FILE_POS:  return LC_F_POS_LOCK;
	case LID_FILE_LOCK: return LC_F_LOCK;
	case LID_INODE:
		return w->inodes[VFS_LID_IDX(lid)].type == IT_DIR ?
			LC_I_RWSEM_DIR : LC_I_RWSEM;
	case LID_EXEC:      return vfs_exec_locks[w->k.exec_lock].cls;
	case LID_DENTRY:    return LC_D_UPDATE;
	default:            return LC_RENAME_MUTEX;
	}
}

int lock_class(const struct vfs_world *w, vfs_lid_t lid)
{
	return class_of(w, lid);
}

int vfs_lock_class(const struct vfs_world *w, vfs_lid_t lid)
{
	return class_of(w, lid);
}

static void count_atomic(struct vfs_world *w, const struct vfs_thread *t)
{
	w->stats.atomics++;
	w->stats.atomics_by_sys[t->rec.call.sys]++;
}

static bool is_namei(int sys)
{
	return sys == SYS_MKDIR || sys == SYS_UNLINK || sys == SYS_RMDIR ||
	       sys == SYS_RENAME || sys == SYS_CREAT;
}

/* The nesting subclass the kernel path annotates when it takes lid
 * (inode_lock_nested): I_MUTEX_PARENT for the parent, I_MUTEX_PARENT2 for
 * lock_rename's second parent (none without s_vfs_rename_mutex: the
 * deliberately wrong rename-lock knob takes them plainly),
 * I_MUTEX_NONDIR2 for lock_two_nondirectories' second inode. */
static __attribute__((noinline)) int inode_subclass(const struct vfs_world *w,
						     const struct vfs_thread *t,
						     vfs_lid_t lid)
{
	/* a defined step names its own (lock i_rwsem of inode nested parent) */
	if (t->rec.call.sys == SYS_DEFINED)
		return t->f.kfn.ksub;
	if (!is_namei(t->rec.call.sys))
		return LDSUB_NORMAL;
	int ino = VFS_LID_IDX(lid);
	if (t->rec.call.sys == SYS_CREAT)       /* open_last_lookups' dir */
		return ino == t->f.open.dir ? LDSUB_PARENT : LDSUB_NORMAL;
	const struct vfs_namei_locals *nd = &t->f.namei;
	bool plain = t->rec.call.sys == SYS_RENAME && nd->parent2 >= 0 &&
		     !nd->locked_rename && w->k.rename_lock == RENLOCK_NO_MUTEX;
	if (ino == nd->parent)
		return plain ? LDSUB_NORMAL : LDSUB_PARENT;
	if (ino == nd->parent2)
		return plain ? LDSUB_NORMAL : LDSUB_PARENT2;
	if (ino == nd->inode2 && nd->locked_victim)
		return LDSUB_NONDIR2;
	return LDSUB_NORMAL;
}

/* (inline: only an inode lock has a subclass to find) */
static inline int lock_subclass(const struct vfs_world *w,
				const struct vfs_thread *t, vfs_lid_t lid)
{
	return VFS_LID_KIND(lid) == LID_INODE ? inode_subclass(w, t, lid) :
	       LDSUB_NORMAL;
}

/* The event of OP on LID, whose class and nesting subclass are CLS and
 * SUB (RP: the step of TID's the event is of).  (inline: every acquire
 * and release of a step makes one) */
static inline __attribute__((always_inline)) void
lock_event_of(struct vfs_world *w, const struct vfs_sink *sink, int tid,
	      int rp, int op, int fn, vfs_lid_t lid, int mode, int other,
	      int cls, int sub)
{
	struct vx x = { .w = w, .t = &w->threads[tid], .tid = tid, .sink = sink,
		.rp = rp };
	int ok = lock_objkind[VFS_LID_KIND(lid)];
	struct vfs_event ev = { .op = (uint8_t)op, .fn = (uint8_t)fn,
		.lock = lid, .cls = (uint8_t)cls,
		.mode = (uint8_t)mode, .other = (int8_t)other,
		.subclass = (uint8_t)sub, .objkind = (uint8_t)ok,
		.obj = ok == VOK_GLOBAL ? 0 : VFS_LID_IDX(lid) };
	emit(&x, &ev);
}

/* (the nesting subclass only on a block: lockdep reads it of a block and
 * of an acquire, which grant makes; nobody of a release, wake or fail.
 * inline: every release makes one, and nine arguments were a call's) */
static inline __attribute__((always_inline)) void
lock_event(struct vfs_world *w, const struct vfs_sink *sink, int tid, int rp,
	   int op, int fn, vfs_lid_t lid, int mode, int other)
{
	lock_event_of(w, sink, tid, rp, op, fn, lid, mode, other,
		      class_of(w, lid), op == OP_BLOCK ?
		      lock_subclass(w, &w->threads[tid], lid) : LDSUB_NORMAL);
}

/* Give the lock L (LID's) to tid: bookkeeping shared by fast path and
 * handoff. */
static inline __attribute__((always_inline)) void
grant(struct vfs_world *w, const struct vfs_sink *sink, int tid, int rp,
      struct vfs_lock *l, vfs_lid_t lid, int mode, int fn)
{
	struct vfs_thread *t = &w->threads[tid];
	int cls = class_of(w, lid), sub = lock_subclass(w, t, lid);
	thread_touch(w, tid);   /* (a waiter's, on a wake) */

	if (mode == M_READ)
		l->nreaders++;
	else
		l->owner = (int8_t)tid;
	if (t->nheld < VFS_MAX_HELD) {
		struct vfs_held *h = &t->held[t->nheld++];
		h->lock = lid;
		h->mode = (uint8_t)mode;
		h->cls = (uint8_t)cls;
		h->fn = (uint8_t)(t->nfn ? t->fnstack[t->nfn - 1] : fn);
		h->frame = (uint8_t)(t->nfn ? t->nfn - 1 : 0);
		h->sub = (uint8_t)sub;
	} else {
		detect_overflow(w, VL_HELD);
	}
	t->rec.took |= took_bit(cls, mode);
	w->stats.acquire[cls]++;
	count_atomic(w, t);
	lock_event_of(w, sink, tid, rp, OP_ACQUIRE, fn, lid, mode, -1, cls, sub);
}

static void enqueue(struct vfs_world *w, struct vfs_lock *l, int tid)
{
	w->threads[tid].wait_next = -1;
	thread_touch(w, tid);
	if (l->wait_tail < 0) {
		l->wait_head = (int8_t)tid;
	} else {
		w->threads[l->wait_tail].wait_next = (int8_t)tid;
		thread_touch(w, l->wait_tail);
	}
	l->wait_tail = (int8_t)tid;
}

static void dequeue(struct vfs_world *w, struct vfs_lock *l, int tid)
{
	int prev = -1;
	for (int c = l->wait_head; c >= 0; prev = c, c = w->threads[c].wait_next) {
		if (c != tid)
			continue;
		int next = w->threads[c].wait_next;
		if (prev < 0) {
			l->wait_head = (int8_t)next;
		} else {
			w->threads[prev].wait_next = (int8_t)next;
			thread_touch(w, prev);
		}
		if (l->wait_tail == c)
			l->wait_tail = (int8_t)prev;
		w->threads[c].wait_next = -1;
		thread_touch(w, c);
		return;
	}
}

/* A waiter is handed the lock: it wakes already holding it. */
static void wake_one(struct vfs_world *w, const struct vfs_sink *sink,
		     vfs_lid_t lid, int tid)
{
	struct vfs_thread *t = &w->threads[tid];
	int fn = t->nfn ? t->fnstack[t->nfn - 1] : VFN_none;
	int cls = class_of(w, lid);
	struct vfs_lock *l = lock_wptr(w, lid);

	dequeue(w, l, tid);
	thread_touch(w, tid);
	t->state = TS_RUNNING;
	w->stats.wait_steps[cls] += (uint32_t)(w->step - t->block_step);
	lock_event(w, sink, tid, t->wait_rp, OP_WAKE, fn, lid, t->wait_mode, -1);
	if (t->nfn)
		t->nfn--;       /* leaves the lock function it slept in */
	grant(w, sink, tid, t->wait_rp, l, lid, t->wait_mode, fn);
}

static void wake_waiters(struct vfs_world *w, const struct vfs_sink *sink,
			 vfs_lid_t lid)
{
	struct vfs_lock *l = lock_wptr(w, lid);
	int h = l->wait_head;

	if (h < 0 || l->owner >= 0)
		return;
	if (l->kind != LK_RWSEM || w->threads[h].wait_mode != M_READ) {
		if (l->nreaders == 0)
			wake_one(w, sink, lid, h);
		return;
	}
	/* a reader at the head: every waiting reader, in queue order; before
	 * v5.3 only those ahead of the first writer */
	bool all = w->k.era >= VFS_ERA(5, 3);
	for (int c = h; c >= 0;) {
		int next = w->threads[c].wait_next;
		if (w->threads[c].wait_mode == M_READ)
			wake_one(w, sink, lid, c);
		else if (!all)
			break;
		c = next;
	}
}

/*
 * A fatal signal reaches a thread asleep on a lock.  Only the *_killable
 * waits give up (with -EINTR); the others go on waiting.  Leaving the
 * queue may let the waiters behind it in (readers behind a writer).
 */
bool lock_wait_abort(struct vx *x)
{
	struct vfs_thread *t = x->t;
	int fn = t->nfn ? t->fnstack[t->nfn - 1] : VFN_none;
	if (t->state != TS_BLOCKED || (fn != VFN_down_read_killable &&
	    fn != VFN_down_write_killable && fn != VFN_mutex_lock_killable))
		return false;
	dequeue(x->w, lock_wptr(x->w, t->wait_lock), x->tid);
	t->state = TS_RUNNING;
	note(x, fn, "fatal signal: the killable wait gives up with -EINTR");
	t->nfn--;
	wake_waiters(x->w, x->sink, t->wait_lock);
	return true;
}

static int holder_of(const struct vfs_world *w, const struct vfs_lock *l,
		     vfs_lid_t lid)
{
	if (l->owner >= 0)
		return l->owner;
	for (int i = 0; i < w->nthreads; i++)
		if (thread_holds(&w->threads[i], lid, NULL))
			return i;
	return -1;
}

bool lock_acquire(struct vx *x, int fn, vfs_lid_t lid, int mode)
{
	struct vfs_world *w = x->w;
	if (VFS_LID_KIND(lid) == LID_DENTRY && dlocks_own(w) < 0) {
		w->oom = 1;
		return true;
	}
	struct vfs_lock *l = lock_wptr(w, lid);
	bool can;

	if (VFS_LID_KIND(lid) == LID_INODE) {
		/* the era's inode lock: i_mutex has no shared mode */
		l->kind = w->k.dir_lock ? LK_RWSEM : LK_MUTEX;
		if (l->kind == LK_MUTEX)
			mode = M_EXCL;
	} else if (VFS_LID_KIND(lid) == LID_EXEC) {
		/* the era's lock against exec: a mutex, or a rwsem */
		l->kind = vfs_exec_locks[w->k.exec_lock].kind;
		if (l->kind == LK_MUTEX)
			mode = M_EXCL;
	} else if (mode == M_READ || mode == M_WRITE) {
		mode = M_EXCL;
	}
	if (l->wait_head >= 0)
		can = false;                    /* FIFO: nobody jumps the queue */
	else if (mode == M_READ)
		can = l->owner < 0;
	else
		can = l->owner < 0 && l->nreaders == 0;
	if (can) {
		grant(w, x->sink, x->tid, x->rp, l, lid, mode, fn);
		return true;
	}
	struct vfs_thread *t = x->t;
	t->state = TS_BLOCKED;
	t->wait_lock = lid;
	t->wait_mode = (uint8_t)mode;
	t->wait_rp = (uint8_t)x->rp;
	t->block_step = w->step;
	enqueue(w, l, x->tid);
	w->stats.contended[class_of(w, lid)]++;
	if (t->nfn < VFS_MAX_FNSTACK)
		t->fnstack[t->nfn++] = (uint8_t)fn;
	else
		detect_overflow(w, VL_FNSTACK);
	lock_event(w, x->sink, x->tid, x->rp, OP_BLOCK, fn, lid, mode,
		   holder_of(w, l, lid));
	return false;
}

static void drop_held(struct vfs_thread *t, vfs_lid_t lid, int *mode)
{
	for (int i = t->nheld - 1; i >= 0; i--)
		if (t->held[i].lock == lid) {
			*mode = t->held[i].mode;
			/* (mostly the last one, or the one before: no call) */
			for (t->nheld--; i < t->nheld; i++)
				t->held[i] = t->held[i + 1];
			return;
		}
}

void lock_release(struct vx *x, int fn, vfs_lid_t lid)
{
	struct vfs_world *w = x->w;
	struct vfs_lock *l = lock_wptr(w, lid);
	int mode = M_EXCL;

	drop_held(x->t, lid, &mode);
	if (mode == M_READ) {
		if (l->nreaders > 0)
			l->nreaders--;
	} else if (l->owner == x->tid) {
		l->owner = -1;
	}
	count_atomic(w, x->t);
	lock_event(w, x->sink, x->tid, x->rp, OP_RELEASE, fn, lid, mode, -1);
	if (l->wait_head >= 0)          /* (the lock's object marked above) */
		wake_waiters(w, x->sink, lid);
}

void lock_downgrade(struct vx *x, int fn, vfs_lid_t lid)
{
	struct vfs_world *w = x->w;
	struct vfs_lock *l = lock_wptr(w, lid);
	struct vfs_thread *t = x->t;

	for (int i = 0; i < t->nheld; i++)
		if (t->held[i].lock == lid && t->held[i].mode == M_WRITE)
			t->held[i].mode = M_READ;
	if (l->owner == x->tid)
		l->owner = -1;
	l->nreaders++;
	count_atomic(w, t);
	lock_event(w, x->sink, x->tid, x->rp, OP_DOWNGRADE, fn, lid, M_READ, -1);
	/* rwsem_downgrade_write: wake the readers at the head, if any */
	if (l->wait_head >= 0 && w->threads[l->wait_head].wait_mode == M_READ)
		wake_waiters(w, x->sink, lid);
}

/*
 * inode_upgrade_trylock, as fs/readdir.c's wrap_directory_iterator wishes
 * for it and mm/memory.c's mmap_upgrade_trylock says how: a compare and
 * exchange from "one reader" to "a writer", which fails while anybody
 * else reads or waits (the waiters' flag is in the count).  Got: the read
 * hold released and the write hold acquired in this one step (the
 * detectors, lockdep and the explorers see a release and an acquire);
 * not: an OP_FAIL event, it read the lock.  Held exclusive already (a
 * mutex era's i_mutex): got, nothing to do.
 */
bool lock_upgrade_try(struct vx *x, int fn, vfs_lid_t lid)
{
	const struct vfs_lock *l = lock_of(x->w, lid);
	int mode = M_NONE;
	if (!thread_holds(x->t, lid, &mode))
		return false;
	if (mode != M_READ)
		return true;
	if (l->nreaders != 1 || l->wait_head >= 0 || l->owner >= 0) {
		lock_event(x->w, x->sink, x->tid, x->rp, OP_FAIL, fn, lid, M_WRITE, -1);
		return false;
	}
	lock_release(x, fn, lid);
	lock_acquire(x, fn, lid, M_WRITE);      /* (free: granted at once) */
	return true;
}

/* ---- what views read of the locks (vfs_lock.h) ---- */
bool vfs_lock_next(const struct vfs_world *w, vfs_lid_t *lid)
{
	int kind = *lid ? VFS_LID_KIND(*lid) : 0, idx = *lid ? VFS_LID_IDX(*lid) : -1;
	switch (kind) {
	case 0:
	case LID_FILE_LOCK:
		for (idx++; idx < w->nfiles; idx++)
			if (w->files[idx].kind != FK_NONE) {
				*lid = VFS_LID(LID_FILE_POS, idx);
				return true;
			}
		idx = -1;
		/* fall through */
	case LID_DENTRY:
		if (++idx < w->ninodes) {
			*lid = VFS_LID(LID_INODE, idx);
			return true;
		}
		*lid = VFS_LID(LID_RENAME, 0);
		return true;
	case LID_INODE:         /* (each inode's i_rwsem, then its d_update) */
		if (idx < w->ndlocks) {
			*lid = VFS_LID(LID_DENTRY, idx);
			return true;
		}
		if (++idx < w->ninodes) {
			*lid = VFS_LID(LID_INODE, idx);
			return true;
		}
		*lid = VFS_LID(LID_RENAME, 0);
		return true;
	case LID_FILE_POS:
		*lid = VFS_LID(LID_FILE_LOCK, idx);
		return true;
	case LID_RENAME:
		idx = -1;
		/* fall through */
	case LID_EXEC:
		if (++idx < w->nprocs) {
			*lid = VFS_LID(LID_EXEC, idx);
			return true;
		}
		return false;
	default:
		return false;
	}
}

bool vfs_lock_busy(const struct vfs_world *w, vfs_lid_t lid)
{
	const struct vfs_lock *l = lock_of(w, lid);
	return l->owner >= 0 || l->nreaders > 0 || l->wait_head >= 0;
}

int vfs_lock_owner(const struct vfs_world *w, vfs_lid_t lid)
{
	return lock_of(w, lid)->owner;
}

int vfs_lock_waiter(const struct vfs_world *w, vfs_lid_t lid, int i, int *mode)
{
	int c = lock_of(w, lid)->wait_head;
	for (; c >= 0 && i > 0; i--)
		c = w->threads[c].wait_next;
	if (c >= 0 && mode)
		*mode = w->threads[c].wait_mode;
	return c;
}

vfs_lid_t vfs_file_pos_lock(int file)
{
	return VFS_LID(LID_FILE_POS, file);
}

bool vfs_lock_of_file(vfs_lid_t lid)
{
	return VFS_LID_KIND(lid) == LID_FILE_POS || VFS_LID_KIND(lid) == LID_FILE_LOCK;
}

bool vfs_call_took(const struct vfs_world *w, int tid, int cls, int mode)
{
	uint64_t m = w->threads[tid].rec.took;
	int classes[2] = { cls, cls == LC_I_RWSEM_DIR ? LC_I_RWSEM : cls };
	for (int i = 0; i < 2; i++) {
		int c = classes[i];
		if (mode < 0) {
			if (m & (UINT64_C(0xf) << (c * 4)))
				return true;
		} else if (m & took_bit(c, mode)) {
			return true;
		} else if (mode == M_WRITE && (m & took_bit(c, M_EXCL))) {
			return true;    /* i_mutex: exclusive is "write" */
		}
	}
	return false;
}
