/* kernel/mm/oom.h - what happens when memory runs out (Linux's
 * mm/oom_kill.c, cut down to its policy).
 *
 * An allocation made for a user task that finds no free page - a page
 * fault's page or page table (vm_fault), the signal frame the kernel
 * writes on a user stack, a /proc snapshot - does not simply fail: the
 * task calls out_of_memory(), which picks a victim, the process with the
 * most resident user pages (mm->rss_pages), never pid 1's group and never
 * a kernel thread (they have no mm), kills its whole group with SIGKILL
 * as exit_group would (group_exiting: it can no longer clone or execve
 * its way out), prints one line, in Linux's words,
 *
 *     Out of memory: Killed process P (name) anon-rss:NkB
 *
 * and waits a tick for the memory to come back; then the caller tries
 * again. While a victim is still on its way out, no second one is chosen.
 * The system calls that only reserve address space (mmap2, brk) or that
 * copy a process (fork, clone) still answer -ENOMEM when their own
 * allocation fails, as Linux's do. */
#ifndef KERNEL_MM_OOM_H
#define KERNEL_MM_OOM_H

#include "lib/types.h"

/* Called by the task an allocation failed for, with no lock held. True:
 * memory is being freed (a victim was killed, or is still dying), try
 * again. False: give up (-ENOMEM): current is itself being killed (its
 * SIGKILL ends it on the way back to user mode), or there is nothing left
 * to kill, or the caller cannot sleep (interrupts off, or a spinlock
 * held). */
bool out_of_memory(void);


#endif
