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
 * builds the table from that section, and syscall_entry calls the handler
 * with arg pointing at the six argument registers it pushed. The return
 * value goes back in %eax: a result, or -errno. A number nobody defined
 * returns -ENOSYS (sys_ni_syscall, as Linux names it). Calls that need the
 * whole register frame (clone, execve, rt_sigreturn) use current->tf. */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

#define NR_SYSCALLS 451         /* the table's size (vectors.S reads it too) */
#define SYSCALL_NARGS 6         /* syscall_entry pushes this many */

#ifndef __ASSEMBLER__
#include "lib/types.h"
#include "lib/abi.h"

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

/* The Linux layer's calls (compat/linux/, abi.md section 9) are defined
 * the same way with LINUX_SYSCALL, into a section of their own: the seed
 * kernel does not link them, and a core file never uses the macro. */
#define LINUX_SYSCALL(nr_, name) \
	static long sys_##name(const uint32_t *arg __attribute__((unused))); \
	static const struct syscall_desc syscall_desc_##name \
		__attribute__((section(".syscalls.linux"), used, aligned(4))) = \
		{ (nr_), #name, sys_##name }; \
	static long sys_##name(const uint32_t *arg __attribute__((unused)))

/* syscall_table[nr] is the handler of nr, sys_ni_syscall where nobody
 * defined one; syscall_entry (arch/i386/vectors.S) calls through it. */
extern syscall_fn syscall_table[NR_SYSCALLS];
long sys_ni_syscall(const uint32_t *arg);

void syscall_init(void);
#endif /* !__ASSEMBLER__ */

#endif
