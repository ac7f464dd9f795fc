/* lineedit.c: see lineedit.h.
 *
 * Ctrl-C at the prompt: the SIGINT handler only sets le_interrupted. Input is
 * read through our own getc (rl_getc_function, honoured by readline and by
 * libedit), which waits with pselect so that a SIGINT cannot slip in between
 * the flag test and the wait. On Ctrl-C it makes the editor accept the line
 * and le_readline hands back "" instead.
 *
 * The history file is plain text, one entry a line, written by this file for
 * all three editors (so the readline and libedit builds share it; libedit's
 * own format would not be readable by readline).
 */
#include "lineedit.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(VFSIM_LINEEDIT_READLINE)
#include <readline/readline.h>
#include <readline/history.h>
#define LE_NAME "readline"
#define LE_EDITOR 1
#elif defined(VFSIM_LINEEDIT_LIBEDIT)
#include <editline/readline.h>
#define LE_NAME "libedit"
#define LE_EDITOR 1
#elif defined(VFSIM_LINEEDIT_NONE)
#define LE_NAME "none"
#define LE_EDITOR 0
#else
#error "define VFSIM_LINEEDIT_READLINE, VFSIM_LINEEDIT_LIBEDIT or VFSIM_LINEEDIT_NONE"
#endif

enum { LE_HISTORY_MAX = 1000 };

volatile sig_atomic_t le_interrupted;

static int le_tty;                  /* interactive mode */
static char *le_hist;               /* history file, or NULL */
static char *le_last;               /* the previous history entry */

const char *le_name(void) { return LE_NAME; }

static void le_on_sigint(int sig)
{
    (void)sig;
    le_interrupted = 1;
}

void le_install_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = le_on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;                /* no SA_RESTART: a blocked read must wake */
    sigaction(SIGINT, &sa, NULL);
}

/* Wait until fd is readable. Returns 0 if Ctrl-C came first (the flag is
 * consumed), 1 when there is input (or an error for read to report). */
static int le_wait(int fd)
{
    sigset_t intr, old;
    sigemptyset(&intr);
    sigaddset(&intr, SIGINT);
    pthread_sigmask(SIG_BLOCK, &intr, &old);
    int ready = 1;
    for (;;) {
        if (le_interrupted) {
            le_interrupted = 0;
            ready = 0;
            break;
        }
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(fd, &rd);
        if (pselect(fd + 1, &rd, NULL, NULL, NULL, &old) >= 0 || errno != EINTR)
            break;
#if defined(VFSIM_LINEEDIT_READLINE)
        rl_check_signals();         /* e.g. SIGWINCH: readline resizes */
#endif
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ready;
}

/* ---- history file ------------------------------------------------------ */

static void le_remember(const char *line)
{
    free(le_last);
    le_last = strdup(line);
#if LE_EDITOR
    if (le_tty)
        add_history(line);
#endif
}

static int le_blank(const char *s)
{
    return s[strspn(s, " \t")] == '\0';
}

static void le_load_history(void)
{
    FILE *f = le_hist ? fopen(le_hist, "r") : NULL;
    if (!f)
        return;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) >= 0) {
        if (n > 0 && line[n - 1] == '\n')
            line[n - 1] = '\0';
        if (!le_blank(line))
            le_remember(line);
    }
    free(line);
    fclose(f);
}

/*
 * The history file, opened and locked (flock, exclusive) against the other
 * sessions' appends and trims: a trim reads and rewrites the file in place,
 * so an append made meanwhile waits for it instead of being lost, and the
 * file keeps its inode and its mode (0600 when created). -1 on failure.
 */
static int le_hist_open(int flags)
{
    int fd = open(le_hist, flags | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    while (flock(fd, LOCK_EX) != 0) {
        if (errno != EINTR) {
            close(fd);
            return -1;
        }
    }
    return fd;
}

void le_add_history(const char *line)
{
    if (!line || le_blank(line) || (le_last && strcmp(line, le_last) == 0))
        return;
    le_remember(line);
    if (!le_hist)
        return;
    int fd = le_hist_open(O_WRONLY | O_APPEND | O_CREAT);
    if (fd < 0)
        return;
    size_t len = strlen(line);
    char *buf = malloc(len + 1);
    if (buf) {
        memcpy(buf, line, len);
        buf[len] = '\n';
        if (write(fd, buf, len + 1) < 0) { /* history is best effort */ }
        free(buf);
    }
    close(fd);
}

/* Keep the last LE_HISTORY_MAX lines of the history file, under its lock. */
static void le_trim_history(void)
{
    int fd = le_hist ? le_hist_open(O_RDWR) : -1;
    if (fd < 0)
        return;
    char *text = NULL;
    size_t len = 0, cap = 0;
    ssize_t got;
    char chunk[8192];
    while ((got = read(fd, chunk, sizeof chunk)) > 0) {
        if (len + (size_t)got > cap) {
            cap = 2 * (len + (size_t)got);
            char *t = realloc(text, cap);
            if (!t) { free(text); close(fd); return; }
            text = t;
        }
        memcpy(text + len, chunk, (size_t)got);
        len += (size_t)got;
    }
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    if (got == 0 && lines > LE_HISTORY_MAX) {
        size_t skip = lines - LE_HISTORY_MAX, from = 0;
        while (skip > 0)
            skip -= text[from++] == '\n';
        /* the kept lines move to the front; a short write keeps the
         * file as long as it was (nothing lost, trimmed next time) */
        size_t done = 0;
        while (done < len - from) {
            ssize_t w = pwrite(fd, text + from + done, len - from - done,
                               (off_t)done);
            if (w <= 0)
                break;
            done += (size_t)w;
        }
        if (done == len - from && ftruncate(fd, (off_t)done) != 0) {
            /* best effort, as the appends */
        }
    }
    free(text);
    close(fd);
}

static int le_mkdirs(const char *path)  /* mkdir -p of path's directory */
{
    char *dir = strdup(path);
    if (!dir)
        return -1;
    int rc = 0;
    for (char *p = dir + 1; *p && rc == 0; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            rc = -1;
        *p = '/';
    }
    free(dir);
    return rc;
}

char *le_default_histfile(void)
{
    const char *env = getenv("VFSIM_HISTFILE");
    const char *base = getenv("XDG_STATE_HOME");
    const char *suffix = "/vfsim/history";
    if (env && *env) {
        base = env;
        suffix = "";
    } else if (!base || base[0] != '/') {   /* relative values are invalid */
        base = getenv("HOME");
        suffix = "/.local/state/vfsim/history";
        if (!base || !*base)
            return NULL;
    }
    size_t n = strlen(base) + strlen(suffix) + 1;
    char *path = malloc(n);
    if (!path)
        return NULL;
    snprintf(path, n, "%s%s", base, suffix);
    if (le_mkdirs(path) != 0) {
        free(path);
        return NULL;
    }
    return path;
}

/* ---- reading ------------------------------------------------------------ */

/* getline on stdin; prompt != NULL means interactive without an editor. */
static char *le_getline(const char *prompt)
{
    char *line = NULL;
    size_t cap = 0;
    if (prompt) {
        fputs(prompt, stdout);
        fflush(stdout);
    }
    for (;;) {
        int interrupted = prompt && !le_wait(STDIN_FILENO);
        if (!interrupted) {
            errno = 0;
            ssize_t n = getline(&line, &cap, stdin);
            if (n >= 0) {
                if (n > 0 && line[n - 1] == '\n')
                    line[n - 1] = '\0';
                return line;
            }
            if (errno != EINTR || feof(stdin)) {
                free(line);
                return NULL;
            }
            clearerr(stdin);
            interrupted = prompt && le_interrupted;
        }
        if (interrupted) {          /* the terminal already dropped the line */
            le_interrupted = 0;
            fputc('\n', stdout);
            free(line);
            return strdup("");
        }
    }
}

#if LE_EDITOR
/* A paste of several lines arrives as one line (readline's bracketed paste):
 * hand it out one line at a time, as if typed. */
static char *le_paste, *le_paste_next;

static char *le_next_pasted(void)
{
    char *s = le_paste_next;
    size_t n = strcspn(s, "\r\n");
    char *line = strndup(s, n);
    s += n;
    if (*s == '\r' && s[1] == '\n')
        s++;
    if (*s)
        s++;
    le_paste_next = s;
    if (!*s) {
        free(le_paste);
        le_paste = le_paste_next = NULL;
    }
    return line;
}

static le_complete_fn *le_complete;
static char **le_cands;             /* the callback's candidates, being handed out */
static size_t le_cand_i;
static int le_aborted;              /* Ctrl-C turned the line into an accept */
static char le_breaks[] = " \t";

static int le_getc(FILE *in)
{
    int fd = fileno(in);
    for (;;) {
        if (!le_wait(fd)) {
            le_aborted = 1;
#if defined(VFSIM_LINEEDIT_READLINE)
            rl_point = rl_end;      /* leave the line visible, then ^C */
            rl_redisplay();
            fputs("^C", rl_outstream ? rl_outstream : stdout);
#endif
            return '\n';
        }
        unsigned char c;
        ssize_t n = read(fd, &c, 1);
        if (n == 1)
            return c;
        if (n == 0 || errno != EINTR)
            return EOF;
    }
}

static char *le_next_cand(const char *text, int state)
{
    if (state == 0)
        le_cand_i = 0;
    size_t len = strlen(text);
    while (le_cands && le_cands[le_cand_i]) {
        char *c = le_cands[le_cand_i++];
        if (strncmp(c, text, len) == 0)
            return c;               /* the editor frees it */
        free(c);
    }
    return NULL;
}

static char **le_attempt(const char *text, int start, int end)
{
    rl_attempted_completion_over = 1;   /* never fall back to file names */
    rl_completion_append_character = ' ';
    if (!le_complete)
        return NULL;
    char *line = strndup(rl_line_buffer ? rl_line_buffer : "", (size_t)rl_end);
    if (!line)
        return NULL;
    le_cands = le_complete(line, start, end);
    free(line);
    if (!le_cands)
        return NULL;
    char **m = rl_completion_matches(text, le_next_cand);
    while (le_cands[le_cand_i])     /* whatever was not handed out */
        free(le_cands[le_cand_i++]);
    free(le_cands);
    le_cands = NULL;
    if (m && m[0] && *m[0] && m[0][strlen(m[0]) - 1] == '/')
        rl_completion_append_character = '\0';  /* a directory: go on typing */
    return m;
}
#endif

void le_init(int interactive, le_complete_fn *complete, const char *histfile)
{
    le_tty = interactive;
    free(le_hist);
    le_hist = interactive && histfile ? strdup(histfile) : NULL;
#if LE_EDITOR
    le_complete = complete;
    if (interactive) {
        rl_readline_name = "vfsim";     /* for $if vfsim in ~/.inputrc */
        rl_catch_signals = 0;
        rl_getc_function = le_getc;
        rl_attempted_completion_function = le_attempt;
        rl_basic_word_break_characters = le_breaks;
        rl_completer_word_break_characters = le_breaks;
        rl_completer_quote_characters = "\"'";
        rl_initialize();
#if defined(VFSIM_LINEEDIT_READLINE)
        rl_variable_bind("revert-all-at-newline", "on");
#endif
        using_history();
        stifle_history(LE_HISTORY_MAX);
    }
#else
    (void)complete;
#endif
    le_load_history();
}

char *le_readline(const char *prompt)
{
    le_interrupted = 0;
    if (!le_tty)
        return le_getline(NULL);
#if LE_EDITOR
    if (le_paste)
        return le_next_pasted();
    le_aborted = 0;
    char *line = readline(prompt ? prompt : "");
    if (line && le_aborted) {
        free(line);
        line = strdup("");
    } else if (line && line[strcspn(line, "\r\n")]) {
        le_paste = le_paste_next = line;
        line = le_next_pasted();
    }
#else
    char *line = le_getline(prompt ? prompt : "");
#endif
    if (!line) {                    /* Ctrl-D: end the prompt's line */
        fputc('\n', stdout);
        fflush(stdout);
    }
    return line;
}

void le_end(void)
{
    le_trim_history();
    free(le_hist);
    le_hist = NULL;
    free(le_last);
    le_last = NULL;
#if LE_EDITOR
    if (le_tty)
        clear_history();
    free(le_paste);
    le_paste = le_paste_next = NULL;
#endif
    le_tty = 0;
}
