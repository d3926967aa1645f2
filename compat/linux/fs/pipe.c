/* compat/linux/fs/pipe.c - pipe and pipe2 (abi.md section 9), named after
 * Linux's fs/pipe.c.
 *
 * A pipe is an inode of its own (S_IFIFO, in no directory) holding a
 * ring buffer of PIPE_SIZE bytes, and two open files on it: one for
 * reading, one for writing. Readers sleep while it is empty, writers
 * while it is full, each on a wait queue the other side wakes.
 *   - read returns what is there (at least one byte), or 0 once every
 *     write end is closed and the ring is empty (end of file);
 *   - a write of at most PIPE_BUF bytes goes in whole or waits (POSIX's
 *     atomicity: two writers' small messages never interleave); a larger
 *     one may be split;
 *   - writing with no read end open is -EPIPE, and SIGPIPE to the writer;
 *   - O_NONBLOCK makes a wait -EAGAIN instead (after a partial transfer:
 *     the count so far), and a signal makes it -ERESTARTSYS (-EINTR, or
 *     the call again: compat/linux/restart.h).
 * One reader and one writer at a time copy, each holding its side's
 * mutex (rd_lock, wr_lock): the reader owns the filled part of the ring
 * and the writer the free part, so each copies to or from user memory
 * without the spinlock, which guards only the counts.
 *
 * A FIFO (mknod S_IFIFO, compat/linux/fs/link.c) is the same pipe behind a
 * name in the RAM file system: its ring is made at the first open, and
 * open is Linux's fifo_open: a reader waits for a writer, a writer for a
 * reader (with O_NONBLOCK, a reader does not wait and a writer gets
 * -ENXIO), O_RDWR never waits. The data is dropped once nobody has it
 * open. */
#include "compat/linux/fs/vfs.h"
#include "kernel/file.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "compat/linux/restart.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "arch/i386/uaccess.h"
#include "lib/string.h"

#define PIPE_SIZE 16384         /* the ring (Linux's is 64 KiB) */
_Static_assert(PIPE_SIZE >= PIPE_BUF, "an atomic write must fit");

struct pipe {
	struct spinlock lock;       /* head, len, readers, writers */
	uint32_t head, len;         /* the filled part: [head, head + len) */
	int readers, writers;       /* open files of each kind */
	unsigned r_counter, w_counter;  /* opens of each kind ever (a FIFO's wait) */
	uint32_t wr_need;           /* room the writing writer waits for (wr_lock) */
	struct waitqueue rd_wait, wr_wait;
	struct mutex rd_lock, wr_lock;
	char *buf;
};

static const struct file_ops pipe_fops;

static void pipe_evict_pipe(struct pipe *p)
{
	kfree(p->buf);
	kfree(p);
}

static void pipe_evict(struct inode *inode)
{
	pipe_evict_pipe(inode->u.pipe);
}

static const struct inode_ops pipe_iops = { .evict = pipe_evict };

/* Sleeps on wq until ready(p) (checked under p->lock) or a signal: 0,
 * -ERESTARTSYS, or -EAGAIN for O_NONBLOCK. */
static long pipe_wait(struct pipe *p, struct waitqueue *wq, bool (*ready)(struct pipe *),
		      bool nonblock)
{
	for (;;) {
		DEFINE_WAIT(w);
		bool ok;

		prepare_to_wait(wq, &w, TASK_INTERRUPTIBLE);
		spin_lock(&p->lock);
		ok = ready(p);
		spin_unlock(&p->lock);
		if (!ok && !nonblock && !signal_pending(current))
			schedule();
		finish_wait(wq, &w);
		if (ok)
			return 0;
		if (nonblock)
			return -EAGAIN;
		if (signal_pending(current))
			return -ERESTARTSYS;    /* compat/linux/restart.h */
	}
}

static bool readable(struct pipe *p) { return p->len > 0 || p->writers == 0; }

static long pipe_read(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	struct pipe *p = f->inode->u.pipe;
	bool nonblock = f->flags & O_NONBLOCK;
	uint32_t head, len;
	size_t done = 0;
	long err;

	(void)pos;
	if (n == 0)
		return 0;
	if ((err = mutex_lock_killable(&p->rd_lock)) < 0)
		return err;
	if ((err = pipe_wait(p, &p->rd_wait, readable, nonblock)) < 0)
		goto out;
	spin_lock(&p->lock);
	head = p->head;
	len = p->len;
	spin_unlock(&p->lock);
	/* At most two pieces: up to the end of the ring, then from its start. */
	while (done < n && done < len) {
		uint32_t at = (head + (uint32_t)done) % PIPE_SIZE;
		size_t k = PIPE_SIZE - at, got;

		if (k > len - done)
			k = len - done;
		if (k > n - done)
			k = n - done;
		got = iob_put(b, done, p->buf + at, k);
		done += got;
		if (got < k)
			break;
	}
	spin_lock(&p->lock);
	p->head = (p->head + (uint32_t)done) % PIPE_SIZE;
	p->len -= (uint32_t)done;
	spin_unlock(&p->lock);
	if (done)
		wake_up(&p->wr_wait);
	err = done ? (long)done : (len ? -EFAULT : 0);
out:
	mutex_unlock(&p->rd_lock);
	return err;
}

/* Room for the rest of a write: all of it if it is atomic. */
static bool writable(struct pipe *p)
{
	return p->readers == 0 || PIPE_SIZE - p->len >= p->wr_need;
}

static long pipe_write(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	struct pipe *p = f->inode->u.pipe;
	bool nonblock = f->flags & O_NONBLOCK;
	size_t done = 0;
	long err = 0;

	(void)pos;
	if (n == 0)
		return 0;
	if ((err = mutex_lock_killable(&p->wr_lock)) < 0)
		return err;
	while (done < n) {
		uint32_t tail, room;
		bool broken;

		p->wr_need = n <= PIPE_BUF ? n : 1;
		if ((err = pipe_wait(p, &p->wr_wait, writable, nonblock)) < 0)
			break;
		spin_lock(&p->lock);
		broken = p->readers == 0;
		tail = (p->head + p->len) % PIPE_SIZE;
		room = PIPE_SIZE - p->len;
		spin_unlock(&p->lock);
		if (broken) {
			err = -EPIPE;
			send_signal_task(current, SIGPIPE);
			break;
		}
		while (room > 0 && done < n) {
			size_t k = PIPE_SIZE - tail, got;

			if (k > room)
				k = room;
			if (k > n - done)
				k = n - done;
			got = iob_get(p->buf + tail, b, done, k);
			spin_lock(&p->lock);
			p->len += (uint32_t)got;
			spin_unlock(&p->lock);
			done += got;
			room -= (uint32_t)got;
			tail = (tail + (uint32_t)got) % PIPE_SIZE;
			if (got)
				wake_up(&p->rd_wait);
			if (got < k) {
				err = -EFAULT;
				goto out;
			}
		}
	}
out:
	mutex_unlock(&p->wr_lock);
	return done ? (long)done : err;
}

static void pipe_release(struct file *f)
{
	struct pipe *p = f->inode->u.pipe;

	spin_lock(&p->lock);
	if (f->mode & FMODE_READ)
		p->readers--;
	if (f->mode & FMODE_WRITE)
		p->writers--;
	spin_unlock(&p->lock);
	/* A closed write end ends the readers' wait (end of file), a closed
	 * read end the writers' (EPIPE). */
	wake_up(&p->rd_wait);
	wake_up(&p->wr_wait);
}

static long pipe_ioctl(struct file *f, unsigned cmd, uint32_t arg)
{
	struct pipe *p = f->inode->u.pipe;
	uint32_t len;

	if (cmd != FIONREAD)
		return -ENOTTY;
	spin_lock(&p->lock);
	len = p->len;
	spin_unlock(&p->lock);
	return put_user32(arg, len) ? -EFAULT : 0;
}

/* poll (compat/linux/fs/poll.c), as Linux's pipe_poll: the read end is
 * readable with bytes in the ring, hung up with no writer left; the write
 * end is writable while a PIPE_BUF write would not wait (Linux: a free
 * slot of its ring of pages), in error with no reader left. */
static unsigned pipe_poll(struct file *f, struct poll_table *pt)
{
	struct pipe *p = f->inode->u.pipe;
	unsigned mask = 0;

	if (f->mode & FMODE_READ)
		poll_wait(pt, &p->rd_wait);
	if (f->mode & FMODE_WRITE)
		poll_wait(pt, &p->wr_wait);
	spin_lock(&p->lock);
	if ((f->mode & FMODE_READ) && p->len)
		mask |= POLLIN | POLLRDNORM;
	if ((f->mode & FMODE_READ) && !p->writers)
		mask |= POLLHUP;
	if ((f->mode & FMODE_WRITE) && PIPE_SIZE - p->len >= PIPE_BUF)
		mask |= POLLOUT | POLLWRNORM;
	if ((f->mode & FMODE_WRITE) && !p->readers)
		mask |= POLLERR;
	spin_unlock(&p->lock);
	return mask;
}

static const struct file_ops pipe_fops = {
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
	.ioctl = pipe_ioctl,
	.poll = pipe_poll,
	.seekable = false,
};

/* An empty pipe with nobody on either end, or NULL. */
static struct pipe *pipe_alloc(void)
{
	struct pipe *p = kzalloc(sizeof(*p));
	char *buf = kmalloc(PIPE_SIZE);

	if (!p || !buf) {
		kfree(buf);
		kfree(p);
		return NULL;
	}
	p->lock = (struct spinlock)SPINLOCK_INIT("pipe");
	waitqueue_init(&p->rd_wait, "pipe_rd");
	waitqueue_init(&p->wr_wait, "pipe_wr");
	mutex_init(&p->rd_lock, "pipe_rd");
	mutex_init(&p->wr_lock, "pipe_wr");
	p->buf = buf;
	return p;
}

/* Both ends, or -ENOMEM; the files hold the inode. */
static long pipe_create(int flags, struct file **rd, struct file **wr)
{
	struct inode *inode = inode_new(DEV_PIPEFS, S_IFIFO | 0600, &pipe_iops, &pipe_fops);
	struct pipe *p = pipe_alloc();
	long err = -ENOMEM;

	if (!inode || !p) {
		if (p)
			pipe_evict_pipe(p);
		if (inode) {
			inode->iop = NULL;      /* nothing to evict yet */
			inode_put(inode);
		}
		return -ENOMEM;
	}
	p->readers = p->writers = 1;
	inode->u.pipe = p;
	*rd = file_open_inode(inode, O_RDONLY | (flags & O_NONBLOCK), &err);
	*wr = *rd ? file_open_inode(inode, O_WRONLY | (flags & O_NONBLOCK), &err) : NULL;
	if (!*wr) {
		p->writers = 0;
		if (*rd)
			file_put(*rd);
		inode_put(inode);
		return err;
	}
	inode_put(inode);
	return 0;
}

static long do_pipe2(uint32_t ufds, int flags)
{
	struct file *rd, *wr;
	int fds[2];
	long err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	if (!user_range_ok(ufds, sizeof(fds)))
		return -EFAULT;
	if ((err = pipe_create(flags, &rd, &wr)) < 0)
		return err;
	if ((err = fd_install(current->files, rd, 0, flags & O_CLOEXEC)) < 0) {
		file_put(rd);
		file_put(wr);
		return err;
	}
	fds[0] = (int)err;
	if ((err = fd_install(current->files, wr, 0, flags & O_CLOEXEC)) < 0) {
		do_close(current->files, fds[0]);
		file_put(wr);
		return err;
	}
	fds[1] = (int)err;
	if (copy_to_user(ufds, fds, sizeof(fds))) {
		/* Linux undoes the fds too (they were never seen). */
		do_close(current->files, fds[0]);
		do_close(current->files, fds[1]);
		return -EFAULT;
	}
	return 0;
}

LINUX_SYSCALL(SYS_pipe, pipe)
{
	return do_pipe2(arg[0], 0);
}

LINUX_SYSCALL(SYS_pipe2, pipe2)
{
	return do_pipe2(arg[0], (int)arg[1]);
}

/* ---- FIFOs: a pipe behind a name ---- */

/* Sleeps until *counter moves from seen (the other side opened): 0, or
 * -ERESTARTSYS for a signal. */
static long fifo_wait_partner(struct pipe *p, struct waitqueue *wq, unsigned *counter,
			      unsigned seen)
{
	for (;;) {
		DEFINE_WAIT(w);
		bool came;

		prepare_to_wait(wq, &w, TASK_INTERRUPTIBLE);
		spin_lock(&p->lock);
		came = *counter != seen;
		spin_unlock(&p->lock);
		if (!came && !signal_pending(current))
			schedule();
		finish_wait(wq, &w);
		if (came)
			return 0;
		if (signal_pending(current))
			return -ERESTARTSYS;    /* compat/linux/restart.h */
	}
}

static long fifo_open(struct file *f)
{
	struct inode *inode = f->inode;
	bool nonblock = f->flags & O_NONBLOCK;
	bool rd = f->mode & FMODE_READ, wr = f->mode & FMODE_WRITE;
	struct pipe *p;
	unsigned seen = 0;
	long err;

	if ((err = mutex_lock_killable(&inode->mutex)) < 0)
		return err;
	if (!inode->u.pipe)
		inode->u.pipe = pipe_alloc();
	p = inode->u.pipe;
	mutex_unlock(&inode->mutex);
	if (!p)
		return -ENOMEM;
	spin_lock(&p->lock);
	if (!rd && nonblock && p->readers == 0) {
		spin_unlock(&p->lock);
		return -ENXIO;          /* POSIX: no reader, no waiting */
	}
	if (p->readers == 0 && p->writers == 0)
		p->head = p->len = 0;   /* the last users' data is gone */
	if (rd) {
		p->readers++;
		p->r_counter++;
	}
	if (wr) {
		p->writers++;
		p->w_counter++;
	}
	/* Only a lone end waits: a reader for a writer, a writer for a
	 * reader (O_RDWR is both, and never waits). */
	if (rd && !wr && !nonblock && p->writers == 0)
		seen = p->w_counter;
	else if (wr && !rd && p->readers == 0)
		seen = p->r_counter;
	else
		rd = wr = false;        /* no wait below */
	spin_unlock(&p->lock);
	wake_up(&p->rd_wait);           /* a waiting reader has its writer */
	wake_up(&p->wr_wait);           /* ... a waiting writer its reader */
	if (rd)
		err = fifo_wait_partner(p, &p->rd_wait, &p->w_counter, seen);
	else if (wr)
		err = fifo_wait_partner(p, &p->wr_wait, &p->r_counter, seen);
	if (err < 0)
		pipe_release(f);        /* undo our count, as a close would */
	return err;
}

static void fifo_evict(struct inode *inode)
{
	if (inode->u.pipe)
		pipe_evict_pipe(inode->u.pipe);
}

const struct inode_ops fifo_iops = { .evict = fifo_evict };

const struct file_ops fifo_fops = {
	.open = fifo_open,
	.read = pipe_read,
	.write = pipe_write,
	.release = pipe_release,
	.ioctl = pipe_ioctl,
	.poll = pipe_poll,
	.seekable = false,
};
