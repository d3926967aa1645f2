/* user/linux/glibc-hello.c - a program built by the host's compiler
 * against glibc, not Spindle's libc: `gcc -m32 -static` (user/Makefile.inc
 * builds it into the initrd as /bin/glibc-hello). glibc's start-up and
 * string functions use SSE2, so this runs only where the kernel set
 * CR4.OSFXSR and keeps each task's SSE state (abi.md section 10); it
 * prints a double that it computed with the x87 and formatted with
 * glibc's printf, and exits 0 if the text is what it must be. The system
 * calls Spindle lacks (set_robust_list, rseq, readlink, ...) return
 * -ENOSYS, which glibc's start-up tolerates. */
#include <stdio.h>
#include <string.h>

int main(void)
{
	volatile double two = 2.0;
	double r = two;
	char text[32];

	for (int i = 0; i < 20; i++)            /* Heron: sqrt(2) */
		r = (r + two / r) / 2;
	snprintf(text, sizeof(text), "%.6f", r);
	printf("hello from glibc: sqrt(2) = %s, 1/3 = %g\n", text, 1 / (3 * two / 2));
	return strcmp(text, "1.414214") != 0;
}
