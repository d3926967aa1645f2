/* compat/linux/restart.h - system-call restart: what a sleeping call returns
 * when a signal interrupts it, and restart_syscall (0).
 *
 * A call that sleeps and sees signal_pending() does not decide between
 * -EINTR and "start again": it cannot know yet what the signal will do.
 * It returns one of Linux's four internal codes (include/linux/errno.h),
 * which never reach user space, and the way back to user mode decides
 * (compat/linux/i386/syscall_restart.c):
 *
 *                          a handler runs          no handler runs
 *   -ERESTARTSYS           -EINTR, or restart      restart
 *                          if SA_RESTART
 *   -ERESTARTNOINTR        restart                 restart
 *   -ERESTARTNOHAND        -EINTR                  restart
 *   -ERESTART_RESTARTBLOCK -EINTR                  restart_syscall (0),
 *                                                  which runs
 *                                                  current->lx.restart_block
 *
 * "No handler runs" is a stop and SIGCONT, or a signal another thread
 * took first. "Restart" backs %eip up over the `int $0x80` (2 bytes) and
 * puts the call's number back in %eax: the same call, the same
 * arguments, as if it had never been made. So only calls that can be
 * made again unchanged return ERESTARTSYS/NOHAND/NOINTR; a sleep with a
 * relative timeout would start its whole timeout again, so it records
 * its absolute deadline in restart_block and returns
 * ERESTART_RESTARTBLOCK (nanosleep, poll, a FUTEX_WAIT with a timeout).
 *
 * Which call returns which, as Linux 6.1:
 *   wait4, waitpid, pipe and FIFO read/write/open, console read, a
 *   FUTEX_WAIT without timeout                      ERESTARTSYS
 *   pause, rt_sigsuspend, clock_nanosleep TIMER_ABSTIME, poll with no
 *   timeout                                         ERESTARTNOHAND
 *   nanosleep, clock_nanosleep, poll with a timeout, FUTEX_WAIT with a
 *   timeout                                         ERESTART_RESTARTBLOCK
 *   rt_sigtimedwait, and everything else            -EINTR (never restarted)
 *
 * Number 0 is Linux's restart_syscall, which a linux-personality program
 * may call by hand (-EINTR when nothing was interrupted). The seed's
 * table has no 0 (abi.md section 3): a seed program that calls it gets
 * -ENOSYS, unless the kernel itself put the 0 there a moment ago. */
#ifndef KERNEL_RESTART_H
#define KERNEL_RESTART_H

#include "lib/types.h"

#define ERESTARTSYS           512
#define ERESTARTNOINTR        513
#define ERESTARTNOHAND        514
#define ERESTART_RESTARTBLOCK 516

/* What restart_syscall runs: set by the call that returned
 * ERESTART_RESTARTBLOCK, just before it returned. fn is called with the
 * block and returns the call's result; it may return
 * ERESTART_RESTARTBLOCK again (a second interruption). The arguments
 * are the interrupted call's, in whatever shape fn wants them. */
struct restart_block {
	long (*fn)(struct restart_block *rb);
	uint64_t deadline;      /* CLOCK_MONOTONIC ns: when the sleep ends */
	uint32_t arg[4];
	/* The way out has just turned the call into restart_syscall
	 * (syscall_restart_no_handler): the one call 0 a seed program
	 * makes that is not -ENOSYS. */
	bool armed;
};

/* Linux's do_no_restart_syscall: what restart_syscall runs when nothing
 * asked for it (a program calling 0 by hand): -EINTR. */
long restart_no_restart(struct restart_block *rb);

/* Sets current->lx.restart_block to fn with deadline (and clears arg[]),
 * returning it for the caller to fill arg[]; the caller then returns
 * -ERESTART_RESTARTBLOCK. */
struct restart_block *restart_block_set(long (*fn)(struct restart_block *),
					uint64_t deadline);

/* Whether r is one of the four codes above (they must not reach user
 * space: the way out turns each into -EINTR or a restart). */
static inline bool is_restart_code(long r)
{
	return r == -ERESTARTSYS || r == -ERESTARTNOINTR || r == -ERESTARTNOHAND ||
	       r == -ERESTART_RESTARTBLOCK;
}

#endif
