/* kernel/console.h - the console: COM1 both ways, mirrored to VGA text.
 *
 * Output goes to the UART (polled: the transmitter holding register is
 * written when empty) and to the VGA screen. Input is interrupt driven:
 * the COM1 IRQ handler moves received bytes into a ring buffer that
 * console_trygetc() takes from (the console file, console_file.c; the
 * kernel monitor, which sleeps with hlt while it is empty). */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include "lib/types.h"

void console_init(void);            /* UART + VGA, polled output only */
void console_enable_input(void);    /* after the IDT: the COM1 IRQ */
void console_putc(char c);
void console_write(const char *s, size_t n);   /* '\n' as CR LF */
void console_write_raw(const char *s, size_t n);   /* no translation */
int console_trygetc(void);          /* -1 when nothing is buffered */
void console_flush(void);           /* wait until the UART has sent it all */
/* hook() runs in the COM1 interrupt after new bytes were buffered; it may
 * drain them with console_trygetc (the console file does, for processes). */
void console_set_rx_hook(void (*hook)(void));

/* The console as an open file of the seed kernel (kernel/console_file.c):
 * lines edited as typed, written whole. */
struct file;
struct user_iovec;
struct file *console_file_new(void);
/* writev to the console: the user's vectors gathered a chunk at a time,
 * each chunk handed to out (which takes the console lock); the bytes
 * written or -EFAULT. The Linux layer's terminal writes through it too. */
long console_writev_with(const struct user_iovec *iov, int nr,
			 void (*out)(const char *s, size_t n));

/* Serialises whole kprintf calls (and panic output) across CPUs. */
void console_lock(void);
void console_unlock(void);
/* From now on output ignores the lock (panic.c). */
void console_panic_mode(void);

#endif
