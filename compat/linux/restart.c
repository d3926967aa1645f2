/* compat/linux/restart.c - restart_syscall (0) and the restart block
 * (compat/linux/restart.h). */
#include "compat/linux/restart.h"
#include "compat/linux/personality.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "lib/string.h"

long restart_no_restart(struct restart_block *rb)
{
	(void)rb;
	return -EINTR;
}

struct restart_block *restart_block_set(long (*fn)(struct restart_block *),
					uint64_t deadline)
{
	struct restart_block *rb = &current->lx.restart_block;

	memset(rb, 0, sizeof(*rb));
	rb->fn = fn;
	rb->deadline = deadline;
	return rb;
}

/* restart_syscall(): what an interrupted nanosleep, poll or timed
 * FUTEX_WAIT becomes when it is made again (syscall_restart.c puts 0 in
 * %eax). It runs the block once: a second restart_syscall without a new
 * interruption gets -EINTR, as Linux's - or, from a seed program,
 * -ENOSYS (restart.h). */
LINUX_SYSCALL(SYS_restart_syscall, restart_syscall)
{
	struct restart_block *rb = &current->lx.restart_block;
	long (*fn)(struct restart_block *) = rb->fn ? rb->fn : restart_no_restart;
	bool armed = rb->armed;

	(void)arg;
	rb->fn = restart_no_restart;
	rb->armed = false;
	if (!armed && current->lx.personality != PERSONALITY_LINUX)
		return -ENOSYS;
	return fn(rb);
}
