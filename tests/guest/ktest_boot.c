/* tests/guest/ktest_boot.c - the machine state kmain leaves: the per-CPU
 * GDT in the seed's layout, the TSS, the segment registers, paging. */
#include "tests/guest/ktest.h"
#include "arch/i386/cpu.h"
#include "arch/i386/mmu.h"
#include "arch/i386/paging.h"
#include "arch/i386/x86.h"

KTEST(boot, gdt_is_this_cpus_table)
{
	struct pseudo_desc pd = sgdt();

	KCHECK_EQ(pd.base, (uint32_t)gdt_for_cpu(0));
	/* Erratum 4: the limit is size - 1, 24 * 8 - 1 = 0xbf. */
	KCHECK_EQ(pd.limit, GDT_SIZE - 1);
	KCHECK_EQ(pd.limit, 0xbf);
}

/* A descriptor as one 64-bit word, without the Accessed bit (type bit 0)
 * that the CPU sets when it loads a segment (SDM Vol. 3A 3.4.5.1). */
static uint64_t desc_word(const struct desc *d)
{
	return ((uint64_t)(d->b & ~(1u << DESC_B_TYPE_SHIFT)) << 32) | d->a;
}

KTEST(boot, gdt_seed_layout)
{
	const struct desc *g = gdt_for_cpu(0);
	/* The seed's head.S values (tls-2.5.31-D9). */
	KCHECK_EQ(desc_word(&g[0]), 0);
	KCHECK_EQ(desc_word(&g[4]), 0x00cffa000000ffffull);
	KCHECK_EQ(desc_word(&g[5]), 0x00cff2000000ffffull);
	KCHECK_EQ(desc_word(&g[12]), 0x00cf9a000000ffffull);
	KCHECK_EQ(desc_word(&g[13]), 0x00cf92000000ffffull);
	for (int i = 1; i <= 3; i++)
		KCHECK(desc_empty(&g[i]));
	for (int i = GDT_ENTRY_TLS_MIN; i <= 11; i++)
		KCHECK(desc_empty(&g[i]));      /* no task has run: TLS empty */
	KCHECK(desc_empty(&g[GDT_ENTRY_LDT]));
	for (int i = 16; i < GDT_ENTRY_DOUBLEFAULT_TSS; i++)
		KCHECK(desc_empty(&g[i]));
}

KTEST(boot, tss_loaded_in_entry_14)
{
	const struct desc *t = &gdt_for_cpu(0)[GDT_ENTRY_TSS];

	KCHECK_EQ(str(), GDT_ENTRY_TSS * 8);
	KCHECK_EQ(str(), 0x70);
	/* ltr marks the descriptor busy (SDM Vol. 3A 7.2.2). */
	KCHECK_EQ((t->b >> 8) & 0xf, DESC_TYPE_TSS32_BUSY);
	KCHECK_EQ(desc_base(t), (uint32_t)&cpus[0].tss);
	KCHECK_EQ(desc_limit(t), sizeof(struct tss) - 1);
	KCHECK_EQ(cpus[0].tss.ss0, __KERNEL_DS);
}

KTEST(boot, segment_registers)
{
	KCHECK_EQ(read_seg(cs), __KERNEL_CS);
	KCHECK_EQ(read_seg(ds), __KERNEL_DS);
	KCHECK_EQ(read_seg(es), __KERNEL_DS);
	KCHECK_EQ(read_seg(ss), __KERNEL_DS);
	KCHECK_EQ(read_seg(fs), 0);
	KCHECK_EQ(read_seg(gs), 0);
}

KTEST(boot, paging_higher_half)
{
	KCHECK(read_cr0() & CR0_PG);
	KCHECK(read_cr0() & CR0_WP);
	KCHECK(read_cr4() & CR4_PSE);
	KCHECK_EQ(read_cr3(), V2P(kernel_pgdir));
	/* The identity mapping of the boot directory is gone. */
	for (unsigned i = 0; i < KERNEL_PDE; i++)
		KCHECK_EQ(kernel_pgdir[i], 0);
	KCHECK_EQ((uint32_t)&kernel_pgdir[0] >= KERNBASE, 1);
}

KTEST(boot, thread_info_on_boot_stack)
{
	struct thread_info *ti = current_thread_info();

	KCHECK_EQ(ti->cpu, 0);
	KCHECK_EQ(ti->magic, THREAD_INFO_MAGIC);
	KCHECK(this_cpu() == &cpus[0]);
	KCHECK_EQ((uint32_t)ti % KSTACK_SIZE, 0);
}
