/* user/tests/t_oom.c - out of memory has a policy (issue 11, item 2;
 * kernel/mm/oom.h). Booted as init (pid 1), with 128 MiB:
 *   touch_until_oom          a child touches pages until none is left:
 *                            it, the culprit, is killed with SIGKILL (not
 *                            a SIGSEGV for the fault that found nothing);
 *   init_fault_kills_hog     a child takes all but a few frames and waits;
 *                            then init touches fresh pages: the hog is
 *                            killed, init's faults are served;
 *   init_signal_frame_kills_hog  the same, init's own faults being the
 *                            kernel's writes of its signal frames (the
 *                            issue: "cannot write the frame of signal");
 *                            /proc/kstat is read with the hog in place.
 * After each, frames, cached objects and tasks are back exactly. Without
 * the policy the first ends in SIGSEGV and the others kill init. */
#define T_PROG "t_oom"
#include "t.h"
#include "thr.h"

#define HOG_BYTES (256u << 20)          /* more than the machine has */
#define MARGIN 8                        /* frames the waiting hog leaves */
#define WALK_PAGES 1000                 /* fresh pages init then needs */
#define REGION (4u << 20)               /* one page table's worth */

struct shared {
	volatile int ready;
	volatile long touched;
};

static struct shared *sh;

/* ---- accounting ---- */

static struct thr_kstat k0;

/* Tasks, every cache's objects, and the frames outside the caches
 * (thr_books_same): after an out-of-memory kill the same objects may sit
 * in one slab more or fewer than before. */
static bool kstat_same(const struct thr_kstat *a, const struct thr_kstat *b, char *why)
{
	return thr_books_same(a, b, why, 128);
}

#define EXPECT_ACCOUNTING_BACK() do { \
	struct thr_kstat k1_; \
	char why_[128]; \
	EXPECT_EQ(thr_kstat(&k1_), 0); \
	EXPECT(kstat_same(&k0, &k1_, why_), "accounting not back: %s", why_); \
} while (0)

/* ---- the hogs ---- */

static void *map(unsigned long len)
{
	long r = raw_mmap2(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			   -1, 0);
	return RAW_IS_ERR(r) ? NULL : (void *)r;
}

/* Touches pages until it is killed. */
static int hog_forever(long arg)
{
	volatile char *p = map(HOG_BYTES);

	(void)arg;
	CHECK(p != NULL);
	for (unsigned long off = 0; off < HOG_BYTES; off += PAGE_SIZE) {
		p[off] = 1;
		sh->touched++;
	}
	NOT_REACHED("256 MiB should have run out (out of memory: SIGKILL)");
}

/* Takes all free frames but about MARGIN (its page tables counted),
 * says so, and waits to be killed. */
static int hog_and_wait(long frames_free)
{
	long n = frames_free - frames_free / 1024 - 2 - MARGIN;
	volatile char *p = map((unsigned long)n * PAGE_SIZE);

	CHECK(p != NULL);
	for (long i = 0; i < n; i++) {
		p[i * PAGE_SIZE] = 1;
		sh->touched++;
	}
	sh->ready = 1;
	for (;;) {
		struct timespec ts = { 1, 0 };
		raw_nanosleep(&ts, NULL);
	}
}

/* Starts hog_and_wait; its pid once it is in place, or -1 if it died on
 * the way (*st: how). */
static long start_waiting_hog(int *st)
{
	struct thr_kstat k;
	long pid;

	if (thr_kstat(&k) < 0)
		return -1;
	sh->ready = 0;
	sh->touched = 0;
	if ((pid = raw_fork()) == 0)
		raw_exit_group(hog_and_wait((long)k.frames_free));
	while (!sh->ready) {
		if (raw_wait4((int)pid, st, WNOHANG, NULL) == pid)
			return -1;
		raw_sched_yield();
	}
	return pid;
}

static long reap(long pid)
{
	int st = -1;
	long r;

	while ((r = raw_wait4((int)pid, &st, 0, NULL)) == -EINTR)
		;
	return r == pid ? st : (r < 0 ? r : -EINVAL);
}

/* ---- the cases ---- */

TEST(touch_until_oom)
{
	long pid;

	sh->touched = 0;
	if ((pid = raw_fork()) == 0)
		raw_exit_group(hog_forever(0));
	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT_STATUS(reap(pid), KILLED(SIGKILL));
	EXPECT(sh->touched > 1000, "the hog touched only %ld pages", sh->touched);
	EXPECT_ACCOUNTING_BACK();
}

TEST(init_fault_kills_hog)
{
	int st = -1;
	long pid = start_waiting_hog(&st);
	volatile char *p;

	EXPECT(pid > 0, "the hog ended before it was in place: %s", t_status_str(st, t_b1_));
	p = map(WALK_PAGES * PAGE_SIZE);
	EXPECT(p != NULL, "mmap2 for init's own pages failed");
	for (int i = 0; i < WALK_PAGES; i++)
		p[i * PAGE_SIZE] = 2;
	EXPECT_STATUS(reap(pid), KILLED(SIGKILL));
	EXPECT_EQ(raw_munmap((void *)p, WALK_PAGES * PAGE_SIZE), 0);
	EXPECT_ACCOUNTING_BACK();
}

static volatile int handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

/* kill(1, sig) with %esp = top: the kernel writes the signal frame
 * below top. */
void kill_self_on_stack(void *top, int sig);
__asm__(
	"	.text\n"
	"	.globl kill_self_on_stack\n"
	"kill_self_on_stack:\n"
	"	pushl %ebx\n"
	"	movl 8(%esp), %eax\n"           /* top */
	"	movl 12(%esp), %ecx\n"          /* sig */
	"	movl %esp, %edx\n"
	"	movl %eax, %esp\n"
	"	pushl %edx\n"                   /* the old %esp, on the new stack */
	"	movl $1, %ebx\n"
	"	movl $" THR_STR(SYS_kill) ", %eax\n"
	"	int $0x80\n"
	"	popl %esp\n"
	"	popl %ebx\n"
	"	ret\n");

TEST(init_signal_frame_kills_hog)
{
	struct k_sigaction ka = { .handler = (void *)on_usr1 }, dfl = { .handler = SIG_DFL };
	struct thr_kstat during;
	int st = -1;
	char *r, *top;
	long pid;

	/* A 4 MiB-aligned region inside an 8 MiB mapping, its page table
	 * and its top page in place before the hog comes. */
	EXPECT((r = map(2 * REGION)) != NULL, "mmap2 failed");
	top = (char *)(((unsigned long)r + REGION - 1) & ~(unsigned long)(REGION - 1)) + REGION;
	top[-1] = 3;
	EXPECT_EQ(raw_rt_sigaction(SIGUSR1, &ka, NULL, SIGSET_SIZE), 0);
	handled = 0;

	pid = start_waiting_hog(&st);
	EXPECT(pid > 0, "the hog ended before it was in place: %s", t_status_str(st, t_b1_));
	/* The looking tool works with (nearly) every frame taken. */
	EXPECT_EQ(thr_kstat(&during), 0);
	/* Each frame goes below the page the previous frame touched (its
	 * first word is on the page under top): every one is the first
	 * write to a fresh page, made by the kernel (setup_rt_frame). */
	for (int i = 1; i <= WALK_PAGES; i++)
		kill_self_on_stack(top - i * PAGE_SIZE + 64, SIGUSR1);
	EXPECT_EQ(handled, WALK_PAGES);
	EXPECT_STATUS(reap(pid), KILLED(SIGKILL));
	EXPECT_EQ(raw_rt_sigaction(SIGUSR1, &dfl, NULL, SIGSET_SIZE), 0);
	EXPECT_EQ(raw_munmap(r, 2 * REGION), 0);
	EXPECT_ACCOUNTING_BACK();
}

int main(void)
{
	long r = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (RAW_IS_ERR(r)) {
		printf("FAIL %s.setup: mmap2 MAP_SHARED: %ld\n", T_PROG, r);
		return 1;
	}
	sh = (struct shared *)r;
	/* The baseline, once every page this program needs is in: the
	 * shared page, the stack a fork and a wait4 use. */
	sh->ready = 0;
	if ((r = raw_fork()) == 0)
		raw_exit_group(0);
	reap(r);
	thr_kstat(&k0);
	if (thr_kstat(&k0) < 0) {
		printf("FAIL %s.setup: /proc/kstat unreadable\n", T_PROG);
		return 1;
	}
	RUN(touch_until_oom);
	RUN(init_fault_kills_hog);
	RUN(init_signal_frame_kills_hog);
	return t_exit_code();
}
