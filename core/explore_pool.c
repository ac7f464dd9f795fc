/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * explore_pool.c - the explorers' workers and clocks, one for both: the
 * DPOR search's (explore.c: workers taking subtrees) and the stateful
 * search's (explore_stateful_run.c: workers taking frontier states, and
 * the shortest search beside them).
 */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "explore_int.h"

double xnow(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct timespec xdeadline(clockid_t clk, long ms)
{
	struct timespec ts;
	clock_gettime(clk, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += ms % 1000 * 1000 * 1000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	return ts;
}

double xthread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int xonline_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (int)n;
}

int xpool_start(pthread_t *th, int from, int to, void *(*fn)(void *),
		void *args, size_t size, bool term)
{
	/* SIGINT (and SIGTERM) stay with the calling thread: its handler
	 * sets the stop flag every worker polls, and the caller's waits are
	 * the ones it should interrupt */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	if (term)
		sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	int i;
	for (i = from; i < to; i++)
		if (pthread_create(&th[i], NULL, fn, (char *)args + size * (size_t)i) != 0)
			break;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return i;
}

void xprogress_tell(const struct vfs_explore_opts *o,
		    struct vfs_explore_progress *p, double t0, double since,
		    double t, uint64_t count)
{
	p->seconds = t - t0;
	p->rate = t > since ? (double)count / (t - since) : 0;
	o->progress(o->progress_ctx, p);
}
