/* arch/i386/ipi.c - inter-processor interrupts the scheduler uses. */
#include "arch/i386/cpu.h"
#include "arch/i386/lapic.h"
#include "arch/i386/smp.h"
#include "kernel/sched.h"

/* A CPU that gets work queued by another is told with an IPI, so that it
 * leaves hlt (idle) or reschedules on its return to user mode. */
void arch_send_reschedule(int cpu)
{
	if (cpu == this_cpu()->id || !cpus[cpu].started)
		return;
	smp_send_ipi(cpu, T_IPI_RESCHEDULE);
}
