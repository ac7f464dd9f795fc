/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * picture.h - what the pictures draw, read from the session's trace.
 *
 * The terminal timeline, the HTML page and the Chrome trace all draw the
 * same things: per thread, the kernel functions as nested spans, the locks
 * held as spans, the waits, the wake-ups, and the detectors' reports.  All
 * of it is read off the one stream of trace events (s->ev) and the
 * detectors' reports (vfs_world_detect); nothing here runs the simulation.
 */
#ifndef VFSIM_PICTURE_H
#define VFSIM_PICTURE_H

#include <stdio.h>
#include "cli.h"
#include "vfs_detect.h"

enum pic_span_kind { PS_FN, PS_HOLD, PS_WAIT };

struct pic_span {
	uint8_t kind;           /* enum pic_span_kind */
	int8_t tid;
	uint8_t fn;             /* PS_FN: the function; else the lock function */
	uint8_t endfn;          /* PS_HOLD: the releasing function */
	uint8_t sys;            /* PS_FN: the system call of a syscall frame */
	uint8_t depth;          /* PS_FN: nesting depth, 0 = the syscall */
	uint8_t cls, mode;      /* PS_HOLD, PS_WAIT */
	uint8_t open;           /* still going at the end of the trace */
	uint8_t slot;           /* PS_HOLD/PS_WAIT: lane of its lock's track */
	int8_t other;           /* PS_WAIT: the holder it waited for, or -1 */
	vfs_lid_t lock;
	int32_t file_id;        /* file locks: file#N then */
	int lockno;             /* index into pic.locks */
	size_t ev0, ev1;        /* first and last event (ev1 = nev when open) */
	int32_t step0, step1;
	int64_t ret;            /* PS_FN: what it returned */
};

/* A wake-up: thread `from` released (or downgraded) the lock and `to`
 * was woken holding it. */
struct pic_wake {
	size_t rel_ev, wake_ev; /* rel_ev = (size_t)-1 when not found */
	int8_t from, to;
};

/* A lock as the pictures name it (file locks by file#N, inodes by path). */
struct pic_lock {
	vfs_lid_t lock;
	int32_t file_id;
	uint8_t cls;
	int nslots;             /* lanes needed so its spans never overlap */
	char name[VFS_PATH_MAX + 32];
};

#define PIC_MAX_POINTS 8
/* A mark's kind: the report's (enum vfs_kind, whose row names the mark),
 * or PM_STUCK: every live thread blocked and no report said why. */
enum { PM_STUCK = DK__COUNT };
struct pic_mark {
	uint8_t kind;           /* DK_* or PM_STUCK */
	int npoints;
	int32_t step[PIC_MAX_POINTS];
	int8_t tid[PIC_MAX_POINTS];
	char title[48];         /* "RACE on f_pos", "DUPLICATE '.'" */
	char text[400];         /* the report's line */
};

struct pic {
	const struct vfs_world *w;
	const struct vfs_event *ev;
	size_t nev;
	size_t dropped;
	int nthreads;           /* threads that appear (tid < nthreads) */
	int32_t step_min, step_max; /* 0, -1 when there are no events */
	double *ts;             /* per event: its time, in steps */
	struct pic_span *spans;
	size_t nspans;
	struct pic_wake *wakes;
	size_t nwakes;
	struct pic_lock *locks;
	int nlocks;
	struct pic_mark *marks;
	int nmarks;
	int maxdepth;           /* deepest PS_FN */
	void *nomem;            /* (pic_build: its jmp_buf, while it builds) */
	size_t *slot_end;       /* (assign_slots' scratch, while it runs) */
};

/* 0, or -VE_NOMEM (what was made stays in P: pic_free it either way). */
int pic_build(struct pic *p, const struct session *s);
/* Events that get their own time slot in a step (not reads, writes,
 * emits, notes), and the width of event i's slot, in steps. */
bool pic_structural(int op);
double pic_slot(const struct pic *p, size_t i);
void pic_free(struct pic *p);

/* The events of thread tid in step `step`: [*lo, *hi) of indices, those
 * of other threads in between are skipped by the callers. */
void pic_step_range(const struct pic *p, int32_t step, size_t *lo, size_t *hi);

/* One short label for what thread tid did in step `step` ("", if nothing):
 * "getdents64", "mutex_lock waits for A" ("waits A" when terse),
 * "ext4_readdir [. ..]",
 * "getdents64 = 2".  *style: 0 plain, 1 syscall, 2 wait, 3 return. */
enum { PL_PLAIN, PL_SYSCALL, PL_WAIT, PL_RETURN };
void pic_label(const struct pic *p, int tid, int32_t step, char *buf, size_t n,
	       int *style, bool terse);

/* Whether thread tid holds a lock of the picture's column `col` during
 * step `step` (col 0 f_pos_lock, 1 i_rwsem, 2 f_lock/rename_mutex), and in
 * which mode (M_READ...); waiting: it waits for such a lock then. */
int pic_lock_col(int cls);
void pic_held(const struct pic *p, int tid, int32_t step, int col, int *mode,
	      bool *waiting);

/* The mark kinds' names: "race", "duplicate", ... (also HTML classes) */
const char *pic_mark_name(int kind);
/* Whether a mark points at (step, tid); tid -1: any thread. */
bool pic_mark_at(const struct pic_mark *m, int32_t step, int tid);

/* A thread's name, "A", "A.2" */
void pic_thread_name(const struct pic *p, int tid, char *buf, size_t n);

/* Writing text safely into HTML/SVG, or into a JSON string. */
void pic_html_escape(FILE *f, const char *s);
void pic_json_escape(FILE *f, const char *s);

/* The exports (cli/export_*.c): 0, or -1 after an error message. */
int export_jsonl(struct session *s, FILE *f);
int export_chrome(struct session *s, FILE *f);
int export_dot(struct session *s, FILE *f);
int export_html(struct session *s, FILE *f, const char *title);

#endif
