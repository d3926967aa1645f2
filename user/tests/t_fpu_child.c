/* user/tests/t_fpu_child.c - run by t_fpu_fault's execve case: a new
 * program's FPU state is fninit's with MXCSR 0x1f80 and empty XMM
 * registers (abi.md section 10), whatever the program before execve left.
 * Exit status 0 if so, 1 (and a line saying what differs) if not. */
#include "stdio.h"
#include "fpregs.h"

int main(void)
{
	struct fp_image f;

	fp_fxsave(&f);                  /* the first FPU instruction */
	if (fp_get16(&f, FP_FCW) != 0x037f || fp_get16(&f, FP_FSW) != 0 || f.b[FP_FTW] != 0) {
		printf("t_fpu_child: fcw %#x fsw %#x ftw %#x, want 0x37f 0 0\n",
		       fp_get16(&f, FP_FCW), fp_get16(&f, FP_FSW), f.b[FP_FTW]);
		return 1;
	}
	if (!fp_have_sse())
		return 0;
	if (fp_get32(&f, FP_MXCSR) != 0x1f80) {
		printf("t_fpu_child: mxcsr %#x, want 0x1f80\n", fp_get32(&f, FP_MXCSR));
		return 1;
	}
	for (int i = 0; i < 128; i++)
		if (f.b[FP_XMM0 + i]) {
			printf("t_fpu_child: xmm%d is not zero\n", i / 16);
			return 1;
		}
	return 0;
}
