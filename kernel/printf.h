/* kernel/printf.h - the kernel's console output. */
#ifndef KERNEL_PRINTF_H
#define KERNEL_PRINTF_H

#include "lib/types.h"
#include "lib/format.h"

/* printf to the console (COM1, mirrored to VGA); conversions as
 * lib/format.h. Whole calls are atomic with respect to each other. */
int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vkprintf(const char *fmt, va_list ap);

#endif
