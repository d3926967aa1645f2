/* arch/i386/tls.c - set_thread_area and get_thread_area (abi.md section
 * 5; tls-2.5.31-D9 with its errata fixed).
 *
 * A task's three TLS descriptors live in its thread_struct (the seed's
 * tls_array); switch_to copies them into the CPU's GDT entries 6..8 at
 * every switch (load_TLS). Here they are read and written (clone's
 * CLONE_SETTLS writes one in copy_thread, process.c). */
#include "arch/i386/cpu.h"
#include "arch/i386/desc.h"
#include "arch/i386/process.h"
#include "arch/i386/uaccess.h"
#include "arch/i386/x86.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "lib/string.h"

/* The seed's get_free_idx: the lowest empty slot, or -ESRCH. */
static int get_free_idx(const struct thread_struct *t)
{
	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		if (desc_empty(&t->tls_array[i]))
			return i + GDT_ENTRY_TLS_MIN;
	return -ESRCH;
}

SYSCALL(SYS_set_thread_area, set_thread_area)
{
	struct thread_struct *t = &current->thread;
	struct user_desc info;
	struct desc d;
	int idx, err;

	if (copy_from_user(&info, arg[0], sizeof(info)))
		return -EFAULT;
	/* Erratum 6: refuse 16-bit, code and not-present segments (hardened
	 * Linux's tls_desc_okay) before anything is allocated or written. */
	if ((err = user_desc_to_tls(&info, &d)) < 0)
		return err;
	idx = (int)info.entry_number;
	if (idx == -1) {
		/* "index -1 means the kernel should try to find and allocate
		 * an empty descriptor" (D9), and tell user space which. */
		if ((idx = get_free_idx(t)) < 0)
			return idx;
		if (put_user32(arg[0], (uint32_t)idx))
			return -EFAULT;
	}
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;

	/* The task's copy, which every switch to it loads, and then this
	 * CPU's GDT entries 6..8 through the same load_TLS - the one writer
	 * of those entries - so that the descriptor is live when the call
	 * returns. No switch can come in between: the kernel is not
	 * preemptive (a task leaves the CPU only in schedule(), which
	 * nothing here calls), so this CPU stays ours, and no interrupt
	 * handler touches entries 6..8. */
	t->tls_array[idx - GDT_ENTRY_TLS_MIN] = d;
	load_TLS(t, this_cpu());
	return 0;
}

SYSCALL(SYS_get_thread_area, get_thread_area)
{
	struct user_desc info;
	uint32_t idx;

	if (get_user32(&idx, arg[0]))
		return -EFAULT;
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	/* Errata 2 and 5: desc_to_user fills every field from the right bit
	 * and zeroes the rest, so no kernel stack bits leak. */
	desc_to_user(&current->thread.tls_array[idx - GDT_ENTRY_TLS_MIN], idx, &info);
	return copy_to_user(arg[0], &info, sizeof(info)) ? -EFAULT : 0;
}
