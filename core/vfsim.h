/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfsim.h - the simulated kernel's public interface.
 *
 * The world is one plain value (struct vfs_world): processes, threads, fd
 * tables, open files, inodes, locks, each thread's place inside its kernel
 * path and the detectors' state.  Nothing lives on a C stack across a step,
 * so a world can be copied with vfs_world_copy() and replayed.
 *
 * A system call is a kernel path: a sequence of atomic steps, each named
 * after the kernel function it models.  vfs_step() runs one step of one
 * thread and reports what happened as trace events to a sink.
 *
 * This header only gathers the public headers, one per subject; include
 * the one you use:
 *   vfs_limits.h   every fixed size, and the limits a detector can reach
 *   vfs_errno.h    the kernel's errno numbers and names
 *   vfs_lock.h     lock kinds, classes, modes, lock ids, struct vfs_lock
 *   vfs_kernel.h   presets and knobs, overridden decisions, filesystem
 *                  types, lock-order rules (the kernel a world runs)
 *   syscalls.h     the system calls as data: rows, parse, print, strace
 *   vfs_trace.h    trace events, sinks, the names views print, footprints
 *   vfs_detect.h   the detectors' state, reports, deadlocks, lock order
 *   vfs_file.h     open files and fd tables, read through accessors
 *   vfs_inode.h    inodes, dentries, mounts, read through accessors
 *   vfs_thread.h   processes, threads and their calls, read through accessors
 *   vfs_world.h    the world (its layout is core's: world_layout.h);
 *                  set-up, lookups, running
 *   explore.h      the explorers (not included here)
 */
#ifndef VFSIM_H
#define VFSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fns.h"
#include "vfs_limits.h"
#include "vfs_errno.h"
#include "vfs_lock.h"
#include "vfs_kernel.h"
#include "syscalls.h"
#include "vfs_trace.h"
#include "vfs_detect.h"
#include "vfs_file.h"
#include "vfs_inode.h"
#include "vfs_thread.h"
#include "vfs_world.h"

#endif
