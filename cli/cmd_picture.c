/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_picture.c - `export html|chrome|dot|jsonl FILE`: the trace written
 * for other programs (a browser, Perfetto, Graphviz, jq).  Each format
 * lives in cli/export_*.c; `timeline` is in cli/timeline.c.
 */
#include <errno.h>
#include <string.h>
#include "commands.h"
#include "picture.h"

int export_jsonl(struct session *s, FILE *f)
{
	char buf[1024];
	for (size_t i = 0; i < s->nev; i++) {
		vfs_event_jsonl(s->w, &s->ev[i], buf, sizeof buf);
		fprintf(f, "%s\n", buf);
	}
	return 0;
}

static const struct {
	const char *name;
	const char *what;
} formats[] = {
	{ "html", "a self-contained timeline page" },
	{ "chrome", "Chrome trace event JSON (Perfetto, chrome://tracing)" },
	{ "dot", "the lock-order graph (Graphviz)" },
	{ "jsonl", "the trace, one JSON event a line" },
};

HANDLER(c_export)
{
	const char *fmt = c->argv[0], *path = c->argc > 1 ? c->argv[1] : NULL;
	int k = -1;
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
		if (!strcmp(fmt, formats[i].name))
			k = (int)i;
	if (k < 0) {
		const char *names[] = { "html", "chrome", "dot", "jsonl" };
		const char *sug = did_you_mean(fmt, names, 4);
		return cli_error(s, "export: '%s' is not a format: html, chrome, dot or "
				 "jsonl%s%s%s", fmt, sug ? " (did you mean '" : "",
				 sug ? sug : "", sug ? "'?)" : "");
	}
	if (c->argc > 2 && k != 0)
		return cli_error(s, "export %s FILE: one file, nothing after it (only html "
				 "takes a TITLE)", fmt);
	if (!path)
		return cli_error(s, "export %s FILE: which file? ('-' for the standard "
				 "output)", fmt);
	if (s->replaying)
		return 0;
	bool to_stdout = !strcmp(path, "-");
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	if (!f)
		return cli_error(s, "export: cannot write %s: %s", path, strerror(errno));
	int rc;
	switch (k) {
	case 0: {
		/* the title: TITLE..., or the file's name without .html */
		char title[256];
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		if (c->argc > 2) {
			size_t o = 0;
			title[0] = 0;
			for (int i = 2; i < c->argc && o < sizeof title; i++)
				o += (size_t)snprintf(title + o, sizeof title - o, "%s%s",
						      i > 2 ? " " : "", c->argv[i]);
		} else {
			snprintf(title, sizeof title, "%s", base);
			char *dot = strrchr(title, '.');
			if (dot && dot != title && (!strcmp(dot, ".html") || !strcmp(dot, ".htm")))
				*dot = 0;
		}
		rc = export_html(s, f, title);
		break;
	}
	case 1: rc = export_chrome(s, f); break;
	case 2: rc = export_dot(s, f); break;
	default: rc = export_jsonl(s, f); break;
	}
	if (to_stdout) {
		fflush(f);
	} else if (fclose(f) != 0 && rc == 0) {
		return cli_error(s, "export: writing %s: %s", path, strerror(errno));
	}
	if (rc < 0)
		return -1;
	if (!to_stdout && !s->quiet && !s->silent)
		out(s, "wrote %s: %s (%zu events%s)\n", path, formats[k].what, s->nev,
		    s->ev_dropped ? ", later ones were not kept" : "");
	return 0;
}
