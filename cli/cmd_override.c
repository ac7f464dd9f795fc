/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_override.c - `override [FUNC [EXPR... | default]]`: replace a decision
 * of a kernel function by an expression over the state it sees
 * (core/override.c), as a kernel developer would write the condition:
 *
 *	override file_needs_f_pos_lock atomic_pos && (count > 1 || dir)
 *
 * The expression is read word by word (the line's words: "(count" is two
 * tokens), each token keeping its column, so an error names the one at
 * fault.  Grammar, loosest first: or: and {|| and}; and: cmp {&& cmp};
 * cmp: unary [(<|<=|>|>=|==|!=) unary]; unary: ! unary | NUMBER | true |
 * false | VARIABLE | ( or ).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "fns.h"
#include "vfs_trace.h"

enum tok_kind { T_END, T_NUM, T_NAME, T_OP };
struct tok { int kind; char text[32]; int col; };

struct parser {
	struct session *s;
	int dec;
	struct tok t[VFS_EXPR_NODES * 3];
	int nt, at;
	struct vfs_expr e;
	int failed;
};

static const char *const two_char_ops[] = { "&&", "||", "<=", ">=", "==", "!=" };

/* the words of the expression into tokens; -1 reported */
static int tokenize(struct parser *p, const struct cmd_call *c, int first)
{
	for (int i = first; i < c->argc; i++) {
		const char *w = c->argv[i];
		for (int k = 0; w[k];) {
			struct tok *t = &p->t[p->nt];
			int col = c->cols[i] + k, len = 0;
			if (p->nt + 1 >= (int)(sizeof p->t / sizeof p->t[0]))
				return cli_error_at(p->s, col, "override: the expression is too "
						    "long (at most %d terms)", VFS_EXPR_NODES);
			if (isdigit((unsigned char)w[k])) {
				t->kind = T_NUM;
				while (isdigit((unsigned char)w[k + len]))
					len++;
			} else if (isalpha((unsigned char)w[k]) || w[k] == '_') {
				t->kind = T_NAME;
				while (isalnum((unsigned char)w[k + len]) || w[k + len] == '_')
					len++;
			} else {
				t->kind = T_OP;
				len = 1;
				for (size_t o = 0; o < sizeof two_char_ops / sizeof *two_char_ops; o++)
					if (!strncmp(w + k, two_char_ops[o], 2))
						len = 2;
				if (len == 1 && !strchr("()!<>", w[k]))
					return cli_error_at(p->s, col, "override: '%c' is not an "
							    "operator (!, &&, ||, <, <=, >, >=, ==, "
							    "!=, parentheses)", w[k]);
			}
			if (len >= (int)sizeof t->text)
				return cli_error_at(p->s, col, "override: '%.*s' is too long",
						    len, w + k);
			snprintf(t->text, sizeof t->text, "%.*s", len, w + k);
			t->col = col;
			p->nt++;
			k += len;
		}
	}
	p->t[p->nt].kind = T_END;
	p->t[p->nt].col = c->argc ? c->cols[c->argc - 1] + (int)strlen(c->argv[c->argc - 1]) : 1;
	return 0;
}

static const struct tok *peek(struct parser *p) { return &p->t[p->at]; }
static bool is_op(const struct tok *t, const char *op)
{
	return t->kind == T_OP && !strcmp(t->text, op);
}

static int node(struct parser *p, int op, int l, int r, int v, int col)
{
	if (p->failed)
		return 0;
	if (p->e.n >= VFS_EXPR_NODES) {
		p->failed = 1;
		cli_error_at(p->s, col, "override: the expression is too long (at most %d "
			     "terms)", VFS_EXPR_NODES);
		return 0;
	}
	p->e.node[p->e.n] = (struct vfs_xnode){ .op = (uint8_t)op, .l = (uint8_t)l,
		.r = (uint8_t)r, .v = (int16_t)v };
	return p->e.n++;
}

static int fail_at(struct parser *p, const struct tok *t, const char *want)
{
	if (!p->failed) {
		p->failed = 1;
		if (t->kind == T_END)
			cli_error_at(p->s, t->col, "override: the expression ends where %s "
				     "should follow", want);
		else
			cli_error_at(p->s, t->col, "override: '%s' where %s should be",
				     t->text, want);
	}
	return 0;
}

static int parse_or(struct parser *p);

static int parse_unary(struct parser *p)
{
	const struct tok *t = peek(p);
	if (p->failed)
		return 0;
	if (is_op(t, "!")) {
		p->at++;
		int a = parse_unary(p);
		return node(p, XO_NOT, a, 0, 0, t->col);
	}
	if (is_op(t, "(")) {
		p->at++;
		int a = parse_or(p);
		if (!p->failed && !is_op(peek(p), ")"))
			return fail_at(p, peek(p), "')'");
		p->at++;
		return a;
	}
	if (t->kind == T_NUM) {
		long v = strtol(t->text, NULL, 10);
		if (v > 32767) {
			p->failed = 1;
			cli_error_at(p->s, t->col, "override: %s is too large (at most 32767)",
				     t->text);
			return 0;
		}
		p->at++;
		return node(p, XO_CONST, 0, 0, (int)v, t->col);
	}
	if (t->kind == T_NAME) {
		p->at++;
		if (!strcmp(t->text, "true") || !strcmp(t->text, "false"))
			return node(p, XO_CONST, 0, 0, t->text[0] == 't', t->col);
		int v = vfs_decision_var(p->dec, t->text);
		int fld = vfs_field_lookup(t->text);
		if (v < 0 && p->dec != VDEC_FGET_LIGHT && vfs_ufield_slot(p->s->w, fld) >= 0)
			v = VFS_XVAR_FIELD + fld;       /* a field the script declared */
		if (v < 0) {
			const struct vfs_decision_desc *d = &vfs_decisions[p->dec];
			int n = 0;
			while (d->vars[n])
				n++;
			const char *sug = did_you_mean(t->text, (const char *const *)d->vars, n);
			char list[256] = "";
			size_t o = 0;
			for (int i = 0; i < n && o < sizeof list; i++)
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
						      i ? ", " : "", d->vars[i]);
			p->failed = 1;
			if (sug)
				cli_error_at(p->s, t->col, "override: %s sees no '%s' (did you "
					     "mean '%s'?)", d->fn, t->text, sug);
			else
				cli_error_at(p->s, t->col, "override: %s sees no '%s' (it sees "
					     "%s)", d->fn, t->text, list);
			return 0;
		}
		return node(p, XO_VAR, 0, 0, v, t->col);
	}
	return fail_at(p, t, "a variable, a number, '!' or '('");
}

static int parse_cmp(struct parser *p)
{
	static const struct { const char *op; int xo; } cmp[] = {
		{ "<", XO_LT }, { "<=", XO_LE }, { ">", XO_GT }, { ">=", XO_GE },
		{ "==", XO_EQ }, { "!=", XO_NE } };
	int a = parse_unary(p);
	const struct tok *t = peek(p);
	for (size_t i = 0; i < sizeof cmp / sizeof cmp[0] && !p->failed; i++)
		if (is_op(t, cmp[i].op)) {
			p->at++;
			int b = parse_unary(p);
			return node(p, cmp[i].xo, a, b, 0, t->col);
		}
	return a;
}

/* or: and {|| and}; and: cmp {&& cmp} */
static int parse_chain(struct parser *p, bool or)
{
	const char *op = or ? "||" : "&&";
	int a = or ? parse_chain(p, false) : parse_cmp(p);
	while (!p->failed && is_op(peek(p), op)) {
		int col = peek(p)->col;
		p->at++;
		int b = or ? parse_chain(p, false) : parse_cmp(p);
		a = node(p, or ? XO_OR : XO_AND, a, b, 0, col);
	}
	return a;
}

static int parse_or(struct parser *p)
{
	return parse_chain(p, true);
}

static void show(struct session *s, int dec)
{
	const struct vfs_decision_desc *d = &vfs_decisions[dec];
	const struct vfs_expr *e = vfs_world_override(s->w, dec);
	char text[512];
	out(s, "%s: %s\n", d->fn, d->help);
	out(s, "  the kernel's:   %s\n", vfs_decision_builtin(dec, vfs_world_knobs(s->w)));
	if (e) {
		vfs_expr_text(dec, e, text, sizeof text);
		out(s, "  the script's:   %s\n", text);
	}
	for (int i = 0; d->vars[i]; i++)
		out(s, "  %-15s %s\n", d->vars[i], d->var_help[i]);
	for (int i = 0; dec != VDEC_FGET_LIGHT && i < vfs_nufields(s->w); i++) {
		const struct vfs_ufield *u = vfs_ufield_get(s->w, i);
		out(s, "  %-15s the script's field of the %s ('field'), its read traced\n",
		    vfs_field_name(u->fld), u->obj == KO_FILE ? "file" : "file's inode");
	}
}

void override_text(int dec, const struct vfs_expr *e, char *buf, size_t n)
{
	char text[512];
	vfs_expr_text(dec, e, text, sizeof text);
	snprintf(buf, n, "override %s %s", vfs_decisions[dec].fn, text);
}

const char c_override_help[] =
	"'override FUNC EXPR' replaces the decision of kernel function FUNC by\n"
	"the expression EXPR over the state FUNC sees, written as its condition:\n"
	"  override file_needs_f_pos_lock atomic_pos && (count > 1 || dir)\n"
	"EXPR has numbers, true, false, the function's variables (and the fields\n"
	"'field' declared, of the file FUNC sees or its inode), !, &&, ||\n"
	"(each stops as soon as its answer is known: a variable is read, and the\n"
	"read traced, only where the kernel's code would read it), <, <=, >, >=,\n"
	"==, != and parentheses. Where the script's answer differs from the\n"
	"kernel's, the trace notes it, as it notes the knobs' deliberately wrong\n"
	"values. 'override' lists the decisions, the kernel's own expression\n"
	"under this kernel and the variables; 'override FUNC default' gives the\n"
	"decision back to the kernel. 'kernel PRESET' does too, as it resets the\n"
	"knobs; 'reset' keeps overrides.\n"
	"file_needs_f_pos_lock (fdget_pos takes f_pos_lock) sees atomic_pos,\n"
	"count (file_count), dir, iterate_shared (f_op->iterate_shared under\n"
	"this kernel), regular; __fget_light (fdget borrows the file, no\n"
	"reference) sees table_users (files->count).";

HANDLER(c_override)
{
	if (!c->argc) {
		for (int i = 0; i < VDEC__COUNT; i++)
			show(s, i);
		return 0;
	}
	int dec = vfs_decision_lookup(c->argv[0]);
	if (dec < 0) {
		const char *names[VDEC__COUNT];
		for (int i = 0; i < VDEC__COUNT; i++)
			names[i] = vfs_decisions[i].fn;
		const char *sug = did_you_mean(c->argv[0], names, VDEC__COUNT);
		if (sug)
			return cli_error_at(s, c->cols[0], "override: %s has no decision to "
					    "override (did you mean '%s'?)", c->argv[0], sug);
		return cli_error_at(s, c->cols[0], "override: %s has no decision to "
				    "override (see 'override')", c->argv[0]);
	}
	if (c->argc == 1) {
		show(s, dec);
		return 0;
	}
	if (c->argc == 2 && !strcmp(c->argv[1], "default")) {
		if (vfs_override_set(s->w, dec, NULL) < 0)
			return cli_errno(s, "override", NULL, -VE_NOMEM);
		session_log_setup(s, c, "override");
		return 0;
	}
	struct parser *p = calloc(1, sizeof *p);
	if (!p)
		return cli_errno(s, "override", NULL, -VE_NOMEM);
	p->s = s;
	p->dec = dec;
	int r = tokenize(p, c, 1);
	if (r == 0) {
		p->e.root = (uint8_t)parse_or(p);
		if (!p->failed && peek(p)->kind != T_END)
			fail_at(p, peek(p), "the end of the expression or an operator");
		r = p->failed ? -1 : 0;
	}
	if (r == 0 && (r = vfs_override_set(s->w, dec, &p->e)) < 0)
		r = r == -VE_NOMEM ? cli_errno(s, "override", NULL, r) :
		    cli_error(s, "override: the expression is not one (a bug)");
	if (r == 0)
		session_log_setup(s, c, "override");
	free(p);
	return r;
}
