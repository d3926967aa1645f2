/* arch/i386/mmu.h - paging constants (Intel SDM Vol. 3A, chapter 4.3,
 * "32-bit paging"). Assembly includes this file, so only #defines here. */
#ifndef ARCH_I386_MMU_H
#define ARCH_I386_MMU_H

#define PAGE_SIZE      4096
#define PAGE_SHIFT     12
#define PGDIR_SHIFT    22                 /* a PDE maps 4 MiB */
#define PGDIR_SIZE     (1 << PGDIR_SHIFT)
#define NR_PTE_ENTRIES 1024               /* entries of a page directory or table */

#define KERNBASE       0xC0000000         /* virtual = physical + KERNBASE */
#define KERNEL_PDE     (KERNBASE >> PGDIR_SHIFT)  /* 768 */

/* Physical memory the kernel maps at KERNBASE (Linux's lowmem). Linux
 * stops at 896 MiB to keep 128 MiB of addresses for vmalloc; Spindle
 * keeps them for the kernel stacks' area, which ends at 0xF8000000
 * (kstack.h): with 896 MiB mapped it had no addresses left, and a
 * machine of 896 MiB did not boot. RAM above this is not used (Linux's
 * highmem, which Spindle does not have); the area then has room for
 * 8,192 stacks. */
#define LOWMEM_MAX     (768 * 1024 * 1024)

/* What the boot page directory maps, identity and at KERNBASE: enough for
 * the kernel image and the loader's data until mm_init maps all of RAM. */
#define BOOT_MAP_MB    64

/* Page directory / table entry bits (SDM Vol. 3A Table 4-5, 4-6). */
#define PTE_P          0x001   /* present */
#define PTE_W          0x002   /* writable */
#define PTE_U          0x004   /* user */
#define PTE_PWT        0x008
#define PTE_PCD        0x010   /* cache disable (MMIO) */
#define PTE_A          0x020
#define PTE_D          0x040
#define PTE_PS         0x080   /* in a PDE: 4 MiB page (needs CR4.PSE) */
#define PTE_G          0x100

#define CR0_PE         0x00000001
#define CR0_MP         0x00000002  /* wait/fwait honour TS (fpu.c) */
#define CR0_EM         0x00000004  /* no FPU: its instructions trap */
#define CR0_TS         0x00000008  /* task switched: FPU use raises #NM */
#define CR0_NE         0x00000020  /* x87 errors are #MF, not IRQ 13 */
#define CR0_WP         0x00010000  /* supervisor writes obey read-only PTEs */
#define CR0_PG         0x80000000
#define CR4_PSE        0x00000010
#define CR4_UMIP       0x00000800  /* SDM Vol. 3A 2.5: no sgdt & co. in ring 3 */
#define CR4_OSFXSR     0x00000200  /* fxsave/fxrstor and SSE allowed */
#define CR4_OSXMMEXCPT 0x00000400  /* unmasked SIMD exceptions are #XM */

/* Kernel stacks are KSTACK_SIZE bytes and KSTACK_SIZE-aligned, so the
 * thread_info at the bottom is found by masking %esp (Linux 2.5's
 * current_thread_info()). */
#define KSTACK_ORDER   1
#define KSTACK_SIZE    (PAGE_SIZE << KSTACK_ORDER)

#ifndef __ASSEMBLER__
#include "lib/types.h"
#define P2V(pa)  ((void *)((uintptr_t)(pa) + KERNBASE))
#define V2P(va)  ((uintptr_t)(va) - KERNBASE)
#endif

#endif
