/* SPDX-License-Identifier: GPL-2.0-or-later */
/* commands.h - what the command files share: the handler's signature,
 * the declarations of the handlers c_NAME and long helps c_NAME_help
 * that cli/commands.tbl's rows name (build/gen/commands.inc, made from
 * it; each defined in its cmd_*.c file), and the helpers one command's
 * file gives another. */
#ifndef VFSIM_COMMANDS_H
#define VFSIM_COMMANDS_H
#include "cli.h"

#define HANDLER(n) int n(struct session *s, const struct cmd_call *c)
#include "commands.inc"
/* cmd_fs.c: a defined type as the `fs define` line that makes it again */
void fs_define_text(const struct vfs_fstype *ft, char *buf, size_t n);
/* cmd_rule.c: a rule as the line that declares it again */
void rule_text_line(const struct vfs_rule *r, char *buf, size_t n);
/* cmd_override.c: an overridden decision as the line that makes it again */
void override_text(int dec, const struct vfs_expr *e, char *buf, size_t n);
/* cmd_thread.c: (c_syscall: a system call's command, mkdir's as a
 * thread's call too) queue CALL on C's thread and, without &, run it until it returns or blocks */
int thread_run_call(struct session *s, const struct cmd_call *c,
		    struct vfs_call *call);
const char *call_kname(const struct vfs_world *w, const struct vfs_call *c);
/* cmd_define.c: `define`'s body lines, and a call of a defined syscall */
bool define_open(const struct session *s);
int define_line(struct session *s, struct lex *l, const char *line);
int define_call_line(struct session *s, struct lex *l);
void define_forget(struct session *s);
/* make the definitions of the world FROM again, as their lines (reset) */
void define_again(struct session *s, const struct vfs_world *from);
/* cmd_hook.c: what is at hook point H, as `hook` takes it after the point
 * ("" none); HOOK_TEXT_MAX holds the longest ("before F after G", names
 * whole). */
#define HOOK_TEXT_MAX (2 * VFS_KFN_NAME_MAX + sizeof "before  after ")
void hook_text(const struct vfs_world *w, int h, char *buf, size_t n);
/* cmd_detect.c */
void detect_print_stuck(struct session *s);
#endif
