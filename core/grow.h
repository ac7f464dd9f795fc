/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * grow.h - one way to grow a heap array that only ever grows: its
 * capacity starts at a first size and doubles until it holds what is
 * needed.  Inline: the explorers grow their tables in their inner loops.
 */
#ifndef VFSIM_GROW_H
#define VFSIM_GROW_H

#include <stddef.h>
#include <stdlib.h>

/*
 * P (an array of *CAP elements of SIZE bytes, or NULL) made to hold NEED
 * elements: P itself when it does already, else the reallocated block,
 * *CAP its new capacity (FIRST, doubled as often as needed).  NULL when
 * out of memory: P and *CAP are left as they were.
 */
static inline void *grow_array(void *p, size_t *cap, size_t need, size_t size,
			       size_t first)
{
	if (p && need <= *cap)
		return p;
	size_t c = *cap ? *cap : first;
	while (c < need)
		c *= 2;
	void *n = realloc(p, c * size);
	if (n)
		*cap = c;
	return n;
}

#endif
