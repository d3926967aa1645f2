/* compat/linux/fs/inode.c - inodes, the per-process fs context, and the
 * start of the file systems (vfs.h). */
#include "compat/linux/fs/vfs.h"
#include "compat/linux/layer.h"
#include "kernel/clock.h"
#include "kernel/file.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

struct spinlock fs_lock = SPINLOCK_INIT("fs");
struct inode *fs_root;

static uint32_t next_ino = 1;   /* the root is 1 ... */

uint64_t fs_now(void)
{
	return realtime_ns();
}

struct inode *inode_new(uint32_t dev, uint32_t mode, const struct inode_ops *iop,
			const struct file_ops *fop)
{
	struct inode *i = kzalloc(sizeof(*i));

	if (!i)
		return NULL;
	i->refcount = 1;
	i->ino = __atomic_fetch_add(&next_ino, 1, __ATOMIC_RELAXED);
	i->dev = dev;
	i->mode = mode;
	i->nlink = 1;
	i->iop = iop;
	i->fop = fop;
	i->atime = i->mtime = i->ctime = fs_now();
	mutex_init(&i->mutex, "inode");
	return i;               /* the file system sets up i->u */
}

void inode_get(struct inode *i)
{
	__atomic_add_fetch(&i->refcount, 1, __ATOMIC_RELAXED);
}

/* The last reference: the file system frees its part, and a directory
 * lets go of its parent (which may then go too: a loop, not recursion). */
void inode_put(struct inode *i)
{
	while (i && __atomic_sub_fetch(&i->refcount, 1, __ATOMIC_ACQ_REL) == 0) {
		struct inode *parent = i->parent;

		ASSERT(i != fs_root);
		if (i->iop && i->iop->evict)
			i->iop->evict(i);
		kfree(i);
		i = parent != i ? parent : NULL;
	}
}

void inode_touch(struct inode *i, bool modified)
{
	uint64_t now = fs_now();

	if (modified)
		i->mtime = i->ctime = now;
	else
		i->atime = now;
}

unsigned inode_dtype(const struct inode *i)
{
	switch (i->mode & S_IFMT) {
	case S_IFDIR: return DT_DIR;
	case S_IFREG: return DT_REG;
	case S_IFLNK: return DT_LNK;
	case S_IFCHR: return DT_CHR;
	case S_IFIFO: return DT_FIFO;
	case S_IFSOCK: return DT_SOCK;
	default: return DT_UNKNOWN;
	}
}

/* Is a an ancestor of d (or d itself)? rename must not move a directory
 * under itself. */
bool inode_is_ancestor(struct inode *a, struct inode *d)
{
	fs_lock_assert_held();
	for (;;) {
		if (d == a)
			return true;
		if (!d->parent || d->parent == d)
			return false;
		d = d->parent;
	}
}

/* ---- reading and writing through an iobuf ---- */

/* ---- open files of an inode ---- */

struct file *file_open_inode(struct inode *inode, int flags, long *err)
{
	struct file *f = file_new(inode->fop, flags, err);

	if (!f)
		return NULL;
	inode_get(inode);
	f->inode = inode;
	if (f->fop->open && (*err = f->fop->open(f)) < 0) {
		inode_put(inode);
		kfree(f);
		return NULL;
	}
	return f;
}

/* file_put's last step: the inode goes with its last open file. */
void linux_file_free(struct file *f)
{
	if (f->inode)
		inode_put(f->inode);
}


/* ---- fs_struct: cwd and umask ---- */

struct fs_struct *fs_struct_new(void)
{
	struct fs_struct *fs = kzalloc(sizeof(*fs));

	if (!fs)
		return NULL;
	fs->refcount = 1;
	fs->lock = (struct spinlock)SPINLOCK_INIT("fs_struct");
	fs->cwd = fs_root;
	inode_get(fs_root);
	fs->umask = 022;
	return fs;
}

struct fs_struct *fs_struct_copy(struct fs_struct *old)
{
	struct fs_struct *fs = kzalloc(sizeof(*fs));

	if (!fs)
		return NULL;
	fs->refcount = 1;
	fs->lock = (struct spinlock)SPINLOCK_INIT("fs_struct");
	spin_lock(&old->lock);
	fs->cwd = old->cwd;
	inode_get(fs->cwd);
	fs->umask = old->umask;
	spin_unlock(&old->lock);
	return fs;
}

void fs_struct_get(struct fs_struct *fs)
{
	__atomic_add_fetch(&fs->refcount, 1, __ATOMIC_RELAXED);
}

void fs_struct_put(struct fs_struct *fs)
{
	if (!fs || __atomic_sub_fetch(&fs->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	tasklist_lock_grace();          /* /proc/PID/status may still look */
	inode_put(fs->cwd);
	kfree(fs);
}

struct inode *fs_cwd(struct fs_struct *fs)
{
	struct inode *cwd;

	spin_lock(&fs->lock);
	cwd = fs->cwd;
	inode_get(cwd);
	spin_unlock(&fs->lock);
	return cwd;
}

/* ---- exe_link ---- */

struct exe_link *exe_link_new(struct inode *inode, const char *path)
{
	size_t n = strlen(path) + 1;
	struct exe_link *e = kmalloc(sizeof(*e) + n);

	if (!e)
		return NULL;
	e->refcount = 1;
	e->inode = inode;
	inode_get(inode);
	memcpy(e->path, path, n);
	return e;
}

void exe_link_get(struct exe_link *e)
{
	if (e)
		__atomic_add_fetch(&e->refcount, 1, __ATOMIC_RELAXED);
}

void exe_link_put(struct exe_link *e)
{
	if (!e || __atomic_sub_fetch(&e->refcount, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	tasklist_lock_grace();          /* /proc/PID/exe may still look */
	inode_put(e->inode);
	kfree(e);
}

bool linux_is_file(const char *path)
{
	struct inode *i;
	bool reg;

	if (path_walk(fs_root, path, LOOKUP_FOLLOW, &i) < 0)
		return false;
	reg = S_ISREG(i->mode);
	inode_put(i);
	return reg;
}

/* ---- boot ---- */

/* The root: /dev, /proc, /tmp (world-writable and sticky as the FHS has
 * it: glibc's tmpfile() and mkstemp("/tmp/...") make their files there),
 * then the initrd's files. Linux takes /tmp from its initramfs archive;
 * Spindle's initrd keeps regular files only (kernel/initrd.c), so the one
 * empty directory a system needs is made here, before the initrd's files
 * take the memory ramfs keeps in reserve (a 32 MiB machine has none left
 * after them: make check's machine/mem32). */
void linux_fs_init(void)
{
	struct inode *tmp;
	long err;

	if (!(fs_root = ramfs_new_root()))
		panic("vfs: no memory for the root directory");
	dev_init();
	proc_init();
	err = fs_root->iop->create(fs_root, "tmp", 3, S_IFDIR | 01777, NULL, &tmp);
	if (err == 0)
		inode_put(tmp);
	else
		kprintf("vfs: no /tmp (error %ld)\n", -err);
	initramfs_unpack();
}
