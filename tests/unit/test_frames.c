/* tests/unit/test_frames.c - kernel/mm/frames.c on the host, against
 * kernel/mm/frames.h: frames_init and the boot-time regions (unaligned,
 * 64-bit, clipped, overlapping) with exact free counts. The binary's
 * other tests, allocation and frees (frames_alloc.c) and a long random
 * workload checked frame by frame against a model (frames_model.c), are
 * linked into it: tests/unit/frames_pool.h lists them. */
#include "tests/unit/frames_pool.h"

#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)

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

