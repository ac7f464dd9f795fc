/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * output.c - what the shell prints: colour, output folded to the screen's
 * width, terminal control bytes shown as \ooo, error messages with their
 * FILE:LINE.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "cli.h"

const char *color_on(struct session *s, const char *code)
{
	return s->color && !s->replaying ? code : "";
}

const char *color_off(struct session *s)
{
	return s->color && !s->replaying ? "\033[0m" : "";
}

/* FMT with AP: in SMALL (N bytes) when it fits, else allocated (free it
 * when it is not SMALL); cut short to SMALL when out of memory. */
static char *vformat(char *small, size_t n, const char *fmt, va_list ap)
{
	char *msg = small;
	va_list aq;
	va_copy(aq, ap);
	int len = vsnprintf(small, n, fmt, ap);
	if (len >= (int)n && (msg = malloc((size_t)len + 1)))
		vsnprintf(msg, (size_t)len + 1, fmt, aq);
	else if (len >= (int)n)
		msg = small;
	va_end(aq);
	return msg;
}

/*
 * Text that may hold names the user gave: the bytes a terminal would act on
 * (ESC, BEL, CR, ...: a name can set the window title or clear the screen)
 * are shown as \ooo, newlines and tabs kept. With colour on, vfsim's own
 * colour codes (ESC [ digits and ; m) pass.
 */
/* The errno of the first write to stdout that failed, for main's message:
 * the last flush may find nothing left to write, and no errno then. */
int cli_stdout_errno;

static void note_write(FILE *f)
{
	if (f == stdout && ferror(f) && !cli_stdout_errno)
		cli_stdout_errno = errno;
}

/* P with the bytes a terminal would act on escaped, in SMALL (N bytes)
 * or, when longer, in a new buffer the caller frees; NULL when out of
 * memory.  Its length in *LEN. */
static char *shown(const char *p, bool color, char *small, size_t n, size_t *len)
{
	char *buf = small;
	size_t cap = strlen(p) * 4 + 1, o = 0;
	if (cap > n && !(buf = malloc(cap)))
		return NULL;
	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == 033 && color && p[1] == '[') {
			size_t k = 2;
			while ((p[k] >= '0' && p[k] <= '9') || p[k] == ';')
				k++;
			if (p[k] == 'm') {
				memcpy(buf + o, p, k + 1);
				o += k + 1;
				p += k;
				continue;
			}
		}
		if ((c < 32 && c != '\n' && c != '\t') || c == 127)
			o += (size_t)snprintf(buf + o, cap - o, "\\%03o", c);
		else
			buf[o++] = (char)c;
	}
	buf[o] = 0;
	*len = o;
	return buf;
}

static void put_shown(FILE *f, const char *p, bool color)
{
	/* built whole, then one write: stderr is unbuffered */
	char small[1024];
	size_t o;
	char *buf = shown(p, color, small, sizeof small, &o);
	if (!buf) {
		fputs(p, f);            /* out of memory: as it is */
		return;
	}
	if (o) {
		fwrite(buf, 1, o, f);
		note_write(f);
	}
	if (buf != small)
		free(buf);
}

int cli_columns(struct session *s)
{
	static int tty = -1;    /* asked once: out() asks for every piece */
	struct winsize ws;
	if (s->width > 0)
		return s->width;
	if (s->term_cols > 0)
		return s->term_cols;
	if (tty < 0)
		tty = isatty(1);
	if (tty && ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 0;
}

int cli_rows(void)
{
	struct winsize ws;
	if (isatty(0) && isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0)
		return ws.ws_row;
	return 0;
}

static FILE *human(struct session *s)
{
	return s->human_err ? stderr : stdout;
}

/* Columns of UTF-8 text on a terminal: escape sequences take none. */
static int text_width(const char *t, size_t n, size_t *cut, int max)
{
	int w = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)t[i];
		if (ch == 033) {                /* ESC [ ... letter */
			while (i + 1 < n && !((t[i + 1] >= 'A' && t[i + 1] <= 'Z') ||
					      (t[i + 1] >= 'a' && t[i + 1] <= 'z')))
				i++;
			i++;
			continue;
		}
		if ((ch & 0xc0) == 0x80)
			continue;
		if (cut && w == max) {
			*cut = i;       /* more follows: wider than max */
			return w + 1;
		}
		w += ch == '\t' ? 8 - w % 8 : 1;
	}
	if (cut)
		*cut = n;
	return w;
}

/* One whole line, folded to the screen: at a blank where there is one.
 * The continuation starts under the line's last column in the left half
 * (text after two blanks: a table's or `help`'s last column), else under
 * the line's own indent plus four. */
static void put_folded(struct session *s, char *line, size_t n, int cols)
{
	FILE *f = human(s);
	size_t ind = 0;
	while (ind < n && line[ind] == ' ')
		ind++;
	int cont = (int)ind + 4 < cols / 2 ? (int)ind + 4 : cols / 2;
	for (size_t i = ind + 2; i < n; i++) {
		if (line[i] != ' ' && line[i - 1] == ' ' && line[i - 2] == ' ') {
			int at = text_width(line, i, NULL, 0);
			if (at >= cols / 2)
				break;
			cont = at;
		}
	}
	int first = 1;
	while (n) {
		int room = first ? cols : cols - cont;
		size_t cut;
		if (text_width(line, n, &cut, room) <= room) {
			cut = n;
		} else {
			size_t b = cut;
			while (b > (first ? ind : 0) + 1 && line[b] != ' ')
				b--;
			if (line[b] == ' ' && b > (first ? ind : 0))
				cut = b;
		}
		if (!first)
			fprintf(f, "%*s", cont, "");
		char keep = line[cut];
		line[cut] = 0;          /* a piece, control bytes shown as \ooo */
		put_shown(f, line, s->color);
		line[cut] = keep;
		fputc('\n', f);
		note_write(f);
		while (cut < n && line[cut] == ' ')
			cut++;
		line += cut;
		n -= cut;
		first = 0;
	}
}

void out_flush(struct session *s)
{
	if (s->olen) {
		s->obuf[s->olen] = 0;   /* room kept: ocap > olen */
		put_shown(human(s), s->obuf, s->color);
		s->olen = 0;
	}
}

void out(struct session *s, const char *fmt, ...)
{
	va_list ap;
	if (s->replaying || s->silent)
		return;
	int cols = cli_columns(s);
	char small[512];
	va_start(ap, fmt);
	char *msg = vformat(small, sizeof small, fmt, ap);
	va_end(ap);
	if (cols <= 0) {                /* whole lines, as they come */
		out_flush(s);
		put_shown(human(s), msg, s->color);
	} else {
		for (const char *p = msg; *p;) {
			const char *nl = strchr(p, '\n');
			size_t len = nl ? (size_t)(nl - p) : strlen(p);
			char *b = NULL;
			if (!s->oraw && s->olen + len + 1 > s->ocap &&
			    (b = realloc(s->obuf, (s->olen + len + 1) * 2))) {
				s->obuf = b;
				s->ocap = (s->olen + len + 1) * 2;
			}
			if (s->oraw || s->olen + len + 1 > s->ocap) {
				/* out of memory: this line goes out as it is,
				 * unfolded, up to its newline (nothing is lost) */
				out_flush(s);
				s->oraw = !nl;
				if (!nl) {
					put_shown(human(s), p, s->color);
					break;
				}
				msg[nl - msg] = 0;      /* (msg is ours) */
				put_shown(human(s), p, s->color);
				msg[nl - msg] = '\n';
				fputc('\n', human(s));
				p = nl + 1;
				continue;
			}
			memcpy(s->obuf + s->olen, p, len);
			s->olen += len;
			if (!nl)
				break;
			put_folded(s, s->obuf, s->olen, cols);
			s->olen = 0;
			p = nl + 1;
		}
	}
	if (msg != small)
		free(msg);
}

void cli_vmessage(struct session *s, const char *label, const char *fmt, va_list ap)
{
	out_flush(s);
	fflush(stdout);
	char line[24] = "";     /* FILE:LINE: whatever FILE's length */
	if (s->file)
		snprintf(line, sizeof line, ":%d: ", s->line);
	/* one clear line on the terminal, whatever the typed words held;
	 * one write (stderr is unbuffered), so that lines from two
	 * processes sharing a terminal or a log do not interleave */
	char small[512], *msg = vformat(small, sizeof small, fmt, ap);
	char esc[1024];
	size_t n;
	char *e = shown(msg, false, esc, sizeof esc, &n);
	fprintf(stderr, "%s%s%s%s%s%s%s\n", s->file ? s->file : "", line,
		label && s->color ? "\033[1;31m" : "", label ? label : "",
		label && s->color ? "\033[0m" : "", label ? " " : "",
		e ? e : msg);
	if (e && e != esc)
		free(e);
	if (msg != small)
		free(msg);
}

int cli_errno(struct session *s, const char *what, const char *arg, int err)
{
	char limit[96];
	const char *why;
	switch (-err) {
	case VE_NOMEM:
		if (s->remaking) {      /* (reset says it: session_remade) */
			s->nomem = 1;
			return -1;
		}
		if (s->watch) {         /* (the watcher says it: compare) */
			s->watch->nomem = 1;
			return -1;
		}
		why = "out of memory";
		break;
	case VE_EXIST:  why = "already exists"; break;
	case VE_NOENT:  why = "no such directory"; break;
	case VE_NOTDIR: why = "not a directory"; break;
	case VE_NOSPC:
		snprintf(limit, sizeof limit, "too many inodes (at most %d)", VFS_MAX_INODES);
		why = limit;
		break;
	case VE_NAMETOOLONG:
		snprintf(limit, sizeof limit, "name too long (at most %d bytes a name, "
			 "%d a path)", VFS_NAME_MAX - 1, VFS_PATH_MAX - 1);
		why = limit;
		break;
	default:
		why = vfs_errno_name(-err) ? vfs_errno_name(-err) : "failed";
	}
	if (!what)
		return cli_error(s, "%s", why);
	return arg ? cli_error(s, "%s %s: %s", what, arg, why) :
		     cli_error(s, "%s: %s", what, why);
}

void cli_warning(struct session *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	cli_vmessage(s, "warning:", fmt, ap);
	va_end(ap);
}

int cli_error(struct session *s, const char *fmt, ...)
{
	if (s->replaying) {
		/* a line the log kept failed when replayed: the memory it
		 * needed is lacking; session_replay keeps the world it had */
		s->nomem = 1;
		return -1;
	}
	va_list ap;
	va_start(ap, fmt);
	cli_vmessage(s, s->file ? NULL : "vfsim:", fmt, ap);
	va_end(ap);
	if (s->file)
		s->errors = 1;
	return -1;
}
