/* user/lib/malloc.h - what malloc.c tells beyond stdlib.h (glibc has a
 * malloc.h too): for tests and the curious. */
#ifndef USER_MALLOC_H
#define USER_MALLOC_H

#include "stdlib.h"

/* The bytes p's block can really hold (>= what was asked). */
size_t malloc_usable_size(void *p);

/* Looks over the brk heap: 0 if its free list is consistent, else -1.
 * *free_bytes and *free_blocks (either may be NULL) say what it holds;
 * *heap_bytes how much brk memory the heap has taken in all. */
int malloc_check(size_t *heap_bytes, size_t *free_bytes, size_t *free_blocks);

#endif
