/* user/lib/printf.c - printf and dprintf on top of lib/format.c's
 * vformat: characters collect in a buffer on the stack and go out with
 * write(2) when it fills and at the end of the call. */
#include "stdio.h"
#include "errno.h"
#include "raw.h"

struct fdbuf {
	int fd;
	int len;
	int error;              /* the first write error, as -errno */
	char buf[PRINTF_BUFSIZE];
};

static void flush(struct fdbuf *b)
{
	const char *p = b->buf;

	while (b->len > 0 && !b->error) {
		long r = raw_write(b->fd, p, (size_t)b->len);
		if (r <= 0) {
			b->error = r ? (int)r : -EIO;
			break;
		}
		p += r;
		b->len -= (int)r;
	}
	b->len = 0;
}

static void emit(char c, void *arg)
{
	struct fdbuf *b = arg;

	if (b->len == PRINTF_BUFSIZE)
		flush(b);
	b->buf[b->len++] = c;
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	struct fdbuf b = { .fd = fd };
	int n = vformat(emit, &b, fmt, ap);

	flush(&b);
	return __syscall_ret(b.error ? b.error : n);
}

int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vdprintf(fd, fmt, ap);
	va_end(ap);
	return n;
}

int vprintf(const char *fmt, va_list ap)
{
	return vdprintf(1, fmt, ap);
}

int printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vdprintf(1, fmt, ap);
	va_end(ap);
	return n;
}

int puts(const char *s)
{
	return printf("%s\n", s) < 0 ? -1 : 0;
}
