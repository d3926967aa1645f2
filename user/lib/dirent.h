/* user/lib/dirent.h - reading directories: opendir, readdir, closedir,
 * on top of getdents64 (a buffer of records refilled as needed). */
#ifndef USER_DIRENT_H
#define USER_DIRENT_H

#include "sys/types.h"
#include "lib/abi_linux.h"            /* DT_* */

struct dirent {
	ino_t d_ino;
	off_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[NAME_MAX + 1];
};

typedef struct spindle_dir DIR;

DIR *opendir(const char *path);
DIR *fdopendir(int fd);
struct dirent *readdir(DIR *d);
void rewinddir(DIR *d);
int closedir(DIR *d);
int dirfd(DIR *d);

#endif
