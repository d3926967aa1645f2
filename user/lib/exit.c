/* user/lib/exit.c - leaving the process. */
#include "stdlib.h"
#include "unistd.h"
#include "raw.h"

/* The place for atexit handlers and stdio flushing once they exist. */
void exit(int code)
{
	_exit(code);
}

/* exit_group, not exit: SYS_exit ends only the calling thread (abi.md
 * section 3). */
void _exit(int code)
{
	raw_exit_group(code);
	__builtin_trap();       /* exit_group returned: a kernel bug; die loudly */
}
