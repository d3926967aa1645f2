/* arch/i386/ipi.c - inter-processor interrupts the scheduler uses. */
#include "arch/i386/cpu.h"
#include "kernel/panic.h"
#include "kernel/sched.h"

void arch_send_reschedule(int cpu)
{
	/* Only CPUs that were started can have work queued (pick_cpu);
	 * until the APs are started, that is this CPU alone. */
	if (cpu == this_cpu()->id || !cpus[cpu].started)
		return;
	panic("arch_send_reschedule: cpu%d started without IPI support", cpu);
}
