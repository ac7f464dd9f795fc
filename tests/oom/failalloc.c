/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * failalloc.c - a test build's allocator: linked into build/asan/vfsim-oom
 * with -Wl,--wrap for each function below, so that vfsim's own calls (cli/
 * and core/, not the C library's or readline's) come here.
 *
 *   VFSIM_FAIL_ALLOC=N      the Nth call (from 1) fails, once; the others
 *                           are the allocator's
 *   VFSIM_COUNT_ALLOC=1     at exit, "failalloc: N calls" on stderr
 *   VFSIM_FAIL_TRACE=1      the failing call's stack on stderr (to debug)
 *
 * tests/oom/oom.py drives it: for each N, one allocation fails and the
 * session must say one line and go on as if the command had not been typed.
 */
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t sz);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
FILE *__real_open_memstream(char **p, size_t *n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t sz);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
FILE *__wrap_open_memstream(char **p, size_t *n);

static long calls, fail_at = -1;

static void said(void)
{
	fprintf(stderr, "failalloc: %ld calls\n", calls);
}

/* Whether this call fails. */
static int fails(void)
{
	if (fail_at < 0) {
		const char *e = getenv("VFSIM_FAIL_ALLOC"), *c = getenv("VFSIM_COUNT_ALLOC");
		fail_at = e ? atol(e) : 0;
		if (c && *c == '1')
			atexit(said);
	}
	if (++calls != fail_at)
		return 0;
	const char *t = getenv("VFSIM_FAIL_TRACE");
	if (t && *t == '1') {
		void *pc[16];
		backtrace_symbols_fd(pc, backtrace(pc, 16), 2);
	}
	return 1;
}

void *__wrap_malloc(size_t n)
{
	return fails() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t sz)
{
	return fails() ? NULL : __real_calloc(n, sz);
}

void *__wrap_realloc(void *p, size_t n)
{
	return fails() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
	return fails() ? NULL : __real_strdup(s);
}

FILE *__wrap_open_memstream(char **p, size_t *n)
{
	return fails() ? NULL : __real_open_memstream(p, n);
}
