/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * presets.c - kernel versions as rows of knobs (core/presets.tbl).
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
 * vfs_knobs[] (a row per knob: its word, its values, its field of struct
 * vfs_knobs, the values that make a kernel that never was, its help) and
 * vfs_presets[] (a row per kernel: every knob's value, and the release
 * whose code the preset follows where no knob decides), made from
 * core/presets.tbl by scripts/presets.awk.
 */
#include "presets.inc"

const int vfs_npresets = (int)(sizeof vfs_presets / sizeof vfs_presets[0]);
const int vfs_nknobs = (int)(sizeof vfs_knobs / sizeof vfs_knobs[0]);

/* A knob's values are its enum's, in order: the table's words, counted. */
#define NVALUES(field) (sizeof field##_values / sizeof field##_values[0] - 1)
_Static_assert(NVALUES(fpos_lock) == FPOS_COUNT_OR_ITERATE + 1, "fpos-lock's values");
_Static_assert(NVALUES(iterate) == ITER_SHARED + 1, "iterate's values");
_Static_assert(NVALUES(wrapper) == WRAP_NAIVE_UPGRADE + 1, "wrapper's values");
_Static_assert(NVALUES(rename_lock) == RENLOCK_NO_MUTEX + 1, "rename-lock's values");
_Static_assert(NVALUES(exec_lock) == EXECLOCK__COUNT, "exec-lock's values");

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
