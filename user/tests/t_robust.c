/* user/tests/t_robust.c - abi.md section 9's thread calls under the seed
 * personality, raw: set_tid_address 258 (0 and a FUTEX_WAKE at exit),
 * set_robust_list 311 / get_robust_list 312 and the walk of the list when
 * a thread exits (FUTEX_OWNER_DIED set, one waiter woken, a bounded walk
 * of a circular list, faults ignored), vfork 190, tkill 238, and the new
 * futex ops' error paths. */
#define T_PROG "t_robust"
#include "t.h"
#include "thr.h"

#define STACK 16384

struct robust_test {
	struct robust_list_head head;
	struct robust_list entry[3];    /* word at entry + futex_offset */
	uint32_t word[3];
	volatile int tid_word;          /* set_tid_address's */
	int mode;
};

static long child_tid;

/* Sets its TID word, registers the list as its case wants, and exits. */
static int robust_child(void *arg, const struct thr_regs *r)
{
	struct robust_test *t = arg;
	long tid = raw_gettid();

	(void)r;
	RAW1(258, &t->tid_word);
	t->head.futex_offset = (long)((char *)&t->word[0] - (char *)&t->entry[0]);
	switch (t->mode) {
	case 0:         /* two held (one with waiters), one someone else's */
		t->word[0] = (uint32_t)tid;
		t->word[1] = (uint32_t)tid | FUTEX_WAITERS;
		t->word[2] = 12345;
		t->head.list.next = &t->entry[0];
		t->entry[0].next = &t->entry[1];
		t->entry[1].next = &t->entry[2];
		t->entry[2].next = &t->head.list;
		break;
	case 1:         /* circular without the head: the walk must end */
		t->word[0] = (uint32_t)tid;
		t->head.list.next = &t->entry[0];
		t->entry[0].next = &t->entry[0];
		break;
	case 2:         /* into unmapped memory: the walk stops quietly */
		t->word[0] = (uint32_t)tid;
		t->head.list.next = &t->entry[0];
		t->entry[0].next = (struct robust_list *)0x10;
		break;
	}
	/* list_op_pending: an entry being locked (word[2]'s owner is not us:
	 * untouched, unless 0, when one waiter is woken). */
	t->head.list_op_pending = t->mode == 0 ? &t->entry[2] : NULL;
	__atomic_store_n(&child_tid, tid, __ATOMIC_SEQ_CST);
	if (RAW2(311, &t->head, sizeof(t->head)) != 0)
		return 1;
	return 0;
}

/* Runs robust_child as a detached thread and waits on its TID word,
 * which set_tid_address makes the kernel clear and wake at its exit. */
static long run_robust(struct robust_test *t)
{
	static char stacks[3][STACK] __attribute__((aligned(16)));
	static int round;
	long tid;

	t->tid_word = -1;
	tid = thr_clone(THR_THREAD_FLAGS | CLONE_DETACHED, stacks[round++ % 3] + STACK, NULL,
			NULL, robust_child, t);
	if (tid < 0)
		return tid;
	while (t->tid_word != 0) {
		int w = t->tid_word;
		if (w != 0)
			raw_futex((int *)&t->tid_word, FUTEX_WAIT, w, NULL);
	}
	return tid;
}

TEST(set_tid_address_and_robust_walk)
{
	static struct robust_test t;

	memset(&t, 0, sizeof(t));
	t.mode = 0;
	EXPECT(run_robust(&t) > 0, "clone");
	EXPECT_EQ(t.tid_word, 0);
	EXPECT_EQ(t.word[0], FUTEX_OWNER_DIED);
	EXPECT_EQ(t.word[1], FUTEX_OWNER_DIED | FUTEX_WAITERS);
	EXPECT_EQ(t.word[2], 12345);
}

TEST(robust_walk_is_bounded_and_ignores_faults)
{
	static struct robust_test t;

	for (int mode = 1; mode <= 2; mode++) {
		memset(&t, 0, sizeof(t));
		t.mode = mode;
		EXPECT(run_robust(&t) > 0, "clone");
		EXPECT(t.word[0] == FUTEX_OWNER_DIED, "mode %d: word %#x", mode, t.word[0]);
	}
}

/* A waiter on a robust word is woken by the owner's death. */
static struct robust_test waker;
static volatile int woke;

static int robust_waiter(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	while (!__atomic_load_n(&child_tid, __ATOMIC_SEQ_CST))
		raw_sched_yield();
	uint32_t v;
	/* Asleep while the live child owns it; its death changes the word. */
	while (((v = waker.word[1]) & FUTEX_TID_MASK) == (uint32_t)child_tid)
		raw_futex((int *)&waker.word[1], FUTEX_WAIT, (int)v, NULL);
	woke = 1;
	return 0;
}

TEST(robust_death_wakes_a_waiter)
{
	static char stack[STACK] __attribute__((aligned(16)));

	memset(&waker, 0, sizeof(waker));
	child_tid = 0;
	woke = 0;
	EXPECT(thr_clone(THR_THREAD_FLAGS | CLONE_DETACHED, stack + STACK, NULL, NULL,
			 robust_waiter, NULL) > 0, "clone");
	EXPECT(run_robust(&waker) > 0, "clone");
	EXPECT(thr_wait_word(&woke, 1, 5000), "the waiter was not woken");
}

TEST(robust_list_calls_errors)
{
	struct robust_list_head h;
	unsigned long head = 1, len = 0;

	EXPECT_EQ(RAW2(311, &h, 11), -EINVAL);
	EXPECT_EQ(RAW2(311, &h, 24), -EINVAL);
	EXPECT_EQ(RAW2(311, &h, 12), 0);
	EXPECT_EQ(RAW3(312, 0, &head, &len), 0);
	EXPECT_EQ(head, (unsigned long)&h);
	EXPECT_EQ(len, 12);
	EXPECT_EQ(RAW3(312, raw_gettid(), &head, &len), 0);
	EXPECT_EQ(RAW3(312, 99999, &head, &len), -ESRCH);
	EXPECT_EQ(RAW3(312, -5, &head, &len), -ESRCH);
	EXPECT_EQ(RAW3(312, 0, 0x10, &len), -EFAULT);
	EXPECT_EQ(RAW3(312, 0, &head, 0xc0000000), -EFAULT);
	EXPECT_EQ(RAW2(311, 0, 12), 0);          /* none again */
	EXPECT_EQ(RAW3(312, 0, &head, &len), 0);
	EXPECT_EQ(head, 0);
	/* set_tid_address returns the TID, whatever the pointer. */
	EXPECT_EQ(RAW1(258, 0x10), raw_gettid());
	EXPECT_EQ(RAW1(258, 0), raw_gettid());
}

static volatile int vfork_flag;
static const struct timespec ms30 = { 0, 30000000 };

/* vfork 190: the child shares our memory, stack included, and runs
 * first; we sleep until it exits. The child's side is assembly that
 * writes nothing on the stack: nanosleep 30 ms, set the flag, exit(4).
 * Returns vfork's result in the parent. */
static long vfork_child_sleeps(void)
{
	long r;

	__asm__ volatile("movl $190, %%eax\n"
			 "int $0x80\n"
			 "testl %%eax, %%eax\n"
			 "jnz 1f\n"
			 "movl $162, %%eax\n"
			 "movl %1, %%ebx\n"
			 "xorl %%ecx, %%ecx\n"
			 "int $0x80\n"
			 "movl $1, %2\n"
			 "movl $1, %%eax\n"
			 "movl $4, %%ebx\n"
			 "int $0x80\n"
			 "1:\n"
			 : "=&a"(r)
			 : "i"(&ms30), "m"(vfork_flag)
			 : "ebx", "ecx", "memory");
	return r;
}

TEST(vfork_190)
{
	int st = 0;
	long pid;

	vfork_flag = 0;
	pid = vfork_child_sleeps();
	EXPECT(pid > 0, "vfork: %ld", pid);
	EXPECT(vfork_flag == 1, "vfork returned before the child exited");
	EXPECT_EQ(raw_wait4(pid, &st, 0, 0), pid);
	EXPECT_STATUS(st, EXITED(4));
}

static volatile int usr1;

static void on_usr1(int sig)
{
	usr1 = sig;
}

TEST(tkill_238)
{
	EXPECT_EQ(thr_signal(SIGUSR1, on_usr1), 0);
	EXPECT_EQ(RAW2(238, raw_gettid(), SIGUSR1), 0);
	EXPECT_EQ(usr1, SIGUSR1);
	EXPECT_EQ(RAW2(238, raw_gettid(), 0), 0);
	EXPECT_EQ(RAW2(238, 0, SIGUSR1), -EINVAL);
	EXPECT_EQ(RAW2(238, -1, SIGUSR1), -EINVAL);
	EXPECT_EQ(RAW2(238, raw_gettid(), 65), -EINVAL);
	EXPECT_EQ(RAW2(238, 99999, SIGUSR1), -ESRCH);
}

static uint32_t w1, w2;

TEST(futex_ops_under_seed)
{
	struct timespec64 t64 = { 0, 1000000 };

	w1 = 0;
	EXPECT_EQ(RAW6(240, &w1, FUTEX_WAKE_OP, 1, 1, &w2,
		       FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_EQ, 0)), 0);
	EXPECT_EQ(w2, 1);
	EXPECT_EQ(RAW6(240, &w1, FUTEX_WAKE_OP, 1, 1, 0xc0000000, 0), -EFAULT);
	EXPECT_EQ(RAW6(240, &w1, FUTEX_REQUEUE, 1, 1, &w2, 0), 0);
	EXPECT_EQ(RAW6(240, &w1, FUTEX_CMP_REQUEUE, 1, 1, &w2, 1), -EAGAIN);
	EXPECT_EQ(RAW6(240, &w1, FUTEX_WAIT_BITSET, 0, 0, 0, 0), -EINVAL);
	EXPECT_EQ(RAW6(240, &w1, FUTEX_WAKE_BITSET, 1, 0, 0, 1), 0);
	/* futex_time64 422: WAIT with a struct timespec64 */
	EXPECT_EQ(RAW6(422, &w1, FUTEX_WAIT, 0, &t64, 0, 0), -ETIMEDOUT);
	EXPECT_EQ(RAW6(422, &w1, FUTEX_WAIT, 0, 0x10, 0, 0), -EFAULT);
	t64.tv_sec = -1;
	EXPECT_EQ(RAW6(422, &w1, FUTEX_WAIT, 0, &t64, 0, 0), -EINVAL);
	/* read-only memory: WAKE_OP writes, and is refused */
	char *ro = thr_map(4096);
	EXPECT(ro, "mmap");
	EXPECT_EQ(raw_mprotect(ro, 4096, PROT_READ), 0);
	EXPECT_EQ(RAW6(240, &w1, FUTEX_WAKE_OP, 1, 1, ro, 0), -EFAULT);
}

int main(void)
{
	RUN(set_tid_address_and_robust_walk);
	RUN(robust_walk_is_bounded_and_ignores_faults);
	RUN(robust_death_wakes_a_waiter);
	RUN(robust_list_calls_errors);
	RUN(vfork_190);
	RUN(tkill_238);
	RUN(futex_ops_under_seed);
	return t_exit_code();
}
