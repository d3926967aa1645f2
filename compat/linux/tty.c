/* compat/linux/tty.c - the line discipline (tty.h); the console tty that wraps
 * one is tty_console.c.
 *
 * As in xv6's console.c, editing and echo happen when a byte arrives (in
 * the COM1 interrupt), not when someone reads: the user sees what they
 * type even while no process is reading yet. Only when the buffer is full
 * (typed or pasted far ahead of the reader) do bytes wait outside, and
 * then they are taken in, edited and echoed as a read makes room. */
#include "compat/linux/tty.h"
#include "lib/abi_linux.h"
#include "lib/string.h"

#define MASK (TTY_BUF_SIZE - 1)
_Static_assert((TTY_BUF_SIZE & MASK) == 0, "TTY_BUF_SIZE must be a power of two");

/* ---- the line discipline: pure, the caller locks ---- */

/* Linux's defaults (include/linux/tty.h tty_std_termios and
 * INIT_C_CC): a cooked line with echo and signals, 38400 8N1. */
static const struct termios std_termios = {
	.c_iflag = ICRNL | IXON,
	.c_oflag = OPOST | ONLCR,
	.c_cflag = B38400 | CS8 | CREAD | HUPCL,
	.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
	.c_cc = {
		[VINTR] = 0x03, [VQUIT] = 0x1c, [VERASE] = 0x7f, [VKILL] = 0x15,
		[VEOF] = 0x04, [VTIME] = 0, [VMIN] = 1, [VSTART] = 0x11,
		[VSTOP] = 0x13, [VSUSP] = 0x1a, [VREPRINT] = 0x12,
		[VDISCARD] = 0x0f, [VWERASE] = 0x17, [VLNEXT] = 0x16,
	},
};

void ldisc_init(struct ldisc *l, ldisc_echo_fn echo, void *ctx)
{
	l->r = l->w = l->e = 0;
	l->last_cr = false;
	l->t = std_termios;
	l->sig = 0;
	l->echo = echo;
	l->echo_ctx = ctx;
}

static bool canon(const struct ldisc *l)
{
	return l->t.c_lflag & ICANON;
}

void ldisc_set_termios(struct ldisc *l, const struct termios *t)
{
	l->t = *t;
	if (!canon(l))
		l->w = l->e;            /* the half-typed line: readable now */
}

void ldisc_flush(struct ldisc *l)
{
	l->r = l->w = l->e;
}

size_t ldisc_available(const struct ldisc *l)
{
	size_t n = 0;

	for (uint32_t i = l->r; i != l->w; i++)
		n += !canon(l) || l->buf[i & MASK] != EOF_MARK;
	return n;
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
static bool erase_one(struct ldisc *l, bool visual)
{
	unsigned char c;

	if (l->e == l->w)
		return false;
	do
		c = (unsigned char)l->buf[--l->e & MASK];
	while ((c & 0xc0) == 0x80 && l->e != l->w);
	if (visual)
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

/* ISIG: VINTR, VQUIT or VSUSP. As Linux's n_tty (isig): the input is flushed
 * (unless NOFLSH), ^C is echoed (ECHO and ECHOCTL), and the caller sends
 * the signal to the foreground process group. */
static void signal_char(struct ldisc *l, unsigned char c, int sig)
{
	if (!(l->t.c_lflag & NOFLSH))
		ldisc_flush(l);
	if ((l->t.c_lflag & (ECHO | ECHOCTL)) == (ECHO | ECHOCTL)) {
		char e[2] = { '^', (char)(c ^ 0x40) };
		echo(l, e, 2);
	}
	l->sig = sig;
}

/* Raw (non-canonical) input: every byte is readable at once. */
static bool raw_input(struct ldisc *l, unsigned char c)
{
	if (l->e - l->r >= TTY_BUF_SIZE)
		return false;           /* full (ldisc_throttled holds bytes back) */
	put(l, (char)c);
	l->w = l->e;
	if ((l->t.c_lflag & ECHO) || (c == '\n' && (l->t.c_lflag & ECHONL)))
		echo(l, (const char *)&c, 1);
	return true;
}

bool ldisc_input(struct ldisc *l, unsigned char c)
{
	const tcflag_t lf = l->t.c_lflag, inf = l->t.c_iflag;
	const cc_t *cc = l->t.c_cc;
	bool after_cr = l->last_cr;
	bool echo_on = lf & ECHO;

	if (inf & ISTRIP)
		c &= 0x7f;
	if (lf & ISIG) {            /* a _POSIX_VDISABLE (0) char never matches */
		if (c && c == cc[VINTR]) {
			signal_char(l, c, SIGINT);
			return false;
		}
		if (c && c == cc[VQUIT]) {
			signal_char(l, c, SIGQUIT);
			return false;
		}
		if (c && c == cc[VSUSP]) {      /* ^Z: stop the foreground job */
			signal_char(l, c, SIGTSTP);
			return false;
		}
	}
	l->last_cr = (c == '\r');
	if (c == '\r') {
		if (inf & IGNCR)
			return false;
		if (inf & ICRNL)
			c = '\n';
	} else if (c == '\n') {
		if ((inf & ICRNL) && (lf & ICANON) && after_cr)
			return false;       /* CR LF from a terminal: one Enter */
		if (inf & INLCR)
			c = '\r';
	}
	if (!(lf & ICANON))
		return raw_input(l, c);

	if (c == '\n') {
		if (!end_line(l, '\n'))
			return false;
		if (echo_on || (lf & ECHONL))
			echo(l, "\n", 1);
		return true;
	}
	if (c && c == cc[VEOF])     /* not echoed, as on Linux */
		return end_line(l, EOF_MARK);
	if ((c && c == cc[VERASE]) || c == CTRL_H) {
		erase_one(l, echo_on && (lf & ECHOE));
		return false;
	}
	if (c && c == cc[VKILL]) {
		bool visual = echo_on && (lf & ECHOE) && (lf & ECHOKE);
		bool any = false;
		while (erase_one(l, visual))
			any = true;
		if (any && echo_on && !visual && (lf & ECHOK))
			echo(l, "\n", 1);
		return false;
	}
	/* other control characters are dropped; a CR that was not
	 * translated (ICRNL off) is kept, as on Linux */
	if (c < ' ' && c != '\t' && c != '\r')
		return false;
	if (l->e - l->r >= TTY_BUF_SIZE - 1)
		return false;           /* full: only a line end still fits */
	put(l, (char)c);
	if (echo_on)
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
 * through the discipline in the order they came. In raw mode everything
 * is readable, so a full buffer always waits for a read. */
bool ldisc_throttled(const struct ldisc *l)
{
	if (!canon(l))
		return l->e - l->r >= TTY_BUF_SIZE;
	return l->r != l->w && l->e - l->r >= TTY_BUF_SIZE - 1;
}

/* Stops after a signal character too: the caller sends it before more
 * input is taken (so a second ^C is a second signal). */
bool ldisc_receive(struct ldisc *l, int (*next)(void))
{
	bool completed = false;
	int c;

	while (!l->sig && !ldisc_throttled(l) && (c = next()) >= 0)
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

	if (!canon(l)) {
		while (l->r != l->w && got < n)
			dst[got++] = l->buf[l->r++ & MASK];
		return got;
	}
	while (l->r != l->w && got < n) {
		char c = l->buf[l->r++ & MASK];
		if (c == EOF_MARK)
			return got;
		dst[got++] = c;
		if (c == '\n')
			return got;
	}
	if (got > 0 && l->r != l->w && l->buf[l->r & MASK] == EOF_MARK)
		l->r++;
	return got;
}
