/* kernel/syscall.h - system calls: int $0x80 with the number in %eax and
 * up to six arguments in %ebx %ecx %edx %esi %edi %ebp (abi.md section 3).
 *
 * Each call is defined where its subsystem lives, with
 *
 *     SYSCALL(SYS_write, write)
 *     {
 *         int fd = (int)arg[0];    // %ebx
 *         ...
 *     }
 *
 * which defines `static long sys_write(const uint32_t *arg)` and puts
 * {SYS_write, "write", sys_write} in the .syscalls section; syscall_init()
 * builds the table from that section. The return value goes back in %eax:
 * a result, or -errno. A number nobody defined returns -ENOSYS. Calls that
 * need the whole register frame (clone, execve, rt_sigreturn) use
 * current->tf. */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#include "lib/types.h"
#include "lib/abi.h"

#define NR_SYSCALLS 384
#define SYSCALL_NARGS 6

typedef long (*syscall_fn)(const uint32_t *arg);

struct syscall_desc {
	unsigned nr;
	const char *name;
	syscall_fn fn;
};

#define SYSCALL(nr_, name) \
	static long sys_##name(const uint32_t *arg __attribute__((unused))); \
	static const struct syscall_desc syscall_desc_##name \
		__attribute__((section(".syscalls"), used, aligned(4))) = \
		{ (nr_), #name, sys_##name }; \
	static long sys_##name(const uint32_t *arg __attribute__((unused)))

struct trapframe;
void syscall_init(void);
void syscall_dispatch(struct trapframe *tf);
const char *syscall_name(unsigned nr);

#endif
