/* arch/i386/ldt.c - modify_ldt and the per-address-space LDT (abi.md
 * section 5).
 *
 * An address space may have a Local Descriptor Table of up to 8,192
 * entries (SDM Vol. 3A 3.5.1), grown a page at a time as entries are
 * written. It is loaded on every switch to a task of that address space:
 * switch_mm calls ldt_load, which points GDT entry 15 of this CPU at it
 * and loads LDTR. Entries follow Linux's rules (user_desc_to_ldt): any
 * DPL 3 code or data segment, present or not, but never a 16-bit one
 * (Spindle has no espfix: CVE-2014-8133). */
#include "arch/i386/cpu.h"
#include "kernel/panic.h"
#include "arch/i386/desc.h"
#include "arch/i386/mmu_context.h"
#include "arch/i386/tlb.h"
#include "arch/i386/uaccess.h"
#include "arch/i386/x86.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/vm.h"
#include "lib/string.h"

#define LDT_ENTRIES_PER_PAGE (PAGE_SIZE / sizeof(struct desc))

void ldt_load(struct mm *mm, struct cpu *c)
{
	if (mm && mm->ldt) {
		c->gdt[GDT_ENTRY_LDT] = desc_system((uint32_t)mm->ldt,
			mm->ldt_entries * sizeof(struct desc) - 1, DESC_TYPE_LDT);
		lldt(GDT_ENTRY_LDT * 8);
	} else {
		c->gdt[GDT_ENTRY_LDT] = (struct desc){ 0, 0 };
		lldt(0);
	}
}

/* Makes room for entry idx; 0 or -ENOMEM. mm->lock held. The table it
 * replaced goes to *old: other CPUs may still have it loaded, so it is
 * freed only after they reloaded (write_ldt). */
static int ldt_grow(struct mm *mm, uint32_t idx, struct desc **old)
{
	uint32_t want = (idx / LDT_ENTRIES_PER_PAGE + 1) * LDT_ENTRIES_PER_PAGE;
	struct desc *n;

	ASSERT(spin_held(&mm->lock));
	*old = NULL;
	if (idx < mm->ldt_entries)
		return 0;
	if (!(n = kzalloc(want * sizeof(struct desc))))
		return -ENOMEM;
	if (mm->ldt)
		memcpy(n, mm->ldt, mm->ldt_entries * sizeof(struct desc));
	*old = mm->ldt;
	mm->ldt = n;
	mm->ldt_entries = want;
	return 0;
}

/* On another CPU running one of mm's threads (an IPI from mm_cross_call,
 * as Linux's flush_ldt): load the new table. */
static void ldt_reload(struct mm *mm, uint32_t unused1, uint32_t unused2)
{
	(void)unused1, (void)unused2;
	ldt_load(mm, this_cpu());
}

/* fork: the child's address space gets a copy of the parent's LDT. */
int ldt_dup(struct mm *child, struct mm *parent)
{
	int err = 0;

	/* Plain spin_lock, as every user of mm->lock: with interrupts off we
	 * could not answer a TLB shootdown from the CPU holding it. */
	spin_lock(&parent->lock);

	/* Under the parent's lock: a CLONE_VM sibling's modify_ldt may be
	 * replacing the table (ldt_grow) right now. */
	if (parent->ldt) {
		child->ldt = kmalloc(parent->ldt_entries * sizeof(struct desc));
		if (child->ldt) {
			memcpy(child->ldt, parent->ldt, parent->ldt_entries * sizeof(struct desc));
			child->ldt_entries = parent->ldt_entries;
		} else {
			err = -ENOMEM;
		}
	}
	spin_unlock(&parent->lock);
	return err;
}

/* func 0: the raw descriptors, zero-filled up to bytecount, as Linux's
 * read_ldt (which caps bytecount at the LDT's maximum size). */
static long read_ldt(struct mm *mm, uint32_t ptr, uint32_t bytecount)
{
	uint32_t have, n;

	if (bytecount > LDT_ENTRIES * sizeof(struct desc))
		bytecount = LDT_ENTRIES * sizeof(struct desc);
	if (!user_range_ok(ptr, bytecount))
		return -EFAULT;
	have = mm->ldt ? mm->ldt_entries * (uint32_t)sizeof(struct desc) : 0;
	n = have < bytecount ? have : bytecount;
	if (n && copy_to_user(ptr, mm->ldt, n))
		return -EFAULT;
	if (bytecount > n && clear_user(ptr + n, bytecount - n))
		return -EFAULT;
	return bytecount;
}

/* func 1 (old mode) and 0x11: one struct user_desc. */
static long write_ldt(struct mm *mm, uint32_t ptr, uint32_t bytecount, bool oldmode)
{
	struct user_desc info;
	struct desc d, *old = NULL;
	uint32_t flags;
	int err;

	if (bytecount != sizeof(info))
		return -EINVAL;
	if (copy_from_user(&info, ptr, sizeof(info)))
		return -EFAULT;
	if (info.entry_number >= LDT_ENTRIES)
		return -EINVAL;
	if ((err = user_desc_to_ldt(&info, oldmode, &d)) < 0)
		return err;

	spin_lock(&mm->lock);           /* interrupts on: see ldt_dup */
	err = ldt_grow(mm, info.entry_number, &old);
	if (!err) {
		flags = read_eflags();
		cli();                  /* this CPU's GDT entry and LDTR together */
		mm->ldt[info.entry_number] = d;
		ldt_load(mm, this_cpu());
		if (flags & EFLAGS_IF)
			sti();
	}
	spin_unlock(&mm->lock);
	/* Every CPU running this address space reloads the LDT (its base,
	 * limit and the changed entry), and only then is the old table free. */
	if (!err)
		mm_cross_call(mm, ldt_reload, 0, 0);
	kfree(old);
	return err;
}

SYSCALL(SYS_modify_ldt, modify_ldt)
{
	struct mm *mm = current->mm;

	if (!mm)
		return -EINVAL;
	switch (arg[0]) {
	case MODIFY_LDT_READ:
		return read_ldt(mm, arg[1], arg[2]);
	case MODIFY_LDT_WRITE_OLD:
		return write_ldt(mm, arg[1], arg[2], true);
	case MODIFY_LDT_WRITE:
		return write_ldt(mm, arg[1], arg[2], false);
	default:
		return -ENOSYS;             /* Linux's answer to an unknown func */
	}
}
