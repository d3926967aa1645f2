/* user/tests/t_smp_tlb.c - TLB shootdown (docs/smp.md): when one thread
 * takes a page away from its process (munmap) or takes its write right
 * away (mprotect PROT_READ), a sibling thread spinning on that page on
 * another CPU, with the translation in that CPU's TLB, must fault at its
 * next access after the call returns; SIGSEGV then ends the whole thread
 * group (abi.md section 7).
 *
 * So each round runs in a forked child process, whose wait status must
 * be SIGSEGV (11). In the child, thread A spins on the page and counts
 * its accesses; the main thread B waits until A is in its loop (the
 * count grows, so the translation is cached), notes whether A runs on
 * another CPU than B (sgdt, smp.h), takes the page away, and then
 * watches: A's count (or, for mprotect, the page itself, still readable)
 * moving on after the call returned is a stale TLB entry in use, and B
 * ends the child with status 2 before A's fault can end it. At -smp 1 A
 * and B share the CPU: A must fault when it next runs. At 2+ CPUs at
 * least one round must have had A running on another CPU while B made
 * the call. The child reports through a MAP_SHARED page. Booted as init. */
#define T_PROG "t_smp_tlb"
#include "t.h"
#include "smp.h"

#define ROUNDS 8
#define WARM 20000              /* A's accesses before B acts */
#define STALE_SLACK 2           /* A's count may move this much after the call */

enum { E_STALE = 2, E_NOFAULT = 3, E_NOSTART = 4, E_SETUP = 5 };

struct report {                 /* the child's MAP_SHARED page */
	volatile int cross;     /* A ran on another CPU when B made the call */
	volatile int calling;   /* B is making the munmap/mprotect call */
	volatile long err;
};

static int ncpus;
static struct report *rep;
static volatile unsigned *page; /* in the child: the page A spins on */
static volatile unsigned a_count, a_cpu, sink;

static int reader_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	a_cpu = smp_cpu();
	for (;;) {
		sink += *page;
		if ((++a_count & 0x3ff) == 0)
			a_cpu = smp_cpu();
	}
	return 0;               /* never: gcc 12 wants it for a static function */
}

static int writer_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	a_cpu = smp_cpu();
	for (;;) {
		unsigned n = a_count + 1;
		*page = n;
		a_count = n;
		if ((n & 0x3ff) == 0)
			a_cpu = smp_cpu();
	}
	return 0;               /* never: gcc 12 wants it for a static function */
}

/* Waits (yielding, up to ms) until A's count reaches want. */
static bool wait_count(unsigned want, long ms)
{
	long long end = thr_now_ns() + ms * 1000000ll;

	while (a_count < want) {
		if (thr_now_ns() > end)
			return false;
		raw_sched_yield();
	}
	return true;
}

/* The child: arg 0 = munmap under a reader, 1 = mprotect under a writer. */
static int child(long arg)
{
	bool protect = arg == 1;
	long r;

	page = thr_map(PAGE_SIZE);
	if (!page)
		return E_SETUP;
	*page = 1;
	r = smp_start(0, protect ? writer_fn : reader_fn, NULL, NULL);
	if (r <= 0) {
		rep->err = r;
		return E_SETUP;
	}
	if (!wait_count(WARM, 10000))
		return E_NOSTART;
	/* A is in its loop now if its count still moves (at -smp 1 it only
	 * moves when B yields, so there this just sees A's last slice). */
	unsigned c = a_count;
	for (int i = 0; i < 1000000 && a_count == c; i++)
		__asm__ volatile("pause");
	rep->cross = a_cpu != smp_cpu() && a_count != c;

	/* Set before the call: A's fault may end us all (on A's CPU) before
	 * this thread has even returned to user mode from the call. */
	rep->calling = 1;
	r = protect ? raw_mprotect((void *)page, PAGE_SIZE, PROT_READ)
		    : raw_munmap((void *)page, PAGE_SIZE);
	unsigned c0 = a_count, v0 = protect ? *page : 0;
	rep->err = r;
	if (r != 0)
		return E_SETUP;
	/* From here, A's next access faults and SIGSEGV ends us all. */
	long long end = thr_now_ns() + 5000000000ll;
	while (thr_now_ns() < end) {
		if (a_count > c0 + STALE_SLACK || (protect && *page != v0))
			return E_STALE;
		raw_sched_yield();
	}
	return E_NOFAULT;
}

static void rounds(long variant, const char *call)
{
	int cross = 0;

	for (int i = 0; i < ROUNDS; i++) {
		memset(rep, 0, sizeof(*rep));
		long st = child_status(child, variant);
		EXPECT(st != EXITED(E_STALE), "round %d (A %s B's CPU): A went on using the page "
		       "after %s returned: a stale TLB entry", i, rep->cross ? "not on" : "on", call);
		EXPECT(st != EXITED(E_NOFAULT), "round %d: A did not fault within 5 s of %s",
		       i, call);
		EXPECT(st != EXITED(E_NOSTART), "round %d: A never got going", i);
		EXPECT(st != EXITED(E_SETUP), "round %d: setup or %s failed: %ld", i, call, rep->err);
		EXPECT(rep->calling, "round %d: A faulted before %s (status %s)", i, call,
		       t_status_str(st, t_b1_));
		EXPECT_STATUS(st, KILLED(SIGSEGV));
		cross += rep->cross;
	}
	printf("  t_smp_tlb: %d cpus: %s with A running on another CPU in %d of %d rounds\n",
	       ncpus, call, cross, ROUNDS);
	if (ncpus > 1)
		EXPECT(cross > 0, "in none of %d rounds was A running on another CPU during %s",
		       ROUNDS, call);
}

TEST(munmap_under_a_reader_on_another_cpu_sigsegv)
{
	rounds(0, "munmap");
}

TEST(mprotect_read_only_under_a_writer_on_another_cpu_sigsegv)
{
	rounds(1, "mprotect(PROT_READ)");
}

int main(void)
{
	long r = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	ncpus = smp_ncpus();
	if (ncpus < 1 || ncpus > SMP_MAX_CPUS || RAW_IS_ERR(r)) {
		printf("FAIL t_smp_tlb.setup: counting the CPUs: %d; MAP_SHARED page: %ld\n",
		       ncpus, r);
		return 1;
	}
	rep = (struct report *)r;
	RUN(munmap_under_a_reader_on_another_cpu_sigsegv);
	RUN(mprotect_read_only_under_a_writer_on_another_cpu_sigsegv);
	return t_exit_code();
}
