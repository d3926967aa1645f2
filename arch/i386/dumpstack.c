/* arch/i386/dumpstack.c - what a panic shows of an i386 (dumpstack.h),
 * as Linux's arch/x86/kernel/dumpstack.c: the registers of a trap frame
 * and a backtrace that follows the saved-%ebp chain. */
#include "arch/i386/dumpstack.h"
#include "arch/i386/mmu.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/traps.h"
#include "arch/i386/x86.h"
#include "kernel/ksyms.h"
#include "kernel/printf.h"

#define BACKTRACE_MAX 32

static volatile int panicking;

/* A frame pointer is believable if it is in the kernel half, aligned, and
 * above the previous one (stacks grow down, so callers are higher). */
static bool frame_ok(uint32_t ebp, uint32_t prev)
{
	return ebp >= KERNBASE && ebp <= 0xFFFFFFF0u && (ebp & 3) == 0 && ebp > prev;
}

static void print_frame(int n, uint32_t eip)
{
	uint32_t off;
	const char *name = ksym_lookup(eip, &off);

	if (name)
		kprintf("  #%d 0x%08x %s+0x%x\n", n, eip, name, off);
	else
		kprintf("  #%d 0x%08x ?\n", n, eip);
}

static void backtrace_chain(int n, uint32_t ebp)
{
	uint32_t prev = 0;

	while (n < BACKTRACE_MAX && frame_ok(ebp, prev)) {
		uint32_t ret = ((uint32_t *)ebp)[1];
		if (ret == 0)
			break;
		/* ret is the instruction after the call; ret - 1 is inside
		 * the calling function even when the call was its last one. */
		print_frame(n++, ret - 1);
		prev = ebp;
		ebp = ((uint32_t *)ebp)[0];
	}
}

void backtrace_from(uint32_t eip, uint32_t ebp)
{
	kprintf("backtrace:\n");
	print_frame(0, eip);
	backtrace_chain(1, ebp);
}

/* gcc gives a leaf function that needs no stack no frame at all, even
 * with -fno-omit-frame-pointer, and a trap can also hit a function before
 * its `push %ebp; mov %esp,%ebp` has run. In both cases %ebp is still the
 * caller's frame and the return address is on the stack at the trap:
 * at esp[0] before the push, at esp[1] between the push and the mov. */
static void backtrace_trap(uint32_t eip, uint32_t ebp, const uint32_t *esp)
{
	static const uint8_t prologue[3] = { 0x55, 0x89, 0xe5 };
	uint32_t off;
	const uint8_t *fn;
	int n = 1;

	kprintf("backtrace:\n");
	print_frame(0, eip);
	if (ksym_lookup(eip, &off)) {
		fn = (const uint8_t *)(eip - off);
		bool has_prologue = fn[0] == prologue[0] && fn[1] == prologue[1] &&
				    fn[2] == prologue[2];
		if (!has_prologue || off == 0)
			print_frame(n++, esp[0] - 1);
		else if (off == 1)
			print_frame(n++, esp[1] - 1);
	}
	backtrace_chain(n, ebp);
}

/* An i386 frame (the kernel is built with -fno-omit-frame-pointer):
 * frame[0] the caller's saved %ebp, frame[1] the return address into it. */
void frame_caller(const void *frame, uint32_t *eip, uint32_t *ebp)
{
	const uint32_t *f = frame;

	*eip = f[1] - 1;        /* inside the caller (backtrace_chain) */
	*ebp = f[0];
}

static void show_regs(const struct trapframe *tf)
{
	kprintf("  eax=%08x ebx=%08x ecx=%08x edx=%08x\n",
		tf->eax, tf->ebx, tf->ecx, tf->edx);
	kprintf("  esi=%08x edi=%08x ebp=%08x esp=%08x\n",
		tf->esi, tf->edi, tf->ebp,
		tf_from_user(tf) ? tf->esp : (uint32_t)&tf->esp);
	kprintf("  eip=%08x eflags=%08x cs=%04x ds=%04x es=%04x fs=%04x gs=%04x\n",
		tf->eip, tf->eflags, tf->cs & 0xffff, tf->ds & 0xffff,
		tf->es & 0xffff, tf->fs & 0xffff, tf->gs & 0xffff);
	kprintf("  cr0=%08x cr2=%08x cr3=%08x cr4=%08x trap=%u err=%#x\n",
		read_cr0(), read_cr2(), read_cr3(), read_cr4(), tf->trapno, tf->err);
}

void show_trap(const struct trapframe *tf)
{
	if (tf->trapno == T_PGFLT)
		kprintf("page fault at eip=0x%08x cr2=0x%08x err=%#x\n",
			tf->eip, read_cr2(), tf->err);
	else
		kprintf("%s (trap %u) at eip=0x%08x err=%#x\n",
			trap_name(tf->trapno), tf->trapno, tf->eip, tf->err);
	show_regs(tf);
	/* A trap from ring 0 pushes no esp/ss: the stack at the fault
	 * continues right where the frame's esp field would be. */
	backtrace_trap(tf->eip, tf->ebp,
		       tf_from_user(tf) ? NULL : (const uint32_t *)&tf->esp);
}
