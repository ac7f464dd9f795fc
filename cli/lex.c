/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lex.c - split a command line into words: blanks separate, '...' and
 * "..." quote ($ret expands inside "..." but not inside '...'), # starts a comment outside quotes, $ret expands, a first
 * word "NAME:" names the thread, a last word "&" puts the call in the
 * background.
 */
#include <stdio.h>
#include <string.h>
#include "lex.h"

int lex_continues(const char *line)
{
	size_t n = strlen(line);
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	char q = 0;
	for (size_t i = 0; i < n; i++) {
		if (q) {
			if (line[i] == q)
				q = 0;
		} else if (line[i] == '\'' || line[i] == '"') {
			q = line[i];
		} else if (line[i] == '#') {
			return 0;
		}
	}
	return !q && n && line[n - 1] == '\\';
}

/* "$ret" here, and not the start of a longer name such as $retry (the
 * '$' first: this runs at every character of every line, and under the
 * fuzzer each strncmp is also recorded) */
static int is_ret(const char *p)
{
	return *p == '$' && !strncmp(p, "$ret", 4) &&
	       !(p[4] == '_' || (p[4] >= 'a' && p[4] <= 'z') ||
		 (p[4] >= 'A' && p[4] <= 'Z') || (p[4] >= '0' && p[4] <= '9'));
}

static int fail(struct lex *l, int col, const char *msg)
{
	snprintf(l->err, sizeof l->err, "%s", msg);
	l->errcol = col;
	return -1;
}

/* The limits, named: the words (with $ret expanded) fill the buffer. */
static int fail_long(struct lex *l, int col)
{
	fail(l, col, "");
	snprintf(l->err, sizeof l->err, "line too long (more than %d bytes)", LEX_MAX_LINE);
	return -1;
}

/* $ret: the last completed call's result, copied into the word at *o. */
static int expand_ret(struct lex *l, size_t *o, const char *ret, int col)
{
	if (!ret)
		return fail(l, col, "$ret: no system call has completed yet");
	size_t n = strlen(ret);
	if (*o + n + 2 >= sizeof l->buf)
		return fail_long(l, col);
	memcpy(l->buf + *o, ret, n);
	*o += n;
	return 0;
}

int lex(struct lex *l, const char *line, const char *ret)
{
	size_t o = 0;
	const char *p = line;
	memset(l, 0, offsetof(struct lex, buf));
	l->err[0] = 0;
	while (*p) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			break;
		if (l->nwords >= LEX_MAX_WORDS) {
			fail(l, (int)(p - line) + 1, "");
			snprintf(l->err, sizeof l->err, "too many words (at most %d)",
				 LEX_MAX_WORDS);
			return -1;
		}
		l->words[l->nwords] = l->buf + o;
		l->cols[l->nwords] = (int)(p - line) + 1;
		while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
			if (o + 64 >= sizeof l->buf)
				return fail_long(l, (int)(p - line) + 1);
			if (*p == '\'' || *p == '"') {
				char q = *p;
				const char *start = p++;
				l->quoted[l->nwords] = 1;
				while (*p && *p != q) {
					if (o + 2 >= sizeof l->buf)
						return fail_long(l, (int)(p - line) + 1);
					if (q == '"' && is_ret(p)) {    /* as sh: "..." expands */
						if (expand_ret(l, &o, ret, (int)(p - line) + 1) < 0)
							return -1;
						p += 4;
						continue;
					}
					l->buf[o++] = *p++;
				}
				if (!*p)
					return fail(l, (int)(start - line) + 1,
						    "unterminated quote");
				p++;
			} else if (is_ret(p)) {
				if (expand_ret(l, &o, ret, (int)(p - line) + 1) < 0)
					return -1;
				p += 4;
			} else if (*p == '\\' && (p[1] == 0 || p[1] == '\n')) {
				p++;    /* a continuation backslash left over */
			} else {
				l->buf[o++] = *p++;
			}
		}
		l->buf[o++] = 0;
		l->nwords++;
	}
	if (l->nwords && !l->quoted[0]) {
		size_t n = strlen(l->words[0]);
		if (n > 1 && l->words[0][n - 1] == ':') {
			if (n - 1 >= sizeof l->thread)
				return fail(l, l->cols[0], "thread name too long");
			memcpy(l->thread, l->words[0], n - 1);
			l->thread[n - 1] = 0;
			memmove(&l->words[0], &l->words[1], sizeof l->words[0] * (size_t)(l->nwords - 1));
			memmove(&l->cols[0], &l->cols[1], sizeof l->cols[0] * (size_t)(l->nwords - 1));
			memmove(&l->quoted[0], &l->quoted[1], sizeof l->quoted[0] * (size_t)(l->nwords - 1));
			l->nwords--;
			if (!l->nwords)
				return fail(l, 1, "nothing for the thread to do");
		}
	}
	if (l->nwords && !l->quoted[l->nwords - 1] &&
	    !strcmp(l->words[l->nwords - 1], "&")) {
		l->background = 1;
		l->nwords--;
	} else if (l->nwords && !l->quoted[l->nwords - 1]) {
		char *last = l->words[l->nwords - 1];
		size_t n = strlen(last);
		if (n > 1 && last[n - 1] == '&') {
			last[n - 1] = 0;
			l->background = 1;
		}
	}
	if (l->background && !l->thread[0])
		return fail(l, 1, "'&' starts a call in the background: it needs a thread (THREAD: CALL &)");
	return 0;
}
