/* compat/linux/random.c - the kernel's random numbers and getrandom(2)
 * (abi.md section 9).
 *
 * A ChaCha20 generator (RFC 8439's block function, as Linux's
 * drivers/char/random.c uses since 4.8): the state is a 256-bit key;
 * each request runs the block function over (key, counter) for its
 * bytes, then replaces the key with the next block's first half ("fast
 * key erasure"), so that the key that made some output is gone
 * afterwards. The key is seeded once, at the first request: from RDRAND
 * when the CPU has it, else from what a machine without a hardware
 * source still offers, the TSC (cycles since power-on, unpredictable at
 * the level of single cycles across boots) and the CMOS clock. Every
 * request also stirs in the TSC. A teaching kernel's generator: good
 * enough for glibc's stack protector and hash seeds, not audited. */
#include "compat/linux/random.h"
#include "kernel/panic.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "compat/linux/i386/rdrand.h"
#include "arch/i386/rtc.h"
#include "arch/i386/spinlock.h"
#include "arch/i386/uaccess.h"
#include "arch/i386/timex.h"
#include "lib/string.h"

#define CHUNK 256               /* bytes generated per lock hold */

static struct spinlock random_lock = SPINLOCK_INIT("random");
static uint32_t key[8];
static uint64_t counter;
static bool seeded;

static uint32_t rotl(uint32_t x, int n)
{
	return (x << n) | (x >> (32 - n));
}

#define QR(a, b, c, d) ( \
	a += b, d ^= a, d = rotl(d, 16), c += d, b ^= c, b = rotl(b, 12), \
	a += b, d ^= a, d = rotl(d, 8),  c += d, b ^= c, b = rotl(b, 7))

/* RFC 8439 section 2.3: one 64-byte block of key stream. */
static void chacha20_block(const uint32_t k[8], uint64_t ctr, uint32_t out[16])
{
	uint32_t x[16] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574,
			   k[0], k[1], k[2], k[3], k[4], k[5], k[6], k[7],
			   (uint32_t)ctr, (uint32_t)(ctr >> 32), 0, 0 };

	memcpy(out, x, sizeof(x));
	for (int i = 0; i < 10; i++) {
		QR(x[0], x[4], x[8], x[12]); QR(x[1], x[5], x[9], x[13]);
		QR(x[2], x[6], x[10], x[14]); QR(x[3], x[7], x[11], x[15]);
		QR(x[0], x[5], x[10], x[15]); QR(x[1], x[6], x[11], x[12]);
		QR(x[2], x[7], x[8], x[13]); QR(x[3], x[4], x[9], x[14]);
	}
	for (int i = 0; i < 16; i++)
		out[i] += x[i];
}

/* The first key (random_lock held). */
static void seed_locked(void)
{
	bool hw = cpu_has_rdrand();
	uint64_t tsc = get_cycles(), rtc = rtc_read_epoch();

	ASSERT(spin_held(&random_lock));
	for (int i = 0; i < 8; i++) {
		uint32_t v = 0;
		/* Intel's advice: retry RDRAND up to 10 times. */
		for (int tries = 0; hw && tries < 10 && !rdrand32(&v); tries++)
			;
		key[i] ^= v;
	}
	key[0] ^= (uint32_t)tsc;
	key[1] ^= (uint32_t)(tsc >> 32);
	key[2] ^= (uint32_t)rtc;
	key[3] ^= (uint32_t)(rtc >> 32);
	seeded = true;
}

/* Fills buf with n (<= CHUNK) random bytes. */
static void random_chunk(uint8_t *buf, size_t n)
{
	uint32_t block[16], flags = spin_lock_irqsave(&random_lock);

	if (!seeded)
		seed_locked();
	key[7] ^= (uint32_t)get_cycles();
	for (size_t done = 0; done < n; done += sizeof(block)) {
		chacha20_block(key, counter++, block);
		memcpy(buf + done, block, n - done < sizeof(block) ? n - done : sizeof(block));
	}
	/* Fast key erasure: the next key is key stream nobody has seen. */
	chacha20_block(key, counter++, block);
	memcpy(key, block, sizeof(key));
	spin_unlock_irqrestore(&random_lock, flags);
	memset(block, 0, sizeof(block));
}

void get_random_bytes(void *buf, size_t n)
{
	for (size_t done = 0; done < n; done += CHUNK)
		random_chunk((uint8_t *)buf + done, n - done < CHUNK ? n - done : CHUNK);
}

/* getrandom(buf, count, flags): Linux 6.1's flags, GRND_NONBLOCK,
 * GRND_RANDOM and GRND_INSECURE (not INSECURE with RANDOM); all mean the
 * same here, the generator being ready from the start. Returns the bytes
 * written: fewer only when a fault cuts the copy short after some were
 * written, -EFAULT if none were. */
LINUX_SYSCALL(SYS_getrandom, getrandom)
{
	uint32_t ubuf = arg[0], count = arg[1], flags = arg[2];
	uint8_t chunk[CHUNK];
	uint32_t done = 0;

	if (flags & ~(uint32_t)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & (GRND_INSECURE | GRND_RANDOM)) == (GRND_INSECURE | GRND_RANDOM))
		return -EINVAL;
	if (count > 0x7fffffff)
		count = 0x7fffffff;     /* Linux: at most INT_MAX */
	while (done < count) {
		uint32_t n = count - done < CHUNK ? count - done : CHUNK;
		get_random_bytes(chunk, n);
		if (copy_to_user(ubuf + done, chunk, n))
			break;
		done += n;
		/* A long request yields to a fatal signal, as Linux's does. */
		if (done < count && signal_pending(current))
			break;
	}
	memset(chunk, 0, sizeof(chunk));
	return done == 0 && count > 0 ? -EFAULT : (long)done;
}
