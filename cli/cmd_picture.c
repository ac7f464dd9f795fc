/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_picture.c - `export FORMAT FILE`: the trace written for other
 * programs (a browser, Perfetto, Graphviz, jq), a format a row of
 * export_formats.  Each format lives in cli/export_*.c; `timeline` is in
 * cli/timeline.c.
 */
#include <errno.h>
#include <string.h>
#include "commands.h"
#include "picture.h"
#include "vfs_trace.h"
#include "vfs_detect.h"

int export_jsonl(struct session *s, FILE *f)
{
	char buf[1024];
	for (size_t i = 0; i < s->nev; i++) {
		vfs_event_jsonl(s->w, &s->ev[i], buf, sizeof buf);
		fprintf(f, "%s\n", buf);
	}
	return 0;
}

/* the title: TITLE..., or the file's name without .html */
static int write_html(struct session *s, FILE *f, const char *path, int nt,
		      char *const *tw)
{
	char title[256];
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (nt) {
		size_t o = 0;
		title[0] = 0;
		for (int i = 0; i < nt && o < sizeof title; i++)
			o += (size_t)snprintf(title + o, sizeof title - o, "%s%s",
					      i ? " " : "", tw[i]);
	} else {
		snprintf(title, sizeof title, "%s", base);
		char *dot = strrchr(title, '.');
		if (dot && dot != title && (!strcmp(dot, ".html") || !strcmp(dot, ".htm")))
			*dot = 0;
	}
	return export_html(s, f, title);
}

#define UNTITLED(fn) \
	static int write_##fn(struct session *s, FILE *f, const char *path, int nt, \
			      char *const *tw) \
	{ (void)path; (void)nt; (void)tw; return export_##fn(s, f); }
UNTITLED(chrome)
UNTITLED(dot)
UNTITLED(jsonl)

/* The formats `export` writes: the command's synopsis, its help, its
 * completion and the drift test (vfsim --tables) read this table. */
const struct export_format export_formats[] = {
	{ "html", "a self-contained timeline page",
	  "one self-contained page, the timeline with threads as lanes, lock holds\n"
	  "  and waits, wake-ups and the detectors' reports (for a projector); its\n"
	  "  TITLE (default: the file's name)", true, write_html },
	{ "chrome", "Chrome trace event JSON (Perfetto, chrome://tracing)",
	  "Chrome trace event JSON (open in ui.perfetto.dev): calls and kernel\n"
	  "  functions as nested slices, a track per lock, wake-ups as flows; 1 step\n"
	  "  is 1 microsecond", false, write_chrome },
	{ "dot", "the lock-order graph (Graphviz)",
	  "the lock-order graph (dot -Tsvg FILE), inversions in red", false, write_dot },
	{ "jsonl", "the trace, one JSON event a line",
	  "one trace event a line (jq)", false, write_jsonl },
};
const int export_nformats = sizeof export_formats / sizeof export_formats[0];

HANDLER(c_export)
{
	const char *fmt = c->argv[0], *path = c->argc > 1 ? c->argv[1] : NULL;
	const struct export_format *x = NULL;
	const char *names[16];
	char list[128];
	size_t o = 0;
	for (int i = 0; i < export_nformats; i++) {
		names[i] = export_formats[i].name;
		if (!strcmp(fmt, names[i]))
			x = &export_formats[i];
		o += (size_t)snprintf(list + o, sizeof list - o, "%s%s",
				      !i ? "" : i + 1 < export_nformats ? ", " : " or ", names[i]);
	}
	if (!x) {
		const char *sug = did_you_mean(fmt, names, export_nformats);
		return cli_error(s, "export: '%s' is not a format: %s%s%s%s", fmt, list,
				 sug ? " (did you mean '" : "", sug ? sug : "", sug ? "'?)" : "");
	}
	if (c->argc > 2 && !x->titled) {
		const char *t = "";
		for (int i = 0; i < export_nformats && !*t; i++)
			t = export_formats[i].titled ? export_formats[i].name : "";
		return cli_error(s, "export %s FILE: one file, nothing after it (only %s "
				 "takes a TITLE)", fmt, t);
	}
	if (!path)
		return cli_error(s, "export %s FILE: which file? ('-' for the standard "
				 "output)", fmt);
	if (s->replaying)
		return 0;
	bool to_stdout = !strcmp(path, "-");
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	if (!f)
		return cli_error(s, "export: cannot write %s: %s", path, strerror(errno));
	int rc = x->write(s, f, path, c->argc > 2 ? c->argc - 2 : 0, c->argv + 2);
	if (to_stdout) {
		fflush(f);
	} else if (fclose(f) != 0 && rc == 0) {
		return cli_error(s, "export: writing %s: %s", path, strerror(errno));
	}
	if (rc < 0)
		return -1;
	if (!to_stdout && !s->quiet && !s->silent)
		out(s, "wrote %s: %s (%zu events%s)\n", path, x->what, s->nev,
		    s->ev_dropped ? ", later ones were not kept" : "");
	return 0;
}

/* export's synopsis and long help, from its formats' table */
void export_make(struct cmd_entry *e)
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
	e->args = syn;
	e->long_help = help;
}
