/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_session.c - libFuzzer harness: each input is a script, fed line by
 * line to a fresh session as if typed at the prompt (a bad line gets its
 * message and the session goes on), output silenced.  scripts/fuzz.sh
 * builds and runs it; it is not part of `make check`.
 *
 * Guards (so that the fuzzer finds bugs, not legitimately slow inputs or
 * writes outside its sandbox):
 *  - built with -DVFSIM_FUZZ: `run` and `step THREAD until` stop after
 *    VFSIM_FUZZ_RUN_LIMIT steps (cmd_run.c), `explore` is capped at
 *    20 executions, 2^10 states, depth 2000, about 0.25 s and one job,
 *    whatever the engine (explore_cli.c);
 *  - every file name given to source, save, explore save, compare and
 *    export is rewritten to a short plain name in a private temporary
 *    directory, emptied before each input (so `save x` then `source x`
 *    still meet within an input, and never across inputs); the process
 *    stays where it was started (libFuzzer's logs land there);
 *  - `step N` / `back N` keep their numbers; lines over 8 KiB are dropped.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "lex.h"

/* the private directory: on /dev/shm when there is one (emptied per
 * input, it sees a few file operations per input), else /tmp */
static char tmpdir[64];

static void safe_name(char *dst, size_t n, const char *src)
{
	size_t o = 0;
	if (!strcmp(src, "-")) {        /* export FILE '-' is stdout */
		snprintf(dst, n, "-");
		return;
	}
	o += (size_t)snprintf(dst, n, "%s/f_", tmpdir);
	size_t base = o;
	for (const char *p = src; *p && o + 1 < n && o < base + 10; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '.' || *p == '_')
			dst[o++] = *p;
	dst[o] = 0;
}

static void safe_word(char *dst, size_t n, const char *src)
{
	size_t o = 0;
	for (const char *p = src; *p && o + 1 < n; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("._#:=-+/", *p))
			dst[o++] = *p;
	if (!o)
		dst[o++] = 'x';
	dst[o] = 0;
}

/* The index of the FILE word of a command that names a file, or -1. */
static int file_arg(const struct lex *l)
{
	const char *c = l->words[0];
	if (!strcmp(c, "source") || !strcmp(c, "save"))
		return 1;
	if (!strcmp(c, "export"))
		return 2;
	if (!strcmp(c, "compare"))
		return 3;
	if (!strcmp(c, "explore") && l->nwords > 1 && !strcmp(l->words[1], "save"))
		return 2;
	return -1;
}

/*
 * Whether `explore` runs its engine: VFSIM_FUZZ_EXPLORE=1 (scripts/fuzz.sh
 * FUZZ_EXPLORE=1). Each search costs milliseconds however small its bounds
 * (the engines set up tables of hundreds of KiB), which held the fuzzer
 * to about 40 inputs a second; without it the rest goes past 1,000.
 */
static int fuzz_explore;

/* The line to run, rewritten if it names a file; NULL to skip it. */
static char *filter(const char *line, char *out, size_t n)
{
	static struct lex l;
	if (strlen(line) > 8192)
		return NULL;
	if (lex(&l, line, "0") < 0 || !l.nwords)
		return (char *)line;    /* fails in the session too */
	if (!fuzz_explore && !strcmp(l.words[0], "explore") &&
	    !(l.nwords > 1 && (!strcmp(l.words[1], "replay") || !strcmp(l.words[1], "save"))))
		return NULL;
	int fa = file_arg(&l);
	if (fa < 0)
		return (char *)line;
	size_t o = 0;
	if (l.thread[0])
		o += (size_t)snprintf(out + o, n - o, "%s: ", "A");
	for (int i = 0; i < l.nwords && o < n; i++) {
		char w[64];
		if (i == fa)
			safe_name(w, sizeof w, l.words[i]);
		else
			safe_word(w, sizeof w, l.words[i]);
		o += (size_t)snprintf(out + o, n - o, "%s%s", i ? " " : "", w);
	}
	return out;
}

/* Empty the private directory: before each input, so that an input
 * meets only the files it wrote itself (a `source` of a file an earlier
 * input saved made a run depend on the inputs before it: a timeout found
 * in a long run did not reproduce alone). */
static void empty_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
}

/* ... and remove it at exit. */
static void cleanup(void)
{
	empty_tmpdir();
	rmdir(tmpdir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *fx = getenv("VFSIM_FUZZ_EXPLORE");
	fuzz_explore = fx && *fx && strcmp(fx, "0");
	snprintf(tmpdir, sizeof tmpdir, "%s/vfsim-fuzz.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("vfsim fuzz: temporary directory");
		exit(1);
	}
	atexit(cleanup);
	if (!freopen("/dev/null", "w", stdout))
		exit(1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 64 * 1024)
		return 0;
	char *buf = malloc(size + 1);
	char *acc = malloc(size + 2);
	static char out[16384];
	if (!buf || !acc)
		abort();
	memcpy(buf, data, size);
	buf[size] = 0;
	empty_tmpdir();
	/* A session per input, freed at its end: everything an input
	 * allocates is freed before it returns, so libFuzzer's malloc/free
	 * count balances and it runs an input a second time (under LSan)
	 * only when something really leaked.  (A world is tens of KiB since
	 * the detector tables grow as they fill, so this is cheap.) */
	struct session *s = session_new();
	if (!s)
		abort();
	s->silent = 1;
	s->quiet = 1;
	s->trace = TRACE_OFF;
	s->color = 0;
	s->interactive = 0;
	s->quit = 0;
	s->depth = 0;
	s->replaying = 0;
	s->line = 0;
	s->file = NULL;         /* the prompt: errors do not end the session */
	size_t alen = 0;
	char *p = buf;
	while (p && !s->quit) {
		char *nl = memchr(p, '\n', (size_t)(buf + size - p));
		if (nl)
			*nl = 0;
		size_t len = strlen(p);   /* a NUL byte ends the line, as getline+strlen */
		while (len && (p[len - 1] == '\r'))
			p[--len] = 0;
		int more = lex_continues(p);
		if (more)
			p[len - 1] = ' ';
		memcpy(acc + alen, p, len + 1);
		alen += len;
		p = nl ? nl + 1 : NULL;
		if (more && p)
			continue;
		alen = 0;
		const char *line = filter(acc, out, sizeof out);
		if (line)
			session_exec_line(s, line);
		s->errors = 0;          /* as at the prompt */
		s->failed = 0;
	}
	session_free(s);
	free(buf);
	free(acc);
	return 0;
}
