/* compat/linux/tty.h - the console as processes read it: a line discipline
 * with Linux's termios modes, canonical ("cooked") by default, and the
 * console tty around it (docs/terminal.md).
 *
 * Typed characters are echoed and collected into a line that can still
 * be edited: VERASE (backspace or DEL) erases a character, VKILL (Ctrl-U)
 * the whole line. Enter (CR or LF; CR LF counts once) completes the line,
 * which a read then gets with its '\n'. VEOF (Ctrl-D) completes the line
 * without a newline: at the start of a line, a read returns 0 (end of
 * file); after some characters, a read returns those. A read returns at
 * most one line; what does not fit in its buffer stays for the next.
 *
 * The discipline itself (struct ldisc) is plain data and functions of it,
 * with no locking and no hardware, so ktest_tty*.c feed it bytes and
 * read lines back. tty.c wraps one around the console: the COM1
 * interrupt feeds it (console_set_rx_hook) and wakes readers sleeping on
 * a wait queue.
 *
 * Input is flow controlled, not dropped: when the buffer is full and
 * holds a complete line that no one has read yet, the discipline takes no
 * more bytes (ldisc_throttled); they wait in the console's ring and then in
 * the UART, whose receive interrupt console.c masks, so a paste or a
 * `make run < script` far ahead of the reader loses nothing. A read that
 * makes room takes them in. Only a single line longer than the buffer
 * loses bytes: what does not fit in it is dropped (as on Linux), the
 * line end is kept.
 *
 * The modes are Linux's termios (lib/termbits.h), set with TCSETS on the
 * console: ICANON off makes it raw, every byte readable as it comes
 * (VMIN/VTIME are the reader's business: tty_console.c); ECHO, ECHOE,
 * ECHOK, ECHONL choose what is echoed; ICRNL, INLCR, IGNCR translate
 * input; ISIG turns VINTR and VQUIT into signals (l->sig: the caller sends
 * them to the foreground process group) after flushing the input.
 *
 * Differences from Linux's n_tty, each for simplicity: in canonical mode
 * control characters other than the special ones are dropped (not
 * stored, not echoed as ^X); CR LF counts as one Enter while ICRNL is on;
 * VERASE erases one UTF-8 character but always one column (a tab too);
 * no IXON flow control, VWERASE, VLNEXT, VREPRINT or VEOL. */
#ifndef KERNEL_TTY_H
#define KERNEL_TTY_H

#include "lib/types.h"
#include "lib/termbits.h"

#define CTRL_H  0x08        /* backspace erases too, as well as c_cc[VERASE] */
#define EOF_MARK 0x04       /* stored for VEOF in the buffer (never read) */

#define TTY_BUF_SIZE 512    /* a power of two: indices wrap with a mask */

/* The echo: where the discipline sends what the user should see. */
typedef void (*ldisc_echo_fn)(void *ctx, const char *s, size_t n);

/* buf is a ring; r <= w <= e are free-running indices into it:
 *   [r, w)  complete lines, for readers; each ends in '\n' or VEOF
 *           (stored as a mark; a read never returns it)
 *   [w, e)  the line being typed, still editable. */
struct ldisc {
	char buf[TTY_BUF_SIZE];
	uint32_t r, w, e;
	bool last_cr;               /* the previous byte was CR: skip one LF */
	struct termios t;           /* the modes (ldisc_init: Linux's defaults) */
	int sig;                    /* ISIG: a signal for the caller to send */
	ldisc_echo_fn echo;
	void *echo_ctx;
};

void ldisc_init(struct ldisc *l, ldisc_echo_fn echo, void *ctx);
/* New modes (TCSETS). Leaving canonical mode makes the line being typed
 * readable at once, as on Linux. */
void ldisc_set_termios(struct ldisc *l, const struct termios *t);
/* Drops all input, typed and complete (TCSETSF, and ISIG's flush). */
void ldisc_flush(struct ldisc *l);
/* How many bytes a read could take now (FIONREAD). */
size_t ldisc_available(const struct ldisc *l);
/* One received byte; true when it made something readable (wake the
 * readers). A VINTR or VQUIT under ISIG sets l->sig. */
bool ldisc_input(struct ldisc *l, unsigned char c);
/* Is a complete line (or an end of file) waiting? */
bool ldisc_readable(const struct ldisc *l);
/* Canonical: takes up to n bytes of the first complete line into dst;
 * raw: up to n of the bytes received. Returns how many (0: end of file,
 * or nothing readable). */
size_t ldisc_read(struct ldisc *l, char *dst, size_t n);
/* Must the next byte wait? True while the buffer is full and a read will
 * make room (a complete line waits). */
bool ldisc_throttled(const struct ldisc *l);
/* Feeds bytes from next() (a byte, or -1 when there are no more) until
 * it has none or the discipline is throttled, so that no byte is taken
 * that would be dropped for want of room. True if a line was completed. */
bool ldisc_receive(struct ldisc *l, int (*next)(void));

/* The console tty (tty_console.c). tty_read is read(2) on it: in
 * canonical mode sleeps (interruptibly) until a line is complete; in raw
 * mode as VMIN and VTIME say. Returns bytes read, 0 at end of file (or a
 * raw read's timeout), -ERESTARTSYS if a signal came first (restart.h),
 * -EFAULT; a process of the console's session outside its foreground
 * group is stopped by SIGTTIN (-ERESTARTSYS), or -EIO (tty_job_check).
 * n > 0. */
long tty_read(uint32_t ubuf, size_t n);
/* poll(2) on the console (compat/linux/fs/poll.c): always writable (output
 * is synchronous); readable when a read would not wait for input, as
 * Linux's n_tty_poll: a complete line in canonical mode, else VMIN bytes
 * (with VTIME 0) or one. */
struct poll_table;
unsigned tty_poll(struct poll_table *pt);
/* Job control for a process that uses the console from outside its
 * foreground group: 0 (go ahead), or its group got sig (SIGTTIN for a
 * read, SIGTTOU for a change of modes or of the foreground group) and
 * -EINTR, or -EIO (a read with SIGTTIN blocked or ignored, an orphaned
 * group). tty_write_check: the same for a write when TOSTOP is set. */
long tty_job_check(int sig);
long tty_write_check(void);
/* Writes to the console with the output modes (OPOST, ONLCR). */
void tty_write(const char *s, size_t n);
/* ioctl(2) on the console: TCGETS, TCSETS, TCSETSW, TCSETSF, TIOCGWINSZ,
 * TIOCSWINSZ, FIONREAD, TIOCGPGRP, TIOCSPGRP, TIOCSCTTY, TIOCGSID;
 * -ENOTTY for anything else. */
long tty_ioctl(unsigned cmd, uint32_t arg);
/* The console's session and foreground group (kernel/init.c: init's). */
void tty_set_session(int sid, int pgrp);
/* The console's foreground process group if sid is its session, else
 * -1 (/proc/PID/stat's tpgid). */
int tty_foreground_of(int sid);
/* Takes over the console's input from the kernel monitor (monitor.c):
 * from now on the COM1 interrupt feeds the line discipline. tty_read
 * calls it; idempotent. */
void tty_attach(void);

#endif
