/* kernel/exec.h - running a program (abi.md section 2). */
#ifndef KERNEL_EXEC_H
#define KERNEL_EXEC_H

#include "lib/types.h"

#define EXEC_MAX_ARGS    1024       /* argv and envp entries, each */
#define EXEC_MAX_STRINGS (64 * 1024) /* bytes of argument strings in all */
/* The smallest stack execve maps, whatever RLIMIT_STACK says: the
 * strings, 2 * EXEC_MAX_ARGS pointers and the auxv, with room to run. */
#define EXEC_STACK_MIN   (128 * 1024)

/* Replaces current's program with the initrd file `path`, with argument
 * and environment strings from kernel memory (NULL-terminated arrays).
 * 0 (current->tf now starts the program) or -errno, in which case the
 * old program is untouched. */
int kernel_execve(const char *path, const char *const *argv, const char *const *envp);

#endif
