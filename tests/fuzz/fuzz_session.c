/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz_session.c - libFuzzer harness: each input is a script, read by the
 * one script reader (cli/script.c: lines joined over a trailing `\`, a NUL
 * byte reported) and run command by command in a fresh session, where a
 * bad line gets its message and the session goes on, output silenced.
 * scripts/fuzz.sh builds and runs it; it is not part of `make check`
 * (tests/cli/fuzz-harness.sh checks it when clang is there).
 *
 * Guards (so that the fuzzer finds bugs, not legitimately slow inputs or
 * writes outside its sandbox):
 *  - built with -DVFSIM_FUZZ: `run` and `step THREAD until` stop after
 *    VFSIM_FUZZ_RUN_LIMIT steps (cmd_run.c), `explore` is capped at
 *    20 executions, 2^10 states, depth 2000, its first progress report
 *    (0.5 s) and one job, whatever the engine (explore_cli.c);
 *  - `explore` lines are skipped (but `explore replay` and `explore save`)
 *    unless VFSIM_FUZZ_EXPLORE=1;
 *  - an input replays at most FUZZ_REPLAY_RECS records of its session in
 *    at most FUZZ_REPLAYS `back`, `compare` and `source` lines, one
 *    `compare`, and runs one lesson (below);
 *  - every file name given to source, save, explore save, compare and
 *    export is rewritten to a short plain name in a private temporary
 *    directory, emptied before each input (so `save x` then `source x`
 *    still meet within an input, and never across inputs); the process
 *    stays where it was started (libFuzzer's logs land there);
 *  - `step N` / `back N` keep their numbers; lines over 8 KiB are dropped.
 * VFSIM_FUZZ_VERBOSE=1 says at exit how many lines each guard took.
 */
#include <dirent.h>
#include <stdbool.h>
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

/*
 * Commands whose cost is not the line's own: `back`, `compare` and
 * `source` (of a session the input saved) replay the session so far, so
 * an input of N of them after M steps cost N x M (the fuzzer's long inputs
 * were quadratic: a corpus of inputs with a dozen `compare` lines after
 * hundreds of steps); `lessons N` runs a whole lesson.  An input replays
 * at most FUZZ_REPLAY_RECS records of its log in all (`compare` replays
 * it twice) in at most FUZZ_REPLAYS commands, one of them a `compare`
 * (two fresh sessions each: still 18% of a run with four), and runs one
 * lesson; the lines past that are skipped (counted: VFSIM_FUZZ_VERBOSE=1),
 * the rest still run.  (A `run` is at most 2,000 steps, so one replay
 * after one long run still fits.)
 */
#define FUZZ_REPLAYS 4
#define FUZZ_REPLAY_RECS 2500
static size_t replays, replayed, compares, lessons;

/* what was skipped, for VFSIM_FUZZ_VERBOSE=1 (tests/cli/fuzz-harness.sh) */
static int verbose;
static struct { long lines, lexed, explore, replays, lessons, rewritten; } seen;

/* A and B the same word (the harness's own compare: libc's strcmp is
 * intercepted and fed to libFuzzer's tables, for words the input never
 * decides) */
static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* The command word of LINE into W (the word after "THREAD:", if any),
 * without lexing it: only for lines with no quote, backslash or `$`, whose
 * words are their blank-separated runs as they stand. */
static void command_word(const char *line, char *w, size_t n)
{
	const char *p = line;
	for (int k = 0; k < 2; k++) {
		p += strspn(p, " \t\r\n");
		size_t len = strcspn(p, " \t\r\n");
		if (k == 0 && len > 1 && p[len - 1] == ':') {
			p += len;       /* A: ... */
			continue;
		}
		if (len >= n || *p == '#')
			len = 0;
		memcpy(w, p, len);
		w[len] = 0;
		return;
	}
	w[0] = 0;
}

/* The commands the harness looks at: those that name a file, explore,
 * the replays and lessons.  (A line of another command runs as it is,
 * lexed once, by the session.) */
static int watched(const char *c)
{
	static const char *const words[] = { "source", "save", "export", "compare",
		"explore", "back", "lessons" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (same(c, words[i]))
			return 1;
	return 0;
}

/* The line to run, rewritten if it names a file; NULL to skip it. */
static char *filter(const struct session *s, const char *line, char *out, size_t n)
{
	static struct lex l;
	seen.lines++;
	if (strlen(line) > 8192)
		return NULL;
	if (!strpbrk(line, "'\"\\$")) {
		char w[16];
		command_word(line, w, sizeof w);
		if (!watched(w))
			return (char *)line;
	}
	seen.lexed++;
	if (lex(&l, line, "0") < 0 || !l.nwords)
		return (char *)line;    /* fails in the session too */
	const char *c = l.words[0];
	if (!fuzz_explore && same(c, "explore") &&
	    !(l.nwords > 1 && (same(l.words[1], "replay") || same(l.words[1], "save")))) {
		seen.explore++;
		return NULL;
	}
	if (same(c, "back") || same(c, "compare") || same(c, "source")) {
		bool cmp = same(c, "compare");
		size_t cost = (cmp ? 2 : 1) * s->nlog;
		if (replays >= FUZZ_REPLAYS || replayed + cost > FUZZ_REPLAY_RECS ||
		    (cmp && compares)) {
			seen.replays++;
			return NULL;
		}
		replays++;
		compares += cmp;
		replayed += cost;
	}
	if (same(c, "lessons") && l.nwords > 1 && lessons++) {
		seen.lessons++;
		return NULL;
	}
	int fa = file_arg(&l);
	if (fa < 0)
		return (char *)line;
	seen.rewritten++;
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

/* VFSIM_FUZZ_VERBOSE=1: what the harness did with the lines, at exit */
static void tell(void)
{
	fprintf(stderr, "fuzz_session: %ld lines, %ld lexed by the harness, skipped: "
		"%ld explore, %ld replays, %ld lessons; %ld file names rewritten\n",
		seen.lines, seen.lexed, seen.explore, seen.replays, seen.lessons,
		seen.rewritten);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	const char *fx = getenv("VFSIM_FUZZ_EXPLORE");
	fuzz_explore = fx && *fx && strcmp(fx, "0");
	const char *v = getenv("VFSIM_FUZZ_VERBOSE");
	verbose = v && *v && strcmp(v, "0");
	snprintf(tmpdir, sizeof tmpdir, "%s/vfsim-fuzz.XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("vfsim fuzz: temporary directory");
		exit(1);
	}
	atexit(cleanup);
	if (verbose)
		atexit(tell);
	if (!freopen("/dev/null", "w", stdout))
		exit(1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[16384];
	if (size > 64 * 1024 || !size)
		return 0;
	/* the input read as a script is, by the one reader (cli/script.c):
	 * lines joined over a trailing backslash, a NUL byte or an overlong
	 * line reported as at the prompt, where the session goes on */
	FILE *in = fmemopen((void *)data, size, "r");
	if (!in)
		abort();
	empty_tmpdir();
	replays = replayed = compares = lessons = 0;
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
	struct script_reader r;
	script_reader_init(&r, in, "fuzz");
	int got;
	while (!s->quit && (got = script_reader_next(&r)) != 0) {
		if (got < 0) {
			script_reader_error(s, &r);
			if (r.err == SR_READ || r.err == SR_TOO_LONG)
				break;  /* (fmemopen: neither happens under 64 KiB) */
		} else {
			const char *line = filter(s, r.cmd.text, out, sizeof out);
			if (line == r.cmd.text) {
				script_reader_exec(s, &r);
			} else if (line) {
				/* rewritten: one line, its words where they were not */
				s->file = r.name;
				s->line = r.start;
				session_exec_line(s, line);
			}
		}
		s->errors = 0;          /* as at the prompt: the session goes on */
		s->failed = 0;
	}
	script_reader_free(&r);
	fclose(in);
	session_free(s);
	return 0;
}
