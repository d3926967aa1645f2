/* compat/linux/madvise.c - madvise 219 (abi.md section 9), which glibc
 * calls to give back an exited thread's stack. */
#include "kernel/mm/vm_internal.h"
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
