/* user/tests/smp.h - helpers of the t_smp_* tests (docs/smp.md), on top
 * of thr.h: a pool of thread stacks, starting and joining CLONE_VM
 * threads with an optional TLS descriptor, which CPU a thread is on,
 * /proc/tasks's CPU column, and how many CPUs the machine has.
 *
 * Which CPU am I on? From user mode, `sgdt` answers directly: every CPU
 * has its own GDT (docs/smp.md), so the GDT base names the CPU the
 * instruction ran on (Spindle does not set CR4.UMIP). It is not the CPU
 * index, just a name for it: two threads are on the same CPU exactly when
 * their bases are equal. /proc/tasks's CPU column is the kernel's view
 * (task->cpu: the run queue a task is on, or last ran on), as an index.
 *
 * How many CPUs? smp_ncpus() reads a `cpus N` line of /proc/kstat if
 * the kernel has one; otherwise it starts 8 threads (NR_CPUS) that spin
 * for SMP_COUNT_MS without sleeping. A new task goes to the least loaded
 * CPU (kernel/sched.c:pick_cpu), so with the main thread and 8 spinners
 * every CPU gets at least one runnable thread for the whole time; the
 * count is the number of distinct GDT bases the spinners and the main
 * thread saw, cross-checked with the distinct CPU column values that the
 * main thread sampled meanwhile (the larger of the two counts is used). */
#ifndef USER_TESTS_SMP_H
#define USER_TESTS_SMP_H

#include "thr.h"
#include "segs.h"

#define SMP_MAX_CPUS 8                  /* abi.md section 1: 1 to 8 CPUs */
#define SMP_MAX_THREADS 16
#define SMP_STACK 16384
#define SMP_COUNT_MS 200

static char smp_stacks[SMP_MAX_THREADS][SMP_STACK] __attribute__((aligned(16), unused));

/* The GDT base of the CPU this runs on: a name for that CPU. */
static inline unsigned smp_cpu(void)
{
	struct __attribute__((packed)) { unsigned short limit; unsigned base; } g = { 0, 0 };

	__asm__ volatile("sgdt %0" : "=m"(g));
	return g.base;
}

/* A set of CPUs (their GDT bases), at most SMP_MAX_CPUS. */
struct smp_cpuset {
	int n;
	unsigned base[SMP_MAX_CPUS];
};

/* Adds base; true if it was new. A ninth base is not stored (n stops at
 * SMP_MAX_CPUS + 1, so "more CPUs than the ABI allows" still shows). */
__attribute__((unused))
static bool smp_cpuset_add(struct smp_cpuset *s, unsigned base)
{
	for (int i = 0; i < s->n && i < SMP_MAX_CPUS; i++)
		if (s->base[i] == base)
			return false;
	if (s->n < SMP_MAX_CPUS)
		s->base[s->n] = base;
	if (s->n <= SMP_MAX_CPUS)
		s->n++;
	return true;
}

/* A flat 4 GiB, 32-bit, writable data segment at base (abi.md section 5). */
__attribute__((unused))
static struct user_desc smp_tls_desc(unsigned entry, const void *base)
{
	return (struct user_desc){ .entry_number = entry, .base_addr = (unsigned)base,
				   .limit = 0xfffff, .seg_32bit = 1, .limit_in_pages = 1,
				   .useable = 1 };
}

/* Selectors and %fs/%gs: segs.h (GDT_SEL, set_gs, gs_word, ...). */

/* Starts fn(arg) as a thread of this process (exit signal 0, so joined
 * with __WCLONE) on pool stack i, with *tls installed by CLONE_SETTLS
 * if tls is not NULL. The TID, or -errno. */
__attribute__((unused))
static long smp_start(int i, thr_fn fn, void *arg, struct user_desc *tls)
{
	return thr_clone(THR_THREAD_FLAGS | (tls ? CLONE_SETTLS : 0),
			 smp_stacks[i] + SMP_STACK, NULL, tls, fn, arg);
}

/* The thread's wait status, or -errno. */
__attribute__((unused))
static long smp_join(long tid)
{
	int st = -1;
	long r = raw_wait4((int)tid, &st, __WCLONE, NULL);

	return r == tid ? st : (r < 0 ? r : -EINVAL);
}

/* ---- /proc/tasks ---- */

/* One snapshot of /proc/tasks: cpu[i] = the CPU column of tids[i], or -1
 * if it is not listed. 0 or -errno. */
__attribute__((unused))
static long smp_task_cpus(const long *tids, int n, int *cpu)
{
	long r = thr_read_file("/proc/tasks", thr_procbuf, sizeof(thr_procbuf));
	const char *s = thr_procbuf;

	if (r < 0)
		return r;
	for (int i = 0; i < n; i++)
		cpu[i] = -1;
	while (*s) {
		if (*s >= '0' && *s <= '9') {           /* not the header line */
			long tid = (long)thr_num(&s);
			thr_num(&s);                    /* TGID */
			thr_num(&s);                    /* PPID */
			while (*s == ' ')
				s++;
			if (*s)
				s++;                    /* STATE */
			int c = (int)thr_num(&s);       /* CPU */
			for (int i = 0; i < n; i++)
				if (tids[i] == tid)
					cpu[i] = c;
		}
		while (*s && *s != '\n')
			s++;
		if (*s)
			s++;
	}
	return 0;
}

/* ---- counting CPUs ---- */

static volatile int smp_count_stop;

static int smp_count_fn(void *arg, const struct thr_regs *r)
{
	struct smp_cpuset *seen = arg;

	(void)r;
	while (!smp_count_stop)
		smp_cpuset_add(seen, smp_cpu());
	return 0;
}

/* The number of CPUs (see the top of this file), or -errno. */
__attribute__((unused))
static int smp_ncpus(void)
{
	static struct smp_cpuset seen[SMP_MAX_CPUS];
	struct smp_cpuset all = { 0, { 0 } };
	long tids[SMP_MAX_CPUS];
	int cpu[SMP_MAX_CPUS], n, ncol = 0;
	unsigned col = 0;
	const char *s;

	if (thr_read_file("/proc/kstat", thr_procbuf, sizeof(thr_procbuf)) > 0)
		for (s = thr_procbuf; *s;) {
			if (thr_word(&s, "cpus"))
				return (int)thr_num(&s);
			while (*s && *s != '\n')
				s++;
			if (*s)
				s++;
		}

	smp_count_stop = 0;
	memset(seen, 0, sizeof(seen));
	for (n = 0; n < SMP_MAX_CPUS; n++) {
		tids[n] = smp_start(n, smp_count_fn, &seen[n], NULL);
		if (tids[n] <= 0)
			break;
	}
	long long end = thr_now_ns() + SMP_COUNT_MS * 1000000ll;
	while (n == SMP_MAX_CPUS && thr_now_ns() < end) {
		smp_cpuset_add(&all, smp_cpu());
		if (smp_task_cpus(tids, n, cpu) == 0)
			for (int i = 0; i < n; i++)
				if (cpu[i] >= 0 && cpu[i] < 32)
					col |= 1u << cpu[i];
		raw_sched_yield();
	}
	smp_count_stop = 1;
	for (int i = 0; i < n; i++)
		if (smp_join(tids[i]) != 0)          /* exited 0 */
			return -ECHILD;
	if (n < SMP_MAX_CPUS)
		return tids[n] < 0 ? (int)tids[n] : -EAGAIN;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < seen[i].n && j < SMP_MAX_CPUS; j++)
			smp_cpuset_add(&all, seen[i].base[j]);
	for (unsigned b = col; b; b &= b - 1)
		ncol++;
	return all.n > ncol ? all.n : ncol;
}

#endif
