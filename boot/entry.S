/* boot/entry.S - where the loader (QEMU -kernel, GRUB) jumps.
 *
 * Multiboot v1 leaves us in 32-bit protected mode with paging off, %eax =
 * 0x2BADB002 and %ebx = the physical address of the multiboot_info
 * (Multiboot spec 3.2 "Machine state"). The kernel is linked at
 * 0xC0100000 but loaded at 0x100000, so until paging is on every address
 * we use must have KERNBASE subtracted; _start itself is linked at its
 * physical address (linker.ld's .boot section).
 *
 * Steps: turn on 4 MiB pages (CR4.PSE, SDM Vol. 3A 4.3), load a boot page
 * directory that maps the first BOOT_MAP_MB twice (identity, so the next
 * instruction still runs, and at KERNBASE), turn on paging with CR0.WP,
 * jump to the higher half, and call kmain(magic, mbi) on the boot CPU's
 * kernel stack. mm_init() later replaces this page directory. */
#include "arch/i386/mmu.h"
#include "boot/multiboot.h"

	.section .multiboot, "a"
	.align 4
multiboot_header:
	.long MULTIBOOT_HEADER_MAGIC
	.long MULTIBOOT_HEADER_FLAGS
	.long -(MULTIBOOT_HEADER_MAGIC + MULTIBOOT_HEADER_FLAGS)

	.section .text.boot, "ax"
	.globl _start
	.type _start, @function
_start:
	cli
	cld
	movl %eax, %esi                 /* keep the loader's magic and mbi */
	movl %ebx, %edi

	movl %cr4, %eax
	orl $CR4_PSE, %eax
	movl %eax, %cr4
	movl $(boot_pgdir - KERNBASE), %eax
	movl %eax, %cr3
	movl %cr0, %eax
	orl $(CR0_PG | CR0_WP), %eax
	movl %eax, %cr0

	/* An absolute jump: from here on %eip is in the higher half. */
	movl $start_higher_half, %eax
	jmp *%eax
	.size _start, . - _start

	.text
	.globl start_higher_half
	.type start_higher_half, @function
start_higher_half:
	/* The boot CPU's kernel stack: KSTACK_SIZE-aligned so masking %esp
	 * finds the thread_info at its bottom (arch/i386/thread_info.h). */
	movl $(boot_stack + KSTACK_SIZE), %esp
	xorl %ebp, %ebp                 /* ends the backtrace here */
	pushl %edi                      /* mbi (physical) */
	pushl %esi                      /* magic */
	call kmain
	/* kmain never returns; if it does, stop here for GDB to see. */
2:	cli
	hlt
	jmp 2b
	.size start_higher_half, . - start_higher_half

/* The boot page directory: BOOT_MAP_MB of 4 MiB pages, twice. */
	.section .data.pagealigned, "aw"
	.align PAGE_SIZE
	.globl boot_pgdir
boot_pgdir:
	.set pde, 0
	.rept BOOT_MAP_MB / 4
	.long (pde << PGDIR_SHIFT) | PTE_P | PTE_W | PTE_PS
	.set pde, pde + 1
	.endr
	.fill KERNEL_PDE - BOOT_MAP_MB / 4, 4, 0
	.set pde, 0
	.rept BOOT_MAP_MB / 4
	.long (pde << PGDIR_SHIFT) | PTE_P | PTE_W | PTE_PS
	.set pde, pde + 1
	.endr
	.fill 1024 - KERNEL_PDE - BOOT_MAP_MB / 4, 4, 0

	.section .bss.pagealigned, "aw", @nobits
	.align KSTACK_SIZE
	.globl boot_stack
boot_stack:
	.space KSTACK_SIZE

	.section .note.GNU-stack, "", @progbits
