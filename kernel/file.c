/* kernel/file.c - open files, fd tables, and open/close (file.h; abi.md
 * section 3). read, write and writev are in kernel/read_write.c. */
#include "kernel/file.h"
#include "kernel/kinfo.h"
#include "kernel/initrd.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define CONSOLE_PATH "/dev/console"

/* ---- open files ---- */

static struct file *file_new(enum file_kind kind, unsigned mode)
{
	struct file *f = kzalloc(sizeof(*f));

	if (!f)
		return NULL;
	f->kind = kind;
	f->mode = mode;
	f->refcount = 1;
	f->lock = (struct spinlock)SPINLOCK_INIT("file");
	return f;
}

static void file_hold(struct file *f)
{
	__atomic_add_fetch(&f->refcount, 1, __ATOMIC_RELAXED);
}

void file_put(struct file *f)
{
	if (__atomic_sub_fetch(&f->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
		if (f->snapshot)
			kinfo_release(f->snapshot);
		kfree(f);
	}
}

/* ---- fd tables ---- */

static struct files *files_alloc(void)
{
	struct files *fs = kzalloc(sizeof(*fs));

	if (fs) {
		fs->refcount = 1;
		fs->lock = (struct spinlock)SPINLOCK_INIT("files");
	}
	return fs;
}

struct files *files_new_console(void)
{
	struct files *fs = files_alloc();
	struct file *con = file_new(FILE_CONSOLE, FMODE_READ | FMODE_WRITE);

	if (!fs || !con) {
		kfree(fs);
		kfree(con);
		return NULL;
	}
	/* As Linux's init does: one open of /dev/console, dup'ed to 1, 2. */
	con->refcount = 3;
	fs->fd[0] = fs->fd[1] = fs->fd[2] = con;
	return fs;
}

struct files *files_copy(struct files *old)
{
	struct files *fs = files_alloc();

	if (!fs)
		return NULL;
	spin_lock(&old->lock);
	for (int i = 0; i < NR_OPEN; i++)
		if ((fs->fd[i] = old->fd[i]) != NULL)
			file_hold(fs->fd[i]);
	spin_unlock(&old->lock);
	return fs;
}

void files_get(struct files *fs)
{
	__atomic_add_fetch(&fs->refcount, 1, __ATOMIC_RELAXED);
}

void files_put(struct files *fs)
{
	if (__atomic_sub_fetch(&fs->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	for (int i = 0; i < NR_OPEN; i++)
		if (fs->fd[i])
			file_put(fs->fd[i]);
	kfree(fs);
}

/* The reference keeps f alive if another thread of a CLONE_FILES group
 * closes fd while we use it. */
struct file *fd_get(struct files *fs, int fd)
{
	struct file *f;

	if (!fs || fd < 0 || fd >= NR_OPEN)
		return NULL;
	spin_lock(&fs->lock);
	if ((f = fs->fd[fd]) != NULL)
		file_hold(f);
	spin_unlock(&fs->lock);
	return f;
}

/* Puts f at the lowest free fd, which takes over the caller's reference;
 * returns the fd, or -EMFILE (f == NULL: only looks for a free fd). */
static long fd_install(struct files *fs, struct file *f)
{
	long fd = -EMFILE;

	spin_lock(&fs->lock);
	for (int i = 0; i < NR_OPEN; i++)
		if (!fs->fd[i]) {
			if (f)
				fs->fd[i] = f;
			fd = i;
			break;
		}
	spin_unlock(&fs->lock);
	return fd;
}

long do_close(struct files *fs, int fd)
{
	struct file *f = NULL;

	if (!fs || fd < 0 || fd >= NR_OPEN)
		return -EBADF;
	spin_lock(&fs->lock);
	f = fs->fd[fd];
	fs->fd[fd] = NULL;
	spin_unlock(&fs->lock);
	if (!f)
		return -EBADF;
	file_put(f);
	return 0;
}

/* ---- paths ---- */

static bool is_device(const char *path)
{
	return strcmp(path, CONSOLE_PATH) == 0;
}

static bool is_file(const char *path)
{
	return is_device(path) || initrd_find(path) != NULL;
}

static bool inside(const char *path, const char *dir, size_t len)
{
	return strncmp(path, dir, len) == 0 && path[len] == '/';
}

/* A directory is the root ("") or a proper prefix, up to a '/', of some
 * file's path: the initrd has no directory entries of its own. */
static bool is_dir(const char *dir, size_t len)
{
	if (len == 0 || inside(CONSOLE_PATH, dir, len) ||
	    inside("/proc/kstat", dir, len))        /* /proc: kernel/kinfo.h */
		return true;
	for (int i = 0; i < initrd_count(); i++)
		if (inside(initrd_file(i)->path, dir, len))
			return true;
	return false;
}

/* Resolves path as Linux does with "/" as the working directory (there is
 * no chdir): empty components and "." are skipped, ".." goes up (never
 * above the root), and whatever a component is looked up in must be a
 * directory (-ENOTDIR if it is a file, -ENOENT if nothing). out gets the
 * normalised path ("" for the root); *dir_only says the path ended in
 * '/', "." or "..", so it must name a directory. */
static long path_resolve(const char *path, char out[PATH_MAX], bool *dir_only)
{
	size_t len = 0;

	out[0] = '\0';
	*dir_only = false;
	if (!*path)
		return -ENOENT;
	while (*path) {
		const char *s;
		size_t n;

		while (*path == '/')
			path++;
		if (!*path) {
			*dir_only = true;
			break;
		}
		if (!is_dir(out, len))
			return is_file(out) ? -ENOTDIR : -ENOENT;
		for (s = path; *path && *path != '/'; path++)
			;
		n = (size_t)(path - s);
		*dir_only = (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.');
		if (n == 2 && *dir_only)
			while (len > 0 && out[--len] != '/')
				;
		if (!*dir_only) {
			if (len + 1 + n >= PATH_MAX)
				return -ENAMETOOLONG;
			out[len++] = '/';
			memcpy(out + len, s, n);
			len += n;
		}
		out[len] = '\0';
	}
	return 0;
}

/* ---- open ---- */

/* /proc/kstat, /proc/tasks: a snapshot read like an initrd file. */
static long open_kinfo(struct files *fs, const char *path, int flags)
{
	struct initrd_file *snap;
	struct file *f;
	int err = 0;
	long fd;

	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_TRUNC | O_CREAT)))
		return -EROFS;
	if (!(snap = kinfo_open(path, &err)))
		return err;
	if (!(f = file_new(FILE_INITRD, FMODE_READ))) {
		kinfo_release(snap);
		return -ENOMEM;
	}
	f->node = snap;
	f->snapshot = snap;
	if ((fd = fd_install(fs, f)) < 0)
		file_put(f);
	return fd;
}

long do_open(struct files *fs, const char *path, int flags)
{
	char norm[PATH_MAX];
	const struct initrd_file *node = NULL;
	enum file_kind kind;
	struct file *f;
	bool dir_only;
	long err, fd;

	/* Linux reserves the fd before the lookup: -EMFILE comes first. */
	if (!fs || fd_install(fs, NULL) < 0)
		return -EMFILE;
	if ((err = path_resolve(path, norm, &dir_only)) < 0)
		return err;
	if (is_device(norm))
		kind = FILE_CONSOLE;
	else if (kinfo_is_proc_path(norm))
		return open_kinfo(fs, norm, flags);
	else if ((node = initrd_find(norm)) != NULL)
		kind = FILE_INITRD;
	else if (is_dir(norm, strlen(norm)))
		kind = FILE_DIR;
	else if (flags & O_CREAT)       /* creating: the file system is read-only */
		return dir_only ? -EISDIR : -EROFS;
	else
		return -ENOENT;

	if ((flags & O_CREAT) && (flags & O_EXCL))
		return -EEXIST;
	if (kind == FILE_DIR) {
		if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT))
			return -EISDIR;
	} else if (dir_only || (flags & O_DIRECTORY)) {
		return -ENOTDIR;
	}
	if (kind == FILE_INITRD &&
	    ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC)))
		return -EROFS;

	/* The console honours the access mode as any device: a console
	 * opened O_RDONLY cannot be written. O_TRUNC means nothing there. */
	if (!(f = file_new(kind, OPEN_FMODE(flags))))
		return -ENOMEM;
	f->node = node;
	if ((fd = fd_install(fs, f)) < 0)
		file_put(f);
	return fd;
}

/* ---- the system calls: the calling task's fd table ---- */

SYSCALL(SYS_open, open)
{
	char path[PATH_MAX];
	long n = strncpy_from_user(path, arg[0], sizeof(path));

	if (n < 0)
		return n;
	return do_open(current->files, path, (int)arg[1]);
}

SYSCALL(SYS_close, close)
{
	return do_close(current->files, (int)arg[0]);
}
