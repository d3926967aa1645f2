/* kernel/mm/frames.h - the physical frame allocator (pure logic).
 *
 * A bitmap with one bit per 4 KiB frame, 1 = free. Allocation is by order:
 * 2^order contiguous frames, aligned to their size (so an order-1 block is
 * 8 KiB aligned: kernel stacks rely on it, thread_info.h). The free count is
 * kept exactly, so tests can check that a workload gives back every frame.
 * No locking and no hardware here: kernel/mm/pmm.c wraps one pool with a
 * lock for the kernel, and tests/unit/test_frames.c runs it on the host. */
#ifndef KERNEL_MM_FRAMES_H
#define KERNEL_MM_FRAMES_H

#include "lib/types.h"

#define FRAME_SHIFT   12
#define FRAME_SIZE    (1u << FRAME_SHIFT)
#define FRAME_NONE    0xffffffffu       /* "no frame" from frames_alloc */
#define FRAMES_MAX_ORDER 10             /* 4 MiB */

struct frame_pool {
	uint32_t *bitmap;       /* nframes bits, rounded up to words */
	uint32_t nframes;       /* frames 0 .. nframes-1 are described */
	uint32_t nfree;
	uint32_t hint;          /* a word index where a search starts */
};

/* Words of bitmap needed for nframes. */
#define FRAMES_BITMAP_WORDS(n) (((n) + 31) / 32)

/* Starts with every frame in use (reserved); release what is RAM. */
void frames_init(struct frame_pool *p, uint32_t *bitmap, uint32_t nframes);

/* Boot-time: mark the whole frames inside [addr, addr+len) free, or the
 * frames touching [addr, addr+len) in use. Ranges are clipped to the pool,
 * so a memory map entry may be passed as it is (64-bit, unaligned). */
void frames_release_region(struct frame_pool *p, uint64_t addr, uint64_t len);
void frames_reserve_region(struct frame_pool *p, uint64_t addr, uint64_t len);

/* 2^order frames, naturally aligned: returns the first frame number, or
 * FRAME_NONE if there is no such free block. */
uint32_t frames_alloc(struct frame_pool *p, unsigned order);

/* `count` contiguous frames at any alignment (first fit; for boot-time
 * tables), or FRAME_NONE. */
uint32_t frames_alloc_run(struct frame_pool *p, uint32_t count);

/* Gives back 2^order frames from pfn (or `count` for the _run variant).
 * Returns 0, or -1 (and changes nothing) if any of them is outside the pool
 * or already free: a double free is reported, never absorbed. */
int frames_free(struct frame_pool *p, uint32_t pfn, unsigned order);
int frames_free_run(struct frame_pool *p, uint32_t pfn, uint32_t count);

static inline uint32_t frames_free_count(const struct frame_pool *p)
{
	return p->nfree;
}

#endif
