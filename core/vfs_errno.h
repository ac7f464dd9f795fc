/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_errno.h - the kernel's errno numbers and their names, as a
 * system call's result shows them.
 */
#ifndef VFSIM_VFS_ERRNO_H
#define VFSIM_VFS_ERRNO_H

#include <stddef.h>
#include <stdint.h>

/* ---- errno (the kernel's numbers) ---------------------------------------- */
enum {
	VE_PERM = 1, VE_NOENT = 2, VE_SRCH = 3, VE_INTR = 4, VE_BADF = 9,
	VE_AGAIN = 11, VE_NFILE = 23,
	VE_NOMEM = 12, VE_BUSY = 16, VE_EXIST = 17, VE_XDEV = 18, VE_NOTDIR = 20,
	VE_SPIPE = 29,
	VE_ISDIR = 21, VE_INVAL = 22, VE_MFILE = 24, VE_FBIG = 27, VE_NOSPC = 28,
	VE_NAMETOOLONG = 36, VE_NOSYS = 38, VE_NOTEMPTY = 39,
	VE_OVERFLOW = 75, VE_OPNOTSUPP = 95,
};
const char *vfs_errno_name(int err);     /* "ENOENT"; NULL if unknown */
/* The errno a return value stands for, by name: RET in -MAX_ERRNO..-1
 * (the kernel's IS_ERR_VALUE), a known one; NULL for any other value (a
 * defined function may return INT64_MIN, which has no errno). */
const char *vfs_ret_errno(int64_t ret);
/* A return value as strace shows it: "3" or "-1 ENOENT". */
void vfs_ret_text(int64_t ret, char *buf, size_t n);
int vfs_errno_lookup(const char *name);  /* 0 if unknown */

#endif
