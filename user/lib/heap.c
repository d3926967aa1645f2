/* user/lib/heap.c - first fit over an address-ordered free list, with
 * splitting and coalescing (heap.h). Pure: no system calls, no locks;
 * malloc.c brings both. The classic design of K&R's chapter 8 allocator,
 * with the list sorted by address so that neighbours merge. */
#include "heap.h"

static char *end_of(struct heap_block *b)
{
	return (char *)b + b->size;
}

/* The block size that holds n payload bytes, or 0 if n is too big. */
static size_t block_size(size_t n)
{
	if (n > SIZE_MAX / 2)
		return 0;
	n = (n + HEAP_HDR + HEAP_ALIGN - 1) / HEAP_ALIGN * HEAP_ALIGN;
	return n < HEAP_MIN_BLOCK ? HEAP_MIN_BLOCK : n;
}

/* Cuts b (used, or just unlinked) down to size bytes when the rest is a
 * block of its own; returns the rest, or NULL. */
static struct heap_block *split(struct heap_block *b, size_t size)
{
	struct heap_block *rest;

	if (b->size - size < HEAP_MIN_BLOCK)
		return NULL;
	rest = (struct heap_block *)((char *)b + size);
	rest->size = b->size - size;
	rest->magic = HEAP_FREE;
	rest->next = NULL;
	b->size = size;
	return rest;
}

/* Links the free block b into the list in address order and merges it
 * with the block before and the block after when they touch it. A
 * merged header keeps its HEAP_FREE magic inside the bigger block, so a
 * second free of the same pointer is still reported as a double free
 * (until the memory is handed out again). */
static void insert(struct heap *h, struct heap_block *b)
{
	struct heap_block *prev = NULL, *next = h->free;

	while (next && next < b) {
		prev = next;
		next = next->next;
	}
	b->magic = HEAP_FREE;
	b->next = next;
	if (prev)
		prev->next = b;
	else
		h->free = b;
	if (next && end_of(b) == (char *)next) {        /* merge the one after */
		b->size += next->size;
		b->next = next->next;
	}
	if (prev && end_of(prev) == (char *)b) {        /* merge into the one before */
		prev->size += b->size;
		prev->next = b->next;
	}
}

/* Asks more() for at least need bytes and adds them to the free list. */
static bool grow(struct heap *h, size_t need)
{
	size_t len = (need + h->grow - 1) / h->grow * h->grow;
	struct heap_block *b;

	if (len < need || !h->more)
		return false;
	b = h->more(h, len);
	if (!b)
		return false;
	h->from_more += len;
	b->size = len;
	insert(h, b);
	return true;
}

void *heap_alloc(struct heap *h, size_t n)
{
	size_t need = block_size(n);

	if (!need)
		return NULL;
	for (;;) {
		struct heap_block **link = &h->free, *b;

		for (b = *link; b; link = &b->next, b = *link) {
			if (b->size < need)
				continue;
			struct heap_block *rest = split(b, need);
			if (rest) {
				rest->next = b->next;
				*link = rest;
			} else {
				*link = b->next;
			}
			b->magic = HEAP_USED;
			b->next = NULL;
			return (char *)b + HEAP_HDR;
		}
		if (!grow(h, need))
			return NULL;
	}
}

int heap_free(struct heap *h, void *p)
{
	struct heap_block *b = heap_block_of(p);

	if (b->magic == HEAP_FREE)
		return HEAP_ERR_DOUBLE_FREE;
	if (b->magic != HEAP_USED || b->size < HEAP_MIN_BLOCK || b->size % HEAP_ALIGN)
		return HEAP_ERR_BAD_POINTER;
	insert(h, b);
	return 0;
}

bool heap_resize(struct heap *h, void *p, size_t n)
{
	struct heap_block *b = heap_block_of(p), *rest;
	size_t need = block_size(n);

	if (!need)
		return false;
	if (need > b->size) {
		/* The free block that starts where b ends, if it is enough. */
		struct heap_block **link = &h->free, *f;

		for (f = *link; f && (char *)f < end_of(b); link = &f->next, f = *link)
			;
		if (!f || (char *)f != end_of(b) || b->size + f->size < need)
			return false;
		*link = f->next;
		f->magic = 0;
		b->size += f->size;
	}
	rest = split(b, need);
	if (rest)
		insert(h, rest);
	return true;
}

size_t heap_usable(void *p)
{
	return heap_block_of(p)->size - HEAP_HDR;
}

bool heap_check(const struct heap *h)
{
	for (const struct heap_block *b = h->free; b; b = b->next) {
		if (b->magic != HEAP_FREE || b->size < HEAP_MIN_BLOCK || b->size % HEAP_ALIGN ||
		    (uintptr_t)b % HEAP_ALIGN)
			return false;
		if (b->next && (const char *)b + b->size >= (const char *)b->next)
			return false;   /* unsorted, overlapping, or touching */
	}
	return true;
}

size_t heap_free_bytes(const struct heap *h, size_t *nblocks)
{
	size_t bytes = 0, n = 0;

	for (const struct heap_block *b = h->free; b; b = b->next, n++)
		bytes += b->size;
	if (nblocks)
		*nblocks = n;
	return bytes;
}
