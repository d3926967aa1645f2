/* arch/i386/umip.h - User-Mode Instruction Prevention (SDM Vol. 3A 2.5,
 * CR4.UMIP): with it, sgdt, sidt, sldt, smsw and str in ring 3 raise #GP
 * (the program's SIGSEGV) instead of telling any program where the
 * kernel keeps its GDT, IDT and TSS. Only CPUs that list it in CPUID
 * (leaf 7, ECX bit 2) have the bit: QEMU's `-cpu max` does, its default
 * qemu32 does not, and there the five instructions still work from user
 * mode (docs/reliability.md). */
#ifndef ARCH_I386_UMIP_H
#define ARCH_I386_UMIP_H

#include "lib/types.h"

/* Sets CR4.UMIP on the boot CPU if CPUID lists it; the APs copy the boot
 * CPU's CR4 (arch/i386/ap_boot.S). Call before smp_boot_aps. Returns
 * whether UMIP is on. */
bool umip_init(void);

#endif
