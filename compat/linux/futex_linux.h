/* compat/linux/futex_linux.h - the Linux layer's futex helpers for its
 * other parts (compat/linux/futex_linux.c). */
#ifndef COMPAT_LINUX_FUTEX_LINUX_H
#define COMPAT_LINUX_FUTEX_LINUX_H

#include "lib/types.h"
#include "lib/abi_linux.h"
#include "kernel/futex.h"

/* An atomic compare-and-exchange of the user word (robust futexes):
 * *prev gets what was there; 0, -EINVAL (unaligned) or -EFAULT. */
long futex_cmpxchg(uint32_t uaddr, uint32_t old, uint32_t new, uint32_t *prev);

#endif
