/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd_lessons.c - `lessons`: list the workshop's lessons (examples/NN-*.vfs)
 * with their first comment line; `lessons N` loads lesson N into a fresh
 * world, as `source` would.
 *
 * The directory is $VFSIM_EXAMPLES, else examples/ next to the source tree
 * the binary was built in (build/vfsim, build/asan/vfsim, ...), else the
 * installed $(PREFIX)/share/vfsim/examples next to $(PREFIX)/bin/vfsim,
 * else ./examples.
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "commands.h"
#include "lineedit.h"

#define MAX_LESSONS 100

static int is_dir(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Fills dir; 0, or -1 when no examples directory is found. */
int lessons_dir(char *dir, size_t n);
int lessons_dir(char *dir, size_t n)
{
	const char *env = getenv("VFSIM_EXAMPLES");
	if (env && *env) {
		snprintf(dir, n, "%s", env);
		return is_dir(dir) ? 0 : -1;
	}
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		exe[len] = 0;
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		static const char *const rel[] = { "../examples", "../../examples",
						   "../share/vfsim/examples" };
		for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
			char cand[PATH_MAX + 32], real[PATH_MAX];
			snprintf(cand, sizeof cand, "%s/%s", exe, rel[i]);
			if (is_dir(cand)) {
				snprintf(dir, n, "%s", realpath(cand, real) ? real : cand);
				return 0;
			}
		}
	}
	snprintf(dir, n, "examples");
	return is_dir(dir) ? 0 : -1;
}

struct lesson { int num; char name[128]; };

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct lesson *)a)->name, ((const struct lesson *)b)->name);
}

static int list(const char *dir, struct lesson *ls)
{
	DIR *d = opendir(dir);
	int n = 0;
	if (!d)
		return 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < MAX_LESSONS) {
		size_t len = strlen(e->d_name);
		if (len < 8 || len >= sizeof ls[n].name || strcmp(e->d_name + len - 4, ".vfs") ||
		    !(e->d_name[0] >= '0' && e->d_name[0] <= '9') ||
		    !(e->d_name[1] >= '0' && e->d_name[1] <= '9') || e->d_name[2] != '-')
			continue;
		ls[n].num = (e->d_name[0] - '0') * 10 + (e->d_name[1] - '0');
		snprintf(ls[n].name, sizeof ls[n].name, "%s", e->d_name);
		n++;
	}
	closedir(d);
	qsort(ls, (size_t)n, sizeof *ls, by_name);
	return n;
}

int lessons_names(char names[][128], int max)
{
	char dir[PATH_MAX];
	struct lesson ls[MAX_LESSONS];
	if (lessons_dir(dir, sizeof dir) < 0)
		return 0;
	int n = list(dir, ls), k = 0;
	for (int i = 0; i < n && k + 2 <= max; i++) {
		snprintf(names[k++], 128, "%d", ls[i].num);
		/* the name without NN- and .vfs, as `lessons NAME` takes it */
		snprintf(names[k++], 128, "%.*s", (int)strlen(ls[i].name) - 7, ls[i].name + 3);
	}
	return k;
}

/* The first comment line of a lesson, without "# ". */
static void first_comment(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	buf[0] = 0;
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '#')
			continue;
		while (*p == '#' || *p == ' ')
			p++;
		p[strcspn(p, "\r\n")] = 0;
		if (!*p)
			continue;
		snprintf(buf, n, "%s", p);
		break;
	}
	fclose(f);
}

/* The lesson's opening comment block: what to watch, what to try next. */
static void print_header(struct session *s, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char line[512];
	while (fgets(line, sizeof line, f)) {
		char *p = line;
		if (*p != '#')
			break;
		p++;
		if (*p == ' ')
			p++;
		out(s, "%s%s", *p == '\n' ? "" : "   ", p);
		if (!strchr(p, '\n'))
			out(s, "\n");
	}
	fclose(f);
}

int lesson_pause(struct session *s)
{
	if (!s->interactive || !isatty(0) || s->silent)
		return 0;
	out_flush(s);
	fflush(stdout);
	char *line = le_readline("-- Enter: the next part, q: stop the lesson -- ");
	int stop = !line || !strcmp(line, "q") || !strcmp(line, "quit");
	free(line);
	if (stop)
		out(s, "== the lesson stops here; the world is as it left it\n");
	return stop;
}

/* `pause [TEXT]` in a script: TEXT, then Enter at a terminal. */
HANDLER(c_pause)
{
	for (int i = 0; i < c->argc; i++)
		out(s, "%s%s", i ? " " : "", c->argv[i]);
	if (c->argc)
		out(s, "\n");
	if (!s->interactive || !isatty(0) || s->silent)
		return 0;
	out_flush(s);
	fflush(stdout);
	free(le_readline("-- Enter to go on -- "));
	return 0;
}

const char c_lessons_help[] =
	"Lists examples/NN-*.vfs with the first line of each. 'lessons 1' loads\n"
	"lesson 1 into a fresh world (as 'source' would). Each lesson's comments\n"
	"(open the file beside the shell) say what to watch with 'trace on' and\n"
	"what to try next. The directory: $VFSIM_EXAMPLES, the source tree's\n"
	"examples/, or $(PREFIX)/share/vfsim/examples. 'lessons N step' runs it\n"
	"part by part: each command shown as it runs, Enter for the next part.";

HANDLER(c_lessons)
{
	char dir[PATH_MAX];
	struct lesson ls[MAX_LESSONS];
	if (lessons_dir(dir, sizeof dir) < 0)
		return cli_error(s, "lessons: no examples directory (set VFSIM_EXAMPLES, "
				 "or run vfsim from its source tree)");
	int n = list(dir, ls);
	if (!c->argc) {
		out(s, "Lessons in %s ('lessons N' loads one into a fresh world):\n", dir);
		for (int i = 0; i < n; i++) {
			char path[PATH_MAX + 130], what[200];
			snprintf(path, sizeof path, "%s/%s", dir, ls[i].name);
			first_comment(path, what, sizeof what);
			out(s, "  %2d  %s\n      %.92s\n", ls[i].num, ls[i].name, what);
		}
		if (!n)
			out(s, "  (none)\n");
		return 0;
	}
	const char *want = c->argv[0];
	bool stepping = c->argc > 1;
	if (stepping && strcmp(c->argv[1], "step"))
		return cli_error(s, "lessons N step: the second word is 'step', not '%s'",
				 c->argv[1]);
	long long num;
	int pick = -1;
	for (int i = 0; i < n && pick < 0; i++) {
		if (!parse_num(want, &num) ? ls[i].num == num :
		    !strncmp(ls[i].name + 3, want, strlen(want)) || !strcmp(ls[i].name, want))
			pick = i;
	}
	if (pick < 0)
		return cli_error(s, "lessons: no lesson '%s' ('lessons' lists them)", want);
	char path[PATH_MAX + 130];
	snprintf(path, sizeof path, "%s/%s", dir, ls[pick].name);
	/* a lesson builds its own world: start from an empty one */
	session_exec_line(s, "reset");
	/* examples/NN-NAME.vfs: the lesson, wherever the directory is */
	const char *base = strrchr(dir, '/');
	out(s, "%s== lesson %d: %s/%s%s\n", color_on(s, "\033[1m"), ls[pick].num,
	    base ? base + 1 : dir, ls[pick].name, color_off(s));
	print_header(s, path);
	out(s, "%s== running it%s:%s\n", color_on(s, "\033[1m"), stepping ?
	    " part by part, each command shown" : "", color_off(s));
	int outer = s->lesson_step;
	if (stepping)
		s->lesson_step = s->depth + 1;  /* the lesson's own lines, not nested */
	int r = session_source(s, path);
	s->lesson_step = outer;
	if (r == 0 && !s->failed) {
		if (pick + 1 < n)
			out(s, "== lesson %d done; the world is yours to poke at ('where', 'locks', "
			    "'trace show'),\n   or 'lessons %d' for the next.\n", ls[pick].num,
			    ls[pick + 1].num);
		else
			out(s, "== lesson %d done: the last one.\n", ls[pick].num);
	}
	return r;
}
