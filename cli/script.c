/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * script.c - the one reader of command lines: physical lines joined over a
 * trailing `\` into one command (the backslash becomes a blank, a comment
 * never continues: lex_continues), with the physical line each command
 * began on and where each of its lines begins in it, so that an error says
 * FILE:LINE of the line it is on (cli_error_at), through nested `source`.
 * Scripts, standard input, `compare FILE` and the prompt all read here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* *BUF grown to CAP bytes: -1 when out of memory (*BUF kept). */
static int grow(char **buf, size_t *cap, size_t n)
{
	char *b = realloc(*buf, n);
	if (!b)
		return -1;
	*buf = b;
	*cap = n;
	return 0;
}

/* One line of `in` with its newline, NUL-terminated, into *buf: its length
 * in bytes, -1 at the end of the file, -2 when it is longer than
 * CLI_MAX_LINE (a line that long is reported rather than read whole:
 * `source /dev/zero`), -3 out of memory. */
ssize_t cli_read_line(char **buf, size_t *cap, FILE *in)
{
	size_t n = 0;
	int ch = EOF;
	if (!*cap && grow(buf, cap, 256) < 0)
		return -3;
	while (n <= CLI_MAX_LINE && (ch = getc(in)) != EOF) {
		if (n + 2 > *cap && grow(buf, cap, *cap * 2) < 0)
			return -3;
		(*buf)[n++] = (char)ch;
		if (ch == '\n')
			break;
	}
	(*buf)[n] = 0;
	if (n > CLI_MAX_LINE)
		return -2;
	return n || ch != EOF ? (ssize_t)n : -1;
}

void line_join_reset(struct line_join *j)
{
	j->len = 0;
	j->nconts = 0;
}

int line_join_add(struct line_join *j, const char *part)
{
	size_t len = strlen(part);
	while (len && (part[len - 1] == '\n' || part[len - 1] == '\r'))
		len--;
	int more = lex_continues(part);
	if (j->len + len > CLI_MAX_LINE)
		return -1;
	if (j->nconts == j->capconts) {
		int cap = j->capconts ? j->capconts * 2 : 8;
		size_t *c = realloc(j->conts, sizeof *c * (size_t)cap);
		if (!c)
			return -2;
		j->conts = c;
		j->capconts = cap;
	}
	char *t = realloc(j->text, j->len + len + 1);
	if (!t)
		return -2;
	j->text = t;
	j->conts[j->nconts++] = j->len;
	memcpy(j->text + j->len, part, len);
	j->len += len;
	j->text[j->len] = 0;
	if (more)               /* the backslash becomes a blank, as at the prompt */
		j->text[j->len - 1] = ' ';
	return more;
}

void line_join_free(struct line_join *j)
{
	free(j->text);
	free(j->conts);
	memset(j, 0, sizeof *j);
}

void script_reader_init(struct script_reader *r, FILE *in, const char *name)
{
	memset(r, 0, sizeof *r);
	r->in = in;
	r->name = name;
}

void script_reader_free(struct script_reader *r)
{
	free(r->buf);
	line_join_free(&r->cmd);
}

int script_reader_next(struct script_reader *r)
{
	line_join_reset(&r->cmd);
	if (r->done)
		return 0;
	for (;;) {
		ssize_t n = cli_read_line(&r->buf, &r->cap, r->in);
		if (n == -3) {
			r->err = SR_NOMEM;
			r->start = r->lineno + 1;
			return -1;
		}
		if (n == -2) {
			r->err = SR_TOO_LONG;
			r->start = r->lineno + 1;
			return -1;
		}
		if (n >= 0 && strlen(r->buf) != (size_t)n) {
			r->err = SR_NUL;
			r->start = r->lineno + 1;
			r->col = strlen(r->buf) + 1;
			return -1;
		}
		if (n == -1) {
			r->done = 1;
			if (ferror(r->in)) {
				r->err = SR_READ;
				r->errnum = errno;
				r->start = r->lineno + 1;
				return -1;
			}
			/* a last line that ends in a backslash runs as it is */
			return r->cmd.nconts ? 1 : 0;
		}
		r->lineno++;
		if (!r->cmd.nconts)
			r->start = r->lineno;
		int more = line_join_add(&r->cmd, r->buf);
		if (more < 0) {
			r->err = more == -2 ? SR_NOMEM : SR_CONT_TOO_LONG;
			return -1;
		}
		if (!more)
			return 1;
	}
}

int script_reader_error(struct session *s, const struct script_reader *r)
{
	s->file = r->name;
	s->line = r->start;
	switch (r->err) {
	case SR_TOO_LONG:
		return cli_error(s, "line too long (more than %d bytes)", CLI_MAX_LINE);
	case SR_CONT_TOO_LONG:
		return cli_error(s, "line too long (more than %d bytes with its "
				 "continuations)", CLI_MAX_LINE);
	case SR_NOMEM:
		return cli_errno(s, NULL, NULL, -VE_NOMEM);
	case SR_NUL:
		return cli_error(s, "column %zu: a NUL byte (not a text file?)", r->col);
	default:
		return cli_error(s, "cannot read '%s': %s", r->name, errno_text(r->errnum));
	}
}

int script_reader_exec(struct session *s, const struct script_reader *r)
{
	const size_t *ocont = s->cont_at;
	int oncont = s->ncont;
	s->file = r->name;
	s->line = r->start;
	s->cont_at = r->cmd.conts;
	s->ncont = r->cmd.nconts;
	int rc = session_exec_line(s, r->cmd.text);
	s->cont_at = ocont;
	s->ncont = oncont;
	return rc;
}
