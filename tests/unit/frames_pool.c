/* tests/unit/frames_pool.c - the pools and checks of the frame
 * allocator's tests (tests/unit/frames_pool.h). No tests here. */
#include "tests/unit/frames_pool.h"

#include <stdlib.h>
#include <string.h>

/* A pool of nframes over a fresh heap bitmap filled with junk, so that
 * frames_init has to clear it. Freed with pool_put. */
struct frame_pool *pool_new(uint32_t nframes)
{
	struct frame_pool *p = malloc(sizeof(*p));
	size_t words = FRAMES_BITMAP_WORDS(nframes);
	uint32_t *bitmap = malloc(words ? words * sizeof(uint32_t) : 1);

	memset(bitmap, 0xa5, words * sizeof(uint32_t));
	memset(p, 0x5a, sizeof(*p));
	frames_init(p, bitmap, nframes);
	return p;
}

void pool_put(struct frame_pool *p)
{
	free(p->bitmap);
	free(p);
}

/* A pool whose every frame is free. */
struct frame_pool *pool_all_free(uint32_t nframes)
{
	struct frame_pool *p = pool_new(nframes);

	frames_release_region(p, 0, (uint64_t)nframes * FRAME_SIZE);
	CHECK_EQ_U(frames_free_count(p), nframes);
	return p;
}

/* Frames free by the bitmap, counted one by one. Also checks the bits
 * past nframes in the last word (frames.h: "1 = free"): no frame that
 * does not exist may ever be marked free. */
uint32_t scan_free(const struct frame_pool *p)
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

/* Are frames [lo, hi) all free / all in use? */
bool all_free(const struct frame_pool *p, uint32_t lo, uint32_t hi)
{
	for (uint32_t pfn = lo; pfn < hi; pfn++)
		if (!frames_is_free(p, pfn))
			return false;
	return true;
}

bool all_used(const struct frame_pool *p, uint32_t lo, uint32_t hi)
{
	for (uint32_t pfn = lo; pfn < hi; pfn++)
		if (frames_is_free(p, pfn))
			return false;
	return true;
}
