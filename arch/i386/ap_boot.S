/* arch/i386/ap_boot.S - where an application processor starts.
 *
 * A start-up IPI wakes an AP in real mode at CS:IP = (vector << 8):0000,
 * that is at the start of the 4 KiB page AP_TRAMPOLINE_PHYS (SDM Vol. 3A
 * 8.4.4.1). smp_boot_aps copies the bytes between ap_trampoline_start and
 * ap_trampoline_end there and leaves a struct ap_boot_params (smp.h) at
 * AP_PARAMS_OFFSET in the same page. The code is position-dependent on
 * that page only: every address below is "label - ap_trampoline_start"
 * plus AP_TRAMPOLINE_PHYS, never a link-time address, except ap_main's.
 *
 * Steps (as the boot CPU's own path, boot/entry.S, and SDM 9.9.1
 * "Switching to Protected Mode"):
 *  1. real mode: DS = CS, load a 3-entry GDT of our own, CR0.PE = 1, and
 *     a far jump to load CS with its 32-bit code segment;
 *  2. protected mode: flat data segments, then the boot CPU's CR4 (PSE)
 *     and a start-up page directory (kernel_pgdir plus PDE 0 mapping the
 *     low 4 MiB, where this code runs), then the boot CPU's CR0 (PG, WP,
 *     and the same cache and FPU bits: after INIT, CR0 has CD and NW set,
 *     SDM Table 9-1);
 *  3. paging: switch to the AP's idle stack (higher half) and call
 *     ap_main, which never returns.
 * Each step writes its number to params.stage, so a boot CPU that gives
 * up waiting can say where the AP stopped. */
#include "arch/i386/mmu.h"
#include "arch/i386/smp.h"

#define REL(x)    ((x) - ap_trampoline_start)
#define PHYS(x)   (AP_TRAMPOLINE_PHYS + REL(x))
#define PARAM(f)  (AP_TRAMPOLINE_PHYS + AP_PARAMS_OFFSET + (f))

	.section .rodata.ap_boot, "a"
	.globl ap_trampoline_start, ap_trampoline_end
	.p2align 4
	.code16
ap_trampoline_start:
	cli
	cld
	movw %cs, %ax                   /* 0x0800: the page as a segment */
	movw %ax, %ds
	movl $AP_STAGE_REAL, AP_PARAMS_OFFSET + AP_PARAM_STAGE
	lgdtl REL(ap_gdt_desc)          /* DS-relative: in this page */
	movl $CR0_PE, %eax              /* PE only: CD, NW cleared */
	movl %eax, %cr0
	ljmpl $AP_BOOT_CS, $PHYS(ap_protected)

	.code32
ap_protected:
	movw $AP_BOOT_DS, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	movl $AP_STAGE_PROTECTED, PARAM(AP_PARAM_STAGE)

	movl PARAM(AP_PARAM_CR4), %eax  /* PSE, as the boot CPU */
	movl %eax, %cr4
	movl PARAM(AP_PARAM_PGDIR), %eax
	movl %eax, %cr3
	movl PARAM(AP_PARAM_CR0), %eax  /* PG, WP, PE, ... as the boot CPU */
	movl %eax, %cr0
	movl $AP_STAGE_PAGING, PARAM(AP_PARAM_STAGE)

	movl PARAM(AP_PARAM_STACK), %esp
	xorl %ebp, %ebp                 /* ends the backtrace here */
	movl $ap_main, %eax             /* absolute: into the higher half */
	call *%eax
1:	hlt                             /* ap_main does not return */
	jmp 1b

	/* The temporary GDT: null, flat code, flat data (the seed's
	 * kernel descriptors); ap_main loads the AP's own at once. */
	.p2align 3
ap_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff        /* AP_BOOT_CS */
	.quad 0x00cf92000000ffff        /* AP_BOOT_DS */
ap_gdt_desc:
	.word ap_gdt_desc - ap_gdt - 1  /* limit: size - 1 */
	.long PHYS(ap_gdt)
ap_trampoline_end:

	.section .note.GNU-stack, "", @progbits
