/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_explore_oom.c - out of memory never changes an explorer's answer:
 * each search runs once whole (its allocations counted), then once with
 * each of those allocations failing in turn; every run either fails
 * (-1, ENOMEM where errno is its way of saying it) or gives exactly the
 * answer of the whole run.  A search that took a failure for "nothing
 * found" answered with a weaker or another counterexample: the
 * preemption-bounded probe's search (a piece out of memory was a piece
 * cut short, bound 0 searched in vain, so bound 1's counterexample), a
 * step whose detector lost a table (the overflow's kinds, not the
 * race's), the check of fewest preemptions (scripts/oom-explore.sh:
 * "a counterexample: 1 preemption" for "the shortest ...: 0").
 *
 * The allocator: vfsim's calls to malloc, calloc, realloc and strdup
 * come here (this binary is linked with -Wl,--wrap for each: Makefile,
 * UNIT_WRAP_test_explore_oom), as build/asan/vfsim-oom's do to
 * tests/oom/failalloc.c.
 */
#include <errno.h>
#include "harness_explore.h"
#include "explore_stateful.h"
#include "explore_shortest.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t sz);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t sz);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);

/* counted while armed (the search's threads too); FAIL_AT fails (0: none) */
static long calls, fail_at;
static int armed;

static int fails(void)
{
	if (!__atomic_load_n(&armed, __ATOMIC_RELAXED))
		return 0;
	return __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED) ==
	       __atomic_load_n(&fail_at, __ATOMIC_RELAXED);
}

void *__wrap_malloc(size_t n) { return fails() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t sz) { return fails() ? NULL : __real_calloc(n, sz); }
void *__wrap_realloc(void *p, size_t n) { return fails() ? NULL : __real_realloc(p, n); }
char *__wrap_strdup(const char *s) { return fails() ? NULL : __real_strdup(s); }

static void arm(long k)
{
	calls = 0;
	fail_at = k;
	__atomic_store_n(&armed, 1, __ATOMIC_SEQ_CST);
}

static long disarm(void)
{
	__atomic_store_n(&armed, 0, __ATOMIC_SEQ_CST);
	return calls;
}

/* What a search answered: its numbers and its schedule */
#define A_NUMS 16
struct answer {
	int64_t num[A_NUMS];
	uint8_t sched[4096];
	int len;
};

static void a_sched(struct answer *a, const uint8_t *s, int len)
{
	assert_true(len >= 0 && len <= (int)sizeof a->sched);
	a->len = len;
	if (len)
		memcpy(a->sched, s, (size_t)len);
}

/* SEARCH: 0 and *A, or -1 out of memory (*A undefined) */
typedef int search_fn(const struct vfs_world *w, struct answer *a);

/* Every allocation of SEARCH failing in turn, up to the first EVERY_FROM,
 * then every EVERY-th (each allocation's region is covered, in a time a
 * unit test may take under ASan); returns how many said out of memory.
 * LOUD: each must say it (a search none of whose allocations is a cache
 * it can do without: one that answers anyway lost something). */
static long sweep(const struct vfs_world *w, search_fn *search, const char *what,
		  long every_from, long every, bool loud)
{
	struct answer ref, got;
	memset(&ref, 0, sizeof ref);
	arm(0);
	int rc = search(w, &ref);
	long n = disarm();
	assert_int_equal(rc, 0);
	assert_true(n > 0);
	long said = 0;
	for (long k = 1; k <= n; k += k < every_from ? 1 : every) {
		memset(&got, 0, sizeof got);
		errno = 0;
		arm(k);
		rc = search(w, &got);
		disarm();
		if (rc < 0) {
			said++;
			continue;
		}
		if (loud)
			fail_msg("%s: allocation %ld of %ld failed, and it answered", what,
				 k, n);
		for (int i = 0; i < A_NUMS; i++)
			if (got.num[i] != ref.num[i])
				fail_msg("%s: allocation %ld of %ld failed: answer %d is %lld, "
					 "not %lld", what, k, n, i, (long long)got.num[i],
					 (long long)ref.num[i]);
		if (got.len != ref.len || memcmp(got.sched, ref.sched, (size_t)ref.len))
			fail_msg("%s: allocation %ld of %ld failed: another schedule", what,
				 k, n);
	}
	print_message("%s: %ld allocations, %ld said out of memory\n", what, n, said);
	assert_true(said > 0);
	return said;
}

/* ---- the searches ---- */

static void no_progress(void *ctx, const struct vfs_explore_progress *p)
{
	(void)ctx;
	(void)p;
}

/* vfs_explore's result: -1 (ENOMEM) or its answer */
static int explore_answer(const struct vfs_world *w, const struct vfs_explore_opts *o,
			  struct answer *a)
{
	struct vfs_explore_result r;
	if (vfs_explore(w, o, &r) < 0) {
		assert_int_equal(errno, ENOMEM);
		return -1;
	}
	int64_t v[A_NUMS] = { r.have_cex, r.cex_preemptions, r.cex_steps, r.cex_kinds,
			      r.cex_shortest, r.cex_checked, r.complete, r.cut,
			      (int64_t)r.executions, (int64_t)r.states,
			      (int64_t)r.violating, r.probe_found, r.probe_bound,
			      (int64_t)r.probe_execs, (int64_t)r.short_nodes,
			      (int64_t)r.transitions };
	memcpy(a->num, v, sizeof v);
	a_sched(a, r.cex_schedule, r.have_cex ? r.cex_len : 0);
	vfs_explore_result_free(&r);
	return 0;
}

/* the preemption-bounded probe's search: bound 0, to its first violation */
static int probe_search(const struct vfs_world *w, struct answer *a)
{
	struct vfs_explore_opts o;
	vfs_explore_opts_init(&o);
	o.bound = 0;
	o.jobs = 1;
	o.max_steps = 2048;
	o.stop_at_violation = 1;
	return explore_answer(w, &o, a);
}

/* plain explore (the shell's default engine), its progress told */
static int plain_explore(const struct vfs_world *w, struct answer *a)
{
	struct vfs_explore_opts o;
	vfs_explore_opts_init(&o);
	o.stateful = o.first = 1;
	o.jobs = 1;
	o.progress = no_progress;
	return explore_answer(w, &o, a);
}

static int shortest_search(const struct vfs_world *w, struct answer *a)
{
	uint8_t *s;
	int len, pre, steps;
	uint32_t kinds;
	uint64_t nodes;
	int rc = vfs_explore_shortest(w, 0, -1, 0, NULL, &s, &len, &pre, &steps, &kinds,
				      &nodes);
	if (rc < 0)
		return -1;
	int64_t v[A_NUMS] = { rc, pre, steps, kinds, (int64_t)nodes };
	memcpy(a->num, v, sizeof v);
	a_sched(a, s, rc > 0 ? len : 0);
	if (rc > 0)
		free(s);
	return 0;
}

/* the counterexample the fewest check starts from (the step-by-step
 * search's of one preemption; the check finds one of none) */
static uint8_t *given;
static int given_len, given_pre, given_steps;
static uint32_t given_kinds;

static int fewest_check(const struct vfs_world *w, struct answer *a)
{
	uint8_t *s = __real_malloc((size_t)given_len);  /* (not one of its own) */
	assert_non_null(s);
	memcpy(s, given, (size_t)given_len);
	int len = given_len, pre = given_pre, steps = given_steps, checked;
	uint32_t kinds = given_kinds;
	bool exact;
	struct vfs_explore_opts po;
	vfs_explore_opts_init(&po);
	po.progress = no_progress;      /* (its search's worker a thread) */
	int rc = xs_fewest_bounded(w, 0, 0, &po, 0, &s, &len, &pre, &steps, &kinds,
				   &checked, &exact);
	if (rc >= 0) {
		int64_t v[A_NUMS] = { rc, pre, steps, kinds, checked, exact };
		memcpy(a->num, v, sizeof v);
		a_sched(a, s, len);
	}
	free(s);
	return rc < 0 ? -1 : 0;
}

static int preemptions_of_given(const struct vfs_world *w, struct answer *a)
{
	int vstep;
	int pre = vfs_explore_preemptions(w, given, given_len, VX_DEFAULT_VIOLATIONS,
					  &vstep);
	if (pre < 0)
		return -1;
	a->num[0] = pre;
	a->num[1] = vstep;
	return 0;
}

/* ---- the tests ---- */

/* SEARCH swept on N thieves of PRESET in a directory of FILES */
static void sweep_thieves(const char *preset, int n, int files, search_fn *search,
			  const char *what, long every_from, long every)
{
	struct h *h = thieves(preset, n, files);
	sweep(h->w, search, what, every_from, every, false);
	h_free(h);
}

/* the probe's bounded search: a piece out of memory fails the search */
static void test_probe_search(void **state)
{
	(void)state;
	sweep_thieves("v6.4", 2, 3, probe_search, "bound 0", 1 << 30, 1);
}

/* the step-by-step search: its states' steps, its candidates' replays */
static void test_shortest(void **state)
{
	(void)state;
	sweep_thieves("v6.4", 1, 4, shortest_search, "shortest", 400, 3);
}

/* SEARCH from the step-by-step search's counterexample */
static void from_given(search_fn *search, const char *what, bool loud)
{
	struct h *h = thieves("v6.4", 1, 4);
	uint64_t nodes;
	assert_int_equal(vfs_explore_shortest(h->w, 0, -1, 0, NULL, &given, &given_len,
					      &given_pre, &given_steps, &given_kinds,
					      &nodes), 1);
	assert_int_equal(given_pre, 1);
	sweep(h->w, search, what, 1 << 30, 1, loud);
	free(given);
	given = NULL;
	h_free(h);
}

/* the check of fewest preemptions: its bounded searches (their worker a
 * thread), its candidates */
static void test_fewest(void **state)
{
	(void)state;
	from_given(fewest_check, "fewest", false);
}

/* a schedule's preemptions, and the step of its violation: a detector's
 * table lost in its replay (its report, so the step, may be missing) */
static void test_preemptions(void **state)
{
	(void)state;
	from_given(preemptions_of_given, "preemptions", true);
}

/* plain explore, scripts/oom-explore.vfs's: the probe, the step-by-step
 * search after it, the check */
static void test_plain_found(void **state)
{
	(void)state;
	sweep_thieves("v6.4", 2, 3, plain_explore, "plain explore v6.4", 300, 7);
}

/* plain explore's proof: the stateful search (its steps, its successors
 * made again, the guess of the discipline) */
static void test_plain_proof(void **state)
{
	(void)state;
	sweep_thieves("v6.5", 2, 3, plain_explore, "plain explore v6.5", 300, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_search),
		cmocka_unit_test(test_shortest),
		cmocka_unit_test(test_fewest),
		cmocka_unit_test(test_preemptions),
		cmocka_unit_test(test_plain_found),
		cmocka_unit_test(test_plain_proof),
	};
	return cmocka_run_group_tests(tests, NULL, h_teardown);
}
