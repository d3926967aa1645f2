/* user/linux/lx_futex.c - the futex operations glibc uses, called raw
 * (abi.md section 9): WAIT_BITSET/WAKE_BITSET with absolute timeouts on
 * either clock, REQUEUE, CMP_REQUEUE, WAKE_OP's encoding, futex_time64,
 * Linux's reading of a wake count (0 wakes one), and their error paths. */
#define _GNU_SOURCE
#define LX_PROG "lx_futex"
#include "lx.h"
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define SYS_futex32 240
#define SYS_futex64 422

struct ts64 { long long sec, nsec; };

static long fx(void *uaddr, int op, uint32_t val, const void *ts, void *uaddr2, uint32_t val3)
{
	long r = syscall(SYS_futex32, uaddr, op, val, ts, uaddr2, val3);
	return r < 0 ? -errno : r;
}

static long long now_ns(clockid_t c)
{
	struct timespec t;
	clock_gettime(c, &t);
	return t.tv_sec * 1000000000ll + t.tv_nsec;
}

static struct timespec ts_of(long long ns)
{
	struct timespec t = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
	return t;
}

static uint32_t word, word2;

TEST(wait_bitset_absolute_monotonic)
{
	long long start = now_ns(CLOCK_MONOTONIC);
	struct timespec dl = ts_of(start + 30000000);

	word = 0;
	EXPECT_EQ(fx(&word, FUTEX_WAIT_BITSET, 0, &dl, NULL, FUTEX_BITSET_MATCH_ANY), -ETIMEDOUT);
	EXPECT(now_ns(CLOCK_MONOTONIC) >= start + 30000000, "woke before the deadline");
	/* A deadline already past, and a mismatched word (checked first). */
	EXPECT_EQ(fx(&word, FUTEX_WAIT_BITSET, 0, &dl, NULL, ~0u), -ETIMEDOUT);
	EXPECT_EQ(fx(&word, FUTEX_WAIT_BITSET, 1, &dl, NULL, ~0u), -EAGAIN);
}

TEST(wait_bitset_absolute_realtime)
{
	long long start = now_ns(CLOCK_REALTIME);
	struct timespec dl = ts_of(start + 30000000);

	EXPECT_EQ(fx(&word, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME | FUTEX_PRIVATE_FLAG, 0, &dl,
		     NULL, ~0u), -ETIMEDOUT);
	EXPECT(now_ns(CLOCK_REALTIME) >= start + 30000000, "woke before the deadline");
	/* CLOCK_REALTIME is for WAIT_BITSET only. */
	EXPECT_EQ(fx(&word, FUTEX_WAIT | FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0), -ENOSYS);
}

TEST(bad_arguments)
{
	struct timespec bad = { 0, 1000000000 }, neg = { -1, 0 };

	EXPECT_EQ(fx(&word, FUTEX_WAIT_BITSET, 0, NULL, NULL, 0), -EINVAL);
	EXPECT_EQ(fx(&word, FUTEX_WAKE_BITSET, 1, NULL, NULL, 0), -EINVAL);
	EXPECT_EQ(fx(&word, FUTEX_WAIT_BITSET, 0, &bad, NULL, ~0u), -EINVAL);
	EXPECT_EQ(fx(&word, FUTEX_WAIT_BITSET, 0, &neg, NULL, ~0u), -EINVAL);
	EXPECT_EQ(fx(&word, FUTEX_WAIT_BITSET, 0, (void *)8, NULL, ~0u), -EFAULT);
	EXPECT_EQ(fx((char *)&word + 1, FUTEX_WAKE_BITSET, 1, NULL, NULL, ~0u), -EINVAL);
	EXPECT_EQ(fx((void *)0xc0000000, FUTEX_WAKE_BITSET, 1, NULL, NULL, ~0u), -EFAULT);
	EXPECT_EQ(fx(&word, FUTEX_REQUEUE, 1, (void *)1, (void *)8, 0), -EFAULT);
	EXPECT_EQ(fx(&word, FUTEX_REQUEUE, 1, (void *)1, (char *)&word2 + 2, 0), -EINVAL);
	EXPECT_EQ(fx(&word, FUTEX_REQUEUE, (uint32_t)-1, (void *)1, &word2, 0), -EINVAL);
	EXPECT_EQ(fx(&word, FUTEX_CMP_REQUEUE, 1, (void *)-1, &word2, 0), -EINVAL);
	EXPECT_EQ(fx(&word, FUTEX_WAKE_OP, 1, (void *)1, (void *)8,
		     FUTEX_OP(FUTEX_OP_SET, 1, FUTEX_OP_CMP_EQ, 0)), -EFAULT);
	EXPECT_EQ(fx(&word, FUTEX_WAKE_OP, 1, (void *)1, &word2, 7u << 28), -ENOSYS);
}

/* A thread asleep on a word, with a bitset; it records how it woke. */
struct sleeper {
	pthread_t t;
	uint32_t *addr, bitset;
	volatile long result;
	volatile int started;
};

static void *sleeper_fn(void *a)
{
	struct sleeper *s = a;
	struct timespec dl = ts_of(now_ns(CLOCK_MONOTONIC) + 10000000000ll);

	s->started = 1;
	s->result = fx(s->addr, FUTEX_WAIT_BITSET, 0, &dl, NULL, s->bitset);
	return NULL;
}

static void start_sleepers(struct sleeper *s, int n, uint32_t *addr, const uint32_t *bitsets)
{
	for (int i = 0; i < n; i++) {
		s[i].addr = addr;
		s[i].bitset = bitsets ? bitsets[i] : ~0u;
		s[i].result = 1;
		s[i].started = 0;
		pthread_create(&s[i].t, NULL, sleeper_fn, &s[i]);
	}
	for (int i = 0; i < n; i++)
		while (!s[i].started)
			sched_yield();
	usleep(50000);                  /* all in the kernel by now */
}

static int count_woken(struct sleeper *s, int n)
{
	int c = 0;

	usleep(50000);
	for (int i = 0; i < n; i++)
		c += s[i].result == 0;
	return c;
}

static void finish(struct sleeper *s, int n, uint32_t *addr)
{
	fx(addr, FUTEX_WAKE, 100, NULL, NULL, 0);
	for (int i = 0; i < n; i++)
		pthread_join(s[i].t, NULL);
}

TEST(wake_bitset_matches_bits)
{
	static const uint32_t bits[4] = { 1, 2, 4, 3 };
	struct sleeper s[4];

	word = 0;
	start_sleepers(s, 4, &word, bits);
	EXPECT_EQ(fx(&word, FUTEX_WAKE_BITSET, 10, NULL, NULL, 2), 2);  /* 2 and 3 */
	EXPECT_EQ(count_woken(s, 4), 2);
	EXPECT(s[1].result == 0 && s[3].result == 0 && s[0].result == 1, "the wrong ones woke");
	EXPECT_EQ(fx(&word, FUTEX_WAKE, 10, NULL, NULL, 0), 2);
	finish(s, 4, &word);
}

/* Linux 6.1 reads a wake count as an int, and only after a waiter is
 * woken: 0, or a negative count, wakes one (its futex_wake and
 * futex_wake_op; its selftests/x86/ldt_gdt.c wakes its thread with 0).
 * Later kernels changed this (6.18 wakes none for 0); the contract's
 * reference is 6.1. */
TEST(wake_with_a_count_of_0_or_less_wakes_one)
{
	struct sleeper s[3];

	word = word2 = 0;
	start_sleepers(s, 3, &word, NULL);
	EXPECT_EQ(fx(&word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0), 1);
	EXPECT_EQ(count_woken(s, 3), 1);
	EXPECT_EQ(fx(&word, FUTEX_WAKE_BITSET, (uint32_t)-1, NULL, NULL, ~0u), 1);
	EXPECT_EQ(count_woken(s, 3), 2);
	EXPECT_EQ(fx(&word, FUTEX_WAKE_OP, 0, (void *)0, &word2,
		     FUTEX_OP(FUTEX_OP_ADD, 0, FUTEX_OP_CMP_EQ, 0)), 1);
	EXPECT_EQ(count_woken(s, 3), 3);
	EXPECT_EQ(fx(&word, FUTEX_WAKE, 0, NULL, NULL, 0), 0);     /* nobody left */
	finish(s, 3, &word);
}

TEST(requeue_moves_waiters)
{
	struct sleeper s[4];

	word = word2 = 0;
	start_sleepers(s, 4, &word, NULL);
	/* Wake 1, move 2: one stays on word. */
	EXPECT_EQ(fx(&word, FUTEX_REQUEUE, 1, (void *)2, &word2, 0), 3);
	EXPECT_EQ(count_woken(s, 4), 1);
	/* Onto itself, "all of them": the one left, once, at once. */
	EXPECT_EQ(fx(&word, FUTEX_REQUEUE, 0, (void *)0x7fffffff, &word, 0), 1);
	EXPECT_EQ(fx(&word2, FUTEX_WAKE, 10, NULL, NULL, 0), 2);
	EXPECT_EQ(fx(&word, FUTEX_WAKE, 10, NULL, NULL, 0), 1);
	finish(s, 4, &word);
}

TEST(cmp_requeue)
{
	struct sleeper s[2];

	word = word2 = 0;
	start_sleepers(s, 2, &word, NULL);
	EXPECT_EQ(fx(&word, FUTEX_CMP_REQUEUE, 0, (void *)5, &word2, 1), -EAGAIN);
	EXPECT_EQ(fx(&word, FUTEX_CMP_REQUEUE, 0, (void *)5, &word2, 0), 2);
	EXPECT_EQ(fx(&word, FUTEX_WAKE, 10, NULL, NULL, 0), 0);
	EXPECT_EQ(fx(&word2, FUTEX_WAKE, 10, NULL, NULL, 0), 2);
	finish(s, 2, &word);
}

TEST(wake_op)
{
	struct sleeper a[1], b[1];

	word = word2 = 0;
	start_sleepers(a, 1, &word, NULL);
	start_sleepers(b, 1, &word2, NULL);
	word2 = 5;
	/* *word2 += 3 (old 5); 5 > 4, so uaddr2's waiter wakes too. */
	EXPECT_EQ(fx(&word, FUTEX_WAKE_OP, 1, (void *)1, &word2,
		     FUTEX_OP(FUTEX_OP_ADD, 3, FUTEX_OP_CMP_GT, 4)), 2);
	EXPECT_EQ(word2, 8);
	/* *word2 = 1 << 4 (old 8); 8 == 0 fails: nobody on word2 wakes. */
	const int set_shift = FUTEX_OP_SET | FUTEX_OP_OPARG_SHIFT;
	EXPECT_EQ(fx(&word, FUTEX_WAKE_OP, 1, (void *)1, &word2,
		     FUTEX_OP(set_shift, 4, FUTEX_OP_CMP_EQ, 0)), 0);
	EXPECT_EQ(word2, 16);
	/* OR, ANDN, XOR; negative cmparg compares signed. */
	fx(&word, FUTEX_WAKE_OP, 0, 0, &word2, FUTEX_OP(FUTEX_OP_OR, 1, FUTEX_OP_CMP_EQ, 0));
	EXPECT_EQ(word2, 17);
	fx(&word, FUTEX_WAKE_OP, 0, 0, &word2, FUTEX_OP(FUTEX_OP_ANDN, 16, FUTEX_OP_CMP_EQ, 0));
	EXPECT_EQ(word2, 1);
	fx(&word, FUTEX_WAKE_OP, 0, 0, &word2, FUTEX_OP(FUTEX_OP_XOR, 3, FUTEX_OP_CMP_EQ, 0));
	EXPECT_EQ(word2, 2);
	word2 = (uint32_t)-5;
	EXPECT_EQ(fx(&word, FUTEX_WAKE_OP, 0, 0, &word2,
		     FUTEX_OP(FUTEX_OP_ADD, 0, FUTEX_OP_CMP_LT, -1)), 0);
	word2 = 0;
	finish(a, 1, &word);
	finish(b, 1, &word2);
	EXPECT_EQ(a[0].result, 0);
	EXPECT_EQ(b[0].result, 0);
}

TEST(futex_time64)
{
	struct ts64 rel = { 0, 20000000 }, bad = { 0, 1000000000 };
	long long start = now_ns(CLOCK_MONOTONIC);
	struct ts64 abs = { (start + 20000000) / 1000000000, (start + 20000000) % 1000000000 };

	word = 0;
	errno = 0;
	EXPECT_EQ(syscall(SYS_futex64, &word, FUTEX_WAIT, 0, &rel, NULL, 0), -1);
	EXPECT_EQ(errno, ETIMEDOUT);
	EXPECT(now_ns(CLOCK_MONOTONIC) >= start + 20000000, "woke early");
	EXPECT_EQ(syscall(SYS_futex64, &word, FUTEX_WAIT_BITSET, 0, &abs, NULL, ~0u), -1);
	EXPECT_EQ(errno, ETIMEDOUT);
	EXPECT_EQ(syscall(SYS_futex64, &word, FUTEX_WAIT, 0, &bad, NULL, 0), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(syscall(SYS_futex64, &word, FUTEX_WAKE, 1, NULL, NULL, 0), 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	RUN(wait_bitset_absolute_monotonic);
	RUN(wait_bitset_absolute_realtime);
	RUN(bad_arguments);
	RUN(wake_bitset_matches_bits);
	RUN(wake_with_a_count_of_0_or_less_wakes_one);
	RUN(requeue_moves_waiters);
	RUN(cmp_requeue);
	RUN(wake_op);
	RUN(futex_time64);
	return lx_exit_code();
}
