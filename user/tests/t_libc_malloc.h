/* user/tests/t_libc_malloc.h - t_libc's malloc cases, over brk and mmap2.
 * Not a program of its own: t_libc.c includes it once (a test program is
 * one .c file, user/Makefile.inc) and runs these cases first, on a heap
 * nothing else has touched.
 *
 * The allocator's list logic is tested on the host too
 * (tests/unit/test_libc_heap.c); here it runs on brk(2), and the exact
 * expectations are about the kernel's memory:
 *   - small blocks: memory freed is kept for reuse, so a second round of
 *     the same allocations does not move the break at all, and once all
 *     is freed the heap is a single free block (everything coalesced);
 *   - large blocks (>= MALLOC_MMAP_THRESHOLD): a mapping of their own,
 *     unmapped by free, so /proc/kstat's frames_free comes back to
 *     exactly its value before the malloc (after one warm-up round, which
 *     lets the kernel allocate the page table and VMA slab it keeps). */
#ifndef USER_TESTS_T_LIBC_MALLOC_H
#define USER_TESTS_T_LIBC_MALLOC_H

#include "t.h"
#include "thr.h"
#include "malloc.h"
#include "unistd.h"

/* ---- malloc: small blocks on brk ---- */

#define NBLK 160

static unsigned char *blk[NBLK];
static size_t blen[NBLK];

static unsigned char pattern(size_t i, size_t j)
{
	return (unsigned char)(i * 31 + j * 7 + 1);
}

static void fill(size_t i)
{
	for (size_t j = 0; j < blen[i]; j++)
		blk[i][j] = pattern(i, j);
}

/* Index of the first block whose bytes are not its pattern, or -1. */
static long first_damaged(size_t step)
{
	for (size_t i = 0; i < NBLK; i += step)
		for (size_t j = 0; j < blen[i]; j++)
			if (blk[i][j] != pattern(i, j))
				return (long)i;
	return -1;
}

/* Sizes from 0 to just under the mmap threshold, many of them odd. */
static size_t size_for(size_t i, size_t round)
{
	static const size_t edge[] = { 0, 1, 15, 16, 17, 31, 32, 33, 4095, 4096, 4097,
				       MALLOC_MMAP_THRESHOLD - 1 };
	if (i < sizeof(edge) / sizeof(edge[0]) && round == 0)
		return edge[i];
	return (i * 577 + round * 131 + i * i * 13) % 6000;
}

TEST(malloc_many_sizes_patterns_intact)
{
	size_t heap, free_bytes, free_blocks;

	for (size_t i = 0; i < NBLK; i++) {
		blen[i] = size_for(i, 0);
		blk[i] = malloc(blen[i]);
		EXPECT(blk[i], "malloc(%zu) failed", blen[i]);
		EXPECT((uintptr_t)blk[i] % 16 == 0, "malloc(%zu) = %p: not 16-byte aligned",
		       blen[i], blk[i]);
		EXPECT(malloc_usable_size(blk[i]) >= blen[i], "usable size too small");
		fill(i);
	}
	EXPECT(first_damaged(1) < 0, "block %ld damaged after filling all", first_damaged(1));
	/* Free every other block, allocate others in the holes, check all. */
	for (size_t i = 1; i < NBLK; i += 2)
		free(blk[i]);
	EXPECT(malloc_check(NULL, NULL, NULL) == 0, "free list inconsistent after frees");
	for (size_t i = 1; i < NBLK; i += 2) {
		blen[i] = size_for(i, 1);
		blk[i] = malloc(blen[i]);
		EXPECT(blk[i], "malloc(%zu) failed in round 2", blen[i]);
		fill(i);
	}
	EXPECT(first_damaged(1) < 0, "block %ld damaged after round 2", first_damaged(1));
	for (size_t i = 0; i < NBLK; i++)
		free(blk[i]);
	EXPECT(malloc_check(&heap, &free_bytes, &free_blocks) == 0, "free list inconsistent");
	/* Nothing else has used malloc yet: all of the heap is one block. */
	EXPECT(free_blocks == 1 && free_bytes == heap,
	       "after freeing everything: %zu free blocks, %zu of %zu bytes free",
	       free_blocks, free_bytes, heap);
}

/* Allocates and frees a fixed mix of blocks. */
static bool one_round(void)
{
	for (size_t i = 0; i < 64; i++) {
		blen[i] = size_for(i + 20, 2);
		if (!(blk[i] = malloc(blen[i])))
			return false;
		fill(i);
	}
	for (size_t i = 0; i < 64; i += 2)
		free(blk[i]);
	for (size_t i = 1; i < 64; i += 2)
		free(blk[i]);
	return true;
}

TEST(freed_memory_is_reused_the_break_stays)
{
	void *p = malloc(100), *q;
	size_t heap1, heap2;
	void *brk1, *brk2;

	free(p);
	q = malloc(100);
	EXPECT(q == p, "malloc after free(%p) returned %p, not the freed block", p, q);
	free(q);

	EXPECT(one_round(), "malloc failed");
	brk1 = sbrk(0);
	malloc_check(&heap1, NULL, NULL);
	EXPECT(one_round(), "malloc failed");
	EXPECT(one_round(), "malloc failed");
	brk2 = sbrk(0);
	malloc_check(&heap2, NULL, NULL);
	EXPECT(brk1 == brk2, "the break moved from %p to %p on a repeated workload", brk1, brk2);
	EXPECT(heap1 == heap2, "the heap grew from %zu to %zu bytes", heap1, heap2);
}

TEST(neighbours_coalesce)
{
	char *a = malloc(1000), *b = malloc(1000), *c = malloc(1000), *d;

	EXPECT(a && b && c, "malloc failed");
	EXPECT(a < b && b < c, "first fit on a fresh heap: %p %p %p not in order", a, b, c);
	free(a);
	free(b);
	d = malloc(2000);       /* fits only where a and b were, merged */
	EXPECT(d == a, "malloc(2000) = %p, want %p (a and b merged)", d, a);
	free(d);
	free(c);
	EXPECT(malloc_check(NULL, NULL, NULL) == 0, "free list inconsistent");
}

TEST(malloc_zero_and_free_null)
{
	void *p = malloc(0), *q = malloc(0);

	EXPECT(p && q && p != q, "malloc(0) gave %p and %p", p, q);
	free(p);
	free(q);
	free(NULL);
}

TEST(realloc_keeps_contents)
{
	char *p = malloc(10), *q, *r;

	EXPECT(p, "malloc failed");
	memcpy(p, "0123456789", 10);
	p = realloc(p, 5000);
	EXPECT(p && memcmp(p, "0123456789", 10) == 0, "grown block lost its bytes");
	q = realloc(p, 20);
	EXPECT(q == p, "shrinking moved the block: %p -> %p", p, q);
	EXPECT(memcmp(q, "0123456789", 10) == 0, "shrunk block lost its bytes");

	/* Grows in place into the free block after it (its old tail)... */
	p = realloc(q, 200);
	EXPECT(p == q, "realloc(200) moved %p to %p though the space after it is free", q, p);
	/* ...and moves when a live block is in the way. */
	r = malloc(100);
	EXPECT(r && r > p, "malloc failed, or not after p");
	q = realloc(p, 400);
	EXPECT(q && q != p && memcmp(q, "0123456789", 10) == 0,
	       "realloc(400) with a block in the way: %p -> %p", p, q);
	p = q;

	/* Across the mmap threshold and back. */
	for (int i = 0; i < 200; i++)
		p[i] = (char)i;
	p = realloc(p, 200000);
	EXPECT(p, "realloc to 200000 failed");
	for (int i = 0; i < 200; i++)
		EXPECT(p[i] == (char)i, "byte %d lost going to a mapping", i);
	memset(p + 200, 0x5a, 200000 - 200);
	q = realloc(p, 300000);
	EXPECT(q && q[199] == (char)199 && q[199999] == 0x5a, "mapping to mapping lost bytes");
	p = realloc(q, 50);
	EXPECT(p, "realloc back to 50 failed");
	for (int i = 0; i < 50; i++)
		EXPECT(p[i] == (char)i, "byte %d lost coming back to the heap", i);
	free(r);
	EXPECT(realloc(p, 0) == NULL, "realloc(p, 0) must free p and return NULL");
	p = realloc(NULL, 30);
	EXPECT(p, "realloc(NULL, 30) failed");
	free(p);
	EXPECT(malloc_check(NULL, NULL, NULL) == 0, "free list inconsistent");
}

TEST(calloc_zeroes_and_checks_overflow)
{
	unsigned char *p = malloc(4096), *q;

	EXPECT(p, "malloc failed");
	memset(p, 0xaa, 4096);
	free(p);
	q = calloc(1, 4096);
	EXPECT(q, "calloc failed");
	for (int i = 0; i < 4096; i++)
		EXPECT(q[i] == 0, "calloc byte %d is %#x", i, q[i]);
	free(q);
	errno = 0;
	EXPECT(calloc(0x10000, 0x10001) == NULL && errno == ENOMEM,
	       "calloc overflowing size_t must fail with ENOMEM");
	errno = 0;
	EXPECT(malloc(0xf0000000u) == NULL && errno == ENOMEM, "malloc(3.75 GiB) must fail");
	errno = 0;
	EXPECT(malloc(SIZE_MAX) == NULL && errno == ENOMEM, "malloc(SIZE_MAX) must fail");
	EXPECT(malloc_check(NULL, NULL, NULL) == 0, "free list inconsistent");
}

/* ---- malloc: large blocks on mmap2 ---- */

static long frames_free(void)
{
	struct thr_kstat k;

	return thr_kstat(&k) ? -1 : (long)k.frames_free;
}

#define BIG (1024 * 1024)

TEST(large_blocks_are_mappings_that_free_unmaps)
{
	long before = 0, mid = 0, after = 0;
	char *small = malloc(MALLOC_MMAP_THRESHOLD - 1);

	EXPECT(small && (void *)small < sbrk(0), "a block under the threshold is on the heap");
	free(small);
	/* Round 0 warms up (page table, VMA slab); round 1 is measured. */
	for (int round = 0; round < 2; round++) {
		char *p;

		before = frames_free();
		p = malloc(BIG);
		EXPECT(p, "malloc(1 MiB) failed");
		EXPECT((void *)p >= sbrk(0), "a 1 MiB block at %p is not above the break %p",
		       p, sbrk(0));
		EXPECT(malloc_usable_size(p) >= BIG, "usable size %zu", malloc_usable_size(p));
		memset(p, round + 1, BIG);
		mid = frames_free();
		free(p);
		after = frames_free();
	}
	EXPECT(before > 0, "no frames_free in /proc/kstat");
	EXPECT(before - mid >= BIG / 4096, "touching 1 MiB took %ld frames, want >= %d",
	       before - mid, BIG / 4096);
	EXPECT(after == before, "frames_free %ld before malloc, %ld after free (%+ld)",
	       before, after, after - before);
}

TEST(shrinking_a_large_block_unmaps_its_tail)
{
	char *p = malloc(BIG), *q;
	long before, after;
	/* 1 MiB + the header is 257 pages; 256 KiB + the header, 65. */
	long want = (BIG + 4096) / 4096 - (BIG / 4 + 4096) / 4096;

	EXPECT(p, "malloc(1 MiB) failed");
	memset(p, 7, BIG);
	before = frames_free();
	q = realloc(p, BIG / 4);
	after = frames_free();
	EXPECT(q == p, "realloc moved a shrinking large block: %p -> %p", p, q);
	EXPECT(q[0] == 7 && q[BIG / 4 - 1] == 7, "contents lost");
	EXPECT(after - before == want, "shrinking gave back %ld frames, want %ld",
	       after - before, want);
	free(q);
}

#endif
