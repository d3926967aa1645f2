/* user/lib/printf.c - the printf family on top of lib/format.c's
 * vformat: into a stream (printf, fprintf, ...: the characters go
 * through the stream's buffer, stdio.c), into memory (sprintf; snprintf
 * and vsnprintf are lib/format.c's), or straight to a file descriptor
 * (dprintf: a buffer on the stack, written out when it fills and at the
 * end of the call). */
#include "stdio_impl.h"
#include "errno.h"
#include "limits.h"
#include "raw.h"

/* ---- into a stream ---- */

struct stream_sink {
	FILE *f;
	bool failed;
};

static void stream_emit(char c, void *arg)
{
	struct stream_sink *s = arg;

	if (!s->failed && __stdio_put(s->f, c) == EOF)
		s->failed = true;
}

/* The whole call under the stream's lock: the output of two threads'
 * printf calls never mixes within a line. */
int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	struct stream_sink s = { f, false };
	int n;

	libc_lock(&f->lock);
	n = vformat(stream_emit, &s, fmt, ap);
	if (__stdio_end_write(f))
		s.failed = true;
	libc_unlock(&f->lock);
	return s.failed ? -1 : n;
}

int fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

int vprintf(const char *fmt, va_list ap)
{
	return vfprintf(stdout, fmt, ap);
}

int printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- into memory ---- */

/* No size is given: the caller promises the room (C11 7.21.6.6). */
int vsprintf(char *buf, const char *fmt, va_list ap)
{
	return vsnprintf(buf, INT_MAX, fmt, ap);
}

int sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsprintf(buf, fmt, ap);
	va_end(ap);
	return n;
}

/* ---- straight to a file descriptor ---- */

struct fdbuf {
	int fd;
	int len;
	int error;              /* the first write error, as -errno */
	char buf[PRINTF_BUFSIZE];
};

static void fd_flush(struct fdbuf *b)
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

static void fd_emit(char c, void *arg)
{
	struct fdbuf *b = arg;

	if (b->len == PRINTF_BUFSIZE)
		fd_flush(b);
	b->buf[b->len++] = c;
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	struct fdbuf b = { .fd = fd };
	int n = vformat(fd_emit, &b, fmt, ap);

	fd_flush(&b);
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
