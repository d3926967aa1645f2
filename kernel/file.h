/* kernel/file.h - open files and the per-process fd table (abi.md
 * section 3: read, write, open, close, writev).
 *
 * As in Linux, an fd is an index into a table (struct files) of pointers
 * to open files (struct file). A struct file holds what open created: the
 * object, the access mode and the offset; fork's copy of the table points
 * at the same files, so parent and child share offsets, as on Unix. The
 * table itself is shared by reference count with CLONE_FILES.
 *
 * Spindle's files are the initrd's (read-only, in memory: kernel/initrd.h)
 * and one device, /dev/console (kernel/tty.h for its read side).
 * Directories are the paths above initrd files; they open read-only and
 * read as -EISDIR, as on Linux (there is no getdents).
 *
 * kernel/file.c: files, tables, open and close; kernel/read_write.c:
 * read, write, writev; kernel/tty.c: the console's line discipline. */
#ifndef KERNEL_FILE_H
#define KERNEL_FILE_H

#include "lib/types.h"
#include "lib/abi.h"
#include "arch/i386/spinlock.h"

struct initrd_file;

#define NR_OPEN   64            /* fds per table: 0..NR_OPEN-1 */
#define PATH_MAX  256           /* open's path, its NUL included */
#define UIO_MAXIOV 1024         /* writev's iovcnt limit (Linux's) */
#define MAX_RW_COUNT 0x7fffffffu /* larger counts are negative ssize_t */

/* open flags, Linux i386's values. (They belong in lib/abi.h for user
 * space; defined here only until they are there.) */
#ifndef O_ACCMODE
#define O_RDONLY    00
#define O_WRONLY    01
#define O_RDWR      02
#define O_ACCMODE   03
#define O_CREAT     0100
#define O_EXCL      0200
#define O_TRUNC     01000
#define O_DIRECTORY 0200000
#endif

/* What an open file may do, from the open flags as Linux's OPEN_FMODE:
 * (flags + 1) & 3 maps O_RDONLY to 1, O_WRONLY to 2, O_RDWR to 3. */
#define FMODE_READ  1u
#define FMODE_WRITE 2u
#define OPEN_FMODE(flags) (((unsigned)(flags) + 1) & O_ACCMODE)

enum file_kind {
	FILE_CONSOLE,               /* /dev/console: tty.c reads, console writes */
	FILE_INITRD,                /* an initrd file, read-only */
	FILE_DIR,                   /* a directory: open only */
};

struct file {
	enum file_kind kind;
	unsigned mode;              /* FMODE_READ | FMODE_WRITE */
	int refcount;               /* fds pointing here + calls using it */
	struct spinlock lock;       /* offset */
	uint32_t offset;            /* FILE_INITRD: the next byte to read */
	const struct initrd_file *node;     /* FILE_INITRD */
	struct initrd_file *snapshot;       /* a /proc file's, freed with it */
};

struct files {
	int refcount;               /* tasks using this table (CLONE_FILES) */
	struct spinlock lock;       /* fd[] */
	struct file *fd[NR_OPEN];
};

/* For the task code (fork, clone, exec, exit). */
struct files *files_new_console(void);      /* init's: 0, 1, 2 = console */
struct files *files_copy(struct files *f);  /* fork; NULL if out of memory */
void files_get(struct files *f);            /* CLONE_FILES */
void files_put(struct files *f);            /* the last put closes all */

/* The calls behind the system calls, on a given table (the syscalls pass
 * current->files); tests call them directly. Pointers are user pointers;
 * do_open's path is already in the kernel. Each returns a result or
 * -errno, as the system call does. */
long do_open(struct files *fs, const char *path, int flags);
long do_close(struct files *fs, int fd);
long do_read(struct files *fs, int fd, uint32_t ubuf, size_t n);
long do_write(struct files *fs, int fd, uint32_t ubuf, size_t n);
long do_writev(struct files *fs, int fd, uint32_t uiov, int iovcnt);

/* The open file behind fd with a reference taken (file_put it), or NULL. */
struct file *fd_get(struct files *fs, int fd);
void file_put(struct file *f);
/* Reads from an open file into kernel memory (exec may load from fds). */
long kernel_read(struct file *f, void *buf, size_t n);

/* copy_to_user that stops at the first page it cannot write: the bytes
 * copied, or -EFAULT if none (read(2) returns a partial count). */
long copy_to_user_partial(uint32_t udst, const void *src, size_t n);

#endif
