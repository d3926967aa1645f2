/* user/lib/stdlib.h - process exit. */
#ifndef USER_STDLIB_H
#define USER_STDLIB_H

#include "lib/types.h"

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1

/* Ends the process (every thread: exit_group) with status code & 0xff.
 * Nothing to flush yet: stdio does not buffer across calls. */
void exit(int code) __attribute__((noreturn));

#endif
