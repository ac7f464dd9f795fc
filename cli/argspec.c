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
#include <stdint.h>
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

/*
 * The compiled form: the synopsis parsed once (cmd_table_init) into a tree
 * that the walk above would follow, so that checking a line compares words
 * and sets bits, and never scans the synopsis' text again.  It answers only
 * "does SYN take WORDS"; what a refused line is told comes from
 * argspec_match, as before.
 */
enum { AN_ALTS, AN_SEQ, AN_GROUP, AN_CHOICE, AN_WORD };

struct an {
	uint8_t kind;
	bool rep;               /* GROUP, CHOICE: "..." */
	bool any;               /* CHOICE: a placeholder (takes any word) */
	int16_t kid, next;      /* the first child, the next sibling (-1) */
	const char *w;          /* WORD: a keyword, W[0..len) */
	uint16_t len;
};

/* Static, made once at start-up: nothing to free, nothing allocated (the
 * fuzzer counts an input's mallocs and frees) */
#define AS_NODES 8192
#define AS_SPECS 256
static struct an as_pool[AS_NODES];
static int as_used;

struct argspec {
	bool decide;            /* argspec_counts_decide: the counts say all */
	int n;
	struct an *node;        /* in as_pool */
};
static struct argspec as_specs[AS_SPECS];
static int as_nspecs;

struct comp {
	struct argspec *a;
	int cap;
	bool bad;
};

static int an_new(struct comp *c, int kind)
{
	if (c->a->n == c->cap) {
		c->bad = true;
		return 0;
	}
	struct an *x = &c->a->node[c->a->n];
	*x = (struct an){ .kind = (uint8_t)kind, .kid = -1, .next = -1 };
	return c->a->n++;
}

/* Append node K to PARENT's children (LAST: its last child, or -1). */
static void an_add(struct comp *c, int parent, int *last, int k)
{
	if (*last < 0)
		c->a->node[parent].kid = (int16_t)k;
	else
		c->a->node[*last].next = (int16_t)k;
	*last = k;
}

static int comp_alts(struct comp *c, const char *p, const char *end);

/* walk_seq's items, as nodes */
static int comp_seq(struct comp *c, const char *p, const char *end)
{
	int seq = an_new(c, AN_SEQ), last = -1;
	for (p = skip_blanks(p); p < end && !c->bad; p = skip_blanks(p)) {
		if (*p == '[') {
			const char *g = group_end(p);
			int k = an_new(c, AN_GROUP);
			c->a->node[k].rep = *g && !strncmp(g + 1, "...", 3);
			c->a->node[k].kid = (int16_t)comp_alts(c, p + 1, g);
			an_add(c, seq, &last, k);
			p = g + (*g == ']') + (c->a->node[k].rep ? 3 : 0);
			continue;
		}
		const char *q = p;
		while (q < end && *q != ' ' && *q != '[' && *q != ']')
			q++;
		if (q == p) {           /* a stray ']': the walk's error */
			c->bad = true;
			break;
		}
		int k = an_new(c, AN_CHOICE), wl = -1;
		bool rep;
		item_takes(p, q, NULL, &rep);
		c->a->node[k].rep = rep;
		for (const char *s = p; s < q && !c->bad;) {    /* item_takes' words */
			const char *bar = memchr(s, '|', (size_t)(q - s));
			const char *e = bar ? bar : q;
			size_t n = (size_t)(e - s);
			if (n >= 3 && !strncmp(e - 3, "...", 3))
				n -= 3;
			if (n && ((s[0] >= 'A' && s[0] <= 'Z') || memchr(s, '=', n))) {
				c->a->node[k].any = true;
			} else {
				int x = an_new(c, AN_WORD);
				c->a->node[x].w = s;
				c->a->node[x].len = (uint16_t)n;
				an_add(c, k, &wl, x);
			}
			s = bar ? bar + 1 : q;
		}
		an_add(c, seq, &last, k);
		p = q;
	}
	return seq;
}

static int comp_alts(struct comp *c, const char *p, const char *end)
{
	int alts = an_new(c, AN_ALTS), last = -1;
	for (;;) {
		const char *e = alt_end(p, end);
		an_add(c, alts, &last, comp_seq(c, p, e));
		if (e >= end || c->bad)
			return alts;
		p = e + 3;
	}
}

struct argspec *argspec_compile(const char *syn)
{
	/* nodes: at most one per character, and the first ALTS and SEQ */
	int cap = (int)strlen(syn) + 8;
	if (as_nspecs == AS_SPECS || cap > AS_NODES - as_used)
		return NULL;            /* (then the walk checks each line) */
	struct argspec *a = &as_specs[as_nspecs];
	*a = (struct argspec){ argspec_counts_decide(syn), 0, as_pool + as_used };
	struct comp c = { a, cap, false };
	comp_alts(&c, syn, syn + strlen(syn));
	if (c.bad)
		return NULL;
	as_used += a->n;
	as_nspecs++;
	return a;
}

static bool an_takes(const struct argspec *a, const struct an *x, const char *word)
{
	if (x->any)
		return true;
	size_t n = strlen(word);
	for (int k = x->kid; k >= 0; k = a->node[k].next)
		if (a->node[k].len == n && !memcmp(a->node[k].w, word, n))
			return true;
	return false;
}

static posset run_alts(const struct argspec *a, int alts, char *const *words, int nwords,
		       posset in);

/* walk_seq, on the nodes */
static posset run_seq(const struct argspec *a, int seq, char *const *words, int nwords,
		      posset cur)
{
	for (int k = a->node[seq].kid; k >= 0 && cur; k = a->node[k].next) {
		const struct an *x = &a->node[k];
		if (x->kind == AN_GROUP) {
			posset from = cur;
			do {
				posset got = run_alts(a, x->kid, words, nwords, from);
				from = x->rep ? got & ~cur : 0;
				cur |= got;
			} while (from);
			continue;
		}
		posset next = 0, from = cur;
		while (from) {
			posset got = 0;
			for (int i = 0; i < nwords; i++)
				if ((from & 1ULL << i) && i + 1 < AS_MAXPOS &&
				    an_takes(a, x, words[i]))
					got |= 1ULL << (i + 1);
			from = x->rep ? got & ~next : 0;
			next |= got;
		}
		cur = next;
	}
	return cur;
}

static posset run_alts(const struct argspec *a, int alts, char *const *words, int nwords,
		       posset in)
{
	posset out = 0;
	for (int k = a->node[alts].kid; k >= 0; k = a->node[k].next)
		out |= run_seq(a, k, words, nwords, in);
	return out;
}

bool argspec_accepts(const struct argspec *a, char *const *words, int nwords)
{
	if (a->decide)
		return true;
	if (nwords >= AS_MAXPOS)
		return false;
	return run_alts(a, 0, words, nwords, 1) & 1ULL << nwords;
}
