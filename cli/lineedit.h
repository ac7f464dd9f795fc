/* lineedit.h: the shell's one interface to a line editor.
 *
 * Built over GNU readline (-DVFSIM_LINEEDIT_READLINE), BSD libedit through
 * its readline-compatible header (-DVFSIM_LINEEDIT_LIBEDIT) or plain stdio
 * (-DVFSIM_LINEEDIT_NONE); the Makefile's LINEEDIT= picks one.
 *
 * Use:
 *     char *hist = interactive ? le_default_histfile() : NULL;
 *     le_init(interactive, complete, hist);
 *     le_install_sigint();
 *     while ((line = le_readline("vfsim> ")) != NULL) {
 *         le_add_history(line);
 *         ... run it, polling le_interrupted (and clearing it) in long work ...
 *         free(line);
 *     }
 *     le_end(); free(hist);
 *
 * Threads that the program starts (the explorer's workers) should block
 * SIGINT with pthread_sigmask so that Ctrl-C reaches the main thread.
 */
#ifndef VFSIM_LINEEDIT_H
#define VFSIM_LINEEDIT_H

#include <signal.h>

/* Returns a malloc'd NULL-terminated array of malloc'd candidates for the word
 * under the cursor, or NULL. line: whole line so far; start/end: the word's span.
 * Candidates not starting with the word are ignored; lineedit frees them all. */
typedef char **le_complete_fn(const char *line, int start, int end);

/* interactive: use the editor (call only when stdin is a terminal). histfile may
 * be NULL; it is only read and written in interactive mode. */
void le_init(int interactive, le_complete_fn *complete, const char *histfile);

/* Prompted read; returns malloc'd line without newline, or NULL at EOF.
 * Non-interactive mode reads stdin with getline and prints no prompt.
 * After Ctrl-C at the prompt it returns "" (the line typed so far is dropped). */
char *le_readline(const char *prompt);

/* Adds to the history, and appends to histfile at once ("saved as you go").
 * Empty or blank lines and repeats of the previous line are ignored. */
void le_add_history(const char *line);

void le_end(void);                        /* trim the history file, free state */
const char *le_name(void);                /* "readline", "libedit" or "none" */

/* History file path: $VFSIM_HISTFILE, else $XDG_STATE_HOME/vfsim/history, else
 * $HOME/.local/state/vfsim/history; creates the directory; returns malloc'd path or NULL. */
char *le_default_histfile(void);

/* Ctrl-C: a SIGINT handler that only sets this flag (install with le_install_sigint).
 * le_readline clears it on entry; during a long command the caller polls and clears it. */
extern volatile sig_atomic_t le_interrupted;
void le_install_sigint(void);

#endif
