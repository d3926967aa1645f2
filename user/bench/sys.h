/* user/bench/sys.h - the raw system calls of /bin/bench (user/bin/bench.c):
 * each one int $0x80 in inline asm, so nothing but the kernel's own path
 * and the instruction itself is measured, and rdtsc (allowed in ring 3,
 * abi.md section 2; under QEMU -icount shift=0 one tick per guest
 * instruction). bench_clone is the raw clone for threads. Included once
 * per program (by bench.c and by bench_pt.c, each a program of one file):
 * bench_clone is defined here. */
#ifndef USER_BENCH_SYS_H
#define USER_BENCH_SYS_H

#include "lib/types.h"
#include "lib/abi_linux.h"

static inline uint64_t rdtsc(void)
{
	uint64_t v;
	__asm__ volatile("rdtsc" : "=A"(v));
	return v;
}

static inline long sys_yield(void)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "0"(SYS_sched_yield) : "memory");
	return r;
}

static inline long sys_futex(volatile int *uaddr, int op, int val)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r)
			 : "0"(SYS_futex), "b"(uaddr), "c"(op | FUTEX_PRIVATE_FLAG),
			   "d"(val), "S"(0) : "memory");
	return r;
}

static inline long sys_set_thread_area(struct user_desc *u)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r) : "0"(SYS_set_thread_area), "b"(u) : "memory");
	return r;
}

static inline long sys_wait4(long pid, int *status)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r)
			 : "0"(SYS_wait4), "b"(pid), "c"(status), "d"(0), "S"(0) : "memory");
	return r;
}

/* fork; the child exits at once without touching its stack (no
 * copy-on-write fault of its own): the smallest process there is. */
static inline long sys_fork_exit(void)
{
	long r;
	__asm__ volatile("int $0x80\n\t"
			 "testl %%eax, %%eax\n\t"
			 "jnz 1f\n\t"
			 "movl $1, %%eax\n\t"            /* SYS_exit(0) */
			 "xorl %%ebx, %%ebx\n\t"
			 "int $0x80\n\t"
			 "ud2\n"
			 "1:"
			 : "=a"(r) : "0"(SYS_fork) : "ebx", "memory");
	return r;
}

/* clone(flags, newsp, ptid, tls); the child calls fn(arg) (when fn is not
 * NULL) on its new stack, then SYS_exit(0): it never returns into the
 * function that called clone, whose frame is on the parent's stack. The
 * child starts with the parent's registers (abi.md section 4), so fn and
 * arg travel in %edi and %ebp, which clone does not read (%edi is the
 * ignored ctid). With CLONE_RELEASE_VM the child's %esp is newsp-4. */
long bench_clone(unsigned long flags, void *newsp, int *ptid, struct user_desc *tls,
		 void (*fn)(void *), void *arg);
__asm__(".text\n"
	".globl bench_clone\n"
	".type bench_clone, @function\n"
	"bench_clone:\n\t"
	"pushl %ebp\n\tpushl %ebx\n\tpushl %esi\n\tpushl %edi\n\t"
	"movl 20(%esp), %ebx\n\t"               /* flags */
	"movl 24(%esp), %ecx\n\t"               /* newsp */
	"movl 28(%esp), %edx\n\t"               /* ptid */
	"movl 32(%esp), %esi\n\t"               /* tls */
	"movl 36(%esp), %edi\n\t"               /* fn, for the child */
	"movl 40(%esp), %ebp\n\t"               /* arg, for the child */
	"movl $120, %eax\n\t"                   /* SYS_clone */
	"int $0x80\n\t"
	"testl %eax, %eax\n\t"
	"jz 1f\n\t"
	"popl %edi\n\tpopl %esi\n\tpopl %ebx\n\tpopl %ebp\n\t"
	"ret\n"
	"1:\n\t"                                /* the child, on newsp */
	"testl %edi, %edi\n\t"
	"jz 2f\n\t"
	"pushl %ebp\n\t"
	"call *%edi\n"
	"2:\n\t"
	"movl $1, %eax\n\t"                     /* SYS_exit(0) */
	"xorl %ebx, %ebx\n\t"
	"int $0x80\n\t"
	"ud2\n"
	".size bench_clone, . - bench_clone\n");

#endif
