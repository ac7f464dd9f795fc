/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * presets.c - kernel versions as rows of knobs.
 *
 * Each preset is data: the paths in readdir.c, file.c and read_write.c
 * read these knobs and never test a version by name.  Knob values marked
 * "wrong" build a kernel that never existed, for teaching; the paths say
 * so in the trace when such a value changes what they do.
 */
#include <stddef.h>
#include <string.h>
#include "vfsim.h"

/*
 * One row per kernel: every knob named, and the release (era) whose code
 * the preset follows where no knob decides.
 */
const struct vfs_preset vfs_presets[] = {
	{ .name = "v3.13",
	  .summary = "no f_pos lock yet; ->iterate only, directory i_mutex exclusive",
	  .k = { .fpos_lock = FPOS_NONE, .iterate = ITER_EXCLUSIVE, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 0, .atomic_pos_dir = 0, .dir_lock = 0, .killable = 1,
		 .tmpfs_offsets = 0, .ntfs3 = 0, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_CRED_GUARD,
		 .era = VFS_ERA(3, 13) } },
	{ .name = "v4.6",
	  .summary = "f_pos lock for regular files with file_count > 1 (v3.14); ->iterate only",
	  .k = { .fpos_lock = FPOS_COUNT, .iterate = ITER_EXCLUSIVE, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 0, .atomic_pos_dir = 0, .dir_lock = 0, .killable = 0,
		 .tmpfs_offsets = 0, .ntfs3 = 0, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_CRED_GUARD,
		 .era = VFS_ERA(4, 6) } },
	{ .name = "v4.7",
	  .summary = "->iterate_shared beside ->iterate (6192269444eb); directories get FMODE_ATOMIC_POS",
	  .k = { .fpos_lock = FPOS_COUNT, .iterate = ITER_DUAL, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 0, .atomic_pos_dir = 1, .dir_lock = 1, .killable = 0,
		 .tmpfs_offsets = 0, .ntfs3 = 0, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_CRED_GUARD,
		 .era = VFS_ERA(4, 7) } },
	{ .name = "v5.6",
	  .summary = "pidfd_getfd arrives: the file_count > 1 test is now racy",
	  .k = { .fpos_lock = FPOS_COUNT, .iterate = ITER_DUAL, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 1, .atomic_pos_dir = 1, .dir_lock = 1, .killable = 1,
		 .tmpfs_offsets = 0, .ntfs3 = 0, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_CRED_GUARD,
		 .era = VFS_ERA(5, 6) } },
	{ .name = "v5.10",
	  .summary = "pidfd_getfd checks permission under exec_update_mutex (501f9328bf5c)",
	  .k = { .fpos_lock = FPOS_COUNT, .iterate = ITER_DUAL, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 1, .atomic_pos_dir = 1, .dir_lock = 1, .killable = 1,
		 .tmpfs_offsets = 0, .ntfs3 = 0, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_UPDATE_MUTEX,
		 .era = VFS_ERA(5, 10) } },
	{ .name = "v6.4",
	  .summary = "same locking as v5.6, the last release before the fixes",
	  .k = { .fpos_lock = FPOS_COUNT, .iterate = ITER_DUAL, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 1, .atomic_pos_dir = 1, .dir_lock = 1, .killable = 1,
		 .tmpfs_offsets = 0, .ntfs3 = 0, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_UPDATE_RWSEM,
		 .era = VFS_ERA(6, 4) } },
	{ .name = "20ea1e7d13c1",
	  .summary = "f_pos lock always taken for FMODE_ATOMIC_POS files",
	  .k = { .fpos_lock = FPOS_ALWAYS, .iterate = ITER_DUAL, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 1, .atomic_pos_dir = 1, .dir_lock = 1, .killable = 1,
		 .tmpfs_offsets = 0, .ntfs3 = 0, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_UPDATE_RWSEM,
		 .era = VFS_ERA(6, 5) } },
	{ .name = "797964253d35",
	  .summary = "f_pos lock when file_count > 1 or a directory; both iterate methods",
	  .k = { .fpos_lock = FPOS_COUNT_OR_DIR, .iterate = ITER_DUAL, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 1, .atomic_pos_dir = 1, .dir_lock = 1, .killable = 1,
		 .tmpfs_offsets = 0, .ntfs3 = 0, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_UPDATE_RWSEM,
		 .era = VFS_ERA(6, 5) } },
	{ .name = "3e3271549670",
	  .summary = "->iterate gone; unconverted filesystems wrapped by wrap_directory_iterator",
	  .k = { .fpos_lock = FPOS_COUNT_OR_DIR, .iterate = ITER_SHARED, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 1, .atomic_pos_dir = 1, .dir_lock = 1, .killable = 1,
		 .tmpfs_offsets = 0, .ntfs3 = 0, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_UPDATE_RWSEM,
		 .era = VFS_ERA(6, 5) } },
	{ .name = "v6.5",
	  .summary = "7d84d1b9af63: f_pos lock when file_count > 1 or the file has ->iterate_shared",
	  .k = { .fpos_lock = FPOS_COUNT_OR_ITERATE, .iterate = ITER_SHARED, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 1, .atomic_pos_dir = 1, .dir_lock = 1, .killable = 1,
		 .tmpfs_offsets = 0, .ntfs3 = 0, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_UPDATE_RWSEM,
		 .era = VFS_ERA(6, 5) } },
	{ .name = "mainline",
	  .summary = "v6.5 locking with today's filesystems (ntfs3, tmpfs stable offsets)",
	  .k = { .fpos_lock = FPOS_COUNT_OR_ITERATE, .iterate = ITER_SHARED, .wrapper = WRAP_CORRECT,
		 .pidfd_getfd = 1, .atomic_pos_dir = 1, .dir_lock = 1, .killable = 1,
		 .tmpfs_offsets = 1, .ntfs3 = 1, .rename_lock = RENLOCK_CORRECT,
		 .exec_lock = EXECLOCK_UPDATE_RWSEM,
		 .era = VFS_ERA_MAINLINE } },
};
const int vfs_npresets = (int)(sizeof vfs_presets / sizeof vfs_presets[0]);

static const char *const fpos_values[] = { "none", "count", "always",
	"count-or-dir", "count-or-iterate", NULL };
static const char *const iterate_values[] = { "exclusive", "dual", "shared", NULL };
static const char *const wrapper_values[] = { "correct", "no-recheck",
	"naive-upgrade", NULL };
static const char *const onoff_values[] = { "off", "on", NULL };
static const char *const dirlock_values[] = { "i_mutex", "i_rwsem", NULL };
static const char *const renlock_values[] = { "correct", "no-mutex", NULL };
static const char *const execlock_values[] = { "cred_guard_mutex",
	"exec_update_mutex", "exec_update_lock", NULL };

/*
 * kernel/pid.c __pidfd_fget: the target's lock against a concurrent exec,
 * held around ptrace_may_access and fget_task and released before
 * receive_fd installs the file.  Only one kernel path here takes it, and
 * only for reading or as a mutex; exec (the writer) is not modelled.
 */
const struct vfs_exec_lock_desc vfs_exec_locks[EXECLOCK__COUNT] = {
	[EXECLOCK_CRED_GUARD] = { "cred_guard_mutex", LC_CRED_GUARD_MUTEX,
		LK_MUTEX, M_EXCL, VFN_mutex_lock_killable, VFN_mutex_unlock,
		"v5.6 (8649c322f75c: pidfd_getfd arrives)" },
	[EXECLOCK_UPDATE_MUTEX] = { "exec_update_mutex", LC_EXEC_UPDATE_MUTEX,
		LK_MUTEX, M_EXCL, VFN_mutex_lock_killable, VFN_mutex_unlock,
		"v5.7 (501f9328bf5c)" },
	[EXECLOCK_UPDATE_RWSEM] = { "exec_update_lock", LC_EXEC_UPDATE_LOCK,
		LK_RWSEM, M_READ, VFN_down_read_killable, VFN_up_read,
		"v5.11 (f7cfd871ae0c: a rw_semaphore)" },
};

/* One designated row per knob: its word, its values, its field of struct
 * vfs_knobs, the values that make a kernel that never was (marked in the
 * trace), and its line of `kernel knobs`. */
#define OFF(f) offsetof(struct vfs_knobs, f)
const struct vfs_knob_desc vfs_knobs[] = {
	{ .name = "fpos-lock", .values = fpos_values, .offset = OFF(fpos_lock),
	  .help = "when fdget_pos takes f_pos_lock (file_needs_f_pos_lock)" },
	{ .name = "iterate", .values = iterate_values, .offset = OFF(iterate),
	  .help = "which directory iterators exist: ->iterate, both, or ->iterate_shared only" },
	{ .name = "wrapper", .values = wrapper_values, .offset = OFF(wrapper),
	  .wrong_mask = (1u << WRAP_NO_RECHECK) | (1u << WRAP_NAIVE_UPGRADE),
	  .help = "how wrap_directory_iterator gets the write lock (no-recheck and naive-upgrade are wrong on purpose)" },
	{ .name = "pidfd-getfd", .values = onoff_values, .offset = OFF(pidfd_getfd),
	  .help = "whether pidfd_open and pidfd_getfd exist (else ENOSYS)" },
	{ .name = "atomic-pos-dir", .values = onoff_values, .offset = OFF(atomic_pos_dir),
	  .help = "whether do_dentry_open sets FMODE_ATOMIC_POS on directories (v4.7)" },
	{ .name = "dir-lock", .values = dirlock_values, .offset = OFF(dir_lock),
	  .help = "the directory inode lock: i_mutex (before v4.7) or i_rwsem" },
	{ .name = "killable", .values = onoff_values, .offset = OFF(killable),
	  .help = "whether iterate_dir waits killably for the directory lock" },
	{ .name = "tmpfs-offsets", .values = onoff_values, .offset = OFF(tmpfs_offsets),
	  .help = "tmpfs directories use stable offsets (offset_readdir, v6.6)" },
	{ .name = "ntfs3", .values = onoff_values, .offset = OFF(ntfs3),
	  .help = "\"ntfs\" is ntfs3 with native ->iterate_shared (classic ntfs left in v6.9)" },
	{ .name = "rename-lock", .values = renlock_values, .offset = OFF(rename_lock),
	  .wrong_mask = 1u << RENLOCK_NO_MUTEX,
	  .help = "cross-directory rename: lock_rename under s_vfs_rename_mutex, or no-mutex (wrong on purpose: two plain inode_lock()s in argument order)" },
	{ .name = "exec-lock", .values = execlock_values, .offset = OFF(exec_lock),
	  .help = "the target's lock pidfd_getfd holds around ptrace_may_access and fget_task: cred_guard_mutex (v5.6), exec_update_mutex (v5.7), exec_update_lock (v5.11, read)" },
};
const int vfs_nknobs = (int)(sizeof vfs_knobs / sizeof vfs_knobs[0]);

const struct vfs_preset *vfs_preset_lookup(const char *name)
{
	for (int i = 0; i < vfs_npresets; i++)
		if (!strcmp(vfs_presets[i].name, name))
			return &vfs_presets[i];
	return NULL;
}

const struct vfs_knob_desc *vfs_knob_lookup(const char *name)
{
	for (int i = 0; i < vfs_nknobs; i++)
		if (!strcmp(vfs_knobs[i].name, name))
			return &vfs_knobs[i];
	return NULL;
}

int vfs_knob_get(const struct vfs_knobs *k, const struct vfs_knob_desc *d)
{
	return ((const uint8_t *)k)[d->offset];
}

int vfs_knob_set(struct vfs_knobs *k, const struct vfs_knob_desc *d,
		 const char *value)
{
	for (int i = 0; d->values[i]; i++)
		if (!strcmp(d->values[i], value)) {
			((uint8_t *)k)[d->offset] = (uint8_t)i;
			return 0;
		}
	return -1;
}
