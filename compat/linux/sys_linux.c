/* compat/linux/sys_linux.c - the Linux layer's small calls: CPU affinity
 * (sched_setaffinity 241, sched_getaffinity 242; the scheduler honours
 * task->cpus_allowed either way), the scheduling policy's readers
 * (sched_getparam 155, sched_getscheduler 157, sched_get_priority_max 159
 * and _min 160), getcpu 318, set_tid_address 258 and sysinfo 116. */
#include "kernel/clock.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/pmm.h"
#include "arch/i386/mmu.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"
#include "lib/errno.h"

/* ---- CPU affinity: Linux's sched_setaffinity(2) / sched_getaffinity(2).
 * A mask is an array of bytes, bit i of byte i/8 = CPU i; Spindle's CPUs
 * fit in one 32-bit word, Linux's cpumask_size() on an i386 kernel with
 * NR_CPUS <= 32. pid 0 is the caller; any other is a thread id. */
#define CPUMASK_SIZE 4

/* The task named by pid, or NULL (tasklist_lock held). Kernel threads
 * (and the idle tasks, tid 0) have no user-settable affinity. */
static struct task *affinity_task_locked(int pid)
{
	struct task *t = pid == 0 ? current : task_find(pid);

	ASSERT(spin_held(&tasklist_lock));
	return t && t->state != TASK_DEAD ? t : NULL;
}

LINUX_SYSCALL(SYS_sched_setaffinity, sched_setaffinity)
{
	int pid = (int)arg[0];
	uint32_t len = arg[1], mask = 0, flags;
	struct task *t;
	long err = 0;

	/* As Linux's get_user_cpu_mask: a shorter mask is zero-extended,
	 * a longer one's extra bytes (CPUs that cannot exist) ignored. */
	if (copy_from_user(&mask, arg[2], len < CPUMASK_SIZE ? len : CPUMASK_SIZE))
		return -EFAULT;
	mask &= CPU_MASK_ALL;
	flags = spin_lock_irqsave(&tasklist_lock);
	if (!(t = affinity_task_locked(pid)))
		err = -ESRCH;
	else if (!t->mm)
		err = -EINVAL;          /* Linux: PF_NO_SETAFFINITY */
	else if (!(mask & sched_online_mask()))
		err = -EINVAL;          /* no CPU it could run on */
	else
		sched_set_allowed(t, mask);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}

LINUX_SYSCALL(SYS_sched_getaffinity, sched_getaffinity)
{
	int pid = (int)arg[0];
	uint32_t len = arg[1], mask = 0, flags;
	struct task *t;

	/* Linux: room for every possible CPU, in whole longs. */
	if (len * 8 < (uint32_t)__builtin_popcount(sched_online_mask()) || len & (sizeof(long) - 1))
		return -EINVAL;
	flags = spin_lock_irqsave(&tasklist_lock);
	if ((t = affinity_task_locked(pid)))
		mask = t->cpus_allowed & sched_online_mask();
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (!t)
		return -ESRCH;
	if (copy_to_user(arg[2], &mask, CPUMASK_SIZE))
		return -EFAULT;
	return CPUMASK_SIZE;            /* the bytes written, as Linux */
}

/* The scheduling policy calls that only read: Spindle's scheduler has
 * one class, round robin among equals, which is Linux's SCHED_OTHER
 * (priority 0, as every SCHED_OTHER task has). sched_getscheduler(pid)
 * says so of any task (pid 0: the caller), sched_getparam(pid, param)
 * writes its priority, 0; -ESRCH for no such task, -EINVAL for a
 * negative pid (or a NULL param). sched_get_priority_max/min(policy) give
 * Linux's ranges: 1..99 for SCHED_FIFO and SCHED_RR, 0 for the others,
 * -EINVAL for an unknown policy. Changing a policy
 * (sched_setscheduler, sched_setparam) stays -ENOSYS: there is no
 * other class to change to. */
#define SCHED_OTHER 0
#define SCHED_FIFO  1
#define SCHED_RR    2
#define SCHED_BATCH 3
#define SCHED_IDLE  5
#define SCHED_DEADLINE 6

static long sched_task_exists(int pid)
{
	uint32_t flags;
	bool found;

	if (pid < 0)
		return -EINVAL;
	flags = spin_lock_irqsave(&tasklist_lock);
	found = affinity_task_locked(pid) != NULL;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return found ? 0 : -ESRCH;
}

LINUX_SYSCALL(SYS_sched_getscheduler, sched_getscheduler)
{
	long err = sched_task_exists((int)arg[0]);

	return err < 0 ? err : SCHED_OTHER;
}

LINUX_SYSCALL(SYS_sched_getparam, sched_getparam)
{
	int32_t priority = 0;
	long err;

	if (!arg[1])
		return -EINVAL;
	if ((err = sched_task_exists((int)arg[0])) < 0)
		return err;
	return copy_to_user(arg[1], &priority, sizeof(priority)) ? -EFAULT : 0;
}

static long priority_range(uint32_t policy, int rt_limit)
{
	switch (policy) {
	case SCHED_FIFO:
	case SCHED_RR:
		return rt_limit;
	case SCHED_OTHER:
	case SCHED_BATCH:
	case SCHED_IDLE:
	case SCHED_DEADLINE:
		return 0;
	default:
		return -EINVAL;
	}
}

LINUX_SYSCALL(SYS_sched_get_priority_max, sched_get_priority_max)
{
	return priority_range(arg[0], 99);
}

LINUX_SYSCALL(SYS_sched_get_priority_min, sched_get_priority_min)
{
	return priority_range(arg[0], 1);
}

/* getcpu(cpu, node, cache): the CPU the caller runs on, and its NUMA
 * node (always 0: one node), each written where its pointer is not NULL;
 * the third argument is unused since Linux 2.6.24. glibc's sched_getcpu
 * calls it (there is no vDSO to ask). By the time the caller reads it
 * the answer may be stale: it may have moved since, as on Linux. */
LINUX_SYSCALL(SYS_getcpu, getcpu)
{
	uint32_t cpu = (uint32_t)current_thread_info()->cpu, node = 0;

	if (arg[0] && copy_to_user(arg[0], &cpu, sizeof(cpu)))
		return -EFAULT;
	if (arg[1] && copy_to_user(arg[1], &node, sizeof(node)))
		return -EFAULT;
	return 0;
}

/* set_tid_address(tidptr): Linux's clear_child_tid for the caller, as
 * CLONE_CHILD_CLEARTID sets it for a child: when this task releases its
 * address space, 0 is written at tidptr and one waiter woken there
 * (kernel/exit.c mm_release). glibc's start-up calls it for
 * the main thread. Returns the caller's TID; tidptr is not checked now
 * (a fault at exit is ignored). */
LINUX_SYSCALL(SYS_set_tid_address, set_tid_address)
{
	current->user_vm_lock = arg[0];
	current->lx.clear_tid_wake = arg[0] != 0;
	return current->tid;
}

/* sysinfo(info): uptime, memory in bytes (mem_unit 1), and the number of
 * tasks (Linux counts threads too). No swap, no high memory, and no load
 * average: Spindle does not compute one, so the loads are 0. */
LINUX_SYSCALL(SYS_sysinfo, sysinfo)
{
	struct sysinfo si;
	struct list *pos;
	uint32_t flags;
	int n = 0;

	memset(&si, 0, sizeof(si));
	si.uptime = (long)(clock_ns() / 1000000000ull);
	si.totalram = (unsigned long)pmm_total_frames() * PAGE_SIZE;
	si.freeram = (unsigned long)pmm_free_frames() * PAGE_SIZE;
	si.mem_unit = 1;
	flags = spin_lock_irqsave(&tasklist_lock);
	list_for_each(pos, &all_tasks)
		n++;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	si.procs = (unsigned short)(n > 0xffff ? 0xffff : n);
	return copy_to_user(arg[0], &si, sizeof(si)) ? -EFAULT : 0;
}
