/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * detect_bench.c - the cost of the detectors where deadlock and lock-order
 * checking actually work: several threads in two processes, random
 * scheduling, calls that nest locks and block (getdents, lseek, read,
 * write, mkdir, rmdir, cross-directory rename) on shared files and
 * directories, under v6.5.  The same pre-recorded schedule is replayed
 * with w->det.enabled = 1 and = 0; prints the ratio.  Nothing asserted.
 *
 *   detect_bench [STEPS]   (default 2000000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "vfsim.h"
#include "world_layout.h"   /* a benchmark of core/: it reads the fields */

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
	return *s;
}

/* the world whose string table mk() interns into */
static struct vfs_world *cur;

static struct vfs_call mk(int sys, int64_t a0, int64_t a1, int64_t a2,
			  const char *s0, const char *s1)
{
	struct vfs_call c;
	memset(&c, 0, sizeof c);
	c.sys = (uint8_t)sys;
	c.a[0] = a0; c.a[1] = a1; c.a[2] = a2;
	if (s0) vfs_call_set_str(cur, &c, 0, s0);
	if (s1) vfs_call_set_str(cur, &c, 1, s1);
	return c;
}

static void finish(struct vfs_world *w, int t, struct vfs_call c)
{
	vfs_submit(w, t, &c);
	while (vfs_runnable(w, t))
		vfs_step(w, t, NULL);
}

static void setup(struct vfs_world *w)
{
	vfs_world_init(w, vfs_preset_lookup("v6.5"));
	cur = w;
	vfs_setup_mkdir(w, "/d", true);
	vfs_setup_mkdir(w, "/e", true);
	vfs_setup_touch(w, "/d/a", true);
	vfs_setup_touch(w, "/f", true);
	vfs_setup_mount(w, "exfat", "/x", NULL);
	int A = vfs_spawn(w, "A", 0), B = vfs_spawn(w, "B", 0);
	(void)A; (void)B;
	finish(w, 0, mk(SYS_OPEN, 0, VO_RDONLY, 0, "/d", NULL));
	finish(w, 0, mk(SYS_OPEN, 0, VO_RDWR, 0, "/f", NULL));
	finish(w, 0, mk(SYS_OPEN, 0, VO_RDONLY, 0, "/x", NULL));
	finish(w, 1, mk(SYS_OPEN, 0, VO_RDONLY, 0, "/d", NULL));
	finish(w, 1, mk(SYS_OPEN, 0, VO_RDWR, 0, "/f", NULL));
	finish(w, 1, mk(SYS_OPEN, 0, VO_RDONLY, 0, "/x", NULL));
	finish(w, 0, mk(SYS_CLONE, 0, 0, 0, NULL, NULL));
	finish(w, 1, mk(SYS_CLONE, 0, 0, 0, NULL, NULL));
	w->sched = VSCHED_RANDOM;
	w->rng = 12345;
}

static struct vfs_call random_call(uint64_t *s)
{
	static const char *const dirs[] = { "/d/s", "/e/s", "/x/s", "/d/s/t" };
	static const char *const ren[][2] = { { "/d/s", "/e/s" }, { "/e/s", "/d/s" },
		{ "/d/a", "/e/a" }, { "/e/a", "/d/a" } };
	int fd = 3 + (int)(rnd(s) % 3);
	switch (rnd(s) % 8) {
	case 0: case 1: return mk(SYS_GETDENTS, fd, 3, 0, NULL, NULL);
	case 2: return mk(SYS_LSEEK, fd, 0, VSEEK_SET, NULL, NULL);
	case 3: return mk(SYS_READ, 4, 4, 0, NULL, NULL);
	case 4: return mk(SYS_WRITE, 4, 0, 0, "xy", NULL);
	case 5: return mk(SYS_MKDIR, 0, 0, 0, dirs[rnd(s) % 4], NULL);
	case 6: return mk(SYS_RMDIR, 0, 0, 0, dirs[rnd(s) % 4], NULL);
	default: { int k = (int)(rnd(s) % 4);
		return mk(SYS_RENAME, 0, 0, 0, ren[k][0], ren[k][1]); }
	}
}

static double run(long steps, int det, long *blocks)
{
	static struct vfs_world w;
	setup(&w);
	w.det.enabled = (uint8_t)det;
	uint64_t s = 99;
	long n = 0;
	*blocks = 0;
	double t0 = now();
	while (n < steps) {
		for (int t = 0; t < w.nthreads; t++)
			if (!vfs_has_work(&w, t)) {
				struct vfs_call c = random_call(&s);
				vfs_submit(&w, t, &c);
			}
		int t = vfs_sched_pick(&w);
		if (t < 0)
			break;
		vfs_step(&w, t, NULL);
		*blocks += w.threads[t].state == TS_BLOCKED;
		n++;
	}
	double dt = now() - t0;
	if (det)
		printf("detect: %ld steps, %ld blocked, %u lock-order edges, "
		       "%u deadlock / %u lock-order reports\n", n, *blocks,
		       w.det.ld.nedges, w.det.counts[DK_DEADLOCK],
		       w.det.counts[DK_LOCKORDER]);
	return dt;
}

int main(int argc, char **argv)
{
	long steps = argc > 1 ? atol(argv[1]) : 2000000;
	long b1, b0;
	double on = 1e9, off = 1e9;
	for (int r = 0; r < 3; r++) {
		double a = run(steps, 1, &b1), b = run(steps, 0, &b0);
		if (a < on) on = a;
		if (b < off) off = b;
	}
	printf("detect: detectors on %.3f s, off %.3f s (%.2f M steps/s off): "
	       "cost %.2fx (target <= 2x: %s)\n", on, off, steps / off / 1e6,
	       on / off, on / off <= 2.0 ? "met" : "NOT met");
	return 0;
}
