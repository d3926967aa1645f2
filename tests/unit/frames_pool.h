/* tests/unit/frames_pool.h - the pools the frame allocator's tests
 * (binary test_frames) run on, and the checks they share; defined in
 * tests/unit/frames_pool.c.
 *
 * test_frames is one binary of four sources, all of whose tests print as
 * unit/test_frames.<test> (tests/unit/Makefile.inc, UNIT_LIBS_test_frames),
 * in this order:
 *   test_frames.c   frames_init and the boot-time regions
 *   frames_alloc.c  frames_alloc, frames_free, frames_alloc_run, odd sizes
 *   frames_model.c  a long random workload checked against a model
 *
 * Every bitmap is a heap block of exactly FRAMES_BITMAP_WORDS(nframes)
 * words, so ASan reports any read or write past the pool's last word. */
#ifndef TESTS_UNIT_FRAMES_POOL_H
#define TESTS_UNIT_FRAMES_POOL_H

#include "tests/unit/unit.h"
#include "kernel/mm/frames.h"

/* A pool of nframes over a fresh heap bitmap filled with junk, so that
 * frames_init has to clear it. Freed with pool_put. */
struct frame_pool *pool_new(uint32_t nframes);
void pool_put(struct frame_pool *p);
/* A pool whose every frame is free. */
struct frame_pool *pool_all_free(uint32_t nframes);

/* Frames free by the bitmap, counted one by one; also checks that no bit
 * past nframes is set. */
uint32_t scan_free(const struct frame_pool *p);

/* Is frame pfn in the pool and free? Bit pfn % 32 of word pfn / 32 set
 * (kernel/mm/frames.c's bitmap: 1 = free). */
static inline bool frames_is_free(const struct frame_pool *p, uint32_t pfn)
{
	return pfn < p->nframes && ((p->bitmap[pfn / 32] >> (pfn % 32)) & 1);
}

/* The kept count agrees with the bitmap. */
#define CHECK_CONSISTENT(p) CHECK_EQ_U(frames_free_count(p), scan_free(p))

/* Are frames [lo, hi) all free / all in use? */
bool all_free(const struct frame_pool *p, uint32_t lo, uint32_t hi);
bool all_used(const struct frame_pool *p, uint32_t lo, uint32_t hi);

#endif
