/* kernel/mm/vma.c - the areas of an address space and the memory system
 * calls' logic: vm_add_area, mmap2, munmap, mprotect, brk (vm.h; abi.md
 * section 8; errors as Linux 2.6 gives them).
 *
 * The areas are a list sorted by address, without overlaps. Neighbours
 * with the same prot and flags are merged after every change (Linux's
 * vma_merge), so mprotect-ing a range and back leaves one area again.
 * A change that splits areas takes its spare struct vmas before touching
 * anything, so running out of memory leaves the list as it was.
 *
 * Where mmap2 puts a mapping without MAP_FIXED (Linux's top-down layout):
 * at the hint if the caller gave one and it is free; else as high as
 * possible below mm->mmap_base (256 MiB under the stack), so mappings
 * grow down towards the heap; else in the highest gap anywhere in user
 * space that fits; else -ENOMEM.
 *
 * RLIMIT_AS bounds the sum of the areas' sizes: mmap2 beyond it is
 * -ENOMEM and brk does not move (Linux's may_expand_vm). The caller's
 * limit applies (mmap2 and brk work on current->mm). */
#include "kernel/mm/vm.h"
#include "kernel/mm/vm_internal.h"
#include "kernel/panic.h"
#include "kernel/task.h"
#include "lib/errno.h"


struct vma *vma_find(struct mm *mm, uint32_t addr)
{
	ASSERT(spin_held(&mm->lock));
	for (struct vma *v = mm->vmas; v; v = v->next)
		if (addr < v->end)
			return addr >= v->start ? v : NULL;
	return NULL;
}

bool vm_addr_mapped(struct mm *mm, uint32_t addr)
{
	bool mapped;

	spin_lock(&mm->lock);
	mapped = vma_find(mm, addr) != NULL;
	spin_unlock(&mm->lock);
	return mapped;
}

/* Is no area inside [start, end)? */
static bool range_free(struct mm *mm, uint32_t start, uint32_t end)
{
	for (struct vma *v = mm->vmas; v && v->start < end; v = v->next)
		if (v->end > start)
			return false;
	return true;
}

/* Do the areas cover all of [start, end), without a hole? */
bool range_covered(struct mm *mm, uint32_t start, uint32_t end)
{
	for (struct vma *v = mm->vmas; v && start < end; v = v->next) {
		if (v->end <= start)
			continue;
		if (v->start > start)
			return false;
		start = v->end;
	}
	return start >= end;
}

/* ---- spare areas, taken before the lock-held change ---- */

#define MAX_SPARES 3    /* MAP_FIXED: two splits and the new area */

struct spares {
	int n;
	struct vma *v[MAX_SPARES];
};

static int spares_get(struct spares *s, int n)
{
	for (s->n = 0; s->n < n; s->n++)
		if (!(s->v[s->n] = objcache_alloc(&vma_cache)))
			return -ENOMEM;
	return 0;
}

static struct vma *spare_take(struct spares *s)
{
	ASSERT(s->n > 0);
	return s->v[--s->n];
}

static void spares_put(struct spares *s)
{
	while (s->n > 0)
		objcache_free(&vma_cache, s->v[--s->n]);
}

/* ---- list surgery (mm->lock held) ---- */

/* Makes an area boundary at addr, if addr is inside an area. */
static void split_at(struct mm *mm, uint32_t addr, struct spares *s)
{
	struct vma *v = vma_find(mm, addr), *n;

	ASSERT(spin_held(&mm->lock));
	if (!v || v->start == addr)
		return;
	n = spare_take(s);
	*n = *v;
	n->start = addr;
	v->end = addr;
	v->next = n;
}

static void insert_area(struct mm *mm, struct vma *n)
{
	struct vma **pp = &mm->vmas;

	ASSERT(spin_held(&mm->lock));
	while (*pp && (*pp)->start < n->start)
		pp = &(*pp)->next;
	n->next = *pp;
	*pp = n;
}

static void merge_areas(struct mm *mm)
{
	struct vma *v = mm->vmas, *n;

	ASSERT(spin_held(&mm->lock));
	while (v && (n = v->next)) {
		if (v->end == n->start && v->prot == n->prot && v->flags == n->flags) {
			v->end = n->end;
			v->next = n->next;
			objcache_free(&vma_cache, n);
		} else {
			v = n;
		}
	}
}

/* Takes [start, end) out of the address space: its pages, then its areas
 * (splitting the ones that straddle start or end: two spares at most). */
static void remove_range(struct mm *mm, uint32_t start, uint32_t end, struct spares *s)
{
	struct vma **pp = &mm->vmas, *v;

	ASSERT(spin_held(&mm->lock));
	vm_unmap_pages(mm, start, end, true);
	split_at(mm, start, s);
	split_at(mm, end, s);
	while ((v = *pp) && v->start < end) {
		if (v->start >= start) {
			*pp = v->next;
			objcache_free(&vma_cache, v);
		} else {
			pp = &v->next;
		}
	}
}

/* Adds the area [start, end): the range is free, n a fresh struct vma. */
static void add_area(struct mm *mm, struct vma *n, uint32_t start, uint32_t end,
		     uint32_t prot, uint32_t flags)
{
	ASSERT(spin_held(&mm->lock));
	n->start = start;
	n->end = end;
	n->prot = prot;
	n->flags = flags;
	insert_area(mm, n);
	merge_areas(mm);
}

/* Is [start, start+len) a page-aligned range inside user space? */
static bool user_range(uint32_t start, uint32_t len)
{
	return !((start | len) & PAGE_MASK_LOW) && len > 0 &&
	       start >= USER_BASE && start <= USER_TOP && len <= USER_TOP - start;
}

int vm_add_area(struct mm *mm, uint32_t start, uint32_t len, uint32_t prot,
		uint32_t flags)
{
	struct spares s;
	int err = 0;

	if (!user_range(start, len) || (prot & ~PROT_ACCESS))
		return -EINVAL;
	if (spares_get(&s, 1) < 0) {
		spares_put(&s);
		return -ENOMEM;
	}
	spin_lock(&mm->lock);
	if (range_free(mm, start, start + len))
		add_area(mm, spare_take(&s), start, start + len, prot, flags);
	else
		err = -EINVAL;
	spin_unlock(&mm->lock);
	spares_put(&s);
	return err;
}

/* May the address space map [start, end), replacing what it maps there
 * now, and stay within the caller's RLIMIT_AS? The sum is counted only
 * when there is a limit (one walk of the areas). mm->lock held. */
static bool may_expand(struct mm *mm, uint32_t start, uint32_t end)
{
	unsigned long limit = linux_as_limit();
	uint64_t total = end - start;

	ASSERT(spin_held(&mm->lock));
	if (limit == RLIM_INFINITY)
		return true;
	for (const struct vma *v = mm->vmas; v; v = v->next) {
		uint32_t lo = v->start > start ? v->start : start;
		uint32_t hi = v->end < end ? v->end : end;
		total += v->end - v->start;
		if (hi > lo)
			total -= hi - lo;       /* already mapped: replaced */
	}
	return total <= limit;
}

/* ---- mmap2 ---- */

/* A free range of len bytes by the policy at the top of this file, or 0. */
static uint32_t find_free(struct mm *mm, uint32_t hint, uint32_t len)
{
	uint32_t below = 0, anywhere = 0, gap_start = USER_BASE;
	const struct vma *v = mm->vmas;

	hint = page_up(hint);
	if (hint >= USER_BASE && hint <= USER_TOP - len && range_free(mm, hint, hint + len))
		return hint;
	for (;;) {
		uint32_t gap_end = v ? v->start : USER_TOP;
		uint32_t top = gap_end < mm->mmap_base ? gap_end : mm->mmap_base;
		/* Ascending gaps: the last fit is the highest. */
		if (gap_end > gap_start && gap_end - gap_start >= len)
			anywhere = gap_end - len;
		if (top > gap_start && top - gap_start >= len)
			below = top - len;
		if (!v)
			break;
		if (v->end > gap_start)
			gap_start = v->end;
		v = v->next;
	}
	return below ? below : anywhere;
}

long vm_mmap(struct mm *mm, uint32_t addr, uint32_t len, uint32_t prot,
	     uint32_t flags, int fd, uint32_t pgoff)
{
	uint32_t type = flags & (MAP_SHARED | MAP_PRIVATE);
	struct spares s;
	long ret;

	(void)pgoff;                    /* anonymous memory has no offset */
	/* fd is ignored with MAP_ANONYMOUS, as on Linux. File mappings:
	 * a bad fd is EBADF; the initrd's files cannot be mapped (ENODEV,
	 * Linux's answer for a file without an mmap method). */
	if (!(flags & MAP_ANONYMOUS) && fd < 0)
		return -EBADF;
	if (len == 0)
		return -EINVAL;
	if (type != MAP_SHARED && type != MAP_PRIVATE)
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS))
		return -ENODEV;
	prot &= PROT_ACCESS;            /* Linux ignores unknown prot bits here */
	len = page_up(len);
	if (len == 0 || len > USER_TOP - USER_BASE)
		return -ENOMEM;
	/* MAP_FIXED: unaligned or in page 0 is EINVAL (Linux says EPERM
	 * below mmap_min_addr); not fitting below USER_TOP is ENOMEM, as
	 * Linux's get_unmapped_area says. */
	/* MAP_FIXED_NOREPLACE (Linux 4.17): MAP_FIXED, except that a range
	 * already mapped in part is -EEXIST instead of replaced. */
	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	if ((flags & MAP_FIXED) && ((addr & PAGE_MASK_LOW) || addr < USER_BASE))
		return -EINVAL;
	if ((flags & MAP_FIXED) && (addr > USER_TOP || len > USER_TOP - addr))
		return -ENOMEM;
	/* MAP_FIXED may split two areas and adds one. */
	if (spares_get(&s, 3) < 0) {
		spares_put(&s);
		return -ENOMEM;
	}
	spin_lock(&mm->lock);
	if (!(flags & MAP_FIXED))
		addr = find_free(mm, addr, len);
	if ((flags & MAP_FIXED_NOREPLACE) && !range_free(mm, addr, addr + len)) {
		ret = -EEXIST;
	} else if (addr && !may_expand(mm, addr, addr + len)) {
		ret = -ENOMEM;
	} else if (addr) {
		if (flags & MAP_FIXED)
			remove_range(mm, addr, addr + len, &s);
		add_area(mm, spare_take(&s), addr, addr + len, prot,
			 type == MAP_SHARED ? VMA_SHARED : 0);
		ret = (long)addr;
	} else {
		ret = -ENOMEM;
	}
	spin_unlock(&mm->lock);
	spares_put(&s);
	return ret;
}

/* ---- munmap ---- */

int vm_munmap(struct mm *mm, uint32_t addr, uint32_t len)
{
	struct spares s;

	if ((addr & PAGE_MASK_LOW) || len == 0)
		return -EINVAL;
	len = page_up(len);
	if (len == 0 || addr > USER_TOP || len > USER_TOP - addr)
		return -EINVAL;
	if (spares_get(&s, 2) < 0) {
		spares_put(&s);
		return -ENOMEM;
	}
	spin_lock(&mm->lock);
	remove_range(mm, addr, addr + len, &s);
	spin_unlock(&mm->lock);
	spares_put(&s);
	return 0;
}

/* ---- mprotect ---- */

int vm_mprotect(struct mm *mm, uint32_t addr, uint32_t len, uint32_t prot)
{
	uint32_t end;
	struct spares s;
	int err = 0;

	if ((addr & PAGE_MASK_LOW) || (prot & ~PROT_ACCESS))
		return -EINVAL;
	if (len == 0)
		return 0;
	end = addr + page_up(len);
	if (end <= addr || end > USER_TOP)
		return -ENOMEM;
	if (spares_get(&s, 2) < 0) {
		spares_put(&s);
		return -ENOMEM;
	}
	spin_lock(&mm->lock);
	/* Linux changes the areas up to the first hole and then says
	 * ENOMEM; here a range with a hole changes nothing. */
	if (!range_covered(mm, addr, end)) {
		err = -ENOMEM;
	} else {
		split_at(mm, addr, &s);
		split_at(mm, end, &s);
		for (struct vma *v = vma_find(mm, addr); v && v->start < end; v = v->next) {
			v->prot = prot;
			vm_protect_pages(mm, v, v->start, v->end);
		}
		merge_areas(mm);
	}
	spin_unlock(&mm->lock);
	spares_put(&s);
	return err;
}

/* ---- brk ---- */

/* The break moves between brk_start and the next area above; the heap
 * is the VMA_HEAP area(s) in [brk_start, page_up(brk)). Growing maps
 * nothing yet (the pages come on first touch); shrinking frees them.
 * Linux's answer on every failure: the old break. */
uint32_t vm_brk(struct mm *mm, uint32_t addr)
{
	uint32_t old, old_end, new_end;
	struct spares s;

	/* Growing adds an area; shrinking may split two. */
	if (spares_get(&s, 2) < 0) {
		spares_put(&s);
		return mm->brk;
	}
	spin_lock(&mm->lock);
	old = mm->brk;
	old_end = page_up(old);
	new_end = page_up(addr);
	if (mm->brk_start < USER_BASE || addr < mm->brk_start || addr > USER_TOP)
		goto out;
	if (new_end > old_end) {
		if (!range_free(mm, old_end, new_end) || !may_expand(mm, old_end, new_end))
			goto out;
		add_area(mm, spare_take(&s), old_end, new_end,
			 PROT_READ | PROT_WRITE, VMA_HEAP);
	} else if (new_end < old_end) {
		remove_range(mm, new_end, old_end, &s);
	}
	mm->brk = addr;
out:
	old = mm->brk;
	spin_unlock(&mm->lock);
	spares_put(&s);
	return old;
}
