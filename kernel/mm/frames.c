/* kernel/mm/frames.c - the frame bitmap (frames.h). */
#include "kernel/mm/frames.h"

static inline bool bit_free(const struct frame_pool *p, uint32_t pfn)
{
	return (p->bitmap[pfn / 32] >> (pfn % 32)) & 1;
}

static inline void bit_set_free(struct frame_pool *p, uint32_t pfn)
{
	p->bitmap[pfn / 32] |= 1u << (pfn % 32);
}

static inline void bit_set_used(struct frame_pool *p, uint32_t pfn)
{
	p->bitmap[pfn / 32] &= ~(1u << (pfn % 32));
}

void frames_init(struct frame_pool *p, uint32_t *bitmap, uint32_t nframes)
{
	p->bitmap = bitmap;
	p->nframes = nframes;
	p->nfree = 0;
	p->hint = 0;
	for (uint32_t i = 0; i < FRAMES_BITMAP_WORDS(nframes); i++)
		bitmap[i] = 0;
}

/* Frame numbers [first, last) clipped to the pool. */
static void clip(const struct frame_pool *p, uint64_t first, uint64_t last,
		 uint32_t *lo, uint32_t *hi)
{
	if (last > p->nframes)
		last = p->nframes;
	if (first > last)
		first = last;
	*lo = (uint32_t)first;
	*hi = (uint32_t)last;
}

void frames_release_region(struct frame_pool *p, uint64_t addr, uint64_t len)
{
	uint32_t lo, hi;
	uint64_t end = addr + len < addr ? UINT64_MAX : addr + len;
	/* Only frames wholly inside the region: round the start up, without
	 * letting addr + FRAME_SIZE - 1 wrap past 2^64 to frame 0. */
	uint64_t first = (addr >> FRAME_SHIFT) + ((addr & (FRAME_SIZE - 1)) != 0);

	clip(p, first, end >> FRAME_SHIFT, &lo, &hi);
	for (uint32_t pfn = lo; pfn < hi; pfn++)
		if (!bit_free(p, pfn)) {
			bit_set_free(p, pfn);
			p->nfree++;
		}
}

void frames_reserve_region(struct frame_pool *p, uint64_t addr, uint64_t len)
{
	uint32_t lo, hi;
	uint64_t end = addr + len < addr ? UINT64_MAX : addr + len;

	if (len == 0)
		return;
	/* Every frame the region touches: round the end up. */
	clip(p, addr >> FRAME_SHIFT,
	     end > UINT64_MAX - FRAME_SIZE ? UINT64_MAX >> FRAME_SHIFT
					   : (end + FRAME_SIZE - 1) >> FRAME_SHIFT,
	     &lo, &hi);
	for (uint32_t pfn = lo; pfn < hi; pfn++)
		if (bit_free(p, pfn)) {
			bit_set_used(p, pfn);
			p->nfree--;
		}
}

static void take(struct frame_pool *p, uint32_t pfn, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		bit_set_used(p, pfn + i);
	p->nfree -= count;
}

/* Blocks of up to 32 frames live inside one bitmap word: try each aligned
 * position of the word. Larger blocks are runs of whole free words. */
uint32_t frames_alloc(struct frame_pool *p, unsigned order)
{
	uint32_t n = 1u << order;
	uint32_t words = FRAMES_BITMAP_WORDS(p->nframes);

	if (order > FRAMES_MAX_ORDER || n > p->nfree)
		return FRAME_NONE;
	for (uint32_t k = 0; k < words; k++) {
		uint32_t w = (p->hint + k) % words;
		uint32_t bits = p->bitmap[w];

		if (bits == 0)
			continue;
		if (n <= 32) {
			uint32_t mask = n == 32 ? 0xffffffffu : (1u << n) - 1;
			/* From the aligned position of the lowest free bit (bsf:
			 * one instruction), not from 0: for a single frame, the
			 * common case (a page, a page table), the first try is
			 * the one, wherever in the word the free frames are. */
			for (uint32_t s = (uint32_t)__builtin_ctz(bits) & ~(n - 1); s < 32; s += n) {
				uint32_t pfn = w * 32 + s;
				if (((bits >> s) & mask) == mask && pfn + n <= p->nframes) {
					take(p, pfn, n);
					p->hint = w;
					return pfn;
				}
			}
		} else {
			uint32_t nw = n / 32, i;
			if (w % nw != 0 || w + nw > words)
				continue;
			for (i = 0; i < nw && p->bitmap[w + i] == 0xffffffffu; i++)
				;
			if (i == nw && (w + nw) * 32 <= p->nframes) {
				take(p, w * 32, n);
				p->hint = w;
				return w * 32;
			}
		}
	}
	return FRAME_NONE;
}

uint32_t frames_alloc_run(struct frame_pool *p, uint32_t count)
{
	uint32_t run = 0;

	if (count == 0 || count > p->nfree)
		return FRAME_NONE;
	for (uint32_t pfn = 0; pfn < p->nframes; pfn++) {
		run = bit_free(p, pfn) ? run + 1 : 0;
		if (run == count) {
			take(p, pfn + 1 - count, count);
			return pfn + 1 - count;
		}
	}
	return FRAME_NONE;
}

int frames_free_run(struct frame_pool *p, uint32_t pfn, uint32_t count)
{
	if (pfn >= p->nframes || count > p->nframes - pfn)
		return -1;
	for (uint32_t i = 0; i < count; i++)
		if (bit_free(p, pfn + i))
			return -1;
	for (uint32_t i = 0; i < count; i++)
		bit_set_free(p, pfn + i);
	p->nfree += count;
	return 0;
}

int frames_free(struct frame_pool *p, uint32_t pfn, unsigned order)
{
	if (order > FRAMES_MAX_ORDER || (pfn & ((1u << order) - 1)))
		return -1;
	return frames_free_run(p, pfn, 1u << order);
}
