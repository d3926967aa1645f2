/* user/lib/start.c - from the kernel's initial stack to main() and back
 * out through exit() (crt0.S calls __libc_start). */
#include "stdlib.h"
#include "unistd.h"
#include "errno.h"
#include "sys/auxv.h"
#include "pthread_impl.h"
#include "lib/format.h"

void __format_float(struct format_float *f, va_list *ap);      /* fmt_float.c */

char **environ;
unsigned long *__auxv;

int main(int argc, char **argv, char **envp);
void __libc_start(long *sp) __attribute__((noreturn, used));

/* sp -> argc, argv[0..argc-1], NULL, envp[...], NULL, auxv pairs
 * (abi.md section 2). */
void __libc_start(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	char **envp = argv + argc + 1;
	char **p = envp;

	while (*p)
		p++;
	__auxv = (unsigned long *)(p + 1);
	environ = envp;
	/* printf's %f %e %g: lib/format.c is the kernel's too, which has no
	 * floating point; user space plugs it in. */
	format_float_hook = __format_float;
	/* The main thread's TLS (%gs), if the program has a PT_TLS segment:
	 * before anything can touch a __thread variable, errno included. */
	__pthread_init_main(__auxv);
	exit(main(argc, argv, envp));
}

unsigned long getauxval(unsigned long type)
{
	for (unsigned long *a = __auxv; a && a[0] != AT_NULL; a += 2)
		if (a[0] == type)
			return a[1];
	errno = ENOENT;
	return 0;
}
