/* compat/linux/madvise.c - madvise 219 (abi.md section 9), which glibc
 * calls to give back an exited thread's stack, and mincore 218, which
 * asks which pages are in memory. */
#include "kernel/mm/vm_internal.h"
#include "arch/i386/pgtable.h"
#include "arch/i386/uaccess.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "lib/abi_linux.h"
#include "lib/errno.h"

#define MADV_NORMAL     0
#define MADV_RANDOM     1
#define MADV_SEQUENTIAL 2
#define MADV_WILLNEED   3
#define MADV_DONTNEED   4
#define MADV_FREE       8
#define MADV_COLD       20
#define MADV_PAGEOUT    21

/* Linux's madvise, for what Spindle's memory has: anonymous areas, no
 * swap, no huge pages, no KSM. glibc gives back an exited thread's stack
 * with MADV_DONTNEED. The access hints change nothing here (everything
 * is in memory); DONTNEED drops the pages of private areas, which read
 * as zeros at their next touch, and FREE (which lets the kernel choose
 * between the old data and zeros) does the same. A shared area keeps
 * its pages: they are the other sharers' too, and the next touch would
 * find the same data again on Linux. The advice Spindle does not have
 * (DONTFORK, WIPEONFORK, MERGEABLE, HUGEPAGE ...) is -EINVAL, as Linux
 * says of one its configuration lacks. */
static int vm_madvise(struct mm *mm, uint32_t addr, uint32_t len, int advice)
{
	uint32_t end;
	bool drop, hole;

	switch (advice) {
	case MADV_NORMAL: case MADV_RANDOM: case MADV_SEQUENTIAL: case MADV_WILLNEED:
	case MADV_COLD: case MADV_PAGEOUT:
		drop = false;
		break;
	case MADV_DONTNEED: case MADV_FREE:
		drop = true;
		break;
	default:
		return -EINVAL;
	}
	if (addr & PAGE_MASK_LOW)
		return -EINVAL;
	if (len == 0)
		return 0;
	len = page_up(len);
	end = addr + len;
	if (len == 0 || end < addr)
		return -EINVAL;         /* wraps around: Linux's answer */
	/* Beyond user space there are no areas: a hole, as on Linux. */
	spin_lock(&mm->lock);
	hole = end > USER_TOP || !range_covered(mm, addr, end);
	for (struct vma *v = mm->vmas; drop && v && v->start < end; v = v->next)
		if (v->end > addr && !(v->flags & VMA_SHARED))
			vm_unmap_pages(mm, v->start > addr ? v->start : addr,
				       v->end < end ? v->end : end, false);
	spin_unlock(&mm->lock);
	return hole ? -ENOMEM : 0;
}

/* madvise(addr, len, advice) */
LINUX_SYSCALL(SYS_madvise, madvise)
{
	return vm_madvise(current->mm, arg[0], arg[1], (int)arg[2]);
}

/* mincore(addr, len, vec), Linux's (mm/mincore.c) for anonymous memory:
 * one byte per page of [addr, addr + len), 1 if the page is in memory
 * now, 0 if it has never been touched or was dropped since (MADV_DONTNEED
 * above); with no swap, "in memory" is "has a frame". addr must be page
 * aligned (-EINVAL); a range beyond user space, or one with a page that
 * no area covers, is -ENOMEM, the bytes before that page written first
 * (Linux writes a batch at a time too); vec not writable is -EFAULT. */
#define MINCORE_BATCH 64        /* pages looked at under one hold of the lock */

LINUX_SYSCALL(SYS_mincore, mincore)
{
	struct mm *mm = current->mm;
	uint32_t addr = arg[0], len = arg[1], uvec = arg[2], pages, done = 0;
	unsigned char vec[MINCORE_BATCH];

	if (addr & PAGE_MASK_LOW)
		return -EINVAL;
	if (len > USER_TOP || addr > USER_TOP - len)
		return -ENOMEM;
	pages = (len + PAGE_SIZE - 1) / PAGE_SIZE;
	if (!user_range_ok(uvec, pages))
		return -EFAULT;
	while (done < pages) {
		uint32_t n = 0, want = pages - done < MINCORE_BATCH ? pages - done : MINCORE_BATCH;
		uint32_t va = addr + done * PAGE_SIZE;

		spin_lock(&mm->lock);
		for (; n < want && vma_find(mm, va); n++, va += PAGE_SIZE) {
			uint32_t *pte = pte_lookup(mm->pgdir, va);
			vec[n] = pte && pte_has_page(*pte);
		}
		spin_unlock(&mm->lock);
		if (n && copy_to_user(uvec + done, vec, n))
			return -EFAULT;
		done += n;
		if (n < want)
			return -ENOMEM;         /* a page no area covers */
	}
	return 0;
}
