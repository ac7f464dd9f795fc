/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cmd_world.c - setting up the world: kernel, set, mount, mkdir, touch,
 * ls, spawn, reset, sched (fs: cmd_fs.c).  Instant and untraced. */
#include <stdlib.h>
#include <string.h>
#include "commands.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_inode.h"
#include "vfs_thread.h"

const char *cli_preset_name(int i)
{
	return i < vfs_npresets ? vfs_presets[i].name : NULL;
}

const char *cli_knob_name(int i)
{
	return i < vfs_nknobs ? vfs_knobs[i].name : NULL;
}

/* kernel and set are one mechanism over core/presets.tbl
 * (build/gen/presets.inc), whose rows are the presets and whose columns
 * the knobs.  With no word each shows the world's kernel: `kernel` its
 * preset and the knobs off that row, `set` every knob (and where one is
 * off the row, the row's value).  0. */
static int show_kernel(struct session *s, bool every_knob)
{
	const struct vfs_preset *p = &vfs_presets[vfs_world_preset(s->w)];
	if (!every_knob)
		out(s, "%s: %s\n", p->name, p->summary);
	for (int i = 0; i < vfs_nknobs; i++) {
		const struct vfs_knob_desc *d = &vfs_knobs[i];
		int v = vfs_knob_get(vfs_world_knobs(s->w), d), pv = vfs_knob_get(&p->k, d);
		if (!every_knob && v == pv)
			continue;
		if (v != pv)
			out(s, "  %-15s %-17s (preset: %s)\n", d->name, d->values[v],
			    d->values[pv]);
		else
			out(s, "  %-15s %s\n", d->name, d->values[v]);
	}
	return 0;
}

int presets_tbl_find(struct session *s, const char *what, const char *name, bool knob)
{
	if (knob) {
		const struct vfs_knob_desc *d = vfs_knob_lookup(name);
		if (d)
			return (int)(d - vfs_knobs);
	} else {
		const struct vfs_preset *p = vfs_preset_lookup(name);
		if (p)
			return (int)(p - vfs_presets);
	}
	return cli_unknown_of(s, what, name, knob ? cli_knob_name : cli_preset_name,
			      knob ? "see 'set'" : "see 'kernel list'");
}

const char c_kernel_help[] =
	"With no argument, shows the preset and any knob overridden. 'kernel list'\n"
	"lists the presets, one line each. 'kernel PRESET' chooses one and resets\n"
	"every knob to it; the world is kept.";

HANDLER(c_kernel)
{
	if (c->argc == 0)
		return show_kernel(s, false);
	if (!strcmp(c->argv[0], "list")) {
		for (int i = 0; i < vfs_npresets; i++)
			out(s, "%s %-13s %s\n", i == vfs_world_preset(s->w) ? "*" : " ",
			    vfs_presets[i].name, vfs_presets[i].summary);
		return 0;
	}
	int row = presets_tbl_find(s, "unknown preset", c->argv[0], false);
	if (row < 0)
		return -1;
	if (s->watch && s->watch->pin_kernel) { /* compare's replay: its preset
						 * stands for this one */
		s->watch->kernel_lines++;
		return 0;
	}
	for (int i = 0; i < vfs_world_nthreads(s->w); i++)
		if (vfs_in_call(s->w, i) && vfs_thread_state(s->w, i) != TS_DEAD)
			return cli_error(s, "kernel: a call is in progress; finish it "
					 "(run) or 'reset' before changing the kernel");
	vfs_set_preset(s->w, &vfs_presets[row]);
	return 0;
}

/* set's long help (its row's .make): every knob of core/presets.tbl with
 * its help line, so that `help set` lists each one the table has, as the
 * hand-written list it replaces ("fpos-lock, iterate, wrapper, ...") did
 * not. */
void set_make(struct cmd_entry *e)
{
	static char help[4096];
	size_t h = (size_t)snprintf(help, sizeof help,
				    "Knobs are the preset's row, a column each of core/presets.tbl:\n");
	for (int i = 0; i < vfs_nknobs && h < sizeof help; i++)
		h += (size_t)snprintf(help + h, sizeof help - h, "  %-15s %s\n",
				      vfs_knobs[i].name, vfs_knobs[i].help);
	if (h < sizeof help)
		snprintf(help + h, sizeof help - h,
			 "Values that build a kernel that never existed (wrapper no-recheck,\n"
			 "naive-upgrade) say so in the trace when they change what happens.");
	e->long_help = help;
}

HANDLER(c_set)
{
	if (c->argc == 0)
		return show_kernel(s, true);
	int col = presets_tbl_find(s, "unknown knob", c->argv[0], true);
	if (col < 0)
		return -1;
	const struct vfs_knob_desc *d = &vfs_knobs[col];
	if (c->argc < 2) {
		out(s, "%s = %s (values:", d->name,
		    d->values[vfs_knob_get(vfs_world_knobs(s->w), d)]);
		for (int i = 0; d->values[i]; i++)
			out(s, " %s", d->values[i]);
		out(s, ")\n  %s\n", d->help);
		return 0;
	}
	struct vfs_knobs k = *vfs_world_knobs(s->w);
	if (vfs_knob_set(&k, d, c->argv[1]) < 0) {
		char vals[256] = "";
		size_t o = 0;
		for (int i = 0; d->values[i]; i++)
			o += (size_t)snprintf(vals + o, sizeof vals - o, "%s%s", i ? ", " : "",
					      d->values[i]);
		return cli_error(s, "%s: '%s' is not one of %s", d->name, c->argv[1], vals);
	}
	vfs_world_set_knobs(s->w, &k, true);
	if ((d->wrong_mask >> vfs_knob_get(vfs_world_knobs(s->w), d)) & 1)
		out(s, "note: %s %s is deliberately wrong: no kernel ever did this\n",
		    d->name, c->argv[1]);
	return 0;
}

const char c_mount_help[] =
	"Creates PATH as the root of a new filesystem of type FSTYPE, a built-in\n"
	"one or one the script defined ('fs define'). The root '/' is ext4. ceph\n"
	"takes the option 'dirstat' (read() on its directories), and so does a\n"
	"type defined with 'read ceph_read_dir'.";

HANDLER(c_mount)
{
	if (vfs_world_fstype_lookup(s->w, c->argv[0]) < 0) {
		const char *names[64];
		int n = vfs_world_nfstypes(s->w);
		for (int i = 0; i < n && i < 64; i++)
			names[i] = vfs_world_fstype(s->w, i)->name;
		return cli_unknown(s, "mount: unknown filesystem type", c->argv[0], names,
				   n < 64 ? n : 64, "see 'fs list'");
	}
	if (c->argv[1][0] != '/')
		return cli_error(s, "mount: '%s': paths start with /", c->argv[1]);
	if (vfs_world_nsb(s->w) >= VFS_MAX_SB)
		return cli_error(s, "mount %s: too many filesystems (at most %d, / included)",
				 c->argv[1], VFS_MAX_SB);
	int r = vfs_setup_mount(s->w, c->argv[0], c->argv[1], c->argc > 2 ? c->argv[2] : NULL);
	if (r == -VE_INVAL)
		return cli_error(s, "mount: '%s' takes no option '%s'", c->argv[0],
				 c->argc > 2 ? c->argv[2] : "");
	return r < 0 ? cli_errno(s, "mount", c->argv[1], r) : 0;
}

/* mkdir and touch of several paths: all or nothing.  A failure part way
 * (after /d was made, /d/x is refused) leaves the world as it was, so that
 * the log, which gets only lines that succeeded, still rebuilds it (back). */
static int setup_paths(struct session *s, const struct cmd_call *c, bool dir)
{
	const char *what = dir ? "mkdir" : "touch";
	for (int i = 0; i < c->argc; i++)
		if (c->argv[i][0] != '/')
			return cli_error(s, "%s: '%s': paths start with /", what, c->argv[i]);
	/* All or nothing: a copy to go back to, unless there is one path
	 * whose parent exists (then it fails with nothing made; a copy of a
	 * 100,000-entry tree per line would make building one quadratic). */
	struct vfs_world *before = NULL;
	if (c->argc > 1 || !vfs_parent_exists(s->w, c->argv[0])) {
		if (!(before = vfs_world_dup(s->w)))
			return cli_errno(s, what, NULL, -VE_NOMEM);
	}
	for (int i = 0; i < c->argc; i++) {
		int r = dir ? vfs_setup_mkdir(s->w, c->argv[i], true) :
			vfs_setup_touch(s->w, c->argv[i], true);
		if (r < 0) {
			if (before)
				vfs_world_copy(s->w, before);
			vfs_world_free(before);
			return cli_errno(s, what, c->argv[i], r);
		}
	}
	vfs_world_free(before);
	return 0;
}

const char c_mkdir_help[] =
	"Without a thread, makes the directories at once (parents too), untraced.\n"
	"As 'THREAD: mkdir PATH' it is the system call, traced, taking the\n"
	"parent's i_rwsem exclusive.";

HANDLER(c_mkdir)
{
	if (c->tid >= 0)        /* one PATH: the row's (cmd_check_args) */
		return c_syscall(s, c);
	return setup_paths(s, c, true);
}

HANDLER(c_touch)
{
	return setup_paths(s, c, false);
}

static void ls_tree(struct session *s, int ino, int depth)
{
	const struct vfs_world *w = s->w;
	for (int ch = vfs_dentry_first_child(w, ino); ch >= 0;
	     ch = vfs_dentry_next_sibling(w, ch)) {
		bool dir = vfs_inode_type(w, ch) == IT_DIR;
		char extra[64] = "";
		if (vfs_inode_is_mountpoint(w, ch))
			snprintf(extra, sizeof extra, "  [%s]", vfs_inode_fstype(w, ch)->name);
		out(s, "%*s%s%s  (offset %d)%s\n", depth * 2, "", vfs_dentry_name(w, ch),
		    dir ? "/" : "", vfs_dentry_offset(w, ch), extra);
		if (dir)
			ls_tree(s, ch, depth + 1);
	}
}

HANDLER(c_ls)
{
	const char *path = c->argc ? c->argv[0] : "/";
	int ino = vfs_path_lookup(s->w, path);
	if (ino < 0)
		return cli_error(s, "ls: %s: no such file or directory", path);
	bool dir = vfs_inode_type(s->w, ino) == IT_DIR;
	out(s, "%s%s  [%s]\n", path, dir && strcmp(path, "/") ? "/" : "",
	    vfs_inode_fstype(s->w, ino)->name);
	if (dir)
		ls_tree(s, ino, 1);
	return 0;
}

const char c_spawn_help[] =
	"Pids are given from 100 upward. The process's first thread is NAME (also\n"
	"NAME.1); its descriptors 0-2 are taken, so the first open gives 3.";

HANDLER(c_spawn)
{
	int uid = 0;
	if (c->argc > 1) {
		long long v;
		if (strncmp(c->argv[1], "uid=", 4) || parse_num(c->argv[1] + 4, &v) < 0 ||
		    v < 0 || v > 65535)
			return cli_error(s, "spawn: expected uid=N, got '%s'", c->argv[1]);
		uid = (int)v;
	}
	int r = vfs_spawn(s->w, c->argv[0], uid);
	if (r == -VE_NOMEM)
		return cli_errno(s, "spawn", NULL, r);
	if (r == -VE_EXIST)
		return cli_error(s, "spawn: a process named '%s' exists already", c->argv[0]);
	if (r == -VE_INVAL)
		return cli_error(s, "spawn: '%s' is not a name ([A-Za-z][A-Za-z0-9_]*)",
				 c->argv[0]);
	if (r == -VE_NAMETOOLONG)
		return cli_error(s, "spawn: '%s' is too long for a process name (at most "
				 "%d characters)", c->argv[0], VFS_COMM_MAX - 5);
	if (r < 0)
		return cli_error(s, "spawn: too many processes (at most %d) or live "
				 "threads (at most %d; an exited thread's slot is reused)",
				 VFS_MAX_PROCS, VFS_MAX_THREADS);
	if (s->interactive)
		out(s, "%s: pid %d\n", c->argv[0], vfs_proc_pid(s->w, r));
	return 0;
}

const char c_reset_help[] =
	"The kernel being modelled stays as it was: its preset, the knobs 'set'\n"
	"overrode and the filesystem types 'fs define' made.";

HANDLER(c_reset)
{
	(void)c;
	const struct vfs_preset *p = &vfs_presets[vfs_world_preset(s->w)];
	/* the knobs, the defined filesystem types, fields, overrides, rules,
	 * functions and hooks are the kernel's: made again (and logged) in the
	 * new world from the old one, set aside until they all are */
	struct session_held was;
	if (session_remake(s, p, &was) < 0)
		return cli_errno(s, "reset", NULL, -VE_NOMEM);
	const struct vfs_world *o = was.w;
	const struct vfs_knobs *k = vfs_world_knobs(o);
	vfs_world_set_knobs(s->w, k, vfs_world_knobs_overridden(o));
	/* the new log starts with what reset kept */
	/* (the longest: "hook POINT before F after G", a point's name being
	 * short; field and knob lines are shorter) */
	char line[HOOK_TEXT_MAX + 128];
	snprintf(line, sizeof line, "kernel %s", p->name);
	session_exec_line(s, line);
	for (int i = 0; i < vfs_nknobs; i++) {
		const struct vfs_knob_desc *d = &vfs_knobs[i];
		if (vfs_knob_get(k, d) != vfs_knob_get(&p->k, d)) {
			snprintf(line, sizeof line, "set %s %s", d->name,
				 d->values[vfs_knob_get(k, d)]);
			session_exec_line(s, line);
		}
	}
	for (int i = vfs_nfstypes; i < vfs_world_nfstypes(o); i++) {
		char def[256];
		fs_define_text(vfs_world_fstype(o, i), def, sizeof def);
		session_exec_line(s, def);
	}
	for (int i = 0; i < vfs_nufields(o); i++) {    /* (before what names them) */
		const struct vfs_ufield *f = vfs_ufield_get(o, i);
		snprintf(line, sizeof line, "field %s of %s = %lld",
			 vfs_field_name(f->fld), vfs_kobj_names[f->obj],
			 (long long)f->init);
		session_exec_line(s, line);
	}
	for (int i = 0; i < VDEC__COUNT; i++) {
		char line[640];
		if (!vfs_world_override(o, i))
			continue;
		override_text(i, vfs_world_override(o, i), line, sizeof line);
		session_exec_line(s, line);
	}
	for (int i = 0; i < vfs_nrules(o); i++) {
		rule_text_line(vfs_rule_get(o, i), line, sizeof line);
		session_exec_line(s, line);
	}
	/* the kernel functions and system calls it defined, in their order */
	define_again(s, o);
	for (int i = 0; i < VHOOK__COUNT; i++) {
		char hook[HOOK_TEXT_MAX];
		hook_text(o, i, hook, sizeof hook);
		if (hook[0]) {
			snprintf(line, sizeof line, "hook %s %s", vfs_hooks[i].point, hook);
			session_exec_line(s, line);
		}
	}
	return session_remade(s, &was, "reset");
}

/* The schedulers `sched` names, by enum vfs_sched; random takes a SEED. */
static const char *const sched_names[] = { "rr", "fifo", "random" };

const char c_sched_help[] =
	"rr: round robin, one step each (the default). fifo: the oldest call runs\n"
	"until it blocks or returns. random SEED: a reproducible random choice.";

HANDLER(c_sched)
{
	if (c->argc == 0) {
		out(s, "%s\n", sched_names[vfs_world_sched(s->w)]);
		return 0;
	}
	int k = 0;
	while (k < (int)(sizeof sched_names / sizeof *sched_names) &&
	       strcmp(c->argv[0], sched_names[k]))
		k++;
	if (k == VSCHED_RANDOM) {       /* its SEED: the schema (cmd_check_args) */
		long long seed;
		if (parse_num(c->argv[1], &seed) < 0)
			return cli_error(s, "sched random needs a SEED (a number)");
		vfs_world_set_sched(s->w, k, seed);
		return 0;
	} else if (k > VSCHED_RANDOM) {
		return cli_error(s, "sched: expected rr, fifo or random SEED");
	}
	vfs_world_set_sched(s->w, k, 0);
	return 0;
}

const char c_kill_help[] =
	"Drops PROC's queued calls and makes each thread exit after its current\n"
	"call. A thread asleep in a killable wait (iterate_dir's\n"
	"down_read_killable, a defined step's 'killable' lock, in a hook too)\n"
	"gives up with EINTR at once; one asleep in a plain\n"
	"wait (the v6.5 wrapper's down_write) sleeps on until it gets the lock,\n"
	"as the wrapper's comment in fs/readdir.c explains.";

HANDLER(c_kill)
{
	int proc, pid;
	if (resolve_proc(s, c->argv[0], &proc, &pid) < 0)
		return -1;
	if (proc < 0)
		return cli_error(s, "kill: no process with pid %d", pid);
	int blocked[VFS_MAX_THREADS] = { 0 };
	for (int i = 0; i < vfs_world_nthreads(s->w); i++)
		blocked[i] = vfs_thread_state(s->w, i) == TS_BLOCKED;
	int r = session_kill(s, proc);
	if (r == -VE_SRCH)
		return cli_error(s, "kill: %s has exited already", vfs_proc_name(s->w, proc));
	for (int i = 0; i < vfs_world_nthreads(s->w); i++) {
		if (vfs_thread_proc(s->w, i) != proc || !blocked[i])
			continue;
		char th[32];
		vfs_thread_name(s->w, i, th, sizeof th);
		if (vfs_thread_state(s->w, i) == TS_BLOCKED)
			out(s, "%s: still asleep (a plain wait is not killable); it exits once "
			    "it has the lock and its call returns\n", th);
		else
			out(s, "%s: its killable wait gave up: the call returns EINTR, then it exits\n",
			    th);
	}
	return 0;
}
