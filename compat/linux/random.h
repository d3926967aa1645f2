/* compat/linux/random.h - the kernel's random numbers (compat/linux/random.c). */
#ifndef KERNEL_RANDOM_H
#define KERNEL_RANDOM_H

#include "lib/types.h"

/* n bytes from the ChaCha20 generator, seeded at first use. */
void get_random_bytes(void *buf, size_t n);

#endif
