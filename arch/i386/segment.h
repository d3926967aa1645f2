/* arch/i386/segment.h - the per-CPU GDT layout of tls-2.5.31-D9.
 *
 * Every CPU has its own 24-entry GDT (abi.md section 5):
 *
 *   0 - null
 *   1 - reserved
 *   2 - reserved
 *   3 - reserved
 *
 *   4 - default user CS    0x23   <==== new cacheline
 *   5 - default user DS    0x2b
 *
 *  ------- start of TLS (Thread-Local Storage) segments:
 *   6 - TLS segment #1     0x33   [ glibc's TLS segment ]
 *   7 - TLS segment #2     0x3b   [ Wine's %fs Win32 segment ]
 *   8 - TLS segment #3     0x43
 *   9 - reserved
 *  10 - reserved
 *  11 - reserved
 *
 *  ------- start of kernel segments:
 *  12 - kernel code        0x60   <==== new cacheline
 *  13 - kernel data        0x68
 *  14 - TSS                0x70
 *  15 - LDT                0x78
 *  16..22 - reserved (PnP BIOS and APM in Linux; unused here)
 *  23 - double-fault TSS  0xb8   (this CPU's; Linux 2.6 put it in 31 of
 *                                  32 entries; here the last of the 24)
 *
 * The selectors are derived from the entry numbers exactly as the seed does
 * (index * 8 + RPL), and checked against abi.md at compile time below.
 * This header is included by assembly too, so it holds only #defines. */
#ifndef ARCH_I386_SEGMENT_H
#define ARCH_I386_SEGMENT_H

#define GDT_ENTRY_TLS_ENTRIES   3
#define GDT_ENTRY_TLS_MIN       6
#define GDT_ENTRY_TLS_MAX       (GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES - 1)
#define TLS_SIZE                (GDT_ENTRY_TLS_ENTRIES * 8)

#define GDT_ENTRY_DEFAULT_USER_CS  4
#define __USER_CS               (GDT_ENTRY_DEFAULT_USER_CS * 8 + 3)
#define GDT_ENTRY_DEFAULT_USER_DS  5
#define __USER_DS               (GDT_ENTRY_DEFAULT_USER_DS * 8 + 3)

#define GDT_ENTRY_KERNEL_BASE   12
#define GDT_ENTRY_KERNEL_CS     (GDT_ENTRY_KERNEL_BASE + 0)
#define __KERNEL_CS             (GDT_ENTRY_KERNEL_CS * 8)
#define GDT_ENTRY_KERNEL_DS     (GDT_ENTRY_KERNEL_BASE + 1)
#define __KERNEL_DS             (GDT_ENTRY_KERNEL_DS * 8)
#define GDT_ENTRY_TSS           (GDT_ENTRY_KERNEL_BASE + 2)
#define GDT_ENTRY_LDT           (GDT_ENTRY_KERNEL_BASE + 3)
/* The task a double fault switches to (arch/i386/doublefault.c): the one
 * way to run with a good stack when the kernel stack is gone. */
#define GDT_ENTRY_DOUBLEFAULT_TSS 23

#define GDT_ENTRIES             24
#define GDT_SIZE                (GDT_ENTRIES * 8)

/* TLS selector for GDT entry idx (6..8), RPL 3: 0x33, 0x3b, 0x43. */
#define TLS_SELECTOR(idx)       ((idx) * 8 + 3)

#define IDT_ENTRIES             256

#ifndef __ASSEMBLER__
_Static_assert(__USER_CS == 0x23, "abi.md: user CS selector is 0x23");
_Static_assert(__USER_DS == 0x2b, "abi.md: user DS selector is 0x2b");
_Static_assert(TLS_SELECTOR(GDT_ENTRY_TLS_MIN) == 0x33, "abi.md: first TLS selector 0x33");
_Static_assert(TLS_SELECTOR(GDT_ENTRY_TLS_MIN + 1) == 0x3b, "abi.md: second TLS selector 0x3b");
_Static_assert(TLS_SELECTOR(GDT_ENTRY_TLS_MAX) == 0x43, "abi.md: third TLS selector 0x43");
_Static_assert(__KERNEL_CS == 0x60, "abi.md: kernel CS selector is 0x60");
_Static_assert(__KERNEL_DS == 0x68, "abi.md: kernel DS selector is 0x68");
_Static_assert(TLS_SIZE == 24, "load_TLS copies exactly three descriptors");
#endif

#endif
