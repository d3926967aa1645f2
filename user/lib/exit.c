/* user/lib/exit.c - leaving the process: atexit handlers, stdio, then
 * exit_group (C11 7.22.4.4). */
#include "stdlib.h"
#include "unistd.h"
#include "raw.h"
#include "lock.h"
#include "atfork.h"

static void (*handlers[ATEXIT_MAX])(void);
static int nhandlers;
static libc_lock_t handlers_lock = LIBC_LOCK_INIT;

/* fork (atfork.h): a thread in atexit() or exit() at the fork would
 * leave the lock held in the child, whose exit() would then never end. */
static void handlers_prepare(void) { libc_lock(&handlers_lock); }
static void handlers_parent(void) { libc_unlock(&handlers_lock); }
static void handlers_child(void) { handlers_lock = LIBC_LOCK_INIT; }
const struct __atfork_handlers __exit_atfork = {
	handlers_prepare, handlers_parent, handlers_child,
};

int atexit(void (*fn)(void))
{
	int r = -1;

	libc_lock(&handlers_lock);
	if (nhandlers < ATEXIT_MAX) {
		handlers[nhandlers++] = fn;
		r = 0;
	}
	libc_unlock(&handlers_lock);
	return r;
}

/* stdio.c's, when the program has stdio at all: a weak reference does
 * not pull stdio into a program that never prints. */
void __stdio_exit(void) __attribute__((weak));

/* The handlers run in the reverse order of their registration; each is
 * taken off the table before it runs, so a handler that calls exit()
 * itself goes on with the ones left instead of looping. */
void exit(int code)
{
	for (;;) {
		void (*fn)(void) = NULL;

		libc_lock(&handlers_lock);
		if (nhandlers > 0)
			fn = handlers[--nhandlers];
		libc_unlock(&handlers_lock);
		if (!fn)
			break;
		fn();
	}
	if (__stdio_exit)
		__stdio_exit();
	_exit(code);
}

/* exit_group, not exit: SYS_exit ends only the calling thread (abi.md
 * section 3). */
void _exit(int code)
{
	raw_exit_group(code);
	__builtin_trap();       /* exit_group returned: a kernel bug; die loudly */
}

void _Exit(int code)
{
	_exit(code);
}
