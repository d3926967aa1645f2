/* kernel/monitor.h - a line-oriented kernel monitor on the console, in the
 * spirit of JOS's: it lets a student look inside the running kernel
 * (the GDT, memory, caches, the initrd, a backtrace). The kernel enters it
 * when there is no user program to run, or when the command line says
 * `monitor`.
 *
 * A course tool, as the tracer and the schedule seeds are: the full
 * kernel's (CONFIG_MONITOR, Makefile). The seed kernel has no monitor: for
 * it, monitor_run says so and powers the machine off, with status 1. */
#ifndef KERNEL_MONITOR_H
#define KERNEL_MONITOR_H

#ifdef CONFIG_MONITOR
void monitor_run(void) __attribute__((noreturn));
#else
#include "kernel/printf.h"
#include "arch/i386/power.h"
static inline void monitor_run(void)
{
	kprintf("the kernel monitor is the full kernel's (make run APPEND=monitor)\n");
	power_off(1);
}
#endif

#endif
