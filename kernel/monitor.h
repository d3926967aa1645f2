/* kernel/monitor.h - a line-oriented kernel monitor on the console, in the
 * spirit of JOS's: it lets a student look inside the running kernel
 * (the GDT, memory, caches, the initrd, a backtrace). The kernel enters it
 * when there is no user program to run. */
#ifndef KERNEL_MONITOR_H
#define KERNEL_MONITOR_H

void monitor_run(void) __attribute__((noreturn));

#endif
