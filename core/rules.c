/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rules.c - the script's own rules (`rule`), checked beside lockdep's:
 * lock patterns (a class, or any i_rwsem, with lockdep's nesting
 * subclass), lock orders and ranks tested on every acquisition made while
 * holding a lock (lockdep.c's check() hands each held lock over), and
 * invariants over fields (a field only written, or accessed, under a
 * lock; each directory entry handed out once per pass) tested on each
 * access.  A broken rule is a DK_RULE report, one per rule and pair of
 * keys (or kernel function), through lockdep's report table.
 */
#include <stdio.h>
#include "internal.h"

/*
 * A lock pattern's words, in the order completion offers them: a class by
 * the name traces give it (vfs_class_name: no word here), or by a word of
 * the pattern's own: the kernel's name of rename_mutex, any i_rwsem (and
 * its name before v4.7), an i_rwsem by the kind of its inode.
 */
static const struct { const char *word; int cls; bool inode; } pat_classes[] = {
	{ .word = "s_vfs_rename_mutex", .cls = LC_RENAME_MUTEX },
	{ .cls = LC_RENAME_MUTEX },
	{ .cls = LC_F_POS_LOCK },
	{ .word = "i_rwsem", .cls = LC_NONE, .inode = true },
	{ .word = "i_mutex", .cls = LC_NONE, .inode = true },   /* (before v4.7) */
	{ .word = "i_rwsem_dir", .cls = LC_I_RWSEM_DIR },
	{ .word = "i_rwsem_nondir", .cls = LC_I_RWSEM },
	{ .cls = LC_F_LOCK },
	{ .cls = LC_CRED_GUARD_MUTEX },
	{ .cls = LC_EXEC_UPDATE_MUTEX },
	{ .cls = LC_EXEC_UPDATE_LOCK },
	{ .cls = LC_D_UPDATE },
};
#define NPAT (sizeof pat_classes / sizeof pat_classes[0])

static const char *pat_word(size_t i)
{
	return pat_classes[i].word ? pat_classes[i].word :
	       vfs_class_name(pat_classes[i].cls);
}

/* include/linux/fs.h's enum inode_i_mutex_lock_class (LDSUB_*) */
const char *const vfs_ldsub_names[LDSUB__COUNT] = {
	"normal", "parent", "child", "xattr", "nondir2", "parent2",
};

int vfs_lockpat_parse(const char *s, struct vfs_lockpat *p, int *bad_at)
{
	const char *colon = strchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	memset(p, 0, sizeof *p);
	p->sub = -1;        /* any subclass */
	*bad_at = 0;
	size_t i;
	for (i = 0; i < NPAT; i++)
		if (strlen(pat_word(i)) == len && !strncmp(pat_word(i), s, len))
			break;
	if (i == NPAT)
		return -1;
	p->cls = (uint8_t)pat_classes[i].cls;
	p->inode = pat_classes[i].inode;
	if (!colon)
		return 0;
	*bad_at = (int)len + 1;
	const char *sub = colon + 1;
	bool inode = p->inode || p->cls == LC_I_RWSEM_DIR || p->cls == LC_I_RWSEM;
	if (!inode)     /* only inode_lock_nested annotates a subclass */
		return -1;
	for (int k = 0; k < LDSUB__COUNT; k++)
		if (!strcmp(sub, vfs_ldsub_names[k]) ||
		    (sub[0] == '0' + k && !sub[1])) {
			p->sub = (int8_t)k;
			return 0;
		}
	return -1;
}

void vfs_lockpat_text(const struct vfs_lockpat *p, char *buf, size_t n)
{
	const char *name = "?";
	for (size_t i = 0; i < NPAT; i++)
		if (pat_classes[i].cls == p->cls && pat_classes[i].inode == p->inode) {
			name = pat_word(i);
			break;
		}
	if (p->sub >= 0 && p->sub < LDSUB__COUNT)
		snprintf(buf, n, "%s:%s", name, vfs_ldsub_names[p->sub]);
	else
		snprintf(buf, n, "%s", name);
}

const char *vfs_lockpat_name(int i)
{
	static char subs[LDSUB__COUNT][24];
	int nc = (int)NPAT;
	if (i >= 0 && i < nc)
		return pat_word((size_t)i);
	i -= nc;
	if (i < 0 || i >= LDSUB__COUNT)
		return NULL;
	if (!subs[i][0])
		snprintf(subs[i], sizeof subs[i], "i_rwsem:%s", vfs_ldsub_names[i]);
	return subs[i];
}

bool vfs_lockpat_match(const struct vfs_lockpat *p, int cls, int sub)
{
	bool cls_ok = p->inode ? cls == LC_I_RWSEM_DIR || cls == LC_I_RWSEM :
		      cls == p->cls;
	return cls_ok && (p->sub < 0 || p->sub == sub);
}

void vfs_rule_text(const struct vfs_rule *r, char *buf, size_t n)
{
	char a[40], b[40];
	vfs_lockpat_text(&r->a, a, sizeof a);
	if (r->kind == VRULE_UNDER) {
		snprintf(buf, n, "%s %s under %s", r->reads ? "access" : "write",
			 vfs_field_name(r->field), a);
		return;
	}
	if (r->kind == VRULE_ONCE) {
		snprintf(buf, n, "entries once per pass");
		return;
	}
	if (r->kind == VRULE_VALUE) {
		snprintf(buf, n, "field %s %s %lld", vfs_field_name(r->field),
			 vfs_kcmp_names[r->cmp], (long long)r->value);
		return;
	}
	if (r->kind == VRULE_RANK) {
		snprintf(buf, n, "rank %s %d", a, r->rank);
		return;
	}
	vfs_lockpat_text(&r->b, b, sizeof b);
	snprintf(buf, n, "lockorder %s before %s", a, b);
}

int vfs_nrules(const struct vfs_world *w)
{
	return w->kdefs ? w->kdefs->nrules : 0;
}

const struct vfs_rule *vfs_rule_get(const struct vfs_world *w, int i)
{
	return i >= 0 && i < vfs_nrules(w) ? &w->kdefs->rules[i] : NULL;
}

int vfs_rule_add(struct vfs_world *w, const struct vfs_rule *r)
{
	if (vfs_nrules(w) >= VFS_MAX_RULES)
		return -VE_NOSPC;
	struct vfs_kdefs *k = kdefs_mut(w);
	if (!k)
		return -VE_NOMEM;
	k->rules[k->nrules++] = *r;
	return 0;
}

int vfs_rule_remove(struct vfs_world *w, int i)
{
	if (i < 0 || i >= vfs_nrules(w))
		return -VE_INVAL;
	struct vfs_kdefs *k = kdefs_mut(w);
	if (!k)
		return -VE_NOMEM;
	memmove(&k->rules[i], &k->rules[i + 1], sizeof k->rules[0] * (size_t)(k->nrules - i - 1));
	k->nrules--;
	return 0;
}

/* The rank a lock has under W's rules: the most specific rank rule that
 * names it (its subclass over its class alone), -1 if none; *which its
 * index. */
static int rank_of(const struct vfs_world *w, int cls, int sub, int *which)
{
	int best = -1, spec = -1;
	for (int i = 0; i < vfs_nrules(w); i++) {
		const struct vfs_rule *r = &w->kdefs->rules[i];
		if (r->kind != VRULE_RANK || !vfs_lockpat_match(&r->a, cls, sub))
			continue;
		int sp = (r->a.sub >= 0) * 2 + !r->a.inode;
		if (sp > spec) {
			spec = sp;
			best = i;
		}
	}
	*which = best;
	return best >= 0 ? w->kdefs->rules[best].rank : -1;
}

static void rule_report(struct vfs_world *w, int rule, const struct vfs_link *l,
			int held_rule)
{
	/* (ids past the built-in ones: one report per rule and key pair) */
	if (lockdep_seen(w, LDR__COUNT + rule, l->held_key, l->want_key))
		return;
	struct vfs_report *r = lockdep_new_report(w, DK_RULE, rule);
	if (!r)
		return;
	r->entry = held_rule;
	r->nlinks = 1;
	r->link[0] = *l;
	r->b.tid = l->tid;
	r->b.step = l->step;
	char th[32], a[VFS_PATH_MAX + 32], b[VFS_PATH_MAX + 32], rt[96];
	vfs_thread_name(w, l->tid, th, sizeof th);
	vfs_lock_name(w, l->want, b, sizeof b);
	vfs_lock_name(w, l->held, a, sizeof a);
	vfs_rule_text(&w->kdefs->rules[rule], rt, sizeof rt);
	snprintf(r->text, sizeof r->text, "rule %s: %s takes %s in %s at step %d "
		 "while holding %s", rt, th, b, vfs_fn_name(l->fn), l->step, a);
}

/* Every rule of the script against one acquisition and one held lock:
 * ORDER forbids taking its `a` under its `b`; ranks forbid taking a lock
 * under one of the same or a higher rank (two locks of one rank: the rank
 * does not say which comes first, lockdep's recursive-locking case). */
void rules_check(struct vfs_world *w, const struct vfs_link *l, int wcls,
		 int wsub, const struct vfs_held *h)
{
	for (int i = 0; i < vfs_nrules(w); i++) {
		const struct vfs_rule *r = &w->kdefs->rules[i];
		if (r->kind == VRULE_ORDER && vfs_lockpat_match(&r->a, wcls, wsub) &&
		    vfs_lockpat_match(&r->b, h->cls, h->sub))
			rule_report(w, i, l, -1);
	}
	int wr, hr;
	int wrank = rank_of(w, wcls, wsub, &wr), hrank = rank_of(w, h->cls, h->sub, &hr);
	if (wr >= 0 && hr >= 0 && wrank <= hrank)
		rule_report(w, wr, l, hr);
}

bool rules_on(const struct vfs_world *w)
{
	return vfs_nrules(w) && detect_on(&w->det, DK_RULE);
}

/* A broken invariant of the script's: one report per rule and kernel
 * function (and entry), its one line naming the thread, what it did and
 * the step. */
static struct vfs_report *invariant_report(struct vfs_world *w, int rule, int a, int b)
{
	if (lockdep_seen(w, LDR__COUNT + rule, a & 0xff, b & 0xff))
		return NULL;
	struct vfs_report *r = lockdep_new_report(w, DK_RULE, rule);
	if (r)
		r->entry = -1;
	return r;
}

/* Whether lock H of thread T covers FIELD of the event's object: the
 * file's own locks for a file, the inode's i_rwsem for the inode or the
 * file's inode; a global lock covers everything. */
static bool covers(const struct vfs_world *w, const struct vfs_held *h,
		   const struct vfs_event *ev)
{
	int idx = VFS_LID_IDX(h->lock);
	switch (VFS_LID_KIND(h->lock)) {
	case LID_FILE_POS: case LID_FILE_LOCK:
		return ev->objkind == VOK_FILE && ev->obj == idx;
	case LID_INODE: case LID_DENTRY:
		if (ev->objkind == VOK_INODE)
			return ev->obj == idx;
		return ev->objkind == VOK_FILE && ev->obj >= 0 &&
		       w->files[ev->obj].kind == FK_INODE && w->files[ev->obj].inode == idx;
	default:
		return true;
	}
}

/* `rule field FIELD CMP N`: EV wrote a value that is not CMP N */
static void rule_value_broken(struct vfs_world *w, int rule, const struct vfs_event *ev)
{
	struct vfs_report *r = invariant_report(w, rule, ev->fn, ev->op);
	if (!r)
		return;
	char th[32], ob[VFS_PATH_MAX + 16], rt[96];
	vfs_thread_name(w, ev->tid, th, sizeof th);
	vfs_event_obj_name(w, ev, ob, sizeof ob);
	vfs_rule_text(&w->kdefs->rules[rule], rt, sizeof rt);
	r->obj = ev->obj;
	r->field = ev->field;
	r->b.tid = ev->tid;
	r->b.step = ev->step;
	r->b.fn = ev->fn;
	r->b.write = 1;
	snprintf(r->text, sizeof r->text, "rule %s: %s writes %lld to %s of %s in %s "
		 "at step %d", rt, th, (long long)ev->value, vfs_field_name(ev->field),
		 ob, vfs_fn_name(ev->fn), ev->step);
}

void rules_access(struct vfs_world *w, const struct vfs_event *ev)
{
	if (!rules_on(w) || ev->rcu || ev->atomic)
		return;
	const struct vfs_thread *t = &w->threads[ev->tid];
	for (int i = 0; i < vfs_nrules(w); i++) {
		const struct vfs_rule *ru = &w->kdefs->rules[i];
		if (ru->kind == VRULE_VALUE && ru->field == ev->field && ev->op == OP_WRITE &&
		    !vfs_kcmp_holds(ev->value, ru->cmp, ru->value)) {
			rule_value_broken(w, i, ev);
			continue;
		}
		if (ru->kind != VRULE_UNDER || ru->field != ev->field ||
		    (ev->op == OP_READ && !ru->reads))
			continue;
		bool ok = false;
		for (int k = 0; k < t->nheld && !ok; k++)
			ok = vfs_lockpat_match(&ru->a, t->held[k].cls, t->held[k].sub) &&
			     covers(w, &t->held[k], ev);
		if (ok)
			continue;
		struct vfs_report *r = invariant_report(w, i, ev->fn, ev->op);
		if (!r)
			continue;
		char th[32], ob[VFS_PATH_MAX + 16], rt[96], lk[40];
		vfs_thread_name(w, ev->tid, th, sizeof th);
		vfs_event_obj_name(w, ev, ob, sizeof ob);
		vfs_rule_text(ru, rt, sizeof rt);
		vfs_lockpat_text(&ru->a, lk, sizeof lk);
		r->obj = ev->obj;
		r->field = ev->field;
		r->b.tid = ev->tid;
		r->b.step = ev->step;
		r->b.fn = ev->fn;
		r->b.write = ev->op == OP_WRITE;
		snprintf(r->text, sizeof r->text, "rule %s: %s %s %s of %s in %s at "
			 "step %d without holding its %s", rt, th, ev->op == OP_WRITE ?
			 "writes" : "reads", vfs_field_name(ev->field), ob,
			 vfs_fn_name(ev->fn), ev->step, lk);
	}
}

void rules_duplicate(struct vfs_world *w, const struct vfs_event *ev,
		     const char *what)
{
	if (!rules_on(w))
		return;
	for (int i = 0; i < vfs_nrules(w); i++) {
		if (w->kdefs->rules[i].kind != VRULE_ONCE)
			continue;
		struct vfs_report *r = invariant_report(w, i, ev->file, (int)ev->value);
		if (!r)
			continue;
		r->obj = ev->file;
		r->b.tid = ev->tid;
		r->b.step = ev->step;
		r->b.fn = ev->fn;
		snprintf(r->text, sizeof r->text, "rule entries once per pass: %s", what);
	}
}

