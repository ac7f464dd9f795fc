/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_hook.c - what a script adds to the kernel's own paths and objects:
 * `hook POINT FUNCTION` puts a function it defined (cmd_define.c) into a
 * built-in path (core/defined.c's vfs_hooks), `field NAME of file|inode`
 * gives every file or inode a field its steps read and write
 * (core/fields.c).  Both are lines of the kernel being modelled: `reset`,
 * `back`, `compare` and `save` make them again.
 */
#include <string.h>
#include "commands.h"
#include "vfs_trace.h"
#include "vfs_file.h"
#include "vfs_inode.h"

const char c_field_help[] =
	"'field NAME of file [= N]' gives every open file (and 'of inode', every\n"
	"inode) a field NAME, N at first (0 without '= N'), those made before\n"
	"the declaration too. Defined steps read and write it as they do f_pos\n"
	"(read NAME of file; write NAME of file VALUE [+|- VALUE]; return VALUE\n"
	"if NAME CMP VALUE), traced as the kernel's fields are: the race\n"
	"detector checks its accesses, 'rule write NAME under LOCK' holds it to\n"
	"a lock, and 'explore' counts it in a state.\n"
	"  field generation of file = 1\n"
	"'field' lists the fields and each object's value ('files' shows the\n"
	"files' too). At most 64; a name is declared once; 'reset', 'kernel',\n"
	"'back', 'compare', 'explore' and 'save' keep them.";

/* `field NAME of file|inode [= N]`; `field`: the fields and their values */
HANDLER(c_field)
{
	const struct vfs_world *w = s->w;
	if (!c->argc) {
		if (!vfs_nufields(w))
			out(s, "no fields declared ('field NAME of file|inode [= N]')\n");
		for (int k = 0; k < vfs_nufields(w); k++) {
			const struct vfs_ufield *u = vfs_ufield_get(w, k);
			out(s, "field %s of %s = %lld\n", vfs_field_name(u->fld),
			    vfs_kobj_names[u->obj], (long long)u->init);
			int n = u->obj == KO_FILE ? vfs_world_nfiles(w) : vfs_world_ninodes(w);
			for (int i = 0; i < n; i++) {
				char d[VFS_PATH_MAX + 32];
				if (u->obj == KO_FILE && !vfs_file_kind(w, i))
					continue;
				if (u->obj == KO_INODE && (vfs_inode_freed(w, i) ||
							   vfs_inode_unlinked(w, i)))
					continue;
				if (u->obj == KO_FILE)
					snprintf(d, sizeof d, "file#%d", vfs_file_id(w, i));
				else
					vfs_inode_path(w, i, d, sizeof d);
				out(s, "  %-22s %lld\n", d,
				    (long long)vfs_ufield_value(w, k, i));
			}
		}
		return 0;
	}
	long long init = 0;
	if ((c->argc != 3 && c->argc != 5) || strcmp(c->argv[1], "of") ||
	    (c->argc == 5 && strcmp(c->argv[3], "=")))
		return cli_error_at(s, c->cols[c->argc > 1 ? 1 : 0], "field: NAME of "
				    "file|inode [= N]");
	int obj = kobj_word(c->argv[2]);
	if (obj < 0)
		return cli_error_at(s, c->cols[2], "field: of file or of inode, not "
				    "'%s'", c->argv[2]);
	if (c->argc == 5 && parse_num(c->argv[4], &init))
		return cli_error_at(s, c->cols[4], "field: '%s' is no number",
				    c->argv[4]);
	char err[160];
	int r = vfs_ufield_declare(s->w, c->argv[0], obj, init, err, sizeof err);
	if (r == -VE_NOMEM)
		return cli_errno(s, "field", NULL, r);
	if (r < 0)
		return cli_error_at(s, c->cols[0], "field: %s", err);
	session_log_setup(s, c, "field");
	return 0;
}

/* What is at hook point H as `hook` takes it after the point's word
 * ("my_llseek", "before F after G"), "" for the kernel's own. */
void hook_text(const struct vfs_world *w, int h, char *buf, size_t n)
{
	int k = vfs_hook_get(w, h), g = vfs_hook_get_after(w, h);
	if (k >= 0 && g >= 0)
		snprintf(buf, n, "before %s after %s", vfs_kfn_get(w, k)->name,
			 vfs_kfn_get(w, g)->name);
	else
		snprintf(buf, n, "%s", k >= 0 ? vfs_kfn_get(w, k)->name : "");
}

const char c_hook_help[] =
	"'hook vfs_llseek FUNCTION': lseek runs FUNCTION instead of vfs_llseek,\n"
	"on its file after fdget_pos; FUNCTION's return is lseek's, its\n"
	"parameters name lseek's arguments (define function NAME FD OFF WHENCE).\n"
	"'hook lookup FUNCTION': mkdir, unlink, rmdir and rename run FUNCTION\n"
	"before looking up the last component, under the parent's lock; its\n"
	"inode is the parent directory, and a negative return fails the call.\n"
	"'hook lookup before F after G': F before the lookup, G after it\n"
	"whatever it found (and after F when F fails); F may return holding\n"
	"locks (define function F __acquires) that G releases (define\n"
	"function G __releases): held across the lookup, checked to balance.\n"
	"'hook wrap_directory_iterator FUNCTION': a legacy ->iterate under v6.5's\n"
	"shared iterate_dir runs FUNCTION in the wrapper's place, entered holding\n"
	"i_rwsem for reading and returning so (define function F\n"
	"__must_hold(i_rwsem)); its step 'iterate' is the wrapper's iter(file,\n"
	"ctx), 'upgrade i_rwsem of inode' the inode_upgrade_trylock it wishes for.\n"
	"The trace and 'where' name FUNCTION; the race detector, lockdep, the\n"
	"rules and explore see its steps as the kernel's. A hooked function has\n"
	"no fdget, fdput or emit (the path has its file). A kill in its killable\n"
	"lock: it releases its own locks and returns EINTR to the path, which\n"
	"unwinds (fdput_pos; the parent's unlock). 'hook POINT default' gives\n"
	"the path back to the kernel; 'hook' lists the points.";

/* `hook POINT FUNCTION|default`, `hook POINT before F after G`; `hook`:
 * the points and what is at each */
HANDLER(c_hook)
{
	if (!c->argc) {
		for (int i = 0; i < VHOOK__COUNT; i++) {
			char at[HOOK_TEXT_MAX];
			hook_text(s->w, i, at, sizeof at);
			out(s, "%-23s %-24s %s\n", vfs_hooks[i].point,
			    at[0] ? at : "(the kernel's own)", vfs_hooks[i].help);
		}
		return 0;
	}
	int h = vfs_hook_lookup(c->argv[0]);
	if (h < 0)
		return cli_error_at(s, c->cols[0], "hook: '%s' is no point a function "
				    "is put into (vfs_llseek, lookup, "
				    "wrap_directory_iterator)", c->argv[0]);
	if (c->argc == 5) {             /* before F after G (the synopsis) */
		int k = vfs_kfn_lookup(s->w, c->argv[2]), g = vfs_kfn_lookup(s->w, c->argv[4]);
		if (k < 0 || g < 0)
			return cli_error_at(s, c->cols[k < 0 ? 2 : 4], "hook: unknown "
					    "function '%s' (one 'define function' made)",
					    c->argv[k < 0 ? 2 : 4]);
		char err[200];
		int bad;
		if (vfs_hook_set_pair(s->w, h, k, g, &bad, err, sizeof err) < 0)
			return cli_error_at(s, c->cols[bad ? 4 : 2], "hook: %s", err);
		session_log_setup(s, c, "hook");
		return 0;
	}
	if (c->argc != 2)
		return cli_error_at(s, c->cols[0], "hook: %s FUNCTION|default",
				    c->argv[0]);
	int k = -1;
	if (strcmp(c->argv[1], "default") &&
	    (k = vfs_kfn_lookup(s->w, c->argv[1])) < 0)
		return cli_error_at(s, c->cols[1], "hook: unknown function '%s' (one "
				    "'define function' made)", c->argv[1]);
	char err[160];
	if (vfs_hook_set(s->w, h, k, err, sizeof err) < 0)
		return cli_error_at(s, c->cols[1], "hook: %s", err);
	session_log_setup(s, c, "hook");
	return 0;
}
