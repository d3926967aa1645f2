/* compat/linux/fs/vfs.h - the virtual file system: inodes, directory entries,
 * path lookup, and what every file system provides (docs/files.md).
 *
 * Three layers, as in Linux but much smaller:
 *   - an fd is an index into the process's fd table (kernel/file.h);
 *   - it points at an open file (struct file): what open created, with
 *     the access mode, the flags and the offset; fork and dup share it;
 *   - the open file points at an inode: the object itself (a regular
 *     file, a directory, a symbolic link, a pipe, a device, a /proc
 *     view), with its type, size, times and the operations of the file
 *     system it belongs to (inode_ops on the name space, file_ops on its
 *     open files).
 * There is no dentry cache: a directory of the RAM file system holds its
 * entries itself (struct dir_entry), and a directory inode knows its
 * parent and the entry that names it, which is all ".." and getcwd need.
 *
 * Lifetime: an inode is counted (inode_get/inode_put): a directory entry
 * holds one reference, as does every open file, every cwd, a child
 * directory (on its parent), and whoever is using it in a system call.
 * So a file unlinked while open lives on, nameless, until its last
 * close, as on Unix.
 *
 * Locks: fs_lock (a spinlock) guards the name space: every ramfs
 * directory's entries, link counts, a directory's parent and self. No
 * user memory is touched under it. inode->mutex (sleeping) guards a
 * file's data and size, so read and write copy straight from and to
 * user memory while holding it. */
#ifndef KERNEL_FS_VFS_H
#define KERNEL_FS_VFS_H

#include "lib/types.h"
#include "lib/list.h"
#include "lib/abi_linux.h"
#include "arch/i386/spinlock.h"
#include "kernel/mutex.h"
#include "kernel/panic.h"
#include "kernel/file.h"

#define SYMLOOP_MAX 40          /* symbolic links followed per lookup */

/* Device numbers st_dev shows, one per file system (Linux gives its
 * anonymous file systems major 0 too). */
#define DEV_RAMFS  1u
#define DEV_PROC   2u
#define DEV_PIPEFS 3u
#define DEV_DEVTMP 4u

struct inode;
struct file;
struct dir_entry;
struct user_iovec;
struct poll_table;
struct waitqueue;
/* poll(2)'s caller queues itself on wq (pt may be NULL: then nothing). */
void poll_wait(struct poll_table *pt, struct waitqueue *wq);

/* getdents' callback: false when the caller's buffer is full. */
typedef bool (*readdir_fn)(void *ctx, const char *name, size_t len,
			   uint32_t ino, unsigned type, uint64_t next_pos);

struct inode_ops {
	/* Directories. lookup returns the child with a reference taken, or
	 * NULL with *err (-ENOENT). create makes a new child of the given
	 * mode (S_IFREG, S_IFDIR or S_IFLNK with target) and returns it
	 * referenced. remove unlinks a name (rmdir: only a directory, which
	 * must be empty). rename is POSIX's, within one file system. */
	struct inode *(*lookup)(struct inode *dir, const char *name, size_t len, long *err);
	long (*readdir)(struct inode *dir, uint64_t *pos, readdir_fn fn, void *ctx);
	long (*create)(struct inode *dir, const char *name, size_t len, uint32_t mode,
		       const char *target, struct inode **out);
	long (*remove)(struct inode *dir, const char *name, size_t len, bool rmdir);
	long (*rename)(struct inode *odir, const char *oname, size_t olen,
		       struct inode *ndir, const char *nname, size_t nlen);
	/* link(2): one more name for inode (never a directory) in dir. */
	long (*link)(struct inode *dir, const char *name, size_t len, struct inode *inode);
	/* Symbolic links: the target's text (not NUL-terminated; its length
	 * or -errno), or for a "magic" link like /proc/PID/exe, the inode it
	 * stands for (referenced, or NULL with *err). */
	long (*readlink)(struct inode *link, char *buf, size_t n);
	struct inode *(*follow)(struct inode *link, long *err);
	/* Regular files: change the size (inode mutex held). */
	long (*truncate)(struct inode *inode, uint64_t size);
	/* The last reference is gone: free what the file system kept. */
	void (*evict)(struct inode *inode);
};

struct inode {
	int refcount;               /* atomic */
	uint32_t ino;
	uint32_t dev;               /* DEV_*: which file system */
	uint32_t mode;              /* S_IFMT type | permission bits */
	uint32_t nlink;             /* fs_lock */
	uint32_t rdev;              /* devices: major << 8 | minor */
	uint64_t size;              /* mutex */
	uint64_t atime, mtime, ctime;       /* ns since the epoch; mutex */
	const struct inode_ops *iop;
	const struct file_ops *fop;
	struct mutex mutex;         /* data and size */

	/* Directories, under fs_lock: the parent (referenced; the root is
	 * its own), the entry naming it (NULL for the root and once
	 * removed), dead once removed (nothing may be created in it). */
	struct inode *parent;
	struct dir_entry *self;
	bool dead;

	/* The file system's own. */
	union {
		struct {                /* a ramfs directory */
			struct list entries;    /* of dir_entry, oldest first */
			uint64_t next_pos;      /* readdir position of the next entry */
		} dir;
		struct {                /* a ramfs regular file */
			void **pages;           /* page i holds bytes [4096 i, 4096 (i+1)) */
			uint32_t npages;        /* slots in pages[] */
		} reg;
		char *symlink;          /* a ramfs symbolic link's target */
		struct pipe *pipe;
		struct {                /* /proc */
			int pid;
			int kind;
			int tid;        /* under /proc/<pid>/task/<tid>; else 0 */
		} proc;
	} u;
};

/* A name in a ramfs directory. pos orders entries for readdir and never
 * changes, so a directory read in several calls survives unlinks. */
struct dir_entry {
	struct list link;
	struct inode *inode;        /* referenced */
	uint64_t pos;
	uint16_t len;
	char name[];                /* NUL-terminated */
};

/* The per-process file-system context (Linux's fs_struct), shared with
 * CLONE_FS: the working directory and the umask. */
struct fs_struct {
	int refcount;               /* atomic */
	struct spinlock lock;       /* cwd, umask */
	struct inode *cwd;
	unsigned umask;
};

/* What execve ran, for /proc/PID/exe: the inode and the path it was
 * found by (absolute). Shared by fork and clone, replaced by execve. */
struct exe_link {
	int refcount;
	struct inode *inode;
	char path[];
};

extern struct spinlock fs_lock;
extern struct inode *fs_root;
/* Backs the "fs_lock held" comments: held, by this CPU. */
#define fs_lock_assert_held() ASSERT(spin_held(&fs_lock))

/* ---- inodes (compat/linux/fs/inode.c) ---- */
struct inode *inode_new(uint32_t dev, uint32_t mode, const struct inode_ops *iop,
			const struct file_ops *fop);    /* one reference; NULL: no memory */
void inode_get(struct inode *inode);
void inode_put(struct inode *inode);
uint64_t fs_now(void);                  /* the time stamps' clock */
void inode_touch(struct inode *inode, bool modified);   /* mutex held */
unsigned inode_dtype(const struct inode *inode);        /* DT_* */
bool inode_is_ancestor(struct inode *a, struct inode *d); /* fs_lock held */
bool linux_is_file(const char *path);     /* a regular file (from the root)? */
/* The root's file systems: ramfs at /, /dev, /proc; the initrd in it. */
void linux_fs_init(void);

struct fs_struct *fs_struct_new(void);          /* cwd = / */
struct fs_struct *fs_struct_copy(struct fs_struct *fs);
void fs_struct_get(struct fs_struct *fs);
void fs_struct_put(struct fs_struct *fs);
struct inode *fs_cwd(struct fs_struct *fs);     /* referenced */

struct exe_link *exe_link_new(struct inode *inode, const char *path);
void exe_link_get(struct exe_link *e);
void exe_link_put(struct exe_link *e);

/* ---- path lookup (compat/linux/fs/namei.c) ---- */
#define LOOKUP_FOLLOW    1u     /* follow a symbolic link in the last part */
#define LOOKUP_DIRECTORY 2u     /* the result must be a directory */
#define LOOKUP_EMPTY     4u     /* "" means the start directory (AT_EMPTY_PATH) */

/* The start of a lookup: the cwd (AT_FDCWD) or dirfd's directory,
 * referenced; -EBADF, -ENOTDIR. */
long lookup_start(int dirfd, struct inode **out);
/* The same, but for path: an absolute one starts at the root whatever
 * dirfd is (Linux ignores it then, even a bad one). */
long lookup_start_for(int dirfd, const char *path, struct inode **out);
/* Resolves path from start (absolute paths from the root); the inode,
 * referenced, in *out. */
long path_walk(struct inode *start, const char *path, unsigned flags, struct inode **out);
/* Resolves all but the last component: *dir (referenced) and the last
 * name (a pointer into path, *len bytes, no '/'). -EINVAL... never: a
 * last component of "." or ".." sets *dots (the caller refuses it), and
 * a trailing '/' sets *slash. The root itself has no last name: -EBUSY. */
long path_parent(struct inode *start, const char *path, struct inode **dir,
		 const char **name, size_t *len, bool *dots, bool *slash);
/* dirfd + user path, the *at calls' way: copies the path in (-EFAULT,
 * -ENAMETOOLONG, -ENOENT for "") and walks it. */
long user_path_at(int dirfd, uint32_t upath, unsigned flags, struct inode **out);
/* The parent directory and last name of a user path, what the calls
 * that make or remove names start with (compat/linux/fs/dirops.c). buf is the
 * kernel copy name points into; dots and slash as for path_parent. */
struct parent {
	char *buf;
	struct inode *dir;          /* referenced */
	const char *name;
	size_t len;
	bool dots, slash;
};
long get_parent(int dirfd, uint32_t upath, struct parent *p);
void put_parent(struct parent *p);
/* Makes p's name in p's directory with the mode (type included) and,
 * for a symbolic link, the target: 0 or -errno (-EEXIST ...). */
long make_node(struct parent *p, uint32_t mode, const char *target);
/* The absolute path of a directory into buf (n bytes): its length, or
 * -ENOENT (removed), -ERANGE (too long). */
long dir_path(struct inode *dir, char *buf, size_t n);

/* ---- the RAM file system (compat/linux/fs/ramfs.c, ramfs_file.c) ---- */
struct inode *ramfs_new_root(void);
/* Puts an inode of another file system (/proc's root, a device) under a
 * name in a ramfs directory: a mount point in all but name. */
long ramfs_attach(struct inode *dir, const char *name, struct inode *inode);
/* Frames the RAM file system leaves free for everything else: beyond
 * this, writes are -ENOSPC (docs/files.md). */
uint32_t ramfs_reserve_frames(void);
uint32_t ramfs_data_pages(void);        /* pages of file bytes, for /proc/kstat */
long ramfs_reg_read(struct inode *inode, struct iobuf buf, size_t n, uint64_t pos);
extern const struct file_ops ramfs_reg_fops;

/* ---- the rest ---- */
extern const struct file_ops dir_fops;  /* any directory (readdir.c) */
/* A FIFO in the RAM file system: a pipe opened by name (pipe.c). */
extern const struct inode_ops fifo_iops;
extern const struct file_ops fifo_fops;
void proc_init(void);                   /* compat/linux/fs/proc.c */
/* The text of /proc/<pid>/stat, cmdline, status and maps, a snapshot
 * freed by kinfo_release; NULL with *err (-ENOENT, -ENOMEM). tid is the
 * thread of /proc/<pid>/task/<tid>, whose own state, times and signals
 * stat and status then show (0: the process). compat/linux/fs/proc_pid.c
 * and proc_status.c */
struct initrd_file;
struct initrd_file *proc_pid_stat(int pid, int tid, long *err);
struct initrd_file *proc_pid_cmdline(int pid, int tid, long *err);
struct initrd_file *proc_pid_status(int pid, int tid, long *err);
struct initrd_file *proc_pid_maps(int pid, int tid, long *err);
void dev_init(void);                    /* compat/linux/fs/dev.c */
void initramfs_unpack(void);            /* compat/linux/fs/initramfs.c */
/* An open file of inode (referenced by the caller; the file takes its
 * own reference) with open flags, after the file system's open; NULL
 * with *err. */
struct file *file_open_inode(struct inode *inode, int flags, long *err);
/* compat/linux/fd.c: dup2 and dup3; fcntl's F_GETFD and F_SETFD. */
long do_dup3(struct files *fs, int oldfd, int newfd, int flags);
long fd_cloexec(struct files *fs, int fd, int set);

#endif
