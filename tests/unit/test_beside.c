/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_beside.c - the pace of plain explore's step-by-step search beside
 * the stateful one (core/explore_probe.c, xs_pace_wait): by states and by
 * CPU, so that a proof costs little more than alone.
 */
#include <pthread.h>
#include <unistd.h>
#include "harness.h"
#include "explore_stateful.h"
#include "explore_shortest.h"

/* The search beside is paced by CPU too (explore_probe.c,
 * xs_pace_wait): its states allowed, it still waits while its thread has
 * taken more than 1 / PACE_DIV of the CPU the rest of the process took,
 * and goes on once the rest has taken enough, or when told to quit. */
struct pace_t {
	struct sknobs kn;
	uint64_t states;
	double burn;                    /* CPU seconds to take first */
	double took;                    /* what it took, once READY */
	int ready;                      /* atomic */
	int back;                       /* atomic: xs_pace_wait returned */
};

static void burn_cpu(double secs)
{
	double t0 = xthread_cpu();
	volatile uint64_t x = 1;
	while (xthread_cpu() - t0 < secs)
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ull + 1;
}

static void *pace_waiter(void *arg)
{
	struct pace_t *p = arg;
	burn_cpu(p->burn);
	p->took = xthread_cpu();
	__atomic_store_n(&p->ready, 1, __ATOMIC_RELEASE);
	xs_pace_wait(&p->kn, 64);       /* (a 64th state: the CPU looked at) */
	__atomic_store_n(&p->back, 1, __ATOMIC_RELEASE);
	return NULL;
}

static bool back_within(struct pace_t *p, int ms)
{
	for (int i = 0; i < ms && !__atomic_load_n(&p->back, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	return __atomic_load_n(&p->back, __ATOMIC_ACQUIRE);
}

static void test_beside_paced_by_cpu(void **state)
{
	(void)state;
	for (int round = 0; round < 2; round++) {
		/* (states far ahead: only the CPU holds it back) */
		struct pace_t p = { .states = 1000000000, .burn = 0.02 };
		p.kn.pace = &p.states;
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, pace_waiter, &p), 0);
		while (!__atomic_load_n(&p.ready, __ATOMIC_ACQUIRE))
			usleep(1000);
		/* the rest of the process idle: it waits, whatever the time */
		bool early = back_within(&p, 100), back;
		if (round == 0) {
			__atomic_store_n(&p.kn.quit, 1, __ATOMIC_RELAXED);
		} else {
			/* the rest takes over PACE_DIV times its CPU */
			burn_cpu(p.took * (PACE_DIV + 2));
		}
		back = back_within(&p, 5000);
		__atomic_store_n(&p.kn.quit, 1, __ATOMIC_RELAXED);
		pthread_join(th, NULL);
		assert_false(early);
		assert_true(back);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_beside_paced_by_cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
