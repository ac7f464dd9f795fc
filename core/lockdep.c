/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lockdep.c - lock order, the way kernel/locking/lockdep.c sees it, and
 * the ranks of Documentation/filesystems/directory-locking.rst.
 *
 * Every acquisition attempt (OP_BLOCK, or OP_ACQUIRE without a wait) made
 * while the thread holds other locks adds edges held -> wanted to a graph
 * whose nodes are lockdep keys: a lock class (f_pos_lock, directory
 * i_rwsem, non-directory i_rwsem, f_lock, s_vfs_rename_mutex, a process's
 * cred_guard_mutex / exec_update_mutex / exec_update_lock) with the
 * nesting subclass the kernel annotates (inode_lock_nested: I_MUTEX_PARENT
 * for the parent, I_MUTEX_PARENT2 for lock_rename's second parent,
 * I_MUTEX_NONDIR2 for lock_two_nondirectories' second inode).  An edge
 * that closes a cycle is a "possible circular locking dependency", reported
 * with both chains whether or not this run deadlocked.
 *
 * The class graph cannot see an ABBA between two locks of one key (two
 * directories both locked as I_MUTEX_PARENT...): the kernel relies on the
 * ranks for those, so every acquisition is also checked against them:
 *   s_vfs_rename_mutex < directory i_rwsem < non-directory i_rwsem;
 *   f_pos_lock before any i_rwsem, never under one;
 *   two directories: ancestor first, or under s_vfs_rename_mutex;
 *   two non-directories: by address (inode index here);
 *   nothing sleeps under a spinlock; nobody takes a lock it holds.
 */
#include <stdio.h>
#include "internal.h"

static const char *const key_base[LC__COUNT] = {
	"?", "&f->f_pos_lock", "&type->i_rwsem_dir_key", "&type->i_rwsem_key",
	"&f->f_lock", "&type->s_vfs_rename_key",
	"&sig->cred_guard_mutex", "&sig->exec_update_mutex",
	"&sig->exec_update_lock", "&dentry->d_update",
};

const char *vfs_ld_key_name(int key)
{
	static char buf[VFS_LD_KEYS][40];
	int cls = VFS_LD_KEY_CLS(key), sub = VFS_LD_KEY_SUB(key);
	if (key < 0 || key >= VFS_LD_KEYS)
		return "?";
	if (!buf[key][0]) {
		if (sub)
			snprintf(buf[key], sizeof buf[key], "%s/%d", key_base[cls], sub);
		else
			snprintf(buf[key], sizeof buf[key], "%s", key_base[cls]);
	}
	return buf[key];
}

static const char *const rule_names[LDR__COUNT] = {
	[LDR_CYCLE] = "possible circular locking dependency",
	[LDR_RECURSIVE] = "possible recursive locking: two locks of one class "
		"nested without a nesting annotation (inode_lock_nested)",
	[LDR_SAME_LOCK] = "a thread asks for a lock it already holds "
		"(rw_semaphores cannot be upgraded)",
	[LDR_RANK_RENAME] = "s_vfs_rename_mutex ranks before every i_rwsem",
	[LDR_RANK_NONDIR_DIR] = "directory i_rwsem ranks before non-directory "
		"i_rwsem",
	[LDR_FPOS_UNDER_INODE] = "f_pos_lock comes before i_rwsem: nothing takes "
		"an f_pos lock while holding an inode lock",
	[LDR_TWO_DIRS] = "two directories: ancestor first or, for a "
		"cross-directory rename, under s_vfs_rename_mutex",
	[LDR_TWO_NONDIRS] = "two non-directories: in address order "
		"(lock_two_nondirectories)",
	[LDR_UNDER_SPIN] = "nothing sleeps while holding a spinlock (f_lock)",
};

const char *vfs_ld_rule_name(int rule)
{
	return rule >= 0 && rule < LDR__COUNT ? rule_names[rule] : "?";
}

/* Lockdep keys: a lock class with the nesting subclass the kernel path
 * annotated (core/locking.c lock_subclass: the event's, the held entry's;
 * the event's class is its lock's, core/locking.c lock_event_of). */
static int ev_key(const struct vfs_event *ev)
{
	return VFS_LD_KEY(ev->cls, ev->subclass);
}

static int held_key(const struct vfs_held *h)
{
	return VFS_LD_KEY(h->cls, h->sub);
}

/* Whether (RULE, FROM, TO) was reported before; remembered if not.
 * (rules.c: the script's rules, past LDR__COUNT) */
bool lockdep_seen(struct vfs_world *w, int rule, int from, int to)
{
	struct vfs_lockdep *ld = &w->det.ld;
	uint32_t k = (uint32_t)rule << 16 | (uint32_t)from << 8 | (uint32_t)to;
	for (int i = 0; i < ld->nseen; i++)
		if (ld->seen[i] == k)
			return true;
	if (ld->nseen < VFS_MAX_LDSEEN)
		ld->seen[ld->nseen++] = k;
	else
		detect_overflow(w, VL_LDSEEN);
	return false;
}

static void make_link(const struct vfs_world *w, const struct vfs_event *ev,
		      const struct vfs_held *h, int hkey, int wkey,
		      struct vfs_link *l)
{
	memset(l, 0, sizeof *l);
	l->tid = ev->tid;
	l->fn = ev->fn;
	l->held = h->lock;
	l->held_mode = h->mode;
	l->held_key = (uint8_t)hkey;
	l->want = ev->lock;
	l->want_mode = ev->mode;
	l->want_key = (uint8_t)wkey;
	l->step = ev->step;
	(void)w;
}

/* A report of KIND (lockdep's DK_LOCKORDER, the script's DK_RULE),
 * counted also past the list's end */
struct vfs_report *lockdep_new_report(struct vfs_world *w, int kind, int rule)
{
	w->det.counts[kind]++;
	if (w->det.nreports >= VFS_MAX_REPORTS)
		return NULL;
	struct vfs_report *r = &w->det.reports[w->det.nreports++];
	memset(r, 0, sizeof *r);
	r->kind = (uint8_t)kind;
	r->rule = (uint8_t)rule;
	r->obj = -1;
	return r;
}

static struct vfs_report *new_report(struct vfs_world *w, int rule)
{
	return lockdep_new_report(w, DK_LOCKORDER, rule);
}

static void rank_report(struct vfs_world *w, int rule, const struct vfs_link *l)
{
	if (lockdep_seen(w, rule, l->held_key, l->want_key))
		return;
	struct vfs_report *r = new_report(w, rule);
	if (!r)
		return;
	char th[32], a[VFS_PATH_MAX + 32], b[VFS_PATH_MAX + 32];
	r->nlinks = 1;
	r->link[0] = *l;
	r->b.tid = l->tid;
	r->b.step = l->step;
	vfs_thread_name(w, l->tid, th, sizeof th);
	vfs_lock_name(w, l->want, b, sizeof b);
	vfs_lock_name(w, l->held, a, sizeof a);
	snprintf(r->text, sizeof r->text, "lock order: %s takes %s in %s while "
		 "holding %s: %s", th, b, vfs_fn_name(l->fn), a,
		 vfs_ld_rule_name(rule));
}

static int find_edge(const struct vfs_lockdep *ld, int from, int to)
{
	for (int i = 0; i < ld->nedges; i++)
		if (ld->edges[i].from == from && ld->edges[i].to == to)
			return i;
	return -1;
}

/* A path from -> ... -> to in the graph: its length (the first MAX
 * edges' indices in OUT), or -1. */
static int path(const struct vfs_lockdep *ld, int from, int to, int *out,
		int max)
{
	int prev[VFS_LD_KEYS], q[VFS_LD_KEYS], qh = 0, qt = 0;
	for (int i = 0; i < VFS_LD_KEYS; i++)
		prev[i] = -2;
	prev[from] = -1;
	q[qt++] = from;
	while (qh < qt) {
		int u = q[qh++];
		if (u == to)
			break;
		for (int e = 0; e < ld->nedges; e++)
			if (ld->edges[e].from == u && prev[ld->edges[e].to] == -2) {
				prev[ld->edges[e].to] = e;
				q[qt++] = ld->edges[e].to;
			}
	}
	if (prev[to] == -2)
		return -1;
	int n = 0, rev[VFS_LD_KEYS];
	for (int v = to; prev[v] >= 0 && n < VFS_LD_KEYS; v = ld->edges[prev[v]].from)
		rev[n++] = prev[v];
	int m = n < max ? n : max;
	for (int i = 0; i < m; i++)
		out[i] = rev[n - 1 - i];
	return n;
}

static void add_edge(struct vfs_world *w, const struct vfs_link *l)
{
	struct vfs_lockdep *ld = &w->det.ld;
	int e = find_edge(ld, l->held_key, l->want_key);
	if (e >= 0) {
		ld->edges[e].count++;
		return;
	}
	/* a new dependency: does the wanted key already lead back? */
	int chain[VFS_MAX_LINKS - 1];
	int n = l->held_key == l->want_key ? -1 :
		path(ld, l->want_key, l->held_key, chain, VFS_MAX_LINKS - 1);
	if (n > VFS_MAX_LINKS - 1) {    /* the report shows the first links */
		detect_overflow(w, VL_LINKS);
		n = VFS_MAX_LINKS - 1;
	}
	if (n > 0 && !lockdep_seen(w, LDR_CYCLE, l->held_key, l->want_key)) {
		struct vfs_report *r = new_report(w, LDR_CYCLE);
		if (r) {
			char th[32];
			size_t o;
			r->link[0] = *l;
			for (int i = 0; i < n; i++)
				r->link[1 + i] = ld->edges[chain[i]].first;
			r->nlinks = (uint8_t)(1 + n);
			r->b.tid = l->tid;
			r->b.step = l->step;
			vfs_thread_name(w, l->tid, th, sizeof th);
			o = (size_t)snprintf(r->text, sizeof r->text,
				"possible circular locking dependency: %s takes %s "
				"holding %s, but earlier ", th,
				vfs_ld_key_name(l->want_key),
				vfs_ld_key_name(l->held_key));
			for (int i = 0; i < n && o < sizeof r->text; i++)
				o += (size_t)snprintf(r->text + o, sizeof r->text - o,
					"%s%s", i ? " -> " : "",
					vfs_ld_key_name(ld->edges[chain[i]].from));
			if (o < sizeof r->text)
				snprintf(r->text + o, sizeof r->text - o, " -> %s",
					 vfs_ld_key_name(l->held_key));
		}
	}
	if (ld->nedges >= VFS_MAX_LDEDGES) {
		ld->overflow = 1;
		detect_overflow(w, VL_LDEDGES);
		return;
	}
	struct vfs_ldedge *ed = &ld->edges[ld->nedges++];
	ed->from = l->held_key;
	ed->to = l->want_key;
	ed->count = 1;
	ed->first = *l;
}

static bool holds_class(const struct vfs_thread *t, int cls)
{
	for (int i = 0; i < t->nheld; i++)
		if (t->held[i].cls == cls)
			return true;
	return false;
}

/* The rank that taking EV's lock while holding H breaks (LDR_*), or -1.
 * *RENMUTEX: whether T holds s_vfs_rename_mutex, -1 until asked (only
 * where two directories meet). */
static inline int rank_rule(const struct vfs_world *w,
			    const struct vfs_thread *t,
			    const struct vfs_event *ev, const struct vfs_held *h,
			    int *renmutex)
{
	int wcls = ev->cls, hcls = h->cls;
	if (h->lock == ev->lock)
		return LDR_SAME_LOCK;
	if (hcls == LC_F_LOCK)
		return LDR_UNDER_SPIN;
	if (wcls == LC_RENAME_MUTEX && (hcls == LC_I_RWSEM_DIR || hcls == LC_I_RWSEM))
		return LDR_RANK_RENAME;
	if (wcls == LC_F_POS_LOCK && (hcls == LC_I_RWSEM_DIR || hcls == LC_I_RWSEM))
		return LDR_FPOS_UNDER_INODE;
	if (wcls == LC_I_RWSEM_DIR && hcls == LC_I_RWSEM)
		return LDR_RANK_NONDIR_DIR;
	if (wcls == LC_I_RWSEM_DIR && hcls == LC_I_RWSEM_DIR) {
		if (*renmutex < 0)
			*renmutex = holds_class(t, LC_RENAME_MUTEX);
		return !*renmutex && !inode_is_ancestor(w, VFS_LID_IDX(h->lock),
							VFS_LID_IDX(ev->lock)) ?
		       LDR_TWO_DIRS : -1;
	}
	if (wcls == LC_I_RWSEM && hcls == LC_I_RWSEM &&
	    VFS_LID_IDX(h->lock) > VFS_LID_IDX(ev->lock))
		return LDR_TWO_NONDIRS;
	return -1;
}

static void check(struct vfs_world *w, const struct vfs_event *ev, bool acquired,
		  bool builtin, bool rules)
{
	const struct vfs_thread *t = &w->threads[ev->tid];
	int n = t->nheld;
	/* on acquire the new lock is already the last held entry */
	if (acquired && n && t->held[n - 1].lock == ev->lock)
		n--;
	if (!n)
		return;
	int wcls = ev->cls;
	int wkey = ev_key(ev);
	int renmutex = -1;
	for (int i = 0; i < n; i++) {
		const struct vfs_held *h = &t->held[i];
		int hkey = held_key(h);
		struct vfs_link l;
		make_link(w, ev, h, hkey, wkey, &l);
		if (rules && h->lock != ev->lock)
			rules_check(w, &l, wcls, ev->subclass, h);
		if (!builtin)
			continue;
		int rule = rank_rule(w, t, ev, h, &renmutex);
		if (rule >= 0)
			rank_report(w, rule, &l);
		if (h->lock != ev->lock && hkey == wkey)
			rank_report(w, LDR_RECURSIVE, &l);
		if (h->lock != ev->lock)
			add_edge(w, &l);
	}
}

/* Tests only: every acquire through check, as before known_order
 * (test_detect.c compares the two). */
bool lockdep_slow_only;
_Thread_local unsigned long lockdep_short_ways;

/* An acquire under one other lock that breaks no rank, of an order seen
 * before (a search's getdents: f_pos_lock, then the directory's i_rwsem):
 * all check would do is bump the edge's count, done here without a link
 * made; false, nothing done, for check. */
static inline bool known_order(struct vfs_world *w, const struct vfs_event *ev)
{
	const struct vfs_thread *t = &w->threads[ev->tid];
	if (t->nheld != 2 || t->held[1].lock != ev->lock || lockdep_slow_only)
		return false;
	const struct vfs_held *h = &t->held[0];
	int hkey = held_key(h), wkey = ev_key(ev), renmutex = -1;
	if (hkey == wkey || rank_rule(w, t, ev, h, &renmutex) >= 0)
		return false;
	int e = find_edge(&w->det.ld, hkey, wkey);
	if (e < 0)
		return false;
	w->det.ld.edges[e].count++;
	lockdep_short_ways++;
	return true;
}

/* rules_on (rules.c) without its call in a world with no rule */
static inline bool rules_here(const struct vfs_world *w)
{
	return w->kdefs && w->kdefs->nrules && rules_on(w);
}

void lockdep_event(struct vfs_world *w, const struct vfs_event *ev)
{
	struct vfs_lockdep *ld = &w->det.ld;
	uint32_t bit = 1u << ev->tid;
	switch (ev->op) {
	case OP_WAKE:
		ld->woken |= bit;
		break;
	case OP_BLOCK:
		if (detect_on(&w->det, DK_LOCKORDER) || rules_here(w))
			check(w, ev, false, detect_on(&w->det, DK_LOCKORDER),
			      rules_here(w));
		if (detect_on(&w->det, DK_DEADLOCK))
			deadlock_on_block(w, ev->tid);
		break;
	case OP_ACQUIRE: {
		/* (the first lock a thread holds, not handed over: nothing to
		 * order it after, check's own first test without its call) */
		if (!lockdep_acquire_matters(w, ev))
			break;
		if (ld->woken & bit) {  /* checked when it began to wait */
			ld->woken &= ~bit;
			break;
		}
		bool builtin = detect_on(&w->det, DK_LOCKORDER), rules = rules_here(w);
		if (builtin && !rules && known_order(w, ev))
			break;
		if (builtin || rules)
			check(w, ev, true, builtin, rules);
		break;
	}
	}
}

/* ---- output ---- */

#define APP(...) do { if (o < n) o += (size_t)snprintf(buf + o, n - o, __VA_ARGS__); } while (0)

static void link_line(const struct vfs_world *w, const struct vfs_link *l,
		      char *buf, size_t n)
{
	char th[32], a[VFS_PATH_MAX + 32], b[VFS_PATH_MAX + 32];
	vfs_thread_name(w, l->tid, th, sizeof th);
	vfs_lock_name(w, l->held, a, sizeof a);
	vfs_lock_name(w, l->want, b, sizeof b);
	snprintf(buf, n, "%s took %s (%s) in %s at step %d while holding %s (%s)",
		 th, b, vfs_mode_name(l->want_mode), vfs_fn_name(l->fn), l->step, a,
		 vfs_mode_name(l->held_mode));
}

static size_t table2(const struct vfs_world *w, const struct vfs_report *r,
		     char *buf, size_t n, size_t o)
{
	const struct vfs_link *now = &r->link[0];
	const struct vfs_link *old = &r->link[1];
	char c0[40], c1[40];
	vfs_thread_name(w, now->tid, c0, sizeof c0);
	vfs_thread_name(w, old->tid, c1, sizeof c1);
	if (old->tid == now->tid)
		snprintf(c1 + strlen(c1), sizeof c1 - strlen(c1), " (as at step %d)",
			 old->step);
	const char *A = vfs_ld_key_name(now->held_key);
	const char *B = vfs_ld_key_name(now->want_key);
	if (r->nlinks > 2) {
		APP(" Chain exists of:\n   %s", B);
		for (int i = 1; i < r->nlinks; i++)
			APP(" --> %s", vfs_ld_key_name(r->link[i].want_key));
		APP("\n\n");
	}
	APP(" Possible unsafe locking scenario:\n\n");
	APP("       %-30s%s\n", c0, c1);
	APP("       %-30s%s\n", "----", "----");
	APP("  lock(%s);\n", A);
	APP("  %30s lock(%s);\n", "", r->nlinks > 2 ? vfs_ld_key_name(r->link[1].want_key) : B);
	APP("  %30s lock(%s);\n", "", A);
	APP("  lock(%s);\n", B);
	APP("\n *** DEADLOCK ***\n");
	return o;
}

/* The head of a lockdep warning, as print_circular_bug_header and
 * print_bad_irq_dependency word it: the title (WHAT, then WHICH), then the
 * acquisition that broke the order (link L) and the lock its thread
 * already held. */
static size_t warning_head(const struct vfs_world *w, const struct vfs_link *l,
			   const char *what, const char *which, char *buf, size_t n)
{
	size_t o = 0;
	char th[32], ln[VFS_PATH_MAX + 32];
	vfs_thread_name(w, l->tid, th, sizeof th);
	APP("======================================================\n");
	APP("WARNING: %s%s\n", what, which);
	APP("------------------------------------------------------\n");
	vfs_lock_name(w, l->want, ln, sizeof ln);
	APP("%s is trying to acquire lock:\n  %s (%s), %s, in %s at step %d\n", th,
	    vfs_ld_key_name(l->want_key), ln, vfs_mode_name(l->want_mode),
	    vfs_fn_name(l->fn), l->step);
	vfs_lock_name(w, l->held, ln, sizeof ln);
	APP("but it already holds lock:\n  %s (%s), %s\n",
	    vfs_ld_key_name(l->held_key), ln, vfs_mode_name(l->held_mode));
	return o;
}

static size_t lockorder_detail(const struct vfs_world *w,
			       const struct vfs_report *r, char *buf, size_t n)
{
	char line[400], th[32];
	const struct vfs_link *l = &r->link[0];
	vfs_thread_name(w, l->tid, th, sizeof th);
	size_t o = warning_head(w, l, r->rule == LDR_CYCLE ? "" : "lock order: ",
				vfs_ld_rule_name(r->rule), buf, n);
	if (r->rule == LDR_CYCLE) {
		APP("which lock already depends on the new lock.\n\n");
		APP("the existing dependency chain (in reverse order) is:\n");
		for (int i = r->nlinks - 1; i >= 1; i--) {
			link_line(w, &r->link[i], line, sizeof line);
			APP("-> #%d (%s):\n       %s\n", i - 1,
			    vfs_ld_key_name(r->link[i].want_key), line);
		}
		APP("\nand now:\n       ");
		link_line(w, l, line, sizeof line);
		APP("%s\n\nother info that might help us debug this:\n\n", line);
		o = table2(w, r, buf, n, o);
		APP("\nIn plain words: somewhere %s is taken while holding %s, and "
		    "here the other way round. Two threads doing the two orders at "
		    "once can each hold one and wait for the other, even though "
		    "this run did not.", vfs_ld_key_name(l->held_key),
		    vfs_ld_key_name(l->want_key));
		return o;
	}
	APP("\nother info that might help us debug this:\n");
	APP(" Possible unsafe locking scenario:\n\n");
	APP("       %s\n       ----\n", th);
	APP("  lock(%s);\n  lock(%s);\n", vfs_ld_key_name(l->held_key),
	    vfs_ld_key_name(l->want_key));
	if (r->rule == LDR_SAME_LOCK || r->rule == LDR_RECURSIVE)
		APP("\n *** DEADLOCK ***\n");
	if (r->rule == LDR_RECURSIVE)
		APP("\n May be due to missing lock nesting notation\n");
	APP("\nIn plain words: the rule broken is \"%s\"", vfs_ld_rule_name(r->rule));
	switch (r->rule) {
	case LDR_TWO_DIRS:
		APP("; without s_vfs_rename_mutex two such calls can lock the same "
		    "two directories in opposite orders and wait for each other "
		    "(ABBA).");
		break;
	case LDR_SAME_LOCK:
		APP("; %s waits for itself.", th);
		break;
	case LDR_RECURSIVE:
		APP("; lockdep cannot tell which of the two is taken first, so any "
		    "order between them may deadlock.");
		break;
	default:
		APP("; another path takes them the other way round.");
		break;
	}
	return o;
}

/* A broken rule of the script's, as lockdep words its warnings. */
static size_t rule_detail(const struct vfs_world *w, const struct vfs_report *r,
			  char *buf, size_t n)
{
	char rt[96] = "?", ht[96] = "", th[32];
	const struct vfs_link *l = &r->link[0];
	vfs_thread_name(w, l->tid, th, sizeof th);
	const struct vfs_rule *ru = vfs_rule_get(w, r->rule);
	const struct vfs_rule *hr = vfs_rule_get(w, r->entry);
	if (ru)
		vfs_rule_text(ru, rt, sizeof rt);
	if (hr)
		vfs_rule_text(hr, ht, sizeof ht);
	size_t o = warning_head(w, l, "the script's rule broken: rule ", rt, buf, n);
	if (hr)
		APP("which ranks the same or higher: rule %s\n", ht);
	APP("\nother info that might help us debug this:\n");
	APP(" Possible unsafe locking scenario:\n\n");
	APP("       %s\n       ----\n", th);
	APP("  lock(%s);\n  lock(%s);\n", vfs_ld_key_name(l->held_key),
	    vfs_ld_key_name(l->want_key));
	if (!hr)
		APP("\nIn plain words: the script declared \"rule %s\", and %s took "
		    "them the other way round.", rt, th);
	else if (r->entry == r->rule)
		APP("\nIn plain words: two locks of one rank nested; \"rule %s\" "
		    "does not say which comes first, so two threads may take them in "
		    "opposite orders.", rt);
	else
		APP("\nIn plain words: the script declared \"rule %s\" and \"rule "
		    "%s\": %s took the lower rank while holding the higher.", rt, ht, th);
	return o;
}

void vfs_report_detail(const struct vfs_world *w, const struct vfs_report *r,
		       char *buf, size_t n)
{
	if (n)
		buf[0] = 0;
	if (r->kind == DK_DEADLOCK && r->nlinks)
		deadlock_detail(w, r, buf, n);
	else if (r->kind == DK_LOCKORDER && r->nlinks)
		lockorder_detail(w, r, buf, n);
	else if (r->kind == DK_RULE && r->nlinks)
		rule_detail(w, r, buf, n);
	else
		vfs_report_text(w, r, buf, n);
	/* no final newline */
	size_t len = strlen(buf);
	while (len && buf[len - 1] == '\n')
		buf[--len] = 0;
}

void vfs_lockdep_graph_text(const struct vfs_world *w, char *buf, size_t n)
{
	const struct vfs_lockdep *ld = &w->det.ld;
	size_t o = 0;
	char line[400];
	if (n)
		buf[0] = 0;
	if (!w->det.enabled)
		APP("(the detectors are off)\n");
	if (!ld->nedges)
		APP("no lock was taken while holding another\n");
	for (int i = 0; i < ld->nedges; i++) {
		const struct vfs_ldedge *e = &ld->edges[i];
		link_line(w, &e->first, line, sizeof line);
		APP("%-28s -> %-28s %5u time%s\n    first: %s\n",
		    vfs_ld_key_name(e->from), vfs_ld_key_name(e->to), e->count,
		    e->count == 1 ? " " : "s", line);
	}
	if (ld->overflow)
		APP("(the graph is full: later new dependencies were not recorded)\n");
}
