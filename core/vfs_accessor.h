/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * vfs_accessor.h - how the public headers declare one accessor per field
 * of a world's object (a file slot, an inode, a process, a thread).  Each
 * header lists its object's accessors once, X(TYPE, NAME, FIELD), in a
 * macro (VFS_FILE_FIELDS, VFS_INODE_FIELDS, ...); the header declares them
 * from the list with VFS_ACCESSOR_DECL, and the core/ file that owns the
 * object defines them from the same list (TYPE NAME(w, i): the field FIELD
 * of the object at index i), so a declaration and its definition cannot
 * part.  FIELD is only a name here: the layout stays in core/world_layout.h.
 */
#ifndef VFSIM_VFS_ACCESSOR_H
#define VFSIM_VFS_ACCESSOR_H

struct vfs_world;

#define VFS_ACCESSOR_DECL(type, name, field) type name(const struct vfs_world *w, int i);

#endif
