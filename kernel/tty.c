/* kernel/tty.c - the canonical line discipline and the console tty (tty.h).
 *
 * As in xv6's console.c, editing and echo happen when a byte arrives (in
 * the COM1 interrupt), not when someone reads: the user sees what they
 * type even while no process is reading yet. Only when the buffer is full
 * (typed or pasted far ahead of the reader) do bytes wait outside, and
 * then they are taken in, edited and echoed as a read makes room. */
#include "kernel/tty.h"
#include "kernel/console.h"
#include "kernel/file.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "arch/i386/spinlock.h"
#include "lib/errno.h"

#define MASK (TTY_BUF_SIZE - 1)
_Static_assert((TTY_BUF_SIZE & MASK) == 0, "TTY_BUF_SIZE must be a power of two");

/* ---- the line discipline: pure, the caller locks ---- */

void ldisc_init(struct ldisc *l, ldisc_echo_fn echo, void *ctx)
{
	l->r = l->w = l->e = 0;
	l->last_cr = false;
	l->echo = echo;
	l->echo_ctx = ctx;
}

static void echo(struct ldisc *l, const char *s, size_t n)
{
	if (l->echo)
		l->echo(l->echo_ctx, s, n);
}

static void put(struct ldisc *l, char c)
{
	l->buf[l->e++ & MASK] = c;
}

/* Erases the last character of the line being typed: a UTF-8 sequence
 * as a whole (its continuation bytes are 10xxxxxx). */
static bool erase_one(struct ldisc *l)
{
	unsigned char c;

	if (l->e == l->w)
		return false;
	do
		c = (unsigned char)l->buf[--l->e & MASK];
	while ((c & 0xc0) == 0x80 && l->e != l->w);
	echo(l, "\b \b", 3);
	return true;
}

/* Completes the line being typed with its end, '\n' or the VEOF mark.
 * There is always room: ordinary bytes leave one slot free for it. */
static bool end_line(struct ldisc *l, char end)
{
	if (l->e - l->r >= TTY_BUF_SIZE)
		return false;
	put(l, end);
	l->w = l->e;
	return true;
}

bool ldisc_input(struct ldisc *l, unsigned char c)
{
	bool after_cr = l->last_cr;

	l->last_cr = (c == '\r');
	switch (c) {
	case '\n':
		if (after_cr)           /* CR LF from a terminal: one Enter */
			return false;
		/* fall through */
	case '\r':                  /* ICRNL: CR is a newline too */
		if (!end_line(l, '\n'))
			return false;
		echo(l, "\n", 1);
		return true;
	case VEOF:                  /* not echoed, as on Linux */
		return end_line(l, VEOF);
	case VERASE:
	case CTRL_H:
		erase_one(l);
		return false;
	case VKILL:
		while (erase_one(l))
			;
		return false;
	}
	if (c < ' ' && c != '\t')
		return false;           /* other control characters: dropped */
	if (l->e - l->r >= TTY_BUF_SIZE - 1)
		return false;           /* full: only a line end still fits */
	put(l, (char)c);
	echo(l, (const char *)&c, 1);
	return false;
}

bool ldisc_readable(const struct ldisc *l)
{
	return l->r != l->w;
}

/* Full means an ordinary byte would be dropped (see ldisc_input). Holding
 * it back is right only if a read will make room, that is if a complete
 * line waits: otherwise the buffer holds one line too long to fit, that
 * no read can ever take, and the bytes must go on through the discipline
 * (ordinary ones dropped; erase, kill, Enter and VEOF still work), or the
 * console would hang. Linux's n_tty makes the same exception in canonical
 * mode. While throttled every byte waits, a line end too: bytes must go
 * through the discipline in the order they came. */
bool ldisc_throttled(const struct ldisc *l)
{
	return l->r != l->w && l->e - l->r >= TTY_BUF_SIZE - 1;
}

bool ldisc_receive(struct ldisc *l, int (*next)(void))
{
	bool completed = false;
	int c;

	while (!ldisc_throttled(l) && (c = next()) >= 0)
		completed |= ldisc_input(l, (unsigned char)c);
	return completed;
}

/* A VEOF mark is consumed by the read that reaches it: with nothing read
 * yet that read returns 0 (end of file); after some bytes of its line it
 * just ends the line. A read that stops right before a mark takes it too,
 * so a mark left at the front always means "end of file". */
size_t ldisc_read(struct ldisc *l, char *dst, size_t n)
{
	size_t got = 0;

	while (l->r != l->w && got < n) {
		char c = l->buf[l->r++ & MASK];
		if (c == VEOF)
			return got;
		dst[got++] = c;
		if (c == '\n')
			return got;
	}
	if (got > 0 && l->r != l->w && l->buf[l->r & MASK] == VEOF)
		l->r++;
	return got;
}

/* ---- the console tty ---- */

static void console_echo(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	console_lock();
	console_write(s, n);
	console_unlock();
}

/* Lock order: tty.lock, then the console output lock (the echo). The
 * interrupt takes tty.lock too, hence the irqsave everywhere. */
static struct tty {
	struct spinlock lock;
	struct ldisc ld;
	struct waitqueue readers;
	bool attached;
} tty = {
	.lock = SPINLOCK_INIT("tty"),
	.ld = { .echo = console_echo },
	.readers = WAITQUEUE_INIT(tty.readers, "tty readers"),
};

/* The COM1 interrupt's hook: buffered bytes go through the discipline
 * until it is throttled; readers wake when a line is complete. What is
 * left waits in the console's ring and then in the UART (console.c):
 * flow control, no byte is dropped. tty_read takes it once it has made
 * room. */
static void tty_rx(void)
{
	uint32_t flags = spin_lock_irqsave(&tty.lock);
	bool wake = ldisc_receive(&tty.ld, console_trygetc);

	spin_unlock_irqrestore(&tty.lock, flags);
	if (wake)
		wake_up(&tty.readers);
}

void tty_attach(void)
{
	if (__atomic_exchange_n(&tty.attached, true, __ATOMIC_ACQ_REL))
		return;
	console_set_rx_hook(tty_rx);
	tty_rx();                   /* what was typed before */
}

/* The sleep is sched.h's pattern: queue ourselves, then test, then
 * schedule, so a line completed in between sets us running again
 * instead of being missed. */
long tty_read(uint32_t ubuf, size_t n)
{
	char kbuf[TTY_BUF_SIZE];    /* a line never holds more */
	size_t got = 0;
	bool ready = false, more = false;

	tty_attach();
	if (n > sizeof(kbuf))
		n = sizeof(kbuf);
	while (!ready) {
		DEFINE_WAIT(w);
		uint32_t flags;

		prepare_to_wait(&tty.readers, &w, TASK_INTERRUPTIBLE);
		flags = spin_lock_irqsave(&tty.lock);
		ready = ldisc_readable(&tty.ld);
		if (ready) {
			got = ldisc_read(&tty.ld, kbuf, n);
			/* The read made room: take in the bytes held back in
			 * the console's ring now. No interrupt would bring them:
			 * they have arrived already, and the UART's interrupt may
			 * be off until the ring drains. They are echoed from
			 * here, under the console lock like any echo. */
			more = ldisc_receive(&tty.ld, console_trygetc);
		}
		spin_unlock_irqrestore(&tty.lock, flags);
		if (!ready && !signal_pending(current))
			schedule();
		finish_wait(&tty.readers, &w);
		if (!ready && signal_pending(current))
			return -EINTR;
	}
	if (more)                   /* a line completed for another reader */
		wake_up(&tty.readers);
	/* The line is taken: if the buffer is bad, it is lost (Linux too). */
	return got ? copy_to_user_partial(ubuf, kbuf, got) : 0;
}
