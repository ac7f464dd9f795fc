/* SPDX-License-Identifier: GPL-2.0-or-later */
/* explore_cli.h - what `expect` asks of the last `explore`. */
#ifndef VFSIM_EXPLORE_CLI_H
#define VFSIM_EXPLORE_CLI_H
#include "cli.h"
/* Whether the conditions refer to the last explore's executions. */
bool explore_cli_active(const struct session *s);
/* Executions (of the last explore) with a report of this kind; -1 when
 * unknown (explore stopped at a violation of another kind).  DK_OVERFLOW:
 * those in which a detector's table filled (its verdicts are refused). */
int explore_cli_count(const struct session *s, int kind, int field);
/* The limits whose tables filled in the last explore, named with their
 * values ("too many directory passes (limit 16)"), into BUF. */
void explore_cli_limits(const struct session *s, char *buf, size_t n);
/* Why the last explore is not a proof (its first line), or NULL. */
const char *explore_cli_partial(const struct session *s);
/* --tables: "xoption NAME N|-", each option explore takes (its engines'
 * words, and those followed by a number): what its synopsis, its refusal
 * of an unknown option and vfsim(5) list (tests/cli/tables.sh) */
void explore_cli_options(FILE *f);
/* Forget the last explore (the world moved on). */
void explore_cli_forget(struct session *s);
#endif
