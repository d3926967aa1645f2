/* user/lib/sys/auxv.h - the auxiliary vector the kernel put above envp
 * (abi.md section 2; AT_* from lib/abi.h). */
#ifndef USER_SYS_AUXV_H
#define USER_SYS_AUXV_H

#include "lib/abi_linux.h"

/* The value of the first entry of type, or 0 (errno ENOENT) if none. */
unsigned long getauxval(unsigned long type);

/* The vector itself: (type, value) pairs ending with AT_NULL. */
extern unsigned long *__auxv;

#endif
