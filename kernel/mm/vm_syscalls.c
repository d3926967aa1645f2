/* kernel/mm/vm_syscalls.c - brk, munmap, mprotect, mmap2 (abi.md
 * sections 3 and 8). Each is the calling task's address space handed to
 * its vm_* function (kernel/mm/vma.c), which checks every argument: no
 * value a program passes can harm the kernel. */
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/vm.h"

/* brk(addr): the new break, or the old one on failure (never -errno;
 * brk(0) asks for the current one), as Linux. */
SYSCALL(SYS_brk, brk)
{
	return (long)vm_brk(current->mm, arg[0]);
}

/* munmap(addr, len) */
SYSCALL(SYS_munmap, munmap)
{
	return vm_munmap(current->mm, arg[0], arg[1]);
}

/* mprotect(addr, len, prot) */
SYSCALL(SYS_mprotect, mprotect)
{
	return vm_mprotect(current->mm, arg[0], arg[1], arg[2]);
}

/* mmap2(addr, len, prot, flags, fd, pgoff): pgoff counts 4 KiB pages
 * (that is the "2"), so a 32-bit offset reaches 16 TiB of file. */
SYSCALL(SYS_mmap2, mmap2)
{
	return vm_mmap(current->mm, arg[0], arg[1], arg[2], arg[3], (int)arg[4], arg[5]);
}
