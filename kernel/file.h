/* kernel/file.h - open files and the per-process fd table (abi.md
 * section 3: open, read, write, writev, close).
 *
 * As in Linux, an fd is an index into a table (struct files) of pointers
 * to open files (struct file). A struct file holds what open created: the
 * operations of the object it reads and writes (struct file_ops), the
 * access mode, the status flags and the offset; fork's copy of the table
 * points at the same files, so parent and child share offsets, as on
 * Unix. The close-on-exec flag belongs to the fd, not the file. The table
 * itself is shared by reference count with CLONE_FILES.
 *
 * What a file is: in the seed kernel, a file of the initrd (read-only),
 * a snapshot of /proc/tasks, /proc/kstat or /proc/files (kernel/initrd.c,
 * kernel/kinfo.c), or the console (kernel/console_file.c). The Linux
 * layer adds its RAM file system, pipes, devices and /proc
 * (compat/linux/fs/vfs.h), whose files are these same structs with an
 * inode behind them, and dup, fcntl and the limits (compat/linux/fd.c).
 *
 * The table starts with room for NR_OPEN_DEFAULT fds and doubles when an
 * fd beyond it is wanted, up to a limit: INR_OPEN_CUR (Linux's default
 * RLIMIT_NOFILE, 1024), or with the Linux layer the process's
 * RLIMIT_NOFILE (setrlimit may raise it up to NR_OPEN_MAX): a process
 * with three fds stays small, one that opens 1,000 files works.
 *
 * kernel/file.c: files and tables; kernel/read_write.c: read, write,
 * writev. */
#ifndef KERNEL_FILE_H
#define KERNEL_FILE_H

#include "lib/types.h"
#include "lib/abi.h"
#include "arch/i386/spinlock.h"
#include "kernel/mutex.h"

struct inode;
struct file;
struct poll_table;
struct user_iovec;

#define NR_OPEN_DEFAULT 32      /* fds a new table has room for */
#define PATH_MAX 4096           /* a path with its NUL (Linux's) */
#define NR_OPEN_MAX  65536      /* RLIMIT_NOFILE's ceiling (Linux: nr_open) */
#define INR_OPEN_CUR 1024       /* RLIMIT_NOFILE's default, soft and hard */
#define INR_OPEN_MAX 4096
#define UIO_MAXIOV 1024         /* writev's iovcnt limit (Linux's) */
#define MAX_RW_COUNT 0x7ffff000u /* Linux's cap on one read or write */

/* What an open file may do, from the open flags as Linux's OPEN_FMODE:
 * (flags + 1) & 3 maps O_RDONLY to 1, O_WRONLY to 2, O_RDWR to 3. */
/* Where a read puts its bytes or a write takes them: user memory (the
 * system calls) or kernel memory (execve, tests). */
struct iobuf {
	uintptr_t addr;
	bool user;
};
/* Copy n bytes to/from the buffer at offset off; the number copied
 * (less than n only when user memory faults). kernel/read_write.c */
size_t iob_put(struct iobuf b, size_t off, const void *src, size_t n);
size_t iob_get(void *dst, struct iobuf b, size_t off, size_t n);

/* What an open file does, given by whatever it is. */
struct file_ops {
	/* open (the Linux layer's files: file_open_inode calls it) may
	 * refuse (-errno) or set f->private; release undoes it at the last
	 * close. read and write move up to n bytes at *pos and advance it;
	 * they return the count or -errno. */
	long (*open)(struct file *f);
	void (*release)(struct file *f);
	long (*read)(struct file *f, struct iobuf buf, size_t n, uint64_t *pos);
	long (*write)(struct file *f, struct iobuf buf, size_t n, uint64_t *pos);
	/* The Linux layer's (ioctl(2), poll(2)); NULL in the seed's files.
	 * poll returns the POLL* events ready now, after poll_wait(pt, wq)
	 * on each wait queue whose wake-up may change them (the caller is
	 * TASK_INTERRUPTIBLE already: no sleeping here); without it a file
	 * is always readable and writable (Linux's DEFAULT_POLLMASK). */
	long (*ioctl)(struct file *f, unsigned cmd, uint32_t arg);
	unsigned (*poll)(struct file *f, struct poll_table *pt);
	/* Optional: writev in one piece (the console keeps a line whole). */
	long (*writev)(struct file *f, const struct user_iovec *iov, int nr);
	bool seekable;              /* false: the offset means nothing (pipes, ttys) */
	bool directory;             /* read and write are -EISDIR */
};

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
	const struct file_ops *fop;
	/* The Linux layer's (compat/linux/fs/vfs.h): the object behind it,
	 * referenced; NULL for the seed's files. */
	struct inode *inode;
	unsigned mode;              /* FMODE_READ | FMODE_WRITE */
	unsigned flags;             /* O_* status flags (F_GETFL) */
	int refcount;               /* fds pointing here + calls using it */
	struct mutex pos_lock;      /* pos, for read/write/lseek (Linux's f_pos_lock) */
	uint64_t pos;
	void *private;              /* what it is: an initrd file, a snapshot */
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
void files_close_on_exec(struct files *f);  /* execve: FD_CLOEXEC fds go */
/* execve: a table shared with another process (CLONE_FILES without
 * CLONE_THREAD) is copied first, as Linux's unshare_files. 0 or -ENOMEM. */
struct task;
int files_unshare(struct task *t);

/* A new open file of fop with open flags (refcount 1); NULL with *err
 * (-ENOMEM). The caller fills in f->private. */
struct file *file_new(const struct file_ops *fop, int flags, long *err);
void file_put(struct file *f);
/* The console as an open file (the Linux layer's terminal, or the
 * seed's line editor: kernel/console_file.c). */
struct file *file_new_console(void);
/* execve's open of path (read-only): a regular file with an execute
 * bit, or NULL with *err (-ENOENT, -EACCES). */
struct file *file_open_exec(const char *path, long *err);

/* The open file behind fd with a reference taken (file_put it), or NULL. */
struct file *fd_get(struct files *fs, int fd);
/* Puts f at the lowest free fd >= min, below the limit (file.h's top);
 * takes over the caller's reference. The fd, or -EMFILE, -ENOMEM. */
long fd_install(struct files *fs, struct file *f, int min, bool cloexec);
/* The calling process's fd limit. */
unsigned long nofile_limit(void);
/* For the Linux layer's dup and fcntl: grows fs to at least want slots
 * (the lock is dropped to allocate: look again after); and the
 * close-on-exec bit of a slot (fs->lock held). */
long files_grow_unlocked(struct files *fs, unsigned want);
bool fd_is_cloexec(const struct files *fs, unsigned fd);
void fd_set_cloexec(struct files *fs, unsigned fd, bool on);

/* The calls behind the system calls, on a given table (the syscalls pass
 * current->files). Pointers are user pointers; do_open's path is already
 * in the kernel. Each returns a result or -errno, as the system call. */
long do_open(struct files *fs, const char *path, int flags, unsigned mode);
long do_close(struct files *fs, int fd);
long do_read(struct files *fs, int fd, uint32_t ubuf, size_t n);
long do_write(struct files *fs, int fd, uint32_t ubuf, size_t n);
/* Either, at *ppos if given (pread64, pwrite64), else at the offset. */
long do_rw(struct files *fs, int fd, bool write, uint32_t ubuf, size_t n, uint64_t *ppos);
/* writev, and the Linux layer's readv. */
long do_rwv(struct files *fs, int fd, bool write, uint32_t uiov, int iovcnt);

/* Reads from an open file into kernel memory at pos (execve reads a
 * program where it likes). */
long kernel_read_at(struct file *f, void *buf, size_t n, uint64_t pos);
/* read and write's checks and the offset, for the Linux layer's other
 * reads and writes (readv, pread64, sendfile): n bytes of f at *ppos if
 * given, else at the file's own offset. */
long file_rw(struct file *f, bool write, struct iobuf b, size_t n, uint64_t *ppos);

/* A user path into a PATH_MAX kernel buffer (kmalloc'd: kfree it); NULL
 * with *err (-EFAULT, -ENAMETOOLONG, -ENOMEM). */
char *getname(uint32_t upath, long *err);

/* copy_to_user that stops at the first page it cannot write: the bytes
 * copied, or -EFAULT if none (read(2) returns a partial count). */
long copy_to_user_partial(uint32_t udst, const void *src, size_t n);
size_t copy_from_user_partial(void *dst, uint32_t usrc, size_t n);

#endif
