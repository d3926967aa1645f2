/* user/fuzz/rand.c - the fuzzer's PRNG and its dangerous values (fuzz.h).
 *
 * The PRNG is xorshift64* (Marsaglia's xorshift with Vigna's
 * multiplier): 8 bytes of state, a good spread, the same numbers on any
 * machine. A stream is seeded by splitmix64 from (seed, a, b, c), so
 * worker 3's generation 2 draws the same numbers in every run of a seed.
 *
 * The values lean towards what breaks kernels: 0, -1, the edges of
 * pages and of the user/kernel split, lengths that wrap, pointers into
 * the kernel, into unmapped, read-only or PROT_NONE pages, and into a
 * page whose neighbour is a hole (a structure that starts mapped and
 * ends unmapped). */
#include "user/fuzz/fuzz.h"
#include "string.h"
#include "signal.h"
#include "time.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

uint64_t fz_mix(uint32_t seed, uint32_t a, uint32_t b, uint32_t c)
{
	uint64_t x = ((uint64_t)seed << 32) ^ a;
	uint64_t r = splitmix64(&x);

	x ^= ((uint64_t)b << 32) | c;
	r ^= splitmix64(&x);
	return r ? r : 1;               /* xorshift's state must not be 0 */
}

uint32_t fz_rand(struct fz_task *t)
{
	uint64_t x = t->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	t->rng = x;
	return (uint32_t)((x * 0x2545f4914f6cdd1dull) >> 32);
}

uint32_t fz_below(struct fz_task *t, uint32_t n)
{
	return n ? fz_rand(t) % n : 0;
}

bool fz_chance(struct fz_task *t, unsigned percent)
{
	return fz_below(t, 100) < percent;
}

/* An integer argument: flags, counts, ids, numbers. */
uint32_t fz_int(struct fz_task *t)
{
	static const uint32_t edge[] = {
		0, 1, 2, 3, 0xffffffff, 0xfffffffe, 0x7fffffff, 0x80000000,
		0x80000001, 0xc0000000, 0xbfffffff, 4095, 4096, 4097, 8192,
		65535, 65536, 0x10000000, 0xffff, 0x8000, 16, 64, 255, 256,
	};
	uint32_t b;

	switch (fz_below(t, 6)) {
	case 0: return edge[fz_below(t, sizeof(edge) / sizeof(edge[0]))];
	case 1: return fz_below(t, 64);
	case 2: b = 1u << fz_below(t, 32); return b + fz_below(t, 3) - 1;
	case 3: return (uint32_t)-(int32_t)fz_below(t, 64);
	default: return fz_rand(t);
	}
}

/* A length: small and page-edged, or one that wraps or reaches the kernel. */
uint32_t fz_len(struct fz_task *t)
{
	static const uint32_t edge[] = {
		0, 1, 3, 4, 7, 8, 16, 127, 128, 4095, 4096, 4097, 8192, 65536,
		65537, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffff000, 0xc0000000,
		0x40000000, 0x100000,
	};

	switch (fz_below(t, 4)) {
	case 0: return edge[fz_below(t, sizeof(edge) / sizeof(edge[0]))];
	case 1: return fz_below(t, 256);
	case 2: return fz_below(t, 5 * 4096);
	default: return fz_int(t);
	}
}

bool fz_touches_shared(const struct fz_world *w, uint32_t p, uint32_t len)
{
	/* The guard too: a pointer into it only ever faults. */
	uint32_t s = (uint32_t)w->sh - FZ_GUARD, e = (uint32_t)w->sh + FZ_SHARED_SIZE;
	/* A write that starts below the guard faults in it before it gets
	 * to the page: len matters only as far as the guard reaches. */
	uint32_t reach = len > 0x20000 ? 0x20000 : len;

	uint64_t end = (uint64_t)p + reach;

	if (!w->sh)
		return false;
	if (end > 0x100000000ull && end - 0x100000000ull > s)
		return true;                    /* wraps round to the page */
	return p < e && end > s;
}

static uint32_t ptr_once(struct fz_task *t)
{
	const struct fz_world *w = t->w;

	switch (fz_below(t, 16)) {
	case 0: return 0;
	case 1: return 0xffffffff - fz_below(t, 16);
	case 2: return USER_TOP + 4096 * fz_below(t, 0x100) + fz_below(t, 4) * 0x3ff;
	case 3: return 0xc0100000 + fz_below(t, 0x80000);        /* kernel text, data */
	case 4: return USER_TOP - 1 - fz_below(t, 64);            /* straddles the split */
	case 5: return (uint32_t)w->ro + fz_below(t, 4096);
	case 6: return (uint32_t)w->none + fz_below(t, 4096);
	case 7: return (uint32_t)w->half + 4096 - fz_below(t, 64);  /* runs into the hole */
	case 8: return (uint32_t)w->half + 4096 + fz_below(t, 4096); /* the hole */
	case 9: return (uint32_t)&fz_rand + fz_below(t, 256);      /* program text */
	case 10: return fz_below(t, 0x10000);                      /* low, unmapped */
	case 11: return fz_rand(t);
	default: return (uint32_t)w->arena + fz_below(t, FZ_ARENA_PAGES * 4096);
	}
}

uint32_t fz_ptr(struct fz_task *t, uint32_t len)
{
	uint32_t p;

	do
		p = ptr_once(t);
	while (fz_touches_shared(t->w, p, len));
	return p;
}

/* Random bytes, with now and then a run of one dangerous word. */
void fz_fill(struct fz_task *t, void *buf, size_t n)
{
	uint8_t *b = buf;

	for (size_t i = 0; i + 4 <= n; i += 4) {
		uint32_t v = fz_chance(t, 30) ? fz_int(t) : fz_rand(t);
		memcpy(b + i, &v, 4);
	}
	for (size_t i = n & ~(size_t)3; i < n; i++)
		b[i] = (uint8_t)fz_rand(t);
}

/* A signal number: mostly valid, sometimes 0 or out of range. */
int fz_sig(struct fz_task *t)
{
	static const int odd[] = { 0, 65, 64, -1, 1000, 0x80000000 >> 24, SIGKILL, SIGSTOP };

	if (fz_chance(t, 12))
		return odd[fz_below(t, sizeof(odd) / sizeof(odd[0]))];
	return 1 + (int)fz_below(t, NSIG);
}

long long fz_now_ms(void)
{
	struct timespec ts = { 0, 0 };

	raw_clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ll + ts.tv_nsec / 1000000;
}

void fz_sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	raw_nanosleep(&ts, NULL);
}
