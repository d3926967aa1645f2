/* kernel/panic.c - PANIC: the reason, the registers, a symbolised
 * backtrace, and a power-off with status 0x7f (abi.md section 1).
 *
 * The output shape is fixed because tests/run.py checks it:
 *   PANIC: page fault at eip=0xc0101234 cr2=0xf8000000 err=0x2
 *     eax=... (registers, for traps)
 *   backtrace:
 *     #0 0xc0101234 ktest_fault_write+0x14
 *     #1 0xc0102345 ktest_run+0x40
 * Pintos prints raw addresses that a script must symbolise; xv6 prints raw
 * PCs. Here the kernel carries its own symbol table (kernel/ksyms.c). */
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/console.h"
#include "kernel/ksyms.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/traps.h"
#include "arch/i386/power.h"
#include "arch/i386/mmu.h"
#include "arch/i386/irqflags.h"
#include "arch/i386/smp.h"

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

/* Only the first panic prints; a panic while panicking just stops. */
static void panic_enter(void)
{
	local_irq_disable();
	if (__atomic_exchange_n(&panicking, 1, __ATOMIC_SEQ_CST)) {
		for (;;)
			halt();
	}
	console_panic_mode();
	smp_stop_others();
}

/* The reason, then the backtrace from (eip, ebp), then every CPU stops. */
static void __attribute__((noreturn)) vpanic_at(uint32_t eip, uint32_t ebp,
						const char *fmt, va_list ap)
{
	panic_enter();
	kprintf("\nPANIC: ");
	vkprintf(fmt, ap);
	kprintf("\n");
	backtrace_from(eip, ebp);
	smp_report_stopped();
	power_off(STATUS_PANIC);
}

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* Start at our caller: panic's own frame says nothing. */
	vpanic_at(((uint32_t *)read_ebp())[1] - 1, ((uint32_t *)read_ebp())[0], fmt, ap);
}

void panic_at(uint32_t eip, uint32_t ebp, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpanic_at(eip, ebp, fmt, ap);
}

static void print_registers(const struct trapframe *tf)
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

void panic_trap(struct trapframe *tf)
{
	panic_enter();
	if (tf->trapno == T_PGFLT)
		kprintf("\nPANIC: page fault at eip=0x%08x cr2=0x%08x err=%#x\n",
			tf->eip, read_cr2(), tf->err);
	else
		kprintf("\nPANIC: %s (trap %u) at eip=0x%08x err=%#x\n",
			trap_name(tf->trapno), tf->trapno, tf->eip, tf->err);
	print_registers(tf);
	/* A trap from ring 0 pushes no esp/ss: the stack at the fault
	 * continues right where the frame's esp field would be. */
	backtrace_trap(tf->eip, tf->ebp,
		       tf_from_user(tf) ? NULL : (const uint32_t *)&tf->esp);
	smp_report_stopped();
	power_off(STATUS_PANIC);
}
