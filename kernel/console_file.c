/* kernel/console_file.c - the console as the seed kernel's programs read
 * and write it: fds 0, 1 and 2 (abi.md section 1).
 *
 * Reading gets lines. As in xv6's console.c, a typed byte is edited and
 * echoed when it arrives (in the COM1 interrupt), not when someone
 * reads, so the user sees what they type even while nobody reads yet:
 *   Enter (CR or LF; CR LF counts once)  completes the line, '\n' ends it
 *   Backspace or DEL                     erases the last character
 *   Ctrl-U                               erases the whole line
 *   Ctrl-D                               completes the line without a
 *                                        newline: at the start of a line
 *                                        a read returns 0, end of file
 * Other control characters are dropped. A read returns at most one line;
 * what does not fit in its buffer stays for the next.
 *
 * Input is flow controlled, not dropped: while the buffer is full and a
 * complete line waits for a reader, no more bytes are taken from the
 * console's ring (console.c), which then leaves them in the UART, so a
 * paste or `make run < script` far ahead of the reader loses nothing. A
 * read that makes room takes them in. Only a single line longer than the
 * buffer loses bytes: what does not fit is dropped, the line end kept.
 *
 * The Linux layer replaces all of this with a terminal that has Linux's
 * termios modes and job control (compat/linux/tty_console.c). */
#include "kernel/console.h"
#include "kernel/file.h"
#include "kernel/linux_hooks.h"
#include "kernel/panic.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/waitqueue.h"
#include "arch/i386/spinlock.h"

#define LINE_BUF 512            /* a power of two: indices wrap with a mask */
#define MASK (LINE_BUF - 1)
#define EOF_MARK 0x04           /* Ctrl-D, stored as the line's end */
#define WRITE_CHUNK 512         /* console bytes written under one lock */

/* buf is a ring; r <= w <= e are free-running indices into it (xv6's):
 *   [r, w)  complete lines, for readers; each ends in '\n' or EOF_MARK
 *   [w, e)  the line being typed, still editable. */
static struct {
	struct spinlock lock;
	char buf[LINE_BUF];
	uint32_t r, w, e;
	bool last_cr;               /* the previous byte was CR: skip one LF */
	bool attached;              /* the COM1 interrupt feeds us */
	struct waitqueue readers;
} cons = {
	.lock = SPINLOCK_INIT("console lines"),
	.readers = WAITQUEUE_INIT(cons.readers, "console readers"),
};

static void echo(const char *s, size_t n)
{
	console_lock();
	console_write(s, n);
	console_unlock();
}

/* Completes the line being typed with end ('\n' or EOF_MARK). There is
 * always room: ordinary bytes leave one slot free for it. */
static void end_line(char end)
{
	cons.buf[cons.e++ & MASK] = end;
	cons.w = cons.e;
}

/* One byte typed; true if it completed a line. cons.lock held. */
static bool input(char c)
{
	bool after_cr = cons.last_cr;

	cons.last_cr = c == '\r';
	if (c == '\n' && after_cr)
		return false;           /* CR LF from a terminal: one Enter */
	if (c == '\r' || c == '\n') {
		end_line('\n');
		echo("\n", 1);
		return true;
	}
	if (c == EOF_MARK) {            /* not echoed, as on Linux */
		end_line(EOF_MARK);
		return true;
	}
	if (c == 0x7f || c == '\b') {   /* DEL or backspace */
		if (cons.e != cons.w) {
			cons.e--;
			echo("\b \b", 3);
		}
		return false;
	}
	if (c == 0x15) {                /* Ctrl-U */
		while (cons.e != cons.w) {
			cons.e--;
			echo("\b \b", 3);
		}
		return false;
	}
	if ((unsigned char)c < ' ' && c != '\t')
		return false;
	if (cons.e - cons.r >= LINE_BUF - 1)
		return false;           /* full: only a line end still fits */
	cons.buf[cons.e++ & MASK] = c;
	echo(&c, 1);
	return false;
}

/* Must the next byte wait? Only while a complete line waits for a
 * reader (a read will make room): a buffer full of one unfinished line
 * must go on taking bytes (dropping ordinary ones) so that its Enter
 * still arrives. */
static bool throttled(void)
{
	return cons.r != cons.w && cons.e - cons.r >= LINE_BUF - 1;
}

/* Takes what is buffered in the console's ring, until it is empty or we
 * are throttled; wakes the readers if a line was completed. */
static void receive(void)
{
	uint32_t flags = spin_lock_irqsave(&cons.lock);
	bool completed = false;
	int c;

	while (!throttled() && (c = console_trygetc()) >= 0)
		completed |= input((char)c);
	spin_unlock_irqrestore(&cons.lock, flags);
	if (completed)
		wake_up(&cons.readers);
}

/* From now on the COM1 interrupt feeds the lines (until the first read
 * the kernel monitor may read the console itself, monitor.c). */
static void attach(void)
{
	if (__atomic_exchange_n(&cons.attached, true, __ATOMIC_ACQ_REL))
		return;
	console_set_rx_hook(receive);
	receive();                  /* what was typed before */
}

/* Up to n bytes of the first complete line; 0 at its EOF_MARK, which the
 * read takes (so a mark left at the front always means end of file).
 * cons.lock held. */
static size_t take_line(char *dst, size_t n)
{
	size_t got = 0;

	while (cons.r != cons.w && got < n) {
		char c = cons.buf[cons.r++ & MASK];
		if (c == EOF_MARK)
			return got;
		dst[got++] = c;
		if (c == '\n')
			return got;
	}
	if (got > 0 && cons.r != cons.w && cons.buf[cons.r & MASK] == EOF_MARK)
		cons.r++;
	return got;
}

static long console_read(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	char line[LINE_BUF];
	size_t got;
	uint32_t flags;

	(void)f;
	(void)pos;
	attach();
	for (;;) {
		DEFINE_WAIT(w);

		prepare_to_wait(&cons.readers, &w, TASK_INTERRUPTIBLE);
		flags = spin_lock_irqsave(&cons.lock);
		if (cons.r != cons.w) {
			got = take_line(line, n < sizeof(line) ? n : sizeof(line));
			spin_unlock_irqrestore(&cons.lock, flags);
			finish_wait(&cons.readers, &w);
			break;
		}
		spin_unlock_irqrestore(&cons.lock, flags);
		if (signal_pending(current)) {
			finish_wait(&cons.readers, &w);
			return -EINTR;
		}
		schedule();
		finish_wait(&cons.readers, &w);
	}
	receive();                  /* room again: what waited comes in */
	if (iob_put(b, 0, line, got) < got)
		return -EFAULT;
	return (long)got;
}

long console_writev_with(const struct user_iovec *iov, int nr,
			 void (*out)(const char *s, size_t n))
{
	char kbuf[WRITE_CHUNK];
	uint32_t off = 0;
	long done = 0;
	bool fault = false;
	int i = 0;

	/* WRITE_CHUNK bytes at a time, each under the console lock, so that
	 * a line written at once (musl's printf writes its buffer and the new
	 * text as two vectors) comes out whole, never cut by a kernel
	 * message. Stops at the first unreadable byte. */
	while (i < nr && !fault) {
		size_t fill = 0;
		while (i < nr && fill < sizeof(kbuf)) {
			size_t k = iov[i].len - off, got;
			if (k > sizeof(kbuf) - fill)
				k = sizeof(kbuf) - fill;
			got = copy_from_user_partial(kbuf + fill, iov[i].base + off, k);
			fill += got;
			off += got;
			if (got < k) {
				fault = true;
				break;
			}
			if (off == iov[i].len) {
				i++;
				off = 0;
			}
		}
		out(kbuf, fill);
		done += (long)fill;
	}
	return done || !fault ? done : -EFAULT;
}

static void write_console(const char *s, size_t n)
{
	console_lock();
	console_write(s, n);
	console_unlock();
}

static long console_writev(struct file *f, const struct user_iovec *iov, int nr)
{
	(void)f;
	return console_writev_with(iov, nr, write_console);
}

static long console_write_op(struct file *f, struct iobuf b, size_t n, uint64_t *pos)
{
	struct user_iovec iov = { (uint32_t)b.addr, (uint32_t)n };

	(void)pos;
	if (!b.user) {
		write_console((const char *)b.addr, n);
		return (long)n;
	}
	return console_writev(f, &iov, 1);
}

static const struct file_ops console_fops = {
	.read = console_read,
	.write = console_write_op,
	.writev = console_writev,
};

struct file *console_file_new(void)
{
	long err;

	return file_new(&console_fops, O_RDWR, &err);
}
