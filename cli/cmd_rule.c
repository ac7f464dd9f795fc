/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_rule.c - `rule [lockorder A before B | rank LOCK N]`: a lock-order
 * rule of the script's own, checked on every acquisition beside lockdep's
 * (core/lockdep.c check_rules), as directory-locking.rst writes them:
 *
 *	rule rank s_vfs_rename_mutex 1
 *	rule rank i_rwsem:parent 2
 *	rule lockorder s_vfs_rename_mutex before i_rwsem_dir
 *
 * A lock is a class as lockdep names it, with the nesting subclass
 * inode_lock_nested gives it after a colon.  Errors name the word at fault.
 */
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "vfs_trace.h"

#define LOCK_WORDS "s_vfs_rename_mutex, f_pos_lock, i_rwsem, i_rwsem_dir, " \
	"i_rwsem_nondir, f_lock, cred_guard_mutex, exec_update_mutex, " \
	"exec_update_lock or d_update, with :normal, :parent, :child, :xattr, :nondir2 or " \
	":parent2 for an i_rwsem"

static int lock_word(struct session *s, const struct cmd_call *c, int i,
		     struct vfs_lockpat *p)
{
	int bad;
	if (vfs_lockpat_parse(c->argv[i], p, &bad) == 0)
		return 0;
	if (bad)
		return cli_error_at(s, c->cols[i] + bad, "rule: '%s' is no nesting "
				    "subclass of %.*s (an i_rwsem's: normal, parent, "
				    "child, xattr, nondir2, parent2 or 0 to 5; a child, "
				    "as do_unlinkat and vfs_rename lock it, is normal)", c->argv[i] + bad,
				    bad - 1, c->argv[i]);
	return cli_error_at(s, c->cols[i], "rule: '%s' is no lock class (" LOCK_WORDS ")",
			    c->argv[i]);
}

void rule_text_line(const struct vfs_rule *r, char *buf, size_t n)
{
	char t[96];
	vfs_rule_text(r, t, sizeof t);
	snprintf(buf, n, "rule %s", t);
}

static int parse_rule(struct session *s, const struct cmd_call *c, struct vfs_rule *rp,
		      bool adding);

/* `rule remove RULE` (its words as declared) or `rule remove all` */
static int remove_rule(struct session *s, const struct cmd_call *c)
{
	if (c->argc == 2 && !strcmp(c->argv[1], "all")) {
		while (vfs_nrules(s->w))
			vfs_rule_remove(s->w, 0);
		session_log_setup(s, c, "rule");
		return 0;
	}
	struct cmd_call rest = *c;
	rest.argc--;
	rest.argv++;
	rest.cols++;
	/* the rule's words, checked as `rule` checks them: by its synopsis */
	const struct cmd_entry *e = cmd_find("rule");
	struct vfs_rule r;
	if (cmd_check_words(s, e->name, e->args, e->min_args, e->max_args, "", &rest) < 0 ||
	    parse_rule(s, &rest, &r, false) < 0)
		return -1;
	for (int i = 0; i < vfs_nrules(s->w); i++)
		if (!memcmp(vfs_rule_get(s->w, i), &r, sizeof r)) {
			if (vfs_rule_remove(s->w, i) < 0)
				return cli_errno(s, "rule", NULL, -VE_NOMEM);
			session_log_setup(s, c, "rule");
			return 0;
		}
	char t[96];
	vfs_rule_text(&r, t, sizeof t);
	return cli_error_at(s, c->cols[1], "rule: no rule '%s' to remove ('rule' "
			    "lists them)", t);
}

const char c_rule_help[] =
	"'rule lockorder A before B': no thread takes A while holding B.\n"
	"'rule rank LOCK N', as Documentation/filesystems/directory-locking.rst\n"
	"ranks locks: no thread takes a lock while holding one of the same or a\n"
	"higher rank (a lock without a rank is not checked):\n"
	"  rule rank s_vfs_rename_mutex 1\n"
	"  rule rank i_rwsem:parent 2\n"
	"  rule rank i_rwsem:parent2 3\n"
	"A lock is a class as lockdep names it: s_vfs_rename_mutex, f_pos_lock,\n"
	"i_rwsem (any inode; i_rwsem_dir, i_rwsem_nondir), f_lock,\n"
	"cred_guard_mutex, exec_update_mutex, exec_update_lock; an i_rwsem may\n"
	"name the nesting subclass inode_lock_nested gives it (:normal, :parent,\n"
	":child, :xattr, :nondir2, :parent2; lockdep's /0 to /5, the kernel's\n"
	"numbers), else any subclass matches.\n"
	"'rule write f_pos under f_pos_lock': f_pos of a file only written while\n"
	"holding that file's f_pos_lock ('access': read too; an i_rwsem is the\n"
	"file's inode's). 'rule field users <= 1': every value written to the\n"
	"field (f_pos, cursor, size or a declared one) of any object is <= 1 (CMP:\n"
	"< <= > >= == !=). 'rule entries once per pass': an open directory hands\n"
	"out each entry once in one pass.\n"
	"Each acquisition is checked while stepping and by 'explore' (the\n"
	"violation 'rule'); a broken rule is reported like lockdep's warnings\n"
	"('reports rule', 'expect no rule'). 'rule remove RULE' (its words as\n"
	"'rule' lists it) or 'rule remove all' takes rules back. 'rule' lists\n"
	"the rules; 'reset',\n"
	"'kernel', 'back', 'compare', 'explore' and 'save' keep them.";

HANDLER(c_rule)
{
	struct vfs_rule r;
	if (!c->argc) {
		if (!vfs_nrules(s->w))
			out(s, "no rules (the built-in checks only: 'lockdep')\n");
		for (int i = 0; i < vfs_nrules(s->w); i++) {
			char t[96];
			vfs_rule_text(vfs_rule_get(s->w, i), t, sizeof t);
			out(s, "rule %s\n", t);
		}
		return 0;
	}
	if (!strcmp(c->argv[0], "remove"))
		return remove_rule(s, c);
	if (parse_rule(s, c, &r, true) < 0)
		return -1;
	int e = vfs_rule_add(s->w, &r);
	if (e == -VE_NOSPC)
		return cli_error(s, "rule: too many rules (at most %d)", VFS_MAX_RULES);
	if (e < 0)
		return cli_errno(s, "rule", NULL, -VE_NOMEM);
	session_log_setup(s, c, "rule");
	return 0;
}

/* The kinds of rule by their first word. */
static const struct { const char *word; uint8_t kind; } rule_kinds[] = {
	{ "lockorder", VRULE_ORDER }, { "rank", VRULE_RANK },
	{ "write", VRULE_UNDER }, { "access", VRULE_UNDER }, { "entries", VRULE_ONCE },
	{ "field", VRULE_VALUE },
};
#define NRULE_KINDS (int)(sizeof rule_kinds / sizeof rule_kinds[0])

/* The words of a rule -> *RP (zeroed first: rules compare by memcmp);
 * ADDING: a lock ranked already is refused. */
static int parse_rule(struct session *s, const struct cmd_call *c, struct vfs_rule *rp,
		      bool adding)
{
	struct vfs_rule r;
	memset(&r, 0, sizeof r);
	/* the words' number and keywords: the synopsis (cmd_check_words) */
	int k = 0;
	while (k < NRULE_KINDS && strcmp(c->argv[0], rule_kinds[k].word))
		k++;
	if (k == NRULE_KINDS) {
		char kinds[128];
		size_t o = 0;
		for (int i = 0; i < NRULE_KINDS; i++)
			o += (size_t)snprintf(kinds + o, sizeof kinds - o, "%s%s", i ? ", " : "",
					      rule_kinds[i].word);
		return cli_error_at(s, c->cols[0], "rule: '%s' is no kind of rule "
				    "(%s; remove)", c->argv[0], kinds);
	}
	r.kind = rule_kinds[k].kind;
	switch (r.kind) {
	case VRULE_ORDER:
		if (lock_word(s, c, 1, &r.a) < 0 || lock_word(s, c, 3, &r.b) < 0)
			return -1;
		if (!memcmp(&r.a, &r.b, sizeof r.a))
			return cli_error_at(s, c->cols[3], "rule: a lock cannot come "
					    "before itself ('rule rank' orders locks of "
					    "one class by subclass)");
		break;
	case VRULE_RANK:
		if (lock_word(s, c, 1, &r.a) < 0)
			return -1;
		char *end;
		long v = strtol(c->argv[2], &end, 10);
		if (!c->argv[2][0] || *end || v < 0 || v > 1000)
			return cli_error_at(s, c->cols[2], "rule: rank '%s' is not a "
					    "number from 0 to 1000", c->argv[2]);
		r.rank = (int16_t)v;
		for (int i = 0; adding && i < vfs_nrules(s->w); i++) {
			const struct vfs_rule *o = vfs_rule_get(s->w, i);
			if (o->kind == VRULE_RANK && !memcmp(&o->a, &r.a, sizeof r.a))
				return cli_error_at(s, c->cols[1], "rule: %s has a rank "
						    "already (%d)", c->argv[1], o->rank);
		}
		break;
	case VRULE_UNDER: {
		/* an invariant over a field: f_pos only written under f_pos_lock */
		r.reads = c->argv[0][0] == 'a';
		int f = vfs_field_lookup(c->argv[1]);
		if (f != FLD_F_POS && f != FLD_CURSOR && f != FLD_DIR && f != FLD_SIZE &&
		    f != FLD_DATA && vfs_ufield_slot(s->w, f) < 0)
			return cli_error_at(s, c->cols[1], "rule: '%s' is no field a lock "
					    "protects (f_pos, cursor, dir, size, data, or "
					    "one 'field' declared)", c->argv[1]);
		r.field = (uint8_t)f;
		if (lock_word(s, c, 3, &r.a) < 0)
			return -1;
		break;
	}
	case VRULE_VALUE: {
		/* an invariant over a field's values: 'field users <= 1' */
		int f = vfs_field_lookup(c->argv[1]);
		if (f != FLD_F_POS && f != FLD_CURSOR && f != FLD_SIZE &&
		    vfs_ufield_slot(s->w, f) < 0)
			return cli_error_at(s, c->cols[1], "rule: '%s' is no field with "
					    "values to check (f_pos, cursor, size, or one "
					    "'field' declared)", c->argv[1]);
		r.field = (uint8_t)f;
		r.cmp = (uint8_t)cmp_word(c->argv[2]);
		if (r.cmp == KC_NONE)
			return cli_error_at(s, c->cols[2], "rule: '%s' is no comparison "
					    "(<, <=, >, >=, ==, !=)", c->argv[2]);
		long long v;
		if (parse_num(c->argv[3], &v) < 0)
			return cli_error_at(s, c->cols[3], "rule: '%s' is not a number",
					    c->argv[3]);
		r.value = v;
		break;
	}
	default:        /* VRULE_ONCE: each entry once per pass of an open directory */
		break;
	}
	*rp = r;
	return 0;
}
