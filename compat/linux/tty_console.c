/* compat/linux/tty_console.c - the console as a terminal (tty.h): a line
 * discipline fed by the COM1 interrupt, read(2) in canonical and raw
 * mode, the termios ioctls, and job control: the console belongs to a
 * session and has a foreground process group, which gets the signals
 * typed (ISIG: ^C SIGINT, ^\ SIGQUIT) and may read.
 *
 * Ctrl-C's path: the UART interrupt (console.c com1_irq) buffers the
 * byte and calls tty_rx; the discipline sees c_cc[VINTR], flushes the
 * input, echoes ^C and sets ld.sig; tty_rx drops its lock and calls
 * kill_pgrp (signal_syscalls.c) on the foreground group, which queues
 * SIGINT in each of its processes and wakes (or IPIs) a thread of each. */
#include "compat/linux/tty.h"
#include "kernel/panic.h"
#include "kernel/clock.h"
#include "kernel/console.h"
#include "kernel/file.h"
#include "compat/linux/fs/vfs.h"
#include "compat/linux/jobctl.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "compat/linux/restart.h"
#include "kernel/task.h"
#include "compat/linux/layer.h"
#include "arch/i386/spinlock.h"
#include "arch/i386/uaccess.h"
#include "lib/errno.h"
#include "lib/string.h"

#define NS_PER_DECISECOND 100000000ull   /* VTIME's unit */

/* Lock order: tasklist_lock, then tty.lock, then the console output lock
 * (the echo). The interrupt takes tty.lock too, hence the irqsave
 * everywhere; it sends signals only after dropping it. */
static struct tty {
	struct spinlock lock;
	struct ldisc ld;
	struct waitqueue readers;
	bool attached;
	bool inited;                /* ld holds the modes (tty_init_once) */
	int sid;                    /* the controlling session; 0: none */
	int pgrp;                   /* its foreground process group */
	struct winsize ws;
} tty = {
	.lock = SPINLOCK_INIT("tty"),
	.readers = WAITQUEUE_INIT(tty.readers, "tty readers"),
	.ws = { .ws_row = 24, .ws_col = 80 },
};

static void console_echo(void *ctx, const char *s, size_t n);

/* Output as c_oflag says: OPOST with ONLCR turns '\n' into CR LF. */
static void write_oflag(const char *s, size_t n, tcflag_t oflag)
{
	if ((oflag & (OPOST | ONLCR)) == (OPOST | ONLCR))
		console_write(s, n);
	else
		console_write_raw(s, n);
}

/* The discipline gets Linux's default modes on first use, whether a
 * read, an ioctl or the COM1 hook. */
static void tty_init_once(void)
{
	uint32_t flags = spin_lock_irqsave(&tty.lock);

	if (!tty.inited) {
		ldisc_init(&tty.ld, console_echo, NULL);
		__atomic_store_n(&tty.inited, true, __ATOMIC_RELEASE);
	}
	spin_unlock_irqrestore(&tty.lock, flags);
}

void tty_write(const char *s, size_t n)
{
	/* Until the modes are set up they are the defaults: OPOST|ONLCR. */
	tcflag_t oflag = __atomic_load_n(&tty.inited, __ATOMIC_ACQUIRE) ?
		__atomic_load_n(&tty.ld.t.c_oflag, __ATOMIC_RELAXED) : OPOST | ONLCR;

	console_lock();
	write_oflag(s, n, oflag);
	console_unlock();
}

/* The discipline's echo: tty.lock is held (the modes cannot change). */
static void console_echo(void *ctx, const char *s, size_t n)
{
	ASSERT(spin_held(&tty.lock));
	(void)ctx;
	console_lock();
	write_oflag(s, n, tty.ld.t.c_oflag);
	console_unlock();
}

/* Takes what is buffered through the discipline. Sends a typed signal
 * to the foreground group with no lock held (kill_pgrp takes
 * tasklist_lock), then goes on: the discipline stops after each signal
 * character, so two ^Cs are two signals. tty.lock not held. */
static void tty_receive(void)
{
	bool wake = false;
	int sig, pgrp;

	do {
		uint32_t flags = spin_lock_irqsave(&tty.lock);
		wake |= ldisc_receive(&tty.ld, console_trygetc);
		sig = tty.ld.sig;
		tty.ld.sig = 0;
		pgrp = tty.pgrp;
		spin_unlock_irqrestore(&tty.lock, flags);
		if (sig && pgrp)
			kill_pgrp(pgrp, sig);
	} while (sig);
	if (wake)
		wake_up(&tty.readers);
}

/* The COM1 interrupt's hook: buffered bytes go through the discipline
 * until it is throttled; readers wake when something is readable. What
 * is left waits in the console's ring and then in the UART (console.c):
 * flow control, no byte is dropped. A read takes it once it has made
 * room. */
static void tty_rx(void)
{
	tty_receive();
}

void tty_attach(void)
{
	if (__atomic_exchange_n(&tty.attached, true, __ATOMIC_ACQ_REL))
		return;
	tty_init_once();
	console_set_rx_hook(tty_rx);
	tty_rx();                   /* what was typed before */
}

int tty_foreground_of(int sid)
{
	uint32_t flags = spin_lock_irqsave(&tty.lock);
	int pgrp = sid && tty.sid == sid ? tty.pgrp : -1;

	spin_unlock_irqrestore(&tty.lock, flags);
	return pgrp;
}

void tty_set_session(int sid, int pgrp)
{
	uint32_t flags = spin_lock_irqsave(&tty.lock);

	tty.sid = sid;
	tty.pgrp = pgrp;
	spin_unlock_irqrestore(&tty.lock, flags);
}

/* Is the console current's controlling terminal? */
static bool is_ctty(void)
{
	return tty.sid && current->lx.sid == tty.sid;
}

/* Job control (Linux's __tty_check_change): a process of the console's
 * session outside its foreground group may not read (sig SIGTTIN), nor
 * change the modes or the foreground group, nor write with TOSTOP set
 * (SIGTTOU). Its process group gets sig, which stops it
 * (compat/linux/jobctl.c), and the call returns -ERESTARTSYS: it is made again
 * when the group continues, as Linux's (compat/linux/restart.h). If sig is blocked
 * or ignored, a read is -EIO and the rest may go ahead; if the group is
 * orphaned, nobody could continue it: -EIO. */
long tty_job_check(int sig)
{
	uint32_t flags = spin_lock_irqsave(&tty.lock);
	bool background = is_ctty() && tty.pgrp && current->lx.pgid != tty.pgrp;
	bool orphaned;

	spin_unlock_irqrestore(&tty.lock, flags);
	if (!background)
		return 0;
	if (jobctl_sig_ignored(sig))
		return sig == SIGTTIN ? -EIO : 0;
	flags = spin_lock_irqsave(&tasklist_lock);
	orphaned = pgrp_orphaned_locked(current->lx.pgid);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	if (orphaned)
		return -EIO;
	kill_pgrp(current->lx.pgid, sig);
	/* Made again once the process is continued (Linux's
	 * __tty_check_change): it may be in the foreground by then. This
	 * call decided on a restart without signal_pending(), so it flags
	 * its own return path, which must see the code even if another
	 * thread takes the signal first (kernel/task.h). */
	set_tif_sigpending(current);
	return -ERESTARTSYS;
}

long tty_write_check(void)
{
	bool tostop = __atomic_load_n(&tty.inited, __ATOMIC_ACQUIRE) &&
		      (__atomic_load_n(&tty.ld.t.c_lflag, __ATOMIC_RELAXED) & TOSTOP);

	return tostop ? tty_job_check(SIGTTOU) : 0;
}

/* Is a read's wait over? Canonical: a line (or an end of file) is there.
 * Raw, Linux's four cases of VMIN and VTIME (termios(3)):
 *   MIN 0, TIME 0  return at once with what is there, maybe nothing;
 *   MIN 0, TIME t  the first byte, or 0 after t tenths of a second;
 *   MIN m, TIME 0  min(m, n) bytes;
 *   MIN m, TIME t  min(m, n) bytes, or what came when t tenths pass with
 *                  no new byte once one has come (the inter-byte timer).
 * timed_out: the timer ran out. tty.lock held. */
static bool read_done(size_t n, bool timed_out)
{
	const struct ldisc *l = &tty.ld;
	size_t avail, vmin;

	ASSERT(spin_held(&tty.lock));
	if (l->t.c_lflag & ICANON)
		return ldisc_readable(l);
	avail = ldisc_available(l);
	vmin = l->t.c_cc[VMIN];
	if (vmin == 0)
		return avail > 0 || timed_out || l->t.c_cc[VTIME] == 0;
	return avail >= (vmin < n ? vmin : n) || (timed_out && avail > 0);
}

/* The sleep is sched.h's pattern: queue ourselves, then test, then
 * schedule, so a byte that comes in between sets us running again
 * instead of being missed. */
long tty_read(uint32_t ubuf, size_t n)
{
	char kbuf[TTY_BUF_SIZE];    /* a line never holds more */
	size_t got = 0, seen = 0;
	bool ready = false, more = false, timed_out = false;
	uint64_t deadline = 0;
	long err;

	tty_attach();
	if ((err = tty_job_check(SIGTTIN)))
		return err;
	if (n > sizeof(kbuf))
		n = sizeof(kbuf);
	while (!ready) {
		DEFINE_WAIT(w);
		uint32_t flags;
		uint64_t vtime_ns = 0;

		prepare_to_wait(&tty.readers, &w, TASK_INTERRUPTIBLE);
		flags = spin_lock_irqsave(&tty.lock);
		ready = read_done(n, timed_out);
		if (ready) {
			got = ldisc_read(&tty.ld, kbuf, n);
			/* The read made room: take in the bytes held back in
			 * the console's ring now. No interrupt would bring them:
			 * they have arrived already, and the UART's interrupt may
			 * be off until the ring drains. */
			more = true;
		} else if (!(tty.ld.t.c_lflag & ICANON) && tty.ld.t.c_cc[VTIME]) {
			size_t avail = ldisc_available(&tty.ld);
			vtime_ns = tty.ld.t.c_cc[VTIME] * NS_PER_DECISECOND;
			/* MIN 0: one timer from the start; MIN > 0: restarted
			 * by each byte, started by the first. */
			if (!deadline || avail != seen) {
				if (tty.ld.t.c_cc[VMIN] == 0 || avail > 0)
					deadline = clock_ns() + vtime_ns;
				seen = avail;
			}
			if (tty.ld.t.c_cc[VMIN] && avail == 0)
				deadline = 0;
		}
		spin_unlock_irqrestore(&tty.lock, flags);
		if (!ready && !signal_pending(current)) {
			if (deadline) {
				uint64_t now = clock_ns();
				if (now >= deadline || !schedule_timeout(deadline - now))
					timed_out = clock_ns() >= deadline;
			} else {
				schedule();
			}
		}
		finish_wait(&tty.readers, &w);
		if (!ready && signal_pending(current))
			return -ERESTARTSYS;    /* compat/linux/restart.h */
	}
	if (more)
		tty_receive();
	/* What was read is taken: if the buffer is bad, it is lost (Linux too). */
	return got ? copy_to_user_partial(ubuf, kbuf, got) : 0;
}

unsigned tty_poll(struct poll_table *pt)
{
	const struct ldisc *l = &tty.ld;
	unsigned mask = POLLOUT | POLLWRNORM;
	uint32_t flags;
	size_t want;

	tty_attach();
	poll_wait(pt, &tty.readers);
	flags = spin_lock_irqsave(&tty.lock);
	if (l->t.c_lflag & ICANON) {
		if (ldisc_readable(l))
			mask |= POLLIN | POLLRDNORM;
	} else {
		want = l->t.c_cc[VTIME] == 0 && l->t.c_cc[VMIN] ? l->t.c_cc[VMIN] : 1;
		if (ldisc_available(l) >= want)
			mask |= POLLIN | POLLRDNORM;
	}
	spin_unlock_irqrestore(&tty.lock, flags);
	return mask;
}

/* TIOCSPGRP: Linux's tiocspgrp: only from the console's session
 * (-ENOTTY), a group that exists (-ESRCH) in that session (-EPERM). */
static long set_pgrp(uint32_t arg)
{
	uint32_t pgrp_u, flags, tflags;
	int pgrp;
	long err = 0;

	if (copy_from_user(&pgrp_u, arg, sizeof(pgrp_u)))
		return -EFAULT;
	pgrp = (int)pgrp_u;
	if (pgrp < 0)
		return -EINVAL;
	flags = spin_lock_irqsave(&tasklist_lock);
	tflags = spin_lock_irqsave(&tty.lock);
	if (!is_ctty())
		err = -ENOTTY;
	else if (!pgrp_exists_locked(pgrp, -1))
		err = -ESRCH;
	else if (!pgrp_exists_locked(pgrp, tty.sid))
		err = -EPERM;
	else
		tty.pgrp = pgrp;
	spin_unlock_irqrestore(&tty.lock, tflags);
	spin_unlock_irqrestore(&tasklist_lock, flags);
	return err;
}

/* TIOCSCTTY: a session leader takes the console as its controlling
 * terminal: free, or taken from another session when arg is 1 (Linux
 * lets root steal it; everyone is root here). */
static long set_ctty(uint32_t arg)
{
	uint32_t flags = spin_lock_irqsave(&tty.lock);
	long err = 0;

	if (current->lx.sid == tty.sid)
		err = 0;
	else if (current->lx.sid != current->tgid)
		err = -EPERM;
	else if (tty.sid && arg != 1)
		err = -EPERM;
	else {
		tty.sid = current->lx.sid;
		tty.pgrp = current->lx.pgid;
	}
	spin_unlock_irqrestore(&tty.lock, flags);
	return err;
}

/* TCSETS*: new modes. Output is written synchronously (polled UART), so
 * TCSETSW has nothing to wait for but the UART's last bytes. */
static long set_termios(unsigned cmd, uint32_t arg)
{
	struct termios t;
	uint32_t flags;

	if (copy_from_user(&t, arg, sizeof(t)))
		return -EFAULT;
	if (cmd != TCSETS)
		console_flush();
	flags = spin_lock_irqsave(&tty.lock);
	if (cmd == TCSETSF)
		ldisc_flush(&tty.ld);
	ldisc_set_termios(&tty.ld, &t);
	spin_unlock_irqrestore(&tty.lock, flags);
	/* A reader may be done now (the half-typed line became readable in
	 * raw mode); bytes held back may fit. */
	tty_receive();
	wake_up(&tty.readers);
	return 0;
}

/* A copy out of what the lock protects, taken under it. */
static long get_under_lock(uint32_t arg, const void *src, size_t n)
{
	char k[sizeof(struct termios)];
	uint32_t flags = spin_lock_irqsave(&tty.lock);

	memcpy(k, src, n);
	spin_unlock_irqrestore(&tty.lock, flags);
	return copy_to_user(arg, k, n) ? -EFAULT : 0;
}

long tty_ioctl(unsigned cmd, uint32_t arg)
{
	struct winsize ws;
	uint32_t flags, v;
	long r;

	tty_attach();
	switch (cmd) {
	case TCGETS:
		return get_under_lock(arg, &tty.ld.t, sizeof(struct termios));
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		if ((r = tty_job_check(SIGTTOU)))
			return r;
		return set_termios(cmd, arg);
	case TIOCGWINSZ:
		return get_under_lock(arg, &tty.ws, sizeof(struct winsize));
	case TIOCSWINSZ:
		if (copy_from_user(&ws, arg, sizeof(ws)))
			return -EFAULT;
		flags = spin_lock_irqsave(&tty.lock);
		/* A new size is news to the foreground (Linux's
		 * tty_do_resize): SIGWINCH, ignored unless handled. */
		r = memcmp(&ws, &tty.ws, sizeof(ws)) ? tty.pgrp : 0;
		tty.ws = ws;
		spin_unlock_irqrestore(&tty.lock, flags);
		if (r)
			kill_pgrp((int)r, SIGWINCH);
		return 0;
	case FIONREAD:
		flags = spin_lock_irqsave(&tty.lock);
		v = (uint32_t)ldisc_available(&tty.ld);
		spin_unlock_irqrestore(&tty.lock, flags);
		return put_user32(arg, v) ? -EFAULT : 0;
	case TIOCGPGRP:
	case TIOCGSID:
		flags = spin_lock_irqsave(&tty.lock);
		r = !is_ctty() ? -ENOTTY : cmd == TIOCGPGRP ? tty.pgrp : tty.sid;
		spin_unlock_irqrestore(&tty.lock, flags);
		if (r < 0)
			return r;
		return put_user32(arg, (uint32_t)r) ? -EFAULT : 0;
	case TIOCSPGRP:
		if ((r = tty_job_check(SIGTTOU)))
			return r;
		return set_pgrp(arg);
	case TIOCSCTTY:
		return set_ctty(arg);
	}
	return -ENOTTY;
}
