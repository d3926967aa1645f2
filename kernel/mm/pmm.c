/* kernel/mm/pmm.c - the boot-time setup of the frame pool and the locked
 * page_alloc/page_free the rest of the kernel uses. */
#include "kernel/mm/pmm.h"
#include "kernel/bootinfo.h"
#include "kernel/panic.h"
#include "arch/i386/mmu.h"
#include "arch/i386/spinlock.h"
#include "boot/multiboot.h"

#define LOWMEM_FRAMES (LOWMEM_MAX / FRAME_SIZE)

static uint32_t bitmap[FRAMES_BITMAP_WORDS(LOWMEM_FRAMES)];
static struct frame_pool pool;
static struct spinlock pool_lock = SPINLOCK_INIT("frame pool");
static uint32_t total_frames;

extern char _text[], _end[];

static uint64_t ram_top(void)
{
	uint64_t top = 0;

	for (int i = 0; i < bootinfo.nregions; i++) {
		const struct boot_region *r = &bootinfo.regions[i];
		if (r->type == MULTIBOOT_MEMORY_AVAILABLE && r->addr + r->len > top)
			top = r->addr + r->len;
	}
	return top > LOWMEM_MAX ? LOWMEM_MAX : top;
}

void pmm_init(void)
{
	frames_init(&pool, bitmap, (uint32_t)(ram_top() >> FRAME_SHIFT));
	for (int i = 0; i < bootinfo.nregions; i++)
		if (bootinfo.regions[i].type == MULTIBOOT_MEMORY_AVAILABLE)
			frames_release_region(&pool, bootinfo.regions[i].addr,
					      bootinfo.regions[i].len);

	/* What is in use already: the first MiB (BIOS data, the EBDA and,
	 * with SMP, the AP start-up page), the kernel image, and the
	 * modules, which the initrd keeps using in place. */
	frames_reserve_region(&pool, 0, 0x100000);
	frames_reserve_region(&pool, V2P(_text), (uint32_t)(_end - _text));
	for (int i = 0; i < bootinfo.nmods; i++)
		frames_reserve_region(&pool, bootinfo.mods[i].start,
				      bootinfo.mods[i].end - bootinfo.mods[i].start);
	total_frames = frames_free_count(&pool);
	if (total_frames < 256)
		panic("only %u free frames: Spindle needs at least 1 MiB free", total_frames);
}

void *page_alloc(unsigned order)
{
	uint32_t flags = spin_lock_irqsave(&pool_lock);
	uint32_t pfn = frames_alloc(&pool, order);

	spin_unlock_irqrestore(&pool_lock, flags);
	return pfn == FRAME_NONE ? NULL : P2V(pfn << FRAME_SHIFT);
}

void page_free(void *va, unsigned order)
{
	uint32_t flags = spin_lock_irqsave(&pool_lock);
	int r = frames_free(&pool, V2P(va) >> FRAME_SHIFT, order);

	spin_unlock_irqrestore(&pool_lock, flags);
	if (r < 0)
		panic("page_free(%p, order %u): not an allocated block", va, order);
}

uint32_t pmm_free_frames(void)  { return frames_free_count(&pool); }
uint32_t pmm_total_frames(void) { return total_frames; }
uint32_t pmm_nframes(void)      { return pool.nframes; }
uint32_t pmm_ram_top(void)      { return pool.nframes << FRAME_SHIFT; }

void *pmm_alloc_boot(size_t bytes)
{
	uint32_t count = (uint32_t)((bytes + FRAME_SIZE - 1) / FRAME_SIZE);
	uint32_t pfn = frames_alloc_run(&pool, count);
	uint8_t *va;

	if (pfn == FRAME_NONE)
		panic("pmm_alloc_boot: no %u contiguous free frames", count);
	total_frames -= count;          /* permanent: not part of the budget */
	va = P2V(pfn << FRAME_SHIFT);
	for (size_t i = 0; i < (size_t)count * FRAME_SIZE; i++)
		va[i] = 0;
	return va;
}
