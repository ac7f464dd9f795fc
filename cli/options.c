/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * options.c - vfsim's command-line options, one table (main.c parses and
 * prints usage from it; `vfsim --tables` lists it for the tests).
 */
#include "cli.h"

/* The options: getopt's lists, usage(), `vfsim --tables` (vfsim(1)'s
 * OPTIONS and the bash completion are checked against it: tests/cli/
 * options.sh).  The words an option's argument takes are a table too. */
static const struct cli_word trace_words[] = {
	{ "text", TRACE_TEXT }, { "steps", TRACE_STEPS }, { "jsonl", TRACE_JSONL },
	{ NULL, 0 } };
static const struct cli_word color_words[] = {
	{ "auto", -1 }, { "always", 1 }, { "never", 0 }, { NULL, 0 } };

const struct cli_option cli_options[] = {
	{ NULL, 'k', "PRESET", 'k', NULL, CLI_OPT_SYNOPSIS,
	  "start with this kernel preset (default v6.5; 'kernel list')" },
	{ NULL, 'c', "COMMAND", 'c', NULL, CLI_OPT_SYNOPSIS | CLI_OPT_REPEAT,
	  "run COMMAND after the scripts (repeatable)" },
	{ NULL, 'i', NULL, 'i', NULL, CLI_OPT_SYNOPSIS,
	  "enter the prompt after the scripts and commands" },
	{ "check", 0, NULL, OPT_CHECK, NULL, CLI_OPT_SYNOPSIS,
	  "run each SCRIPT as a test in a fresh world: PASS or FAIL" },
	{ "tap", 0, NULL, OPT_TAP, NULL, 0,
	  "with --check: the results as TAP (1..N, ok/not ok)" },
	{ "trace", 0, "FORMAT", OPT_TRACE, trace_words, CLI_OPT_SYNOPSIS | CLI_OPT_BREAK,
	  "print every trace event as it happens (text, steps: text\n"
	  "with the step's FUNCTION:STEP, or jsonl); with jsonl,\n"
	  "stdout has only JSON lines (the rest: stderr)" },
	{ NULL, 'q', NULL, 'q', NULL, CLI_OPT_SYNOPSIS | CLI_OPT_BREAK,
	  "quiet: no banner and no result lines (with -c 'export\n"
	  "FORMAT -', the other lines go to stderr)" },
	{ "width", 0, "N", OPT_WIDTH, NULL, 0,
	  "fold output to N columns (default: the terminal's)" },
	{ "no-pager", 0, NULL, OPT_NO_PAGER, NULL, 0,
	  "never page long output (paged only on a terminal, $PAGER)" },
	{ "color", 0, "WHEN", OPT_COLOR, color_words, CLI_OPT_SYNOPSIS,
	  "auto (a terminal, without NO_COLOR), always or never" },
	{ "colour", 0, "WHEN", OPT_COLOR, color_words, CLI_OPT_HIDDEN, NULL },
	{ "version", 0, NULL, OPT_VERSION, NULL, 0, "" },
	{ "help", 'h', NULL, OPT_HELP, NULL, 0, "" },
	/* for the tests and the man pages */
	{ "commands-mdoc", 0, NULL, OPT_MDOC, NULL, CLI_OPT_HIDDEN, NULL },
	{ "conditions-mdoc", 0, NULL, OPT_CONDS_MDOC, NULL, CLI_OPT_HIDDEN, NULL },
	{ "tables", 0, NULL, OPT_TABLES, NULL, CLI_OPT_HIDDEN, NULL },
	{ "complete", 0, "LINE", OPT_COMPLETE, NULL, CLI_OPT_HIDDEN, NULL },
};
const int cli_noptions = sizeof cli_options / sizeof cli_options[0];
_Static_assert(sizeof cli_options / sizeof cli_options[0] <= CLI_MAX_OPTIONS,
	       "main.c's getopt lists are CLI_MAX_OPTIONS long");
