/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * argspec_same.c - for tests/cli/argspec-compiled.sh: each synopsis read
 * from stdin (one a line), compiled (argspec_compile), must take exactly
 * the word lists the walk takes (argspec_match's -1): every list of up to
 * MAXLEN words drawn from its own words (keywords, "X" for a placeholder,
 * "zz" that nothing names).  Prints "N synopses, M lists" or each mismatch;
 * exit 1 on one.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"

#define MAXLEN 4
#define MAXW 10

static int nword;
static char word[MAXW][64];

/* SYN's distinct words: its keywords, X, zz */
static void words_of(const char *syn)
{
	nword = 0;
	strcpy(word[nword++], "X");
	strcpy(word[nword++], "zz");
	for (const char *p = syn; *p && nword < MAXW;) {
		while (*p && strchr(" []|.", *p))
			p++;
		size_t n = strcspn(p, " []|.");
		if (!n)
			break;
		if (!(p[0] >= 'A' && p[0] <= 'Z') && !memchr(p, '=', n) && n < 64) {
			char w[64];
			snprintf(w, sizeof w, "%.*s", (int)n, p);
			int k = 0;
			while (k < nword && strcmp(word[k], w))
				k++;
			if (k == nword)
				strcpy(word[nword++], w);
		}
		p += n;
	}
}

int main(void)
{
	char syn[512];
	long lists = 0;
	int nsyn = 0, bad = 0;
	while (fgets(syn, sizeof syn, stdin)) {
		syn[strcspn(syn, "\n")] = 0;
		struct argspec *a = argspec_compile(syn);
		if (!a) {
			printf("FAIL: '%s' did not compile\n", syn);
			bad = 1;
			continue;
		}
		nsyn++;
		words_of(syn);
		for (int len = 0; len <= MAXLEN; len++) {
			int idx[MAXLEN] = { 0 };
			for (;;) {
				char *v[MAXLEN];
				for (int i = 0; i < len; i++)
					v[i] = word[idx[i]];
				char alt[256];
				bool walk = argspec_match(syn, v, len, alt, sizeof alt) < 0;
				bool comp = argspec_accepts(a, v, len);
				int min, max;
				argspec_counts(syn, &min, &max);
				/* what cmd_check_words asks only of the words
				 * the counts allow, and a synopsis the counts
				 * decide takes them all */
				bool in = len >= min && (max < 0 || len <= max);
				if (argspec_counts_decide(syn))
					walk = true;
				if (in && comp != walk) {
					bad = 1;
					printf("FAIL: '%s' with", syn);
					for (int i = 0; i < len; i++)
						printf(" %s", v[i]);
					printf(": compiled %s, the walk %s\n",
					       comp ? "takes" : "refuses",
					       walk ? "takes" : "refuses");
				}
				lists++;
				int k = len - 1;
				while (k >= 0 && ++idx[k] == nword)
					idx[k--] = 0;
				if (k < 0)
					break;
			}
		}
	}
	printf("%d synopses, %ld lists\n", nsyn, lists);
	return bad || !nsyn;
}
