/* user/lib/stdio_impl.h - inside a stdio stream (stdio.c, printf.c).
 *
 * A stream reads or writes; a "+" stream does both, one at a time: a
 * write first gives back the unread read-ahead (lseek), a read first
 * flushes what was written. Its buffer holds, when writing, the
 * bytes not yet written: buf[0, wlen); when reading, the bytes not yet
 * consumed: buf[rpos, rlen). A memory stream (open_memstream, F_MEM) has
 * no file: its buffer is the memory the caller gets, buf[0, wlen) is
 * everything written so far, and "flushing" only tells the caller where
 * that is (*mem_buf, *mem_size) and puts a '\0' after it. */
#ifndef USER_STDIO_IMPL_H
#define USER_STDIO_IMPL_H

#include "stdio.h"
#include "lock.h"

#define F_READ   0x01
#define F_WRITE  0x02
#define F_EOF    0x04       /* sticky end-of-file indicator (C11 7.21.7.1) */
#define F_ERR    0x08       /* error indicator */
#define F_ALLOC  0x10       /* the FILE (and a file's buffer) came from malloc */
#define F_MEM    0x20       /* open_memstream: the buffer is the output */

struct spindle_file {
	int fd;
	unsigned flags;
	int mode;               /* _IOFBF, _IOLBF or _IONBF */
	char *buf;
	size_t size;
	size_t wlen;
	size_t rpos, rlen;
	bool flush_due;         /* a '\n' went into a line-buffered stream */
	libc_lock_t lock;
	struct spindle_file *next;      /* every open stream, for fflush(NULL) */
	char **mem_buf;                 /* F_MEM: where the caller reads the buffer */
	size_t *mem_size;               /* ... and its length */
};

/* The unlocked steps; the caller holds f->lock. */
int __stdio_put(FILE *f, char c);               /* c, or EOF */
int __stdio_end_write(FILE *f);                 /* 0, or EOF */
int __stdio_flush(FILE *f);                     /* 0, or EOF */

#endif
