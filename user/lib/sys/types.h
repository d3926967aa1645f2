/* user/lib/sys/types.h - the POSIX scalar types, i386 sizes. */
#ifndef USER_SYS_TYPES_H
#define USER_SYS_TYPES_H

#include "lib/types.h"

typedef int pid_t;
typedef int ssize_t;        /* i386: the signed twin of size_t (unsigned int) */
typedef long off_t;
typedef long time_t;
typedef int clockid_t;
typedef long clock_t;         /* times(): ticks of 1/100 s */
typedef unsigned int mode_t;
typedef unsigned long long ino_t;
typedef unsigned long long dev_t;
typedef unsigned int nlink_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef long blksize_t;
typedef long long blkcnt_t;

#endif
