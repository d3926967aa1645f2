/* tests/guest/ktest_timer.c - group timer: the PIT tick and the TSC clock
 * (kernel/clock.h).
 *
 * No wait here can hang the machine. Until a tick has been seen, waiting
 * is a pause loop bounded by an iteration count and by raw TSC cycles
 * (neither trusts the calibration under test); only once the timer is
 * known to interrupt does a wait use hlt, bounded by a count of wake-ups.
 *
 * This runs under QEMU's TCG on a shared machine, where timer interrupts
 * are late or lost when the host is busy (never early), so the rate
 * bounds are loose: wide enough not to flake, narrow enough to catch a
 * wrong HZ or a TSC calibration off by a factor of two. */
#include "tests/guest/ktest.h"
#include "kernel/clock.h"
#include "arch/i386/x86.h"

#define NS_PER_SEC 1000000000ull
#define NS_PER_MS  1000000ull
#define NS_PER_TICK (NS_PER_SEC / HZ)

/* Bounds for waits that do not trust the timer: a tick is 10 ms, which is
 * a few hundred thousand iterations under TCG and ~30 million cycles at
 * 3 GHz; these allow about a hundred times that, so with a dead timer
 * each test fails in a second or so. */
#define SPIN_MAX      50000000u
#define SPIN_MAX_TSC  3000000000ull

/* Spins until clock_ticks() is past `after`; false if the bound ran out. */
static bool spin_past(uint64_t after)
{
	uint64_t t0 = rdtsc();

	for (uint32_t i = 0; i < SPIN_MAX; i++) {
		if (clock_ticks() > after)
			return true;
		if (rdtsc() - t0 > SPIN_MAX_TSC)
			break;
		pause();
	}
	return clock_ticks() > after;
}

/* Waits with hlt until clock_ticks() reaches `target`. Each tick wakes the
 * CPU, so more than a few wake-ups per tick means the ticks stopped
 * coming while something else kept interrupting. */
static bool hlt_until(uint64_t target)
{
	uint64_t now = clock_ticks();
	uint64_t wakeups = 0, max = (target > now ? target - now : 0) * 10 + 100;

	while (clock_ticks() < target && wakeups++ < max)
		hlt();
	return clock_ticks() >= target;
}

KTEST(timer, interrupts_are_on)
{
	KCHECK(read_eflags() & EFLAGS_IF);
}

KTEST(timer, ticks_advance)
{
	uint64_t t0;

	KCHECK(read_eflags() & EFLAGS_IF);      /* else hlt would never return */
	t0 = clock_ticks();
	KCHECK(spin_past(t0));
	/* Now the timer is known to tick: sleep through a few more. */
	KCHECK(hlt_until(t0 + 6));
	KCHECK(clock_ticks() >= t0 + 6);
}

/* 50 ticks should take 500 ms of clock_ns. Accepted: 100 ms .. 1900 ms:
 * a clock or HZ off by 5x or more either way fails (169 ms was seen at
 * -smp 8 on a loaded host, where the TSC calibration comes out high). The slack is for a
 * busy host, where make check boots two machines of up to 8 emulated CPUs
 * on two cores: lost ticks lengthen the wait (986 ms was seen at -smp 2),
 * and the calibration can still come out high
 * under load, which shortens clock_ns (measured before clock_init took
 * the least of five: up to 1.4x with two QEMUs on two cores, 1.9x with
 * three, 2.3x with six; make check boots two at a time). */
#define RATE_TICKS 50
#define RATE_MIN_NS (100 * NS_PER_MS)
#define RATE_MAX_NS (1900 * NS_PER_MS)

KTEST(timer, hz_ticks_per_second_of_clock_ns)
{
	uint64_t t0, ns0, ns1;

	KCHECK(read_eflags() & EFLAGS_IF);
	/* Start just after a tick, so both ends are tick edges. */
	KCHECK(spin_past(clock_ticks()));
	t0 = clock_ticks();
	ns0 = clock_ns();
	KCHECK(hlt_until(t0 + RATE_TICKS));
	ns1 = clock_ns();
	if (ns1 - ns0 < RATE_MIN_NS || ns1 - ns0 > RATE_MAX_NS)
		ktest_fail(__FILE__, __LINE__,
			   "%d ticks took %llu us of clock_ns, want %llu..%llu",
			   RATE_TICKS, (unsigned long long)(ns1 - ns0) / 1000,
			   (unsigned long long)RATE_MIN_NS / 1000,
			   (unsigned long long)RATE_MAX_NS / 1000);
}

#define MONO_READS 100000

KTEST(timer, clock_ns_is_monotonic)
{
	uint64_t first = clock_ns(), prev = first;
	int sub_us = 0;

	for (int i = 0; i < MONO_READS; i++) {
		uint64_t now = clock_ns();
		sub_us += now % 1000 != 0;
		if (now < prev) {
			ktest_fail(__FILE__, __LINE__, "read %d: %llu after %llu", i,
				   (unsigned long long)now, (unsigned long long)prev);
			return;
		}
		prev = now;
	}
	KCHECK(prev > first);
	/* Nanoseconds, not microseconds times 1000: cycles * 1e9 / hz
	 * computed without losing the low digits. */
	KCHECK(sub_us > MONO_READS / 2);
	/* And across a tick, with interrupts taken in between. */
	KCHECK(spin_past(clock_ticks()));
	KCHECK(clock_ns() > prev);
}

KTEST(timer, tsc_hz_is_calibrated)
{
	uint64_t hz = clock_tsc_hz();

	KCHECK(hz != 0);
	KCHECK(hz != 1);                /* clock_init's "calibration failed" */
	/* Any CPU QEMU or Bochs can model: 10 MHz .. 100 GHz. */
	KCHECK(hz >= 10000000ull);
	KCHECK(hz <= 100000000000ull);
}

/* clock_ns is cycles * 1e9 / clock_tsc_hz(): check it against rdtsc read
 * around it. a <= (first read inside) <= b, c <= (second read) <= d. */
KTEST(timer, clock_ns_follows_the_tsc)
{
	uint64_t hz = clock_tsc_hz(), a, b, c, d, n0, n1, lo, hi;

	KCHECK(hz >= 10000000ull);
	a = rdtsc();
	n0 = clock_ns();
	b = rdtsc();
	for (int i = 0; i < 4; i++)             /* 30 ms or so */
		KCHECK(spin_past(clock_ticks()));
	c = rdtsc();
	n1 = clock_ns();
	d = rdtsc();
	lo = (c - b) * NS_PER_SEC / hz;
	hi = (d - a) * NS_PER_SEC / hz;
	/* Each clock_ns rounds down: allow 1 ns each way. */
	KCHECK(n1 - n0 + 1 >= lo);
	KCHECK(n1 - n0 <= hi + 1);
	KCHECK(n1 - n0 >= 2 * NS_PER_MS);       /* time did pass */
}

/* With interrupts off no tick is counted, clock_ticks() leaves them off,
 * and the tick that was held back arrives at sti. Nothing is checked
 * before sti: a failed KCHECK returns, and must not return with
 * interrupts off (the next test's hlt would never wake). */
KTEST(timer, no_ticks_with_interrupts_off)
{
	uint64_t t0, t1, ns0, waited;
	bool if_stayed_off;
	uint32_t i;

	KCHECK(read_eflags() & EFLAGS_IF);
	KCHECK(spin_past(clock_ticks()));
	cli();
	t0 = clock_ticks();
	if_stayed_off = !(read_eflags() & EFLAGS_IF);
	ns0 = clock_ns();
	/* Three tick periods, by the TSC clock (bounded by iterations). */
	for (i = 0; i < SPIN_MAX && clock_ns() - ns0 < 3 * NS_PER_TICK; i++)
		pause();
	waited = clock_ns() - ns0;
	t1 = clock_ticks();
	sti();

	KCHECK(if_stayed_off);
	KCHECK(waited >= 3 * NS_PER_TICK);
	KCHECK_EQ(t1, t0);
	/* The PIC kept the request: the tick comes right after sti. */
	KCHECK(spin_past(t0));
}
