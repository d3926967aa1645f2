/* kernel/syscall.c - the system call table (syscall.h); the dispatcher is
 * syscall_entry (arch/i386/vectors.S). */
#include "kernel/syscall.h"
#include "kernel/panic.h"
#include "kernel/task.h"

extern const struct syscall_desc __syscalls_start[], __syscalls_end[];
extern const struct syscall_desc __syscalls_linux_start[], __syscalls_linux_end[];

static const struct syscall_desc *table[NR_SYSCALLS];   /* who claimed each number */
syscall_fn syscall_table[NR_SYSCALLS];

/* Every number without a handler: "not implemented", never faked. */
long sys_ni_syscall(const uint32_t *arg)
{
	(void)arg;
	return -ENOSYS;
}

/* Enters one section's calls (the core's, the Linux layer's). */
static void install(const struct syscall_desc *d, const struct syscall_desc *end)
{
	for (; d < end; d++) {
		if (d->nr >= NR_SYSCALLS)
			panic("syscall %s: number %u out of range", d->name, d->nr);
		if (table[d->nr])
			panic("syscall %u defined twice: %s and %s", d->nr,
			      table[d->nr]->name, d->name);
		table[d->nr] = d;
		syscall_table[d->nr] = d->fn;
	}
}

void syscall_init(void)
{
	for (unsigned nr = 0; nr < NR_SYSCALLS; nr++)
		syscall_table[nr] = sys_ni_syscall;
	install(__syscalls_start, __syscalls_end);
	install(__syscalls_linux_start, __syscalls_linux_end);
}
