/* user/lib/math.c - math.h's functions on the x87 (SDM Vol. 1 8.3.4-8.3.9).
 * Operands go in through gcc's "t" (st(0)) and "u" (st(1)) constraints. */
#include "math.h"
#include "string.h"
#include "lib/types.h"

/* st(0) rounded to double: gcc would return the 80-bit register as it
 * is (-fexcess-precision=fast); a store rounds it (SDM Vol. 1 8.2). */
static double to_double(long double v)
{
	volatile double d = (double)v;

	return d;
}

double fabs(double x)
{
	return __builtin_fabs(x);               /* the fabs instruction */
}

double sqrt(double x)
{
	long double r;

	__asm__("fsqrt" : "=t"(r) : "0"((long double)x));
	return to_double(r);
}

/* frndint rounds as the control word's RC field says (bits 10-11, SDM
 * Vol. 1 8.1.5.3): set it for one instruction, then put it back. */
#define RC_DOWN 0x0400
#define RC_UP   0x0800
#define RC_ZERO 0x0c00

static double round_with(double x, unsigned short rc)
{
	unsigned short cw, tmp;
	double r;

	__asm__ volatile("fnstcw %0" : "=m"(cw));
	tmp = (unsigned short)((cw & ~RC_ZERO) | rc);
	__asm__ volatile("fldcw %1\n\tfrndint\n\tfldcw %2"
			 : "=t"(r) : "m"(tmp), "m"(cw), "0"(x));
	return r;
}

double floor(double x) { return round_with(x, RC_DOWN); }
double ceil(double x) { return round_with(x, RC_UP); }
double trunc(double x) { return round_with(x, RC_ZERO); }

/* fprem reduces by at most 2^63 a step and says in C2 (status bit 10)
 * that it is not done: loop until C2 is clear. */
double fmod(double x, double y)
{
	double r;

	__asm__("1:\tfprem\n\tfnstsw %%ax\n\ttestw $0x400, %%ax\n\tjnz 1b"
		: "=t"(r) : "0"(x), "u"(y) : "ax", "cc");
	return r;
}

double ldexp(double x, int e)
{
	long double r, de = e;

	__asm__("fscale" : "=t"(r) : "0"((long double)x), "u"(de));
	return to_double(r);
}

double frexp(double x, int *e)
{
	uint64_t b;
	int ex, adjust = 0;

	memcpy(&b, &x, sizeof(b));
	ex = (int)(b >> 52 & 0x7ff);
	if (ex == 0) {                          /* zero or subnormal */
		if (!(b << 1)) {
			*e = 0;
			return x;
		}
		x *= 18014398509481984.0;       /* 2^54: now normal */
		memcpy(&b, &x, sizeof(b));
		ex = (int)(b >> 52 & 0x7ff);
		adjust = 54;
	}
	if (ex == 0x7ff) {                      /* inf, nan */
		*e = 0;
		return x;
	}
	*e = ex - 1022 - adjust;
	b = (b & ~(0x7ffull << 52)) | (1022ull << 52);
	memcpy(&x, &b, sizeof(x));
	return x;
}
