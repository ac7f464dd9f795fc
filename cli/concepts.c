/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * concepts.c - the ideas `help WORD` explains beside the commands (a lock,
 * a detector's report, a kernel function), and that `apropos WORD` and
 * Tab completion after `help` find.  Short: the lessons and
 * ../shared/kernel-reference.md say more.
 */
#include <string.h>
#include "cli.h"

const struct concept concepts[] = {
	{ "f_pos_lock", "f_pos fdget_pos file_needs_f_pos_lock",
	  "struct file's mutex that makes read, write, lseek and getdents on one\n"
	  "open file update f_pos one at a time (POSIX, since v3.14). fdget_pos\n"
	  "takes it only when file_needs_f_pos_lock says so: from v3.14 to v6.4 when\n"
	  "file_count(file) > 1, which a single-threaded owner never sees, so a\n"
	  "reference taken from outside (pidfd_getfd, v5.6) races with it. 2023:\n"
	  "20ea1e7d13c1 always, 797964253d35 count > 1 or a directory, v6.5\n"
	  "(7d84d1b9af63) count > 1 or ->iterate_shared. pread/pwrite never take it.\n"
	  "See: expect took/skipped, 'lessons 2', 'lessons 7'." },
	{ "i_rwsem", "inode_lock down_read down_write rwsem",
	  "The inode's read-write semaphore. getdents takes a directory's shared\n"
	  "(->iterate_shared, v4.7) or exclusive (->iterate); mkdir, creat, unlink,\n"
	  "rmdir and rename take the parent exclusive, unlink and rmdir the victim\n"
	  "too. A writer waiting queues later readers behind it. 'locks' shows who\n"
	  "holds it; in 'timeline' ║ is read, █ write." },
	{ "iterate_shared", "iterate iterate_dir wrapper wrap_directory_iterator",
	  "A filesystem's directory iterator. ->iterate runs under the directory's\n"
	  "i_rwsem exclusive; ->iterate_shared (v4.7) under it shared, so two\n"
	  "getdents on one open directory run together and only f_pos_lock keeps\n"
	  "them apart. v6.5 (3e3271549670) removed ->iterate: old filesystems are\n"
	  "wrapped, and the wrapper drops the shared lock and takes it exclusive\n"
	  "(re-checking for a dead directory). 'fs' lists each type's iterator." },
	{ "pidfd_getfd", "pidfd pidfd_open fget_task exec_update_lock",
	  "pidfd_getfd(pidfd, fd) (v5.6) copies another process's descriptor: a\n"
	  "real reference on its file (f_count + 1) installed here with O_CLOEXEC.\n"
	  "The owner's own lookups still take none, so the owner may have skipped\n"
	  "f_pos_lock a moment before: the race of 'lessons 7'. The permission\n"
	  "check and fget_task run under the owner's lock against exec\n"
	  "(exec_update_lock, read; a mutex before v5.11: 'set exec-lock')." },
	{ "f_count", "count reference fdget",
	  "A file's reference count. Descriptors, dup, fork and pidfd_getfd hold\n"
	  "references; a lookup in an fd table shared with another thread (clone)\n"
	  "takes one for the call, in an unshared table it takes none. 'files'\n"
	  "shows it; 'expect count FILE N' checks it." },
	{ "race", "races data-race vector-clock",
	  "The race detector: two accesses to one field (f_pos, a directory's\n"
	  "cursor or entries, a size, data), at least one a write, that no lock\n"
	  "orders (vector clocks over the locks each thread took). Printed with '!'\n"
	  "as it fires; 'reports race' in full; 'expect race [FIELD]', 'expect no\n"
	  "race [FIELD]'. After 'explore' they speak of every execution." },
	{ "duplicate", "skipped entries",
	  "An open directory that hands out one entry twice in one pass\n"
	  "(duplicate), or passes over one (skipped): what a lost f_pos update\n"
	  "looks like to a program. 'expect duplicate', 'expect no duplicate',\n"
	  "'expect no skipped'." },
	{ "deadlock", "deadlocks wait-for cycle",
	  "Every live thread blocked in a cycle of waits. 'run' and 'step' say so\n"
	  "when nothing can run, as lockdep's \"Possible unsafe locking scenario\";\n"
	  "'expect deadlock' / 'expect no deadlock'; 'explore' finds the schedules." },
	{ "lockorder", "lockdep lock-order rename_mutex",
	  "Locks taken in an order that could deadlock, even when no deadlock\n"
	  "happened: a cycle in the graph of lock classes (lockdep) or a rank of\n"
	  "directory-locking.rst broken (rename mutex, then directories, then\n"
	  "non-directories). 'lockdep', 'lockdep graph', 'expect no lockorder'.\n"
	  "An order of your own: 'rule lockorder A before B', 'rule rank LOCK N'\n"
	  "('help rule'), checked beside them; 'expect no rule'." },
	{ "deaddir", "rmdir S_DEAD dead",
	  "A directory removed by rmdir is marked dead (S_DEAD) under its lock;\n"
	  "a later getdents on it gets ENOENT. The v6.5 wrapper drops the lock and\n"
	  "must check again; without the re-check ('set wrapper no-recheck') it\n"
	  "iterates a dead directory. 'expect no deaddir'." },
	{ "preset", "kernel knob knobs",
	  "A kernel version's locking, as a row of knobs: 'kernel list' shows the\n"
	  "presets (v3.13 .. mainline), 'kernel PRESET' picks one, 'set' lists the\n"
	  "knobs and 'set KNOB VALUE' overrides one. 'compare PRESET PRESET' replays\n"
	  "the session under two of them." },
	{ "steps", "atomic schedule interleaving",
	  "An atomic step: one small piece of a kernel function, between two points\n"
	  "where another thread could run. 'step' runs one, 'run' until nothing can,\n"
	  "'back' undoes; 'trace on' prints each; 'explore' tries every order." },
};
const int nconcepts = (int)(sizeof concepts / sizeof concepts[0]);

const struct concept *concept_find(const char *word)
{
	size_t n = strlen(word);
	if (!n)
		return NULL;
	for (int i = 0; i < nconcepts; i++) {
		if (!strcmp(concepts[i].name, word))
			return &concepts[i];
		for (const char *p = concepts[i].also; (p = strstr(p, word)); p += n)
			if ((p == concepts[i].also || p[-1] == ' ') &&
			    (p[n] == ' ' || !p[n]))
				return &concepts[i];
	}
	return NULL;
}
