/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * argspec.c - a command's argument schema is its synopsis, read by one
 * parser: `help` prints it, argument checking takes the counts it allows
 * (cmd_table_init) and the words it takes (argspec_match), completion asks
 * it what may come next (complete.c).
 *
 *   SYN   := ALTS
 *   ALTS  := SEQ { " | " SEQ }         alternatives
 *   SEQ   := { ITEM }
 *   ITEM  := "[" ALTS "]" ["..."]      optional, "..." any number of times
 *          | WORD { "|" WORD } ["..."] one word of a choice, "..." repeats
 *
 * A WORD in lower case is itself (a keyword: "until", "rdonly"); in upper
 * case (or NAME=VALUE) it stands for a word of a kind (THREAD, PATH, N).
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"

#define AS_MAXPOS 64            /* positions followed: the words of a line */

typedef unsigned long long posset;      /* bit p: the words before p matched */

struct walk {
	const char *syn;
	char *const *words;     /* what was typed */
	int nwords;
	void (*offer)(void *ctx, const char *item, size_t len);
	void *ctx;
	const char *err;
	int far;                /* the most words an item took so far */
};

static const char *skip_blanks(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

/* The end of the bracket group that starts at p ('['). */
static const char *group_end(const char *p)
{
	int depth = 0;
	for (; *p; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']' && --depth == 0)
			return p;
	}
	return p;
}

/* Where the alternative that starts at p ends: a " | " at this depth, a
 * ']' closing the group, or the end. */
static const char *alt_end(const char *p, const char *end)
{
	for (; p < end; p++) {
		if (*p == '[')
			p = group_end(p);
		else if (p + 2 < end && p[0] == ' ' && p[1] == '|' && p[2] == ' ')
			return p;
	}
	return end;
}

/* Whether the choice item [p, q) ("on|off", "PATH...", "EXPR...|default")
 * takes WORD, and whether it repeats. */
static bool item_takes(const char *p, const char *q, const char *word, bool *rep)
{
	bool any = false;
	*rep = false;
	while (p < q) {
		const char *bar = memchr(p, '|', (size_t)(q - p));
		const char *e = bar ? bar : q;
		size_t n = (size_t)(e - p);
		if (n >= 3 && !strncmp(e - 3, "...", 3)) {
			*rep = true;
			n -= 3;
		}
		if (n && ((p[0] >= 'A' && p[0] <= 'Z') || memchr(p, '=', n)))
			any = true;     /* a placeholder takes any word */
		else if (word && strlen(word) == n && !strncmp(p, word, n))
			any = true;
		p = bar ? bar + 1 : q;
	}
	return any;
}

static posset walk_alts(struct walk *w, const char *p, const char *end, posset in);

/* The words [p, end) of one sequence, from the positions IN: where it may
 * end.  An item that may start at the word being completed is offered. */
static posset walk_seq(struct walk *w, const char *p, const char *end, posset in)
{
	posset cur = in;
	for (p = skip_blanks(p); p < end && cur; p = skip_blanks(p)) {
		if (*p == '[') {
			const char *g = group_end(p);
			bool rep = *g && !strncmp(g + 1, "...", 3);
			posset from = cur;
			do {            /* "[...]...": the group again, while it takes more */
				posset got = walk_alts(w, p + 1, g, from);
				from = rep ? got & ~cur : 0;
				cur |= got;
			} while (from);
			p = g + (*g == ']') + (rep ? 3 : 0);
			continue;
		}
		const char *q = p;
		while (q < end && *q != ' ' && *q != '[' && *q != ']')
			q++;
		if (q == p) {           /* a stray ']' */
			w->err = p;
			return 0;
		}
		bool rep;
		item_takes(p, q, NULL, &rep);
		posset next = 0, from = cur;
		while (from) {
			posset got = 0;
			for (int i = 0; i <= w->nwords; i++) {   /* (no bit past nwords) */
				if (!(from & 1ULL << i))
					continue;
				if (i == w->nwords && w->offer)
					w->offer(w->ctx, p, (size_t)(q - p));
				if (i < w->nwords && i + 1 < AS_MAXPOS &&
				    item_takes(p, q, w->words[i], &rep)) {
					got |= 1ULL << (i + 1);
					if (i + 1 > w->far)
						w->far = i + 1;
				}
			}
			from = rep ? got & ~next : 0;
			next |= got;
		}
		cur = next;
		p = q;
	}
	return cur;
}

static posset walk_alts(struct walk *w, const char *p, const char *end, posset in)
{
	posset out = 0;
	for (;;) {
		const char *e = alt_end(p, end);
		out |= walk_seq(w, p, e, in);
		if (e >= end)
			return out;
		p = e + 3;
	}
}

void argspec_next(const char *syn, char *const *words, int nwords,
		  void (*offer)(void *ctx, const char *item, size_t len), void *ctx)
{
	struct walk w = { syn, words, nwords < AS_MAXPOS ? nwords : AS_MAXPOS - 1,
			  offer, ctx, NULL, 0 };
	walk_alts(&w, syn, syn + strlen(syn), 1);
}

/* The fewest and most words [p, end) takes (max -1: no limit). */
static void counts(const char *p, const char *end, int *min, int *max)
{
	int amin = -1, amax = 0;
	for (;;) {
		const char *e = alt_end(p, end);
		int smin = 0, smax = 0;
		const char *s = skip_blanks(p);
		while (s < e) {
			int imin, imax;
			if (*s == '[') {
				const char *g = group_end(s);
				counts(s + 1, g, &imin, &imax);
				imin = 0;
				s = g + (*g == ']');
				if (!strncmp(s, "...", 3)) {    /* repeats */
					imax = imax ? -1 : 0;
					s += 3;
				}
			} else {
				const char *q = s;
				while (q < e && *q != ' ' && *q != '[')
					q++;
				bool rep;
				item_takes(s, q, NULL, &rep);
				imin = 1;
				imax = rep ? -1 : 1;
				s = q;
			}
			smin += imin;
			smax = smax < 0 || imax < 0 ? -1 : smax + imax;
			s = skip_blanks(s);
		}
		if (amin < 0 || smin < amin)
			amin = smin;
		amax = amax < 0 || smax < 0 ? -1 : smax > amax ? smax : amax;
		if (e >= end)
			break;
		p = e + 3;
	}
	*min = amin;
	*max = amax;
}

void argspec_counts(const char *syn, int *min, int *max)
{
	counts(syn, syn + strlen(syn), min, max);
}

/* How many of WORDS the sequences [p, end) take: -1 all of them (a whole
 * sequence), else the most words that some sequence took before one it
 * could not (or the words ran out). */
static int match_in(const char *p, const char *end, char *const *words, int nwords)
{
	if (nwords >= AS_MAXPOS)
		return AS_MAXPOS - 1;
	struct walk w = { p, words, nwords, NULL, NULL, NULL, 0 };
	posset at = walk_alts(&w, p, end, 1);
	return at & 1ULL << nwords ? -1 : w.far;
}

int argspec_match(const char *syn, char *const *words, int nwords,
		  char *alt, size_t altn)
{
	const char *end = syn + strlen(syn);
	int far = match_in(syn, end, words, nwords);
	if (far < 0)
		return -1;
	/* the alternative that went furthest: of the synopsis, or of the
	 * group that is all of it ("[list|PRESET]") */
	const char *p = skip_blanks(syn), *e = end;
	if (*p == '[' && group_end(p) == e - 1) {
		p++;
		e--;
	}
	int best = -1;
	for (;;) {
		const char *ae = alt_end(p, e);
		int f = match_in(p, ae, words, nwords);
		if (f > best) {
			best = f;
			snprintf(alt, altn, "%.*s", (int)(ae - p), p);
		}
		if (ae >= e)
			break;
		p = ae + 3;
	}
	return far;
}

const char *argspec_alt(const char *syn)
{
	const char *e = alt_end(syn, syn + strlen(syn));
	return *e ? e : NULL;
}

bool argspec_counts_decide(const char *syn)
{
	if (strstr(syn, " | "))
		return false;
	for (const char *p = syn; *p; ) {
		while (*p == ' ' || *p == '[' || *p == ']' || *p == '.')
			p++;
		const char *q = p;
		while (*q && *q != ' ' && *q != '[' && *q != ']')
			q++;
		if (q > p && !((p[0] >= 'A' && p[0] <= 'Z') || memchr(p, '=', (size_t)(q - p))))
			return false;   /* a keyword */
		if (q > p && memchr(p, '|', (size_t)(q - p)))
			return false;   /* a choice */
		p = q;
	}
	return true;
}
