/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * runner.c - the host kernel's side of the differential harness.
 *
 *   difftest-runner BASE SCRIPT
 *
 * Reads a batch of vfsim scenarios (tests/difftest/gen.py writes them: the
 * fixed command language, scenarios separated by `echo @@ N`) and performs
 * each call with the real system call.  Scenario N runs in BASE/N: a vfsim
 * path "/t/x" is BASE/N/t/x.  `mkdir /t` makes BASE/N/t on BASE's
 * filesystem; `mount tmpfs /t` mounts a fresh tmpfs there (root only),
 * detached when the scenario ends.
 *
 * Process A is this process; `A: fork B` forks a child that serves B's
 * calls over a pair of pipes kept above every descriptor a scenario uses.
 * One line per call on stdout, tab separated:
 *
 *   R <proc> <ret> <errno name or -> <kind of the fd argument: d r -> <pos0> <extra>
 *
 * where extra is the names a getdents returned (space separated, in the
 * kernel's order) or the bytes a read returned, escaped as vfsim prints
 * them; pos0 is a getdents' f_pos before the call (lseek(fd, 0, SEEK_CUR),
 * which changes nothing), "-" for other calls.  getdents returns entries, not bytes: every name the generator
 * uses is at most 4 bytes, so every linux_dirent64 is 24 bytes long and
 * `getdents FD N` is getdents64 with a buffer of 24 * N bytes.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define RECLEN     24           /* a linux_dirent64 with a name of <= 4 bytes */
#define MAX_ENTS   128          /* vfsim's VFS_MAX_ENTRIES: `getdents FD` */
#define PIPE_FD    900          /* the child's pipes live up here */
#define LINE_MAX_  512

static char base[4096];
static char scen[4096];         /* base/N */
static pid_t child = -1;        /* process B */
static int mounted;             /* a tmpfs on scen/t */
static int to_child = -1, from_child = -1;

static const struct { int e; const char *n; } names[] = {
	{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ESRCH, "ESRCH" },
	{ EINTR, "EINTR" }, { EBADF, "EBADF" }, { EAGAIN, "EAGAIN" },
	{ ENOMEM, "ENOMEM" }, { EBUSY, "EBUSY" }, { EEXIST, "EEXIST" },
	{ EXDEV, "EXDEV" }, { ENOTDIR, "ENOTDIR" }, { EISDIR, "EISDIR" },
	{ EINVAL, "EINVAL" }, { ENFILE, "ENFILE" }, { EMFILE, "EMFILE" },
	{ ESPIPE, "ESPIPE" }, { ENOSPC, "ENOSPC" }, { ENAMETOOLONG, "ENAMETOOLONG" },
	{ ENOSYS, "ENOSYS" }, { ENOTEMPTY, "ENOTEMPTY" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	{ EOVERFLOW, "EOVERFLOW" },
};

static const char *errno_name(int e)
{
	static char buf[16];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (names[i].e == e)
			return names[i].n;
	snprintf(buf, sizeof buf, "E%d", e);
	return buf;
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* "/t/x" -> base/N/t/x */
static const char *host_path(const char *p, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s", scen, p);
	return buf;
}

static char fd_kind(long fd)
{
	struct stat st;
	if (fd < 0 || fstat((int)fd, &st) < 0)
		return '-';
	return S_ISDIR(st.st_mode) ? 'd' : S_ISREG(st.st_mode) ? 'r' : '-';
}

/* Escaped as cli/session.c prints read data. */
static void escape(const char *p, long n, char *out, size_t size)
{
	size_t o = 0;
	for (long i = 0; i < n && o + 5 < size; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c == '\n') { out[o++] = '\\'; out[o++] = 'n'; }
		else if (c == '"' || c == '\\') { out[o++] = '\\'; out[o++] = (char)c; }
		else if (c < 32) out[o++] = '?';
		else out[o++] = (char)c;
	}
	out[o] = 0;
}

static int split(char *s, char **w, int max)
{
	int n = 0;
	for (char *tok = strtok(s, " \t"); tok && n < max; tok = strtok(NULL, " \t"))
		w[n++] = tok;
	return n;
}

static long num(const char *s)
{
	return s ? strtol(s, NULL, 10) : 0;
}

/*
 * Perform one call (the words after "PROC:") and write its result line,
 * without the "R PROC" head, into out.
 */
static void do_call(char **w, int n, char *out, size_t size)
{
	char p1[4096], p2[4096], extra[4096] = "", buf[RECLEN * MAX_ENTS + 64];
	long ret = -1, fd = n > 1 ? num(w[1]) : -1;
	char kind = '-';
	int fdcall = 1;
	long pos0 = -1;

	errno = 0;
	if (!strcmp(w[0], "open")) {
		int fl = O_RDONLY;
		for (int i = 2; i < n; i++) {
			if (!strcmp(w[i], "wronly")) fl = (fl & ~O_ACCMODE) | O_WRONLY;
			else if (!strcmp(w[i], "rdwr")) fl = (fl & ~O_ACCMODE) | O_RDWR;
			else if (!strcmp(w[i], "directory")) fl |= O_DIRECTORY;
			else if (!strcmp(w[i], "cloexec")) fl |= O_CLOEXEC;
		}
		ret = open(host_path(w[1], p1, sizeof p1), fl);
		fdcall = 0;
	} else if (!strcmp(w[0], "creat")) {
		ret = creat(host_path(w[1], p1, sizeof p1), 0644);
		fdcall = 0;
	} else if (!strcmp(w[0], "mkdir")) {
		ret = mkdir(host_path(w[1], p1, sizeof p1), 0755);
		fdcall = 0;
	} else if (!strcmp(w[0], "unlink")) {
		ret = unlink(host_path(w[1], p1, sizeof p1));
		fdcall = 0;
	} else if (!strcmp(w[0], "rmdir")) {
		ret = rmdir(host_path(w[1], p1, sizeof p1));
		fdcall = 0;
	} else if (!strcmp(w[0], "rename")) {
		ret = rename(host_path(w[1], p1, sizeof p1), host_path(w[2], p2, sizeof p2));
		fdcall = 0;
	} else if (!strcmp(w[0], "close")) {
		kind = fd_kind(fd);
		ret = close((int)fd);
		fdcall = 0;
	} else if (!strcmp(w[0], "dup")) {
		ret = dup((int)fd);
	} else if (!strcmp(w[0], "dup2")) {
		ret = dup2((int)fd, (int)num(w[2]));
	} else if (!strcmp(w[0], "lseek")) {
		int wh = SEEK_SET;
		if (n > 3 && !strcmp(w[3], "cur")) wh = SEEK_CUR;
		if (n > 3 && !strcmp(w[3], "end")) wh = SEEK_END;
		ret = lseek((int)fd, num(w[2]), wh);
	} else if (!strcmp(w[0], "getdents")) {
		long cnt = n > 2 ? num(w[2]) : MAX_ENTS;
		if (cnt < 1 || cnt > MAX_ENTS)
			cnt = MAX_ENTS;
		pos0 = lseek((int)fd, 0, SEEK_CUR);
		errno = 0;
		ret = syscall(SYS_getdents64, (int)fd, buf, (size_t)(cnt * RECLEN));
		if (ret >= 0) {
			size_t o = 0;
			for (long off = 0; off < ret;) {
				struct dirent64 *d = (struct dirent64 *)(buf + off);
				o += (size_t)snprintf(extra + o, sizeof extra - o, "%s%s",
						      o ? " " : "", d->d_name);
				off += d->d_reclen;
			}
			ret /= RECLEN;
		}
	} else if (!strcmp(w[0], "read") || !strcmp(w[0], "pread")) {
		long cnt = n > 2 ? num(w[2]) : 4096;
		if (cnt > (long)sizeof buf)
			cnt = sizeof buf;
		if (w[0][0] == 'p')
			ret = pread((int)fd, buf, (size_t)cnt, n > 3 ? num(w[3]) : 0);
		else
			ret = read((int)fd, buf, (size_t)(cnt < 0 ? 0 : cnt));
		if (ret > 0)
			escape(buf, ret, extra, sizeof extra);
	} else if (!strcmp(w[0], "readv")) {
		/* readv FD N [N2]: two iovecs (one without N2), back to back */
		long n1 = n > 2 ? num(w[2]) : 0, n2 = n > 3 ? num(w[3]) : 0;
		long half = (long)sizeof buf / 2;
		struct iovec iov[2] = {
			{ buf, (size_t)(n1 < 0 ? 0 : n1 > half ? half : n1) },
			{ buf + half, (size_t)(n2 < 0 ? 0 : n2 > half ? half : n2) },
		};
		ret = readv((int)fd, iov, n > 3 ? 2 : 1);
		if (ret > 0) {          /* the bytes in order: iovec 1, then 2 */
			long a = ret < (long)iov[0].iov_len ? ret : (long)iov[0].iov_len;
			memmove(buf + a, buf + half, (size_t)(ret - a));
			escape(buf, ret, extra, sizeof extra);
		}
	} else if (!strcmp(w[0], "fsync")) {
		ret = fsync((int)fd);
	} else if (!strcmp(w[0], "write") || !strcmp(w[0], "pwrite")) {
		const char *text = n > 2 ? w[2] : "";
		if (w[0][0] == 'p')
			ret = pwrite((int)fd, text, strlen(text), n > 3 ? num(w[3]) : 0);
		else
			ret = write((int)fd, text, strlen(text));
	} else {
		snprintf(out, size, "?\t-\t-\t-\tunknown call %s", w[0]);
		return;
	}
	int e = errno;
	if (fdcall)
		kind = fd_kind(fd);
	char p0[24] = "-";
	if (pos0 >= 0)
		snprintf(p0, sizeof p0, "%ld", pos0);
	if (ret < 0)
		snprintf(out, size, "-1\t%s\t%c\t%s\t%s", errno_name(e), kind, p0, extra);
	else
		snprintf(out, size, "%ld\t-\t%c\t%s\t%s", ret, kind, p0, extra);
}

static void read_line_fd(int fd, char *buf, size_t n)
{
	size_t o = 0;
	char c;
	while (o + 1 < n && read(fd, &c, 1) == 1 && c != '\n')
		buf[o++] = c;
	buf[o] = 0;
}

static void write_all(int fd, const char *s)
{
	size_t len = strlen(s);
	while (len) {
		ssize_t k = write(fd, s, len);
		if (k <= 0)
			die("write pipe");
		s += k;
		len -= (size_t)k;
	}
}

/* B: one call a line from the parent, one result line back. */
static void serve(int in, int out)
{
	char line[LINE_MAX_], res[8192], *w[8];
	for (;;) {
		read_line_fd(in, line, sizeof line);
		if (!line[0])
			_exit(0);
		int n = split(line, w, 8);
		do_call(w, n, res, sizeof res - 1);
		strcat(res, "\n");
		write_all(out, res);
	}
}

static void end_scenario(void)
{
	if (child > 0) {
		close(to_child);        /* the child reads EOF and exits */
		close(from_child);
		waitpid(child, NULL, 0);
		child = -1;
	}
	for (int fd = 3; fd < PIPE_FD; fd++)
		close(fd);
	if (mounted) {
		char p[4096];
		umount2(host_path("/t", p, sizeof p), MNT_DETACH);
		mounted = 0;
	}
}

static void do_fork(const char *who, const char *name)
{
	int down[2], up[2];
	if (pipe(down) || pipe(up))
		die("pipe");
	to_child = fcntl(down[1], F_DUPFD_CLOEXEC, PIPE_FD);
	int child_in = fcntl(down[0], F_DUPFD_CLOEXEC, PIPE_FD);
	from_child = fcntl(up[0], F_DUPFD_CLOEXEC, PIPE_FD);
	int child_out = fcntl(up[1], F_DUPFD_CLOEXEC, PIPE_FD);
	close(down[0]); close(down[1]); close(up[0]); close(up[1]);
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(to_child);
		close(from_child);
		serve(child_in, child_out);
	}
	close(child_in);
	close(child_out);
	child = pid;
	printf("R\t%s\t%ld\t-\t-\t-\tfork %s\n", who, (long)pid, name);
}

int main(int argc, char **argv)
{
	int ai = 1;
	if (argc != 3) {
		fprintf(stderr, "usage: difftest-runner BASE SCRIPT\n");
		return 2;
	}
	snprintf(base, sizeof base, "%s", argv[ai]);
	/* the whole script is read first, so no descriptor of ours is open
	 * below PIPE_FD while the scenarios run */
	FILE *in = fopen(argv[ai + 1], "r");
	if (!in)
		die(argv[ai + 1]);
	size_t cap = 1 << 16, len = 0;
	char *text = malloc(cap);
	for (size_t k; text && (k = fread(text + len, 1, cap - len - 1, in)) > 0;) {
		len += k;
		if (len + 1 == cap && !(text = realloc(text, cap *= 2)))
			break;
	}
	if (!text)
		die("malloc");
	text[len] = 0;
	fclose(in);
	for (int fd = 3; fd < PIPE_FD; fd++)
		close(fd);
	signal(SIGPIPE, SIG_IGN);

	char line[LINE_MAX_], res[8192], *w[8];
	for (char *next = text; *next;) {
		size_t l = strcspn(next, "\n");
		snprintf(line, sizeof line, "%.*s", (int)l, next);
		next += l + (next[l] == '\n');
		char *colon = strchr(line, ':');
		if (!strncmp(line, "echo @@ ", 8)) {
			end_scenario();
			snprintf(scen, sizeof scen, "%s/%s", base, line + 8);
			if (mkdir(scen, 0755) < 0)
				die(scen);
			printf("@@ %s\n", line + 8);
			continue;
		}
		if (!strcmp(line, "mkdir /t") || !strcmp(line, "mount tmpfs /t")) {
			char p[4096];
			if (mkdir(host_path("/t", p, sizeof p), 0755) < 0)
				die(p);
			if (line[1] == 'o') {
				if (mount("difftest", p, "tmpfs", 0, "mode=0755") < 0)
					die("mount tmpfs");
				mounted = 1;
			}
			continue;
		}
		if (!colon || line[0] == '#')
			continue;       /* kernel, spawn, reset, comments */
		*colon = 0;
		const char *who = line;
		int n = split(colon + 1, w, 8);
		if (!n)
			continue;
		if (!strcmp(w[0], "fork")) {
			do_fork(who, n > 1 ? w[1] : "?");
			continue;
		}
		if (!strcmp(who, "A") || child < 0) {
			do_call(w, n, res, sizeof res);
		} else {
			char cmd[LINE_MAX_] = "";
			for (int i = 0; i < n; i++) {
				strcat(cmd, i ? " " : "");
				strncat(cmd, w[i], sizeof cmd - strlen(cmd) - 2);
			}
			strcat(cmd, "\n");
			write_all(to_child, cmd);
			read_line_fd(from_child, res, sizeof res);
		}
		printf("R\t%s\t%s\n", who, res);
	}
	end_scenario();
	free(text);
	fflush(stdout);
	return 0;
}
