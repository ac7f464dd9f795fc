/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * syscalls.h - the system calls as data: one row per call (core/syscalls.c)
 * with its name, its argument schema, its entry (the first kernel step)
 * and its flags.  The shell, the driver, `compare`, `save` and the fuzzer
 * turn words into a call, a call into words and a call into strace text
 * through the row: adding a call is its row, its kernel function and its
 * test.
 */
#ifndef VFSIM_SYSCALLS_H
#define VFSIM_SYSCALLS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "vfs_errno.h"

struct vfs_world;
struct vx;

enum vfs_sys {
	SYS_NONE, SYS_OPEN, SYS_CLOSE, SYS_DUP, SYS_DUP2, SYS_CLONE, SYS_FORK,
	SYS_EXIT, SYS_PIDFD_OPEN, SYS_PIDFD_GETFD, SYS_GETDENTS, SYS_LSEEK,
	SYS_READ, SYS_WRITE, SYS_PREAD, SYS_PWRITE, SYS_MKDIR, SYS_CREAT,
	SYS_UNLINK, SYS_RMDIR, SYS_RENAME, SYS_READV, SYS_FSYNC,
	/* a system call the script defined (core/defined.c): one row whose
	 * entry runs the definition the call names (vfs_call.def) */
	SYS_DEFINED, SYS__COUNT
};
/* open flags in a[1] */
#define VO_RDONLY 0
#define VO_WRONLY 1
#define VO_RDWR   2
#define VO_ACCMODE 3
#define VO_DIRECTORY 0x10
#define VO_CLOEXEC   0x20
/* whence in a[2] */
enum { VSEEK_SET, VSEEK_CUR, VSEEK_END };

struct vfs_call {
	uint8_t sys;            /* enum vfs_sys */
	uint8_t def;            /* SYS_DEFINED: its index in the world's kfns */
	int32_t seq;            /* submission order, for the fifo scheduler */
	int64_t a[3];           /* numbers: fd, count, offset, whence, flags, pid */
	/* paths, text, the child's name for fork: handles of strings in the
	 * world's string table (vfs_call_set_str, vfs_call_str); 0 = "" */
	uint32_t s[2];
};
/* Set string I of C (interned in W's string table).  0, or -ENAMETOOLONG
 * (VFS_CALL_STR_MAX or longer: paths past PATH_MAX are the kernel path's
 * to refuse), or -ENOMEM. */
int vfs_call_set_str(struct vfs_world *w, struct vfs_call *c, int i,
		     const char *str);
const char *vfs_call_str(const struct vfs_world *w, const struct vfs_call *c,
			 int i);

/* What an argument is: how its word is read and how it is shown. */
enum vfs_argkind {
	VA_FD,          /* a descriptor number -> a[slot] */
	VA_COUNT,       /* bytes or entries; optional: -1 = left out */
	VA_OFFSET,      /* a file offset (a negative one is the kernel's) */
	VA_WHENCE,      /* set, cur, end, or a number for the kernel to refuse */
	VA_OFLAGS,      /* open's flag words, any of them, in any order */
	VA_PATH,        /* an absolute path -> s[slot] */
	VA_TEXT,        /* bytes to write -> s[slot] */
	VA_PROC,        /* a process, by name or pid -> a[slot] = the pid */
	VA_NEWPROC,     /* the name of the process the call makes -> s[slot] */
};

struct vfs_sysarg {
	const char *name;       /* the placeholder: "FD", "OLD", "N" */
	uint8_t kind;           /* enum vfs_argkind */
	uint8_t slot;           /* index in a[] (numbers) or s[] (strings) */
	uint8_t optional;       /* may be left out (then a[slot] = dflt) */
	int64_t dflt;
};

/* What a call may do: the explorers and views read these, not names. */
enum {
	VSYS_TREE    = 1 << 0,  /* may change the tree: names, inodes, data */
	VSYS_SPAWNS  = 1 << 1,  /* makes a thread or a process */
	VSYS_NAMEI   = 1 << 2,  /* walks a path */
	VSYS_READS   = 1 << 3,  /* hands out file data (kept for `expect read`) */
	VSYS_DIRENTS = 1 << 4,  /* hands out directory entries */
	VSYS_FPOS    = 1 << 5,  /* goes through fdget_pos (f_pos and its lock) */
	VSYS_FDS     = 1 << 6,  /* installs or drops descriptors */
	VSYS_SCRIPT  = 1 << 7,  /* the script's own: no command of the table */
};

#define VFS_SYS_MAXARGS 3

struct vfs_sysdesc {
	const char *name;       /* the command word: "getdents" */
	const char *kname;      /* the kernel's syscall name: "getdents64" */
	uint8_t fn;             /* VFN_ of the syscall frame */
	unsigned flags;         /* VSYS_* */
	int64_t oflags;         /* a[1] of a call that opens with fixed flags:
				 * creat is open(O_WRONLY|O_CREAT|O_TRUNC) */
	uint8_t nargs;
	struct vfs_sysarg args[VFS_SYS_MAXARGS];
	const char *help;       /* one line, for `help` and the man page */
	const char *long_help;  /* or NULL */
	/* The first kernel step: sets the thread going (go, call_sub) or
	 * returns at once (sys_return).  core/internal.h's struct vx. */
	void (*entry)(struct vx *x);
};
extern const struct vfs_sysdesc vfs_sys[SYS__COUNT];

/* The call whose command word is NAME, or SYS_NONE. */
int vfs_sys_lookup(const char *name);
/* "FD OFFSET [set|cur|end]", from the schema. */
void vfs_sys_synopsis(int sys, char *buf, size_t n);
/* How many words the call takes (max: -1 = no limit). */
void vfs_sys_nwords(int sys, int *min, int *max);

/* vfs_call_parse's answers besides 0: errno values, with words in ERR */
enum { VCP_BAD = -VE_INVAL, VCP_NOPROC = -VE_SRCH };
/*
 * The words after the call's name (ARGV[0..ARGC)) -> *C (zeroed first;
 * strings interned in W).  0; VCP_BAD with the message in ERR
 * ("lseek: whence is set, cur or end, not 'x'"); VCP_NOPROC when a
 * process word names no process (ERR holds the word, for the caller's
 * did-you-mean); -VE_NOMEM when a string could not be kept (ERR says it
 * too).
 */
int vfs_call_parse(struct vfs_world *w, int sys, int argc, char *const *argv,
		   struct vfs_call *c, char *err, size_t nerr);
/* C as the words that parse back to it: "open /d rdonly directory". */
void vfs_call_print(FILE *f, const struct vfs_world *w, const struct vfs_call *c);
/* C as strace shows it: "openat(\"/d\", O_RDONLY|O_DIRECTORY)". */
void vfs_call_strace(const struct vfs_world *w, const struct vfs_call *c,
		     char *buf, size_t n);
/* A word as a script's lexer reads it back: quoted when it must be. */
void vfs_print_word(FILE *f, const char *word);

#endif
