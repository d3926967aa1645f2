/* kernel/init.c - starting pid 1 (abi.md section 1).
 *
 * A kernel thread is created (it gets tid 1, the first id), given the
 * console as fds 0-2 and default signal handlers, and execs the program
 * named by init= (default /bin/init) with the words after "--" as its
 * arguments. Then it leaves the kernel for good, into the program. */
#include "kernel/bootinfo.h"
#include "kernel/exec.h"
#include "kernel/file.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/signal.h"
#include "kernel/task.h"
#include "arch/i386/power.h"
#include "arch/i386/process.h"

static const char *const init_envp[] = { "HOME=/", "PATH=/bin", "TERM=vt100", NULL };

static void init_thread(void *arg)
{
	const struct cmdline *c = &bootinfo.cmdline;
	const char *argv[CMDLINE_MAX_ARGS + 2];
	struct task *t = current;
	int i, err;

	(void)arg;
	argv[0] = c->init;
	for (i = 0; i < c->argc; i++)
		argv[i + 1] = c->argv[i];
	argv[i + 1] = NULL;

	t->files = files_new_console();
	t->sighand = sighand_new();
	if (!t->files || !t->sighand || linux_init_task(t) < 0)
		panic("init: out of memory");
	t->exit_signal = SIGCHLD;       /* pid 1 is not self-reaping */
	err = kernel_execve(c->init, argv, init_envp);
	if (err < 0) {
		kprintf("init: cannot run %s (error %d)\n", c->init, -err);
		power_off(1);
	}
	return_to_user(t->tf);
}

void init_start(void)
{
	struct task *t = kthread_create("init", init_thread, NULL);

	if (!t || t->tid != 1)
		panic("init: could not be started as pid 1");
}
