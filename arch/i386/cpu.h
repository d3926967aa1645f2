/* arch/i386/cpu.h - what each CPU owns: its GDT (tls-2.5.31-D9 made the
 * GDT per CPU), its TSS, and its identity.
 *
 * How a CPU finds its own struct cpu: every kernel stack is KSTACK_SIZE
 * bytes and KSTACK_SIZE-aligned, with a struct thread_info at its bottom
 * that names the CPU (thread_info.h). this_cpu() masks %esp, reads the
 * index, and indexes cpus[]. The rule that keeps it true: whoever moves a
 * task to another CPU updates thread_info->cpu before the task runs there,
 * and code that uses this_cpu() across a possible preemption point must
 * disable preemption first. */
#ifndef ARCH_I386_CPU_H
#define ARCH_I386_CPU_H

#include "lib/types.h"
#include "arch/i386/desc.h"
#include "arch/i386/segment.h"
#include "arch/i386/thread_info.h"

struct mm;

#define NR_CPUS 8

/* The 32-bit TSS (SDM Vol. 3A 7.2.1, Figure 7-2). Spindle uses only ss0
 * and esp0 (the kernel stack to switch to on a ring 3 -> 0 trap) and sets
 * the I/O map base past the limit, so ring 3 has no port access. */
struct tss {
	uint16_t link, _r0;
	uint32_t esp0;
	uint16_t ss0, _r1;
	uint32_t esp1;
	uint16_t ss1, _r2;
	uint32_t esp2;
	uint16_t ss2, _r3;
	uint32_t cr3, eip, eflags, eax, ecx, edx, ebx, esp, ebp, esi, edi;
	uint16_t es, _r4, cs, _r5, ss, _r6, ds, _r7, fs, _r8, gs, _r9;
	uint16_t ldt, _r10;
	uint16_t trap, iomap_base;
} __attribute__((packed));
_Static_assert(sizeof(struct tss) == 104, "SDM 7.2.1: a 32-bit TSS is 104 bytes");

struct cpu {
	/* The GDT first, 64-byte aligned: the seed lays it out in cache
	 * lines (segment.h), and `x/24gx &cpus[0].gdt` in GDB shows it. */
	struct desc gdt[GDT_ENTRIES] __attribute__((aligned(64)));
	struct tss tss;
	int id;                 /* index in cpus[] */
	/* The address space whose page directory this CPU has loaded (NULL:
	 * kernel_pgdir). Set before CR3 is written, read by TLB shootdown
	 * (arch/i386/tlb.c) to know which CPUs must flush. */
	struct mm *volatile active_mm;
	uint32_t apic_id;
	bool started;
};

extern struct cpu cpus[NR_CPUS];
extern int ncpus;           /* CPUs running */

static inline struct cpu *this_cpu(void)
{
	return &cpus[current_thread_info()->cpu];
}

/* gdt.c */
void gdt_init_cpu(struct cpu *c);
struct desc *gdt_for_cpu(int cpu);
/* Prints one CPU's GDT decoded, an entry a line with its selector, raw
 * value and the seed's name for it (the boot banner, the monitor's gdt
 * command). */
void gdt_print(int cpu);

#endif
