/* user/lib/stdio.c - the streams (stdio.h): buffering, reading and
 * writing, fopen and fclose, and the flush that exit() asks for.
 *
 * The buffering policy lives in two places: __stdio_put stores a byte
 * (writing the buffer out first when it is full) and notes a '\n' in a
 * line-buffered stream; __stdio_end_write, at the end of every public
 * writing call, writes the buffer out if the stream is unbuffered or
 * such a '\n' went in. So an unbuffered stream still makes one write(2)
 * per call, and a line-buffered one per call that ends a line.
 *
 * Locks: each stream has its own, and the list of streams one more. Two
 * are held at once only in this order: the list, then a writing stream
 * (fflush(NULL), fork); a reading stream, then stdout (refill); a
 * memory stream, then malloc's (growing its buffer). fork() takes the
 * list's and every writing stream's (stdio_prepare, below). */
#include "stdio_impl.h"
#include "atfork.h"
#include "stdio_ext.h"
#include "stdlib.h"
#include "string.h"
#include "errno.h"
#include "fcntl.h"
#include "unistd.h"
#include "raw.h"

static char stdin_buf[BUFSIZ], stdout_buf[BUFSIZ], stderr_buf[PRINTF_BUFSIZE];

static struct spindle_file stderr_file = {
	.fd = 2, .flags = F_WRITE, .mode = _IONBF,
	.buf = stderr_buf, .size = sizeof(stderr_buf),
};
static struct spindle_file stdout_file = {
	.fd = 1, .flags = F_WRITE, .mode = _IOLBF,
	.buf = stdout_buf, .size = sizeof(stdout_buf), .next = &stderr_file,
};
static struct spindle_file stdin_file = {
	.fd = 0, .flags = F_READ, .mode = _IOLBF,
	.buf = stdin_buf, .size = sizeof(stdin_buf), .next = &stdout_file,
};

FILE *stdin = &stdin_file, *stdout = &stdout_file, *stderr = &stderr_file;

/* The list of open streams, newest first (stdin, stdout, stderr last). */
static FILE *streams = &stdin_file;
static libc_lock_t streams_lock = LIBC_LOCK_INIT;

/* ---- writing ---- */

/* A memory stream's buffer, at least need bytes; the caller holds f's
 * lock. 0, or EOF (ENOMEM) with the stream as it was. */
static int mem_grow(FILE *f, size_t need)
{
	size_t size = f->size;
	char *buf;

	while (size < need)
		size = size > ((size_t)-1) / 2 ? need : size * 2;
	buf = realloc(f->buf, size);
	if (!buf) {
		errno = ENOMEM;
		f->flags |= F_ERR;
		return EOF;
	}
	f->buf = buf;
	f->size = size;
	return 0;
}

/* A memory stream's flush: the caller learns where its bytes are now
 * (the buffer moves as it grows), followed by a '\0' (POSIX). */
static int mem_publish(FILE *f)
{
	if (f->wlen == f->size && mem_grow(f, f->wlen + 1))
		return EOF;
	f->buf[f->wlen] = '\0';
	*f->mem_buf = f->buf;
	*f->mem_size = f->wlen;
	f->flush_due = false;
	return 0;
}

int __stdio_flush(FILE *f)
{
	const char *p = f->buf;
	size_t left = f->wlen;

	if (f->flags & F_MEM)
		return mem_publish(f);
	f->wlen = 0;
	f->flush_due = false;
	while (left > 0) {
		long r = raw_write(f->fd, p, left);
		if (r <= 0) {           /* what is left is lost, as in glibc */
			errno = r ? (int)-r : EIO;
			f->flags |= F_ERR;
			return EOF;
		}
		p += r;
		left -= (size_t)r;
	}
	return 0;
}

int __stdio_put(FILE *f, char c)
{
	if (!(f->flags & F_WRITE)) {
		errno = EBADF;
		f->flags |= F_ERR;
		return EOF;
	}
	if (f->rpos < f->rlen) {
		/* "+" streams: writing after reading starts where the
		 * program is, not where the read-ahead left the fd. */
		lseek(f->fd, -(off_t)(f->rlen - f->rpos), SEEK_CUR);
		f->rpos = f->rlen = 0;
	}
	if (f->wlen == f->size &&
	    ((f->flags & F_MEM) ? mem_grow(f, f->size + 1) : __stdio_flush(f)))
		return EOF;
	f->buf[f->wlen++] = c;
	if (c == '\n' && f->mode == _IOLBF)
		f->flush_due = true;
	return (unsigned char)c;
}

int __stdio_end_write(FILE *f)
{
	if (f->wlen && (f->mode == _IONBF || f->flush_due))
		return __stdio_flush(f);
	return 0;
}

int fputc(int c, FILE *f)
{
	int r;

	libc_lock(&f->lock);
	r = __stdio_put(f, (char)c);
	if (__stdio_end_write(f))
		r = EOF;
	libc_unlock(&f->lock);
	return r;
}

int putc(int c, FILE *f)
{
	return fputc(c, f);
}

int putchar(int c)
{
	return fputc(c, stdout);
}

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	const char *s = p;
	size_t total, i;

	if (size == 0 || n == 0)
		return 0;
	total = size * n;
	if (total / size != n) {
		errno = EINVAL;
		return 0;
	}
	libc_lock(&f->lock);
	for (i = 0; i < total; i++)
		if (__stdio_put(f, s[i]) == EOF)
			break;
	if (__stdio_end_write(f))
		i = 0;
	libc_unlock(&f->lock);
	return i / size;
}

int fputs(const char *s, FILE *f)
{
	size_t n = strlen(s);

	return n == 0 || fwrite(s, 1, n, f) == n ? 0 : EOF;
}

/* The line and its '\n' in one call, so in one write(2). */
int puts(const char *s)
{
	int r = 0;

	libc_lock(&stdout->lock);
	for (; *s && r != EOF; s++)
		r = __stdio_put(stdout, *s);
	if (r != EOF)
		r = __stdio_put(stdout, '\n');
	if (__stdio_end_write(stdout))
		r = EOF;
	libc_unlock(&stdout->lock);
	return r == EOF ? EOF : 0;
}

int fflush(FILE *f)
{
	int r = 0;

	if (!f) {
		/* Writing streams only: a reader may sit in read(2) on the
		 * console, holding its stream's lock, for as long as the
		 * user likes. */
		libc_lock(&streams_lock);
		for (f = streams; f; f = f->next)
			if ((f->flags & F_WRITE) && fflush(f))
				r = EOF;
		libc_unlock(&streams_lock);
		return r;
	}
	libc_lock(&f->lock);
	if ((f->flags & F_WRITE) && f->wlen)
		r = __stdio_flush(f);
	libc_unlock(&f->lock);
	return r;
}

/* exit() calls this (a weak reference in exit.c). */
void __stdio_exit(void)
{
	fflush(NULL);
}

/* fork (atfork.h). Taken: the list and every writing stream, in the
 * order fflush(NULL) takes them, so the child gets each buffer whole
 * and its exit() can flush them all. Not taken: reading streams' locks,
 * which a reader holds through read(2) on the console for as long as the
 * user types nothing (fork would wait for the user); as glibc does for
 * every stream, the child merely resets those. A reader refills only an
 * empty buffer, so the child at worst sees it empty and reads again.
 * (F_WRITE is set when a stream is made and never changes: reading it
 * without the stream's lock is safe, as in fflush(NULL).) */
static void stdio_prepare(void)
{
	libc_lock(&streams_lock);
	for (FILE *f = streams; f; f = f->next)
		if (f->flags & F_WRITE)
			libc_lock(&f->lock);
}

static void stdio_parent(void)
{
	for (FILE *f = streams; f; f = f->next)
		if (f->flags & F_WRITE)
			libc_unlock(&f->lock);
	libc_unlock(&streams_lock);
}

static void stdio_child(void)
{
	for (FILE *f = streams; f; f = f->next)
		f->lock = LIBC_LOCK_INIT;
	streams_lock = LIBC_LOCK_INIT;
}

const struct __atfork_handlers __stdio_atfork = { stdio_prepare, stdio_parent, stdio_child };

/* ---- reading ---- */

/* Gets more bytes into an empty buffer: 1 if some came, 0 at end of
 * file, EOF on error. Flushes stdout first, so that what the program
 * printed (a prompt) shows before it waits for input. */
static int refill(FILE *f)
{
	long r;

	if (f->flags & F_EOF)
		return 0;
	if (f != stdout) {
		libc_lock(&stdout->lock);
		if (stdout->wlen)
			__stdio_flush(stdout);
		libc_unlock(&stdout->lock);
	}
	r = raw_read(f->fd, f->buf, f->size);
	if (r < 0) {
		errno = (int)-r;
		f->flags |= F_ERR;
		return EOF;
	}
	f->rpos = 0;
	f->rlen = (size_t)r;
	if (r == 0) {
		f->flags |= F_EOF;
		return 0;
	}
	return 1;
}

/* The next byte, or EOF (end of file or error); the caller locks. */
static int get_unlocked(FILE *f)
{
	if (!(f->flags & F_READ)) {
		errno = EBADF;
		f->flags |= F_ERR;
		return EOF;
	}
	if ((f->flags & F_WRITE) && f->wlen && __stdio_flush(f))
		return EOF;             /* "+": reading after writing */
	if (f->rpos == f->rlen && refill(f) != 1)
		return EOF;
	return (unsigned char)f->buf[f->rpos++];
}

int fgetc(FILE *f)
{
	int c;

	libc_lock(&f->lock);
	c = get_unlocked(f);
	libc_unlock(&f->lock);
	return c;
}

int getc(FILE *f)
{
	return fgetc(f);
}

int getchar(void)
{
	return fgetc(stdin);
}

/* One byte of push-back at least (C11 7.21.7.10); clears end-of-file. */
int ungetc(int c, FILE *f)
{
	int r = EOF;

	if (c == EOF)
		return EOF;
	libc_lock(&f->lock);
	if ((f->flags & F_READ) && f->size) {
		if (f->rpos == f->rlen)
			f->rpos = f->rlen = f->size;
		if (f->rpos > 0) {
			f->buf[--f->rpos] = (char)c;
			f->flags &= ~F_EOF;
			r = (unsigned char)c;
		}
	}
	libc_unlock(&f->lock);
	return r;
}

char *fgets(char *s, int n, FILE *f)
{
	int i = 0, c = 0;

	if (n <= 0)
		return NULL;
	libc_lock(&f->lock);
	while (i < n - 1 && (c = get_unlocked(f)) != EOF) {
		s[i++] = (char)c;
		if (c == '\n')
			break;
	}
	libc_unlock(&f->lock);
	/* Nothing read before the end, or an error: NULL (C11 7.21.7.2). */
	if (i == 0 && n > 1)
		return NULL;
	if (c == EOF && (f->flags & F_ERR))
		return NULL;
	s[i] = '\0';
	return s;
}

size_t fread(void *p, size_t size, size_t n, FILE *f)
{
	char *d = p;
	size_t total, i = 0;

	if (size == 0 || n == 0)
		return 0;
	total = size * n;
	if (total / size != n) {
		errno = EINVAL;
		return 0;
	}
	libc_lock(&f->lock);
	while (i < total) {
		int c = get_unlocked(f);
		if (c == EOF)
			break;
		d[i++] = (char)c;
	}
	libc_unlock(&f->lock);
	return i / size;
}

/* ---- the stream itself ---- */

/* C11 7.21.5.3's modes: "r" reads, "w" empties or creates and writes,
 * "a" appends (every write at the end: O_APPEND); "+" both reads and
 * writes; 'b' means nothing; 'e' is O_CLOEXEC and 'x' O_EXCL (glibc's). */
FILE *fopen(const char *path, const char *mode)
{
	int flags, fd;
	unsigned rw;
	FILE *f;

	switch (mode[0]) {
	case 'r': flags = O_RDONLY; rw = F_READ; break;
	case 'w': flags = O_WRONLY | O_CREAT | O_TRUNC; rw = F_WRITE; break;
	case 'a': flags = O_WRONLY | O_CREAT | O_APPEND; rw = F_WRITE; break;
	default:
		errno = EINVAL;
		return NULL;
	}
	for (const char *m = mode + 1; *m; m++) {
		if (*m == '+') {
			flags = (flags & ~O_ACCMODE) | O_RDWR;
			rw = F_READ | F_WRITE;
		} else if (*m == 'e') {
			flags |= O_CLOEXEC;
		} else if (*m == 'x') {
			flags |= O_EXCL;
		}
	}
	fd = open(path, flags, 0666);
	if (fd < 0)
		return NULL;
	f = calloc(1, sizeof(*f) + BUFSIZ);
	if (!f) {
		close(fd);
		return NULL;
	}
	f->fd = fd;
	f->flags = rw | F_ALLOC;
	f->mode = _IOFBF;
	f->buf = (char *)(f + 1);
	f->size = BUFSIZ;
	libc_lock(&streams_lock);
	f->next = streams;
	streams = f;
	libc_unlock(&streams_lock);
	return f;
}

#define MEMSTREAM_START 128     /* the first buffer; it doubles as it fills */

FILE *open_memstream(char **buf, size_t *size)
{
	FILE *f;

	if (!buf || !size) {
		errno = EINVAL;
		return NULL;
	}
	f = calloc(1, sizeof(*f));
	if (!f || !(f->buf = malloc(MEMSTREAM_START))) {
		free(f);
		errno = ENOMEM;
		return NULL;
	}
	f->fd = -1;
	f->flags = F_WRITE | F_MEM | F_ALLOC;
	f->mode = _IOFBF;
	f->size = MEMSTREAM_START;
	f->mem_buf = buf;
	f->mem_size = size;
	mem_publish(f);         /* "" from the start: fflush with nothing written */
	libc_lock(&streams_lock);
	f->next = streams;
	streams = f;
	libc_unlock(&streams_lock);
	return f;
}

int fclose(FILE *f)
{
	int r = fflush(f);

	libc_lock(&streams_lock);
	for (FILE **link = &streams; *link; link = &(*link)->next)
		if (*link == f) {
			*link = f->next;
			break;
		}
	libc_unlock(&streams_lock);
	/* A memory stream has no file, and its buffer is now the caller's. */
	if (!(f->flags & F_MEM) && close(f->fd) < 0)
		r = EOF;
	if (f->flags & F_ALLOC)
		free(f);
	return r;
}

/* Only the mode can change (and the buffer, when one is given, except
 * for a memory stream, whose buffer is its output); call it before any
 * I/O on f, as C requires. */
int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	if (mode != _IOFBF && mode != _IOLBF && mode != _IONBF)
		return -1;
	libc_lock(&f->lock);
	if (f->flags & F_WRITE && f->wlen)
		__stdio_flush(f);
	f->mode = mode;
	if (buf && size > 0 && f->rpos == f->rlen && !(f->flags & F_MEM)) {
		f->buf = buf;
		f->size = size;
		f->rpos = f->rlen = 0;
	}
	libc_unlock(&f->lock);
	return 0;
}

void setbuf(FILE *f, char *buf)
{
	setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ);
}

int fileno(FILE *f) { return f->fd; }
int feof(FILE *f) { return !!(f->flags & F_EOF); }
int ferror(FILE *f) { return !!(f->flags & F_ERR); }
void clearerr(FILE *f) { f->flags &= ~(F_EOF | F_ERR); }
/* A memory stream's bytes are where they are going already. */
size_t __fpending(FILE *f) { return (f->flags & (F_WRITE | F_MEM)) == F_WRITE ? f->wlen : 0; }
int __flbf(FILE *f) { return f->mode == _IOLBF; }

void perror(const char *s)
{
	const char *msg = strerror(errno);

	if (s && *s)
		fprintf(stderr, "%s: %s\n", s, msg);
	else
		fprintf(stderr, "%s\n", msg);
}
