/* user/lib/stdio.h - streams on file descriptors (C11 7.21), minimal.
 *
 * stdin, stdout and stderr are the console (abi.md section 1: fd 0
 * reads it, fds 1 and 2 write it), and the console is Spindle's only
 * writable file, so stdout is always a terminal and is LINE BUFFERED:
 * what a call writes is kept until a '\n' goes in (then it leaves, in
 * one write(2), at the end of that call), the buffer fills, fflush(),
 * or exit(). A printf that ends its line is therefore one write, and
 * lines of different processes do not interleave. stderr is unbuffered:
 * every call is written at its end. stdin is line buffered (the tty
 * hands over a line at a time); reading from any stream first flushes
 * stdout, so a prompt shows before the program waits.
 *
 * fopen opens files with C's modes ("r", "w", "a", with "+"); open_memstream
 * writes into memory. The printf
 * conversions are lib/format.h's (no floating point). dprintf writes to
 * a file descriptor directly, bypassing the streams. */
#ifndef USER_STDIO_H
#define USER_STDIO_H

#include "lib/format.h"     /* vsnprintf, snprintf */
#include "sys/types.h"

#define EOF (-1)
#define BUFSIZ 1024
#define PRINTF_BUFSIZE 512  /* dprintf's buffer, on the stack */

/* setvbuf modes, glibc's values. */
#define _IOFBF 0            /* fully buffered */
#define _IOLBF 1            /* line buffered */
#define _IONBF 2            /* unbuffered */

typedef struct spindle_file FILE;

extern FILE *stdin, *stdout, *stderr;

FILE *fopen(const char *path, const char *mode);
/* A stream that writes into memory it allocates (POSIX 2008). After each
 * fflush and at fclose, *buf is the bytes written so far followed by a
 * '\0', and *size their number; after fclose the memory is the caller's
 * (free(*buf)). */
FILE *open_memstream(char **buf, size_t *size);
int fclose(FILE *f);
int rename(const char *from, const char *to);   /* user/lib/files.c */
int remove(const char *path);
int fflush(FILE *f);        /* NULL: every stream */
int setvbuf(FILE *f, char *buf, int mode, size_t size);
void setbuf(FILE *f, char *buf);
int fileno(FILE *f);
int feof(FILE *f);
int ferror(FILE *f);
void clearerr(FILE *f);

int fputc(int c, FILE *f);
int putc(int c, FILE *f);
int putchar(int c);
int fputs(const char *s, FILE *f);
int puts(const char *s);
size_t fwrite(const void *p, size_t size, size_t n, FILE *f);

int fgetc(FILE *f);
int getc(FILE *f);
int getchar(void);
int ungetc(int c, FILE *f);
/* Reads up to n - 1 bytes, to the end of a line ('\n' kept); NULL at
 * end of file (Ctrl-D on the console) with nothing read, or on error. */
char *fgets(char *s, int n, FILE *f);
size_t fread(void *p, size_t size, size_t n, FILE *f);

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap);
int fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vfprintf(FILE *f, const char *fmt, va_list ap);
int sprintf(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vsprintf(char *buf, const char *fmt, va_list ap);
int dprintf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int vdprintf(int fd, const char *fmt, va_list ap);

/* "s: <strerror(errno)>\n" on stderr (just the message if s is NULL or
 * empty). */
void perror(const char *s);

#endif
