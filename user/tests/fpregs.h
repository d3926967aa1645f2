/* user/tests/fpregs.h - helpers of the t_fpu* tests: fill every x87 and
 * XMM register, the x87 control word and MXCSR with values derived from
 * a seed, and check later (after yields, sleeps, migrations, signals,
 * fork) that they are all still exactly those.
 *
 * fp_fill(seed): fninit; the control word FPU_INIT_FCW with the rounding
 * control (bits 10-11) from the seed; eight fild pushes of seed*8+1 ..
 * seed*8+8, so every x87 register holds a distinct integer (st(0) the
 * last); xmm0..7 sixteen bytes each from the seed; MXCSR 0x1f80 with its
 * rounding control (bits 13-14) from the seed.
 *
 * fp_check(seed, why) reads them all back with one fxsave (SDM Vol. 1
 * Table 10-2) and compares with what fp_fill must have left: no
 * instruction between the two may touch the FPU, which holds for code
 * built with Spindle's flags (no -msse; gcc uses x87 only for floating
 * point, which these tests do not do between the two calls). */
#ifndef USER_TESTS_FPREGS_H
#define USER_TESTS_FPREGS_H

#include "stdio.h"
#include "string.h"

struct fp_image {
	unsigned char b[512];
} __attribute__((aligned(16)));

#define FP_FCW 0
#define FP_FSW 2
#define FP_FTW 4
#define FP_MXCSR 24
#define FP_ST0 32
#define FP_XMM0 160

static inline unsigned fp_get16(const struct fp_image *f, int off)
{
	return f->b[off] | f->b[off + 1] << 8;
}

static inline unsigned fp_get32(const struct fp_image *f, int off)
{
	return fp_get16(f, off) | fp_get16(f, off + 2) << 16;
}

static inline void fp_fxsave(struct fp_image *f)
{
	__asm__ volatile("fxsave %0" : "=m"(*f));
}

/* CPUID.1:EDX bit 25: SSE. Without it the XMM part is skipped. */
static inline bool fp_have_sse(void)
{
	unsigned a = 1, b, c = 0, d;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return d & (1u << 25);
}

static inline unsigned fp_fcw(unsigned seed) { return 0x037f | (seed & 3) << 10; }
static inline unsigned fp_mxcsr(unsigned seed) { return 0x1f80 | ((seed >> 2) & 3) << 13; }

static inline unsigned char fp_xmm_byte(unsigned seed, int reg, int i)
{
	return (unsigned char)(seed * 131 + reg * 17 + i * 7 + 1);
}

__attribute__((unused))
static void fp_fill(unsigned seed)
{
	int ints[8];
	unsigned char xmm[8][16] __attribute__((aligned(16)));
	unsigned short cw = (unsigned short)fp_fcw(seed);
	unsigned mx = fp_mxcsr(seed);

	for (int i = 0; i < 8; i++)
		ints[i] = (int)(seed * 8 + (unsigned)i + 1);
	__asm__ volatile("fninit\n\tfldcw %0" : : "m"(cw));
	__asm__ volatile("fildl 0(%0)\n\tfildl 4(%0)\n\tfildl 8(%0)\n\tfildl 12(%0)\n\t"
			 "fildl 16(%0)\n\tfildl 20(%0)\n\tfildl 24(%0)\n\tfildl 28(%0)"
			 : : "r"(ints) : "memory");
	if (!fp_have_sse())
		return;
	for (int r = 0; r < 8; r++)
		for (int i = 0; i < 16; i++)
			xmm[r][i] = fp_xmm_byte(seed, r, i);
	__asm__ volatile("movups 0(%0), %%xmm0\n\tmovups 16(%0), %%xmm1\n\t"
			 "movups 32(%0), %%xmm2\n\tmovups 48(%0), %%xmm3\n\t"
			 "movups 64(%0), %%xmm4\n\tmovups 80(%0), %%xmm5\n\t"
			 "movups 96(%0), %%xmm6\n\tmovups 112(%0), %%xmm7\n\t"
			 "ldmxcsr %1"
			 : : "r"(xmm), "m"(mx) : "memory");
}

/* The 80-bit extended form of a positive integer n (SDM Vol. 1 4.2.2):
 * 64-bit significand with the integer bit explicit, exponent bias 16383. */
static inline void fp_ext(unsigned n, unsigned long long *mant, unsigned *exp)
{
	int msb = 31 - __builtin_clz(n);

	*mant = (unsigned long long)n << (63 - msb);
	*exp = 16383 + (unsigned)msb;
}

/* 0 if every register is what fp_fill(seed) left; else what differs is
 * in why (at least 96 bytes). */
__attribute__((unused))
static int fp_check_image(const struct fp_image *f, unsigned seed, char *why, size_t n)
{
	if (fp_get16(f, FP_FCW) != fp_fcw(seed)) {
		snprintf(why, n, "fcw %#x, want %#x", fp_get16(f, FP_FCW), fp_fcw(seed));
		return -1;
	}
	if ((fp_get16(f, FP_FSW) & 0x38ff) != 0 || f->b[FP_FTW] != 0xff) {
		snprintf(why, n, "fsw %#x ftw %#x, want TOP 0, no flags, all full",
			 fp_get16(f, FP_FSW), f->b[FP_FTW]);
		return -1;
	}
	for (int i = 0; i < 8; i++) {
		unsigned long long m, got;
		unsigned e;

		fp_ext(seed * 8 + 8 - (unsigned)i, &m, &e);
		memcpy(&got, f->b + FP_ST0 + 16 * i, 8);
		if (got != m || fp_get16(f, FP_ST0 + 16 * i + 8) != e) {
			snprintf(why, n, "st(%d) = %#llx exp %#x, want %#llx exp %#x (seed %u)",
				 i, got, fp_get16(f, FP_ST0 + 16 * i + 8), m, e, seed);
			return -1;
		}
	}
	if (!fp_have_sse())
		return 0;
	if (fp_get32(f, FP_MXCSR) != fp_mxcsr(seed)) {
		snprintf(why, n, "mxcsr %#x, want %#x", fp_get32(f, FP_MXCSR), fp_mxcsr(seed));
		return -1;
	}
	for (int r = 0; r < 8; r++)
		for (int i = 0; i < 16; i++)
			if (f->b[FP_XMM0 + 16 * r + i] != fp_xmm_byte(seed, r, i)) {
				snprintf(why, n, "xmm%d byte %d = %#x, want %#x (seed %u)", r, i,
					 f->b[FP_XMM0 + 16 * r + i], fp_xmm_byte(seed, r, i), seed);
				return -1;
			}
	return 0;
}

__attribute__((unused))
static int fp_check(unsigned seed, char *why, size_t n)
{
	struct fp_image f;

	fp_fxsave(&f);
	return fp_check_image(&f, seed, why, n);
}

#endif
