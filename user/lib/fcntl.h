/* user/lib/fcntl.h - open(2) and fcntl(2); the O_*, F_* and AT_* values
 * are Linux's, from lib/abi.h. */
#ifndef USER_FCNTL_H
#define USER_FCNTL_H

#include "sys/types.h"
#include "lib/abi_linux.h"

int open(const char *path, int flags, ...);     /* mode_t mode with O_CREAT */
int openat(int dirfd, const char *path, int flags, ...);
int creat(const char *path, mode_t mode);
int fcntl(int fd, int cmd, ...);                /* one int or pointer argument */

#endif
