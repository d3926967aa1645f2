/* kernel/file.h - open files and the per-process fd table (abi.md
 * sections 3 and 9: open, read, write, close, dup, fcntl ...).
 *
 * As in Linux, an fd is an index into a table (struct files) of pointers
 * to open files (struct file). A struct file holds what open created: the
 * inode, the access mode, the status flags and the offset; fork's copy of
 * the table points at the same files, so parent and child share offsets,
 * as on Unix, and so do fds made by dup. The close-on-exec flag belongs to
 * the fd, not the file. The table itself is shared by reference count
 * with CLONE_FILES.
 *
 * The table starts with room for NR_OPEN_DEFAULT fds and doubles when an
 * fd beyond it is wanted, up to the process's RLIMIT_NOFILE (Linux's
 * default 1024; setrlimit may raise it up to NR_OPEN_MAX): a process
 * with three fds stays small, one that opens 1,000 files works.
 *
 * kernel/file.c: files and tables; kernel/fd.c: dup, fcntl, the rlimit
 * calls; kernel/read_write.c: read, write and friends; kernel/fs/: the
 * objects the files are (kernel/fs/vfs.h). */
#ifndef KERNEL_FILE_H
#define KERNEL_FILE_H

#include "lib/types.h"
#include "lib/abi.h"
#include "arch/i386/spinlock.h"
#include "kernel/mutex.h"

struct inode;
struct file_ops;

#define NR_OPEN_DEFAULT 32      /* fds a new table has room for */
#define NR_OPEN_MAX  65536      /* RLIMIT_NOFILE's ceiling (Linux: nr_open) */
#define INR_OPEN_CUR 1024       /* RLIMIT_NOFILE's default, soft and hard */
#define INR_OPEN_MAX 4096
#define UIO_MAXIOV 1024         /* writev's iovcnt limit (Linux's) */
#define MAX_RW_COUNT 0x7ffff000u /* Linux's cap on one read or write */

/* What an open file may do, from the open flags as Linux's OPEN_FMODE:
 * (flags + 1) & 3 maps O_RDONLY to 1, O_WRONLY to 2, O_RDWR to 3. */
#define FMODE_READ  1u
#define FMODE_WRITE 2u
#define OPEN_FMODE(flags) (((unsigned)(flags) + 1) & O_ACCMODE)

/* The status flags F_SETFL may change (Linux: O_APPEND, O_NONBLOCK and
 * three Spindle does not have). */
#define SETFL_MASK (O_APPEND | O_NONBLOCK)

/* struct iovec as i386 user space lays it out. */
struct user_iovec {
	uint32_t base;
	uint32_t len;
};

struct file {
	struct inode *inode;        /* referenced */
	const struct file_ops *fop; /* the inode's, taken at open */
	unsigned mode;              /* FMODE_READ | FMODE_WRITE */
	unsigned flags;             /* O_* status flags (F_GETFL) */
	int refcount;               /* fds pointing here + calls using it */
	struct mutex pos_lock;      /* pos, for read/write/lseek (Linux's f_pos_lock) */
	uint64_t pos;
	void *private;              /* the file system's (a /proc snapshot) */
};

struct files {
	int refcount;               /* tasks using this table (CLONE_FILES) */
	struct spinlock lock;       /* everything below */
	unsigned max;               /* slots in fd[] */
	struct file **fd;
	uint32_t *cloexec;          /* one bit per slot */
	struct file *fd_small[NR_OPEN_DEFAULT];     /* fd[] until it grows */
	uint32_t cloexec_small[NR_OPEN_DEFAULT / 32];
};

/* For the task code (fork, clone, exec, exit). */
struct files *files_new_console(void);      /* init's: 0, 1, 2 = console */
struct files *files_copy(struct files *f);  /* fork; NULL if out of memory */
void files_get(struct files *f);            /* CLONE_FILES */
void files_put(struct files *f);            /* the last put closes all */
void files_close_on_exec(struct files *f);  /* execve: O_CLOEXEC fds go */
/* execve: a table shared with another process (CLONE_FILES without
 * CLONE_THREAD) is copied first, as Linux's unshare_files. 0 or -ENOMEM. */
struct task;
int files_unshare(struct task *t);

/* An open file of inode (referenced by the caller; the file takes its
 * own reference) with open flags, after the file system's open; NULL
 * with *err. */
struct file *file_open_inode(struct inode *inode, int flags, long *err);
struct file *file_new_console(void);
void file_hold(struct file *f);
void file_put(struct file *f);

/* The open file behind fd with a reference taken (file_put it), or NULL. */
struct file *fd_get(struct files *fs, int fd);
/* Puts f at the lowest free fd >= min, below the RLIMIT_NOFILE limit;
 * takes over the caller's reference. The fd, or -EMFILE, -ENOMEM. */
long fd_install(struct files *fs, struct file *f, int min, bool cloexec);
/* RLIMIT_NOFILE of the calling process. */
unsigned long nofile_limit(void);

/* The calls behind the system calls, on a given table (the syscalls pass
 * current->files); tests call them directly. Pointers are user pointers;
 * do_open's path is already in the kernel. Each returns a result or
 * -errno, as the system call does. */
long do_open(struct files *fs, const char *path, int flags);
long do_openat(struct files *fs, int dirfd, const char *path, int flags, unsigned mode);
long do_close(struct files *fs, int fd);
long do_read(struct files *fs, int fd, uint32_t ubuf, size_t n);
long do_write(struct files *fs, int fd, uint32_t ubuf, size_t n);
long do_writev(struct files *fs, int fd, uint32_t uiov, int iovcnt);
long do_dup3(struct files *fs, int oldfd, int newfd, int flags);

/* Reads from an open file into kernel memory at its offset. */
long kernel_read(struct file *f, void *buf, size_t n);

/* copy_to_user that stops at the first page it cannot write: the bytes
 * copied, or -EFAULT if none (read(2) returns a partial count). */
long copy_to_user_partial(uint32_t udst, const void *src, size_t n);
size_t copy_from_user_partial(void *dst, uint32_t usrc, size_t n);

#endif
