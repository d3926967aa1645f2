/* user/lib/sys/types.h - the POSIX scalar types, i386 sizes. */
#ifndef USER_SYS_TYPES_H
#define USER_SYS_TYPES_H

#include "lib/types.h"

typedef int pid_t;
typedef int ssize_t;        /* i386: the signed twin of size_t (unsigned int) */
typedef long off_t;
typedef long time_t;
typedef int clockid_t;

#endif
