/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lex.h - words of one command line (vfsim(5), "Lines and words"). */
#ifndef VFSIM_LEX_H
#define VFSIM_LEX_H

#include <stddef.h>

#define LEX_MAX_WORDS 64
/* a line's words, NULs included: as long as a line may be (CLI_MAX_LINE),
 * so a PATH_MAX path or a 4 KiB text fits in one command */
#define LEX_MAX_LINE (64 * 1024)

struct lex {
	int nwords;
	char *words[LEX_MAX_WORDS];     /* point into buf */
	int cols[LEX_MAX_WORDS];        /* 1-based column of each word */
	int quoted[LEX_MAX_WORDS];
	char thread[64];                /* "A" of "A: ..." or "" */
	int background;                 /* a trailing & */
	char buf[LEX_MAX_LINE];
	char err[160];                  /* set when lex() fails */
	int errcol;
};

/* ret: the text $ret expands to. Returns 0, or -1 with l->err set. */
int lex(struct lex *l, const char *line, const char *ret);

/* A line ends in a backslash (outside quotes): continue with the next. */
int lex_continues(const char *line);

#endif
