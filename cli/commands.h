/* SPDX-License-Identifier: GPL-2.0-or-later */
/* commands.h - the handlers the command table points at, and their long
 * help texts (`help NAME` after the usage line), each beside its handler. */
#ifndef VFSIM_COMMANDS_H
#define VFSIM_COMMANDS_H
#include "cli.h"

#define HANDLER(n) int n(struct session *s, const struct cmd_call *c)
/* cmd_world.c */
HANDLER(c_kernel); HANDLER(c_set); HANDLER(c_fs); HANDLER(c_mount);
HANDLER(c_mkdir); HANDLER(c_touch); HANDLER(c_ls); HANDLER(c_spawn);
HANDLER(c_reset); HANDLER(c_sched); HANDLER(c_kill);
extern const char c_kernel_help[], c_set_help[], c_mount_help[], c_mkdir_help[],
	c_spawn_help[], c_reset_help[], c_sched_help[], c_kill_help[];
/* cmd_fs.c: a defined type as the `fs define` line that makes it again */
void fs_define_text(const struct vfs_fstype *ft, char *buf, size_t n);
extern const char c_fs_help[];
/* cmd_override.c: an overridden decision as the line that makes it again */
HANDLER(c_override);
extern const char c_override_help[];
/* cmd_rule.c: a rule as the line that declares it again */
HANDLER(c_rule);
extern const char c_rule_help[];
void rule_text_line(const struct vfs_rule *r, char *buf, size_t n);
void override_text(int dec, const struct vfs_expr *e, char *buf, size_t n);
/* cmd_thread.c */
HANDLER(c_syscall);
/* queue CALL on C's thread and, without &, run it until it returns or blocks */
int thread_run_call(struct session *s, const struct cmd_call *c,
		    struct vfs_call *call);
const char *call_kname(const struct vfs_world *w, const struct vfs_call *c);
/* cmd_define.c: `define`, its body lines, and a call of a defined syscall */
HANDLER(c_define);
extern const char c_define_help[];
bool define_open(const struct session *s);
int define_line(struct session *s, struct lex *l, const char *line);
int define_call_line(struct session *s, struct lex *l);
void define_forget(struct session *s);
/* make the definitions of the world FROM again, as their lines (reset) */
void define_again(struct session *s, const struct vfs_world *from);
/* cmd_hook.c: `hook`, `field` */
HANDLER(c_field);
HANDLER(c_hook);
extern const char c_field_help[], c_hook_help[];
/* What is at hook point H, as `hook` takes it after the point ("" none);
 * HOOK_TEXT_MAX holds the longest ("before F after G", names whole). */
#define HOOK_TEXT_MAX (2 * VFS_KFN_NAME_MAX + sizeof "before  after ")
void hook_text(const struct vfs_world *w, int h, char *buf, size_t n);
/* cmd_run.c */
HANDLER(c_step); HANDLER(c_run); HANDLER(c_back);
extern const char c_step_help[];
/* cmd_look.c */
HANDLER(c_ps); HANDLER(c_fds); HANDLER(c_files); HANDLER(c_locks);
HANDLER(c_where); HANDLER(c_trace); HANDLER(c_stats); HANDLER(c_history);
extern const char c_trace_help[];
/* cmd_detect.c */
HANDLER(c_reports); HANDLER(c_lockdep);
extern const char c_reports_help[], c_lockdep_help[];
void detect_print_stuck(struct session *s);
/* cmd_check.c */
HANDLER(c_expect);
extern const char c_expect_help[];
/* cmd_script.c */
HANDLER(c_source); HANDLER(c_echo); HANDLER(c_save); HANDLER(c_help);
HANDLER(c_quit); HANDLER(c_apropos); HANDLER(c_clear);
extern const char c_help_help[];
/* explore_cli.c */
HANDLER(c_explore);
extern const char c_explore_help[];
/* cmd_compare.c */
HANDLER(c_compare);
extern const char c_compare_help[];
/* cmd_lessons.c */
HANDLER(c_lessons); HANDLER(c_pause);
extern const char c_lessons_help[];
/* cmd_picture.c, timeline.c */
HANDLER(c_export); HANDLER(c_timeline);
extern const char c_timeline_help[];
#endif
