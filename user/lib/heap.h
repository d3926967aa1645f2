/* user/lib/heap.h - the allocator's core: blocks carved out of memory
 * that a callback supplies, with a free list. malloc.c runs one heap on
 * brk(2); tests/unit/test_libc_heap.c runs others on a plain array, so
 * the list logic is tested on the host, where ASan watches every access.
 *
 * Every block starts with a header; the caller's bytes follow it:
 *
 *     +-------------+----------------------------------+
 *     | size, magic |  payload (16-byte aligned)  ...   |
 *     | next (free) |                                  |
 *     +-------------+----------------------------------+
 *     ^ block        ^ what malloc returns: block + HEAP_HDR
 *
 * size counts the header and is a multiple of HEAP_ALIGN. Free blocks
 * are kept in one list sorted by address: allocation takes the first
 * that is big enough (first fit) and splits off the rest; freeing puts
 * a block back in its place and merges it with a free neighbour that
 * touches it on either side (coalescing), so the list never holds two
 * adjacent blocks. The magic word tells a live block from a free one,
 * which is how a double free or a stray pointer is caught. */
#ifndef USER_HEAP_H
#define USER_HEAP_H

#include "lib/types.h"

#define HEAP_ALIGN 16

#define HEAP_USED   0x75736564u     /* "used" */
#define HEAP_FREE   0x66726565u     /* "free" */
#define HEAP_MAPPED 0x6d6d6170u     /* "mmap": malloc.c's own mapping */

struct heap_block {
	size_t size;                    /* bytes, header included */
	uint32_t magic;                 /* HEAP_USED, HEAP_FREE, HEAP_MAPPED */
	struct heap_block *next;        /* free blocks: the next one up */
};

/* The header, rounded up so that the payload stays aligned: 16 bytes on
 * i386 (32 on the 64-bit host). */
#define HEAP_HDR (((sizeof(struct heap_block) + HEAP_ALIGN - 1) / HEAP_ALIGN) * HEAP_ALIGN)
/* The smallest block: a header and one aligned unit of payload. A split
 * leaves no remainder smaller than this. */
#define HEAP_MIN_BLOCK (HEAP_HDR + HEAP_ALIGN)

struct heap {
	struct heap_block *free;        /* sorted by address */
	/* Returns len more bytes (HEAP_ALIGN-aligned; len is a multiple of
	 * grow), or NULL. Successive calls need not be contiguous. */
	void *(*more)(struct heap *h, size_t len);
	size_t grow;                    /* the heap grows by multiples of this */
	size_t from_more;               /* bytes obtained from more(), ever */
};

/* The block of a payload pointer. */
static inline struct heap_block *heap_block_of(void *p)
{
	return (struct heap_block *)((char *)p - HEAP_HDR);
}

/* n bytes (n may be 0), or NULL if more() failed or n is absurd. */
void *heap_alloc(struct heap *h, size_t n);

/* Puts p back. 0, or HEAP_ERR_DOUBLE_FREE / HEAP_ERR_BAD_POINTER (the
 * heap is left as it was). */
#define HEAP_ERR_DOUBLE_FREE (-1)
#define HEAP_ERR_BAD_POINTER (-2)
int heap_free(struct heap *h, void *p);

/* Resizes p's block in place to hold n bytes: shrinks it (the tail goes
 * back to the free list) or grows it into the free block right after
 * it. true if done; false if it must move (p is unchanged then). */
bool heap_resize(struct heap *h, void *p, size_t n);

/* The payload bytes p's block really has (>= what was asked). */
size_t heap_usable(void *p);

/* Checks the free list: sorted, every block marked free, sizes sane, no
 * two blocks overlapping or touching. true if all is well. */
bool heap_check(const struct heap *h);

/* Bytes in the free list, and how many blocks. */
size_t heap_free_bytes(const struct heap *h, size_t *nblocks);

#endif
