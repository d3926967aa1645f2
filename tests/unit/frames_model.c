/* tests/unit/frames_model.c - part of unit/test_frames (tests/unit/
 * frames_pool.h): a long random workload of allocations and frees, checked
 * frame by frame against a model of the pool. */
#include "tests/unit/frames_pool.h"

#include <string.h>

/* A fixed-seed generator (xorshift32), so every run is the same run. */
static uint32_t rng_state;

static uint32_t rng(void)
{
	uint32_t x = rng_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return rng_state = x;
}

/* ---- a long random workload against a model ---- */

#define RAND_FRAMES 3000        /* 3000 % 32 = 24: a partial last word */
#define RAND_OPS 20000
#define RAND_LIVE 4096

struct live {
	uint32_t pfn, count;
	int order;                  /* -1: from frames_alloc_run */
};

static uint8_t model[RAND_FRAMES];      /* 1 = free */
static uint32_t model_nfree;

static bool model_run_free(uint32_t pfn, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		if (!model[pfn + i])
			return false;
	return true;
}

static void model_set(uint32_t pfn, uint32_t count, uint8_t v)
{
	for (uint32_t i = 0; i < count; i++)
		model[pfn + i] = v;
	model_nfree = v ? model_nfree + count : model_nfree - count;
}

/* Is there an aligned free block of 2^order frames inside the pool? */
static bool model_has_block(unsigned order)
{
	uint32_t n = 1u << order;

	for (uint32_t pfn = 0; pfn + n <= RAND_FRAMES; pfn += n)
		if (model_run_free(pfn, n))
			return true;
	return false;
}

static uint32_t model_first_fit(uint32_t count)
{
	uint32_t run = 0;

	for (uint32_t pfn = 0; pfn < RAND_FRAMES; pfn++) {
		run = model[pfn] ? run + 1 : 0;
		if (run == count)
			return pfn + 1 - count;
	}
	return FRAME_NONE;
}

static bool model_matches(const struct frame_pool *p)
{
	if (frames_free_count(p) != model_nfree)
		return false;
	for (uint32_t pfn = 0; pfn < RAND_FRAMES; pfn++)
		if (frames_is_free(p, pfn) != (bool)model[pfn])
			return false;
	return true;
}

TEST(random_workload_matches_a_model)
{
	static struct live live[RAND_LIVE];
	struct frame_pool *p = pool_new(RAND_FRAMES);
	struct live gone = { 0, 0, 0 };     /* the last block freed */
	int nlive = 0, mismatches = 0;
	uint32_t start;

	rng_state = 0x5eed1234;
	memset(model, 0, sizeof(model));
	model_nfree = 0;
	/* RAM with holes, as from a memory map. */
	frames_release_region(p, 0, (uint64_t)RAND_FRAMES * FRAME_SIZE);
	frames_reserve_region(p, 0, 7 * FRAME_SIZE);
	frames_reserve_region(p, 1500 * FRAME_SIZE + 100, 3 * FRAME_SIZE);
	model_set(7, 1500 - 7, 1);
	model_set(1504, RAND_FRAMES - 1504, 1);
	CHECK(model_matches(p));
	start = model_nfree;

	for (int op = 0; op < RAND_OPS && mismatches == 0; op++) {
		uint32_t r = rng() % 100;

		if (r < 40 && nlive < RAND_LIVE) {
			unsigned order = rng() % 4 ? rng() % 4 : rng() % (FRAMES_MAX_ORDER + 1);
			uint32_t n = 1u << order, pfn = frames_alloc(p, order);

			if (pfn == FRAME_NONE) {
				CHECK(!model_has_block(order));
			} else if (pfn % n || pfn + n > RAND_FRAMES || !model_run_free(pfn, n)) {
				unit_fail(__FILE__, __LINE__, "op %d: order %u gave bad pfn %u",
					  op, order, pfn);
				mismatches++;
			} else {
				model_set(pfn, n, 0);
				live[nlive++] = (struct live){ pfn, n, (int)order };
			}
		} else if (r < 50 && nlive < RAND_LIVE) {
			uint32_t count = 1 + rng() % 64;
			uint32_t pfn = frames_alloc_run(p, count);

			CHECK_EQ_U(pfn, model_first_fit(count));
			if (pfn != FRAME_NONE && pfn == model_first_fit(count)) {
				model_set(pfn, count, 0);
				live[nlive++] = (struct live){ pfn, count, -1 };
			}
		} else if (r < 90 && nlive > 0) {
			int i = (int)(rng() % (uint32_t)nlive);
			struct live l = live[i];
			int ret = l.order >= 0 && rng() % 2
				? frames_free(p, l.pfn, (unsigned)l.order)
				: frames_free_run(p, l.pfn, l.count);

			CHECK_EQ_I(ret, 0);
			model_set(l.pfn, l.count, 1);
			live[i] = live[--nlive];
			gone = l;
		} else if (gone.count && !model_run_free(gone.pfn, gone.count) &&
			   gone.pfn + gone.count <= RAND_FRAMES) {
			/* Free a freed block again: some of it may be reused
			 * since, but part of it is still free, so it is refused. */
			bool any_free = false;
			for (uint32_t i = 0; i < gone.count; i++)
				any_free |= model[gone.pfn + i];
			if (any_free) {
				int ret = gone.order >= 0
					? frames_free(p, gone.pfn, (unsigned)gone.order)
					: frames_free_run(p, gone.pfn, gone.count);
				CHECK_EQ_I(ret, -1);
			}
		} else if (gone.count && model_run_free(gone.pfn, gone.count)) {
			CHECK_EQ_I(frames_free_run(p, gone.pfn, gone.count), -1);
		}
		if (!model_matches(p)) {
			unit_fail(__FILE__, __LINE__, "op %d: pool and model differ", op);
			mismatches++;
		}
	}
	CHECK_CONSISTENT(p);
	while (nlive > 0) {
		struct live l = live[--nlive];
		CHECK_EQ_I(frames_free_run(p, l.pfn, l.count), 0);
		model_set(l.pfn, l.count, 1);
	}
	CHECK_EQ_U(frames_free_count(p), start);
	CHECK(model_matches(p));
	CHECK_CONSISTENT(p);
	pool_put(p);
}
