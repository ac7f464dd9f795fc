/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd.c - the command table: one entry per command.  Dispatch
 * (session_exec_line), `help`, completion (complete.c), argument counts
 * and the man page's command list (`vfsim --commands-mdoc`) read it.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "commands.h"
#include "fns.h"
#include "vfs_trace.h"
#include "vfs_file.h"
#include "vfs_thread.h"

/* A command as written here; its argument counts come from its synopsis
 * (argspec.c), in cmd_table_init. */
struct cmd_def {
	const char *name, *group;
	const char *args;       /* synopsis: the argument schema */
	const char *help, *long_help;
	unsigned flags;
	int sys;
	int (*fn)(struct session *, const struct cmd_call *);
};

static const struct cmd_def base_table[] = {
	/* ---- setting up the world (instant, not traced) ---- */
	{ "kernel", "world", "[list|PRESET]", "show, list or choose the kernel preset",
	  "With no argument, shows the preset and any knob overridden. 'kernel list'\n"
	  "lists the presets, one line each. 'kernel PRESET' chooses one and resets\n"
	  "every knob to it; the world is kept.", CMD_LOG, 0, c_kernel },
	{ "set", "world", "[KNOB [VALUE]]", "list the knobs, or override one",
	  "Knobs are the preset's row: fpos-lock, iterate, wrapper, pidfd-getfd, ...\n"
	  "Values that build a kernel that never existed (wrapper no-recheck,\n"
	  "naive-upgrade) say so in the trace when they change what happens.",
	  CMD_LOG, 0, c_set },
	{ "fs", "world", "[list | define NAME KEY VALUE...]",
	  "the filesystem types, or define one from their parts",
	  "'fs list': for each type, its iterator, whether it has ->iterate_shared\n"
	  "natively or the legacy ->iterate (wrapped from v6.5), its directory\n"
	  "llseek, and its answer to read() on a directory. Types the preset's\n"
	  "kernel did not have are marked, and so are those the script defined.\n"
	  "\n"
	  "'fs define NAME KEY VALUE...' makes a filesystem type of the parts the\n"
	  "built-in ones are made of; 'mount NAME PATH' then mounts one. The keys\n"
	  "are its directories' file_operations (one line, or several ending in \\):\n"
	  "  iterate FN          the legacy ->iterate: i_rwsem exclusive (from v6.5\n"
	  "                      inside wrap_directory_iterator)\n"
	  "  iterate_shared FN   ->iterate_shared: i_rwsem shared\n"
	  "                      (one of the two; FN is an iterator: exfat_iterate,\n"
	  "                      ext4_readdir, dcache_readdir, ...)\n"
	  "  llseek FN           generic_file_llseek (the default), ext4_dir_llseek,\n"
	  "                      dcache_dir_lseek, offset_dir_llseek, ceph_dir_llseek,\n"
	  "                      ovl_dir_llseek, default_llseek (these three take\n"
	  "                      i_rwsem exclusive; dcache_dir_lseek shared)\n"
	  "  read FN             generic_read_dir (EISDIR, the default), ceph_read_dir\n"
	  "                      (text with the mount option dirstat), none (EINVAL)\n"
	  "  maxbytes N          s_maxbytes: bytes, or MAX_LFS_FILESIZE (the default)\n"
	  "  since R, until R    the releases that have it, for 'fs list' (5.7)\n"
	  "A definition is part of the kernel being modelled: 'reset', 'kernel',\n"
	  "'back', 'compare', 'explore' and 'save' keep it.", CMD_PAGER, 0, c_fs },
	{ "override", "world", "[FUNC [EXPR...|default]]",
	  "replace a kernel function's decision by an expression",
	  "'override FUNC EXPR' replaces the decision of kernel function FUNC by\n"
	  "the expression EXPR over the state FUNC sees, written as its condition:\n"
	  "  override file_needs_f_pos_lock atomic_pos && (count > 1 || dir)\n"
	  "EXPR has numbers, true, false, the function's variables (and the fields\n"
	  "'field' declared, of the file FUNC sees or its inode), !, &&, ||\n"
	  "(each stops as soon as its answer is known: a variable is read, and the\n"
	  "read traced, only where the kernel's code would read it), <, <=, >, >=,\n"
	  "==, != and parentheses. Where the script's answer differs from the\n"
	  "kernel's, the trace notes it, as it notes the knobs' deliberately wrong\n"
	  "values. 'override' lists the decisions, the kernel's own expression\n"
	  "under this kernel and the variables; 'override FUNC default' gives the\n"
	  "decision back to the kernel. 'kernel PRESET' does too, as it resets the\n"
	  "knobs; 'reset' keeps overrides.\n"
	  "file_needs_f_pos_lock (fdget_pos takes f_pos_lock) sees atomic_pos,\n"
	  "count (file_count), dir, iterate_shared (f_op->iterate_shared under\n"
	  "this kernel), regular; __fget_light (fdget borrows the file, no\n"
	  "reference) sees table_users (files->count).",
	  0, 0, c_override },
	{ "rule", "world", "[lockorder A before B | rank LOCK N | write|access FIELD under LOCK "
	  "| field FIELD CMP N | entries once per pass | remove all|RULE...]",
	  "declare a lock-order rule or an invariant, checked beside lockdep's",
	  "'rule lockorder A before B': no thread takes A while holding B.\n"
	  "'rule rank LOCK N', as Documentation/filesystems/directory-locking.rst\n"
	  "ranks locks: no thread takes a lock while holding one of the same or a\n"
	  "higher rank (a lock without a rank is not checked):\n"
	  "  rule rank s_vfs_rename_mutex 1\n"
	  "  rule rank i_rwsem:parent 2\n"
	  "  rule rank i_rwsem:parent2 3\n"
	  "A lock is a class as lockdep names it: s_vfs_rename_mutex, f_pos_lock,\n"
	  "i_rwsem (any inode; i_rwsem_dir, i_rwsem_nondir), f_lock,\n"
	  "cred_guard_mutex, exec_update_mutex, exec_update_lock; an i_rwsem may\n"
	  "name the nesting subclass inode_lock_nested gives it (:normal, :parent,\n"
	  ":child, :xattr, :nondir2, :parent2; lockdep's /0 to /5, the kernel's\n"
	  "numbers), else any subclass matches.\n"
	  "'rule write f_pos under f_pos_lock': f_pos of a file only written while\n"
	  "holding that file's f_pos_lock ('access': read too; an i_rwsem is the\n"
	  "file's inode's). 'rule field users <= 1': every value written to the\n"
	  "field (f_pos, cursor, size or a declared one) of any object is <= 1 (CMP:\n"
	  "< <= > >= == !=). 'rule entries once per pass': an open directory hands\n"
	  "out each entry once in one pass.\n"
	  "Each acquisition is checked while stepping and by 'explore' (the\n"
	  "violation 'rule'); a broken rule is reported like lockdep's warnings\n"
	  "('reports rule', 'expect no rule'). 'rule remove RULE' (its words as\n"
	  "'rule' lists it) or 'rule remove all' takes rules back. 'rule' lists\n"
	  "the rules; 'reset',\n"
	  "'kernel', 'back', 'compare', 'explore' and 'save' keep them.",
	  0, 0, c_rule },
	{ "define", "world", "[syscall NAME [PARAM...] | function NAME [PARAM...]]",
	  "a kernel function or system call of your own, as steps, to 'end'",
	  "  define syscall getpos FD\n"
	  "    fdget FD                   # the file FD names (EBADF: none)\n"
	  "    lock f_pos_lock of file    # mutex_lock\n"
	  "    read f_pos of file\n"
	  "    unlock f_pos_lock of file\n"
	  "    fdput\n"
	  "    return f_pos\n"
	  "  end\n"
	  "  A: getpos 3\n"
	  "Each line is one atomic step, traced in the definition's name; the race\n"
	  "detector, lockdep, the rules and explore see its accesses as the kernel's.\n"
	  "Steps: lock LOCK of OBJ [read|write] [killable] [nested SUBCLASS];\n"
	  "unlock LOCK of OBJ; downgrade i_rwsem of inode; read FIELD of OBJ;\n"
	  "write FIELD of OBJ VALUE [+|- VALUE]; fdget FD; fdget_pos FD (the f_pos\n"
	  "lock when file_needs_f_pos_lock says so); fdput; fdput_pos; emit entries\n"
	  "of inode from VALUE [max VALUE] (ret: the offset after); call FUNCTION\n"
	  "(one defined before, 'define function NAME'); return VALUE [if VALUE CMP\n"
	  "VALUE]; if VALUE CMP VALUE, its steps, [else, its steps,] end (no step\n"
	  "of its own; each way must leave the same locks held); upgrade i_rwsem\n"
	  "of inode (inode_upgrade_trylock: ret 1 held for writing now, 0 not);\n"
	  "iterate (the legacy ->iterate, in wrap_directory_iterator's place).\n"
	  "LOCK: f_pos_lock (mutex), f_lock (spinlock), i_rwsem (rwsem; the\n"
	  "era's i_mutex before v4.7), d_update (the inode's dentry's mutex). OBJ:\n"
	  "file, inode. FIELD: the file's f_pos,\n"
	  "cursor, f_count; the inode's size, dir (its entries). VALUE: a number, an\n"
	  "errno name (EBADF: -9), a parameter, a field read before, ret (what the\n"
	  "last call returned), dead (IS_DEADDIR, read with dir). After a\n"
	  "function's parameters, as sparse says it: __acquires (returns holding\n"
	  "locks), __releases (releases its caller's), __must_hold(LOCK) (entered\n"
	  "holding LOCK, returns so): see 'help hook'. Refused at 'end': an unknown lock or field, a lock\n"
	  "still held or an fdget not put at a return, an unlock of a lock not held,\n"
	  "a cycle of calls. 'define' lists the definitions; 'reset', 'kernel',\n"
	  "'back', 'compare', 'explore' and 'save' keep them.",
	  0, 0, c_define },
	{ "field", "world", "[NAME of file|inode [= N]]",
	  "declare a field of your locking idea on every file or inode",
	  "'field NAME of file [= N]' gives every open file (and 'of inode', every\n"
	  "inode) a field NAME, N at first (0 without '= N'), those made before\n"
	  "the declaration too. Defined steps read and write it as they do f_pos\n"
	  "(read NAME of file; write NAME of file VALUE [+|- VALUE]; return VALUE\n"
	  "if NAME CMP VALUE), traced as the kernel's fields are: the race\n"
	  "detector checks its accesses, 'rule write NAME under LOCK' holds it to\n"
	  "a lock, and 'explore' counts it in a state.\n"
	  "  field generation of file = 1\n"
	  "'field' lists the fields and each object's value ('files' shows the\n"
	  "files' too). At most 64; a name is declared once; 'reset', 'kernel',\n"
	  "'back', 'compare', 'explore' and 'save' keep them.",
	  0, 0, c_field },
	{ "hook", "world", "[vfs_llseek|lookup|wrap_directory_iterator [FUNCTION|default | before FUNCTION after FUNCTION]]",
	  "put a function you defined into a built-in path",
	  "'hook vfs_llseek FUNCTION': lseek runs FUNCTION instead of vfs_llseek,\n"
	  "on its file after fdget_pos; FUNCTION's return is lseek's, its\n"
	  "parameters name lseek's arguments (define function NAME FD OFF WHENCE).\n"
	  "'hook lookup FUNCTION': mkdir, unlink, rmdir and rename run FUNCTION\n"
	  "before looking up the last component, under the parent's lock; its\n"
	  "inode is the parent directory, and a negative return fails the call.\n"
	  "'hook lookup before F after G': F before the lookup, G after it\n"
	  "whatever it found (and after F when F fails); F may return holding\n"
	  "locks (define function F __acquires) that G releases (define\n"
	  "function G __releases): held across the lookup, checked to balance.\n"
	  "'hook wrap_directory_iterator FUNCTION': a legacy ->iterate under v6.5's\n"
	  "shared iterate_dir runs FUNCTION in the wrapper's place, entered holding\n"
	  "i_rwsem for reading and returning so (define function F\n"
	  "__must_hold(i_rwsem)); its step 'iterate' is the wrapper's iter(file,\n"
	  "ctx), 'upgrade i_rwsem of inode' the inode_upgrade_trylock it wishes for.\n"
	  "The trace and 'where' name FUNCTION; the race detector, lockdep, the\n"
	  "rules and explore see its steps as the kernel's. A hooked function has\n"
	  "no fdget, fdput or emit (the path has its file). A kill in its killable\n"
	  "lock: it releases its own locks and returns EINTR to the path, which\n"
	  "unwinds (fdput_pos; the parent's unlock). 'hook POINT default' gives\n"
	  "the path back to the kernel; 'hook' lists the points.",
	  0, 0, c_hook },
	{ "mount", "world", "FSTYPE PATH [OPTION]", "mount a new filesystem on a new directory",
	  "Creates PATH as the root of a new filesystem of type FSTYPE, a built-in\n"
	  "one or one the script defined ('fs define'). The root '/' is ext4. ceph\n"
	  "takes the option 'dirstat' (read() on its directories), and so does a\n"
	  "type defined with 'read ceph_read_dir'.",
	  CMD_LOG, 0, c_mount },
	{ "mkdir", "world", "PATH...", "make directories (as set-up, or as a thread's call)",
	  "Without a thread, makes the directories at once (parents too), untraced.\n"
	  "As 'THREAD: mkdir PATH' it is the system call, traced, taking the\n"
	  "parent's i_rwsem exclusive.", CMD_THREAD | CMD_WORLD | CMD_LOG,
	  SYS_MKDIR, c_mkdir },
	{ "touch", "world", "PATH...", "make empty regular files, untraced", NULL,
	  CMD_LOG, 0, c_touch },
	{ "ls", "world", "[PATH]", "show the tree (entries in directory order)", NULL,
	  CMD_PAGER, 0, c_ls },
	{ "spawn", "world", "NAME [uid=N]", "a new single-threaded process",
	  "Pids are given from 100 upward. The process's first thread is NAME (also\n"
	  "NAME.1); its descriptors 0-2 are taken, so the first open gives 3.",
	  CMD_LOG, 0, c_spawn },
	{ "kill", "world", "PROC", "SIGKILL: killable waits give up (EINTR), then the threads exit",
	  "Drops PROC's queued calls and makes each thread exit after its current\n"
	  "call. A thread asleep in a killable wait (iterate_dir's\n"
	  "down_read_killable, a defined step's 'killable' lock, in a hook too)\n"
	  "gives up with EINTR at once; one asleep in a plain\n"
	  "wait (the v6.5 wrapper's down_write) sleeps on until it gets the lock,\n"
	  "as the wrapper's comment in fs/readdir.c explains.", CMD_LOG, 0, c_kill },
	{ "reset", "world", "", "an empty world; the preset and knobs are kept",
	  "The kernel being modelled stays as it was: its preset, the knobs 'set'\n"
	  "overrode and the filesystem types 'fs define' made.",
	  0, 0, c_reset },
	{ "sched", "run", "[rr | fifo | random SEED]", "how step and run choose a thread",
	  "rr: round robin, one step each (the default). fifo: the oldest call runs\n"
	  "until it blocks or returns. random SEED: a reproducible random choice.",
	  CMD_LOG, 0, c_sched },
	/* ---- things a thread does (traced; they take locks) ---- */
	/* the system calls, one command each, from their rows
	 * (core/syscalls.c); mkdir above is one of them too */
	{ .name = NULL, .group = "thread" },
	/* ---- running pending calls ---- */
	{ "step", "run", "[THREAD] [N] | THREAD until FUNC", "run atomic steps (the scheduler's choice, or THREAD's)",
	  "'step' runs one step of the scheduler's choice; 'step A' one of A's;\n"
	  "'step A 5' five. 'step A until ext4_readdir' runs A until it is about to\n"
	  "enter that kernel function (or says why it stopped before).",
	  0, 0, c_step },
	{ "run", "run", "[THREAD]", "run until nothing is runnable", NULL, 0, 0, c_run },
	{ "back", "run", "[N]", "undo the last N steps (deterministic replay)", NULL,
	  CMD_NOREPLAY_SAID, 0, c_back },
	/* ---- looking ---- */
	{ "ps", "look", "", "processes and threads, with their state", NULL, CMD_PAGER, 0, c_ps },
	{ "fds", "look", "[PROC]", "descriptor tables", NULL, CMD_PAGER, 0, c_fds },
	{ "files", "look", "", "open files: f_pos, f_count, f_mode, locks", NULL,
	  CMD_PAGER, 0, c_files },
	{ "locks", "look", "", "each lock held or waited for: holders, mode, waiters in order",
	  NULL, CMD_PAGER, 0, c_locks },
	{ "where", "look", "[THREAD]", "a thread's kernel call chain, the locks it holds, its next step (FUNC:STEP)",
	  NULL, CMD_PAGER, 0, c_where },
	{ "trace", "look", "[on|steps|off|jsonl|clear|show [steps] [N]]",
	  "the trace: live, or what happened so far",
	  "'trace on' prints each event as it happens; 'trace steps' adds a column,\n"
	  "after the thread's, naming the step it happened in as 'where' names a\n"
	  "resume point: FUNCTION:STEP, the kernel function's C function in core/\n"
	  "and the case of its switch (iterate_dir:iterate, fdget_pos:lock;\n"
	  "do_syscall_64:enter is a call's first step).  'trace show [steps] [N]'\n"
	  "prints the kept events (the last N), with that column when asked or\n"
	  "when the live trace has it; JSON lines (jsonl, 'export jsonl') carry it\n"
	  "as \"point\".",
	  CMD_PAGER, 0, c_trace },
	{ "stats", "look", "", "per lock class: acquisitions, contention, waiting; atomics per call",
	  NULL, CMD_PAGER, 0, c_stats },
	{ "reports", "look", "[race|duplicate|skipped|deaddir|deadlock|lockorder|rule | live [on|off]]",
	  "what the detectors found, each report in full",
	  "Races (vector clocks), duplicate and skipped entries per pass of an open\n"
	  "directory, iteration of a dead directory, deadlocks (the wait-for cycle,\n"
	  "shown as lockdep's \"Possible unsafe locking scenario\" with the threads\n"
	  "as columns) and lock-order problems (a cycle in the lock-class graph, or\n"
	  "a rank of directory-locking.rst broken), even when no deadlock happened,\n"
	  "and the script's own rules broken ('rule').\n"
	  "Each report is also printed as it fires, one line with '!', while\n"
	  "commands, scripts and lessons run; 'reports live off' stops that.",
	  CMD_PAGER, 0, c_reports },
	{ "lockdep", "look", "[graph|reports]", "the lock-order graph and its problems",
	  "The graph: an edge A -> B for every lock key B taken while holding A,\n"
	  "with the first thread, kernel function and step that did it. Keys are\n"
	  "lock classes with the kernel's nesting subclass (/1 I_MUTEX_PARENT,\n"
	  "/2 I_MUTEX_CHILD, /3 I_MUTEX_XATTR, /4 I_MUTEX_NONDIR2, /5\n"
	  "I_MUTEX_PARENT2: include/linux/fs.h's numbers). 'lockdep reports'\n"
	  "prints each lock-order report as lockdep would; 'lockdep graph' the\n"
	  "graph alone, and plain 'lockdep' the graph and one line per problem.", CMD_PAGER, 0, c_lockdep },
	{ "history", "look", "", "the commands typed in this session", NULL, CMD_PAGER, 0, c_history },
	/* ---- checking ---- */
	{ "expect", "check", "CONDITION...", "fail the script unless CONDITION holds",
	  "FILE is file#N or PROC:FD; LOCK f_pos_lock, i_rwsem, f_lock, rename_mutex\n"
	  "or the era's exec lock pidfd_getfd takes: cred_guard_mutex (v5.6),\n"
	  "exec_update_mutex (v5.7-v5.10), exec_update_lock (v5.11 on, read).",
	  CMD_NOREPLAY, 0, c_expect },
	/* ---- scripts ---- */
	{ "source", "script", "FILE", "run the commands of FILE", NULL, 0, 0, c_source },
	{ "echo", "script", "[TEXT...]", "print TEXT", NULL, 0, 0, c_echo },
	{ "save", "script", "FILE", "write the session as a replayable script", NULL,
	  CMD_NOREPLAY, 0, c_save },
	{ "explore", "explore", "[all|dpor|stateful|naive | max N | jobs N | bound K]... | "
	  "replay WHAT... | save FILE [K] | outcomes",
	  "is any violation reachable? a proof, or the shortest schedule that breaks it",
	  "Explores every interleaving of the pending calls from here and says which\n"
	  "engine it used and why.  Plain 'explore' visits each distinct state once\n"
	  "(as SPIN does) and stops at the first violation; beside it a search, fewest\n"
	  "preemptions first, then fewest steps, gives the shortest counterexample:\n"
	  "a table with a column per thread, then its schedule token (A*5 B*9 A*3),\n"
	  "which 'explore replay TOKEN' steps in any session.  'all' goes on past\n"
	  "violations and counts them and the distinct outcomes ('explore outcomes'\n"
	  "lists them); 'stateful' counts the violations; 'dpor' runs each execution\n"
	  "(partial-order reduction), 'naive' every interleaving, 'bound K' those with\n"
	  "at most K preemptions.  'max N' stops after N states (or executions),\n"
	  "'jobs N' workers.  'explore replay K', 'replay KIND' or 'replay TOKEN'\n"
	  "makes execution K, the first counterexample of a kind (race, duplicate,\n"
	  "deadlock, ...) or the schedule the current state; 'explore save FILE [K]'\n"
	  "writes it as a script of steps.  After\n"
	  "explore, expect race/duplicate/deadlock speak of what it explored.\n"
	  "A search cut short (max, Ctrl-C, a full table) says so in its first line,\n"
	  "'stopped after N ...: not a proof', and every later 'expect no ...' about\n"
	  "it fails with that line.  A search longer than 2 s prints its progress;\n"
	  "Ctrl-C stops it.",
	  CMD_NOREPLAY_SAID, 0, c_explore },
	{ "compare", "explore", "PRESET PRESET [FILE]", "replay the session (or FILE) under two kernels, side by side",
	  "Runs this session (its log, as it was typed) or FILE line by line under\n"
	  "each preset in a fresh session, as a script runs (expect, save, export and\n"
	  "lessons left out; back, explore and compare too, and said), and prints\n"
	  "call by call the locks taken (acquisitions with class and mode, skips of\n"
	  "f_pos_lock, waits) and the results side by side; * marks what differs.\n"
	  "Foreground calls run until they return or block; pending (&) calls follow\n"
	  "the same step commands where they can: a step of a thread that is blocked\n"
	  "under one kernel goes to the scheduler instead, and the column says so.\n"
	  "Then the scheduler runs what is left. The script's 'kernel' lines are\n"
	  "replaced by the presets; its 'set' lines are kept. Example: compare v6.4\n"
	  "v6.5",
	  CMD_NOREPLAY_SAID, 0, c_compare },
	{ "lessons", "script", "[N|NAME [step]]", "list the workshop's lessons, or load lesson N",
	  "Lists examples/NN-*.vfs with the first line of each. 'lessons 1' loads\n"
	  "lesson 1 into a fresh world (as 'source' would). Each lesson's comments\n"
	  "(open the file beside the shell) say what to watch with 'trace on' and\n"
	  "what to try next. The directory: $VFSIM_EXAMPLES, the source tree's\n"
	  "examples/, or $(PREFIX)/share/vfsim/examples. 'lessons N step' runs it\n"
	  "part by part: each command shown as it runs, Enter for the next part.",
	  CMD_PAGER | CMD_NOREPLAY, 0, c_lessons },
	/* ---- pictures (cmd_picture.c, timeline.c, export_*.c) ---- */
	{ "timeline", "picture", "[steps] [FROM [TO]]", "the trace as a table: a row per step, a column per thread",
	  "Each thread's column starts with three narrow lock columns: f_pos_lock (┃),\n"
	  "i_rwsem (║ read, █ write), f_lock, rename_mutex or a process's exec lock\n"
	  "(│); ░ while it waits for one. Then what it did in that step: the kernel\n"
	  "function, the lock it waits for, the entries handed out, the syscall's\n"
	  "result. '!' marks the steps of a detector's report, listed below the\n"
	  "table. FROM and TO limit the steps shown. 80 columns hold three threads.\n"
	  "'timeline steps' adds a column after the step's number naming the step\n"
	  "as 'where' and 'trace steps' do: FUNCTION:STEP (iterate_dir:lock).",
	  CMD_PAGER, 0, c_timeline },
	/* (its synopsis and long help: from export_formats, cmd_table_init) */
	{ "export", "picture", NULL, "write the trace for a browser, Perfetto, Graphviz or jq",
	  NULL, CMD_NOREPLAY, 0, c_export },
	{ "help", "script", "[COMMAND|CONCEPT]", "list the commands, or explain one (or a lock, a report)",
	  "'help race', 'help f_pos_lock', 'help i_rwsem', ...: the ideas behind the\n"
	  "commands. 'apropos WORD' finds the commands and ideas that mention WORD.\n"
	  "'?' is 'help'.", CMD_PAGER, 0, c_help },
	{ "apropos", "script", "WORD", "the commands and ideas that mention WORD", NULL,
	  CMD_PAGER, 0, c_apropos },
	{ "pause", "script", "[TEXT...]", "print TEXT and wait for Enter (at a terminal only)",
	  NULL, 0, 0, c_pause },
	{ "clear", "script", "", "clear the terminal", NULL, 0, 0, c_clear },
	{ "quit", "script", "", "leave vfsim (also 'q', or Ctrl-D at the prompt)", NULL,
	  0, 0, c_quit },
};
#define NBASE (sizeof base_table / sizeof base_table[0])

static struct cmd_entry table[NBASE + SYS__COUNT];
/* each command's synopsis, compiled once for argument checking (NULL:
 * the walk of argspec_match checks its lines) */
static struct argspec *compiled[NBASE + SYS__COUNT];
static char synopses[SYS__COUNT][96];
const struct cmd_entry *cmd_table = table;
int cmd_count;

/* The table: base_table with the system calls' rows where its marker is. */
/* export's synopsis and long help, from its formats' table */
static void export_entry(void)
{
	static char syn[256], help[2048];
	size_t o = 0, h = 0;
	for (int i = 0; i < export_nformats; i++) {
		const struct export_format *x = &export_formats[i];
		o += (size_t)snprintf(syn + o, sizeof syn - o, "%s%s", i ? "|" : "", x->name);
		h += (size_t)snprintf(help + h, sizeof help - h, "%s: %s.\n", x->name, x->help);
	}
	snprintf(syn + o, sizeof syn - o, " FILE [TITLE...]");
	snprintf(help + h, sizeof help - h, "FILE '-' is the standard output.");
	for (int i = 0; i < cmd_count; i++)
		if (table[i].fn == c_export) {
			table[i].args = syn;
			table[i].long_help = help;
		}
}

void cmd_table_init(void)
{
	if (cmd_count)
		return;
	int n = 0;
	for (size_t i = 0; i < NBASE; i++) {
		const struct cmd_def *def = &base_table[i];
		if (def->name) {
			table[n++] = (struct cmd_entry){ def->name, def->group, def->args,
				def->help, def->long_help, 0, 0, def->flags, def->sys, def->fn };
			continue;
		}
		for (int sys = SYS_NONE + 1; sys < SYS__COUNT; sys++) {
			const struct vfs_sysdesc *d = &vfs_sys[sys];
			bool own = false;       /* a command of its own (mkdir) */
			if (d->flags & VSYS_SCRIPT)
				continue;       /* the script's: `define syscall` */
			for (size_t k = 0; k < NBASE; k++)
				own |= base_table[k].name && base_table[k].sys == sys;
			if (own)
				continue;
			vfs_sys_synopsis(sys, synopses[sys], sizeof synopses[sys]);
			struct cmd_entry *e = &table[n++];
			*e = (struct cmd_entry){ d->name, base_table[i].group, synopses[sys],
				d->help, d->long_help, 0, 0, CMD_THREAD, sys, c_syscall };
			vfs_sys_nwords(sys, &e->min_args, &e->max_args);
		}
	}
	cmd_count = n;
	export_entry();
	/* what argument checking allows: what the synopsis says */
	for (int i = 0; i < n; i++)
		if (!table[i].sys || table[i].fn != c_syscall) {
			argspec_counts(table[i].args, &table[i].min_args, &table[i].max_args);
			compiled[i] = argspec_compile(table[i].args);
		}
}

/* cmd_check_words, with SYN compiled in A when it is (the lines it takes
 * are told from a few comparisons; the walk says what a refused one is) */
static int check_words(struct session *s, const char *name, const char *syn,
		       const struct argspec *a, int min, int max, const char *prefix,
		       const struct cmd_call *c)
{
	if (c->argc < min || (max >= 0 && c->argc > max))
		return cli_error(s, "%s: %s arguments (usage: %s%s%s%s)", name,
				 c->argc < min ? "missing" : "too many", prefix, name,
				 *syn ? " " : "", syn);
	if (a ? argspec_accepts(a, c->argv, c->argc) : argspec_counts_decide(syn))
		return 0;
	char alt[256];
	int bad = argspec_match(syn, c->argv, c->argc, alt, sizeof alt);
	/* a first word no alternative takes is the handler's to name (its
	 * table of keywords, and what the user may have meant) */
	if (bad <= 0)
		return 0;
	/* say what does not fit: the word where the synopsis parts from the
	 * line, or that the line ends before it does */
	if (bad < c->argc)
		return cli_error_at(s, c->cols[bad], "%s: unexpected '%s' (usage: %s)",
				    name, c->argv[bad], alt);
	return cli_error_at(s, c->cols[c->argc - 1], "%s: missing words after '%s' "
			    "(usage: %s)", name, c->argv[c->argc - 1], alt);
}

int cmd_check_words(struct session *s, const char *name, const char *syn,
		    int min, int max, const char *prefix, const struct cmd_call *c)
{
	return check_words(s, name, syn, NULL, min, max, prefix, c);
}

int cmd_check_args(struct session *s, const struct cmd_entry *e,
		   const struct cmd_call *c)
{
	if (c->tid >= 0 && e->sys && e->fn != c_syscall) {
		/* a command of its own that is a system call too (mkdir):
		 * as a thread's call it takes what the call's row says */
		char syn[256];
		int min, max;
		vfs_sys_synopsis(e->sys, syn, sizeof syn);
		vfs_sys_nwords(e->sys, &min, &max);
		return cmd_check_words(s, e->name, syn, min, max, "THREAD: ", c);
	}
	if (e->fn == c_syscall) {       /* the row's schema: vfs_call_parse */
		if (c->argc < e->min_args || (e->max_args >= 0 && c->argc > e->max_args))
			return cli_error(s, "%s: %s arguments (usage: THREAD: %s %s)",
					 e->name, c->argc < e->min_args ? "missing" : "too many",
					 e->name, e->args);
		return 0;
	}
	return check_words(s, e->name, e->args, compiled[e - table], e->min_args,
			   e->max_args, e->flags & CMD_THREAD ? "THREAD: " : "", c);
}

/* Short names people type for a command. */
static const struct { const char *alias, *name; } aliases[] = {
	{ "q", "quit" }, { "?", "help" },
};

const struct cmd_entry *cmd_find(const char *name)
{
	cmd_table_init();
	/* (the first letter first: a line is looked up on every run, and
	 * under the fuzzer every strcmp is also recorded) */
	for (int i = 0; i < cmd_count; i++)
		if (cmd_table[i].name[0] == name[0] && !strcmp(cmd_table[i].name, name))
			return &cmd_table[i];
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (aliases[i].alias[0] == name[0] && !strcmp(aliases[i].alias, name))
			return cmd_find(aliases[i].name);
	return NULL;
}

/* ---- names ---- */

/* The edit distance between A and B, or LIMIT when it is LIMIT or more:
 * a row whose every cell has reached LIMIT cannot lead to less (most
 * words typed wrong are far from every command: two or three rows). */
static int lev(const char *a, const char *b, int limit)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	if (la > 40 || lb > 40)
		return limit;
	int d[41][41];
	for (int i = 0; i <= la; i++)
		d[i][0] = i;
	for (int j = 0; j <= lb; j++)
		d[0][j] = j;
	for (int i = 1; i <= la; i++) {
		int low = d[i][0];
		for (int j = 1; j <= lb; j++) {
			int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < c)
				c = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < c)
				c = d[i][j - 1] + 1;
			d[i][j] = c;
			if (c < low)
				low = c;
		}
		if (low >= limit)
			return limit;
	}
	return d[la][lb] < limit ? d[la][lb] : limit;
}

const char *did_you_mean(const char *word, const char *const *cands, int n)
{
	const char *best = NULL;
	/* two edits for a long word, one for a short one ("v9.9" is not "v4.6") */
	size_t lw = strlen(word);
	int bd = lw > 4 ? 3 : 2;
	for (int i = 0; i < n; i++) {
		size_t lc = strlen(cands[i]);
		int d;
		if (lw >= 2 && word[0] == cands[i][0] && !strncmp(word, cands[i], lw))
			d = 1;
		else if ((lw > lc ? lw - lc : lc - lw) >= (size_t)bd)
			continue;       /* at least that many edits: no better */
		else
			d = lev(word, cands[i], bd);
		if (d < bd) {
			bd = d;
			best = cands[i];
		}
	}
	return best;
}

int cli_unknown(struct session *s, const char *what, const char *word,
		const char *const *cands, int n, const char *hint)
{
	return cli_unknown_at(s, 0, what, word, cands, n, hint);
}

int cli_unknown_at(struct session *s, int col, const char *what, const char *word,
		   const char *const *cands, int n, const char *hint)
{
	const char *sug = did_you_mean(word, cands, n);
	if (sug)
		return cli_error_on(s, 0, col, "%s '%s' (did you mean '%s'?)", what,
				    word, sug);
	if (hint)
		return cli_error_on(s, 0, col, "%s '%s' (%s)", what, word, hint);
	return cli_error_on(s, 0, col, "%s '%s'", what, word);
}

/* The one diagnostic of a place in a script: FILE:LINE: (the command's
 * line, or LINE), then "column C: " when COLUMN (on the continuation
 * line it is on), then the message (cli_error). */
static int verror_on(struct session *s, int line, int col, bool column,
		     const char *fmt, va_list ap)
{
	char msg[1024];
	vsnprintf(msg, sizeof msg, fmt, ap);
	int was = s->line, k = s->ncont - 1;
	if (line > 0) {
		s->line = line;         /* an earlier line: a definition's step */
		k = 0;
	}
	while (k > 0 && (size_t)(col - 1) < s->cont_at[k])
		k--;
	if (k > 0) {            /* on a continuation line */
		s->line += k;
		col -= (int)s->cont_at[k];
	}
	if (column)
		cli_error(s, "column %d: %s", col, msg);
	else
		cli_error(s, "%s", msg);
	s->line = was;
	return -1;
}

int cli_error_on(struct session *s, int line, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror_on(s, line, col, col > 0, fmt, ap);
	va_end(ap);
	return -1;
}

int cli_error_at(struct session *s, int col, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verror_on(s, 0, col, true, fmt, ap);
	va_end(ap);
	return -1;
}

int cmd_names(const char **names, int max)
{
	int n = 0;
	cmd_table_init();
	for (int i = 0; i < cmd_count && n < max; i++)
		names[n++] = cmd_table[i].name;
	return n;
}

int parse_num(const char *s, long long *v)
{
	char *end;
	if (!*s)
		return -1;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return *end || errno ? -1 : 0;
}

int resolve_thread(struct session *s, const char *name, int *tid)
{
	int t = vfs_thread_by_name(s->w, name);
	if (t >= 0) {
		*tid = t;
		return 0;
	}
	const char *names[VFS_MAX_THREADS];
	char buf[VFS_MAX_THREADS][32];
	for (int i = 0; i < vfs_world_nthreads(s->w); i++) {
		vfs_thread_name(s->w, i, buf[i], sizeof buf[i]);
		names[i] = buf[i];
	}
	return cli_unknown(s, "unknown thread", name, names, vfs_world_nthreads(s->w),
			   "spawn it first");
}

int resolve_proc(struct session *s, const char *name, int *proc, int *pid)
{
	long long v;
	if (!parse_num(name, &v)) {
		*pid = (int)v;
		*proc = vfs_proc_by_pid(s->w, (int)v);
		return 0;               /* an unknown pid is the kernel's ESRCH */
	}
	int p = vfs_proc_by_name(s->w, name);
	if (p < 0) {
		const char *names[VFS_MAX_PROCS];
		for (int i = 0; i < vfs_world_nprocs(s->w); i++)
			names[i] = vfs_proc_name(s->w, i);
		return cli_unknown(s, "unknown process", name, names, vfs_world_nprocs(s->w),
				   NULL);
	}
	*proc = p;
	*pid = vfs_proc_pid(s->w, p);
	return 0;
}

int resolve_file(struct session *s, const char *name, int *file)
{
	long long v;
	if (!strncmp(name, "file#", 5)) {
		if (parse_num(name + 5, &v) < 0)
			return cli_error(s, "'%s': expected file#N", name);
		int f = v < 1 || v > INT_MAX ? -1 : vfs_file_by_id(s->w, (int)v);
		if (f < 0)
			return cli_error(s, "%s is not open (closed, or never opened)", name);
		*file = f;
		return 0;
	}
	const char *colon = strchr(name, ':');
	if (!colon)
		return cli_error(s, "'%s': a file is file#N or PROC:FD", name);
	char pn[64];
	snprintf(pn, sizeof pn, "%.*s", (int)(colon - name), name);
	int proc, pid;
	if (resolve_proc(s, pn, &proc, &pid) < 0)
		return -1;
	if (proc < 0)
		return cli_error(s, "no process with pid %s", pn);
	if (parse_num(colon + 1, &v) < 0)
		return cli_error(s, "'%s': the descriptor must be a number", name);
	int f = v < 0 || v > INT_MAX ? -1 : vfs_fd_file(s->w, proc, (int)v);
	if (f < 0)
		return cli_error(s, "%s: descriptor %lld is not open", pn, v);
	*file = f;
	return 0;
}

/* ---- help ---- */

static const struct { const char *id, *title; } groups[] = {
	{ "world", "Setting up the world (instant, not traced)" },
	{ "thread", "Things a thread does: THREAD: CALL [&] (traced, they take locks)" },
	{ "run", "Running pending calls" },
	{ "look", "Looking" },
	{ "check", "Checking" },
	{ "explore", "Exploring and comparing" },
	{ "picture", "Pictures and exports" },
	{ "script", "Scripts" },
};

/* The commands in help's order, group by group; title[i] is the group's
 * title at its first command, else NULL.  Their number. */
static int cmd_in_order(const struct cmd_entry **v, const char **title)
{
	int n = 0;
	cmd_table_init();
	for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
		const char *t = groups[g].title;
		for (int i = 0; i < cmd_count; i++)
			if (!strcmp(cmd_table[i].group, groups[g].id)) {
				v[n] = &cmd_table[i];
				title[n++] = t;
				t = NULL;
			}
	}
	return n;
}

void cmd_help_list(struct session *s)
{
	const struct cmd_entry *v[NBASE + SYS__COUNT];
	const char *title[NBASE + SYS__COUNT];
	int n = cmd_in_order(v, title);
	for (int i = 0; i < n; i++) {
		if (title[i])
			out(s, "%s%s%s\n", color_on(s, "\033[1m"), title[i], color_off(s));
		char syn[256];
		snprintf(syn, sizeof syn, "%s %s", v[i]->name, v[i]->args);
		if (strlen(syn) > 34)   /* a long synopsis: its help below */
			out(s, "  %s\n  %-34s %s\n", syn, "", v[i]->help);
		else
			out(s, "  %-34s %s\n", syn, v[i]->help);
	}
	out(s, "'help COMMAND' says more; 'help race', 'help f_pos_lock', ... explain the\n"
	       "ideas, 'apropos WORD' finds them. The workshop's lessons: 'lessons' lists\n"
	       "them, 'lessons 1' loads the first (examples/01-first-steps.vfs).\n");
}

/* The man page's command list, from the table. */
void cmd_print_mdoc(FILE *f)
{
	const struct cmd_entry *v[NBASE + SYS__COUNT];
	const char *title[NBASE + SYS__COUNT];
	int n = cmd_in_order(v, title);
	for (int i = 0; i < n; i++) {
		if (title[i]) {
			if (i)
				fputs(".El\n", f);
			mdoc_title(f, title[i]);
			fputs(".Bl -tag -width Ds\n", f);
		}
		fprintf(f, ".It Ic %s", v[i]->name);
		mdoc_args(f, v[i]->args);       /* mdoc.c */
		fputc('\n', f);
		mdoc_sentence(f, v[i]->help);
	}
	if (n)
		fputs(".El\n", f);
}
