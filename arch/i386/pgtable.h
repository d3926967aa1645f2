/* arch/i386/pgtable.h - the i386 side of a user address space: page
 * directories and page tables in 32-bit paging (Intel SDM Vol. 3A 4.3),
 * and this CPU's TLB. kernel/mm/vm.c decides what to map; this file knows
 * how an i386 writes it down.
 *
 * A page directory has 1024 entries (PDEs), each covering 4 MiB; entries
 * 0..KERNEL_PDE-1 are the user half and point at page tables allocated on
 * demand, entries KERNEL_PDE..1023 are copied from kernel_pgdir (4 MiB
 * kernel pages, PTE_G). A user PDE is always PTE_P|PTE_W|PTE_U: the
 * processor combines PDE and PTE rights (SDM 4.6.1), so the PTE alone
 * decides.
 *
 * A PTE "holds a page" when its frame bits are not zero (physical frame 0
 * is never a user page: the first MiB is reserved). With PTE_P clear the
 * processor ignores every other bit (SDM 4.3, Table 4-6), so a PROT_NONE
 * area keeps its pages in not-present PTEs and gets them back on
 * mprotect. */
#ifndef ARCH_I386_PGTABLE_H
#define ARCH_I386_PGTABLE_H

#include "lib/types.h"
#include "arch/i386/mmu.h"
#include "arch/i386/x86.h"

#define PTE_FRAME      0xFFFFF000u      /* bits 31:12, the frame address */
#define PDE_USER_TABLE (PTE_P | PTE_W | PTE_U)

#define PDX(va)  ((uint32_t)(va) >> PGDIR_SHIFT)            /* directory index */
#define PTX(va)  (((uint32_t)(va) >> PAGE_SHIFT) & 0x3FF)   /* table index */

static inline bool pte_has_page(uint32_t pte)
{
	return (pte & PTE_FRAME) != 0;
}

/* The kernel address of the page a PTE holds. */
static inline void *pte_page(uint32_t pte)
{
	return P2V(pte & PTE_FRAME);
}

/* ---- building a user PTE, as Linux's asm/pgtable.h ----
 * kernel/mm/vm.c says what a page's mapping allows; these say how an
 * i386 PTE writes it (SDM Vol. 3A 4.3, Table 4-6). */

/* A PTE holding page (a kernel address) and allowing nothing: not
 * present, so the processor ignores it, but the frame is kept (a
 * PROT_NONE area's page). */
static inline uint32_t mk_pte(void *page)
{
	return V2P(page) & PTE_FRAME;
}

/* pte, present and reachable from ring 3, read-only. */
static inline uint32_t pte_mkpresent_user(uint32_t pte)
{
	return pte | PTE_P | PTE_U;
}

/* pte, writable too. */
static inline uint32_t pte_mkwrite(uint32_t pte)
{
	return pte | PTE_W;
}

/* pte, read-only (copy-on-write: the next write faults). */
static inline uint32_t pte_wrprotect(uint32_t pte)
{
	return pte & ~(uint32_t)PTE_W;
}

/* pte with old's Accessed and Dirty bits, which the processor set and
 * a rewrite of the same page must not lose (SDM 4.8). */
static inline uint32_t pte_keep_young_dirty(uint32_t pte, uint32_t old)
{
	return pte | (old & (PTE_A | PTE_D));
}

/* Does new allow less than old (present, write or user lost)? Then every
 * CPU's TLB must forget old before the change counts; a gain needs no
 * shootdown: a CPU with the weaker entry faults and finds the new one
 * (SDM 4.10.4.3). */
static inline bool pte_rights_lost(uint32_t old, uint32_t new)
{
	return (old & ~new & (PTE_P | PTE_W | PTE_U)) != 0;
}

/* A fresh page directory: user half empty, kernel half kernel_pgdir's;
 * NULL when out of memory. */
uint32_t *pgdir_create(void);
/* Frees every user page table and the directory itself. The tables must
 * no longer hold pages (vm.c puts them first). */
void pgdir_destroy(uint32_t *pgdir);

/* The PTE for va, or NULL if va's page table does not exist. */
uint32_t *pte_lookup(uint32_t *pgdir, uint32_t va);
/* The PTE for va, allocating a zeroed page table if needed; NULL when
 * out of memory. */
uint32_t *pte_alloc(uint32_t *pgdir, uint32_t va);
/* The first PTE at or above *va and below end that holds a page, with *va
 * set to its address; NULL if there is none. Missing tables are skipped
 * 4 MiB at a time. */
uint32_t *pte_next_page(uint32_t *pgdir, uint32_t *va, uint32_t end);
/* If va's page table holds no entry at all, unhooks it from the directory
 * and returns it (the caller frees it with page_free(t, 0) after flushing
 * the TLB: the paging-structure caches may still hold the PDE, SDM
 * 4.10.3); otherwise NULL. */
uint32_t *pgtable_detach_if_empty(uint32_t *pgdir, uint32_t va);

/* This CPU's TLB entries for [start, end): invlpg per page, or a CR3
 * reload when that is cheaper (user pages are never global, so the reload
 * drops them all, SDM 4.10.4.1). */
void tlb_flush_local(uint32_t start, uint32_t end);

/* This CPU's TLB entry for the page at va (invlpg, SDM Vol. 2A). */
static inline void tlb_flush_one_local(uint32_t va)
{
	invlpg(va);
}

#endif
