/* tests/unit/frames_alloc.c - part of unit/test_frames (tests/unit/
 * frames_pool.h): naturally aligned allocation of every order, exhaustion,
 * frees that must be refused, first-fit runs, and pools whose size is not
 * a multiple of 32. */
#include "tests/unit/frames_pool.h"

#include <stdlib.h>
#include <string.h>

/* A copy of the whole observable state, to prove a call changed nothing. */
struct snapshot {
	struct frame_pool pool;
	uint32_t *bitmap;
	size_t words;
};

static void snap(struct snapshot *s, const struct frame_pool *p)
{
	s->pool = *p;
	s->words = FRAMES_BITMAP_WORDS(p->nframes);
	s->bitmap = malloc(s->words ? s->words * sizeof(uint32_t) : 1);
	memcpy(s->bitmap, p->bitmap, s->words * sizeof(uint32_t));
}

static bool unchanged(struct snapshot *s, const struct frame_pool *p)
{
	bool same = p->nfree == s->pool.nfree && p->nframes == s->pool.nframes &&
		    p->bitmap == s->pool.bitmap &&
		    memcmp(p->bitmap, s->bitmap, s->words * sizeof(uint32_t)) == 0;

	free(s->bitmap);
	s->bitmap = NULL;
	return same;
}

/* ---- frames_alloc / frames_free ---- */

TEST(every_order_is_naturally_aligned_and_inside_the_pool)
{
	/* 5000 frames: room for one block of each order at once (2047
	 * frames), whatever the alignment waste. */
	struct frame_pool *p = pool_all_free(5000);
	uint32_t got[FRAMES_MAX_ORDER + 1];
	uint32_t expect = 5000;

	for (unsigned order = 0; order <= FRAMES_MAX_ORDER; order++) {
		uint32_t n = 1u << order;
		uint32_t pfn = frames_alloc(p, order);

		got[order] = pfn;
		CHECK(pfn != FRAME_NONE);
		if (pfn == FRAME_NONE)
			continue;
		CHECK_EQ_U(pfn % n, 0);
		CHECK(pfn + n <= 5000);
		CHECK(all_used(p, pfn, pfn + n));
		expect -= n;
		CHECK_EQ_U(frames_free_count(p), expect);
		CHECK_CONSISTENT(p);
	}
	/* No two blocks overlap. */
	for (unsigned a = 0; a <= FRAMES_MAX_ORDER; a++)
		for (unsigned b = a + 1; b <= FRAMES_MAX_ORDER; b++)
			if (got[a] != FRAME_NONE && got[b] != FRAME_NONE)
				CHECK(got[a] + (1u << a) <= got[b] ||
				      got[b] + (1u << b) <= got[a]);
	for (unsigned order = 0; order <= FRAMES_MAX_ORDER; order++)
		if (got[order] != FRAME_NONE)
			CHECK_EQ_I(frames_free(p, got[order], order), 0);
	CHECK_EQ_U(frames_free_count(p), 5000);
	CHECK_CONSISTENT(p);

	CHECK_EQ_U(frames_alloc(p, FRAMES_MAX_ORDER + 1), FRAME_NONE);
	CHECK_EQ_U(frames_alloc(p, 31), FRAME_NONE);
	CHECK_EQ_U(frames_free_count(p), 5000);
	pool_put(p);
}

/* Free frames [1, 2049): 2048 of them, but the only aligned 4 MiB block
 * inside is [1024, 2048), and no aligned block of any order starts at 0. */
TEST(alignment_is_kept_in_an_unaligned_free_range)
{
	struct frame_pool *p = pool_new(4096);

	frames_release_region(p, FRAME_SIZE, 2048 * FRAME_SIZE);
	CHECK_EQ_U(frames_free_count(p), 2048);
	CHECK_EQ_U(frames_alloc(p, 10), 1024);
	CHECK_EQ_U(frames_free_count(p), 1024);
	/* 1024 frames are still free, but no aligned 1024-block. */
	CHECK_EQ_U(frames_alloc(p, 10), FRAME_NONE);
	CHECK_EQ_U(frames_free_count(p), 1024);
	/* Order 9: [512, 1024) is the only one left. */
	CHECK_EQ_U(frames_alloc(p, 9), 512);
	CHECK_EQ_U(frames_alloc(p, 9), FRAME_NONE);
	/* Order 5 (one whole word) from what is left: 1..511 and 2048. */
	for (int i = 0; i < 15; i++) {
		uint32_t pfn = frames_alloc(p, 5);
		CHECK(pfn != FRAME_NONE && pfn % 32 == 0 && pfn >= 32 && pfn < 512);
	}
	CHECK_EQ_U(frames_alloc(p, 5), FRAME_NONE);     /* [0,32) lacks 0 */
	CHECK_EQ_U(frames_alloc(p, 4), 16);
	CHECK_EQ_U(frames_alloc(p, 4), FRAME_NONE);
	CHECK_EQ_U(frames_free_count(p), 15 + 1);       /* 1..15 and 2048 */
	CHECK_CONSISTENT(p);
	pool_put(p);
}

TEST(exhaustion_returns_frame_none)
{
	struct frame_pool *p = pool_all_free(100);
	uint8_t seen[100] = { 0 };

	for (int i = 0; i < 100; i++) {
		uint32_t pfn = frames_alloc(p, 0);
		CHECK(pfn < 100);
		if (pfn < 100) {
			CHECK(!seen[pfn]);
			seen[pfn] = 1;
		}
	}
	CHECK_EQ_U(frames_free_count(p), 0);
	CHECK_EQ_U(frames_alloc(p, 0), FRAME_NONE);
	CHECK_EQ_U(frames_alloc_run(p, 1), FRAME_NONE);
	CHECK_EQ_U(frames_free_count(p), 0);
	for (uint32_t pfn = 0; pfn < 100; pfn++)
		CHECK_EQ_I(frames_free(p, pfn, 0), 0);
	CHECK_EQ_U(frames_free_count(p), 100);

	/* Order 2: 25 blocks, then none. */
	for (int i = 0; i < 25; i++)
		CHECK(frames_alloc(p, 2) != FRAME_NONE);
	CHECK_EQ_U(frames_alloc(p, 2), FRAME_NONE);
	CHECK_EQ_U(frames_free_count(p), 0);
	CHECK_CONSISTENT(p);
	pool_put(p);

	/* Order 5 in 100 frames: blocks at 0, 32 and 64; 96..127 is not in
	 * the pool although its 4 existing frames are free. */
	p = pool_all_free(100);
	for (int i = 0; i < 3; i++) {
		uint32_t pfn = frames_alloc(p, 5);
		CHECK(pfn == 0 || pfn == 32 || pfn == 64);
	}
	CHECK_EQ_U(frames_alloc(p, 5), FRAME_NONE);
	CHECK_EQ_U(frames_free_count(p), 4);
	CHECK(all_free(p, 96, 100));
	CHECK_EQ_U(frames_alloc(p, 3), FRAME_NONE);     /* 96..103: past 100 */
	CHECK_EQ_U(frames_alloc(p, 2), 96);
	CHECK_EQ_U(frames_alloc(p, 0), FRAME_NONE);
	CHECK_CONSISTENT(p);
	pool_put(p);

	/* Order 6 in 100 frames: [0, 64) only. Order 7 needs 128. */
	p = pool_all_free(100);
	CHECK_EQ_U(frames_alloc(p, 6), 0);
	CHECK_EQ_U(frames_alloc(p, 6), FRAME_NONE);
	CHECK_EQ_U(frames_free_count(p), 36);
	pool_put(p);
	p = pool_all_free(100);
	CHECK_EQ_U(frames_alloc(p, 7), FRAME_NONE);
	CHECK_EQ_U(frames_free_count(p), 100);
	pool_put(p);
}

TEST(frees_restore_counts_and_frames)
{
	struct frame_pool *p = pool_all_free(2048);
	uint32_t a = frames_alloc(p, 3), b = frames_alloc(p, 0);
	uint32_t c = frames_alloc(p, 7), d = frames_alloc(p, 6);

	CHECK(a != FRAME_NONE && b != FRAME_NONE && c != FRAME_NONE && d != FRAME_NONE);
	CHECK_EQ_U(frames_free_count(p), 2048 - 8 - 1 - 128 - 64);
	CHECK_EQ_I(frames_free(p, c, 7), 0);
	CHECK_EQ_U(frames_free_count(p), 2048 - 8 - 1 - 64);
	CHECK(all_free(p, c, c + 128));
	CHECK_EQ_I(frames_free(p, a, 3), 0);
	CHECK_EQ_I(frames_free(p, d, 6), 0);
	CHECK_EQ_I(frames_free(p, b, 0), 0);
	CHECK_EQ_U(frames_free_count(p), 2048);
	CHECK_CONSISTENT(p);

	/* A block may be given back frame by frame. */
	a = frames_alloc(p, 2);
	CHECK(a != FRAME_NONE);
	for (uint32_t i = 0; i < 4; i++)
		CHECK_EQ_I(frames_free(p, a + i, 0), 0);
	CHECK_EQ_U(frames_free_count(p), 2048);
	/* And a run as blocks. */
	a = frames_alloc_run(p, 8);
	CHECK_EQ_U(a, 0);
	CHECK_EQ_I(frames_free(p, 0, 2), 0);
	CHECK_EQ_I(frames_free(p, 4, 2), 0);
	CHECK_EQ_U(frames_free_count(p), 2048);
	CHECK_CONSISTENT(p);
	pool_put(p);
}

TEST(bad_frees_return_minus_one_and_change_nothing)
{
	struct frame_pool *p = pool_all_free(100);
	struct snapshot s;
	uint32_t a = frames_alloc(p, 3);        /* 8 frames in use */
	uint32_t b = frames_alloc_run(p, 92);   /* the rest */

	CHECK(a != FRAME_NONE && b != FRAME_NONE);
	CHECK_EQ_U(frames_free_count(p), 0);
	CHECK_EQ_I(frames_free(p, a, 3), 0);

	/* Double free of the whole block. */
	snap(&s, p);
	CHECK_EQ_I(frames_free(p, a, 3), -1);
	CHECK(unchanged(&s, p));
	/* Double free of one frame of it. */
	snap(&s, p);
	CHECK_EQ_I(frames_free(p, a + 5, 0), -1);
	CHECK(unchanged(&s, p));

	/* Half in use, half free: refused whole, the used half stays used. */
	uint32_t half = frames_alloc(p, 2);
	CHECK(half == a || half == a + 4);
	snap(&s, p);
	CHECK_EQ_I(frames_free(p, a, 3), -1);
	CHECK_EQ_I(frames_free_run(p, a, 8), -1);
	CHECK(unchanged(&s, p));

	/* Misaligned for its order (frames b.. are in use). */
	snap(&s, p);
	CHECK_EQ_I(frames_free(p, 33, 1), -1);
	CHECK_EQ_I(frames_free(p, 34, 2), -1);
	CHECK_EQ_I(frames_free(p, 48, 5), -1);
	CHECK(unchanged(&s, p));

	/* Out of the pool, wholly or partly; orders that do not exist. */
	snap(&s, p);
	CHECK_EQ_I(frames_free(p, 100, 0), -1);
	CHECK_EQ_I(frames_free(p, 96, 3), -1);          /* 96..103 */
	CHECK_EQ_I(frames_free(p, 64, 6), -1);          /* 64..127 */
	CHECK_EQ_I(frames_free(p, FRAME_NONE, 0), -1);
	CHECK_EQ_I(frames_free(p, 0, FRAMES_MAX_ORDER + 1), -1);
	CHECK_EQ_I(frames_free(p, 0, 32), -1);
	CHECK_EQ_I(frames_free_run(p, 98, 3), -1);
	CHECK_EQ_I(frames_free_run(p, 100, 1), -1);
	CHECK_EQ_I(frames_free_run(p, 50, UINT32_MAX), -1);     /* wraps */
	CHECK_EQ_I(frames_free_run(p, UINT32_MAX, 2), -1);      /* wraps */
	CHECK(unchanged(&s, p));
	CHECK_CONSISTENT(p);
	pool_put(p);
}

/* ---- frames_alloc_run ---- */

TEST(alloc_run_is_first_fit)
{
	struct frame_pool *p = pool_new(200);

	frames_release_region(p, 2 * FRAME_SIZE, 2 * FRAME_SIZE);     /* 2..3 */
	frames_release_region(p, 10 * FRAME_SIZE, 5 * FRAME_SIZE);    /* 10..14 */
	frames_release_region(p, 20 * FRAME_SIZE, 20 * FRAME_SIZE);   /* 20..39 */
	frames_release_region(p, 60 * FRAME_SIZE, 40 * FRAME_SIZE);   /* 60..99 */
	CHECK_EQ_U(frames_free_count(p), 67);

	CHECK_EQ_U(frames_alloc_run(p, 3), 10);     /* 2..3 too short */
	CHECK_EQ_U(frames_alloc_run(p, 2), 2);      /* the first that fits */
	CHECK_EQ_U(frames_alloc_run(p, 3), 20);     /* 13..14 too short */
	CHECK_EQ_U(frames_alloc_run(p, 2), 13);
	CHECK_EQ_U(frames_alloc_run(p, 1), 23);
	/* Across word boundaries, at any alignment. */
	CHECK_EQ_U(frames_alloc_run(p, 40), 60);
	CHECK_EQ_U(frames_alloc_run(p, 17), FRAME_NONE);    /* 24..39 is 16 */
	CHECK_EQ_U(frames_alloc_run(p, 16), 24);
	CHECK_EQ_U(frames_free_count(p), 0);
	CHECK_EQ_U(frames_alloc_run(p, 1), FRAME_NONE);
	CHECK_CONSISTENT(p);

	CHECK_EQ_I(frames_free_run(p, 60, 40), 0);
	CHECK_EQ_I(frames_free_run(p, 10, 3), 0);
	CHECK_EQ_U(frames_free_count(p), 43);
	CHECK_EQ_U(frames_alloc_run(p, 0), FRAME_NONE);
	CHECK_EQ_U(frames_alloc_run(p, 44), FRAME_NONE);    /* more than free */
	CHECK_EQ_U(frames_alloc_run(p, 41), FRAME_NONE);    /* no run so long */
	CHECK_EQ_U(frames_free_count(p), 43);
	CHECK_EQ_U(frames_alloc_run(p, 4), 60);             /* 10..12 short */
	CHECK_CONSISTENT(p);
	pool_put(p);

	/* A run that ends exactly at the last frame of an odd-sized pool. */
	p = pool_new(45);
	frames_release_region(p, 40 * FRAME_SIZE, 5 * FRAME_SIZE);
	CHECK_EQ_U(frames_alloc_run(p, 6), FRAME_NONE);
	CHECK_EQ_U(frames_alloc_run(p, 5), 40);
	pool_put(p);
}

/* ---- odd sizes ---- */

TEST(non_multiple_of_32_never_hands_out_a_frame_past_the_end)
{
	static const uint32_t sizes[] = { 1, 2, 31, 33, 45, 100, 1000, 1055, 2049 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint32_t n = sizes[i];
		struct frame_pool *p = pool_all_free(n);
		uint32_t got = 0;

		CHECK_CONSISTENT(p);
		CHECK(!frames_is_free(p, n));
		CHECK(!frames_is_free(p, UINT32_MAX));
		/* Every order in turn, largest first, until nothing is left. */
		for (int order = FRAMES_MAX_ORDER; order >= 0; order--) {
			uint32_t pfn;
			while ((pfn = frames_alloc(p, (unsigned)order)) != FRAME_NONE) {
				CHECK(pfn + (1u << order) <= n);
				CHECK_EQ_U(pfn % (1u << order), 0);
				got += 1u << order;
				if (pfn + (1u << order) > n || got > n)
					break;
			}
		}
		CHECK_EQ_U(got, n);
		CHECK_EQ_U(frames_free_count(p), 0);
		CHECK_CONSISTENT(p);
		pool_put(p);
	}

	/* No frames at all. */
	struct frame_pool *p = pool_all_free(0);
	CHECK_EQ_U(frames_alloc(p, 0), FRAME_NONE);
	CHECK_EQ_U(frames_alloc_run(p, 1), FRAME_NONE);
	CHECK_EQ_I(frames_free(p, 0, 0), -1);
	CHECK(!frames_is_free(p, 0));
	pool_put(p);
}

TEST(reserved_frames_are_never_handed_out)
{
	struct frame_pool *p = pool_all_free(1000);
	uint32_t got = 0, pfn;

	/* A scatter of single reserved frames, and one longer range. */
	for (uint32_t f = 3; f < 1000; f += 37)
		frames_reserve_region(p, (uint64_t)f * FRAME_SIZE, 1);
	frames_reserve_region(p, 500 * FRAME_SIZE, 40 * FRAME_SIZE);
	uint32_t nfree = frames_free_count(p);
	CHECK_CONSISTENT(p);
	while ((pfn = frames_alloc(p, 0)) != FRAME_NONE && got <= 1000) {
		CHECK(pfn < 1000);
		CHECK(pfn % 37 != 3);
		CHECK(pfn < 500 || pfn >= 540);
		got++;
	}
	CHECK_EQ_U(got, nfree);
	pool_put(p);
}

