/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mdoc.c - the man page's command list in mdoc(7), from the command
 * table (`vfsim --commands-mdoc`, scripts/gen-man.sh).  A synopsis such as
 * "PATH [rdonly|wronly|rdwr]" becomes "Ar path Oo Cm rdonly | wronly |
 * rdwr Oc": UPPER words are arguments, lower-case words are literal.
 */
#include <ctype.h>
#include <string.h>
#include "cli.h"

/* One word of a synopsis, with its macro. */
static void mdoc_word(FILE *f, const char *w, size_t n)
{
	bool upper = false, lower = false;
	size_t letters = 0;
	for (size_t i = 0; i < n; i++) {
		upper |= isupper((unsigned char)w[i]) != 0;
		lower |= islower((unsigned char)w[i]) != 0;
		letters += isalpha((unsigned char)w[i]) != 0;
	}
	const char *eq = memchr(w, '=', n);
	if (eq && eq + 1 < w + n) {             /* uid=N: a literal, then an argument */
		fprintf(f, " Cm %.*s Ns", (int)(eq - w + 1), w);
		mdoc_word(f, eq + 1, n - (size_t)(eq - w + 1));
		return;
	}
	fputs(upper && !lower ? " Ar " : " Cm ", f);
	/* a word that looks like a macro name must not be read as one */
	if (n >= 2 && n <= 3 && isupper((unsigned char)w[0]) && islower((unsigned char)w[1]))
		fputs("\\&", f);
	for (size_t i = 0; i < n; i++) {
		char c = w[i];
		if (upper && !lower && letters > 1)    /* PATH -> path; N, N2 stay */
			c = (char)tolower((unsigned char)c);
		if (c == '\\')
			fputs("\\e", f);
		else if (c == '"')
			fputs("\\(dq", f);
		else
			fputc(c, f);
	}
}

void mdoc_args(FILE *f, const char *a)
{
	while (*a) {
		if (*a == ' ' || *a == '\t') {
			a++;
		} else if (*a == '[') {
			fputs(" Oo", f);
			a++;
		} else if (*a == ']') {
			fputs(" Oc", f);
			a++;
		} else if (*a == '|') {
			fputs(" |", f);
			a++;
		} else if (!strncmp(a, "...", 3)) {
			fputs(" No ...", f);
			a += 3;
		} else {
			size_t n = strcspn(a, " \t[]|");
			const char *dots = strstr(a, "...");
			if (dots && dots < a + n)
				n = (size_t)(dots - a);
			mdoc_word(f, a, n);
			a += n;
		}
	}
}

/* The one-line help as a sentence: a capital letter, unless it starts with
 * a name (getdents64:, openat:) that keeps its case; a full stop. */
void mdoc_sentence(FILE *f, const char *t)
{
	size_t first = strcspn(t, " ");
	bool name = strcspn(t, "_:0123456789") < first;
	if (*t == '.' || *t == '\'')
		fputs("\\&", f);
	for (const char *p = t; *p; p++) {
		if (*p == '\\')
			fputs("\\e", f);
		else if (p == t && !name)
			fputc(toupper((unsigned char)*p), f);
		else
			fputc(*p, f);
	}
	fputs(".\n", f);
}

/* "Things a thread does: THREAD: CALL [&] (traced...)" -> "Things a thread does" */
void mdoc_title(FILE *f, const char *title)
{
	size_t n = strcspn(title, ":(");
	while (n && title[n - 1] == ' ')
		n--;
	fprintf(f, ".Ss %.*s\n", (int)n, title);
}
