/* tests/unit/test_libc_heap.c - user/lib/heap.c, malloc's core, on a
 * simulated heap: a static arena handed out by a fake more(), so every
 * split, merge and list step can be checked against exact addresses,
 * with ASan and UBSan watching. heap.c has no names that clash with
 * glibc (heap_alloc, ...), so nothing is renamed. */
#include "tests/unit/unit.h"
#include "user/lib/heap.h"

#define ARENA (256 * 1024)

static _Alignas(HEAP_ALIGN) unsigned char arena[ARENA];
static size_t arena_used, arena_limit, arena_gap;
static int more_calls;

/* more(): the next len bytes of the arena, arena_gap bytes after the
 * previous chunk (0: contiguous, as brk is), or NULL past arena_limit. */
static void *sim_more(struct heap *h, size_t len)
{
	unsigned char *p;

	(void)h;
	more_calls++;
	if (arena_used + arena_gap + len > arena_limit)
		return NULL;
	if (arena_used)
		arena_used += arena_gap;
	p = arena + arena_used;
	arena_used += len;
	return p;
}

static struct heap fresh(size_t grow, size_t limit, size_t gap)
{
	struct heap h = { .free = NULL, .more = sim_more, .grow = grow, .from_more = 0 };

	arena_used = 0;
	arena_limit = limit;
	arena_gap = gap;
	more_calls = 0;
	return h;
}

static size_t nfree(const struct heap *h)
{
	size_t n;

	heap_free_bytes(h, &n);
	return n;
}

TEST(sizes_round_up_and_payloads_align)
{
	struct heap h = fresh(4096, ARENA, 0);
	void *p0 = heap_alloc(&h, 0), *p1 = heap_alloc(&h, 1), *p17 = heap_alloc(&h, 17);

	CHECK(p0 && p1 && p17);
	CHECK((unsigned char *)p0 == arena + HEAP_HDR);
	CHECK_EQ_U(heap_usable(p0), HEAP_ALIGN);        /* the smallest block */
	CHECK_EQ_U(heap_usable(p1), HEAP_ALIGN);
	CHECK_EQ_U(heap_usable(p17), 2 * HEAP_ALIGN);
	CHECK_EQ_U((size_t)p1 % HEAP_ALIGN, 0);
	CHECK_EQ_U((size_t)p17 % HEAP_ALIGN, 0);
	/* First fit on a fresh heap: one after the other. */
	CHECK((unsigned char *)p1 == (unsigned char *)p0 + HEAP_MIN_BLOCK);
	CHECK((unsigned char *)p17 == (unsigned char *)p1 + HEAP_MIN_BLOCK);
	CHECK_EQ_I(more_calls, 1);
	CHECK(heap_check(&h));
}

TEST(split_leaves_the_rest_free)
{
	struct heap h = fresh(4096, ARENA, 0);
	void *a = heap_alloc(&h, 100);
	size_t blocks, bytes = heap_free_bytes(&h, &blocks);
	size_t used = heap_block_of(a)->size;

	CHECK_EQ_U(used, (100 + HEAP_HDR + HEAP_ALIGN - 1) / HEAP_ALIGN * HEAP_ALIGN);
	CHECK_EQ_U(blocks, 1);
	CHECK_EQ_U(bytes, 4096 - used);
	CHECK((unsigned char *)h.free == arena + used);
	CHECK_EQ_U(heap_block_of(a)->magic, HEAP_USED);
}

TEST(no_sliver_smaller_than_a_block)
{
	/* A request that leaves less than HEAP_MIN_BLOCK gets the whole block. */
	struct heap h = fresh(4096, ARENA, 0);
	void *a = heap_alloc(&h, 4096 - HEAP_HDR - HEAP_ALIGN + 1);

	CHECK(a);
	CHECK_EQ_U(heap_block_of(a)->size, 4096);
	CHECK(h.free == NULL);
}

TEST(free_merges_with_both_neighbours)
{
	struct heap h = fresh(4096, ARENA, 0);
	void *a = heap_alloc(&h, 100), *b = heap_alloc(&h, 100), *c = heap_alloc(&h, 100);

	CHECK_EQ_I(heap_free(&h, a), 0);
	CHECK_EQ_U(nfree(&h), 2);                       /* a, and the tail */
	CHECK_EQ_I(heap_free(&h, c), 0);
	CHECK_EQ_U(nfree(&h), 2);                       /* c merged into the tail */
	CHECK(heap_check(&h));
	CHECK_EQ_I(heap_free(&h, b), 0);                /* joins a and the tail */
	CHECK_EQ_U(nfree(&h), 1);
	CHECK((void *)h.free == (void *)arena);
	CHECK_EQ_U(h.free->size, 4096);
	CHECK(heap_check(&h));
}

TEST(freed_block_is_reused_first)
{
	struct heap h = fresh(4096, ARENA, 0);
	void *a = heap_alloc(&h, 200);

	heap_alloc(&h, 200);
	CHECK_EQ_I(heap_free(&h, a), 0);
	CHECK(heap_alloc(&h, 150) == a);                /* first fit: the hole */
	CHECK_EQ_I(more_calls, 1);
}

TEST(double_free_and_stray_pointers_are_refused)
{
	static _Alignas(HEAP_ALIGN) unsigned char elsewhere[256];
	struct heap h = fresh(4096, ARENA, 0);
	void *a = heap_alloc(&h, 64), *b = heap_alloc(&h, 64);
	size_t before;

	CHECK_EQ_I(heap_free(&h, a), 0);
	before = heap_free_bytes(&h, NULL);
	CHECK_EQ_I(heap_free(&h, a), HEAP_ERR_DOUBLE_FREE);
	CHECK_EQ_I(heap_free(&h, elsewhere + 64), HEAP_ERR_BAD_POINTER);
	CHECK_EQ_U(heap_free_bytes(&h, NULL), before);  /* untouched */
	CHECK(heap_check(&h));
	/* A block merged into its free neighbour still says "free". */
	CHECK_EQ_I(heap_free(&h, b), 0);
	CHECK_EQ_I(heap_free(&h, b), HEAP_ERR_DOUBLE_FREE);
}

TEST(grows_by_multiples_and_contiguous_chunks_merge)
{
	struct heap h = fresh(4096, ARENA, 0);
	void *p[3];

	for (int i = 0; i < 3; i++)
		p[i] = heap_alloc(&h, 3000);
	CHECK(p[0] && p[1] && p[2]);
	CHECK_EQ_I(more_calls, 3);
	CHECK_EQ_U(h.from_more, 3 * 4096);
	/* p[1] straddles the first two chunks: they merged. */
	CHECK((unsigned char *)p[1] < arena + 4096 &&
	      (unsigned char *)p[1] + 3000 > arena + 4096);
	for (int i = 0; i < 3; i++)
		CHECK_EQ_I(heap_free(&h, p[i]), 0);
	CHECK_EQ_U(nfree(&h), 1);
	CHECK_EQ_U(heap_free_bytes(&h, NULL), 3 * 4096);
	/* A big request grows by a multiple of grow at once. */
	void *big = heap_alloc(&h, 20000);
	CHECK(big);
	CHECK_EQ_U(h.from_more % 4096, 0);
	CHECK(heap_check(&h));
}

TEST(separate_chunks_never_merge)
{
	struct heap h = fresh(4096, ARENA, 64);         /* a gap between chunks */
	void *p[4];

	for (int i = 0; i < 4; i++)
		p[i] = heap_alloc(&h, 3000);
	CHECK_EQ_I(more_calls, 4);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_I(heap_free(&h, p[i]), 0);
	CHECK_EQ_U(nfree(&h), 4);
	CHECK(heap_check(&h));
}

TEST(out_of_memory_is_null_and_harmless)
{
	struct heap h = fresh(4096, 8192, 0);
	void *a = heap_alloc(&h, 5000);

	CHECK(a);
	CHECK(heap_alloc(&h, 5000) == NULL);            /* would need 12 KiB */
	CHECK(heap_check(&h));
	CHECK(heap_alloc(&h, 1000) != NULL);            /* what is left still works */
	more_calls = 0;
	CHECK(heap_alloc(&h, (size_t)-1) == NULL);
	CHECK(heap_alloc(&h, (size_t)-1 - 8) == NULL);
	CHECK_EQ_I(more_calls, 0);                      /* refused before asking */
}

TEST(resize_in_place)
{
	struct heap h = fresh(4096, ARENA, 0);
	unsigned char *a = heap_alloc(&h, 100), *b = heap_alloc(&h, 100), *c;

	for (int i = 0; i < 100; i++)
		a[i] = (unsigned char)i;
	CHECK_EQ_I(heap_free(&h, b), 0);
	CHECK(heap_resize(&h, a, 300));                 /* into b and the tail */
	CHECK(heap_usable(a) >= 300);
	CHECK(heap_resize(&h, a, 20));                  /* the rest goes back */
	CHECK_EQ_U(heap_usable(a), 32);
	CHECK_EQ_U(nfree(&h), 1);
	for (int i = 0; i < 20; i++)
		CHECK_EQ_U(a[i], i);
	c = heap_alloc(&h, 100);
	CHECK(c == a + heap_usable(a) + HEAP_HDR);      /* right after a */
	CHECK(!heap_resize(&h, a, 400));                /* c is in the way */
	CHECK_EQ_U(heap_usable(a), 32);
	CHECK(heap_check(&h));
}

/* ---- a random workload against a model of what is live ---- */

#define LIVE 64

static unsigned long rnd_state = 12345;

static unsigned long rnd(void)
{
	rnd_state = rnd_state * 1103515245ul + 12345ul;
	return (rnd_state >> 8) & 0xffffff;
}

TEST(random_workload_keeps_blocks_apart_and_intact)
{
	struct heap h = fresh(8192, ARENA, 0);
	unsigned char *live[LIVE] = { 0 };
	size_t len[LIVE] = { 0 };

	for (int step = 0; step < 20000; step++) {
		int i = (int)(rnd() % LIVE);

		if (live[i]) {
			for (size_t j = 0; j < len[i]; j++)
				if (live[i][j] != (unsigned char)(i + j)) {
					CHECK(!"a live block was overwritten");
					return;
				}
			if (rnd() % 4 == 0) {
				size_t n = rnd() % 3000;
				if (heap_resize(&h, live[i], n))
					len[i] = n < len[i] ? n : len[i];
				continue;
			}
			CHECK_EQ_I(heap_free(&h, live[i]), 0);
			live[i] = NULL;
		} else {
			len[i] = rnd() % (rnd() % 8 ? 200 : 3000);
			live[i] = heap_alloc(&h, len[i]);
			if (!live[i]) {
				CHECK(!"out of arena");
				return;
			}
			for (size_t j = 0; j < len[i]; j++)
				live[i][j] = (unsigned char)(i + j);
		}
		if (step % 256 == 0 && !heap_check(&h)) {
			CHECK(!"heap_check failed");
			return;
		}
	}
	for (int i = 0; i < LIVE; i++)
		if (live[i])
			CHECK_EQ_I(heap_free(&h, live[i]), 0);
	CHECK(heap_check(&h));
	CHECK_EQ_U(nfree(&h), 1);
	CHECK_EQ_U(heap_free_bytes(&h, NULL), h.from_more);
}
