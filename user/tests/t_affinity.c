/* t_affinity - sched_setaffinity(2) / sched_getaffinity(2): a task runs
 * only on the CPUs of its mask (kernel/sched.c, "Affinity").
 *
 * Which CPU a thread is on comes from two independent places (smp.h): the
 * GDT base that `sgdt` shows in user mode (every CPU has its own GDT) and
 * the CPU column of /proc/tasks (the kernel's t->cpu). The cases pin the
 * caller, a spinning sibling, a sleeping sibling and a forked child, and
 * check every error path with Linux's numbers. At -smp 1 the only mask is
 * CPU 0, and the cases that need two CPUs say so and pass trivially. */
#define T_PROG "t_affinity"
#include "t.h"
#include "smp.h"
#include "sched.h"

#define ROUNDS 300

static int ncpus;
static unsigned online;                 /* the mask getaffinity gives */
static unsigned gdt_of[SMP_MAX_CPUS];   /* CPU index -> its GDT base */

static long pin(long tid, unsigned mask)
{
	return raw_sched_setaffinity((pid_t)tid, sizeof(mask), &mask);
}

/* The CPU column of /proc/tasks for tid, or -1. */
static int proc_cpu(long tid)
{
	int cpu = -1;

	if (smp_task_cpus(&tid, 1, &cpu) < 0)
		return -1;
	return cpu;
}

TEST(get_gives_the_online_cpus)
{
	unsigned m = 0;

	EXPECT_EQ(raw_sched_getaffinity(0, sizeof(m), &m), 4);
	EXPECT(m != 0 && (m & (m + 1)) == 0, "mask %#x: not CPUs 0..n-1", m);
	EXPECT_EQ(__builtin_popcount(m), ncpus);
	online = m;
	/* By thread id as well as by 0; glibc's 128-byte cpu_set_t too. */
	cpu_set_t set;
	EXPECT_EQ(sched_getaffinity((pid_t)raw_gettid(), sizeof(set), &set), 0);
	EXPECT_EQ(CPU_COUNT(&set), ncpus);
	EXPECT(CPU_ISSET(0, &set) && !CPU_ISSET(ncpus, &set), "cpu_set_t %#lx", set.__bits[0]);
}

/* Pinned to CPU i, the caller is on CPU i as soon as the call returns,
 * and stays there through yields and sleeps. */
TEST(pinning_the_caller_moves_it_at_once)
{
	long self = raw_gettid();

	for (int i = 0; i < ncpus; i++) {
		EXPECT_EQ(pin(0, 1u << i), 0);
		unsigned base = smp_cpu();
		EXPECT_EQ(proc_cpu(self), i);
		gdt_of[i] = base;
		for (int r = 0; r < ROUNDS; r++) {
			if (r % 50 == 0)
				thr_sleep_ms(1);
			else
				raw_sched_yield();
			EXPECT(smp_cpu() == base, "pinned to cpu%d: ran on GDT %#x, not %#x (round %d)",
			       i, smp_cpu(), base, r);
		}
		for (int j = 0; j < i; j++)
			EXPECT(gdt_of[j] != base, "cpu%d and cpu%d share GDT %#x", i, j, base);
	}
	EXPECT_EQ(pin(0, online), 0);
}

/* ---- a sibling that spins, checking where it runs ---- */

static volatile int spin_stop, spin_bad;
static volatile unsigned spin_want;     /* a GDT base, 0 = anywhere */
static volatile unsigned spin_seen;

static int spinner(void *arg, const struct thr_regs *r)
{
	(void)arg; (void)r;
	while (!spin_stop) {
		unsigned b = smp_cpu();
		spin_seen = b;
		if (spin_want && b != spin_want)
			spin_bad++;
		if ((spin_seen & 0xff) == 0)
			raw_sched_yield();
	}
	return 0;
}

/* Another thread's mask moves it even while it runs: within a bounded
 * time it is on the new CPU, and after that never anywhere else. */
TEST(pinning_a_running_sibling_moves_it)
{
	if (ncpus < 2) {
		printf("t_affinity: one CPU: nothing to move between\n");
		return;
	}
	spin_stop = 0;
	spin_want = 0;
	long tid = smp_start(0, spinner, NULL, NULL);
	EXPECT(tid > 0, "clone: %ld", tid);
	for (int round = 0; round < 2 * ncpus; round++) {
		int cpu = (round * 3 + 1) % ncpus;
		spin_want = 0;
		EXPECT_EQ(pin(tid, 1u << cpu), 0);
		long long end = thr_now_ns() + 2000000000ll;
		while (spin_seen != gdt_of[cpu] && thr_now_ns() < end)
			raw_sched_yield();
		EXPECT(spin_seen == gdt_of[cpu], "sibling not on cpu%d after 2 s", cpu);
		/* From now on it must stay; wait until a fresh sample shows it
		 * there once more, then count the strays for a while. */
		spin_bad = 0;
		spin_want = gdt_of[cpu];
		thr_sleep_ms(5);
		EXPECT_EQ(proc_cpu(tid), cpu);
		EXPECT(spin_bad == 0, "sibling pinned to cpu%d ran elsewhere %d times", cpu, spin_bad);
	}
	spin_stop = 1;
	EXPECT_EQ(smp_join(tid), 0);
}

/* ---- a sibling asleep on a futex ---- */

static volatile int sleep_word;
static volatile unsigned woke_on;

static int sleeper(void *arg, const struct thr_regs *r)
{
	(void)arg; (void)r;
	while (sleep_word == 0)
		raw_futex((int *)&sleep_word, FUTEX_WAIT, 0, NULL);
	woke_on = smp_cpu();
	return 0;
}

/* A sleeping thread given a mask that leaves out its CPU wakes up on an
 * allowed one. */
TEST(a_sleeper_wakes_up_on_an_allowed_cpu)
{
	for (int round = 0; round < ncpus; round++) {
		int from = round, to = (round + 1) % ncpus;
		sleep_word = 0;
		woke_on = 0;
		EXPECT_EQ(pin(0, 1u << from), 0);       /* the child starts here */
		long tid = smp_start(1, sleeper, NULL, NULL);
		EXPECT(tid > 0, "clone: %ld", tid);
		EXPECT(thr_wait_sleeping((int)tid, 2000), "sibling never slept");
		EXPECT_EQ(pin(tid, 1u << to), 0);
		sleep_word = 1;
		EXPECT_EQ(raw_futex((int *)&sleep_word, FUTEX_WAKE, 1, NULL), 1);
		EXPECT_EQ(smp_join(tid), 0);
		EXPECT(woke_on == gdt_of[to], "woke on GDT %#x, not cpu%d's %#x", woke_on, to,
		       gdt_of[to]);
	}
	EXPECT_EQ(pin(0, online), 0);
}

/* fork and clone inherit the mask; the child runs only there. */
TEST(fork_inherits_the_mask)
{
	int cpu = ncpus - 1;

	EXPECT_EQ(pin(0, 1u << cpu), 0);
	long pid = raw_fork();
	if (pid == 0) {
		unsigned m = 0;
		if (raw_sched_getaffinity(0, sizeof(m), &m) != 4 || m != 1u << cpu)
			raw_exit(1);
		for (int r = 0; r < ROUNDS; r++) {
			raw_sched_yield();
			if (smp_cpu() != gdt_of[cpu])
				raw_exit(2);
		}
		raw_exit(0);
	}
	EXPECT(pid > 0, "fork: %ld", pid);
	int st = -1;
	EXPECT_EQ(raw_wait4((pid_t)pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, 0);
	EXPECT_EQ(pin(0, online), 0);
}

TEST(errors_are_linux_errors)
{
	unsigned m = online, big[32];
	cpu_set_t set;

	/* No online CPU in the mask: an empty one (len 0 reads nothing),
	 * CPUs that cannot exist, CPUs this machine lacks. */
	EXPECT_EQ(raw_sched_setaffinity(0, 0, &m), -EINVAL);
	EXPECT_EQ(pin(0, 0), -EINVAL);
	EXPECT_EQ(pin(0, 0xffffff00u), -EINVAL);
	if (ncpus < SMP_MAX_CPUS)
		EXPECT_EQ(pin(0, ~online & 0xffu), -EINVAL);
	/* Bytes past the kernel's 4 are ignored; a shorter mask is
	 * zero-extended. */
	memset(big, 0xff, sizeof(big));
	EXPECT_EQ(raw_sched_setaffinity(0, sizeof(big), big), 0);
	EXPECT_EQ(raw_sched_setaffinity(0, 1, &m), 0);
	/* Bad pointers, the kernel's included. */
	EXPECT_EQ(raw_sched_setaffinity(0, 4, NULL), -EFAULT);
	EXPECT_EQ(raw_sched_setaffinity(0, 4, (void *)0xc0000000), -EFAULT);
	EXPECT_EQ(raw_sched_getaffinity(0, 4, NULL), -EFAULT);
	EXPECT_EQ(raw_sched_getaffinity(0, 4, (void *)0xc0100000), -EFAULT);
	/* getaffinity wants whole longs; it writes 4 bytes and says so. */
	EXPECT_EQ(raw_sched_getaffinity(0, 0, &m), -EINVAL);
	EXPECT_EQ(raw_sched_getaffinity(0, 2, &m), -EINVAL);
	EXPECT_EQ(raw_sched_getaffinity(0, 5, &m), -EINVAL);
	memset(big, 0xab, sizeof(big));
	EXPECT_EQ(raw_sched_getaffinity(0, sizeof(big), big), 4);
	EXPECT_EQ(big[0], online);
	EXPECT_EQ(big[1], 0xababababu);
	/* Nobody by that id. */
	EXPECT_EQ(pin(32767, online), -ESRCH);
	EXPECT_EQ(pin(-1, online), -ESRCH);
	EXPECT_EQ(raw_sched_getaffinity(-5, 4, &m), -ESRCH);
	EXPECT_EQ(sched_getaffinity(32767, sizeof(set), &set), -1);
	EXPECT_EQ(errno, ESRCH);
	EXPECT_EQ(pin(0, online), 0);
}

int main(void)
{
	ncpus = smp_ncpus();
	if (ncpus < 1 || ncpus > SMP_MAX_CPUS) {
		printf("FAIL t_affinity.count_cpus: %d\n", ncpus);
		return 1;
	}
	RUN(get_gives_the_online_cpus);
	RUN(pinning_the_caller_moves_it_at_once);
	RUN(pinning_a_running_sibling_moves_it);
	RUN(a_sleeper_wakes_up_on_an_allowed_cpu);
	RUN(fork_inherits_the_mask);
	RUN(errors_are_linux_errors);
	return t_exit_code();
}
