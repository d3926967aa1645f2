/* user/lib/dirent.c - opendir, readdir, closedir (dirent.h): a buffer of
 * getdents64 records, refilled when the program has read them all. */
#include "dirent.h"
#include "fcntl.h"
#include "errno.h"
#include "stdlib.h"
#include "string.h"
#include "unistd.h"
#include "raw.h"

#define DIRBUF 2048

struct spindle_dir {
	int fd;
	size_t pos, len;            /* the unread records: buf[pos, len) */
	struct dirent ent;          /* what readdir returns */
	char buf[DIRBUF] __attribute__((aligned(8)));
};

DIR *fdopendir(int fd)
{
	DIR *d;

	if (fcntl(fd, F_GETFD) < 0)
		return NULL;            /* EBADF */
	if (!(d = calloc(1, sizeof(*d))))
		return NULL;
	d->fd = fd;
	return d;
}

DIR *opendir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return NULL;
	if (!(d = fdopendir(fd)))
		close(fd);
	return d;
}

/* The next entry, or NULL at the end (errno unchanged) or on error. */
struct dirent *readdir(DIR *d)
{
	const struct linux_dirent64 *k;

	if (d->pos >= d->len) {
		long n = raw_getdents64(d->fd, d->buf, sizeof(d->buf));
		if (n <= 0) {
			if (n < 0)
				errno = (int)-n;
			return NULL;
		}
		d->pos = 0;
		d->len = (size_t)n;
	}
	k = (const struct linux_dirent64 *)(d->buf + d->pos);
	d->pos += k->d_reclen;
	d->ent.d_ino = k->d_ino;
	d->ent.d_off = (off_t)k->d_off;
	d->ent.d_reclen = sizeof(d->ent);
	d->ent.d_type = k->d_type;
	strlcpy(d->ent.d_name, k->d_name, sizeof(d->ent.d_name));
	return &d->ent;
}

void rewinddir(DIR *d)
{
	lseek(d->fd, 0, SEEK_SET);
	d->pos = d->len = 0;
}

int closedir(DIR *d)
{
	int r = close(d->fd);

	free(d);
	return r;
}

int dirfd(DIR *d)
{
	return d->fd;
}
