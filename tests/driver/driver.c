/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * driver.c - vfsim-driver: a second front end over libvfscore, no shell.
 *
 * It reads a tiny line format (a subset of the scenario language, with
 * `check` as a synonym of `expect`) and drives core/ through its public
 * header only, which shows that core/ can be used without cli/.
 *
 *   # comment                      kernel PRESET        set KNOB VALUE
 *   mount FSTYPE PATH [OPTION]     mkdir PATH...        touch PATH...
 *   spawn NAME [uid=N]             sched rr|fifo|random [SEED]
 *   THREAD[:] CALL ARGS... [&]     (open close dup dup2 clone fork exit
 *                                   pidfd_open pidfd_getfd getdents lseek
 *                                   read write pread pwrite mkdir creat
 *                                   unlink rmdir rename)
 *   step [THREAD] [N]              step THREAD until FUNC
 *   run                            trace on|off
 *   check CONDITION                (also: expect CONDITION)
 *
 * Conditions: ret [THREAD] VALUE, entries [THREAD] NAME..., fpos FILE N,
 * count FILE N, took THREAD LOCK [MODE], skipped THREAD f_pos_lock,
 * blocked THREAD [LOCK], state THREAD idle|blocked|running|dead,
 * race [FIELD], no race [FIELD], duplicate [N], no duplicate,
 * deadlock, no deadlock.  FILE is PROC:FD or file#N.
 *
 * Without `&` a call runs until the thread has nothing left to do or
 * blocks; with `&` it is only queued.  Exit status: 0 when every check
 * holds, 1 otherwise (a failed check, or a script error).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "vfsim.h"

#define MAXW 24

struct drv {
	struct vfs_world *w;
	struct vfs_sink sink;
	const char *file;
	int line;
	bool trace;
	int checks, failed;
};

static void sink_fn(void *ctx, const struct vfs_world *w,
		    const struct vfs_event *ev)
{
	struct drv *d = ctx;
	char buf[256];
	if (!d->trace)
		return;
	vfs_event_text(w, ev, buf, sizeof buf);
	printf("  %s\n", buf);
}

static int err(struct drv *d, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s:%d: ", d->file, d->line);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return -1;
}

/* Split LINE into words; quotes group; '#' outside quotes ends it. */
static int split(char *line, char **av)
{
	int n = 0;
	char *p = line, *o;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p || *p == '#')
			break;
		if (n == MAXW)
			return -1;
		av[n++] = o = p;
		while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
			if (*p == '\'' || *p == '"') {
				char q = *p++;
				while (*p && *p != q)
					*o++ = *p++;
				if (*p)
					p++;
			} else {
				*o++ = *p++;
			}
		}
		if (*p)
			p++;
		*o = 0;
	}
	return n;
}

static bool num(const char *s, long long *v)
{
	char *end;
	if (!s || !*s)
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !*end && !errno;
}

/* "A:3" or "file#2": the file's index, or -1 */
static int file_arg(struct drv *d, const char *s)
{
	long long v;
	if (!strncmp(s, "file#", 5))
		return num(s + 5, &v) ? vfs_file_by_id(d->w, (int)v) : -1;
	const char *colon = strchr(s, ':');
	if (!colon || !num(colon + 1, &v))
		return -1;
	char name[VFS_NAME_MAX];
	snprintf(name, sizeof name, "%.*s", (int)(colon - s), s);
	int p = vfs_proc_by_name(d->w, name);
	return p < 0 ? -1 : vfs_fd_file(d->w, p, (int)v);
}

static void print_result(struct drv *d, int tid)
{
	int64_t r = vfs_call_ret(d->w, tid);
	int sys = vfs_thread_call(d->w, tid)->sys;
	char th[32], res[48];
	vfs_thread_name(d->w, tid, th, sizeof th);
	const char *e = r < 0 ? vfs_errno_name((int)-r) : NULL;
	if (e)
		snprintf(res, sizeof res, "-1 %s", e);
	else
		snprintf(res, sizeof res, "%lld", (long long)r);
	printf("%s: %s = %s", th, vfs_sys[sys].kname, res);
	if (sys == SYS_GETDENTS && r >= 0) {
		printf(" [");
		for (int i = 0; i < vfs_call_nent(d->w, tid); i++)
			printf("%s%s", i ? " " : "",
			       vfs_rec_entry_name(d->w, tid, i));
		printf("]");
	}
	printf("\n");
}

static bool step(struct drv *d, int tid)
{
	bool done = vfs_step(d->w, tid, &d->sink);
	if (done)
		print_result(d, tid);
	return done;
}

/* Run TID until it has nothing left or blocks. */
static void run_thread(struct drv *d, int tid)
{
	for (int i = 0; i < 1000000 && vfs_runnable(d->w, tid); i++)
		step(d, tid);
}

static int thread_arg(struct drv *d, const char *s)
{
	int t = vfs_thread_by_name(d->w, s);
	if (t < 0)
		err(d, "no thread '%s'", s);
	return t;
}

/* ---- a thread's call ---- */

static int do_call(struct drv *d, int tid, int ac, char **av)
{
	struct vfs_call c;
	char msg[256];
	bool bg = ac > 0 && !strcmp(av[ac - 1], "&");
	if (bg)
		ac--;
	if (ac < 1)
		return err(d, "%s", "a call is missing");
	int sys = vfs_sys_lookup(av[0]);
	if (!sys)
		return err(d, "unknown call '%s'", av[0]);
	/* the words as the shell reads them: the call's row (core/syscalls.c) */
	int r = vfs_call_parse(d->w, sys, ac - 1, av + 1, &c, msg, sizeof msg);
	if (r == VCP_NOPROC)
		return err(d, "no process '%s'", msg);
	if (r < 0)
		return err(d, "%s", msg);
	if (vfs_submit(d->w, tid, &c) < 0)
		return err(d, "%s", "cannot queue the call (thread dead or queue full)");
	if (!bg)
		run_thread(d, tid);
	return 0;
}

/* ---- checks ---- */

static int lock_class_arg(const char *s)
{
	if (!strcmp(s, "i_mutex") || !strcmp(s, "i_rwsem"))
		return LC_I_RWSEM_DIR;
	return vfs_class_lookup(s);
}

static int ret_value(const char *s, long long *v)
{
	if (num(s, v))
		return 0;
	int e = vfs_errno_lookup(s);
	if (!e)
		return -1;
	*v = -e;
	return 0;
}

static int check(struct drv *d, int ac, char **av)
{
	struct vfs_world *w = d->w;
	char got[512] = "";
	bool ok = false, neg = false;
	long long v;
	int t;

	if (ac >= 1 && !strcmp(av[0], "no")) {
		neg = true;
		av++;
		ac--;
	}
	if (ac < 1)
		return err(d, "%s", "check what?");
	const char *what = av[0];

	if (!strcmp(what, "ret") && (ac == 2 || ac == 3)) {
		t = ac == 3 ? thread_arg(d, av[1]) : vfs_world_last_done(w);
		if (ac == 3 && t < 0)
			return -1;
		if (ret_value(av[ac - 1], &v) < 0)
			return err(d, "bad value '%s'", av[ac - 1]);
		if (t < 0) {
			snprintf(got, sizeof got, "no call has completed");
		} else {
			int64_t r = vfs_call_ret(w, t);
			const char *e = r < 0 ? vfs_errno_name((int)-r) : NULL;
			ok = vfs_call_done(w, t) && r == v;
			if (e)
				snprintf(got, sizeof got, "%s", e);
			else
				snprintf(got, sizeof got, "%lld", (long long)r);
		}
	} else if (!strcmp(what, "entries")) {
		int first = 1;
		t = vfs_world_last_getdents(w);
		if (ac > 1 && vfs_thread_by_name(w, av[1]) >= 0 &&
		    strcmp(av[1], ".") && strcmp(av[1], "..")) {
			t = vfs_thread_by_name(w, av[1]);
			first = 2;
		}
		if (t < 0) {
			snprintf(got, sizeof got, "no getdents yet");
		} else {
			int nent = vfs_call_nent(w, t);
			size_t o = 0;
			ok = nent == ac - first;
			for (int i = 0; i < nent; i++) {
				const char *n = vfs_rec_entry_name(w, t, i);
				if (i + first < ac && strcmp(n, av[i + first]))
					ok = false;
				o += (size_t)snprintf(got + o, sizeof got - o, "%s%s",
						      i ? " " : "", n);
				if (o >= sizeof got)
					break;
			}
		}
	} else if ((!strcmp(what, "fpos") || !strcmp(what, "count")) && ac == 3) {
		int f = file_arg(d, av[1]);
		if (f < 0 || !num(av[2], &v))
			return err(d, "bad file or number in '%s'", what);
		long long x = !strcmp(what, "fpos") ? vfs_file_pos(w, f) :
			      vfs_file_count(w, f);
		ok = x == v;
		snprintf(got, sizeof got, "%lld", x);
	} else if (!strcmp(what, "took") && (ac == 3 || ac == 4)) {
		if ((t = thread_arg(d, av[1])) < 0)
			return -1;
		int cls = lock_class_arg(av[2]), mode = -1;
		if (cls == LC_NONE)
			return err(d, "unknown lock '%s'", av[2]);
		if (ac == 4) {
			mode = !strcmp(av[3], "read") ? M_READ : !strcmp(av[3], "write") ?
			       M_WRITE : !strcmp(av[3], "excl") ? M_EXCL : -1;
			if (mode < 0)
				return err(d, "bad mode '%s'", av[3]);
		}
		ok = vfs_call_took(w, t, cls, mode);
		snprintf(got, sizeof got, "%s", ok ? "took it" : "did not take it");
	} else if (!strcmp(what, "skipped") && ac == 3) {
		if ((t = thread_arg(d, av[1])) < 0)
			return -1;
		ok = vfs_call_skipped_fpos(w, t);
		snprintf(got, sizeof got, "skipped_fpos %d", vfs_call_skipped_fpos(w, t));
	} else if (!strcmp(what, "blocked") && (ac == 2 || ac == 3)) {
		if ((t = thread_arg(d, av[1])) < 0)
			return -1;
		ok = vfs_thread_state(w, t) == TS_BLOCKED;
		if (ok && ac == 3) {
			int cls = lock_class_arg(av[2]);
			if (cls == LC_NONE)
				return err(d, "unknown lock '%s'", av[2]);
			int c = vfs_lock_class(w, vfs_thread_wait_lock(w, t));
			ok = c == cls || (cls == LC_I_RWSEM_DIR && c == LC_I_RWSEM);
		}
		if (vfs_thread_state(w, t) == TS_BLOCKED)
			vfs_lock_name(w, vfs_thread_wait_lock(w, t), got, sizeof got);
		else
			snprintf(got, sizeof got, "not blocked");
	} else if (!strcmp(what, "state") && ac == 3) {
		static const char *const names[] = { "free", "idle", "running",
			"blocked", "dead" };
		if ((t = thread_arg(d, av[1])) < 0)
			return -1;
		int s = vfs_thread_state(w, t);
		if (s == TS_RUNNING && !vfs_has_work(w, t))
			s = TS_IDLE;
		ok = !strcmp(names[s], av[2]);
		snprintf(got, sizeof got, "%s", names[s]);
	} else if (!strcmp(what, "race") && ac <= 2) {
		int field = FLD_NONE;
		if (ac == 2 && (field = vfs_field_lookup(av[1])) == FLD_NONE)
			return err(d, "unknown field '%s'", av[1]);
		int n = vfs_report_count(w, DK_RACE, field);
		ok = n > 0;
		snprintf(got, sizeof got, "%d race reports", n);
	} else if (!strcmp(what, "duplicate") && ac <= 2) {
		int n = vfs_report_count(w, DK_DUPLICATE, 0);
		if (ac == 2) {
			if (!num(av[1], &v) || neg)
				return err(d, "bad count '%s'", av[1]);
			ok = n == v;
		} else {
			ok = n > 0;
		}
		snprintf(got, sizeof got, "%d duplicate reports", n);
	} else if (!strcmp(what, "deadlock") && ac == 1) {
		ok = vfs_all_blocked(w);
		snprintf(got, sizeof got, "%s", ok ? "all blocked" : "not all blocked");
	} else {
		return err(d, "unknown condition '%s'", what);
	}
	if (neg)
		ok = !ok;
	d->checks++;
	if (!ok) {
		d->failed++;
		printf("%s:%d: check failed:", d->file, d->line);
		if (neg)
			printf(" no");
		for (int i = 0; i < ac; i++)
			printf(" %s", av[i]);
		printf(" (got %s)\n", got);
	}
	return 0;
}

/* ---- commands ---- */

static int command(struct drv *d, int ac, char **av)
{
	struct vfs_world *w = d->w;
	long long v;
	const char *c = av[0];

	if (!strcmp(c, "kernel") && ac == 2) {
		const struct vfs_preset *p = vfs_preset_lookup(av[1]);
		if (!p)
			return err(d, "unknown preset '%s'", av[1]);
		if (vfs_world_nprocs(w) || vfs_world_ninodes(w) > 1)
			vfs_set_preset(w, p);
		else
			vfs_world_init(w, p);
		return 0;
	}
	if (!strcmp(c, "set") && ac == 3) {
		const struct vfs_knob_desc *k = vfs_knob_lookup(av[1]);
		struct vfs_knobs kn = *vfs_world_knobs(w);
		if (!k || vfs_knob_set(&kn, k, av[2]) < 0)
			return err(d, "bad knob or value '%s'", av[1]);
		vfs_world_set_knobs(w, &kn, true);
		return 0;
	}
	if (!strcmp(c, "mount") && (ac == 3 || ac == 4)) {
		int r = vfs_setup_mount(w, av[1], av[2], ac == 4 ? av[3] : NULL);
		return r < 0 ? err(d, "mount: %s", vfs_errno_name(-r)) : 0;
	}
	if ((!strcmp(c, "mkdir") || !strcmp(c, "touch")) && ac >= 2) {
		for (int i = 1; i < ac; i++) {
			int r = c[0] == 'm' ? vfs_setup_mkdir(w, av[i], true) :
				vfs_setup_touch(w, av[i], true);
			if (r < 0 && !(r == -VE_EXIST && c[0] == 'm'))
				return err(d, "%s", vfs_errno_name(-r));
		}
		return 0;
	}
	if (!strcmp(c, "spawn") && (ac == 2 || ac == 3)) {
		int uid = 0;
		if (ac == 3) {
			if (strncmp(av[2], "uid=", 4) || !num(av[2] + 4, &v))
				return err(d, "bad '%s'", av[2]);
			uid = (int)v;
		}
		int r = vfs_spawn(w, av[1], uid);
		return r < 0 ? err(d, "spawn: %s", vfs_errno_name(-r)) : 0;
	}
	if (!strcmp(c, "sched") && ac >= 2) {
		if (!strcmp(av[1], "rr"))
			vfs_world_set_sched(w, VSCHED_RR, 0);
		else if (!strcmp(av[1], "fifo"))
			vfs_world_set_sched(w, VSCHED_FIFO, 0);
		else if (!strcmp(av[1], "random") && ac == 3 && num(av[2], &v))
			vfs_world_set_sched(w, VSCHED_RANDOM, v);  /* as the shell's */
		else
			return err(d, "%s", "sched rr|fifo|random SEED");
		return 0;
	}
	if (!strcmp(c, "trace") && ac == 2) {
		d->trace = !strcmp(av[1], "on");
		return 0;
	}
	if (!strcmp(c, "run") && ac == 1) {
		int t;
		for (int i = 0; i < 1000000 && (t = vfs_sched_pick(w)) >= 0; i++)
			step(d, t);
		return 0;
	}
	if (!strcmp(c, "step")) {
		int t = -1;
		long long n = 1;
		int i = 1;
		if (ac > i && !num(av[i], &v)) {
			if ((t = thread_arg(d, av[i])) < 0)
				return -1;
			i++;
		}
		if (ac == i + 2 && !strcmp(av[i], "until")) {
			int fn = vfs_fn_lookup(av[i + 1]);
			if (t < 0 || fn == VFN_none)
				return err(d, "bad 'step THREAD until FUNC': %s", av[i + 1]);
			for (int k = 0; k < 1000000 && vfs_runnable(w, t) &&
			     vfs_next_fn(w, t, NULL) != fn; k++)
				step(d, t);
			if (vfs_next_fn(w, t, NULL) != fn)
				printf("%s:%d: note: never about to enter %s\n", d->file,
				       d->line, av[i + 1]);
			return 0;
		}
		if (ac > i && (!num(av[i], &n) || n < 0 || ac > i + 1))
			return err(d, "bad step count '%s'", av[i]);
		for (long long k = 0; k < n; k++) {
			int u = t >= 0 ? t : vfs_sched_pick(w);
			if (u < 0 || !vfs_runnable(w, u))
				break;
			step(d, u);
		}
		return 0;
	}
	if (!strcmp(c, "check") || !strcmp(c, "expect"))
		return check(d, ac - 1, av + 1);

	/* THREAD[:] CALL ... */
	char name[VFS_NAME_MAX + 8];
	snprintf(name, sizeof name, "%s", c);
	size_t len = strlen(name);
	if (len && name[len - 1] == ':')
		name[len - 1] = 0;
	int t = vfs_thread_by_name(w, name);
	if (t < 0)
		return err(d, "unknown command or thread '%s'", c);
	if (ac < 2)
		return err(d, "%s", "a thread needs a call");
	return do_call(d, t, ac - 1, av + 1);
}

static int run_file(const char *path, struct vfs_world *w)
{
	struct drv d = { .w = w, .file = path };
	char line[1024], *av[MAXW];
	FILE *f = fopen(path, "r");
	if (!f) {
		perror(path);
		return 1;
	}
	d.sink.fn = sink_fn;
	d.sink.ctx = &d;
	vfs_world_init(w, NULL);
	int status = 0;
	while (fgets(line, sizeof line, f)) {
		d.line++;
		int ac = split(line, av);
		if (ac < 0) {
			err(&d, "%s", "too many words");
			status = 1;
			break;
		}
		if (ac == 0)
			continue;
		if (command(&d, ac, av) < 0) {
			status = 1;
			break;
		}
	}
	fclose(f);
	if (d.failed)
		status = 1;
	printf("%s: %d checks, %d failed%s\n", path, d.checks, d.failed,
	       status && !d.failed ? " (script error)" : "");
	return status;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: vfsim-driver FILE.vfs...\n");
		return 1;
	}
	struct vfs_world *w = vfs_world_alloc();
	if (!w)
		return 1;
	int status = 0;
	for (int i = 1; i < argc; i++)
		status |= run_file(argv[i], w);
	vfs_world_free(w);
	return status;
}
