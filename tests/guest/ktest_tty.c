/* tests/guest/ktest_tty.c - group tty: the canonical line discipline of
 * the console (compat/linux/tty.h).
 *
 * The discipline is plain data, so these tests type bytes into a private
 * struct ldisc, catch its echo, and read lines back, with no hardware.
 * Reading the real console (sleeping, -EINTR, the COM1 interrupt's hook)
 * needs a process: user-space tests do that. */
#include "tests/guest/ktest.h"
#include "compat/linux/tty.h"
#include "lib/abi_linux.h"
#include "lib/string.h"

static struct ldisc ld;
static struct {
	char buf[2048];
	size_t n;
} echoed;

static void catch_echo(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n && echoed.n < sizeof(echoed.buf) - 1; i++)
		echoed.buf[echoed.n++] = s[i];
	echoed.buf[echoed.n] = '\0';
}

static void ld_reset(void)
{
	ldisc_init(&ld, catch_echo, NULL);
	echoed.n = 0;
	echoed.buf[0] = '\0';
}

/* Types s (a C string: no NUL byte); returns how many lines it completed. */
static int type(const char *s)
{
	int lines = 0;

	while (*s)
		lines += ldisc_input(&ld, (unsigned char)*s++);
	return lines;
}

/* Does a read of n bytes return exactly want (with the length given)? */
static bool reads(size_t n, const char *want, size_t len)
{
	static char buf[TTY_BUF_SIZE + 16];
	size_t got = ldisc_read(&ld, buf, n);

	if (got == len && memcmp(buf, want, len) == 0)
		return true;
	buf[got < sizeof(buf) ? got : sizeof(buf) - 1] = '\0';
	ktest_fail(__FILE__, __LINE__, "read(%u) gave %u bytes \"%s\", not \"%s\"",
		   (unsigned)n, (unsigned)got, buf, want);
	return false;
}
#define READS(n, s) KCHECK(reads((n), (s), sizeof(s) - 1))
#define ECHOED(s) KCHECK(strcmp(echoed.buf, (s)) == 0)

KTEST(tty, ldisc_line_and_echo)
{
	ld_reset();
	KCHECK_EQ(type("abc"), 0);
	KCHECK(!ldisc_readable(&ld));
	ECHOED("abc");
	KCHECK_EQ(type("\r"), 1);
	KCHECK(ldisc_readable(&ld));
	ECHOED("abc\n");
	READS(100, "abc\n");
	KCHECK(!ldisc_readable(&ld));
	KCHECK_EQ(type("\tx y~\n"), 1);         /* tab and printables kept */
	READS(100, "\tx y~\n");
	KCHECK_EQ(type("\x01q\x1b\x02\n"), 1);  /* other controls dropped */
	READS(100, "q\n");
	ECHOED("abc\n\tx y~\nq\n");
}

KTEST(tty, ldisc_erase_and_kill)
{
	ld_reset();
	type("abx\x7f" "c\n");
	READS(100, "abc\n");
	ECHOED("abx\b \bc\n");
	ld_reset();
	type("\x7f\b" "z\x08y\n");              /* nothing to erase, then z */
	READS(100, "y\n");
	ECHOED("z\b \by\n");
	ld_reset();
	type("ab\n\x7f\x7f");                   /* a finished line stays */
	READS(100, "ab\n");
	ECHOED("ab\n");
	ld_reset();
	type("junk\x15" "ok\n");
	READS(100, "ok\n");
	ECHOED("junk\b \b\b \b\b \b\b \bok\n");
	ld_reset();
	type("\xc3\xa9\x7f" "e\n");             /* U+00E9: one character */
	READS(100, "e\n");
	ECHOED("\xc3\xa9\b \be\n");
}

KTEST(tty, ldisc_eof)
{
	ld_reset();
	KCHECK_EQ(type("\x04"), 1);             /* Ctrl-D on an empty line */
	KCHECK(ldisc_readable(&ld));
	READS(10, "");                          /* end of file */
	KCHECK(!ldisc_readable(&ld));
	ECHOED("");
	type("line\n\x04");
	READS(10, "line\n");
	KCHECK(ldisc_readable(&ld));
	READS(10, "");
	KCHECK(!ldisc_readable(&ld));
	/* Mid-line: the partial line, no newline, and no end of file. */
	KCHECK_EQ(type("ab\x04"), 1);
	READS(10, "ab");
	KCHECK(!ldisc_readable(&ld));
	type("ab\x04");
	READS(2, "ab");                         /* exactly: the mark goes too */
	KCHECK(!ldisc_readable(&ld));
	type("ab\x04");
	READS(1, "a");
	READS(1, "b");
	KCHECK(!ldisc_readable(&ld));
	type("ab\x04\x04");                     /* then a real end of file */
	READS(10, "ab");
	KCHECK(ldisc_readable(&ld));
	READS(10, "");
	ECHOED("line\nabababab");
}

KTEST(tty, ldisc_partial_reads_and_line_ends)
{
	ld_reset();
	type("hello\n");
	READS(2, "he");
	KCHECK(ldisc_readable(&ld));
	READS(10, "llo\n");
	type("a\nb\n");                         /* one line per read */
	READS(10, "a\n");
	READS(10, "b\n");
	KCHECK_EQ(type("x\r\ny\n\n\r\r"), 5);   /* CR LF is one Enter */
	READS(10, "x\n");
	READS(10, "y\n");
	READS(10, "\n");
	READS(10, "\n");
	READS(10, "\n");
	KCHECK(!ldisc_readable(&ld));
	KCHECK_EQ(ldisc_read(&ld, (char[4]){0}, 4), 0);     /* nothing there */
}

KTEST(tty, ldisc_full_buffer)
{
	static char want[TTY_BUF_SIZE + 1];

	ld_reset();
	for (int i = 0; i < 600; i++)
		ldisc_input(&ld, 'a');
	KCHECK_EQ(echoed.n, TTY_BUF_SIZE - 1);  /* one slot kept for the end */
	KCHECK_EQ(type("\n"), 1);
	KCHECK_EQ(type("b\n"), 0);              /* no room until a read */
	memset(want, 'a', TTY_BUF_SIZE - 1);
	want[TTY_BUF_SIZE - 1] = '\n';
	KCHECK(reads(TTY_BUF_SIZE + 16, want, TTY_BUF_SIZE));
	KCHECK(!ldisc_readable(&ld));
	/* The ring wraps: many lines through it, in uneven pieces. */
	for (int round = 0; round < 20; round++) {
		char line[100];
		memset(line, 'a' + round % 26, sizeof(line));
		line[sizeof(line) - 2] = '\n';
		line[sizeof(line) - 1] = '\0';
		KCHECK_EQ(type(line), 1);
		KCHECK(reads(37, line, 37));
		KCHECK(reads(37, line + 37, 37));
		KCHECK(reads(37, line + 74, sizeof(line) - 1 - 74));
	}
	KCHECK(!ldisc_readable(&ld));
}

/* ---- the termios modes (lib/termbits.h) ---- */

static void set_modes(tcflag_t iflag_off, tcflag_t lflag_off, tcflag_t lflag_on)
{
	struct termios t = ld.t;

	t.c_iflag &= ~iflag_off;
	t.c_lflag = (t.c_lflag & ~lflag_off) | lflag_on;
	ldisc_set_termios(&ld, &t);
}

KTEST(tty, ldisc_isig_flushes_and_signals)
{
	ld_reset();
	type("half");
	KCHECK_EQ(type("\x03"), 0);
	KCHECK_EQ(ld.sig, SIGINT);
	ECHOED("half^C");
	KCHECK_EQ(ldisc_available(&ld), 0);     /* the line was flushed */
	ld.sig = 0;
	type("x\n");
	KCHECK_EQ(type("\x1c"), 0);             /* ^\ flushes complete lines too */
	KCHECK_EQ(ld.sig, SIGQUIT);
	KCHECK(!ldisc_readable(&ld));
	/* ISIG off: ^C is an ordinary (dropped, canonical) control char */
	ld_reset();
	set_modes(0, ISIG, 0);
	type("a\x03" "b\n");
	KCHECK_EQ(ld.sig, 0);
	READS(16, "ab\n");
	/* NOFLSH: the signal, but the line stays */
	ld_reset();
	set_modes(0, 0, NOFLSH);
	type("keep\x03");
	KCHECK_EQ(ld.sig, SIGINT);
	KCHECK_EQ(type("\n"), 1);
	READS(16, "keep\n");
}

KTEST(tty, ldisc_raw_mode)
{
	ld_reset();
	type("ab");                             /* half a line, then raw */
	set_modes(0, ICANON, 0);
	KCHECK(ldisc_readable(&ld));
	KCHECK_EQ(ldisc_available(&ld), 2);
	KCHECK_EQ(type("\x7f\x04\x15"), 3);     /* no editing: every byte readable */
	KCHECK_EQ(ldisc_available(&ld), 5);
	READS(3, "ab\x7f");
	READS(16, "\x04\x15");
	ECHOED("ab\x7f\x04\x15");
	/* no echo; ECHONL still echoes newlines */
	ld_reset();
	set_modes(0, ICANON | ECHO, ECHONL);
	type("q\rz");
	ECHOED("\n");
	READS(16, "q\nz");
}

KTEST(tty, ldisc_input_translation)
{
	ld_reset();
	set_modes(ICRNL, 0, 0);                 /* CR stays CR, LF ends the line */
	KCHECK_EQ(type("a\rb\n"), 1);
	READS(16, "a\rb\n");
	ld_reset();
	set_modes(ICRNL, 0, 0);
	ld.t.c_iflag |= IGNCR;
	KCHECK_EQ(type("c\r\r\n"), 1);
	READS(16, "c\n");
	ld_reset();
	set_modes(ICRNL, ICANON, 0);
	ld.t.c_iflag |= INLCR;
	type("\n");
	READS(16, "\r");
	/* echo off in canonical mode: editing still works, nothing shown */
	ld_reset();
	set_modes(0, ECHO, 0);
	KCHECK_EQ(type("pw\x7fx\n"), 1);
	ECHOED("");
	READS(16, "px\n");
	/* TCSETSF's flush drops typed and complete input */
	type("one\ntwo");
	ldisc_flush(&ld);
	KCHECK(!ldisc_readable(&ld));
	KCHECK_EQ(type("\n"), 1);
	READS(16, "\n");
}
