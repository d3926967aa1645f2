/* user/tests/t_fs.h - what the file-system tests (t_fs_*.c) share: a
 * scratch directory of their own, a sibling program's path, and small
 * file helpers built on the raw calls. */
#ifndef USER_TESTS_T_FS_H
#define USER_TESTS_T_FS_H

#include "t.h"
#include "thr.h"
#include "fcntl.h"
#include "unistd.h"

/* The path of the program named name in this program's own directory:
 * found through /proc/self/exe, so the tests need not know where the
 * initrd puts them. */
__attribute__((unused))
static const char *sibling(const char *name)
{
	static char path[256];
	long n = raw_readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	if (n <= 0)
		return name;
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash || strlen(name) + 1 >= sizeof(path) - (size_t)(slash + 1 - path))
		return name;
	strcpy(slash + 1, name);
	return path;
}

/* The kernel's books (thr_kstat). The buffer it reads into and k are
 * touched before the reading, so that no page of ours is faulted in
 * between the kernel's counting and the caller's comparing. */
__attribute__((unused))
static void fs_books(struct thr_kstat *k)
{
	static bool warm;

	memset(k, 0, sizeof(*k));
	if (!warm) {
		memset(thr_procbuf, 0, sizeof(thr_procbuf));
		warm = true;
	}
	if (thr_kstat(k) != 0)
		memset(k, 0, sizeof(*k));
}

/* Writes s (its strlen) into a new file at path: 0 or -errno. */
__attribute__((unused))
static long put_file(const char *path, const char *s)
{
	long fd = raw_open3(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), n;

	if (fd < 0)
		return fd;
	n = raw_write((int)fd, s, strlen(s));
	raw_close((int)fd);
	return n == (long)strlen(s) ? 0 : n < 0 ? n : -EIO;
}

/* Reads path into buf (NUL-terminated): the length or -errno. */
__attribute__((unused))
static long get_file(const char *path, char *buf, size_t size)
{
	long fd = raw_open(path, O_RDONLY), n, total = 0;

	if (fd < 0)
		return fd;
	while ((n = raw_read((int)fd, buf + total, size - 1 - (size_t)total)) > 0)
		total += n;
	raw_close((int)fd);
	buf[total] = '\0';
	return n < 0 ? n : total;
}

/* A kernel address, and a user address nothing is mapped at. */
#define KPTR opaque(0xC0100000u)
#define NOPTR opaque(0x10u)

#endif
