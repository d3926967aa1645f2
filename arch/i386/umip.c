/* arch/i386/umip.c - turning on CR4.UMIP where the CPU has it (umip.h). */
#include "arch/i386/umip.h"
#include "arch/i386/mmu.h"
#include "arch/i386/x86.h"
#include "kernel/printf.h"

#define CPUID_7_0_ECX_UMIP (1u << 2)    /* SDM Vol. 2A, CPUID leaf 07H */

bool umip_init(void)
{
	uint32_t r[4];

	/* Leaf 0's EAX is the highest basic leaf; qemu32's is below 7. */
	cpuid(0, 0, r);
	if (r[0] >= 7) {
		cpuid(7, 0, r);
		if (r[2] & CPUID_7_0_ECX_UMIP) {
			write_cr4(read_cr4() | CR4_UMIP);
			kprintf("cpu: UMIP on: sgdt/sidt/sldt/smsw/str fault in user mode\n");
			return true;
		}
	}
	kprintf("cpu: no UMIP: sgdt/sidt/sldt/smsw/str work in user mode\n");
	return false;
}
