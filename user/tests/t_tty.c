/* user/tests/t_tty.c - the console as a terminal (tty.h): termios through
 * ioctl (TCGETS, TCSETS*, Linux i386's layout and defaults), window size,
 * FIONREAD, every error path (-ENOTTY, -EFAULT, -EINVAL), raw reads that
 * need no input (VMIN 0), and the libc's <termios.h>. Process groups and
 * sessions are t_tty_pgrp.c; reads of typed input are driven through the
 * console by tests/console_tty.py (this program with `-- raw`). */
#define T_PROG "t_tty"
#include "t.h"
#include "termios.h"
#include "signal.h"
#include "unistd.h"
#include "fcntl.h"
#include "time.h"
#include "sys/ioctl.h"

#define KERNEL_PTR 0xc0000000ul

static struct termios saved;

static void restore(void)
{
	raw_ioctl(0, TCSETS, (long)&saved);
}

TEST(tcgets_linux_defaults)
{
	struct termios t;

	memset(&t, 0xaa, sizeof(t));
	EXPECT_EQ(raw_ioctl(0, TCGETS, (long)&t), 0);
	EXPECT_EQ(sizeof(t), 36);
	EXPECT_EQ(t.c_iflag, ICRNL | IXON);
	EXPECT_EQ(t.c_oflag, OPOST | ONLCR);
	EXPECT_EQ(t.c_cflag, B38400 | CS8 | CREAD | HUPCL);
	EXPECT_EQ(t.c_lflag, 0x8a3b);   /* ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN */
	EXPECT_EQ(t.c_cc[VINTR], 3);
	EXPECT_EQ(t.c_cc[VQUIT], 0x1c);
	EXPECT_EQ(t.c_cc[VERASE], 0x7f);
	EXPECT_EQ(t.c_cc[VKILL], 0x15);
	EXPECT_EQ(t.c_cc[VEOF], 4);
	EXPECT_EQ(t.c_cc[VMIN], 1);
	EXPECT_EQ(t.c_cc[VTIME], 0);
	EXPECT_EQ(t.c_line, 0);
}

TEST(tcsets_round_trip)
{
	static const unsigned cmds[] = { TCSETS, TCSETSW, TCSETSF };
	struct termios t, back;

	for (unsigned i = 0; i < 3; i++) {
		t = saved;
		t.c_lflag &= ~(tcflag_t)(ECHO | ICANON);
		t.c_cc[VMIN] = (cc_t)(5 + i);
		t.c_cc[VTIME] = 7;
		EXPECT_EQ(raw_ioctl(0, cmds[i], (long)&t), 0);
		EXPECT_EQ(raw_ioctl(0, TCGETS, (long)&back), 0);
		EXPECT(memcmp(&t, &back, sizeof(t)) == 0, "TCSETS %x did not stick", cmds[i]);
	}
	restore();
	EXPECT_EQ(raw_ioctl(0, TCGETS, (long)&back), 0);
	EXPECT(memcmp(&saved, &back, sizeof(back)) == 0, "not restored");
}

TEST(efault)
{
	static const unsigned cmds[] = {
		TCGETS, TCSETS, TCSETSW, TCSETSF, TIOCGWINSZ, TIOCSWINSZ,
		FIONREAD, TIOCGPGRP, TIOCSPGRP, TIOCGSID,
	};

	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		EXPECT_EQ(raw_ioctl(0, cmds[i], 0), -EFAULT);
		EXPECT_EQ(raw_ioctl(0, cmds[i], (long)KERNEL_PTR), -EFAULT);
	}
	/* a write that fails changed nothing */
	struct termios t;
	EXPECT_EQ(raw_ioctl(0, TCGETS, (long)&t), 0);
	EXPECT(memcmp(&saved, &t, sizeof(t)) == 0, "modes changed by a failed call");
}

TEST(enotty)
{
	int fds[2], fd = raw_open("/etc/motd", O_RDONLY);
	struct termios t;

	EXPECT(fd >= 0, "open /etc/motd: %d", fd);
	EXPECT_EQ(raw_ioctl(fd, TCGETS, (long)&t), -ENOTTY);
	EXPECT_EQ(raw_ioctl(fd, TIOCGPGRP, (long)&fd), -ENOTTY);
	EXPECT_EQ(raw_pipe(fds), 0);
	EXPECT_EQ(raw_ioctl(fds[0], TCGETS, (long)&t), -ENOTTY);
	EXPECT_EQ(raw_ioctl(0, 0x5499, 0), -ENOTTY);   /* no such request */
	EXPECT_EQ(raw_ioctl(77, TCGETS, (long)&t), -EBADF);
	errno = 0;
	EXPECT_EQ(isatty(fds[1]), 0);
	EXPECT_EQ(errno, ENOTTY);
	EXPECT_EQ(isatty(0), 1);
	EXPECT_EQ(isatty(2), 1);
	raw_close(fds[0]);
	raw_close(fds[1]);
	raw_close(fd);
}

static volatile int winches;
static void on_winch(int sig) { (void)sig; winches++; }

TEST(window_size)
{
	struct winsize ws, big = { .ws_row = 50, .ws_col = 132 };

	EXPECT_EQ(raw_ioctl(0, TIOCGWINSZ, (long)&ws), 0);
	EXPECT_EQ(ws.ws_row, 24);
	EXPECT_EQ(ws.ws_col, 80);
	EXPECT(signal(SIGWINCH, on_winch) != SIG_ERR, "signal");
	EXPECT_EQ(ioctl(0, TIOCSWINSZ, &big), 0);
	EXPECT_EQ(winches, 1);          /* we are the foreground group */
	EXPECT_EQ(ioctl(0, TIOCSWINSZ, &big), 0);
	EXPECT_EQ(winches, 1);          /* the same size: no signal */
	EXPECT_EQ(ioctl(0, TIOCGWINSZ, &ws), 0);
	EXPECT_EQ(ws.ws_row, 50);
	EXPECT_EQ(ws.ws_col, 132);
	ws.ws_row = 24;
	ws.ws_col = 80;
	EXPECT_EQ(ioctl(0, TIOCSWINSZ, &ws), 0);
	signal(SIGWINCH, SIG_DFL);
}

TEST(fionread_empty)
{
	int n = -1;

	EXPECT_EQ(raw_ioctl(0, FIONREAD, (long)&n), 0);
	EXPECT_EQ(n, 0);
}

static long long now_ms(void)
{
	struct timespec ts;

	raw_clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* VMIN 0: a read returns 0 at once (VTIME 0) or after VTIME tenths. */
TEST(raw_vmin0_no_input)
{
	struct termios t = saved;
	char c;
	long long t0;

	t.c_lflag &= ~(tcflag_t)ICANON;
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 0;
	EXPECT_EQ(raw_ioctl(0, TCSETS, (long)&t), 0);
	t0 = now_ms();
	EXPECT_EQ(raw_read(0, &c, 1), 0);
	EXPECT(now_ms() - t0 < 100, "VTIME 0 waited %lld ms", now_ms() - t0);
	t.c_cc[VTIME] = 3;
	EXPECT_EQ(raw_ioctl(0, TCSETS, (long)&t), 0);
	t0 = now_ms();
	long r = raw_read(0, &c, 1);
	long long took = now_ms() - t0;
	restore();
	EXPECT_EQ(r, 0);
	EXPECT(took >= 250 && took < 5000, "VTIME 3 waited %lld ms", took);
}

TEST(libc_termios)
{
	struct termios t;

	EXPECT_EQ(tcgetattr(0, &t), 0);
	EXPECT(memcmp(&saved, &t, sizeof(t)) == 0, "tcgetattr differs from TCGETS");
	cfmakeraw(&t);
	EXPECT_EQ(t.c_lflag & (ECHO | ICANON | ISIG | IEXTEN), 0);
	EXPECT_EQ(t.c_iflag & (ICRNL | IXON), 0);
	EXPECT_EQ(t.c_oflag & OPOST, 0);
	EXPECT_EQ(t.c_cc[VMIN], 1);
	EXPECT_EQ(tcsetattr(0, 3, &t), -1);
	EXPECT_EQ(errno, EINVAL);
	EXPECT_EQ(tcsetattr(0, TCSAFLUSH, &t), 0);
	EXPECT_EQ(tcsetattr(0, TCSANOW, &saved), 0);
	EXPECT_EQ(cfgetospeed(&saved), B38400);
	EXPECT_EQ(tcgetattr(-1, &t), -1);
	EXPECT_EQ(errno, EBADF);
}

/* ---- driven through the console by tests/console_tty.py ---- */

/* Prints prompt, then reads once; the harness types after the prompt. */
static long prompt_read(const char *prompt, char *buf, size_t n)
{
	printf("%s\n", prompt);
	fflush(stdout);
	return raw_read(0, buf, n);
}

static void set_raw(int vmin, int vtime, tcflag_t lflag_off)
{
	struct termios t = saved;

	t.c_lflag &= ~lflag_off;
	t.c_cc[VMIN] = (cc_t)vmin;
	t.c_cc[VTIME] = (cc_t)vtime;
	raw_ioctl(0, TCSETSF, (long)&t);
}

TEST(typed_vmin3)
{
	char b[16];

	set_raw(3, 0, ICANON | ECHO);
	EXPECT_EQ(prompt_read("raw-vmin3>", b, sizeof(b)), 3);
	EXPECT(memcmp(b, "abc", 3) == 0, "read %.3s", b);
}

TEST(typed_vtime_timeout)
{
	char b[16];
	long long t0 = now_ms();

	set_raw(0, 5, ICANON | ECHO);
	EXPECT_EQ(prompt_read("raw-vtime>", b, sizeof(b)), 0);
	EXPECT(now_ms() - t0 >= 400, "returned after %lld ms", now_ms() - t0);
}

/* MIN 5, TIME 3: two bytes come, then nothing: the inter-byte timer
 * returns them. */
TEST(typed_interbyte)
{
	char b[16];

	set_raw(5, 3, ICANON | ECHO);
	EXPECT_EQ(prompt_read("raw-inter>", b, sizeof(b)), 2);
	EXPECT(memcmp(b, "xy", 2) == 0, "read %.2s", b);
}

/* ISIG off: ^C is a byte like another; ICRNL off: CR stays CR. */
TEST(typed_no_isig)
{
	char b[16];
	struct termios t = saved;

	cfmakeraw(&t);
	tcsetattr(0, TCSAFLUSH, &t);
	EXPECT_EQ(prompt_read("raw-noisig>", b, sizeof(b)), 1);
	EXPECT_EQ(b[0], 3);
	EXPECT_EQ(prompt_read("raw-cr>", b, sizeof(b)), 1);
	EXPECT_EQ(b[0], '\r');
}

/* Canonical without ECHO: the line is read, not shown (the harness
 * checks the output); FIONREAD counts what waits. */
TEST(typed_noecho)
{
	char b[32];
	int n = 0;

	set_raw(1, 0, ECHO);            /* ICANON stays */
	printf("canon-noecho>\n");
	fflush(stdout);
	for (int i = 0; i < 200 && n == 0; i++) {
		struct timespec ts = { 0, 10000000 };
		raw_nanosleep(&ts, NULL);
		raw_ioctl(0, FIONREAD, (long)&n);
	}
	EXPECT_EQ(n, 7);
	EXPECT_EQ(raw_read(0, b, sizeof(b)), 7);
	EXPECT(memcmp(b, "secret\n", 7) == 0, "read %.7s", b);
	printf("got=%.6s\n", b);
}

int main(int argc, char **argv)
{
	raw_ioctl(0, TCGETS, (long)&saved);
	if (argc > 1 && strcmp(argv[1], "raw") == 0) {
		RUN(typed_vmin3);
		RUN(typed_vtime_timeout);
		RUN(typed_interbyte);
		RUN(typed_no_isig);
		RUN(typed_noecho);
		restore();
		return t_exit_code();
	}
	RUN(tcgets_linux_defaults);
	RUN(tcsets_round_trip);
	RUN(efault);
	RUN(enotty);
	RUN(window_size);
	RUN(fionread_empty);
	RUN(raw_vmin0_no_input);
	RUN(libc_termios);
	restore();
	return t_exit_code();
}
