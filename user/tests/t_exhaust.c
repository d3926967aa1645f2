/* user/tests/t_exhaust.c - running the kernel out of things on purpose
 * (issue 11): a fork bomb, a thread bomb, mmap until -ENOMEM, 10,000
 * futex waiters, a full LDT. Each must end in an error (-EAGAIN or
 * -ENOMEM) or the culprit's death, never a panic or a hang; the kernel
 * must still answer (pid 1 reads /proc/kstat), and once the culprits are
 * gone the books (free frames, tasks, every object cache, the task cache
 * emptied: user/fuzz/books.c) must be exactly as before.
 *
 * Every culprit runs in a child of pid 1, which touches all the memory
 * it will use before the first reading, so that it takes no page fault
 * while memory is short. Booted as init. */
#define T_PROG "t_exhaust"
#include "t.h"
#include "segs.h"
#include "user/fuzz/fuzz.h"
#include "signal.h"
#include "sys/mman.h"

#define MAX_WAITERS 10000
/* The bombs stop here in make check; `t_exhaust full` (make exhaust)
 * goes on until the kernel refuses. See the thread bomb's note. */
#define BOMB_LIMIT 3000

static int bomb_limit = BOMB_LIMIT;
/* A process costs some 6 frames (page directory, page tables, stack,
 * kernel stack): 500 of them are 12 MiB of the 128, well short of the
 * out-of-memory policy, and take a second or two. */
#define FORK_LIMIT 500
static int fork_limit = FORK_LIMIT;

struct shared {
	volatile int failed;            /* the first error of a bomb */
	volatile int count;             /* what it made before that */
	volatile int word;              /* every culprit sleeps on it */
	volatile int done;
};

static struct shared *sh;
static struct fz_books before, after;
static char why[256];

/* Takes the books; kills whatever this case left; compares. */
#define BOOKS_BEFORE() EXPECT_EQ(fz_books_take(&before), 0)
#define BOOKS_AFTER() do { \
	EXPECT(fz_kill_rest(&before, why, sizeof(why)) == 0, "%s", why); \
	EXPECT(fz_books_settle(&before, &after, 20000, why, sizeof(why)) == 0, "%s", why); \
} while (0)

extern char _etext[], _end[];

/* The culprit's first act: write every page it shares with pid 1 by
 * copy-on-write (data, bss, the stack pid 1 touched), so that each gets
 * its own copy now, while memory is plentiful. Otherwise pid 1's next
 * write to such a page (its stack, stdout's buffer) would need a frame
 * in the middle of the exhaustion, and, with no out-of-memory policy yet
 * (issue 11, bug 2), find none and fault for ever. */
static void unshare_from_pid1(void)
{
	uint32_t sp, p;

	for (p = ((uint32_t)_etext + 4095) & ~4095u; p < (uint32_t)_end; p += 4096)
		*(volatile char *)p = *(volatile char *)p;
	__asm__ volatile("movl %%esp, %0" : "=r"(sp));
	for (p = (sp & ~4095u) - 32 * 1024; p < USER_TOP; p += 4096)
		*(volatile char *)p = *(volatile char *)p;
}

static void sleep_for_ever(void)
{
	for (;;)
		raw_futex((int *)&sh->word, FUTEX_WAIT, 0, NULL);
}

/* Until sh->failed is set (up to ms); then pid 1 must still get answers. */
static long wait_failed(long ms)
{
	long long end = fz_now_ms() + ms;

	while (!sh->failed && fz_now_ms() < end)
		fz_sleep_ms(10);
	return sh->failed;
}

static void record_failure(long err)
{
	int zero = 0;

	__atomic_compare_exchange_n(&sh->failed, &zero, (int)err, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
}

/* Every process forks until fork fails (or the bomb has its fork_limit
 * processes), then sleeps: the tree grows until the kernel says no.
 *
 * The cap is a reservation taken before each fork, and every process,
 * new ones included, looks at it before forking. It used to be counted
 * after the fork: then each child made past the cap forked once more
 * before it looked, and its child did the same, a chain that, under the
 * out-of-memory policy, ran for minutes. Now the tree stops at exactly
 * fork_limit. */
TEST(fork_bomb_ends_in_eagain_or_enomem)
{
	struct fz_books k;

	BOOKS_BEFORE();
	memset(sh, 0, sizeof(*sh));
	if (raw_fork() == 0) {
		unshare_from_pid1();
		for (;;) {
			if (sh->failed ||
			    __atomic_add_fetch(&sh->count, 1, __ATOMIC_SEQ_CST) > fork_limit) {
				record_failure(1);
				sleep_for_ever();
			}
			long r = raw_fork();
			if (r < 0) {
				__atomic_sub_fetch(&sh->count, 1, __ATOMIC_SEQ_CST);
				record_failure(r);
				sleep_for_ever();
			}
		}
	}
	long err = wait_failed(120000);
	fz_sleep_ms(200);
	long kst = fz_kstat(&k);
	printf("t_exhaust: fork bomb: %d processes, then %ld\n",
	       sh->count < fork_limit ? sh->count : fork_limit, err);
	BOOKS_AFTER();
	EXPECT(err == 1 || err == -EAGAIN || err == -ENOMEM, "fork failed with %ld", err);
	EXPECT(kst == 0 || kst == -ENOMEM, "/proc/kstat during the bomb: %ld", kst);
}

/* A thread that sleeps on sh->word without touching memory: no stack of
 * its own is needed, so every thread can share one. %edi holds the
 * futex address (clone's ctid, ignored: abi.md section 4). */
long waiter_clone(unsigned long flags, void *newsp, volatile int *word);
__asm__(
	"	.text\n"
	"	.globl waiter_clone\n"
	"	.type waiter_clone, @function\n"
	"waiter_clone:\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	movl 16(%esp), %ebx\n"
	"	movl 20(%esp), %ecx\n"
	"	xorl %edx, %edx\n"
	"	xorl %esi, %esi\n"
	"	movl 24(%esp), %edi\n"
	"	movl $120, %eax\n"              /* SYS_clone */
	"	int $0x80\n"
	"	testl %eax, %eax\n"
	"	jnz 2f\n"
	"1:	movl %edi, %ebx\n"              /* futex(word, FUTEX_WAIT, 0, NULL) */
	"	xorl %ecx, %ecx\n"
	"	xorl %edx, %edx\n"
	"	xorl %esi, %esi\n"
	"	movl $240, %eax\n"
	"	int $0x80\n"
	"	cmpl $0, (%edi)\n"              /* woken for real only once *word != 0 */
	"	je 1b\n"
	"	movl $1, %eax\n"                /* SYS_exit */
	"	xorl %ebx, %ebx\n"
	"	int $0x80\n"
	"2:	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	ret\n"
	"	.size waiter_clone, . - waiter_clone\n");

_Static_assert(SYS_clone == 120 && SYS_futex == 240 && SYS_exit == 1, "waiter_clone's numbers");

#define THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | \
		      CLONE_DETACHED)

static char shared_stack[4096] __attribute__((aligned(16)));

/* One process makes threads until clone fails (or BOMB_LIMIT). Run to
 * the end (`make exhaust`), clone fails with -ENOMEM after some 12,600
 * threads at 128 MiB. Their teardown once seemed to hang (threads left
 * runnable, their leader a zombie, for 30 s): each kill(-1) of pid 1's
 * kill loop walked the group once per thread with tasklist_lock held
 * (kill_of_10000_threads_returns_at_once). make check stops at 3,000
 * threads to stay quick. */
TEST(thread_bomb_ends_in_eagain_or_enomem)
{
	BOOKS_BEFORE();
	memset(sh, 0, sizeof(*sh));
	if (raw_fork() == 0) {
		unshare_from_pid1();
		for (;;) {
			long r = waiter_clone(THREAD_FLAGS, shared_stack + sizeof(shared_stack),
					      &sh->word);
			if (r < 0) {
				record_failure(r);
				sleep_for_ever();
			}
			if (++sh->count >= bomb_limit) {
				record_failure(1);
				sleep_for_ever();
			}
		}
	}
	long err = wait_failed(120000);
	printf("t_exhaust: thread bomb: %d threads, then %ld\n", sh->count, err);
	BOOKS_AFTER();
	EXPECT(err == 1 || err == -EAGAIN || err == -ENOMEM, "clone failed with %ld", err);
}

/* 10,000 threads in FUTEX_WAIT on one word (or as many as memory
 * allows, the rest refused with an error), all woken by one FUTEX_WAKE,
 * all gone after. */
TEST(futex_10000_waiters_woken_at_once)
{
	int made = 0;
	long err = 0, woken;

	BOOKS_BEFORE();
	memset(sh, 0, sizeof(*sh));
	if (raw_fork() == 0) {
		unshare_from_pid1();
		for (; made < MAX_WAITERS; made++)
			if ((err = waiter_clone(THREAD_FLAGS, shared_stack + sizeof(shared_stack),
						&sh->word)) < 0)
				break;
		sh->count = made;
		sh->failed = err < 0 ? (int)err : 1;
		while (!sh->done)
			fz_sleep_ms(10);
		raw_exit_group(0);
	}
	wait_failed(120000);
	made = sh->count;
	err = sh->failed;
	/* Wake until every thread has gone (some may not be asleep yet). */
	sh->word = 1;
	woken = 0;
	for (long long end = fz_now_ms() + 60000; fz_now_ms() < end;) {
		struct fz_books k;
		long r = raw_futex((int *)&sh->word, FUTEX_WAKE, 0x7fffffff, NULL);
		if (r > 0)
			woken += r;
		if (fz_kstat(&k) == 0 && k.tasks <= before.tasks + 1)
			break;
		fz_sleep_ms(20);
	}
	sh->done = 1;
	printf("t_exhaust: %d futex waiters (%ld), %ld woken\n", made, err, woken);
	BOOKS_AFTER();
	EXPECT(err == 1 || err == -EAGAIN || err == -ENOMEM, "clone failed with %ld", err);
	EXPECT(made >= 1000, "only %d waiters", made);
	EXPECT(woken <= made, "FUTEX_WAKE woke %ld of %d", woken, made);
}

/* kill(-1, SIGKILL) of a process with 10,000 threads returns at once
 * and the threads are gone soon after. kill(-1) used to ask, for every
 * task, whether it was its group's representative by walking the whole
 * group: 50 million steps here, with tasklist_lock held and interrupts
 * off, and every dying thread waiting for that lock; pid 1's kill loop
 * (fz_kill_rest, one kill(-1) every 20 ms) then kept a thread bomb's
 * threads "runnable" for more than its 30 s (kill_many,
 * kernel/signal_syscalls.c). The walk alone is timed, by kill(-1, 0),
 * which signals nobody: timing the SIGKILL would time 10,000 exits too
 * (on one CPU the woken threads run before the caller returns), which
 * take seconds on a loaded host. 2 s is a deadline, not a speed: the
 * walk is 10,000 steps now (a few ms), the old one 50 million (10 s). */
TEST(kill_of_10000_threads_returns_at_once)
{
	int made = 0;
	long err = 0, r, r0;
	long long t0, ms;

	BOOKS_BEFORE();
	memset(sh, 0, sizeof(*sh));
	if (raw_fork() == 0) {
		unshare_from_pid1();
		for (; made < MAX_WAITERS; made++)
			if ((err = waiter_clone(THREAD_FLAGS, shared_stack + sizeof(shared_stack),
						&sh->word)) < 0)
				break;
		sh->count = made;
		sh->failed = err < 0 ? (int)err : 1;
		sleep_for_ever();
	}
	wait_failed(120000);
	fz_sleep_ms(200);               /* the last ones asleep too */
	t0 = fz_now_ms();
	r0 = raw_kill(-1, 0);
	ms = fz_now_ms() - t0;
	printf("t_exhaust: kill(-1, 0) past %d threads: %lld ms\n", sh->count, ms);
	r = raw_kill(-1, SIGKILL);
	BOOKS_AFTER();
	EXPECT_EQ(r0, 0);
	EXPECT_EQ(r, 0);
	EXPECT(ms < 2000, "kill(-1, 0) past %d threads took %lld ms", sh->count, ms);
	EXPECT(sh->count >= 1000, "only %d threads", sh->count);
}

/* Address space, not memory: 1 MiB at a time, never touched. */
TEST(mmap_until_enomem)
{
	BOOKS_BEFORE();
	memset(sh, 0, sizeof(*sh));
	if (raw_fork() == 0) {
		long r, big = raw_mmap2(NULL, 0xf0000000u, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (big != -ENOMEM)
			raw_exit_group(10);
		for (;;) {
			r = raw_mmap2(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (RAW_IS_ERR(r))
				break;
			sh->count++;
		}
		sh->failed = (int)r;
		/* The kernel still answers: a page may still fit in a hole. */
		r = raw_mmap2(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		raw_exit_group((r == -ENOMEM || !RAW_IS_ERR(r)) && raw_getpid() > 0 ? 0 : 11);
	}
	int st = -1;
	raw_wait4(-1, &st, __WALL, NULL);
	printf("t_exhaust: mmap: %d MiB, then %d\n", sh->count, sh->failed);
	BOOKS_AFTER();
	EXPECT_EQ(st, 0);
	EXPECT_EQ(sh->failed, -ENOMEM);
	EXPECT(sh->count > 1000, "only %d MiB mapped", sh->count);
}

/* All 8,192 LDT entries (LDT_ENTRIES), the 8,193rd refused, the whole
 * table read back, the last entry loaded into %gs and used; inherited by
 * a child through fork. */
TEST(full_ldt_8192_entries)
{
	static uint64_t table[LDT_ENTRIES];
	static uint32_t data[4] = { 0x1dc0ffee };
	struct user_desc u;
	long r = 0;
	int i;

	BOOKS_BEFORE();
	if (raw_fork() == 0) {
		for (i = 0; i < LDT_ENTRIES; i++) {
			memset(&u, 0, sizeof(u));
			u.entry_number = (unsigned)i;
			u.base_addr = (unsigned)data;
			u.limit = 15;
			u.seg_32bit = 1;
			u.useable = 1;
			if ((r = raw_modify_ldt(MODIFY_LDT_WRITE, &u, sizeof(u))) != 0)
				raw_exit_group(20);
		}
		u.entry_number = LDT_ENTRIES;
		if (raw_modify_ldt(MODIFY_LDT_WRITE, &u, sizeof(u)) != -EINVAL)
			raw_exit_group(21);
		if (raw_modify_ldt(MODIFY_LDT_READ, table, sizeof(table)) != (long)sizeof(table))
			raw_exit_group(22);
		for (i = 0; i < LDT_ENTRIES; i++)
			if (table[i] == 0)
				raw_exit_group(23);
		unsigned sel = ((LDT_ENTRIES - 1) << 3) | 7, v;
		set_gs(sel);
		v = gs_word();
		if (v != data[0])
			raw_exit_group(24);
		long c = raw_fork();
		if (c == 0) {
			v = gs_word();
			raw_exit_group(v == data[0] ? 0 : 25);
		}
		int st = -1;
		raw_wait4((int)c, &st, 0, NULL);
		raw_exit_group(st == 0 ? 0 : 26);
	}
	int st = -1;
	raw_wait4(-1, &st, __WALL, NULL);
	BOOKS_AFTER();
	EXPECT(st == 0, "the child: status %#x (20+: the step that failed)", st);
}

int main(int argc, char **argv)
{
	long r = raw_mmap2(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (RAW_IS_ERR(r)) {
		printf("FAIL t_exhaust.setup: mmap %ld\n", r);
		return 1;
	}
	sh = (struct shared *)r;
	memset(sh, 0, 4096);
	memset(&before, 0, sizeof(before));
	memset(&after, 0, sizeof(after));
	bool full = argc > 1 && strcmp(argv[1], "full") == 0;
	if (full)
		bomb_limit = fork_limit = 0x7fffffff;
	fz_guard_init();
	fz_touch_stack();
	printf("t_exhaust: start\n");
	RUN(mmap_until_enomem);
	RUN(full_ldt_8192_entries);
	RUN(futex_10000_waiters_woken_at_once);
	RUN(kill_of_10000_threads_returns_at_once);
	RUN(thread_bomb_ends_in_eagain_or_enomem);
	RUN(fork_bomb_ends_in_eagain_or_enomem);
	return t_exit_code();
}
