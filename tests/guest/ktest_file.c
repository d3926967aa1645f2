/* tests/guest/ktest_file.c - group file: fd tables and open files
 * (kernel/file.h) on the RAM file system the initrd was unpacked into.
 * The console's line discipline is group tty (ktest_tty.c); the file
 * system's calls from user space are user/tests/t_fs_*.c.
 *
 * The fd-table tests call the do_* functions behind the system calls on
 * tables of their own; no user memory exists here, so they check only
 * what needs none: errors decided before any copy, and reads through
 * kernel_read. Each ends with every object and frame given back (the
 * counters of kmem.h and pmm.h exactly as at the start). The syscalls
 * proper are exercised from user space (user/tests). */
#include "tests/guest/ktest.h"
#include "kernel/file.h"
#include "compat/linux/fs/vfs.h"
#include "kernel/initrd.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/pmm.h"
#include "lib/string.h"

/* read(2) into kernel memory: file_rw at the file's own offset, the path
 * every read and write takes (read_write.c). */
static long kernel_read(struct file *f, void *buf, size_t n)
{
	struct iobuf b = { (uintptr_t)buf, false };

	return file_rw(f, false, b, n, NULL);
}

#define MOTD "/etc/motd"
#define UBUF 0x10000u           /* a user address: never touched here */

/* ---- leak accounting ---- */

struct usage {
	uint32_t objects, frames;
};

static struct usage usage_now(void)
{
	struct usage u = { 0, pmm_free_frames() };

	for (struct objcache *c = kmem_caches(); c; c = c->next)
		u.objects += c->nr_inuse;
	return u;
}

#define KCHECK_NO_LEAK(start) do { \
	struct usage _u = usage_now(); \
	KCHECK_EQ(_u.objects, (start).objects); \
	KCHECK_EQ(_u.frames, (start).frames); \
} while (0)

/* ---- the fd table ---- */

KTEST(file, new_console_fds)
{
	struct usage start = usage_now();
	struct files *fs = files_new_console();
	struct inode *root, *dev_console;
	struct file *con;

	KCHECK(fs != NULL);
	KCHECK_EQ(fs->refcount, 1);
	con = fs->fd[0];
	KCHECK(con != NULL);
	KCHECK(fs->fd[1] == con && fs->fd[2] == con);   /* one open, dup'ed */
	KCHECK_EQ(con->refcount, 3);
	/* The inode that a path walk to /dev/console finds. */
	KCHECK_EQ(lookup_start_for(AT_FDCWD, "/dev/console", &root), 0);
	KCHECK_EQ(path_walk(root, "/dev/console", LOOKUP_FOLLOW, &dev_console), 0);
	KCHECK(con->inode == dev_console);
	inode_put(dev_console);
	inode_put(root);
	KCHECK(S_ISCHR(con->inode->mode));
	KCHECK_EQ(con->mode, FMODE_READ | FMODE_WRITE);
	KCHECK_EQ(fs->max, NR_OPEN_DEFAULT);    /* small until it must grow */
	for (unsigned i = 3; i < fs->max; i++)
		KCHECK(fs->fd[i] == NULL);
	files_put(fs);
	KCHECK_NO_LEAK(start);
}

KTEST(file, copy_shares_files_and_offsets)
{
	struct usage start = usage_now();
	const struct initrd_file *node = initrd_find(MOTD);
	struct files *fs = files_new_console(), *c;
	struct file *motd, *f;
	char buf[8];

	KCHECK(node != NULL && node->size > 10);
	KCHECK(fs != NULL);
	KCHECK_EQ(do_open(fs, MOTD, O_RDONLY, 0), 3);
	motd = fs->fd[3];
	KCHECK_EQ(motd->refcount, 1);
	KCHECK(S_ISREG(motd->inode->mode));
	KCHECK_EQ(motd->inode->size, node->size);

	c = files_copy(fs);
	KCHECK(c != NULL && c != fs);
	KCHECK_EQ(c->refcount, 1);
	KCHECK_EQ(c->max, fs->max);
	for (unsigned i = 0; i < fs->max; i++)
		KCHECK(c->fd[i] == fs->fd[i]);
	KCHECK_EQ(motd->refcount, 2);
	KCHECK_EQ(fs->fd[0]->refcount, 6);

	/* fork shares the open file, so the offset too. */
	f = fd_get(fs, 3);
	KCHECK_EQ(kernel_read(f, buf, 4), 4);
	file_put(f);
	f = fd_get(c, 3);
	KCHECK_EQ(kernel_read(f, buf, 4), 4);
	file_put(f);
	KCHECK(memcmp(buf, (const char *)node->data + 4, 4) == 0);
	KCHECK_EQ(motd->pos, 8);

	KCHECK_EQ(do_close(c, 3), 0);
	KCHECK_EQ(do_close(c, 3), -EBADF);
	KCHECK_EQ(motd->refcount, 1);
	KCHECK(fs->fd[3] == motd);
	files_put(c);
	KCHECK_EQ(fs->fd[0]->refcount, 3);
	files_put(fs);
	KCHECK_NO_LEAK(start);
}

KTEST(file, clone_files_refcount)
{
	struct usage start = usage_now();
	struct files *fs = files_new_console();

	KCHECK(fs != NULL);
	files_get(fs);                  /* a CLONE_FILES child */
	KCHECK_EQ(fs->refcount, 2);
	files_put(fs);                  /* it exits: the table stays */
	KCHECK_EQ(fs->refcount, 1);
	KCHECK_EQ(fs->fd[0]->refcount, 3);
	KCHECK_EQ(do_open(fs, MOTD, O_RDONLY, 0), 3);
	files_put(fs);                  /* the last put closes fd 3 too */
	KCHECK_NO_LEAK(start);
}

KTEST(file, kernel_read_to_the_end)
{
	struct usage start = usage_now();
	const struct initrd_file *node = initrd_find(MOTD);
	struct files *fs = files_new_console();
	static char buf[4096];
	struct file *f;
	uint32_t total = 0;
	long n;

	KCHECK(node != NULL && node->size < sizeof(buf));
	KCHECK(fs != NULL);
	KCHECK_EQ(do_open(fs, MOTD, O_RDONLY, 0), 3);
	f = fd_get(fs, 3);
	while ((n = kernel_read(f, buf + total, 7)) > 0)
		total += (uint32_t)n;
	KCHECK_EQ(n, 0);
	KCHECK_EQ(total, node->size);
	KCHECK(memcmp(buf, node->data, node->size) == 0);
	KCHECK_EQ(kernel_read(f, buf, sizeof(buf)), 0);    /* still at the end */
	file_put(f);
	files_put(fs);
	KCHECK_NO_LEAK(start);
}

/* Opens path and checks the result, closing the fd it got. */
static bool open_gives(struct files *fs, const char *path, int flags, long want,
		       uint32_t kind)
{
	long fd = do_open(fs, path, flags, 0);

	if (fd != want && !(want == 0 && fd >= 0)) {
		ktest_fail(__FILE__, __LINE__, "open(\"%s\", %#x) = %ld, not %ld",
			   path, flags, fd, want);
		return false;
	}
	if (fd < 0)
		return true;
	if ((fs->fd[fd]->inode->mode & S_IFMT) != kind) {
		ktest_fail(__FILE__, __LINE__, "open(\"%s\"): type %#o, not %#o",
			   path, fs->fd[fd]->inode->mode & S_IFMT, kind);
		return false;
	}
	if (kind == S_IFREG && fs->fd[fd]->inode->dev == DEV_RAMFS &&
	    fs->fd[fd]->inode->size != initrd_find(MOTD)->size) {
		ktest_fail(__FILE__, __LINE__, "open(\"%s\"): not " MOTD, path);
		return false;
	}
	return do_close(fs, (int)fd) == 0;
}

KTEST(file, open_paths_and_errors)
{
	static const struct {
		const char *path;
		int flags;
		long err;               /* 0: opens, as kind */
		uint32_t kind;          /* S_IFMT's type */
	} cases[] = {
		{ MOTD, O_RDONLY, 0, S_IFREG },
		{ "//etc/./motd", O_RDONLY, 0, S_IFREG },
		{ "etc/motd", O_RDONLY, 0, S_IFREG },   /* cwd is "/" */
		{ "/etc/../etc/motd", O_RDONLY, 0, S_IFREG },
		{ "/../../etc/motd", O_RDONLY, 0, S_IFREG },
		{ MOTD, O_RDONLY | O_CREAT, 0, S_IFREG },
		{ MOTD, O_WRONLY, 0, S_IFREG },         /* a RAM file: writable */
		{ MOTD, O_RDWR, 0, S_IFREG },
		{ MOTD, O_ACCMODE, 0, S_IFREG },
		{ "/dev/console", O_RDWR, 0, S_IFCHR },
		{ "/dev/./console", O_WRONLY | O_TRUNC, 0, S_IFCHR },
		{ "/", O_RDONLY, 0, S_IFDIR },
		{ "/etc", O_RDONLY, 0, S_IFDIR },
		{ "/etc/", O_RDONLY | O_DIRECTORY, 0, S_IFDIR },
		{ "/dev", O_RDONLY, 0, S_IFDIR },
		{ "/proc", O_RDONLY, 0, S_IFDIR },
		{ "/proc/kstat", O_RDONLY, 0, S_IFREG },
		{ "/proc/kstat", O_WRONLY, -EACCES, 0 },
		{ "", O_RDONLY, -ENOENT, 0 },
		{ "/etc/nosuchfile", O_RDONLY, -ENOENT, 0 },
		{ "/nodir/motd", O_RDONLY, -ENOENT, 0 },
		{ "/nodir/..", O_RDONLY, -ENOENT, 0 },
		{ "/ETC/MOTD", O_RDONLY, -ENOENT, 0 },
		{ "/nodir/new", O_WRONLY | O_CREAT, -ENOENT, 0 },
		{ MOTD, O_RDONLY | O_CREAT | O_EXCL, -EEXIST, 0 },
		{ "/etc/motd/", O_RDONLY, -ENOTDIR, 0 },
		{ "/etc/motd/x", O_RDONLY, -ENOTDIR, 0 },
		{ "/etc/motd/..", O_RDONLY, -ENOTDIR, 0 },
		{ MOTD, O_RDONLY | O_DIRECTORY, -ENOTDIR, 0 },
		{ "/etc", O_WRONLY, -EISDIR, 0 },
		{ "/", O_RDWR, -EISDIR, 0 },
		{ "/etc", O_RDONLY | O_CREAT, -EISDIR, 0 },
		{ "/etc/", O_WRONLY | O_CREAT, -EISDIR, 0 },
		{ "/nosuchdir/", O_WRONLY | O_CREAT, -EISDIR, 0 },      /* Linux's order */
	};
	struct usage start = usage_now();
	struct files *fs = files_new_console();

	KCHECK(fs != NULL);
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		open_gives(fs, cases[i].path, cases[i].flags, cases[i].err, cases[i].kind);
	KCHECK(!ktest_failed());
	for (unsigned i = 3; i < fs->max; i++)
		KCHECK(fs->fd[i] == NULL);

	/* The console honours the access mode it was opened with. */
	KCHECK_EQ(do_open(fs, "/dev/console", O_RDONLY, 0), 3);
	KCHECK_EQ(fs->fd[3]->mode, FMODE_READ);
	KCHECK_EQ(do_write(fs, 3, UBUF, 1), -EBADF);
	KCHECK_EQ(do_open(fs, "/dev/console", O_WRONLY, 0), 4);
	KCHECK_EQ(fs->fd[4]->mode, FMODE_WRITE);
	KCHECK_EQ(do_read(fs, 4, UBUF, 1), -EBADF);
	/* A directory opens, but reads as -EISDIR. */
	KCHECK_EQ(do_open(fs, "/etc", O_RDONLY, 0), 5);
	KCHECK_EQ(do_read(fs, 5, UBUF, 1), -EISDIR);
	KCHECK_EQ(do_write(fs, 5, UBUF, 1), -EBADF);
	files_put(fs);
	KCHECK_NO_LEAK(start);
}

KTEST(file, lowest_free_fd_and_emfile)
{
	struct usage start = usage_now();
	struct files *fs = files_new_console();

	int limit = (int)nofile_limit();

	KCHECK(fs != NULL);
	KCHECK_EQ(limit, INR_OPEN_CUR);         /* Linux's default */
	for (int fd = 3; fd < limit; fd++)      /* the table grows on the way */
		KCHECK_EQ(do_open(fs, MOTD, O_RDONLY, 0), fd);
	KCHECK_EQ(fs->max, (unsigned)limit);
	KCHECK_EQ(do_open(fs, MOTD, O_RDONLY, 0), -EMFILE);
	KCHECK_EQ(do_open(fs, "/nosuchfile", O_RDONLY, 0), -EMFILE);  /* checked first */
	KCHECK_EQ(do_close(fs, 10), 0);
	KCHECK_EQ(do_close(fs, 20), 0);
	KCHECK_EQ(do_open(fs, MOTD, O_RDONLY, 0), 10);
	KCHECK_EQ(do_close(fs, 0), 0);
	KCHECK_EQ(fs->fd[1]->refcount, 2);
	KCHECK_EQ(do_open(fs, "/dev/console", O_RDWR, 0), 0);
	KCHECK_EQ(do_open(fs, MOTD, O_RDONLY, 0), 20);
	files_put(fs);
	KCHECK_NO_LEAK(start);
}

/* Every error here is decided before any user memory is touched. */
KTEST(file, rw_errors)
{
	struct usage start = usage_now();
	struct files *fs = files_new_console();

	KCHECK(fs != NULL);
	KCHECK_EQ(do_open(fs, MOTD, O_RDONLY, 0), 3);
	/* bad fds */
	KCHECK_EQ(do_read(fs, -1, UBUF, 1), -EBADF);
	KCHECK_EQ(do_read(fs, NR_OPEN_MAX, UBUF, 1), -EBADF);
	KCHECK_EQ(do_read(fs, 4, UBUF, 1), -EBADF);
	KCHECK_EQ(do_write(fs, 0x7fffffff, UBUF, 1), -EBADF);
	KCHECK_EQ(do_rwv(fs, 4, true, UBUF, 1), -EBADF);
	KCHECK_EQ(do_close(fs, -1), -EBADF);
	KCHECK_EQ(do_close(fs, NR_OPEN_DEFAULT), -EBADF);
	KCHECK_EQ(do_read(NULL, 0, UBUF, 1), -EBADF);      /* a kernel thread */
	/* the file is read-only */
	KCHECK_EQ(do_write(fs, 3, UBUF, 1), -EBADF);
	KCHECK_EQ(do_rwv(fs, 3, true, UBUF, 1), -EBADF);
	/* buffers outside user space: -EFAULT before anything else */
	KCHECK_EQ(do_read(fs, 3, 0xC0000000u, 1), -EFAULT);
	KCHECK_EQ(do_read(fs, 3, 0xBFFFFFFFu, 2), -EFAULT);
	KCHECK_EQ(do_read(fs, 0, 0xC0100000u, 10), -EFAULT);
	KCHECK_EQ(do_write(fs, 1, 0xC0100000u, 10), -EFAULT);
	KCHECK_EQ(do_write(fs, 1, UBUF, 0xffffffffu), -EFAULT);    /* wraps */
	/* a count that is a negative ssize_t but in range: -EINVAL */
	KCHECK_EQ(do_read(fs, 3, UBUF, 0x80000000u), -EINVAL);
	KCHECK_EQ(do_write(fs, 1, UBUF, 0x80000000u), -EINVAL);
	/* count 0: nothing to do, whatever the buffer (in range) */
	KCHECK_EQ(do_read(fs, 3, 0, 0), 0);
	KCHECK_EQ(do_read(fs, 0, 0, 0), 0);                 /* never sleeps */
	KCHECK_EQ(do_write(fs, 1, 0, 0), 0);
	KCHECK_EQ(fs->fd[3]->pos, 0);
	/* writev's vector count and vector pointer */
	KCHECK_EQ(do_rwv(fs, 1, true, UBUF, 0), 0);
	KCHECK_EQ(do_rwv(fs, 1, true, UBUF, -1), -EINVAL);
	KCHECK_EQ(do_rwv(fs, 1, true, UBUF, UIO_MAXIOV + 1), -EINVAL);
	KCHECK_EQ(do_rwv(fs, 1, true, 0xC0000000u, 2), -EFAULT);
	/* a vector too big for the stack is kmalloc'ed, and freed */
	KCHECK_EQ(do_rwv(fs, 1, true, 0xC0000000u, UIO_MAXIOV), -EFAULT);
	KCHECK_EQ(do_rwv(fs, 1, true, 0xBFFFFFF8u, 2), -EFAULT);
	files_put(fs);
	KCHECK_NO_LEAK(start);
}
