/* SPDX-License-Identifier: GPL-2.0-or-later */
/* explore_cli.c - the shell's side of `explore` (the engine is core's). */
#include "explore_cli.h"

bool explore_cli_active(const struct session *s)
{
	return s->explore != NULL;
}

int explore_cli_count(const struct session *s, int kind, int field)
{
	(void)s; (void)kind; (void)field;
	return 0;
}

void explore_cli_forget(struct session *s)
{
	s->explore = NULL;
}
