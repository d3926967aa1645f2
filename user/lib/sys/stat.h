/* user/lib/sys/stat.h - stat and friends, mkdir, mknod, mkfifo, chmod, umask.
 *
 * struct stat is the libc's own, filled from the kernel's struct stat64
 * (lib/abi.h) by the wrappers; the S_* type and permission macros are
 * lib/abi.h's. */
#ifndef USER_SYS_STAT_H
#define USER_SYS_STAT_H

#include "sys/types.h"
#include "lib/abi_linux.h"

struct stat {
	dev_t st_dev;
	ino_t st_ino;
	mode_t st_mode;
	nlink_t st_nlink;
	uid_t st_uid;
	gid_t st_gid;
	dev_t st_rdev;
	long long st_size;
	blksize_t st_blksize;
	blkcnt_t st_blocks;         /* 512-byte units */
	time_t st_atime, st_mtime, st_ctime;
	long st_atime_nsec, st_mtime_nsec, st_ctime_nsec;
};

int stat(const char *path, struct stat *st);
int lstat(const char *path, struct stat *st);
int fstat(int fd, struct stat *st);
int fstatat(int dirfd, const char *path, struct stat *st, int flags);
int mkdir(const char *path, mode_t mode);
int mkdirat(int dirfd, const char *path, mode_t mode);
/* mknod: a regular file, a FIFO (mkfifo) or a socket node; a device is
 * EPERM on Spindle (no device numbers: docs/files.md). */
int mknod(const char *path, mode_t mode, unsigned long dev);
int mknodat(int dirfd, const char *path, mode_t mode, unsigned long dev);
int mkfifo(const char *path, mode_t mode);
int chmod(const char *path, mode_t mode);
int fchmod(int fd, mode_t mode);
mode_t umask(mode_t mask);

#endif
