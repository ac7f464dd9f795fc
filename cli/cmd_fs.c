/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_fs.c - `fs list` and `fs define NAME KEY VALUE...`: the filesystem
 * types, and a type of the script's own built from the parts the built-in
 * ones are made of (core/fstypes.c), so a kernel developer can try a
 * filesystem's directory operations without writing C:
 *
 *	fs define legacyfs \
 *		iterate exfat_iterate \
 *		llseek generic_file_llseek \
 *		read generic_read_dir
 *
 * The keys are the fields of the filesystem's struct file_operations for
 * directories (and its superblock's s_maxbytes), the values the kernel
 * functions that fill them: the iterators, llseeks and reads vfsim models.  A definition is a row of the world (copied
 * with it, so back, compare and explore carry it) and a set-up line of the
 * session's log (save writes it out).
 */
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "fns.h"
#include "vfs_trace.h"

/* ---- fs list ---- */

static void era_text(int era, const char *text, char *buf, size_t n)
{
	if (text)
		snprintf(buf, n, "%s", text);
	else
		snprintf(buf, n, "%d.%d", era / 100, era % 100);
}

static int fs_list(struct session *s)
{
	const struct vfs_world *w = s->w;
	int era = vfs_world_knobs(w)->era;
	out(s, "%-10s %-20s %-34s %-19s %s\n", "type", "iterator", "under this kernel",
	    "dir llseek", "read() on a dir");
	for (int i = 0; i < vfs_world_nfstypes(w); i++) {
		const struct vfs_fstype *ft = vfs_world_fstype(w, i);
		const struct vfs_fsops ops = vfs_fs_ops(vfs_world_knobs(w), ft);
		const char *how;
		switch (vfs_world_knobs(w)->iterate) {
		case ITER_EXCLUSIVE: how = "->iterate, exclusive"; break;
		case ITER_DUAL: how = ops.native_shared ? "->iterate_shared, shared" :
				      "->iterate, exclusive"; break;
		default: how = ops.native_shared ? "->iterate_shared, shared" :
				 "wrap_directory_iterator"; break;
		}
		char when[96] = "", rel[32];
		if (era < ft->since_era) {
			era_text(ft->since_era, ft->since, rel, sizeof rel);
			snprintf(when, sizeof when, "  (not yet: since %s)", rel);
		}
		if (ft->until_era && era > ft->until_era &&
		    !vfs_fs_uses_later(vfs_world_knobs(w), ft)) {
			era_text(ft->until_era, ft->until, rel, sizeof rel);
			snprintf(when, sizeof when, "  (gone after %s)", rel);
		}
		if (vfs_fstype_defined(i)) {
			size_t o = strlen(when);
			snprintf(when + o, sizeof when - o, "  (defined in the script)");
		}
		out(s, "%-10s %-20s %-34s %-19s %s%s\n", ft->name, vfs_fn_name(ops.iter_fn),
		    how, vfs_fn_name(vfs_llseek_fn[ops.llseek]),
		    ops.dir_read == DIRREAD_CEPH ? "text with -o dirstat" :
		    ops.dir_read == DIRREAD_NONE ? "EINVAL" : "EISDIR", when);
	}
	return 0;
}

/* ---- fs define ---- */

enum fs_key { FK_ITERATE, FK_ITERATE_SHARED, FK_LLSEEK, FK_READ, FK_MAXBYTES,
	      FK_SINCE, FK_UNTIL, FK__COUNT };
static const char *const fs_keys[FK__COUNT] = {
	[FK_ITERATE] = "iterate", [FK_ITERATE_SHARED] = "iterate_shared",
	[FK_LLSEEK] = "llseek", [FK_READ] = "read", [FK_MAXBYTES] = "maxbytes",
	[FK_SINCE] = "since", [FK_UNTIL] = "until",
};

/* The kernel functions a key takes, into names (at most max): 0 when
 * any word is taken (a number, a release). */
static int key_values(int key, const char **names, int max)
{
	int n = 0;
	switch (key) {
	case FK_ITERATE:
	case FK_ITERATE_SHARED:
		for (int fn = 1; fn < VFN__COUNT && n < max; fn++)
			if (vfs_fn_is_iterator(fn))
				names[n++] = vfs_fn_name(fn);
		break;
	case FK_LLSEEK:
		for (int i = 0; i <= LLSEEK_DEFAULT && n < max; i++)
			names[n++] = vfs_fn_name(vfs_llseek_fn[i]);
		break;
	case FK_READ:
		for (int i = 0; i <= DIRREAD_NONE && n < max; i++)
			names[n++] = vfs_dirread_fn[i] == VFN_none ? "none" :
				     vfs_fn_name(vfs_dirread_fn[i]);
		break;
	}
	return n;
}

/* "unknown WHAT 'WORD' (did you mean 'X'?)", else the values there are */
static int bad_value(struct session *s, int col, const char *what, int key,
		     const char *word)
{
	const char *names[64] = { NULL };
	int n = key_values(key, names, 64);
	char list[512] = "one of ", unknown[64];
	size_t o = strlen(list);
	for (int i = 0; i < n && o < sizeof list; i++)
		o += (size_t)snprintf(list + o, sizeof list - o, "%s%s", i ? ", " : "",
				      names[i]);
	snprintf(unknown, sizeof unknown, "fs define: unknown %s", what);
	return cli_unknown_at(s, col, unknown, word, names, n, list);
}

/* "5.7" or "2.6.28": VFS_ERA(5, 7); -1 when not a release */
static int parse_era(const char *v)
{
	char *end;
	long major = strtol(v, &end, 10);
	if (end == v || *end != '.' || major < 1 || major > 99)
		return -1;
	const char *p = end + 1;
	long minor = strtol(p, &end, 10);
	if (end == p || minor < 0 || minor > 99)
		return -1;
	if (*end == '.') {
		p = end + 1;
		strtol(p, &end, 10);
		if (end == p)
			return -1;
	}
	return *end ? -1 : VFS_ERA((int)major, (int)minor);
}

/* One KEY VALUE pair into ROW; 0, or -1 reported at the word at fault. */
static int define_pair(struct session *s, const struct cmd_call *c, int i,
		       struct vfs_fstype *row, int *given)
{
	const char *key = c->argv[i], *val = c->argv[i + 1];
	int k = 0;
	while (k < FK__COUNT && strcmp(fs_keys[k], key))
		k++;
	if (k == FK__COUNT) {
		return cli_unknown_at(s, c->cols[i], "fs define: unknown key", key, fs_keys,
				      FK__COUNT, "iterate, iterate_shared, llseek, read, "
				      "maxbytes, since, until");
	}
	int iter = given[FK_ITERATE] ? FK_ITERATE : FK_ITERATE_SHARED;
	if ((k == FK_ITERATE || k == FK_ITERATE_SHARED) &&
	    (given[FK_ITERATE] || given[FK_ITERATE_SHARED]))
		return cli_error_at(s, c->cols[i], "fs define: a second iterator ('%s' "
				    "after '%s'): a type has ->iterate or ->iterate_shared",
				    key, fs_keys[iter]);
	if (given[k])
		return cli_error_at(s, c->cols[i], "fs define: '%s' is given twice", key);
	given[k] = c->cols[i];
	int col = c->cols[i + 1], fn = vfs_fn_lookup(val), v;
	switch (k) {
	case FK_ITERATE:
	case FK_ITERATE_SHARED:
		if (!vfs_fn_is_iterator(fn))
			return bad_value(s, col, "iterator", k, val);
		row->ops.iter_fn = (uint8_t)fn;
		/* ->iterate_shared: called under i_rwsem shared; the legacy
		 * ->iterate needs it exclusive (iterate_dir's choice, or
		 * wrap_directory_iterator's down_write from v6.5 on) */
		row->ops.native_shared = k == FK_ITERATE_SHARED;
		break;
	case FK_LLSEEK:
		if ((v = vfs_llseek_lookup(fn)) < 0 || fn == VFN_none)
			return bad_value(s, col, "directory llseek", k, val);
		row->ops.llseek = (uint8_t)v;
		break;
	case FK_READ:
		v = !strcmp(val, "none") ? DIRREAD_NONE : fn == VFN_none ? -1 :
		    vfs_dirread_lookup(fn);
		if (v < 0)
			return bad_value(s, col, "read() on a directory", k, val);
		row->ops.dir_read = (uint8_t)v;
		break;
	case FK_MAXBYTES: {
		long long n;
		if (!strcmp(val, "MAX_LFS_FILESIZE"))
			n = INT64_MAX;
		else if (parse_num(val, &n) < 0 || n < 0)
			return cli_error_at(s, col, "fs define: maxbytes '%s' is not a size "
					    "(bytes, or MAX_LFS_FILESIZE)", val);
		row->ops.maxbytes = n;
		break;
	}
	case FK_SINCE:
	case FK_UNTIL:
		if ((v = parse_era(val)) < 0)
			return cli_error_at(s, col, "fs define: %s '%s' is not a release "
					    "(such as 5.7 or 2.6.28)", key, val);
		if (k == FK_SINCE)
			row->since_era = (uint16_t)v;
		else
			row->until_era = (uint16_t)v;
		break;
	}
	return 0;
}

static int fs_define(struct session *s, const struct cmd_call *c)
{
	if (c->argc < 2)
		return cli_error(s, "fs define: missing NAME (usage: fs define NAME KEY "
				 "VALUE...; see 'help fs')");
	const char *name = c->argv[1];
	int ncol = c->cols[1];
	if (!vfs_valid_name(name))
		return cli_error_at(s, ncol, "fs define: '%s' is not a name "
				    "([A-Za-z][A-Za-z0-9_]*)", name);
	if (strlen(name) >= VFS_FSTYPE_NAME_MAX)
		return cli_error_at(s, ncol, "fs define: '%s' is too long for a filesystem "
				    "type (at most %d characters)", name,
				    VFS_FSTYPE_NAME_MAX - 1);
	int have = vfs_world_fstype_lookup(s->w, name);
	if (have >= 0 && !vfs_fstype_defined(have))
		return cli_error_at(s, ncol, "fs define: '%s' is a built-in filesystem "
				    "type; a defined one needs a name of its own", name);
	if (have >= 0)
		return cli_error_at(s, ncol, "fs define: '%s' is defined already (a type "
				    "is defined once; see 'fs list')", name);
	/* the defaults are what most of the legacy filesystems set */
	struct vfs_fstype row = { .ops = { .llseek = LLSEEK_GENERIC,
		.dir_read = DIRREAD_EISDIR, .maxbytes = INT64_MAX } };
	snprintf(row.name, sizeof row.name, "%s", name);
	int given[FK__COUNT] = { 0 };
	for (int i = 2; i < c->argc; i += 2) {
		if (i + 1 >= c->argc)
			return cli_error_at(s, c->cols[i], "fs define: '%s' needs a value",
					    c->argv[i]);
		if (define_pair(s, c, i, &row, given) < 0)
			return -1;
	}
	if (!given[FK_ITERATE] && !given[FK_ITERATE_SHARED])
		return cli_error_at(s, ncol, "fs define: '%s' has no iterator (add "
				    "'iterate FN', the legacy exclusive one, or "
				    "'iterate_shared FN')", name);
	if (row.until_era && row.until_era < row.since_era)
		return cli_error_at(s, given[FK_UNTIL], "fs define: until is before since");
	int r = vfs_fs_define(s->w, &row);
	if (r == -VE_NOSPC)
		return cli_error_at(s, ncol, "fs define: too many defined filesystem types "
				    "(at most %d)", VFS_MAX_FSDEFS);
	if (r == -VE_NOMEM)
		return cli_errno(s, "fs define", NULL, r);
	if (r < 0)
		return cli_error_at(s, ncol, "fs define: '%s' cannot be defined (%s)", name,
				    vfs_errno_name(-r));
	session_log_setup(s, c, "fs");
	if (s->interactive)
		out(s, "%s: defined; 'mount %s PATH' mounts one\n", name, name);
	return 0;
}

void fs_define_text(const struct vfs_fstype *ft, char *buf, size_t n)
{
	const struct vfs_fsops *o = &ft->ops;
	int len = snprintf(buf, n, "fs define %s %s %s llseek %s read %s", ft->name,
			   o->native_shared ? "iterate_shared" : "iterate",
			   vfs_fn_name(o->iter_fn), vfs_fn_name(vfs_llseek_fn[o->llseek]),
			   o->dir_read == DIRREAD_NONE ? "none" :
			   vfs_fn_name(vfs_dirread_fn[o->dir_read]));
	if (len < 0 || (size_t)len >= n)
		return;
	size_t l = (size_t)len;
	if (o->maxbytes == INT64_MAX)
		l += (size_t)snprintf(buf + l, n - l, " maxbytes MAX_LFS_FILESIZE");
	else
		l += (size_t)snprintf(buf + l, n - l, " maxbytes %lld", (long long)o->maxbytes);
	if (l < n && ft->since_era)
		l += (size_t)snprintf(buf + l, n - l, " since %d.%d", ft->since_era / 100,
				      ft->since_era % 100);
	if (l < n && ft->until_era)
		snprintf(buf + l, n - l, " until %d.%d", ft->until_era / 100,
			 ft->until_era % 100);
}

const char c_fs_help[] =
	"'fs list': for each type, its iterator, whether it has ->iterate_shared\n"
	"natively or the legacy ->iterate (wrapped from v6.5), its directory\n"
	"llseek, and its answer to read() on a directory. Types the preset's\n"
	"kernel did not have are marked, and so are those the script defined.\n"
	"\n"
	"'fs define NAME KEY VALUE...' makes a filesystem type of the parts the\n"
	"built-in ones are made of; 'mount NAME PATH' then mounts one. The keys\n"
	"are its directories' file_operations (one line, or several ending in \\):\n"
	"  iterate FN          the legacy ->iterate: i_rwsem exclusive (from v6.5\n"
	"                      inside wrap_directory_iterator)\n"
	"  iterate_shared FN   ->iterate_shared: i_rwsem shared\n"
	"                      (one of the two; FN is an iterator: exfat_iterate,\n"
	"                      ext4_readdir, dcache_readdir, ...)\n"
	"  llseek FN           generic_file_llseek (the default), ext4_dir_llseek,\n"
	"                      dcache_dir_lseek, offset_dir_llseek, ceph_dir_llseek,\n"
	"                      ovl_dir_llseek, default_llseek (these three take\n"
	"                      i_rwsem exclusive; dcache_dir_lseek shared)\n"
	"  read FN             generic_read_dir (EISDIR, the default), ceph_read_dir\n"
	"                      (text with the mount option dirstat), none (EINVAL)\n"
	"  maxbytes N          s_maxbytes: bytes, or MAX_LFS_FILESIZE (the default)\n"
	"  since R, until R    the releases that have it, for 'fs list' (5.7)\n"
	"A definition is part of the kernel being modelled: 'reset', 'kernel',\n"
	"'back', 'compare', 'explore' and 'save' keep it.";

HANDLER(c_fs)
{
	if (!c->argc || !strcmp(c->argv[0], "list"))
		return fs_list(s);
	if (!strcmp(c->argv[0], "define"))
		return fs_define(s, c);
	return cli_error_at(s, c->cols[0], "fs: expected 'list' or 'define NAME KEY "
			    "VALUE...', not '%s'", c->argv[0]);
}
