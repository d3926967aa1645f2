/* user/lib/fcntl.h - open(2). Spindle's files are read-only (abi.md
 * section 3); the flag values are Linux's. */
#ifndef USER_FCNTL_H
#define USER_FCNTL_H

#ifndef O_RDONLY
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR   2
#endif

int open(const char *path, int flags);

#endif
