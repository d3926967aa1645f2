/* compat/linux/fs/dev.c - /dev: the console, null and zero, as character
 * devices (Linux's numbers: console 5:1, null 1:3, zero 1:5).
 *
 * /dev is a RAM-file-system directory made at boot; the devices are
 * inodes whose file operations are the driver's. The console's read is
 * the tty's line discipline (compat/linux/tty.h); its writes go out under the
 * console lock, WRITE_CHUNK bytes at a time, so that a line written at
 * once comes out whole, never cut by a kernel message. */
#include "compat/linux/fs/vfs.h"
#include "kernel/console.h"
#include "kernel/file.h"
#include "kernel/panic.h"
#include "compat/linux/tty.h"
#include "lib/string.h"


static struct inode *console_inode;

/* The console for init's fds 0, 1, 2 (kernel/file.c file_new_console). */
struct file *linux_console_file(void)
{
	long err;

	return console_inode ? file_open_inode(console_inode, O_RDWR, &err) : NULL;
}

/* The core's chunked writev (kernel/console_file.c), through the tty's
 * output modes (OPOST, ONLCR), after TOSTOP's check. */
static long console_writev(struct file *f, const struct user_iovec *iov, int nr)
{
	long r;

	(void)f;
	if ((r = tty_write_check()) != 0)
		return r;               /* TOSTOP: a background job stops */
	return console_writev_with(iov, nr, tty_write);
}

static long console_write_op(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	struct user_iovec iov = { (uint32_t)b.addr, (uint32_t)n };

	(void)pos;
	if (!b.user) {                  /* sendfile's bounce buffer */
		tty_write((const char *)b.addr, n);
		return (long)n;
	}
	return console_writev(f, &iov, 1);
}

static long console_read_op(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	(void)f;
	(void)pos;
	if (!b.user)
		return -EINVAL;         /* the tty copies to user memory only */
	return n ? tty_read((uint32_t)b.addr, n) : 0;
}

static long console_ioctl_op(struct file *f, unsigned cmd, uint32_t arg)
{
	(void)f;
	return tty_ioctl(cmd, arg);
}

static unsigned console_poll_op(struct file *f, struct poll_table *pt)
{
	(void)f;
	return tty_poll(pt);
}

static const struct file_ops console_fops = {
	.read = console_read_op,
	.ioctl = console_ioctl_op,
	.poll = console_poll_op,
	.write = console_write_op,
	.writev = console_writev,
	.seekable = false,
};

/* /dev/null: reads end at once, writes vanish. /dev/zero: zeros. */
static long null_read(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	(void)f; (void)b; (void)n; (void)pos;
	return 0;
}

static long null_write(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	(void)f; (void)b; (void)pos;
	return (long)n;
}

static long zero_read(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	static const char zeros[256];
	size_t done = 0;

	(void)f;
	(void)pos;
	while (done < n) {
		size_t k = n - done < sizeof(zeros) ? n - done : sizeof(zeros);
		size_t got = iob_put(b, done, zeros, k);
		done += got;
		if (got < k)
			break;
	}
	return done || n == 0 ? (long)done : -EFAULT;
}

/* Linux's null and zero are seekable (to nowhere): lseek returns 0. */
static const struct file_ops null_fops = { .read = null_read, .write = null_write,
					   .seekable = true };
static const struct file_ops zero_fops = { .read = zero_read, .write = null_write,
					   .seekable = true };

static const struct inode_ops dev_iops;         /* nothing to look up or free */

static struct inode *make_dev(struct inode *dir, const char *name, uint32_t rdev,
			      uint32_t perm, const struct file_ops *fop)
{
	struct inode *i = inode_new(DEV_DEVTMP, S_IFCHR | perm, &dev_iops, fop);

	if (!i || ramfs_attach(dir, name, i) < 0)
		panic("dev: no memory for /dev/%s", name);
	i->rdev = rdev;
	inode_put(i);                   /* the entry holds it */
	return i;
}

void dev_init(void)
{
	struct inode *dev;

	if (fs_root->iop->create(fs_root, "dev", 3, S_IFDIR | 0755, NULL, &dev) < 0)
		panic("dev: cannot make /dev");
	console_inode = make_dev(dev, "console", 5 << 8 | 1, 0620, &console_fops);
	make_dev(dev, "null", 1 << 8 | 3, 0666, &null_fops);
	make_dev(dev, "zero", 1 << 8 | 5, 0666, &zero_fops);
	inode_put(dev);
}
