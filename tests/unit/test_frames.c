/* tests/unit/test_frames.c - kernel/mm/frames.c on the host, against
 * kernel/mm/frames.h: boot-time regions (unaligned, 64-bit, clipped,
 * overlapping), exact free counts, naturally aligned allocation of every
 * order, exhaustion, frees that must be refused, first-fit runs, and a
 * long random workload checked frame by frame against a model.
 *
 * Every bitmap is a heap block of exactly FRAMES_BITMAP_WORDS(nframes)
 * words, so ASan reports any read or write past the pool's last word. */
#include "tests/unit/unit.h"
#include "kernel/mm/frames.h"

#include <stdlib.h>
#include <string.h>

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

/* ---- helpers ---- */

/* A pool of nframes over a fresh heap bitmap filled with junk, so that
 * frames_init has to clear it. Freed with pool_put. */
static struct frame_pool *pool_new(uint32_t nframes)
{
	struct frame_pool *p = malloc(sizeof(*p));
	size_t words = FRAMES_BITMAP_WORDS(nframes);
	uint32_t *bitmap = malloc(words ? words * sizeof(uint32_t) : 1);

	memset(bitmap, 0xa5, words * sizeof(uint32_t));
	memset(p, 0x5a, sizeof(*p));
	frames_init(p, bitmap, nframes);
	return p;
}

static void pool_put(struct frame_pool *p)
{
	free(p->bitmap);
	free(p);
}

/* A pool whose every frame is free. */
static struct frame_pool *pool_all_free(uint32_t nframes)
{
	struct frame_pool *p = pool_new(nframes);

	frames_release_region(p, 0, (uint64_t)nframes * FRAME_SIZE);
	CHECK_EQ_U(frames_free_count(p), nframes);
	return p;
}

/* Frames free by the bitmap, counted one by one. Also checks the bits
 * past nframes in the last word (frames.h: "1 = free"): no frame that
 * does not exist may ever be marked free. */
static uint32_t scan_free(const struct frame_pool *p)
{
	uint32_t n = 0;

	for (uint32_t pfn = 0; pfn < p->nframes; pfn++)
		n += frames_is_free(p, pfn);
	if (p->nframes % 32) {
		uint32_t last = p->bitmap[p->nframes / 32];
		CHECK_EQ_U(last >> (p->nframes % 32), 0);
	}
	return n;
}

/* The kept count agrees with the bitmap. */
#define CHECK_CONSISTENT(p) CHECK_EQ_U(frames_free_count(p), scan_free(p))

/* Are frames [lo, hi) all free / all in use? */
static bool all_free(const struct frame_pool *p, uint32_t lo, uint32_t hi)
{
	for (uint32_t pfn = lo; pfn < hi; pfn++)
		if (!frames_is_free(p, pfn))
			return false;
	return true;
}

static bool all_used(const struct frame_pool *p, uint32_t lo, uint32_t hi)
{
	for (uint32_t pfn = lo; pfn < hi; pfn++)
		if (frames_is_free(p, pfn))
			return false;
	return true;
}

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

/* A fixed-seed generator (xorshift32), so every run is the same run. */
static uint32_t rng_state;

static uint32_t rng(void)
{
	uint32_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rng_state = x;
}

/* ---- frames_init ---- */

TEST(init_leaves_every_frame_in_use)
{
	struct frame_pool *p = pool_new(1000);

	CHECK_EQ_U(p->nframes, 1000);
	CHECK_EQ_U(frames_free_count(p), 0);
	CHECK_EQ_U(scan_free(p), 0);
	for (uint32_t w = 0; w < FRAMES_BITMAP_WORDS(1000); w++)
		CHECK_EQ_U(p->bitmap[w], 0);    /* the junk is gone */
	for (unsigned order = 0; order <= FRAMES_MAX_ORDER; order++)
		CHECK_EQ_U(frames_alloc(p, order), FRAME_NONE);
	CHECK_EQ_U(frames_alloc_run(p, 1), FRAME_NONE);
	CHECK_EQ_I(frames_free(p, 0, 0), 0);    /* in use, so it can be freed */
	CHECK_EQ_U(frames_free_count(p), 1);
	pool_put(p);
}

/* ---- boot-time regions ---- */

TEST(release_frees_only_whole_frames)
{
	struct frame_pool *p = pool_new(64);

	/* [0x1800, 0x4800): frame 1 and frame 4 are only partly inside. */
	frames_release_region(p, 0x1800, 0x3000);
	CHECK_EQ_U(frames_free_count(p), 2);
	CHECK(!frames_is_free(p, 1));
	CHECK(frames_is_free(p, 2));
	CHECK(frames_is_free(p, 3));
	CHECK(!frames_is_free(p, 4));
	CHECK_CONSISTENT(p);

	/* Exactly one frame, aligned at both ends. */
	frames_release_region(p, 0x8000, 0x1000);
	CHECK_EQ_U(frames_free_count(p), 3);
	CHECK(frames_is_free(p, 8));
	CHECK(!frames_is_free(p, 7));
	CHECK(!frames_is_free(p, 9));
	CHECK_CONSISTENT(p);
	pool_put(p);
}

TEST(release_of_less_than_a_frame_frees_nothing)
{
	struct frame_pool *p = pool_new(64);

	frames_release_region(p, 0x1000, 0);            /* empty */
	frames_release_region(p, 0x1001, 0xfff);        /* ends at 0x2000 */
	frames_release_region(p, 0x3000, 0xfff);        /* one byte short */
	frames_release_region(p, 0x4800, 0x1000);       /* straddles 4 and 5 */
	CHECK_EQ_U(frames_free_count(p), 0);
	CHECK_EQ_U(scan_free(p), 0);
	pool_put(p);
}

TEST(reserve_takes_every_touched_frame)
{
	struct frame_pool *p = pool_all_free(64);

	frames_reserve_region(p, 0x1800, 0x1000);       /* touches 1 and 2 */
	CHECK_EQ_U(frames_free_count(p), 62);
	CHECK(frames_is_free(p, 0));
	CHECK(!frames_is_free(p, 1));
	CHECK(!frames_is_free(p, 2));
	CHECK(frames_is_free(p, 3));

	frames_reserve_region(p, 0x5fff, 1);            /* last byte of 5 */
	CHECK(!frames_is_free(p, 5));
	CHECK(frames_is_free(p, 6));
	frames_reserve_region(p, 0x7000, 1);            /* first byte of 7 */
	CHECK(!frames_is_free(p, 7));
	CHECK(frames_is_free(p, 8));
	CHECK_EQ_U(frames_free_count(p), 60);

	frames_reserve_region(p, 0x9000, 0);            /* empty: nothing */
	CHECK(frames_is_free(p, 9));
	CHECK_EQ_U(frames_free_count(p), 60);
	CHECK_CONSISTENT(p);
	pool_put(p);
}

TEST(regions_are_clipped_to_the_pool)
{
	/* 100 frames: not a multiple of 32, so the last word is partial. */
	struct frame_pool *p = pool_new(100);

	/* From frame 98 to far past the end: 98 and 99 only. */
	frames_release_region(p, 98 * FRAME_SIZE, 1 * MIB);
	CHECK_EQ_U(frames_free_count(p), 2);
	CHECK(frames_is_free(p, 98));
	CHECK(frames_is_free(p, 99));
	CHECK(!frames_is_free(p, 100));
	CHECK_CONSISTENT(p);

	/* Wholly past the end: nothing. */
	frames_release_region(p, 100 * FRAME_SIZE, 1 * MIB);
	frames_release_region(p, 4 * GIB, 1 * MIB);
	CHECK_EQ_U(frames_free_count(p), 2);
	CHECK_CONSISTENT(p);

	/* Everything, with a length far beyond the pool. */
	frames_release_region(p, 0, 64 * GIB);
	CHECK_EQ_U(frames_free_count(p), 100);
	CHECK_CONSISTENT(p);

	/* Reserve from frame 97 on, past the end: 97..99 only. */
	frames_reserve_region(p, 97 * FRAME_SIZE + 5, 1 * MIB);
	CHECK_EQ_U(frames_free_count(p), 97);
	CHECK(frames_is_free(p, 96));
	CHECK(!frames_is_free(p, 97));
	frames_reserve_region(p, 4 * GIB, 1 * MIB);     /* past the end */
	CHECK_EQ_U(frames_free_count(p), 97);
	CHECK_CONSISTENT(p);
	pool_put(p);
}

/* Multiboot memory map entries are 64-bit: a PAE machine reports RAM above
 * 4 GiB, and a region may start below 4 GiB and run past it. */
TEST(regions_with_64bit_addresses)
{
	struct frame_pool *p = pool_new(2048);          /* 8 MiB */

	/* Above 4 GiB but with the same low 32 bits as frame 16: a
	 * truncation to 32 bits would free frames 16..31. */
	frames_release_region(p, 4 * GIB + 16 * FRAME_SIZE, 16 * FRAME_SIZE);
	CHECK_EQ_U(frames_free_count(p), 0);
	/* A length that truncates to 64 KiB in 32 bits. */
	frames_release_region(p, 0, 4 * GIB + 64 * KIB);
	CHECK_EQ_U(frames_free_count(p), 2048);
	CHECK_CONSISTENT(p);

	frames_reserve_region(p, 4 * GIB + 16 * FRAME_SIZE, 16 * FRAME_SIZE);
	CHECK_EQ_U(frames_free_count(p), 2048);
	frames_reserve_region(p, 1 * MIB, 4 * GIB + 4 * KIB);   /* to the end */
	CHECK_EQ_U(frames_free_count(p), 256);
	CHECK(frames_is_free(p, 255));
	CHECK(!frames_is_free(p, 256));
	CHECK(!frames_is_free(p, 2047));
	CHECK_CONSISTENT(p);
	pool_put(p);
}

/* addr + len past 2^64: the region is "everything from addr on". */
TEST(regions_whose_end_overflows_64_bits)
{
	struct frame_pool *p = pool_new(256);

	frames_release_region(p, 0x5000, UINT64_MAX);
	CHECK_EQ_U(frames_free_count(p), 256 - 5);
	CHECK(!frames_is_free(p, 4));
	CHECK(frames_is_free(p, 5));
	CHECK(frames_is_free(p, 255));
	CHECK_CONSISTENT(p);

	frames_reserve_region(p, 0x10800, UINT64_MAX);  /* from frame 16 on */
	CHECK_EQ_U(frames_free_count(p), 11);
	CHECK(frames_is_free(p, 15));
	CHECK(!frames_is_free(p, 16));
	CHECK_CONSISTENT(p);

	frames_reserve_region(p, UINT64_MAX - 0x1000, 0x2000);  /* far away */
	CHECK_EQ_U(frames_free_count(p), 11);
	CHECK_CONSISTENT(p);
	pool_put(p);
}

/* A region in the last 4 KiB below 2^64 holds no whole frame of the pool;
 * rounding its start up to a frame must not wrap around to frame 0. */
TEST(release_at_the_top_of_64bit_space_frees_nothing)
{
	struct frame_pool *p = pool_new(256);

	frames_release_region(p, UINT64_MAX - 10, 5);
	CHECK_EQ_U(frames_free_count(p), 0);
	frames_release_region(p, UINT64_MAX - 0x800, UINT64_MAX);
	CHECK_EQ_U(frames_free_count(p), 0);
	CHECK_CONSISTENT(p);
	pool_put(p);
}

TEST(overlapping_regions_count_each_frame_once)
{
	struct frame_pool *p = pool_new(128);

	frames_release_region(p, 0, 16 * FRAME_SIZE);
	frames_release_region(p, 0, 16 * FRAME_SIZE);           /* again */
	CHECK_EQ_U(frames_free_count(p), 16);
	frames_release_region(p, 8 * FRAME_SIZE, 16 * FRAME_SIZE); /* 8..23 */
	CHECK_EQ_U(frames_free_count(p), 24);
	CHECK_CONSISTENT(p);

	frames_reserve_region(p, 4 * FRAME_SIZE, 8 * FRAME_SIZE);  /* 4..11 */
	frames_reserve_region(p, 6 * FRAME_SIZE, 8 * FRAME_SIZE);  /* 6..13 */
	CHECK_EQ_U(frames_free_count(p), 24 - 10);
	frames_reserve_region(p, 64 * FRAME_SIZE, 8 * FRAME_SIZE); /* in use */
	CHECK_EQ_U(frames_free_count(p), 14);
	CHECK(all_free(p, 0, 4));
	CHECK(all_used(p, 4, 14));
	CHECK(all_free(p, 14, 24));
	CHECK(all_used(p, 24, 128));
	CHECK_CONSISTENT(p);

	/* A memory map as a loader writes one: RAM, a hole, RAM again, and a
	 * reserved range overlapping both. */
	p = (pool_put(p), pool_new(1024));
	frames_release_region(p, 0, 0x9fc00);                   /* 0..158 */
	frames_release_region(p, 0x100000, 0x300000);           /* 256..1023 */
	frames_reserve_region(p, 0x9f000, 0x61800);             /* 159..256 */
	CHECK_EQ_U(frames_free_count(p), 159 + 767);    /* 0..158, 257..1023 */
	CHECK(frames_is_free(p, 158));
	CHECK(!frames_is_free(p, 159));
	CHECK(!frames_is_free(p, 256));
	CHECK(frames_is_free(p, 257));
	CHECK_CONSISTENT(p);
	pool_put(p);
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

/* ---- a long random workload against a model ---- */

#define RAND_FRAMES 3000        /* 3000 % 32 = 24: a partial last word */
#define RAND_OPS 20000
#define RAND_LIVE 4096

struct live {
	uint32_t pfn, count;
	int order;                  /* -1: from frames_alloc_run */
};

static uint8_t model[RAND_FRAMES];      /* 1 = free */
static uint32_t model_nfree;

static bool model_run_free(uint32_t pfn, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		if (!model[pfn + i])
			return false;
	return true;
}

static void model_set(uint32_t pfn, uint32_t count, uint8_t v)
{
	for (uint32_t i = 0; i < count; i++)
		model[pfn + i] = v;
	model_nfree = v ? model_nfree + count : model_nfree - count;
}

/* Is there an aligned free block of 2^order frames inside the pool? */
static bool model_has_block(unsigned order)
{
	uint32_t n = 1u << order;

	for (uint32_t pfn = 0; pfn + n <= RAND_FRAMES; pfn += n)
		if (model_run_free(pfn, n))
			return true;
	return false;
}

static uint32_t model_first_fit(uint32_t count)
{
	uint32_t run = 0;

	for (uint32_t pfn = 0; pfn < RAND_FRAMES; pfn++) {
		run = model[pfn] ? run + 1 : 0;
		if (run == count)
			return pfn + 1 - count;
	}
	return FRAME_NONE;
}

static bool model_matches(const struct frame_pool *p)
{
	if (frames_free_count(p) != model_nfree)
		return false;
	for (uint32_t pfn = 0; pfn < RAND_FRAMES; pfn++)
		if (frames_is_free(p, pfn) != (bool)model[pfn])
			return false;
	return true;
}

TEST(random_workload_matches_a_model)
{
	static struct live live[RAND_LIVE];
	struct frame_pool *p = pool_new(RAND_FRAMES);
	struct live gone = { 0, 0, 0 };     /* the last block freed */
	int nlive = 0, mismatches = 0;
	uint32_t start;

	rng_state = 0x5eed1234;
	memset(model, 0, sizeof(model));
	model_nfree = 0;
	/* RAM with holes, as from a memory map. */
	frames_release_region(p, 0, (uint64_t)RAND_FRAMES * FRAME_SIZE);
	frames_reserve_region(p, 0, 7 * FRAME_SIZE);
	frames_reserve_region(p, 1500 * FRAME_SIZE + 100, 3 * FRAME_SIZE);
	model_set(7, 1500 - 7, 1);
	model_set(1504, RAND_FRAMES - 1504, 1);
	CHECK(model_matches(p));
	start = model_nfree;

	for (int op = 0; op < RAND_OPS && mismatches == 0; op++) {
		uint32_t r = rng() % 100;

		if (r < 40 && nlive < RAND_LIVE) {
			unsigned order = rng() % 4 ? rng() % 4 : rng() % (FRAMES_MAX_ORDER + 1);
			uint32_t n = 1u << order, pfn = frames_alloc(p, order);

			if (pfn == FRAME_NONE) {
				CHECK(!model_has_block(order));
			} else if (pfn % n || pfn + n > RAND_FRAMES || !model_run_free(pfn, n)) {
				unit_fail(__FILE__, __LINE__, "op %d: order %u gave bad pfn %u",
					  op, order, pfn);
				mismatches++;
			} else {
				model_set(pfn, n, 0);
				live[nlive++] = (struct live){ pfn, n, (int)order };
			}
		} else if (r < 50 && nlive < RAND_LIVE) {
			uint32_t count = 1 + rng() % 64;
			uint32_t pfn = frames_alloc_run(p, count);

			CHECK_EQ_U(pfn, model_first_fit(count));
			if (pfn != FRAME_NONE && pfn == model_first_fit(count)) {
				model_set(pfn, count, 0);
				live[nlive++] = (struct live){ pfn, count, -1 };
			}
		} else if (r < 90 && nlive > 0) {
			int i = (int)(rng() % (uint32_t)nlive);
			struct live l = live[i];
			int ret = l.order >= 0 && rng() % 2
				? frames_free(p, l.pfn, (unsigned)l.order)
				: frames_free_run(p, l.pfn, l.count);

			CHECK_EQ_I(ret, 0);
			model_set(l.pfn, l.count, 1);
			live[i] = live[--nlive];
			gone = l;
		} else if (gone.count && !model_run_free(gone.pfn, gone.count) &&
			   gone.pfn + gone.count <= RAND_FRAMES) {
			/* Free a freed block again: some of it may be reused
			 * since, but part of it is still free, so it is refused. */
			bool any_free = false;
			for (uint32_t i = 0; i < gone.count; i++)
				any_free |= model[gone.pfn + i];
			if (any_free) {
				int ret = gone.order >= 0
					? frames_free(p, gone.pfn, (unsigned)gone.order)
					: frames_free_run(p, gone.pfn, gone.count);
				CHECK_EQ_I(ret, -1);
			}
		} else if (gone.count && model_run_free(gone.pfn, gone.count)) {
			CHECK_EQ_I(frames_free_run(p, gone.pfn, gone.count), -1);
		}
		if (!model_matches(p)) {
			unit_fail(__FILE__, __LINE__, "op %d: pool and model differ", op);
			mismatches++;
		}
	}
	CHECK_CONSISTENT(p);
	while (nlive > 0) {
		struct live l = live[--nlive];
		CHECK_EQ_I(frames_free_run(p, l.pfn, l.count), 0);
		model_set(l.pfn, l.count, 1);
	}
	CHECK_EQ_U(frames_free_count(p), start);
	CHECK(model_matches(p));
	CHECK_CONSISTENT(p);
	pool_put(p);
}
