/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_accessor.h - how the public headers declare one accessor per field
 * of a world's object (a file slot, an inode, a process, a thread, its
 * call).  The accessors are the rows of core/accessors.tbl, one list:
 * each one's name, field, type and what it gives, under its object.  The
 * build makes the table into an X-list per object (VFS_FILE_FIELDS,
 * VFS_INODE_FIELDS, ...: X(TYPE, NAME, ARRAY, FIELD) a row, in
 * build/gen/accessors.inc, by scripts/accessors.awk); the object's header
 * declares its accessors from its list with VFS_ACCESSOR_DECL, and the
 * core/ file that owns the object defines them from the same list
 * (VFS_ACCESSOR_DEF, core/internal.h: TYPE NAME(w, i) returns the field
 * FIELD of w->ARRAY[i]), so a declaration and its definition cannot part.
 * FIELD and ARRAY are only names here: the layout stays in
 * core/world_layout.h.
 */
#ifndef VFSIM_VFS_ACCESSOR_H
#define VFSIM_VFS_ACCESSOR_H

#include "accessors.inc"

struct vfs_world;

#define VFS_ACCESSOR_DECL(type, name, array, field) type name(const struct vfs_world *w, int i);

#endif
