/* kernel/printf.c - kprintf: lib/format.c's formatter writing to the
 * console, one whole call under the console lock so lines from different
 * CPUs do not interleave. */
#include "kernel/printf.h"
#include "kernel/console.h"

static void emit_console(char c, void *arg)
{
	(void)arg;
	console_putc(c);
}

int vkprintf(const char *fmt, va_list ap)
{
	int n;

	console_lock();
	n = vformat(emit_console, NULL, fmt, ap);
	console_unlock();
	return n;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vkprintf(fmt, ap);
	va_end(ap);
	return n;
}
