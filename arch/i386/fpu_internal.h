/* arch/i386/fpu_internal.h - what fpu.c shares with fpu_signal.c (not for
 * the rest of the kernel: it calls fpu.h). */
#ifndef ARCH_I386_FPU_INTERNAL_H
#define ARCH_I386_FPU_INTERNAL_H

#include "arch/i386/fpu.h"
#include "arch/i386/mmu.h"

/* One task's saved registers: the fxsave image where the CPU has FXSR,
 * else the fnsave image (fpu_fxsr says which). 64-byte aligned objects
 * from fpu_cache, so fxsave's 16-byte rule always holds. */
union fpu_area {
	uint8_t fx[FXSAVE_SIZE] __attribute__((aligned(16)));
	uint8_t fn[FNSAVE_SIZE];
};

extern bool fpu_fxsr;
extern uint32_t fpu_mxcsr_mask;         /* the MXCSR bits this CPU has */

/* Little-endian fields of the images, byte-addressed as the SDM's
 * tables give them (the images are not all naturally aligned words). */
static inline uint32_t fx_get32(const uint8_t *p, unsigned off)
{
	return (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 |
	       (uint32_t)p[off + 2] << 16 | (uint32_t)p[off + 3] << 24;
}

static inline void fx_put32(uint8_t *p, unsigned off, uint32_t v)
{
	p[off] = (uint8_t)v;
	p[off + 1] = (uint8_t)(v >> 8);
	p[off + 2] = (uint8_t)(v >> 16);
	p[off + 3] = (uint8_t)(v >> 24);
}

/* Both with interrupts off, on current. fpu_sync_current: a live state
 * is copied to the area (which is then current). fpu_drop_live_current:
 * the registers are no longer the task's (TS set) and no CPU holds a
 * valid copy: the area is about to be changed, or was. */
void fpu_sync_current(void);
void fpu_drop_live_current(void);
size_t fpu_area_size(void);             /* 512 or 108 */
const union fpu_area *fpu_init_image(void);
/* Gives current an area if it has none; false when out of memory. */
bool fpu_ensure_area(void);

#endif
