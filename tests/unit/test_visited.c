/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test_visited.c - the stateful search's visited set
 * (core/explore_visited.c) with several workers: inserts claim a slot by
 * compare-and-swap, a shard doubles while the others insert; every hash
 * must be new to exactly one worker and found afterwards.
 */
#include <pthread.h>
#include "harness.h"
#include "explore_stateful.h"

#define NHASH 60000

static uint64_t hash_of(uint64_t i)     /* splitmix64: never 0 here */
{
	uint64_t z = i + 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return z ? z : 1;
}

struct inserter {
	struct vtable *t;
	int wid;
	int news, errors;
	bool ranked;            /* vt_insert_own, rank wid + 1 */
	int takes;
};

static void *insert_all(void *arg)
{
	struct inserter *in = arg;
	/* the two workers meet in the middle: each hash is tried by both */
	for (int k = 0; k < NHASH; k++) {
		int i = in->wid ? NHASH - 1 - k : k;
		bool take = false;
		int r = in->ranked ?
			vt_insert_own(in->t, hash_of((uint64_t)i), in->wid,
				      (uint32_t)in->wid + 1, &take) :
			vt_insert(in->t, hash_of((uint64_t)i), in->wid);
		in->takes += take;
		if (r == 1)
			in->news++;
		else if (r < 0)
			in->errors++;
	}
	return NULL;
}

/* Two workers insert every hash into T at once (RANKED: with ranks 1
 * and 2): no errors, each hash new to exactly one. */
static void insert_two(struct vtable *t, struct inserter in[2], bool ranked)
{
	in[0] = (struct inserter){ t, 0, 0, 0, ranked, 0 };
	in[1] = (struct inserter){ t, 1, 0, 0, ranked, 0 };
	pthread_t th;
	assert_int_equal(pthread_create(&th, NULL, insert_all, &in[1]), 0);
	insert_all(&in[0]);
	pthread_join(th, NULL);
	assert_int_equal(in[0].errors + in[1].errors, 0);
	assert_int_equal(in[0].news + in[1].news, NHASH);
}

static void test_two_workers_grow(void **state)
{
	(void)state;
	struct vtable t;
	/* small shards, grown many times while both insert */
	assert_int_equal(vt_alloc(&t, 8, 24, true, 2), 0);
	struct inserter in[2];
	insert_two(&t, in, false);
	uint64_t n = 0, counted = 0;
	for (int i = 0; i < t.nsh; i++) {
		const struct vshard *v = &t.sh[i];
		uint64_t held = 0;
		for (uint64_t j = 0; j <= v->mask; j++)
			held += v->slot[j] != 0;
		assert_int_equal(vt_entries(&t, v), held);
		/* the hashes not yet counted stay under an eighth of the
		 * slots: doubled at half full, a shard holds at most 5/8 */
		assert_true(held * 8 <= (v->mask + 1) * 5);
		n += held;
		counted += v->n;
	}
	assert_int_equal(n, NHASH);
	/* each worker adds its new hashes to a shard's count in batches */
	assert_true(counted < NHASH);
	for (int i = 0; i < NHASH; i++)
		assert_int_equal(vt_insert(&t, hash_of((uint64_t)i), 0), 0);
	assert_int_equal(vt_insert(&t, hash_of(NHASH), 1), 1);
	vt_free(&t);
}

/* A table of a fixed size (opts.state_bits) says full at 7/8, shared or
 * not, and keeps what it holds. */
static void test_fixed_full(void **state)
{
	(void)state;
	for (int locked = 0; locked < 2; locked++) {
		struct vtable t;
		assert_int_equal(vt_alloc(&t, 8, 8, false, locked ? 2 : 1), 0);
		int news = 0, full = 0;
		for (int i = 0; i < 256; i++) {
			int r = vt_insert(&t, hash_of((uint64_t)i), 0);
			news += r == 1;
			full += r == -1;
		}
		assert_int_equal(news, 224);
		assert_int_equal(full, 32);
		assert_int_equal(vt_insert(&t, hash_of(0), 1), 0);
		vt_free(&t);
	}
}

/* The ranks beside the hashes (sleep sets with several workers,
 * core/explore_sleep.c): a rank is only lowered, and a search takes a
 * seen state (to expand it again) exactly when its rank lowers it; kept
 * while the shards double under two workers. */
static void test_ranks(void **state)
{
	(void)state;
	struct vtable t;
	assert_int_equal(vt_alloc(&t, 8, 24, true, 2), 0);
	assert_int_equal(vt_own_on(&t), 0);
	bool take = true;
	assert_int_equal(vt_insert_own(&t, hash_of(NHASH + 1), 0, 5, &take), 1);
	assert_false(take);     /* new: its own, not taken */
	assert_int_equal(vt_insert_own(&t, hash_of(NHASH + 1), 1, 5, &take), 0);
	assert_false(take);     /* the same rank: a later path of its search */
	assert_int_equal(vt_insert_own(&t, hash_of(NHASH + 1), 1, 7, &take), 0);
	assert_false(take);     /* a greater rank */
	assert_int_equal(vt_insert_own(&t, hash_of(NHASH + 1), 1, 3, &take), 0);
	assert_true(take);      /* lowered: expanded again */
	assert_int_equal(vt_insert_own(&t, hash_of(NHASH + 1), 0, 4, &take), 0);
	assert_false(take);     /* (3 kept, not 4) */
	/* the moment between another worker's slot and its rank (here a
	 * slot written without one): the hash is kept by none, so any
	 * rank that finds it takes it, and the least rank still wins */
	assert_int_equal(vt_insert(&t, hash_of(NHASH + 2), 0), 1);
	assert_int_equal(vt_insert_own(&t, hash_of(NHASH + 2), 1, 2, &take), 0);
	assert_true(take);
	assert_int_equal(vt_insert_own(&t, hash_of(NHASH + 2), 0, 1, &take), 0);
	assert_true(take);
	assert_int_equal(vt_insert_own(&t, hash_of(NHASH + 2), 1, 2, &take), 0);
	assert_false(take);
	/* two workers, ranks 1 and 2, the shards doubling meanwhile: every
	 * hash new to one; rank 1 takes each of the others' it meets after
	 * them; rank 2 takes one of rank 1's only when it finds the hash in
	 * the moment between rank 1's slot and its rank being written (kept
	 * by none yet: vt_insert_cas), which a slow run (ThreadSanitizer)
	 * can hit.  Then every hash holds rank 1, but one that rank 1 found
	 * in that moment of rank 2's insert: rank 2's store, after rank 1's
	 * lowering, leaves rank 2 there (a rank that visited, too high:
	 * sound, vt_insert_cas), and rank 1 takes it once more; never more
	 * of them than rank 1 took */
	struct inserter in[2];
	insert_two(&t, in, true);
	assert_true(in[1].takes <= in[0].news);
	assert_true(in[0].takes <= in[1].news);
	int again = 0;
	for (int i = 0; i < NHASH; i++) {
		assert_int_equal(vt_insert_own(&t, hash_of((uint64_t)i), 1, 1, &take), 0);
		again += take;
		assert_int_equal(vt_insert_own(&t, hash_of((uint64_t)i), 1, 1, &take), 0);
		assert_false(take);
		assert_int_equal(vt_insert_own(&t, hash_of((uint64_t)i), 1, 0, &take), 0);
		assert_true(take);
	}
	assert_true(again <= in[0].takes);
	vt_free(&t);
}

/* A table that grows takes its doubled arrays from mappings aligned to
 * 2 MB (huge pages where the kernel gives them), takes an array another
 * shard gave back again (zeroed: no hash of its old shard is seen), and
 * answers as before; one that never doubles maps nothing. */
static void test_huge_arrays(void **state)
{
	(void)state;
	struct vtable t;
	assert_int_equal(vt_alloc(&t, 14, 24, true, 1), 0);
	assert_int_equal(vt_own_on(&t), 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(vt_insert(&t, hash_of((uint64_t)i), 0), 1);
	assert_int_equal(t.mem.n, 0);
	vt_free(&t);

	assert_int_equal(vt_alloc(&t, 8, 24, true, 1), 0);
	assert_int_equal(vt_own_on(&t), 0);
	for (int i = 0; i < NHASH; i++)
		assert_int_equal(vt_insert(&t, hash_of((uint64_t)i), 0), 1);
	assert_true(t.mem.n > 0);
	size_t carved = 0;
	for (size_t i = 0; i < t.mem.n; i++) {
		assert_int_equal((uintptr_t)t.mem.c[i].base % VT_HUGE, 0);
		carved += t.mem.c[i].used;
	}
	assert_true(carved > 0);
	assert_true(t.mem.reused > 0);
	for (int i = 0; i < NHASH; i++)
		assert_int_equal(vt_insert(&t, hash_of((uint64_t)i), 0), 0);
	for (int i = NHASH; i < 2 * NHASH; i++)
		assert_int_equal(vt_insert(&t, hash_of((uint64_t)i), 0), 1);
	vt_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_workers_grow),
		cmocka_unit_test(test_ranks),
		cmocka_unit_test(test_fixed_full),
		cmocka_unit_test(test_huge_arrays),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
