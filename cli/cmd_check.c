/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_check.c - expect CONDITION: the fixed conditions of vfsim(5).
 * A failed expect says what was expected and what was seen, with FILE:LINE
 * in a script, and makes the script exit 1.
 */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>
#include "commands.h"
#include "explore_cli.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_detect.h"
#include "vfs_file.h"
#include "vfs_inode.h"
#include "vfs_thread.h"

static int failed(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int failed(struct session *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_vmessage(s, "expect failed:", fmt, ap);
	va_end(ap);
	if (s->file)
		s->failed = 1;
	return 0;
}

static int lock_cls_arg(struct session *s, const char *name, int *cls)
{
	*cls = vfs_class_lookup(name);
	if (!*cls)
		return cli_error(s, "expect: unknown lock '%s' (f_pos_lock, i_rwsem, "
				 "f_lock, rename_mutex, cred_guard_mutex, "
				 "exec_update_mutex, exec_update_lock)", name);
	return 0;
}

/* A verdict on KIND the detectors cannot give: a table of theirs filled
 * (core/vfs_limits.h) and the detector deciding it went off.  -1 with the
 * message (exit status 2 in a script), or 0. */
static int refused(struct session *s, int kind, const char *what, bool want)
{
	if (explore_cli_active(s)) {
		int n = explore_cli_count(s, DK_OVERFLOW, FLD_NONE);
		if (!n)
			return 0;
		char lim[512];
		explore_cli_limits(s, lim, sizeof lim);
		return cli_error(s, "expect %s%s: cannot answer: a detector's "
				 "table filled in %d explored execution%s: %s",
				 want ? "" : "no ", what, n, n == 1 ? "" : "s", lim);
	}
	int lim = vfs_verdict_refused(s->w, kind);
	if (lim == VL_NONE)
		return 0;
	char why[160];
	vfs_overflow_text(s->w, lim, why, sizeof why);
	const char *p = strchr(why, ':');      /* after "vfsim:" */
	return cli_error(s, "expect %s%s: cannot answer:%s", want ? "" : "no ", what,
			 p ? p + 1 : why);
}

static int want_count(struct session *s, int kind, const char *what, bool want,
		      int field)
{
	int n;
	const char *scope = "";
	if (explore_cli_active(s)) {
		n = explore_cli_count(s, kind, field);
		scope = " in any explored execution";
		if (n < 0)
			return failed(s, "%s%s: not known: explore stopped at its first "
				      "violation, of another kind ('explore all' goes on)",
				      want ? "" : "no ", what);
	} else {
		n = vfs_report_count(s->w, kind, field);
	}
	/* a report made stays true; its absence means nothing once the
	 * detector is off */
	if (!(want && n) && refused(s, kind, what, want) < 0)
		return -1;
	if (want && !n)
		return failed(s, "%s: none happened%s", what, scope);
	/* no violation in a search cut short is no answer */
	if (!want && !n && explore_cli_active(s) && explore_cli_partial(s))
		return failed(s, "no %s: %s", what, explore_cli_partial(s));
	if (!want && n) {
		const char *first = "";
		char buf[512] = "";
		const struct vfs_detect *det = vfs_world_detect(s->w);
		for (int i = 0; i < det->nreports && !explore_cli_active(s); i++)
			if (det->reports[i].kind == kind) {
				vfs_report_text(s->w, &det->reports[i], buf, sizeof buf);
				first = buf;
				break;
			}
		return failed(s, "no %s: %d seen%s%s%s", what, n, scope, *first ? ": " : "",
			      first);
	}
	return 0;
}

/* ---- the conditions, one evaluator each: (S, its row, "no" given, the
 * words after the condition's name) ---- */
#define COND(n) static int n(struct session *s, const struct expect_cond *ec, \
			     bool neg, int rest, char **a)

COND(cond_ret)
{
	const struct vfs_world *w = s->w;
	(void)ec; (void)neg; (void)rest;
	if (vfs_world_last_done(w) < 0)
		return failed(s, "ret %s: no system call has completed", a[0]);
	int64_t r = vfs_call_ret(w, vfs_world_last_done(w));
	long long v;
	int e = vfs_errno_lookup(a[0]);
	bool ok;
	if (e)
		ok = r == -e;
	else if (!parse_num(a[0], &v))
		ok = r == v;
	else
		return cli_error(s, "expect ret: '%s' is neither a number nor an errno name",
				 a[0]);
	if (!ok) {
		char got[32], th[32];
		vfs_ret_text(r, got, sizeof got);
		vfs_thread_name(w, vfs_world_last_done(w), th, sizeof th);
		return failed(s, "ret: expected %s, got %s (from %s's %s)", a[0], got, th,
			      call_kname(w, vfs_thread_call(w, vfs_world_last_done(w))));
	}
	return 0;
}

COND(cond_read)
{
	const struct vfs_world *w = s->w;
	(void)ec; (void)neg; (void)rest;
	if (strlen(a[0]) > VFS_TEXT_MAX)
		return cli_error(s, "expect read: at most %d bytes are kept to compare, "
				 "not %zu", VFS_TEXT_MAX, strlen(a[0]));
	if (vfs_world_last_done(w) < 0)
		return failed(s, "read: no system call has completed");
	int tid = vfs_world_last_done(w);
	const struct vfs_call *call = vfs_thread_call(w, tid);
	if (!(vfs_sys[call->sys].flags & VSYS_READS))
		return failed(s, "read: the most recent call was %s, not a read",
			      call_kname(w, call));
	int64_t ret = vfs_call_ret(w, tid);
	const char *text = vfs_call_text(w, tid);
	if (ret != (int64_t)strlen(a[0]) || strcmp(text, a[0])) {
		char got[32];
		vfs_ret_text(ret, got, sizeof got);
		return failed(s, "read: expected \"%s\", got %s \"%s\"", a[0], got,
			      ret > 0 ? text : "");
	}
	return 0;
}

COND(cond_entries)
{
	const struct vfs_world *w = s->w;
	(void)ec; (void)neg;
	if (vfs_world_last_getdents(w) < 0)
		return failed(s, "entries: no getdents has completed");
	int tid = vfs_world_last_getdents(w), nent = vfs_call_nent(w, tid);
	int64_t ret = vfs_call_ret(w, tid);
	char got[1024] = "", want[1024] = "";
	size_t o = 0;
	bool ok = ret >= 0 && nent == rest;
	for (int i = 0; i < nent; i++) {
		const char *nm = vfs_rec_entry_name(w, tid, i);
		if (o < sizeof got)     /* a long list is cut, not overrun */
			o += (size_t)snprintf(got + o, sizeof got - o, "%s%s",
					      i ? " " : "", nm);
		if (i < rest && strcmp(nm, a[i]))
			ok = false;
	}
	if (ret < 0)
		vfs_ret_text(ret, got, sizeof got);
	if (!ok) {
		o = 0;
		for (int i = 0; i < rest && o < sizeof want; i++)
			o += (size_t)snprintf(want + o, sizeof want - o, "%s%s", i ? " " : "",
					      a[i]);
		return failed(s, "entries: expected [%s], got [%s]", want, got);
	}
	return 0;
}

/* fpos and count: a number of the open file */
COND(cond_file_num)
{
	const struct vfs_world *w = s->w;
	const char *k = ec->name;
	long long v;
	int f;
	(void)neg; (void)rest;
	if (parse_num(a[1], &v) < 0)
		return cli_error(s, "expect %s: N must be a number, not '%s'", k, a[1]);
	if (resolve_file(s, a[0], &f) < 0)
		return -1;
	long long got = !strcmp(k, "fpos") ? vfs_file_pos(w, f) : vfs_file_count(w, f);
	if (got != v)
		return failed(s, "%s %s: expected %lld, got %lld", k, a[0], v, got);
	return 0;
}

/* `expect field FIELD OBJECT N`: a field of a file (FILE: file#N or
 * PROC:FD) or of an inode (PATH, or a FILE's inode), the kernel's own
 * (f_pos, cursor, f_count; size, dir: its entries) or one the script
 * declared ('field'), read as 'field' and 'files' show it */
static int field_name_arg(struct session *s, const char *name, int *fld, int *obj)
{
	const struct vfs_world *w = s->w;
	const char *all[NKERNEL_FIELDS + VFS_MAX_UFIELDS];
	int nall = field_candidates(w, all);
	*fld = vfs_field_lookup(name);
	for (int i = 0; i < nall; i++)
		if (!strcmp(name, all[i])) {
			*obj = i < NKERNEL_FIELDS ? (i < 3 ? KO_FILE : KO_INODE) :
			       vfs_ufield_get(w, i - NKERNEL_FIELDS)->obj;
			return 0;
		}
	const char *sug = did_you_mean(name, all, nall);
	if (sug)
		return cli_error(s, "expect field: unknown field '%s' (did you mean '%s'?)",
				 name, sug);
	return cli_error(s, "expect field: unknown field '%s' (f_pos, cursor, f_count, "
			 "size, dir; or one 'field NAME of file|inode' declares)", name);
}

COND(cond_field)
{
	const struct vfs_world *w = s->w;
	long long v;
	int fld, obj, idx;
	(void)ec; (void)neg; (void)rest;
	if (field_name_arg(s, a[0], &fld, &obj) < 0)
		return -1;
	if (parse_num(a[2], &v) < 0)
		return cli_error(s, "expect field: N must be a number, not '%s'", a[2]);
	if (a[1][0] == '/') {
		if (obj == KO_FILE)
			return cli_error(s, "expect field: %s is a field of a file: name "
					 "one (file#N or PROC:FD), not a path", a[0]);
		idx = vfs_path_lookup(w, a[1]);
		if (idx < 0)
			return cli_error(s, "expect field: %s: no such file or directory",
					 a[1]);
	} else {
		if (resolve_file(s, a[1], &idx) < 0)
			return -1;
		if (obj == KO_INODE) {
			if (vfs_file_kind(w, idx) != FK_INODE)
				return cli_error(s, "expect field: %s is a pidfd: it has "
						 "no inode", a[1]);
			idx = vfs_file_inode(w, idx);
		}
	}
	long long got;
	int slot = vfs_ufield_slot(w, fld);
	if (slot >= 0)
		got = vfs_ufield_value(w, slot, idx);
	else if (obj == KO_FILE)
		got = fld == FLD_F_POS ? vfs_file_pos(w, idx) : fld == FLD_CURSOR ?
		      vfs_file_cursor(w, idx) : vfs_file_count(w, idx);
	else
		got = fld == FLD_SIZE ? vfs_inode_size(w, idx) : vfs_dentry_nchildren(w, idx);
	if (got != v)
		return failed(s, "field %s %s: expected %lld, got %lld", a[0], a[1], v, got);
	return 0;
}

/* took, skipped, blocked: THREAD [LOCK [MODE]] */
struct thread_lock {
	int tid, cls, mode;     /* cls 0, mode -1: not given */
	char th[32];            /* its name */
};

static int thread_lock_args(struct session *s, const char *k, int rest, char **a,
			    struct thread_lock *x)
{
	x->cls = 0;
	x->mode = -1;
	if (resolve_thread(s, a[0], &x->tid) < 0)
		return -1;
	if (rest > 1 && lock_cls_arg(s, a[1], &x->cls) < 0)
		return -1;
	if (rest > 2) {
		/* the modes by the names every view prints them with */
		x->mode = M_EXCL;
		while (x->mode <= M_WRITE && strcmp(a[2], vfs_mode_name(x->mode)))
			x->mode++;
		if (x->mode > M_WRITE)
			return cli_error(s, "expect %s: mode is read, write or excl", k);
	}
	vfs_thread_name(s->w, x->tid, x->th, sizeof x->th);
	return 0;
}

COND(cond_took)
{
	struct thread_lock x;
	(void)neg;
	if (thread_lock_args(s, ec->name, rest, a, &x) < 0)
		return -1;
	if (!vfs_call_started(s->w, x.tid))
		return failed(s, "took: %s has made no call", x.th);
	if (!vfs_call_took(s->w, x.tid, x.cls, x.mode))
		return failed(s, "took: %s's %s did not take %s%s%s", x.th,
			      call_kname(s->w, vfs_thread_call(s->w, x.tid)), a[1],
			      rest > 2 ? " " : "",
			      rest > 2 ? a[2] : "");
	return 0;
}

/* `expect skipped THREAD f_pos_lock`: the call went through fdget_pos
 * without the lock; `expect no skipped`: no directory pass skipped an
 * entry (a detector's report) */
COND(cond_skipped)
{
	struct thread_lock x;
	if (neg && !rest)
		return want_count(s, DK_SKIPPED, vfs_kinds[DK_SKIPPED].what, false,
				  FLD_NONE);
	if (thread_lock_args(s, ec->name, rest, a, &x) < 0)
		return -1;
	if (!vfs_call_started(s->w, x.tid))
		return failed(s, "skipped: %s has made no call", x.th);
	if (!vfs_call_skipped_fpos(s->w, x.tid))
		return failed(s, "skipped: %s's %s did not skip f_pos_lock%s", x.th,
			      call_kname(s->w, vfs_thread_call(s->w, x.tid)),
			      vfs_call_took(s->w, x.tid, LC_F_POS_LOCK, -1) ? " (it took it)" : "");
	return 0;
}

COND(cond_blocked)
{
	const struct vfs_world *w = s->w;
	struct thread_lock x;
	(void)neg;
	if (thread_lock_args(s, ec->name, rest, a, &x) < 0)
		return -1;
	if (vfs_thread_state(w, x.tid) != TS_BLOCKED)
		return failed(s, "blocked: %s is not blocked", x.th);
	int cls = vfs_lock_class(w, vfs_thread_wait_lock(w, x.tid));
	if (x.cls && cls != x.cls && !(x.cls == LC_I_RWSEM_DIR && cls == LC_I_RWSEM)) {
		char why[256];
		session_blocked_line(s, x.tid, why, sizeof why);
		return failed(s, "blocked %s %s: %s", x.th, a[1], why);
	}
	return 0;
}

COND(cond_race)
{
	int field = FLD_NONE;
	(void)ec;
	if (rest) {
		field = vfs_field_lookup(a[0]);
		if (!field)
			return cli_error(s, "expect race: unknown field '%s' (f_pos, "
					 "cursor, dir, size, data)", a[0]);
	}
	char what[64];
	snprintf(what, sizeof what, "race%s%s", rest ? " on " : "", rest ? a[0] : "");
	return want_count(s, DK_RACE, what, !neg, field);
}

COND(cond_deadlock)
{
	const struct vfs_world *w = s->w;
	(void)ec; (void)a; (void)rest;
	if (explore_cli_active(s))
		return want_count(s, DK_DEADLOCK, vfs_kinds[DK_DEADLOCK].what, !neg,
				  FLD_NONE);
	/* a wait-for cycle now or earlier, or everybody stuck */
	struct vfs_report r;
	bool cyc = vfs_deadlock_find(w, -1, &r);
	int nrep = vfs_report_count(w, DK_DEADLOCK, FLD_NONE);
	bool dl = cyc || nrep || vfs_all_blocked(w);
	if (!cyc && !nrep && refused(s, DK_DEADLOCK, vfs_kinds[DK_DEADLOCK].what, !neg) < 0)
		return -1;
	if (dl && neg) {
		if (!cyc && nrep)
			for (int i = 0; i < vfs_world_detect(w)->nreports; i++)
				if (vfs_world_detect(w)->reports[i].kind == DK_DEADLOCK)
					r = vfs_world_detect(w)->reports[i];
		return failed(s, "no deadlock: %s", cyc || nrep ? r.text :
			      "every live thread is blocked");
	}
	if (!dl && !neg)
		return failed(s, "deadlock: no wait-for cycle, and some thread can "
			      "still run");
	return 0;
}

/* duplicate, lockorder, deaddir: a detector's report, no argument */
COND(cond_report)
{
	(void)a; (void)rest;
	return want_count(s, ec->report, vfs_kinds[ec->report].what, !neg, FLD_NONE);
}

/* The conditions: `expect` checks its words against this table (the
 * row's synopsis: cmd_check_words) and runs the row's evaluator; `help expect`, Tab completion (the arguments'
 * placeholders say what to offer) and vfsim(5)'s list (`vfsim
 * --conditions-mdoc`) read it. */
const struct expect_cond expect_conds[] = {
	{ "ret", "VALUE", "the last completed call returned VALUE (a number or errno name)",
	  0, cond_ret, -1, NULL },
	{ "entries", "[NAME...]", "the last completed getdents returned these names, in order",
	  0, cond_entries, -1, NULL },
	{ "read", "TEXT", "the last completed call was a read that returned TEXT", 0,
	  cond_read, -1, NULL },
	{ "fpos", "FILE N", "the file's f_pos is N (FILE: file#N or PROC:FD)", 0,
	  cond_file_num, -1, NULL },
	{ "count", "FILE N", "the file's reference count (f_count) is N", 0,
	  cond_file_num, -1, NULL },
	{ "field", "FIELD OBJECT N", "OBJECT's FIELD is N: a file's (file#N, PROC:FD) or an inode's (PATH,\n"
	  "                                 or a file's); f_pos, cursor, f_count, size, dir or a declared one",
	  0, cond_field, -1, NULL },
	{ "took", "THREAD LOCK [MODE]", "THREAD's last call took LOCK (MODE read, write or excl)",
	  0, cond_took, -1, NULL },
	{ "skipped", "THREAD f_pos_lock", "THREAD's last call passed fdget_pos without the lock ('no skipped': no\n"
	  "                                 entry skipped in a directory pass)", 1,
	  cond_skipped, DK_SKIPPED, "" },
	{ "blocked", "THREAD [LOCK]", "THREAD waits, for LOCK if given", 0, cond_blocked,
	  -1, NULL },
	{ "race", "[FIELD]", "an unordered conflicting access (FIELD: f_pos, cursor, dir, size, data)",
	  1, cond_race, DK_RACE, NULL },
	{ "duplicate", "", "an open directory handed out one entry twice in a pass", 1,
	  cond_report, DK_DUPLICATE, NULL },
	{ "deadlock", "", "every live thread is blocked in a cycle (or was)", 1,
	  cond_deadlock, DK_DEADLOCK, NULL },
	{ "lockorder", "", "a lock-order problem (see 'lockdep'; a vfsim extension)", 1,
	  cond_report, DK_LOCKORDER, NULL },
	{ "deaddir", "", "an rmdir'ed directory was iterated", 1, cond_report, DK_DEADDIR, NULL },
	{ "rule", "", "a lock-order rule the script declared ('rule') is broken", 1,
	  cond_report, DK_RULE, NULL },
};
const int expect_ncond = (int)(sizeof expect_conds / sizeof expect_conds[0]);

const char *expect_cond_args(const struct expect_cond *ec, bool neg)
{
	return neg && ec->no_args ? ec->no_args : ec->args;
}

const struct expect_cond *expect_cond_find(const char *name)
{
	for (int i = 0; i < expect_ncond; i++)
		if (!strcmp(expect_conds[i].name, name))
			return &expect_conds[i];
	return NULL;
}

const char c_expect_help[] =
	"FILE is file#N or PROC:FD; LOCK f_pos_lock, i_rwsem, f_lock, rename_mutex\n"
	"or the era's exec lock pidfd_getfd takes: cred_guard_mutex (v5.6),\n"
	"exec_update_mutex (v5.7-v5.10), exec_update_lock (v5.11 on, read).";

HANDLER(c_expect)
{
	const char *k = c->argv[0];
	bool neg = false;
	int ai = 1;

	if (!strcmp(k, "no")) {
		char list[256] = "";
		size_t o = 0;
		for (int i = 0; i < expect_ncond; i++)
			if (expect_conds[i].negatable)
				o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
						      o ? ", " : "", expect_conds[i].name);
		if (c->argc < 2)
			return cli_error(s, "expect no: one of %s", list);
		neg = true;
		k = c->argv[1];
		ai = 2;
		const struct expect_cond *ec = expect_cond_find(k);
		if (!ec || !ec->negatable)
			return cli_error(s, "expect no %s: 'no' goes with %s", k, list);
	}
	const struct expect_cond *ec = expect_cond_find(k);
	if (ec) {
		/* the condition's words, by its synopsis: "expect took THREAD
		 * LOCK [MODE]" is a command of its own */
		struct cmd_call rest = *c;
		rest.argc -= ai;
		rest.argv += ai;
		rest.cols += ai;
		char name[64];
		const char *syn = expect_cond_args(ec, neg);
		int min, max;
		snprintf(name, sizeof name, "expect %s%s", neg ? "no " : "", ec->name);
		argspec_counts(syn, &min, &max);
		if (cmd_check_words(s, name, syn, min, max, "", &rest) < 0)
			return -1;
		return ec->eval(s, ec, neg, rest.argc, rest.argv);
	}
	const char *conds[32];
	int n = 0;
	for (int i = 0; i < expect_ncond && n < 31; i++)
		conds[n++] = expect_conds[i].name;
	conds[n++] = "no";
	return cli_unknown(s, "expect: unknown condition", k, conds, n,
			   "'help expect' lists them");
}

/* vfsim(5)'s table of the conditions, from expect_conds
 * (`vfsim --conditions-mdoc`, scripts/gen-man.sh) */
void expect_print_mdoc(FILE *f)
{
	fputs(".Bl -column \"skipped thread f_pos_lock\" \"holds when\" -offset indent\n"
	      ".It Sy condition Ta Sy holds when\n", f);
	for (int i = 0; i < expect_ncond; i++) {
		const struct expect_cond *ec = &expect_conds[i];
		char help[256];
		size_t o = 0;
		/* one line: the help's folding for `help expect` undone */
		for (const char *p = ec->help; *p && o + 1 < sizeof help; p++)
			if (!isspace((unsigned char)*p))
				help[o++] = *p;
			else if (o && help[o - 1] != ' ')
				help[o++] = ' ';
		help[o] = 0;
		fprintf(f, ".It %sCm %s", ec->negatable ? "Oo Cm no Oc " : "", ec->name);
		mdoc_args(f, ec->args);
		fputs(" Ta ", f);
		mdoc_sentence(f, help);
	}
	fputs(".El\n", f);
}
