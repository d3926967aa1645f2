/* user/lib/abort.c - abort: end the process with SIGABRT (C11 7.22.4.1).
 *
 * The signal goes to our own thread group with kill(getpid()); SIGABRT's
 * default action ends the group, and the parent's wait status says
 * "killed by signal 6". A program may catch SIGABRT, but abort must not
 * return: if the handler returns (or the signal is ignored), the action
 * is put back to the default and the signal sent again. */
#include "stdlib.h"
#include "signal.h"
#include "raw.h"

void abort(void)
{
	unsigned long long abrt = SIGBIT(SIGABRT);
	struct k_sigaction dfl = { .handler = SIG_DFL };

	raw_rt_sigprocmask(SIG_UNBLOCK, &abrt, NULL, SIGSET_SIZE);
	raw_kill((pid_t)raw_getpid(), SIGABRT);
	raw_rt_sigaction(SIGABRT, &dfl, NULL, SIGSET_SIZE);
	raw_kill((pid_t)raw_getpid(), SIGABRT);
	raw_exit_group(127);    /* still alive: the kernel did not deliver it */
	__builtin_trap();
}
