/* arch/i386/spinlock.c - the out-of-line half of spinlock.h: the report
 * when a lock is misused. */
#include "arch/i386/spinlock.h"
#include "arch/i386/cpu.h"
#include "kernel/panic.h"

struct spin_depth spin_depth[NR_CPUS];

void spinlock_held_panic(struct spinlock *l, const char *what)
{
	panic("spinlock '%s': %s on cpu%d (owner cpu%d)", l->name, what,
	      current_thread_info()->cpu, l->owner_cpu);
}
