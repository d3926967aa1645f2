/* arch/i386/kstack.h - kernel stacks with a guard page under each.
 *
 * A kernel stack is KSTACK_SIZE (8 KiB) bytes, KSTACK_SIZE-aligned, with
 * the thread_info at its bottom (thread_info.h: masking %esp finds it).
 * Taken from the direct map of RAM, the page under a stack is some other
 * object, so an overflow would silently write into it. Here every stack
 * lives instead in its own 16 KiB slot of a kernel area mapped with 4 KiB
 * pages (Linux's CONFIG_VMAP_STACK, on i386 terms):
 *
 *   slot + 0      unmapped
 *   slot + 4 KiB  unmapped: the guard page right under the stack
 *   slot + 8 KiB  the stack (two frames), thread_info at its bottom
 *   slot + 16 KiB the next slot
 *
 * so the stack is still KSTACK_SIZE-aligned, and %esp masking still
 * works. A push into the guard page is a page fault whose own frame
 * cannot be pushed: a double fault, which arrives on a task gate with a
 * stack of its own (doublefault.c) and panics with "kernel stack
 * overflow". A freed stack is unmapped at once, so a use of it after the
 * free faults too (on this CPU at once; on the others once their TLB
 * forgets it, which the next CR3 load does).
 *
 * The area starts at the first 4 MiB boundary above the direct map and
 * ends below KSTACK_AREA_END; its page tables are made at boot, before
 * any page directory copies the kernel half, so every address space sees
 * every stack. It has room for one stack per 8 KiB of RAM (more could not
 * be allocated anyway) as far as the addresses allow. */
#ifndef ARCH_I386_KSTACK_H
#define ARCH_I386_KSTACK_H

#include "lib/types.h"
#include "arch/i386/mmu.h"

/* Above the area, up to the MMIO window (mmio.c), nothing is ever mapped:
 * crash tests and poison values use addresses there. */
#define KSTACK_AREA_END 0xF8000000u
#define KSTACK_SLOT     (4 * PAGE_SIZE)

/* After paging_init (needs the frame pool), before any page directory
 * but kernel_pgdir exists. */
void kstack_area_init(uint32_t ram_top);

/* A mapped, KSTACK_SIZE-aligned stack (its lowest address), or NULL.
 * May flush the TLBs of all CPUs, so it is called with interrupts on. */
void *kstack_alloc(void);
void kstack_free(void *stack);

/* Stacks handed out now (for /proc/kstat's "cache kstack" line). */
uint32_t kstack_inuse(void);

/* Is addr inside the guard pages of a slot? Then *stack is the lowest
 * address of the stack above it. */
bool kstack_guard_hit(uint32_t addr, uint32_t *stack);

#endif
