/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - the shell's session and its command table.
 *
 * One table (cmd.c) names every command: dispatch, `help`, completion,
 * argument checking and the man page's list all read it.  A session owns
 * one simulated world and the log that replays it (`back`, `save`).
 */
#ifndef VFSIM_CLI_H
#define VFSIM_CLI_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>
#include "lex.h"
#include "vfs_world.h"

struct define_state;
enum rec_kind { REC_SETUP, REC_SUBMIT, REC_STEP };
struct rec {
	uint8_t kind;
	uint8_t picked;         /* REC_STEP: the scheduler chose the thread */
	uint8_t fg;             /* a foreground call, or a step it took itself (compare) */
	int16_t tid;
	char *text;             /* REC_SETUP: the command line, canonical */
	struct vfs_call call;   /* REC_SUBMIT */
	char *str[2];           /* REC_SUBMIT: its strings (the handles are the
				 * world's, and `back` starts a new world) */
};

/* the live trace: off, lines, JSON lines, lines with the step's column */
enum { TRACE_OFF, TRACE_TEXT, TRACE_JSONL, TRACE_STEPS };

struct cmd_entry;
struct cmd_call;

struct session {
	struct vfs_world *w;
	/* options */
	int quiet, color, interactive;
	int silent;             /* --check: print nothing but the verdicts */
	int trace;              /* live trace: TRACE_* */
	/* the log that rebuilds the world */
	struct rec *log;
	size_t nlog, caplog;
	/* every event since the world began (for trace show, views, exports) */
	struct vfs_event *ev;
	size_t nev, capev;
	size_t ev_dropped;
	/* where commands come from */
	const char *file;       /* NULL at the prompt */
	int line;
	/* a command continued with '\' over several lines: where each of its
	 * lines begins in it (offsets; [0] is 0), for cli_error_at */
	const size_t *cont_at;
	int ncont;
	int depth;              /* source nesting */
	/* outcome */
	int failed;             /* an expect failed: exit 1 */
	int errors;             /* a script error happened: exit 2 */
	int quit;
	char ret[32];           /* $ret */
	int have_ret;
	int replaying;          /* rebuilding: print nothing */
	char **hist;            /* commands typed, for `history` */
	size_t nhist;
	volatile sig_atomic_t *interrupted; /* Ctrl-C, polled by long commands */
	void *explore;          /* the last explore's results (cmd_explore.c) */
	/* the screen (session.c) */
	int width;              /* --width N: wrap at N columns; 0: the terminal's */
	int term_cols;          /* the terminal's, noted before a paged command */
	int human_err;          /* human lines to stderr: stdout carries JSON lines */
	char *obuf;             /* a line being assembled, when wrapping */
	size_t olen, ocap;
	int oraw;               /* out of memory for it: the line goes out unfolded */
	/* the detectors' reports printed as they fire (`reports live on|off`) */
	int live_reports;
	int reports_seen;       /* how many of them were printed */
	/* memory ran out for the log, the events or a line of output during
	 * the command: session_exec_line undoes it and says so */
	int nomem;
	/* `lessons N step`: the source depth of the lesson (0: not stepping);
	 * its commands are echoed, with a pause between parts */
	int lesson_step;
	/* SIGINT/SIGTERM off the prompt: the script stops, vfsim exits 130 */
	volatile sig_atomic_t *stop;
	/* a definition being read, `define` to `end` (cmd_define.c) */
	struct define_state *define;
	char stop_at[256];      /* FILE:LINE of the command it stopped after */
	/* a replay watched by `compare` (cmd_compare.c); NULL otherwise */
	struct session_watch *watch;
	/* reset's lines making the world again (session_remake): out of
	 * memory in one fails them all, silently, and reset says it */
	int remaking;
};

/* What a world made again (reset) replaces, set aside until it is whole. */
struct session_held {
	struct vfs_world *w;
	struct rec *log;
	size_t nlog, caplog;
	struct vfs_event *ev;
	size_t nev, capev, ev_dropped;
	int have_ret, nomem, reports_seen;
	char ret[32];
};

/* What a watcher of a session is told as the session runs its lines (the
 * one path: session_exec_line), so that `compare` sees any command without
 * knowing it.  With a watch, a step the kernel does not allow (the thread
 * blocked, or done) is not an error: the scheduler runs instead, or the
 * command stops, and a note says so; `kernel PRESET` keeps the pinned one. */
struct session_watch {
	void *ctx;
	/* before each command: non-zero leaves it out */
	int (*command)(void *ctx, struct session *s, const struct cmd_entry *e,
		       const struct cmd_call *c);
	void (*event)(void *ctx, struct session *s, const struct vfs_event *ev);
	void (*result)(void *ctx, struct session *s, int tid); /* a call returned */
	void (*note)(void *ctx, struct session *s, const char *text);
	bool pin_kernel;        /* `kernel PRESET` lines keep the session's
				 * preset (compare replays under its own) */
	int kernel_lines;       /* `kernel PRESET` lines that kept the pinned one */
	int nomem;              /* a command ran out of memory (said by the
				 * watcher, once, not by the watched session) */
};
/* Tell the watcher (if any) what a command did instead of what was asked. */
void session_note(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "A blocked on /d i_rwsem": the lock a blocked thread waits for. */
void session_blocked_on(struct session *s, int tid, char *buf, size_t n);

struct cmd_call {
	int argc;
	char **argv;            /* the words after the command */
	int *cols;
	int tid;                /* the thread of "THREAD: ...", or -1 */
	const char *thread;     /* its name as typed */
	int background;
	const char *line;       /* the whole line, for messages */
};

/* CMD_THREAD: a thread performs it ("A: open /d"); CMD_WORLD: may also be
 * used without a thread as instant set-up; CMD_LOG: replayed by `back`. */
#define CMD_THREAD 0x1
#define CMD_WORLD  0x2
#define CMD_LOG    0x4
#define CMD_PAGER  0x8  /* long output: through $PAGER at a terminal's prompt */
/* `compare` replays every command of a script or log through
 * session_exec_line but these: CMD_NOREPLAY reads or writes outside the
 * world (expect, save, export, lessons); CMD_NOREPLAY_SAID would change
 * the session in a way a replay cannot follow (back, explore, compare),
 * and compare says it left them out. */
#define CMD_NOREPLAY      0x10
#define CMD_NOREPLAY_SAID 0x20

/* What Tab is completing after a command (complete.c): the words after
 * the command and the index of the one being completed, the thread of
 * "T: " before it (THREADED; TID -1 when no such thread), every word of
 * the line before it; a completer offers words through C. */
struct cands;
struct complete_at {
	struct cands *c;
	const struct cmd_entry *e;
	char **args;
	int argi;
	int tid;
	bool threaded;
	char **words;
	int nw;
};

struct cmd_entry {
	const char *name;
	const char *group;
	const char *args;       /* synopsis, the argument schema (argspec.c) */
	const char *help;       /* one line */
	const char *long_help;
	int min_args, max_args; /* what args allows (argspec.c); -1: no limit */
	unsigned flags;
	int sys;                /* enum vfs_sys for thread commands */
	int (*fn)(struct session *, const struct cmd_call *);
	/* what Tab offers for its arguments; NULL: what its synopsis may
	 * take next (complete_schema) */
	void (*complete)(const struct complete_at *at);
	/* fills in, at start-up, what the command's own table makes (export's
	 * synopsis and long help, from its formats); NULL: nothing */
	void (*make)(struct cmd_entry *e);
};
/* cmd.c: the commands, the system calls' among them (cmd_table_init
 * fills the table; session_new and the table's readers in cmd.c call it) */
extern const struct cmd_entry *cmd_table;
extern int cmd_count;
void cmd_table_init(void);
const struct cmd_entry *cmd_find(const char *name);
/* The words of C against a synopsis: the counts it allows (MIN, MAX, -1
 * no limit; "missing"/"too many arguments (usage: PREFIX NAME SYN)"), then
 * its keywords ("rule: lockorder A before B" at the word that does not
 * fit); a first word no alternative takes is left to the handler.  -1
 * said, or 0. */
int cmd_check_words(struct session *s, const char *name, const char *syn,
		    int min, int max, const char *prefix, const struct cmd_call *c);
/* ... against entry E's synopsis, or, for a thread's call of a command
 * that is a system call too (mkdir), the call's row. */
int cmd_check_args(struct session *s, const struct cmd_entry *e,
		   const struct cmd_call *c);


/* session.c */
extern int cli_stdout_errno;    /* the first failed write's, or 0 */
struct session *session_new(void);
void session_free(struct session *s);
void session_reset(struct session *s, const struct vfs_preset *p);
/* reset: a new world under P, with an empty log, in place of the session's,
 * which is kept in *WAS; -VE_NOMEM (nothing changed) when there is no room.
 * The lines that make the world again follow (session_exec_line), then
 * session_remade: the new world stays when they all ran, else the old one
 * comes back (world, log, events, $ret) and NAME says "out of memory". */
int session_remake(struct session *s, const struct vfs_preset *p,
		   struct session_held *was);
int session_remade(struct session *s, struct session_held *was, const char *name);
int session_exec_line(struct session *s, const char *line);
int session_source(struct session *s, const char *path);
int session_run_stream(struct session *s, FILE *in, const char *name);

/* script.c: the one reader of command lines (scripts, stdin, compare, the
 * prompt).  One line of a file with its newline into *buf (grown as
 * needed): its length, -1 at the end of the file, -2 when longer than
 * CLI_MAX_LINE, -3 out of memory. */
#define CLI_MAX_LINE (64 * 1024)
ssize_t cli_read_line(char **buf, size_t *cap, FILE *in);
/* A command being joined from lines that end in `\`: its text (each
 * backslash a blank) and where each line begins in it. */
struct line_join {
	char *text;
	size_t len;
	size_t *conts;
	int nconts, capconts;
};
/* Add a line (its newline dropped): 1 when it continues, 0 when the
 * command is whole, -1 when it grew past CLI_MAX_LINE, -2 out of memory
 * (J as it was). */
int line_join_add(struct line_join *j, const char *part);
void line_join_reset(struct line_join *j);
void line_join_free(struct line_join *j);
enum { SR_TOO_LONG = 1, SR_CONT_TOO_LONG, SR_NUL, SR_READ, SR_NOMEM };
struct script_reader {
	FILE *in;
	const char *name;       /* for FILE:LINE */
	char *buf;              /* the physical line */
	size_t cap;
	int lineno;             /* physical lines read */
	int start;              /* the line the command (or error) is on */
	int done;
	int err, errnum;        /* after -1: SR_*, and errno for SR_READ */
	size_t col;             /* SR_NUL: its column */
	struct line_join cmd;   /* the command read */
};
void script_reader_init(struct script_reader *r, FILE *in, const char *name);
/* The next command into r->cmd: 1, 0 at the end, -1 on an error (r->err). */
int script_reader_next(struct script_reader *r);
/* Say r's error at its FILE:LINE (cli_error): -1. */
int script_reader_error(struct session *s, const struct script_reader *r);
/* Run the command read, its errors at its FILE:LINE and column. */
int script_reader_exec(struct session *s, const struct script_reader *r);
void script_reader_free(struct script_reader *r);
void session_log_setup(struct session *s, const struct cmd_call *c,
		       const char *name);
/* WORD quoted so that the lexer reads it back the same (for logs, save) */
/* A record added to the log, or NULL (replaying; out of memory: s->nomem,
 * and the command is undone). */
struct rec *session_log(struct session *s, int kind, int tid, const struct vfs_call *c);
/* Run one step of tid, logging it and printing what it finished. */
bool session_step(struct session *s, int tid);
/* SIGKILL to a process, its events recorded (vfs_kill). */
int session_kill(struct session *s, int proc);
/* A step of the scheduler's choice; -1 when nothing is runnable. */
int session_sched_step(struct session *s, bool *done);
/* Rebuild the world from the log minus the last `drop_steps` steps. */
void session_replay(struct session *s, size_t drop_steps);
void session_print_result(struct session *s, int tid);
void session_blocked_line(struct session *s, int tid, char *buf, size_t n);
int session_interrupted(struct session *s);
const char *errno_text(int e);  /* strerror, lower case */

/* The formats `export` writes (cmd_picture.c): its synopsis, help,
 * completion and `vfsim --tables` are made from this table. */
struct export_format {
	const char *name;
	const char *what;       /* "wrote FILE: WHAT" */
	const char *help;       /* `help export`'s paragraph */
	bool titled;            /* takes TITLE... after FILE */
	int (*write)(struct session *s, FILE *f, const char *path, int ntitle,
		     char *const *title);
};
extern const struct export_format export_formats[];
extern const int export_nformats;

/* argspec.c: a command's synopsis is its argument schema.  The fewest and
 * most words it takes (max -1: no limit); and what may come after WORDS:
 * OFFER is called with each item that may take the next word ("PATH",
 * "on|off", "until"). */
void argspec_counts(const char *syn, int *min, int *max);
void argspec_next(const char *syn, char *const *words, int nwords,
		  void (*offer)(void *ctx, const char *item, size_t len), void *ctx);
/* Whether SYN takes WORDS: -1 when it does, else the index of the first
 * word it cannot take (NWORDS: words are missing), with in ALT the
 * alternative of SYN that took the most ("lockorder A before B"). */
int argspec_match(const char *syn, char *const *words, int nwords,
		  char *alt, size_t altn);
/* SYN has no keyword, choice or alternative: its counts say all it takes
 * (every word is a placeholder's). */
bool argspec_counts_decide(const char *syn);
/* Where SYN's first alternative ends (its " | " outside brackets), or NULL
 * when it has one. */
const char *argspec_alt(const char *syn);
/* SYN parsed once (it must outlive the result), for argument checking, in
 * static room for the command table's: NULL when that is full or SYN is
 * malformed (then argspec_match checks). */
struct argspec;
struct argspec *argspec_compile(const char *syn);
/* Whether the compiled synopsis takes WORDS whole (argspec_match's -1),
 * when the counts allow them. */
bool argspec_accepts(const struct argspec *a, char *const *words, int nwords);

/* Write PATH atomically through WRITER (cmd_script.c); -1 reported. */
int write_atomic(struct session *s, const char *what, const char *path,
		 int (*writer)(struct session *, FILE *, void *), void *ctx);
/* The log as a script of set-up lines, calls and explicit steps; TYPED:
 * as it was typed (foreground calls run as such, their own steps left to
 * them; a thread's steps always with their count), which `compare` replays. */
int session_save(struct session *s, FILE *f, bool typed);

/* output (session.c) */
void out(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Write out a line out() has begun (before a prompt or a message). */
void out_flush(struct session *s);
/* The columns human output is fitted to: --width, else the terminal's when
 * stdout is one, else 0 (no limit: files and pipes get whole lines). */
int cli_columns(struct session *s);
/* The terminal's rows when stdin and stdout are both one, else 0. */
int cli_rows(void);
/* Print the detectors' reports that appeared since the last call. */
void session_live_reports(struct session *s);
/* A script error or a bad line: FILE:LINE: message, or one line at the
 * prompt. Always returns -1. */
int cli_error(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A warning: the same line on stderr, "warning:" before the message, and
 * the script goes on (its status unchanged). */
void cli_warning(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The one place an error value of core/ (-VE_*) becomes words:
 * "WHAT ARG: MESSAGE" (or "WHAT: MESSAGE", or "MESSAGE" when WHAT is
 * NULL), the limits with their bound; -VE_NOMEM is "out of memory", the
 * one line any command says when it runs out (the session goes on).  -1. */
int cli_errno(struct session *s, const char *what, const char *arg, int err);
/* cli_error about the word at column COL of the command (cmd_call.cols):
 * "column C: message", on the line of a continued command it is on. */
int cli_error_at(struct session *s, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ... about column COL (none when 0) of line LINE of the script (the
 * command's own when 0): a definition's step, said at its `end`. */
int cli_error_on(struct session *s, int line, int col, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* FILE:LINE: (in a script), then LABEL (coloured), then the message. */
void cli_vmessage(struct session *s, const char *label, const char *fmt, va_list ap);
/* Once per limit: "vfsim: too many X (limit N): ... off from step S" when
 * a detector's table filled (core/vfs_limits.h). */
/* (cmd_detect.c) */
void detect_tell_overflow(struct session *s);
const char *color_on(struct session *s, const char *code);
const char *color_off(struct session *s);

/* vfsim's options (options.c): main.c's getopt and usage, and `vfsim
 * --tables` read them; ID is what getopt returns (a short option's letter,
 * or one of these) */
enum { OPT_CHECK = 256, OPT_TRACE, OPT_COLOR, OPT_VERSION, OPT_HELP, OPT_MDOC,
       OPT_TAP, OPT_WIDTH, OPT_NO_PAGER, OPT_CONDS_MDOC, OPT_TABLES, OPT_COMPLETE };
struct cli_word {
	const char *word;
	int value;
};
#define CLI_OPT_SYNOPSIS 0x1    /* in usage's first lines */
#define CLI_OPT_REPEAT   0x2    /* may be given again: "[-c COMMAND]..." */
#define CLI_OPT_HIDDEN   0x4    /* an alias, or for the tests and man pages */
#define CLI_OPT_BREAK    0x8    /* the synopsis goes on a new line before it */
struct cli_option {
	const char *name;       /* "trace" for --trace, or NULL */
	char short_name;        /* 'k' for -k, or 0 */
	const char *arg;        /* its argument's placeholder, or NULL */
	int id;                 /* what getopt returns */
	const struct cli_word *words;   /* the words ARG takes; NULL: any */
	unsigned flags;
	const char *help;       /* usage's lines; "": named on the last line */
};
#define CLI_MAX_OPTIONS 32
extern const struct cli_option cli_options[];
extern const int cli_noptions;

/* names and resolution (cmd.c) */
int resolve_thread(struct session *s, const char *name, int *tid);
int resolve_proc(struct session *s, const char *name, int *proc, int *pid);
int resolve_file(struct session *s, const char *name, int *file);
int parse_num(const char *s, long long *v);
const char *did_you_mean(const char *word, const char *const *cands, int n);
/* ... among NAME(0), NAME(1), ... up to the first NULL: a table's rows */
const char *did_you_mean_of(const char *word, const char *(*name)(int));
/* The names of the presets' and the knobs' rows, NULL past the last
 * (cmd_world.c: did_you_mean_of, cli_unknown_of, completion) */
const char *cli_preset_name(int i);
const char *cli_knob_name(int i);
/* A preset (a row of core/presets.tbl) or, when KNOB, a knob (a column)
 * by its NAME, found by core's own lookup (vfs_preset_lookup,
 * vfs_knob_lookup), as kernel, set and compare take one: its index, or -1
 * said ("WHAT 'NAME'" with the nearest name, or where they are listed). */
int presets_tbl_find(struct session *s, const char *what, const char *name, bool knob);
/* The fields a step or 'expect field' names: the kernel's that a step reads
 * (the file's f_pos, cursor, f_count, then the inode's size, dir:
 * NKERNEL_FIELDS), then those W declared; ALL has room for
 * NKERNEL_FIELDS + VFS_MAX_UFIELDS.  Returns how many (cmd_define.c). */
#define NKERNEL_FIELDS 5
int field_candidates(const struct vfs_world *w, const char **all);
/* "<", "<=", ... as enum vfs_kcmp; KC_NONE: no comparison (cmd_define.c) */
int cmp_word(const char *w);
/* the object a word names, enum vfs_kobj by vfs_kobj_names ("file",
 * "inode"), or -1: a step's OBJECT, a field's (cmd_define.c) */
int kobj_word(const char *w);
/* "WHAT 'WORD' (did you mean 'X'?)", else "(HINT)" when given; returns -1. */
int cli_unknown(struct session *s, const char *what, const char *word,
		const char *const *cands, int n, const char *hint);
/* ... about the word at column COL (cli_error_at; none when 0). */
int cli_unknown_at(struct session *s, int col, const char *what, const char *word,
		   const char *const *cands, int n, const char *hint);
/* cli_unknown among NAME(0), NAME(1), ... (did_you_mean_of) */
int cli_unknown_of(struct session *s, const char *what, const char *word,
		   const char *(*name)(int), const char *hint);
/* The command names, for suggestions; returns how many. */
int cmd_names(const char **names, int max);

/* expect's conditions (cmd_check.c): expect, help, completion and the
 * man page read them */
struct expect_cond {
	const char *name;
	const char *args;       /* synopsis: its placeholders guide completion */
	const char *help;
	int negatable;          /* "expect no NAME" */
	/* S, the row, "no" given, the words after the name: 0 (held, or a
	 * failure reported), -1 (a bad argument, reported) */
	int (*eval)(struct session *s, const struct expect_cond *ec, bool neg,
		    int rest, char **a);
	int report;             /* the detector's kind (DK_*) it speaks of,
				 * whose row has its words for a message; -1 */
	const char *no_args;    /* the synopsis after "no", when not ARGS */
};
extern const struct expect_cond expect_conds[];
extern const int expect_ncond;
const struct expect_cond *expect_cond_find(const char *name);
/* The synopsis of EC's words, after "no" when NEG: what checks them
 * (c_expect) and what completion offers. */
const char *expect_cond_args(const struct expect_cond *ec, bool neg);
void expect_print_mdoc(FILE *f);

/* concepts `help WORD` and `apropos` explain (concepts.c) */
struct concept {
	const char *name;
	const char *also;       /* other names, blank-separated */
	const char *text;
};
extern const struct concept concepts[];
extern const int nconcepts;
const struct concept *concept_find(const char *word);

/* the lessons (cmd_lessons.c), for completion: their numbers and names */
int lessons_names(char names[][128], int max);
/* Between two parts of a lesson run step by step: wait for Enter at a
 * terminal (nothing off one); 1 when the user stops the lesson. */
int lesson_pause(struct session *s);

/* completion (complete.c) */
char **cli_complete(const char *line, int start, int end);
/* the completers of the table's rows: a synopsis's next words (the
 * default), expect's conditions and their arguments, a system call's
 * arguments by its row (core/syscalls.c) after "T: " */
void complete_schema(const struct complete_at *at);
void complete_expect(const struct complete_at *at);
void complete_call(const struct complete_at *at);
void cli_complete_bind(struct session *s);
/* tables.c: the tables and completion, for the drift tests */
void cli_print_tables(FILE *f);
void cli_print_completions(struct session *s, const char *line, FILE *f);

/* help (cmd.c) */
void cmd_help_list(struct session *s);
void cmd_print_mdoc(FILE *f);
/* mdoc.c: the pieces of the man page's command list */
void mdoc_args(FILE *f, const char *synopsis);
void mdoc_sentence(FILE *f, const char *help);
void mdoc_title(FILE *f, const char *title);

#endif
