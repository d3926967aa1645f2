/* arch/i386/pgtable.c - page directories, page tables and the TLB in
 * 32-bit paging (pgtable.h; Intel SDM Vol. 3A 4.3 and 4.10). */
#include "arch/i386/pgtable.h"
#include "arch/i386/paging.h"
#include "arch/i386/x86.h"
#include "kernel/mm/pmm.h"
#include "lib/string.h"

/* Past this many pages one CR3 reload beats a row of invlpg (Linux uses
 * a similar ceiling, tlb_single_page_flush_ceiling = 33). */
#define TLB_FLUSH_CEILING 32

/* The index of the first nonzero word of p[0..n), or n. `repe scasl`
 * compares a word per step and stops at the first that is not zero
 * (SDM Vol. 2B, SCAS; REPE): most entries of a user page table and
 * directory are zero, and fork and exit walk them all. */
static uint32_t first_nonzero(const uint32_t *p, uint32_t n)
{
	const uint32_t *q = p;
	uint32_t left = n;

	if (n == 0)
		return 0;
	__asm__ volatile("repe scasl" : "+D"(q), "+c"(left) : "a"(0) : "cc", "memory");
	/* q is one past the last word compared: the nonzero one, or the last. */
	return q[-1] ? (uint32_t)(q - p) - 1 : n;
}

uint32_t *pgdir_create(void)
{
	uint32_t *pgdir = page_alloc(0);

	if (!pgdir)
		return NULL;
	memset(pgdir, 0, KERNEL_PDE * sizeof(uint32_t));
	memcpy(pgdir + KERNEL_PDE, kernel_pgdir + KERNEL_PDE,
	       (NR_PTE_ENTRIES - KERNEL_PDE) * sizeof(uint32_t));
	return pgdir;
}

void pgdir_destroy(uint32_t *pgdir)
{
	uint32_t i = 0;

	while ((i += first_nonzero(&pgdir[i], KERNEL_PDE - i)) < KERNEL_PDE) {
		if (pgdir[i] & PTE_P)
			page_free(P2V(pgdir[i] & PTE_FRAME), 0);
		i++;
	}
	page_free(pgdir, 0);
}

uint32_t *pte_lookup(uint32_t *pgdir, uint32_t va)
{
	uint32_t pde = pgdir[PDX(va)];

	if (!(pde & PTE_P))
		return NULL;
	return (uint32_t *)P2V(pde & PTE_FRAME) + PTX(va);
}

uint32_t *pte_alloc(uint32_t *pgdir, uint32_t va)
{
	uint32_t *pte = pte_lookup(pgdir, va);
	uint32_t *table;

	if (pte)
		return pte;
	table = page_alloc(0);
	if (!table)
		return NULL;
	memset(table, 0, PAGE_SIZE);
	/* A not-present PDE is never cached, so no flush (SDM 4.10.3.1). */
	pgdir[PDX(va)] = V2P(table) | PDE_USER_TABLE;
	return table + PTX(va);
}

uint32_t *pte_next_page(uint32_t *pgdir, uint32_t *va, uint32_t end)
{
	uint32_t a = *va;

	while (a < end) {
		/* The end of this page table's 4 MiB. The user half ends at
		 * KERNBASE, so this cannot wrap. */
		uint32_t stop = (a & ~(uint32_t)(PGDIR_SIZE - 1)) + PGDIR_SIZE;
		uint32_t pdx = PDX(a), n, k;
		const uint32_t *table;

		if (!(pgdir[pdx] & PTE_P)) {
			/* No table here: skip to the next directory entry that
			 * has one (user PDEs are either 0 or present). */
			n = PDX(end - 1) - pdx + 1;
			k = first_nonzero(&pgdir[pdx], n);
			if (k == n)
				break;
			a = (pdx + k) << PGDIR_SHIFT;
			continue;
		}
		if (stop > end)
			stop = end;
		table = (const uint32_t *)P2V(pgdir[pdx] & PTE_FRAME);
		n = (stop - a) >> PAGE_SHIFT;
		k = first_nonzero(&table[PTX(a)], n);
		if (k == n) {
			a = stop;
			continue;
		}
		a += k << PAGE_SHIFT;
		if (pte_has_page(table[PTX(a)])) {
			*va = a;
			return (uint32_t *)&table[PTX(a)];
		}
		a += PAGE_SIZE;                 /* flags but no page: go on */
	}
	*va = end;
	return NULL;
}

uint32_t *pgtable_detach_if_empty(uint32_t *pgdir, uint32_t va)
{
	uint32_t *table;

	if (!(pgdir[PDX(va)] & PTE_P))
		return NULL;
	table = P2V(pgdir[PDX(va)] & PTE_FRAME);
	for (int i = 0; i < NR_PTE_ENTRIES; i++)
		if (table[i])
			return NULL;
	pgdir[PDX(va)] = 0;
	return table;
}

void tlb_flush_local(uint32_t start, uint32_t end)
{
	if ((end - start) / PAGE_SIZE > TLB_FLUSH_CEILING) {
		write_cr3(read_cr3());
		return;
	}
	for (uint32_t a = start; a < end; a += PAGE_SIZE)
		invlpg(a);
}
