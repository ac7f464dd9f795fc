/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_syscalls.c - the system call rows (core/syscalls.c): every row's
 * words parse, print back and parse again to the same call; strace text
 * and words of known calls; refusals; vfs_submit's sequence numbers.
 */
#include "harness.h"

/* A word for an argument of KIND that parses (no quoting needed). */
static const char *sample(int kind, int i)
{
	switch (kind) {
	case VA_FD:      return i ? "4" : "3";
	case VA_COUNT:   return "7";
	case VA_OFFSET:  return "-2";
	case VA_WHENCE:  return "end";
	case VA_PATH:    return i ? "/d/new" : "/d/f";
	case VA_TEXT:    return "abc";
	case VA_PROC:    return "P";
	case VA_NEWPROC: return "kid";
	}
	return "?";
}

static bool same_call(const struct vfs_world *w, const struct vfs_call *a,
		      const struct vfs_call *b)
{
	return a->sys == b->sys && !memcmp(a->a, b->a, sizeof a->a) &&
	       !strcmp(vfs_call_str(w, a, 0), vfs_call_str(w, b, 0)) &&
	       !strcmp(vfs_call_str(w, a, 1), vfs_call_str(w, b, 1));
}

/* words -> call -> words -> call, for every row: all its arguments given,
 * then only the ones it needs. */
static void test_roundtrip(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_spawn(h, "P", 0);
	for (int sys = SYS_NONE + 1; sys < SYS__COUNT; sys++) {
		const struct vfs_sysdesc *d = &vfs_sys[sys];
		assert_non_null(d->entry);
		if (d->flags & VSYS_SCRIPT)     /* test_defined.c */
			continue;
		assert_non_null(d->help);
		assert_int_equal(vfs_sys_lookup(d->name), sys);
		for (int all = 0; all < 2; all++) {
			char *words[8];
			int n = 0;
			for (int i = 0; i < d->nargs; i++) {
				if (d->args[i].kind == VA_OFLAGS) {
					words[n++] = "rdwr";
					words[n++] = "cloexec";
				} else if (all || !d->args[i].optional) {
					words[n++] = (char *)sample(d->args[i].kind, i);
				}
			}
			struct vfs_call c1, c2;
			char err[256] = "";
			int r = vfs_call_parse(h->w, sys, n, words, &c1, err, sizeof err);
			if (r)
				fail_msg("%s: %s", d->name, err);
			char *text = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&text, &len);
			assert_non_null(f);
			vfs_call_print(f, h->w, &c1);
			fclose(f);
			/* back into words: the samples need no quotes */
			char *back[16], *save = NULL;
			int nb = 0;
			for (char *t = strtok_r(text, " ", &save); t && nb < 16;
			     t = strtok_r(NULL, " ", &save))
				back[nb++] = t;
			assert_true(nb >= 1);
			assert_string_equal(back[0], d->name);
			r = vfs_call_parse(h->w, sys, nb - 1, back + 1, &c2, err, sizeof err);
			if (r)
				fail_msg("%s printed back: %s", d->name, err);
			if (!same_call(h->w, &c1, &c2))
				fail_msg("%s does not survive its words", d->name);
			free(text);
		}
	}
	h_free(h);
}

static void strace_of(struct h *h, const char *name, int n, char **words,
		      const char *want_strace, const char *want_words)
{
	struct vfs_call c;
	char err[256], buf[256];
	int sys = vfs_sys_lookup(name);
	assert_true(sys > SYS_NONE);
	assert_int_equal(vfs_call_parse(h->w, sys, n, words, &c, err, sizeof err), 0);
	vfs_call_strace(h->w, &c, buf, sizeof buf);
	assert_string_equal(buf, want_strace);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	vfs_call_print(f, h->w, &c);
	fclose(f);
	assert_string_equal(text, want_words);
	free(text);
}

static void test_strace_and_words(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_spawn(h, "P", 0);
	int pid = h_pid(h, 0);
	char pidw[16], spid[32];
	snprintf(pidw, sizeof pidw, "pidfd_open(%d)", pid);
	snprintf(spid, sizeof spid, "pidfd_open %d", pid);
	strace_of(h, "open", 3, (char *[]){ "/d", "directory", "wronly" },
		  "openat(\"/d\", O_WRONLY|O_DIRECTORY)", "open /d wronly directory");
	strace_of(h, "open", 1, (char *[]){ "/d" }, "openat(\"/d\", O_RDONLY)",
		  "open /d rdonly");
	strace_of(h, "getdents", 1, (char *[]){ "3" }, "getdents64(3)", "getdents 3");
	strace_of(h, "getdents", 2, (char *[]){ "3", "2" }, "getdents64(3, 2)",
		  "getdents 3 2");
	strace_of(h, "read", 1, (char *[]){ "3" }, "read(3, 4096)", "read 3 4096");
	strace_of(h, "lseek", 2, (char *[]){ "3", "5" }, "lseek(3, 5, SEEK_SET)",
		  "lseek 3 5 set");
	strace_of(h, "lseek", 3, (char *[]){ "3", "5", "9" }, "lseek(3, 5, ?)",
		  "lseek 3 5 9");
	strace_of(h, "pwrite", 3, (char *[]){ "3", "a b", "8" },
		  "pwrite64(3, \"a b\", 8)", "pwrite 3 'a b' 8");
	strace_of(h, "fork", 1, (char *[]){ "kid" }, "fork() [kid]", "fork kid");
	strace_of(h, "clone", 0, NULL, "clone()", "clone");
	strace_of(h, "rename", 2, (char *[]){ "/a", "/b" }, "rename(\"/a\", \"/b\")",
		  "rename /a /b");
	strace_of(h, "pidfd_open", 1, (char *[]){ "P" }, pidw, spid);
	strace_of(h, "creat", 1, (char *[]){ "/x" }, "creat(\"/x\")", "creat /x");
	h_free(h);
}

static void refused(struct h *h, const char *name, int n, char **words,
		    int want, const char *msg)
{
	struct vfs_call c;
	char err[256] = "";
	assert_int_equal(vfs_call_parse(h->w, vfs_sys_lookup(name), n, words, &c,
					err, sizeof err), want);
	assert_string_equal(err, msg);
}

static void test_refusals(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	h_spawn(h, "P", 0);
	refused(h, "getdents", 2, (char *[]){ "3", "-1" }, VCP_BAD,
		"getdents: N must not be negative");
	refused(h, "close", 1, (char *[]){ "x" }, VCP_BAD,
		"close: FD must be a number, not 'x'");
	refused(h, "open", 2, (char *[]){ "/d", "bogus" }, VCP_BAD,
		"open: unknown flag 'bogus' (rdonly, wronly, rdwr, directory, cloexec)");
	refused(h, "open", 1, (char *[]){ "d" }, VCP_BAD,
		"'d': paths start with / (there is no working directory)");
	refused(h, "lseek", 3, (char *[]){ "3", "0", "x" }, VCP_BAD,
		"lseek: whence is set, cur or end, not 'x'");
	refused(h, "fork", 1, (char *[]){ "P" }, VCP_BAD,
		"fork: a process named 'P' exists already");
	refused(h, "pidfd_open", 1, (char *[]){ "Q" }, VCP_NOPROC, "Q");
	refused(h, "read", 3, (char *[]){ "3", "1", "2" }, VCP_BAD,
		"read: too many arguments (usage: read FD [N])");
	refused(h, "pread", 1, (char *[]){ "3" }, VCP_BAD,
		"pread: missing arguments (usage: pread FD N OFFSET)");
	refused(h, "nosuchcall", 0, NULL, VCP_BAD, "not a system call");
	h_free(h);
}

static void test_synopsis(void **state)
{
	(void)state;
	char buf[128];
	int min, max;
	vfs_sys_synopsis(SYS_OPEN, buf, sizeof buf);
	assert_string_equal(buf, "PATH [rdonly|wronly|rdwr] [directory] [cloexec]");
	vfs_sys_nwords(SYS_OPEN, &min, &max);
	assert_int_equal(min, 1);
	assert_int_equal(max, 4);
	vfs_sys_synopsis(SYS_LSEEK, buf, sizeof buf);
	assert_string_equal(buf, "FD OFFSET [set|cur|end]");
	vfs_sys_nwords(SYS_LSEEK, &min, &max);
	assert_int_equal(min, 2);
	assert_int_equal(max, 3);
	vfs_sys_synopsis(SYS_CLONE, buf, sizeof buf);
	assert_string_equal(buf, "");
}

/* vfs_submit: the call's sequence number, growing; an errno value when
 * refused (-EAGAIN: the queue is full); vfs_kill's -ESRCH */
static void test_submit_seq(void **state)
{
	(void)state;
	struct h *h = h_new("v6.5");
	int a = h_spawn(h, "A", 0), b = h_spawn(h, "B", 0);
	struct vfs_call c = { .sys = SYS_CLOSE, .a = { 7 } };
	int s1 = vfs_submit(h->w, a, &c);
	int s2 = vfs_submit(h->w, b, &c);
	int s3 = vfs_submit(h->w, a, &c);
	assert_true(s1 > 0);
	assert_int_equal(s2, s1 + 1);
	assert_int_equal(s3, s2 + 1);
	const struct vfs_thread *t = &h->w->threads[a];
	assert_int_equal(t->pending[(t->pend_head + 1) % VFS_MAX_PENDING].seq, s3);
	int last = s3;
	while ((last = vfs_submit(h->w, a, &c)) > 0)
		;
	assert_int_equal(last, -VE_AGAIN);      /* the queue is full */
	assert_int_equal(vfs_kill(h->w, 99, NULL), -VE_SRCH);  /* no such process */
	h_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_strace_and_words),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_synopsis),
		cmocka_unit_test(test_submit_seq),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
