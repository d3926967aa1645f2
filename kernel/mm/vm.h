/* kernel/mm/vm.h - user address spaces.
 *
 * A struct mm is one user address space: a page directory whose kernel
 * half (entries 768..1023) is a copy of kernel_pgdir's, and a sorted list
 * of areas (struct vma) that say which user addresses may be mapped and
 * how. Pages are mapped lazily: a fault inside an area maps a zeroed page
 * (anonymous memory, the stack, the heap) or breaks copy-on-write; a fault
 * outside every area (or against its protection) is the caller's SIGSEGV.
 *
 * fork copies the areas and shares every page read-only, counting the
 * sharers in the frame's reference count (kernel/mm/page.h); the first
 * write copies the page (or just makes it writable when it has one user).
 * CLONE_VM shares the struct mm itself, counted by `users`.
 *
 * Locking: mm->lock protects the areas and the page tables. */
#ifndef KERNEL_MM_VM_H
#define KERNEL_MM_VM_H

#include "lib/types.h"
#include "lib/abi.h"
#include "arch/i386/spinlock.h"

/* mmap2/mprotect protection bits and mmap2 flags (Linux i386 values). */
#define PROT_NONE   0x0
#define PROT_READ   0x1
#define PROT_WRITE  0x2
#define PROT_EXEC   0x4
#define MAP_SHARED    0x01
#define MAP_PRIVATE   0x02
#define MAP_FIXED     0x10
#define MAP_ANONYMOUS 0x20
#define MAP_FIXED_NOREPLACE 0x100000

/* vma->flags */
#define VMA_STACK  0x1      /* the initial stack */
#define VMA_HEAP   0x2      /* the brk area */
#define VMA_SHARED 0x4      /* MAP_SHARED: fork shares the pages, no COW */

struct vma {
	uint32_t start, end;    /* page aligned, end exclusive */
	uint32_t prot;          /* PROT_* */
	uint32_t flags;         /* VMA_* */
	struct vma *next;       /* sorted by address, no overlaps */
};

struct desc;                /* an i386 segment descriptor (arch/i386/desc.h) */

struct mm {
	uint32_t *pgdir;        /* kernel virtual address, page aligned */
	int users;              /* tasks sharing it (CLONE_VM); atomic */
	struct spinlock lock;
	struct vma *vmas;
	uint32_t brk_start;     /* end of the program's data: brk's floor */
	uint32_t brk;           /* the current break */
	uint32_t mmap_base;     /* mmap2 without MAP_FIXED searches below */
	/* modify_ldt (abi.md section 5): NULL until first written */
	struct desc *ldt;
	uint32_t ldt_entries;
	uint32_t rss_pages;     /* user pages mapped now (statistics) */
	/* execve's argument strings on the stack, [arg_start, arg_end):
	 * /proc/PID/cmdline (Linux's mm->arg_start and arg_end) */
	uint32_t arg_start, arg_end;
};

#define USER_STACK_TOP   USER_TOP                  /* 0xC0000000 */
#define USER_STACK_SIZE  (8u << 20)                /* 8 MiB area */
#define USER_MMAP_BASE   (USER_STACK_TOP - USER_STACK_SIZE - 0x10000000u)

void vm_init(void);                     /* the mm and vma caches */

struct mm *mm_create(void);             /* no user mappings; NULL: ENOMEM */
struct mm *mm_copy(struct mm *src);     /* fork: copy-on-write; NULL: ENOMEM */
void mm_get(struct mm *mm);             /* one more user (CLONE_VM) */
void mm_put(struct mm *mm);             /* the last put frees it all */
/* Running an mm on a CPU (CR3, active_mm) is switch_mm's, in
 * arch/i386/mmu_context.h. */

/* Adds an area [start, start+len) (page aligned, inside user space,
 * not overlapping another): 0, -EINVAL or -ENOMEM. */
int vm_add_area(struct mm *mm, uint32_t start, uint32_t len, uint32_t prot,
		uint32_t flags);
/* Copies n bytes from the kernel into mm at a user address inside an
 * area, mapping pages as needed, ignoring the area's protection (exec
 * uses it to load segments before the program runs). 0 or -ENOMEM
 * (-EFAULT if part of the range is outside every area). */
int vm_load(struct mm *mm, uint32_t uaddr, const void *src, uint32_t n);

/* A page fault at addr (write: a write access; user: from ring 3).
 * 0 if it was resolved (the access can be retried), -EFAULT if it is a
 * real fault (outside any area or against its protection), -ENOMEM if
 * no page could be had even from the out-of-memory policy (oom.h; then
 * current may be the process it killed). Sleeps while a victim dies. */
int vm_fault(struct mm *mm, uint32_t addr, bool write);
/* After vm_fault's err for a fault of current's, from user mode or not:
 * is nothing more to be done? Resolved, or out of memory with current's
 * process the one killed for it, whose SIGKILL is taken on the way back
 * to user mode before the access could be retried (oom.h). */
bool vm_fault_done(int err, bool user);
/* Is addr inside one of mm's areas (a fault there is SEGV_ACCERR, not
 * SEGV_MAPERR)? Takes mm->lock. */
bool vm_addr_mapped(struct mm *mm, uint32_t addr);

/* The system calls (abi.md sections 3 and 8). */
uint32_t vm_brk(struct mm *mm, uint32_t addr);
long vm_mmap(struct mm *mm, uint32_t addr, uint32_t len, uint32_t prot,
	     uint32_t flags, int fd, uint32_t pgoff);
int vm_munmap(struct mm *mm, uint32_t addr, uint32_t len);
int vm_mprotect(struct mm *mm, uint32_t addr, uint32_t len, uint32_t prot);

/* The physical address mapped at uaddr (the page faulted in first), or 0
 * if uaddr may not be accessed so. With write, a copy-on-write page is
 * broken first, so the address is that of the page the caller will
 * really see. Called with mm->lock held, which keeps the page where it is
 * until it is released (futex.c relies on that); says in *shared (if not
 * NULL) whether the area is MAP_SHARED. */
uint32_t vm_translate_locked(struct mm *mm, uint32_t uaddr, bool write, bool *shared);


#endif
