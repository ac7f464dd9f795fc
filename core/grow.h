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

/* grow_array, but P itself (not NULL) when out of memory */
static inline void *grow_array_or_keep(void *p, size_t *cap, size_t need,
				       size_t size, size_t first)
{
	void *n = grow_array(p, cap, need, size, first);
	return n ? n : p;
}

/*
 * One more element at the end of the array P (N elements used, CAP its
 * room; P and CAP lvalues, grown as grow_array grows them from FIRST):
 * the address of element N, not yet set (N is the caller's to count);
 * NULL when out of memory, P and CAP as they were.  The one way a list
 * grows by an element: the explorers' work items and records.
 */
#define GROW_PUSH(p, n, cap, first)                                          \
	((p) = grow_array_or_keep((p), &(cap), (size_t)(n) + 1, sizeof *(p),  \
				  (first)),                                   \
	 (size_t)(n) < (cap) ? &(p)[n] : NULL)

#endif
