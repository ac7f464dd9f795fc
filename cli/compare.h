/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * compare.h - private to `compare` (cli/cmd_compare.c, cli/compare_script.c):
 * what a compared script is, a list of actions read from the session's log
 * or from a script file, and the readers that make it.
 */
#ifndef VFSIM_CLI_COMPARE_H
#define VFSIM_CLI_COMPARE_H

#include "cli.h"

enum act_kind { ACT_SETUP, ACT_CALL, ACT_STEP, ACT_UNTIL, ACT_SCHED, ACT_RUN };

struct act {
	int kind;
	char *text;             /* SETUP: the line; CALL: "A: getdents 3 2" */
	char thread[32];        /* CALL, STEP, UNTIL, RUN (empty: everyone) */
	int bg;                 /* CALL: started with & */
	long n;                 /* STEP, SCHED: how many */
	char fn[48];            /* UNTIL */
	int call;               /* CALL: its number among the calls */
};

struct script {
	struct act *a;
	int n, cap;
	int ncalls;
	int kernel_lines;       /* `kernel` lines replaced by the preset */
	char skipped[256];      /* commands that are not replayed */
	/* `define` ... `end`: inside a definition (its lines are set-up), and
	 * the system calls the script defined (a thread's command) */
	int in_define;
	char defined[VFS_MAX_KFNS][VFS_KFN_NAME_MAX];
	int ndefined;
};

/* The session's log (what `save` would write) as actions; the log's
 * `kernel` lines are counted, not kept. */
void compare_from_log(struct session *s, struct script *sc);
/* The script at PATH (its `source` lines followed, DEPTH deep so far) as
 * actions; -1 with the error said. */
int compare_from_file(struct session *s, struct script *sc, const char *path, int depth);
void compare_script_free(struct script *sc);

#endif
