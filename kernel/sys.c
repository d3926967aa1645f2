/* kernel/sys.c - the small identity and scheduling calls of abi.md
 * section 3 (the Linux layer's are in compat/linux/sys_linux.c). */
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

SYSCALL(SYS_getpid, getpid)
{
	return current->tgid;           /* the thread group's id (abi.md) */
}

SYSCALL(SYS_gettid, gettid)
{
	return current->tid;
}

SYSCALL(SYS_getppid, getppid)
{
	struct task *p = current->group_leader->parent;
	uint32_t flags = spin_lock_irqsave(&tasklist_lock);
	int ppid = 0;

	/* Linux: the parent of the process, i.e. of its group leader. */
	p = current->group_leader->parent;
	if (p)
		ppid = p->tgid;
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return ppid;
}

SYSCALL(SYS_sched_yield, sched_yield)
{
	schedule();     /* a running task goes to the back of its queue */
	return 0;
}
