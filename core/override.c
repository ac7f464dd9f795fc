/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * override.c - decisions of kernel functions a script replaces by an
 * expression over the state the function sees (`override FUNC EXPR`):
 * the table of decisions and their variables, the kernel's own decision
 * as an expression of the same words, and the evaluator.  The paths ask
 * the world's override where the kernel decides (core/file.c's
 * file_needs_f_pos_lock).
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "rows.h"

static const char *const fpos_vars[] = {
	[VDV_ATOMIC_POS] = "atomic_pos", [VDV_COUNT] = "count", [VDV_DIR] = "dir",
	[VDV_ITERATE_SHARED] = "iterate_shared", [VDV_REGULAR] = "regular",
	[VDV_LSEEK] = "lseek", NULL,
};
static const char *const fpos_var_help[] = {
	[VDV_ATOMIC_POS] = "file->f_mode has FMODE_ATOMIC_POS (1 or 0)",
	[VDV_COUNT] = "file_count(file): its read is traced, as the kernel's",
	[VDV_DIR] = "the file is a directory (1 or 0)",
	[VDV_ITERATE_SHARED] = "file->f_op->iterate_shared is set: a directory whose "
			       "filesystem has it under this kernel (1 or 0)",
	[VDV_REGULAR] = "the file is a regular file (1 or 0)",
	[VDV_LSEEK] = "the call is lseek (1 or 0): not what the kernel's test sees, "
		      "the caller's own decision, as if ksys_lseek had a test of its own",
	NULL,
};

static const char *const fget_vars[] = { [VDV_TABLE_USERS] = "table_users", NULL };
static const char *const fget_var_help[] = {
	[VDV_TABLE_USERS] = "atomic_read(&files->count): the tasks sharing the "
			    "descriptor table",
	NULL,
};

static const char *const iter_vars[] = {
	[VDV_NATIVE_SHARED] = "native_shared", [VDV_WRAPPER] = "wrapper", NULL,
};
static const char *const iter_var_help[] = {
	[VDV_NATIVE_SHARED] = "the directory's filesystem has its own ->iterate_shared "
			      "under this kernel (1 or 0)",
	[VDV_WRAPPER] = "the kernel wraps a legacy ->iterate for a shared call "
			"(wrap_directory_iterator, 3e3271549670 on; 1 or 0)",
	NULL,
};

const struct vfs_decision_desc vfs_decisions[VDEC__COUNT] = {
	[VDEC_FPOS_LOCK] = { "file_needs_f_pos_lock", fpos_vars, fpos_var_help,
		"whether fdget_pos takes the file's f_pos_lock (before v6.5 the "
		"same test inline in __fdget_pos)" },
	[VDEC_FGET_LIGHT] = { "__fget_light", fget_vars, fget_var_help,
		"whether fdget and fdget_pos borrow the file (no reference, "
		"FDPUT_FPUT clear) rather than take a real one" },
	[VDEC_ITERATE] = { "iterate_dir", iter_vars, iter_var_help,
		"whether iterate_dir takes the directory's i_rwsem shared and calls "
		"->iterate_shared (wrapped by wrap_directory_iterator for a "
		"filesystem without one where the kernel has the wrapper, else its "
		"->iterate under the shared lock), or exclusive and ->iterate" },
};

int vfs_decision_lookup(const char *fn)
{
	return ROW_LOOKUP(vfs_decisions, VDEC__COUNT, fn, fn);
}

int vfs_decision_var(int dec, const char *name)
{
	const char *const *v = vfs_decisions[dec].vars;
	for (int i = 0; v[i]; i++)
		if (!strcmp(v[i], name))
			return i;
	return -1;
}

/* core/file.c's needs_f_pos_lock, knob by knob, in the same order of
 * reads, and its fget_light */
const char *vfs_decision_builtin(int dec, const struct vfs_knobs *k)
{
	if (dec == VDEC_FGET_LIGHT)
		return "table_users == 1";      /* every era */
	if (dec == VDEC_ITERATE)        /* core/readdir.c's iterate_shared() */
		return k->iterate == ITER_SHARED ? "true" :
		       k->iterate == ITER_DUAL ? "native_shared" : "false";
	switch (k->fpos_lock) {
	case FPOS_ALWAYS: return "atomic_pos";
	case FPOS_COUNT_OR_DIR: return "atomic_pos && (count > 1 || dir)";
	case FPOS_COUNT_OR_ITERATE: return "atomic_pos && (count > 1 || iterate_shared)";
	default: return "atomic_pos && count > 1";
	}
}

static int nvars(int dec)
{
	int n = 0;
	while (vfs_decisions[dec].vars[n])
		n++;
	return n;
}

/* a node's operands come before it (the parser makes them first): no cycle */
int vfs_expr_check(int dec, const struct vfs_expr *e)
{
	if (e->n == 0 || e->n > VFS_EXPR_NODES || e->root >= e->n)
		return -VE_INVAL;
	for (int i = 0; i < e->n; i++) {
		const struct vfs_xnode *x = &e->node[i];
		if (x->op >= XO__COUNT)
			return -VE_INVAL;
		bool field = dec != VDEC_FGET_LIGHT && x->v >= VFS_XVAR_FIELD + FLD__COUNT &&
			     x->v < VFS_XVAR_FIELD + 256;
		if (x->op == XO_VAR && (x->v < 0 || (x->v >= nvars(dec) && !field)))
			return -VE_INVAL;
		if (x->op != XO_CONST && x->op != XO_VAR && x->l >= i)
			return -VE_INVAL;
		if (x->op >= XO_AND && x->r >= i)
			return -VE_INVAL;
	}
	return 0;
}

static int64_t eval(const struct vfs_expr *e, int i,
		    int64_t (*var)(void *, int), void *ctx)
{
	const struct vfs_xnode *x = &e->node[i];
	switch (x->op) {
	case XO_CONST: return x->v;
	case XO_VAR: return var(ctx, x->v);
	case XO_NOT: return !eval(e, x->l, var, ctx);
	case XO_AND: return eval(e, x->l, var, ctx) && eval(e, x->r, var, ctx);
	case XO_OR: return eval(e, x->l, var, ctx) || eval(e, x->r, var, ctx);
	default: break;
	}
	int64_t a = eval(e, x->l, var, ctx), b = eval(e, x->r, var, ctx);
	switch (x->op) {
	case XO_LT: return a < b;
	case XO_LE: return a <= b;
	case XO_GT: return a > b;
	case XO_GE: return a >= b;
	case XO_EQ: return a == b;
	default: return a != b;
	}
}

int64_t vfs_expr_eval(const struct vfs_expr *e, int64_t (*var)(void *ctx, int id),
		      void *ctx)
{
	return eval(e, e->root, var, ctx);
}

/* binding strength, for the parentheses the text needs */
static int prec(int op)
{
	switch (op) {
	case XO_OR: return 1;
	case XO_AND: return 2;
	case XO_CONST: case XO_VAR: case XO_NOT: return 4;
	default: return 3;
	}
}

static size_t text(int dec, const struct vfs_expr *e, int i, int outer, char *buf,
		   size_t n, size_t o)
{
	static const char *const ops[XO__COUNT] = { [XO_AND] = "&&", [XO_OR] = "||",
		[XO_LT] = "<", [XO_LE] = "<=", [XO_GT] = ">", [XO_GE] = ">=",
		[XO_EQ] = "==", [XO_NE] = "!=" };
	const struct vfs_xnode *x = &e->node[i];
	bool paren = prec(x->op) < outer;
#define PUT(...) (o += (size_t)snprintf(buf + (o < n ? o : n), o < n ? n - o : 0, __VA_ARGS__))
	if (paren)
		PUT("(");
	if (x->op == XO_CONST)
		PUT("%d", x->v);
	else if (x->op == XO_VAR)
		PUT("%s", x->v >= VFS_XVAR_FIELD ? vfs_field_name(x->v - VFS_XVAR_FIELD) :
		    vfs_decisions[dec].vars[x->v]);
	else if (x->op == XO_NOT) {
		PUT("!");
		o = text(dec, e, x->l, 4, buf, n, o);
	} else {
		/* (left-associative: a right operand of the same strength
		 * keeps its parentheses) */
		o = text(dec, e, x->l, prec(x->op), buf, n, o);
		PUT(" %s ", ops[x->op]);
		o = text(dec, e, x->r, prec(x->op) + 1, buf, n, o);
	}
	if (paren)
		PUT(")");
#undef PUT
	return o;
}

void vfs_expr_text(int dec, const struct vfs_expr *e, char *buf, size_t n)
{
	if (n)
		buf[0] = 0;
	if (e->n)
		text(dec, e, e->root, 0, buf, n, 0);
}

int vfs_override_set(struct vfs_world *w, int dec, const struct vfs_expr *e)
{
	if (e && vfs_expr_check(dec, e) < 0)
		return -VE_INVAL;
	if (!e && !vfs_override(w, dec))
		return 0;
	struct vfs_kdefs *k = kdefs_mut(w);
	if (!k)
		return -VE_NOMEM;
	if (e)
		k->overrides[dec] = *e;
	else
		memset(&k->overrides[dec], 0, sizeof k->overrides[dec]);
	return 0;
}
