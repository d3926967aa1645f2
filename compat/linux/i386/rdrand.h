/* compat/linux/i386/rdrand.h - the CPU's random-number instruction, for the
 * kernel's generator (compat/linux/random.c).
 *
 * RDRAND (Intel SDM Vol. 1, 7.3.17) returns 32 random bits from the
 * CPU's own entropy source and sets CF when it did; it exists when
 * CPUID.01H:ECX bit 30 says so (QEMU's qemu32 has none, -cpu max has
 * it under TCG). */
#ifndef ARCH_I386_RDRAND_H
#define ARCH_I386_RDRAND_H

#include "lib/types.h"

#define CPUID_1_ECX_RDRAND (1u << 30)

static inline bool cpu_has_rdrand(void)
{
	uint32_t a = 1, b, c = 0, d;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return c & CPUID_1_ECX_RDRAND;
}

/* One RDRAND; false if the CPU had no value ready (CF clear: retry). */
static inline bool rdrand32(uint32_t *v)
{
	uint8_t ok;

	__asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok) : : "cc");
	return ok;
}

#endif
