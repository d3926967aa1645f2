/* kernel/syscall.c - the system call table (syscall.h); the dispatcher is
 * syscall_entry (arch/i386/vectors.S). */
#include "kernel/syscall.h"
#include "kernel/panic.h"
#include "kernel/task.h"

extern const struct syscall_desc __syscalls_start[], __syscalls_end[];

static const struct syscall_desc *table[NR_SYSCALLS];   /* names, for syscall_name */
syscall_fn syscall_table[NR_SYSCALLS];

/* Every number without a handler: "not implemented", never faked. */
long sys_ni_syscall(const uint32_t *arg)
{
	(void)arg;
	return -ENOSYS;
}

void syscall_init(void)
{
	for (unsigned nr = 0; nr < NR_SYSCALLS; nr++)
		syscall_table[nr] = sys_ni_syscall;
	for (const struct syscall_desc *d = __syscalls_start; d < __syscalls_end; d++) {
		if (d->nr >= NR_SYSCALLS)
			panic("syscall %s: number %u out of range", d->name, d->nr);
		if (table[d->nr])
			panic("syscall %u defined twice: %s and %s", d->nr,
			      table[d->nr]->name, d->name);
		table[d->nr] = d;
		syscall_table[d->nr] = d->fn;
	}
}

const char *syscall_name(unsigned nr)
{
	return nr < NR_SYSCALLS && table[nr] ? table[nr]->name : NULL;
}
