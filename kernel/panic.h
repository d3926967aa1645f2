/* kernel/panic.h - stopping the machine legibly.
 *
 * panic() prints "PANIC: <reason>", the registers and a symbolised
 * backtrace (function+offset, from the kernel's own symbol table, see
 * kernel/ksyms.c), then powers off with status 0x7f (abi.md section 1). */
#ifndef KERNEL_PANIC_H
#define KERNEL_PANIC_H

#include "lib/types.h"

struct trapframe;

void panic(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
void panic_trap(struct trapframe *tf) __attribute__((noreturn));
/* panic() for a context that is not the caller's: the backtrace starts
 * at eip and follows ebp (the double-fault handler: doublefault.c). */
void panic_at(uint32_t eip, uint32_t ebp, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));

/* The backtrace itself is arch's: backtrace_from, arch/i386/dumpstack.h. */

/* Checks an invariant where it is relied on (xv6's sched() style) and
 * panics with the invariant's text, file and line when it is false. */
#define ASSERT(cond) do { \
	if (!(cond)) \
		panic("assertion failed: %s at %s:%d in %s()", \
		      #cond, __FILE__, __LINE__, __func__); \
} while (0)

#define STATUS_PANIC 0x7f

#endif
