/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rows.h - one way to find the row of a designated table by the word a
 * script names it by (`hook vfs_llseek`, `override iterate_dir`,
 * `reports deaddir`): each such table keeps the word in a `const char *`
 * member of its rows, and ROW_LOOKUP gives the row's index, or -1.
 */
#ifndef VFSIM_ROWS_H
#define VFSIM_ROWS_H

#include <stddef.h>
#include <string.h>

/* The index of the row of ROWS (COUNT rows of SIZE bytes) whose name, the
 * string at offset OFF of the row, is NAME; -1: none. */
static inline int row_lookup(const void *rows, int count, size_t size,
			     size_t off, const char *name)
{
	for (int i = 0; i < count; i++) {
		const char *const *n = (const void *)((const char *)rows +
						      size * (size_t)i + off);
		if (*n && !strcmp(*n, name))
			return i;
	}
	return -1;
}

/* ROW_LOOKUP(vfs_hooks, VHOOK__COUNT, point, "lookup"): the row of the
 * table ROWS whose MEMBER is NAME */
#define ROW_LOOKUP(rows, count, member, name)                               \
	row_lookup((rows), (count), sizeof (rows)[0],                        \
		   (size_t)((const char *)&(rows)[0].member -                 \
			    (const char *)&(rows)[0]), (name))

#endif
