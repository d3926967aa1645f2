/* tests/guest/ktest_tty_flow.c - group tty: the discipline's input flow
 * control (compat/linux/tty.h: ldisc_throttled, ldisc_receive).
 *
 * When the buffer is full of complete lines, the console tty takes no
 * more bytes until a read makes room: they wait in the UART instead of
 * being dropped. Here a private struct ldisc is fed from a fake source
 * (standing for the console's ring and the UART behind it) of several
 * times the buffer's size, with reads in between, and every byte must
 * come out, edited, echoed and in order. The path through the real UART
 * is tests/run.py's console.tty_typeahead. */
#include "tests/guest/ktest.h"
#include "compat/linux/tty.h"
#include "lib/string.h"

#define BIG 12288                   /* room for all a test types or echoes */

static struct ldisc ld;

/* The source: src.buf[src.pos..src.len) is still "in the UART". */
static struct {
	char buf[BIG];
	size_t len, pos;
} src;

/* Everything echoed, and everything read back. */
static struct {
	char buf[BIG];
	size_t n;
	bool overflow;
} echoed, got;

static int src_next(void)
{
	return src.pos < src.len ? (unsigned char)src.buf[src.pos++] : -1;
}

static void append(char *buf, size_t *n, bool *overflow, const char *s, size_t len)
{
	if (*n + len > BIG) {
		*overflow = true;
		return;
	}
	memcpy(buf + *n, s, len);
	*n += len;
}

static void catch_echo(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	append(echoed.buf, &echoed.n, &echoed.overflow, s, n);
}

static void reset(void)
{
	ldisc_init(&ld, catch_echo, NULL);
	src.len = src.pos = 0;
	echoed.n = got.n = 0;
	echoed.overflow = got.overflow = false;
}

static void src_add(const char *s)
{
	size_t n = strlen(s);

	if (src.len + n <= sizeof(src.buf)) {
		memcpy(src.buf + src.len, s, n);
		src.len += n;
	}
}

static void src_add_repeat(char c, size_t n)
{
	while (n-- > 0 && src.len < sizeof(src.buf))
		src.buf[src.len++] = c;
}

/* One read of at most n bytes, kept in got; then, as tty_read does, the
 * bytes held back go in. Returns the read's count. */
static size_t read_then_receive(size_t n)
{
	static char buf[TTY_BUF_SIZE];
	size_t r = ldisc_read(&ld, buf, n < sizeof(buf) ? n : sizeof(buf));

	append(got.buf, &got.n, &got.overflow, buf, r);
	ldisc_receive(&ld, src_next);
	return r;
}

KTEST(tty, flow_throttled_only_when_a_read_makes_room)
{
	reset();
	KCHECK(!ldisc_throttled(&ld));
	for (int i = 0; i < TTY_BUF_SIZE - 1; i++)
		ldisc_input(&ld, 'a');
	/* One line fills the buffer: no read can make room, so bytes must
	 * still come in (and be dropped), or Enter could never arrive. */
	KCHECK(!ldisc_throttled(&ld));
	ldisc_input(&ld, 'b');
	KCHECK_EQ(echoed.n, TTY_BUF_SIZE - 1);
	KCHECK_EQ(ldisc_input(&ld, '\n'), 1);
	KCHECK(ldisc_throttled(&ld));           /* full of a complete line */
	KCHECK_EQ(ldisc_read(&ld, got.buf, 100), 100);
	KCHECK(!ldisc_throttled(&ld));

	/* A complete line and a partial one that fill it together. */
	reset();
	ldisc_input(&ld, 'x');
	ldisc_input(&ld, '\n');
	for (int i = 0; i < TTY_BUF_SIZE - 4; i++)
		ldisc_input(&ld, 'y');
	KCHECK(!ldisc_throttled(&ld));          /* one ordinary byte still fits */
	ldisc_input(&ld, 'y');
	KCHECK(ldisc_throttled(&ld));
	KCHECK_EQ(ldisc_read(&ld, got.buf, 100), 2);   /* "x\n" */
	KCHECK(!ldisc_throttled(&ld));
}

/* What must come of the source: read back, and echoed. */
static struct {
	char buf[BIG];
	size_t n;
	bool overflow;
} want, want_echo;

static void expect(const char *read, const char *echo)
{
	append(want.buf, &want.n, &want.overflow, read, strlen(read));
	append(want_echo.buf, &want_echo.n, &want_echo.overflow, echo, strlen(echo));
}

/* Line i: "line-NNN-" and 40 letters, then either a byte and an erase
 * (DEL) or, one line in seven, "oops" and a kill (Ctrl-U) and a retyped
 * start; then "-end\n". */
static void gen_line(int i)
{
	char head[10] = "line-NNN-";
	char body[41];

	head[5] = (char)('0' + i / 100);
	head[6] = (char)('0' + i / 10 % 10);
	head[7] = (char)('0' + i % 10);
	memset(body, 'a' + i % 26, 40);
	body[40] = '\0';
	src_add(head);
	src_add(body);
	if (i % 7) {
		src_add("?\x7f");                /* a typo, erased */
		expect(head, head);
		expect(body, body);
		expect("", "?\b \b");
	} else {
		src_add("oops\x15");             /* the line killed, retyped */
		src_add(head);
		expect("", head);
		expect("", body);
		expect("", "oops");
		for (int k = 0; k < 9 + 40 + 4; k++)
			expect("", "\b \b");
		expect(head, head);
	}
	src_add("-end\n");
	expect("-end\n", "-end\n");
}

/* 100 lines of about 60 bytes and an end of file, eleven times the
 * buffer: ldisc_receive must stop at the full buffer without taking (so
 * without dropping) a byte, and every byte must come out, in order, as
 * reads make room. */
KTEST(tty, flow_receive_holds_back_and_loses_nothing)
{
	static const size_t sizes[] = { 100, 7, 1, TTY_BUF_SIZE, 33, 64 };
	int reads = 0;
	bool eof = false;

	reset();
	want.n = want_echo.n = 0;
	for (int i = 0; i < 100; i++)
		gen_line(i);
	src_add("\x04");
	KCHECK(src.len > 5000 && !want.overflow && !want_echo.overflow);

	ldisc_receive(&ld, src_next);
	KCHECK(src.pos < src.len);              /* it stopped early, */
	KCHECK(ldisc_throttled(&ld));           /* because it was full */
	KCHECK(echoed.n <= want_echo.n);        /* and dropped nothing */
	KCHECK(memcmp(echoed.buf, want_echo.buf, echoed.n) == 0);

	/* Reads of uneven sizes, each followed by what tty_read does then:
	 * take in what waited. */
	while (!eof && reads < 4000) {
		KCHECK(ldisc_readable(&ld));    /* a line is always there */
		eof = read_then_receive(sizes[reads++ % 6]) == 0;
		KCHECK(src.pos == src.len || ldisc_throttled(&ld));
		KCHECK(echoed.n <= want_echo.n);
		KCHECK(memcmp(echoed.buf, want_echo.buf, echoed.n) == 0);
	}
	KCHECK(eof);
	KCHECK_EQ(src.pos, src.len);
	KCHECK(!ldisc_readable(&ld));
	KCHECK(!got.overflow && !echoed.overflow);
	KCHECK_EQ(got.n, want.n);
	KCHECK(memcmp(got.buf, want.buf, want.n) == 0);
	KCHECK_EQ(echoed.n, want_echo.n);
}

/* A line longer than the buffer, then more lines: the long one is cut
 * (its end kept), and what follows is held back, then read, not lost. */
KTEST(tty, flow_long_line_then_more)
{
	static char buf[TTY_BUF_SIZE + 16];

	reset();
	src_add_repeat('a', 600);
	src_add("\nok\n\x04");
	ldisc_receive(&ld, src_next);
	KCHECK_EQ(src.pos, 601);                /* the long line, cut, and its end */
	KCHECK(ldisc_throttled(&ld));
	KCHECK_EQ(ldisc_read(&ld, buf, sizeof(buf)), TTY_BUF_SIZE);
	KCHECK_EQ(buf[TTY_BUF_SIZE - 1], '\n');
	KCHECK(!ldisc_throttled(&ld));
	KCHECK_EQ(ldisc_receive(&ld, src_next), 1);
	KCHECK_EQ(src.pos, src.len);
	KCHECK_EQ(ldisc_read(&ld, buf, sizeof(buf)), 3);
	KCHECK(memcmp(buf, "ok\n", 3) == 0);
	KCHECK(ldisc_readable(&ld));
	KCHECK_EQ(ldisc_read(&ld, buf, sizeof(buf)), 0);     /* end of file */
	KCHECK(!ldisc_readable(&ld));
}
