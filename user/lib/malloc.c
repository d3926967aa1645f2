/* user/lib/malloc.c - malloc, free, calloc, realloc (stdlib.h).
 *
 * Small blocks come from one heap.c heap on the brk(2) area, which grows
 * by HEAP_GROW at a time and never shrinks: freed blocks stay on the
 * free list for the next malloc. A request of MALLOC_MMAP_THRESHOLD
 * bytes or more gets a mapping of its own from mmap2, with a heap.c
 * header marked HEAP_MAPPED whose size is the mapping's length; free
 * unmaps it, so its frames go back to the kernel at once (glibc does
 * the same above 128 KiB). One lock guards the heap for threads, and
 * fork() takes it (atfork.h: last of the library's locks). */
#include "stdlib.h"
#include "malloc.h"
#include "string.h"
#include "errno.h"
#include "unistd.h"
#include "limits.h"
#include "stdio.h"
#include "heap.h"
#include "lock.h"
#include "atfork.h"
#include "raw.h"
#include "sys/mman.h"

#define HEAP_GROW (64 * 1024)

/* heap.c's more(): len fresh bytes at the break, aligned to HEAP_ALIGN
 * (the first break is wherever .bss ended). */
static void *brk_more(struct heap *h, size_t len)
{
	char *cur = sbrk(0);
	size_t pad = (size_t)(-(uintptr_t)cur & (HEAP_ALIGN - 1));

	(void)h;
	if (cur == (void *)-1 || len > (size_t)LONG_MAX - pad)
		return NULL;
	if (sbrk((long)(pad + len)) == (void *)-1)
		return NULL;
	return cur + pad;
}

static struct heap heap = { .more = brk_more, .grow = HEAP_GROW };
static libc_lock_t heap_lock = LIBC_LOCK_INIT;

/* fork (atfork.h): the free list is whole only between two calls, so
 * fork waits for the lock; the child, whose only thread holds it, starts
 * with it free. Large blocks need nothing: each is its own mapping, and
 * free() unmaps it without the lock. */
static void heap_prepare(void) { libc_lock(&heap_lock); }
static void heap_parent(void) { libc_unlock(&heap_lock); }
static void heap_child(void) { heap_lock = LIBC_LOCK_INIT; }
const struct __atfork_handlers __malloc_atfork = { heap_prepare, heap_parent, heap_child };

/* A broken free() is a bug in the program: say so and stop, as glibc
 * does ("free(): double free detected"), before the heap is corrupted. */
static void __attribute__((noreturn)) malloc_abort(const char *what, void *p)
{
	dprintf(2, "%s: %p\n", what, p);
	abort();
}

static void *map_alloc(size_t n)
{
	size_t len = (n + HEAP_HDR + PAGE_SIZE - 1) & ~(size_t)(PAGE_SIZE - 1);
	long r;

	if (len < n)
		return NULL;
	r = raw_mmap2(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (RAW_IS_ERR(r))
		return NULL;
	struct heap_block *b = (struct heap_block *)r;
	b->size = len;
	b->magic = HEAP_MAPPED;
	b->next = NULL;
	return (char *)b + HEAP_HDR;
}

void *malloc(size_t n)
{
	void *p;

	if (n >= MALLOC_MMAP_THRESHOLD) {
		p = map_alloc(n);
	} else {
		libc_lock(&heap_lock);
		p = heap_alloc(&heap, n);
		libc_unlock(&heap_lock);
	}
	if (!p)
		errno = ENOMEM;
	return p;
}

void free(void *p)
{
	struct heap_block *b;
	int err;

	if (!p)
		return;
	if ((uintptr_t)p % HEAP_ALIGN)
		malloc_abort("free(): invalid pointer", p);
	b = heap_block_of(p);
	if (b->magic == HEAP_MAPPED) {
		b->magic = 0;
		raw_munmap(b, b->size);
		return;
	}
	libc_lock(&heap_lock);
	err = heap_free(&heap, p);
	libc_unlock(&heap_lock);
	if (err == HEAP_ERR_DOUBLE_FREE)
		malloc_abort("free(): double free detected", p);
	if (err)
		malloc_abort("free(): invalid pointer", p);
}

void *calloc(size_t nmemb, size_t size)
{
	void *p;

	if (size && nmemb > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc(nmemb * size);
	/* A fresh mapping is zero already: not touching it spares frames. */
	if (p && heap_block_of(p)->magic != HEAP_MAPPED)
		memset(p, 0, nmemb * size);
	return p;
}

size_t malloc_usable_size(void *p)
{
	return p ? heap_usable(p) : 0;
}

void *realloc(void *p, size_t n)
{
	struct heap_block *b;
	size_t have;
	void *q;

	if (!p)
		return malloc(n);
	if (n == 0) {
		free(p);
		return NULL;
	}
	b = heap_block_of(p);
	have = heap_usable(p);
	if (b->magic == HEAP_MAPPED) {
		/* Shrinking and still large: stay, and give back the pages
		 * at the end that are no longer needed. */
		if (n <= have && n >= MALLOC_MMAP_THRESHOLD) {
			size_t len = (n + HEAP_HDR + PAGE_SIZE - 1) & ~(size_t)(PAGE_SIZE - 1);

			if (len < b->size && !RAW_IS_ERR(raw_munmap((char *)b + len, b->size - len)))
				b->size = len;
			return p;
		}
	} else if (b->magic == HEAP_USED) {
		if (n < MALLOC_MMAP_THRESHOLD) {
			bool done;

			libc_lock(&heap_lock);
			done = heap_resize(&heap, p, n);
			libc_unlock(&heap_lock);
			if (done)
				return p;
		}
	} else {
		malloc_abort("realloc(): invalid pointer", p);
	}
	q = malloc(n);
	if (!q)
		return NULL;
	memcpy(q, p, have < n ? have : n);
	free(p);
	return q;
}

int malloc_check(size_t *heap_bytes, size_t *free_bytes, size_t *free_blocks)
{
	int ok;

	libc_lock(&heap_lock);
	ok = heap_check(&heap);
	if (heap_bytes)
		*heap_bytes = heap.from_more;
	if (free_bytes)
		*free_bytes = heap_free_bytes(&heap, free_blocks);
	else if (free_blocks)
		heap_free_bytes(&heap, free_blocks);
	libc_unlock(&heap_lock);
	return ok ? 0 : -1;
}
