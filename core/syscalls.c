/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * syscalls.c - one row per system call (its words, its kernel entry, what
 * it may do), and the three ways of reading a row: words -> call
 * (vfs_call_parse), call -> words (vfs_call_print), call -> strace text
 * (vfs_call_strace).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include "internal.h"

/* ---- the entries: the first step of each call ---------------------------- */

/* do_sys_open: the path walk comes first (open.c) */
static void open_locals(struct vx *x, int rp)
{
	x->t->f.open.dir = x->t->f.open.inode = -1;
	go(x, rp);
}
static void sys_openat(struct vx *x) { open_locals(x, RP(do_sys_open, path_lookup)); }
static void sys_creat(struct vx *x) { open_locals(x, RP(do_sys_open, parent_lookup)); }
/* close_fd (file.c) */
static void sys_close(struct vx *x) { go(x, RP(close_fd, pick_file)); }
/* dup: fget_raw then fd_install; dup2: do_dup2 under files->file_lock */
static void sys_dup(struct vx *x) { go(x, RP(ksys_dup, fget_raw)); }
static void sys_dup2(struct vx *x) { go(x, RP(do_dup2, enter)); }
/* kernel/fork.c: copy_process */
static void sys_clone(struct vx *x) { go(x, RP(copy_process, clone_files)); }
static void sys_fork(struct vx *x) { go(x, RP(copy_process, dup_fd)); }
static void sys_exit(struct vx *x) { go(x, RP(do_exit, exit_files)); }
/* kernel/pid.c; pidfd_getfd starts with the target's exec lock (pidfd.c) */
static void sys_pidfd_open(struct vx *x) { go(x, RP(pidfd_open, enter)); }
static void sys_pidfd_getfd(struct vx *x) { go(x, RP(pidfd_getfd, exec_lock)); }
/* The f_pos users start with fdget_pos: f_pos is read and written under
 * its lock when file_needs_f_pos_lock says so. */
static void sys_getdents64(struct vx *x) { get_pos_sub(x, RP(iterate_dir, enter)); }
static void sys_lseek(struct vx *x) { get_pos_sub(x, RP(vfs_llseek, enter)); }
static void sys_read(struct vx *x) { get_pos_sub(x, RP(ksys_read, file_pos)); }
static void sys_write(struct vx *x) { get_pos_sub(x, RP(ksys_write, file_pos)); }
/* do_readv: fdget_pos, as read */
static void sys_readv(struct vx *x) { get_pos_sub(x, RP(do_readv, file_pos)); }
/* do_fsync: a plain fdget (sync.c) */
static void sys_fsync(struct vx *x) { call_sub(x, RP(fdget, enter), RP(do_fsync, vfs_fsync_range)); }

/* ksys_pread64/ksys_pwrite64: "if (pos < 0) return -EINVAL;" before a
 * plain fdget: the position is the caller's, f_pos is not touched, so no
 * f_pos lock */
static void sys_pread64(struct vx *x)
{
	if (cur_call(x)->a[2] < 0)
		sys_return(x, -VE_INVAL);
	else
		call_sub(x, RP(fdget, enter), RP(ksys_pread64, vfs_read));
}

static void sys_pwrite64(struct vx *x)
{
	if (cur_call(x)->a[2] < 0)
		sys_return(x, -VE_INVAL);
	else
		call_sub(x, RP(fdget, enter), RP(ksys_pwrite64, vfs_write));
}

/* do_mkdirat, do_unlinkat, do_rmdir, do_renameat2 (namei.c) */
static void namei_locals(struct vx *x, int rp)
{
	struct vfs_namei_locals *nd = &x->t->f.namei;
	nd->parent = nd->parent2 = nd->dentry = nd->new_dentry = -1;
	go(x, rp);
}
static void sys_mkdir(struct vx *x) { namei_locals(x, RP(do_mkdirat, parentat)); }
static void sys_unlink(struct vx *x) { namei_locals(x, RP(do_unlinkat, parentat)); }
static void sys_rmdir(struct vx *x) { namei_locals(x, RP(do_rmdir, parentat)); }
static void sys_rename(struct vx *x) { namei_locals(x, RP(do_renameat2, parentat)); }
static void sys_ni_syscall(struct vx *x) { sys_return(x, -VE_NOSYS); }

/* ---- do_syscall_64: into a call and out of it ------------------------------ */

/* The entry's kernel function: the queued call's own (getdents64, ...). */
int sys_fn_of(const struct vfs_world *w, const struct vfs_thread *t)
{
	(void)w;
	if (!t->npending)
		return VFN_none;
	return vfs_call_fn(w, &t->pending[t->pend_head]);
}

/*
 * The system call itself, as the architecture's entry runs it: between
 * calls (idle) the thread is in user space and its next step enters the
 * next queued call (its frame new, its row's entry run); exit ends a call
 * whose result is in the frame, once the puts are done (a return point:
 * it runs in the step that returns to it).
 */
KERNEL_FN(do_syscall_64)
{
	switch (f->pc) {
	case RP(do_syscall_64, idle):
	case RP(do_syscall_64, enter): {
		struct vfs_thread *t = x->t;
		struct vfs_world *w = x->w;
		struct vfs_callrec *r = &t->rec;

		x->rp = RP(do_syscall_64, enter);       /* its events' step */
		memset(r, 0, sizeof *r);
		r->call = t->pending[t->pend_head];
		t->pend_head = (uint8_t)((t->pend_head + 1) % VFS_MAX_PENDING);
		t->npending--;
		r->started = 1;
		r->start_step = w->step;
		memset(&t->f, 0, sizeof t->f);
		ufield_made(w, UFV_CALL, x->tid);     /* (and its declared fields') */
		t->f.file = t->f.inode = -1;
		t->f.fd = (int32_t)r->call.a[0];
		w->call_started[x->tid] = ++w->call_seq;
		t->state = TS_RUNNING;
		t->nfn = 0;
		fn_enter(x, vfs_call_fn(x->w, &r->call));

		/* the call's own first step: its row's entry (core/syscalls.c) */
		const struct vfs_sysdesc *d = &vfs_sys[r->call.sys < SYS__COUNT ?
						       r->call.sys : SYS_NONE];
		(d->entry ? d->entry : vfs_sys[SYS_NONE].entry)(x);
		return;
	}
	case RP(do_syscall_64, exit):
		sys_return(x, f->res);
		return;
	}
}

/* ---- the rows -------------------------------------------------------------- */

/* The kernel's name of the call, said once, as SYSCALL_DEFINEn(name, ...)
 * says it: the name, the kernel function of the call's frame (VFN_name)
 * and its entry (sys_name). */
#define SYSCALL(k)            .kname = #k, .fn = VFN_##k, .entry = sys_##k
/* The argument schema: the arguments, and their count taken from them. */
#define ARGS(...)             .nargs = sizeof (const struct vfs_sysarg[]){ __VA_ARGS__ } / \
					sizeof (struct vfs_sysarg), .args = { __VA_ARGS__ }
#define ARG(nm, k, sl)        { .name = nm, .kind = k, .slot = sl }
#define OPT(nm, k, sl, d)     { .name = nm, .kind = k, .slot = sl, .optional = 1, .dflt = d }
#define FD0                   ARG("FD", VA_FD, 0)
#define PATH0                 ARG("PATH", VA_PATH, 0)

const struct vfs_sysdesc vfs_sys[SYS__COUNT] = {
	[SYS_NONE] = { .name = "none", .kname = "none", .fn = VFN_none,
		.flags = VSYS_TREE, .entry = sys_ni_syscall },
	[SYS_OPEN] = { .name = "open", SYSCALL(openat),
		.flags = VSYS_TREE | VSYS_NAMEI | VSYS_FDS,
		ARGS(PATH0, ARG("", VA_OFLAGS, 1)),
		.help = "openat: a new descriptor" },
	[SYS_CLOSE] = { .name = "close", SYSCALL(close), .flags = VSYS_TREE | VSYS_FDS,
		ARGS(FD0), .help = "close a descriptor" },
	[SYS_DUP] = { .name = "dup", SYSCALL(dup), .flags = VSYS_FDS, ARGS(FD0),
		.help = "a second descriptor for the same file (f_count + 1)" },
	[SYS_DUP2] = { .name = "dup2", SYSCALL(dup2), .flags = VSYS_TREE | VSYS_FDS,
		ARGS(ARG("OLD", VA_FD, 0), ARG("NEW", VA_FD, 1)),
		.help = "make NEW refer to OLD's file" },
	[SYS_CLONE] = { .name = "clone", SYSCALL(clone), .flags = VSYS_TREE | VSYS_SPAWNS,
		.help = "a new thread sharing the fd table (CLONE_FILES)",
		.long_help =
		"The new thread is NAME.2, NAME.3, ... From then on every fd lookup in the\n"
		"process takes a real reference, since the table is shared." },
	[SYS_FORK] = { .name = "fork", SYSCALL(fork), .flags = VSYS_TREE | VSYS_SPAWNS,
		ARGS(ARG("NAME", VA_NEWPROC, 0)),
		.help = "a child process NAME with a copy of the fd table" },
	[SYS_EXIT] = { .name = "exit", SYSCALL(exit), .flags = VSYS_TREE | VSYS_FDS,
		.help = "the thread ends; the last one drops the table's references" },
	[SYS_PIDFD_OPEN] = { .name = "pidfd_open", SYSCALL(pidfd_open), .flags = VSYS_FDS,
		ARGS(ARG("PROC", VA_PROC, 0)),
		.help = "a pidfd for process PROC (name or pid)" },
	[SYS_PIDFD_GETFD] = { .name = "pidfd_getfd", SYSCALL(pidfd_getfd), .flags = VSYS_FDS,
		ARGS(ARG("PIDFD", VA_FD, 0), ARG("FD", VA_FD, 1)),
		.help = "steal the target's FD: a real reference",
		.long_help =
		"Needs the target's uid or uid 0 (EPERM). Takes a real reference on the\n"
		"target's file (fget_task) and installs it here with O_CLOEXEC. ENOSYS\n"
		"before v5.6. The check and fget_task hold the target's lock against\n"
		"exec (exec_update_lock, read; cred_guard_mutex in v5.6, exec_update_mutex\n"
		"in v5.7-v5.10), released before receive_fd installs the file." },
	[SYS_GETDENTS] = { .name = "getdents", SYSCALL(getdents64),
		.flags = VSYS_DIRENTS | VSYS_FPOS, ARGS(FD0, OPT("N", VA_COUNT, 1, -1)),
		.help = "getdents64: at most N entries (all without N)",
		.long_help =
		"fdget_pos, then iterate_dir of the preset's era: the f_pos lock if\n"
		"file_needs_f_pos_lock says so, the directory's i_rwsem shared or\n"
		"exclusive, ctx->pos from f_pos, the filesystem's iterator, f_pos back." },
	[SYS_LSEEK] = { .name = "lseek", SYSCALL(lseek), .flags = VSYS_FPOS,
		ARGS(FD0, ARG("OFFSET", VA_OFFSET, 1), OPT("set|cur|end", VA_WHENCE, 2, VSEEK_SET)),
		.help = "move f_pos (the filesystem's llseek)" },
	/* `read FD` without N: a buffer, as a program passes one */
	[SYS_READ] = { .name = "read", SYSCALL(read), .flags = VSYS_READS | VSYS_FPOS,
		ARGS(FD0, OPT("N", VA_COUNT, 1, 4096)),
		.help = "read N bytes (4096 without N) at f_pos; EISDIR on most directories" },
	[SYS_WRITE] = { .name = "write", SYSCALL(write), .flags = VSYS_TREE | VSYS_FPOS,
		ARGS(FD0, ARG("TEXT", VA_TEXT, 0)),
		.help = "write TEXT at f_pos" },
	[SYS_PREAD] = { .name = "pread", SYSCALL(pread64), .flags = VSYS_READS,
		ARGS(FD0, ARG("N", VA_COUNT, 1), ARG("OFFSET", VA_OFFSET, 2)),
		.help = "pread64: plain fdget, f_pos untouched" },
	[SYS_PWRITE] = { .name = "pwrite", SYSCALL(pwrite64), .flags = VSYS_TREE,
		ARGS(FD0, ARG("TEXT", VA_TEXT, 0), ARG("OFFSET", VA_OFFSET, 2)),
		.help = "pwrite64: plain fdget, f_pos untouched" },
	/* mkdir is also a set-up command of the shell's (untraced) */
	[SYS_MKDIR] = { .name = "mkdir", SYSCALL(mkdir), .flags = VSYS_TREE | VSYS_NAMEI,
		ARGS(PATH0), .help = "make a directory (the parent's i_rwsem exclusive)" },
	[SYS_CREAT] = { .name = "creat", SYSCALL(creat),
		.flags = VSYS_TREE | VSYS_NAMEI | VSYS_FDS, .oflags = VO_WRONLY,
		ARGS(PATH0), .help = "create (or truncate) a file and open it" },
	[SYS_UNLINK] = { .name = "unlink", SYSCALL(unlink), .flags = VSYS_TREE | VSYS_NAMEI,
		ARGS(PATH0), .help = "remove a file (parent, then victim exclusive)" },
	[SYS_RMDIR] = { .name = "rmdir", SYSCALL(rmdir), .flags = VSYS_TREE | VSYS_NAMEI,
		ARGS(PATH0), .help = "remove an empty directory; it becomes S_DEAD" },
	[SYS_RENAME] = { .name = "rename", SYSCALL(rename), .flags = VSYS_TREE | VSYS_NAMEI,
		ARGS(ARG("OLD", VA_PATH, 0), ARG("NEW", VA_PATH, 1)),
		.help = "rename (across directories: the rename mutex)" },
	/* two iovecs of N and N2 bytes; N2 left out: one */
	[SYS_READV] = { .name = "readv", SYSCALL(readv), .flags = VSYS_READS | VSYS_FPOS,
		ARGS(FD0, ARG("N", VA_COUNT, 1), OPT("N2", VA_COUNT, 2, -1)),
		.help = "read N, then N2 bytes at f_pos into two buffers, as read does" },
	[SYS_FSYNC] = { .name = "fsync", SYSCALL(fsync), ARGS(FD0),
		.help = "the file's ->fsync after a plain fdget; EINVAL without one (pidfd, procfs)" },
	/* the script's own (define syscall): its words, name and steps are
	 * the definition's (core/defined.c); may touch what it names */
	[SYS_DEFINED] = { .name = "(defined)", .kname = "(defined)", .fn = VFN_none,
		.flags = VSYS_TREE | VSYS_SCRIPT, .entry = sys_defined,
		.help = "a system call the script defined" },
};

int vfs_sys_lookup(const char *name)
{
	for (int i = 1; i < SYS__COUNT; i++)
		if (!(vfs_sys[i].flags & VSYS_SCRIPT) && !strcmp(vfs_sys[i].name, name))
			return i;
	return SYS_NONE;
}

/* ---- open's flag words ---- */

/* group 0 is the access mode (one of), the others each a bit */
static const struct { const char *word, *kname; uint8_t group; int64_t bits; } oflag_words[] = {
	{ "rdonly", "O_RDONLY", 0, VO_RDONLY },
	{ "wronly", "O_WRONLY", 0, VO_WRONLY },
	{ "rdwr", "O_RDWR", 0, VO_RDWR },
	{ "directory", "O_DIRECTORY", 1, VO_DIRECTORY },
	{ "cloexec", "O_CLOEXEC", 2, VO_CLOEXEC },
};
#define NOFLAGS (sizeof oflag_words / sizeof oflag_words[0])
#define OFLAG_GROUPS 3

static const char *const whence_words[] = { "set", "cur", "end" };
static const char *const whence_knames[] = { "SEEK_SET", "SEEK_CUR", "SEEK_END" };

/* ---- synopsis ---- */

void vfs_sys_synopsis(int sys, char *buf, size_t n)
{
	const struct vfs_sysdesc *d = &vfs_sys[sys];
	size_t o = 0;
	buf[0] = 0;
	for (int i = 0; i < d->nargs && o < n; i++) {
		const struct vfs_sysarg *a = &d->args[i];
		const char *sep = o ? " " : "";
		if (a->kind == VA_OFLAGS) {
			/* "[rdonly|wronly|rdwr] [directory] [cloexec]" */
			for (size_t k = 0; k < NOFLAGS && o < n; k++) {
				bool first = !k || oflag_words[k - 1].group != oflag_words[k].group;
				bool last = k + 1 == NOFLAGS ||
					    oflag_words[k + 1].group != oflag_words[k].group;
				o += (size_t)snprintf(buf + o, n - o, "%s%s%s%s",
						      first ? sep : "|", first ? "[" : "",
						      oflag_words[k].word, last ? "]" : "");
				sep = " ";
			}
		} else {
			o += (size_t)snprintf(buf + o, n - o, "%s%s%s%s", sep,
					      a->optional ? "[" : "", a->name,
					      a->optional ? "]" : "");
		}
	}
}

void vfs_sys_nwords(int sys, int *min, int *max)
{
	const struct vfs_sysdesc *d = &vfs_sys[sys];
	*min = *max = 0;
	for (int i = 0; i < d->nargs; i++) {
		if (d->args[i].kind == VA_OFLAGS) {
			*max += OFLAG_GROUPS;
			continue;
		}
		*min += !d->args[i].optional;
		*max += 1;
	}
}

/* ---- words -> call ---- */

static bool num_word(const char *s, long long *v)
{
	char *end;
	if (!*s)
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !*end && !errno;
}

static bool string_kind(int kind)
{
	return kind == VA_PATH || kind == VA_TEXT || kind == VA_NEWPROC;
}

/* One argument's word(s) into C: 0, or VCP_BAD/VCP_NOPROC with ERR. */
static int parse_arg(struct vfs_world *w, const struct vfs_sysdesc *d,
		     const struct vfs_sysarg *a, char *const *words, int nw,
		     struct vfs_call *c, char *err, size_t nerr)
{
	const char *v = nw ? words[0] : "";
	long long x;
	int r;
	switch (a->kind) {
	case VA_OFLAGS:
		c->a[a->slot] = d->oflags;
		for (int i = 0; i < nw; i++) {
			size_t k = 0;
			while (k < NOFLAGS && strcmp(words[i], oflag_words[k].word))
				k++;
			if (k == NOFLAGS) {
				size_t o = (size_t)snprintf(err, nerr, "%s: unknown flag '%s' (",
							    d->name, words[i]);
				for (k = 0; k < NOFLAGS && o < nerr; k++)
					o += (size_t)snprintf(err + o, nerr - o, "%s%s",
							      k ? ", " : "", oflag_words[k].word);
				if (o < nerr)
					snprintf(err + o, nerr - o, ")");
				return VCP_BAD;
			}
			if (oflag_words[k].group == 0)  /* the access mode: the last one given */
				c->a[a->slot] = (c->a[a->slot] & ~VO_ACCMODE) | oflag_words[k].bits;
			else
				c->a[a->slot] |= oflag_words[k].bits;
		}
		return 0;
	case VA_WHENCE:
		for (int k = 0; k < 3; k++)
			if (!strcmp(v, whence_words[k])) {
				c->a[a->slot] = k;
				return 0;
			}
		if (num_word(v, &x)) {
			c->a[a->slot] = x;      /* the kernel says EINVAL */
			return 0;
		}
		snprintf(err, nerr, "%s: whence is set, cur or end, not '%s'", d->name, v);
		return VCP_BAD;
	case VA_PROC: {
		if (num_word(v, &x)) {
			c->a[a->slot] = x;      /* an unknown pid is the kernel's ESRCH */
			return 0;
		}
		int p = vfs_proc_by_name(w, v);
		if (p < 0) {
			snprintf(err, nerr, "%s", v);
			return VCP_NOPROC;
		}
		c->a[a->slot] = w->procs[p].pid;
		return 0;
	}
	case VA_PATH:
		if (v[0] != '/') {
			snprintf(err, nerr, "'%s': paths start with / (there is no working "
				 "directory)", v);
			return VCP_BAD;
		}
		break;
	case VA_NEWPROC:
		if (vfs_proc_by_name(w, v) >= 0) {
			snprintf(err, nerr, "%s: a process named '%s' exists already",
				 d->name, v);
			return VCP_BAD;
		}
		break;
	case VA_TEXT:
		break;
	default:                /* VA_FD, VA_COUNT, VA_OFFSET */
		if (!num_word(v, &x)) {
			snprintf(err, nerr, "%s: %s must be a number, not '%s'", d->name,
				 a->name, v);
			return VCP_BAD;
		}
		/* -1 stands for "left out" */
		if (a->kind == VA_COUNT && a->optional && x < 0) {
			snprintf(err, nerr, "%s: %s must not be negative", d->name, a->name);
			return VCP_BAD;
		}
		c->a[a->slot] = x;
		return 0;
	}
	/* a string: a path past PATH_MAX is the kernel's to refuse
	 * (ENAMETOOLONG), only a word past the string table's limit is ours */
	r = vfs_call_set_str(w, c, a->slot, v);
	const char *what = a->kind == VA_PATH ? "path" : a->kind == VA_TEXT ? "text" : "name";
	if (r == -VE_NAMETOOLONG)
		snprintf(err, nerr, "%s too long (%zu characters; at most %d)", what,
			 strlen(v), VFS_CALL_STR_MAX - 1);
	else if (r < 0)
		snprintf(err, nerr, "%s: out of memory", d->name);
	return r == -VE_NOMEM ? -VE_NOMEM : r < 0 ? VCP_BAD : 0;
}

int vfs_call_parse(struct vfs_world *w, int sys, int argc, char *const *argv,
		   struct vfs_call *c, char *err, size_t nerr)
{
	int min, max, first[VFS_SYS_MAXARGS], count[VFS_SYS_MAXARGS];
	memset(c, 0, sizeof *c);
	if (sys <= SYS_NONE || sys >= SYS__COUNT) {
		snprintf(err, nerr, "not a system call");
		return VCP_BAD;
	}
	const struct vfs_sysdesc *d = &vfs_sys[sys];
	c->sys = (uint8_t)sys;
	c->a[1] = d->oflags;
	vfs_sys_nwords(sys, &min, &max);
	if (argc < min || argc > max) {
		char syn[128];
		vfs_sys_synopsis(sys, syn, sizeof syn);
		snprintf(err, nerr, "%s: %s arguments (usage: %s %s)", d->name,
			 argc < min ? "missing" : "too many", d->name, syn);
		return VCP_BAD;
	}
	/* which words each argument takes: open's flags take what is left */
	for (int i = 0, k = 0; i < d->nargs; i++) {
		first[i] = k;
		count[i] = d->args[i].kind == VA_OFLAGS ? argc - k : k < argc;
		k += count[i];
		if (!count[i])
			c->a[d->args[i].slot] = d->args[i].dflt;
	}
	/* numbers first, strings after (nothing is interned for a call
	 * refused for a bad number) */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < d->nargs; i++) {
			const struct vfs_sysarg *a = &d->args[i];
			if (string_kind(a->kind) != pass ||
			    (!count[i] && a->kind != VA_OFLAGS))
				continue;
			int r = parse_arg(w, d, a, argv + first[i], count[i], c, err, nerr);
			if (r < 0)
				return r;
		}
	return 0;
}

/* ---- call -> words, call -> strace ---- */

void vfs_print_word(FILE *f, const char *w)
{
	if (*w && !strpbrk(w, " \t\r\n#'\"$&\\")) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (const char *p = w; *p; p++) {
		if (*p == '\'')
			fputs("'\"'\"'", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

/* An optional count left out (-1) is not shown. */
static bool shown(const struct vfs_sysarg *a, const struct vfs_call *c)
{
	return !(a->optional && a->kind == VA_COUNT && c->a[a->slot] < 0);
}

void vfs_call_print(FILE *f, const struct vfs_world *w, const struct vfs_call *c)
{
	const struct vfs_sysdesc *d = &vfs_sys[c->sys];
	if (c->sys == SYS_DEFINED) {
		kfn_call_print(f, w, c);
		return;
	}
	fputs(d->name, f);
	for (int i = 0; i < d->nargs; i++) {
		const struct vfs_sysarg *a = &d->args[i];
		int64_t v = c->a[a->slot];
		if (!shown(a, c))
			continue;
		fputc(' ', f);
		if (string_kind(a->kind)) {
			vfs_print_word(f, vfs_call_str(w, c, a->slot));
		} else if (a->kind == VA_OFLAGS) {
			const char *sep = "";
			for (size_t k = 0; k < NOFLAGS; k++)
				if (oflag_words[k].group ? (v & oflag_words[k].bits) != 0 :
				    (v & VO_ACCMODE) == oflag_words[k].bits) {
					fprintf(f, "%s%s", sep, oflag_words[k].word);
					sep = " ";
				}
		} else if (a->kind == VA_WHENCE && v >= 0 && v < 3) {
			fputs(whence_words[v], f);
		} else {
			fprintf(f, "%" PRId64, v);
		}
	}
}

void vfs_call_strace(const struct vfs_world *w, const struct vfs_call *c,
		     char *buf, size_t n)
{
	const struct vfs_sysdesc *d = &vfs_sys[c->sys];
	const char *newproc = NULL;
	if (c->sys == SYS_DEFINED) {
		kfn_call_strace(w, c, buf, n);
		return;
	}
	size_t o = (size_t)snprintf(buf, n, "%s(", d->kname);
	const char *sep = "";
	for (int i = 0; i < d->nargs && o < n; i++) {
		const struct vfs_sysarg *a = &d->args[i];
		int64_t v = c->a[a->slot];
		if (!shown(a, c))
			continue;
		if (a->kind == VA_NEWPROC) {    /* fork() [NAME]: not an argument */
			newproc = vfs_call_str(w, c, a->slot);
			continue;
		}
		o += (size_t)snprintf(buf + o, n - o, "%s", sep);
		sep = ", ";
		if (o >= n)
			break;
		if (string_kind(a->kind)) {
			o += (size_t)snprintf(buf + o, n - o, "\"%s\"", vfs_call_str(w, c, a->slot));
		} else if (a->kind == VA_OFLAGS) {
			const char *bar = "";
			for (size_t k = 0; k < NOFLAGS && o < n; k++)
				if (oflag_words[k].group ? (v & oflag_words[k].bits) != 0 :
				    (v & VO_ACCMODE) == oflag_words[k].bits) {
					o += (size_t)snprintf(buf + o, n - o, "%s%s", bar,
							      oflag_words[k].kname);
					bar = "|";
				}
		} else if (a->kind == VA_WHENCE) {
			o += (size_t)snprintf(buf + o, n - o, "%s", v >= 0 && v < 3 ?
					      whence_knames[v] : "?");
		} else {
			o += (size_t)snprintf(buf + o, n - o, "%" PRId64, v);
		}
	}
	if (o < n)
		o += (size_t)snprintf(buf + o, n - o, ")");
	if (newproc && o < n)
		snprintf(buf + o, n - o, " [%s]", newproc);
}
