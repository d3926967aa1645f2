/* arch/i386/trap.c - where every interrupt and exception lands.
 *
 * trap_entry (vectors.S) calls trap(tf) with interrupts off. Hardware
 * interrupts go to the handler registered for their IRQ; an exception in
 * kernel mode is a kernel bug and panics with the exception's name and, for
 * a page fault, the faulting address from CR2 (SDM Vol. 3A 6.15, #PF). */
#include "arch/i386/traps.h"
#include "arch/i386/ioapic.h"
#include "arch/i386/lapic.h"
#include "arch/i386/smp.h"
#include "arch/i386/tlb.h"
#include "arch/i386/x86.h"
#include "arch/i386/extable.h"
#include "arch/i386/fpu.h"
#include "kernel/clock.h"
#include "kernel/panic.h"
#include "kernel/printf.h"
#include "kernel/sched.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "kernel/trace.h"
#include "kernel/mm/vm.h"

static irq_handler_t irq_handlers[NR_IRQS];
static unsigned long spurious_irqs;

static const char *const exception_names[] = {
	[T_DIVIDE] = "divide error",
	[T_DEBUG] = "debug",
	[T_NMI] = "non-maskable interrupt",
	[T_BRKPT] = "breakpoint",
	[T_OFLOW] = "overflow",
	[T_BOUND] = "bound range exceeded",
	[T_ILLOP] = "invalid opcode",
	[T_DEVICE] = "device not available",
	[T_DBLFLT] = "double fault",
	[T_COPROC] = "coprocessor segment overrun",
	[T_TSS] = "invalid TSS",
	[T_SEGNP] = "segment not present",
	[T_STACK] = "stack-segment fault",
	[T_GPFLT] = "general protection fault",
	[T_PGFLT] = "page fault",
	[T_RES15] = "reserved exception 15",
	[T_FPERR] = "x87 floating-point error",
	[T_ALIGN] = "alignment check",
	[T_MCHK] = "machine check",
	[T_SIMDERR] = "SIMD floating-point exception",
	[T_VIRT] = "virtualization exception",
	[T_CTRLPROT] = "control protection exception",
};

const char *trap_name(unsigned trapno)
{
	if (trapno < sizeof(exception_names) / sizeof(exception_names[0]) &&
	    exception_names[trapno])
		return exception_names[trapno];
	if (trapno < T_IRQ0)
		return "reserved exception";
	if (trapno == T_SYSCALL)
		return "system call";
	if (trapno < T_IRQ0 + NR_IRQS)
		return "hardware interrupt";
	return "unexpected interrupt";
}

void irq_register(int irq, irq_handler_t h)
{
	irq_handlers[irq] = h;
	irq_unmask(irq);
}

static void handle_irq(struct trapframe *tf)
{
	int irq = (int)tf->trapno - T_IRQ0;

	if (irq_spurious(irq)) {
		spurious_irqs++;
		return;
	}
	/* EOI first: a handler may switch away and come back much later. */
	irq_eoi(irq);
	if (irq_handlers[irq])
		irq_handlers[irq](tf);
}

/* The signal a user-mode exception becomes (abi.md section 7). */
static int exception_signal(unsigned trapno)
{
	switch (trapno) {
	case T_DIVIDE:
	case T_FPERR:
	case T_SIMDERR:
		return SIGFPE;
	case T_ILLOP:
		return SIGILL;
	case T_DEBUG:
	case T_BRKPT:
		return SIGTRAP;
	case T_ALIGN:
	case T_SEGNP:           /* Linux: segment_not_present, stack_segment */
	case T_STACK:
		return SIGBUS;
	default:
		return SIGSEGV;
	}
}

/* A fault in user mode ends only that process (or runs its handler): the
 * signal, marked as a fault so that do_signal prints one line if the task
 * dies of it. addr is CR2 for a page fault, the eip otherwise. The siginfo is Linux/i386's (traps.c and
 * fault.c of 2.6, unchanged since in these points):
 *   #PF  SIGSEGV SEGV_MAPERR when no area covers the address (a kernel
 *        address included: do_page_fault's bad_area_nosemaphore), else
 *        SEGV_ACCERR (an area that forbids this access); si_addr = CR2,
 *        which the frame's sigcontext.cr2 repeats (signal_frame.c);
 *   #DE  SIGFPE FPE_INTDIV, si_addr = eip (a quotient overflow too:
 *        the CPU raises #DE for both, SDM Vol. 3A 6.15);
 *   #UD  SIGILL ILL_ILLOPN, si_addr = eip;
 *   #DB  SIGTRAP, si_addr = eip (send_sigtrap), with Linux's
 *        get_si_code: TRAP_TRACE for a single step (DR6.BS; TF set by
 *        the program, across `int $0x80` too: iret gives the saved TF
 *        back, so the trap comes after the system call), TRAP_HWBKPT
 *        for a debug register's breakpoint, else TRAP_BRKPT;
 *   #AC  SIGBUS BUS_ADRALN, si_addr 0;
 *   the rest - int3 (SIGTRAP), #GP, into, bound, #TS (SIGSEGV), #NP/#SS (SIGBUS,
 *        as Linux's segment_not_present and stack_segment) - force_sig()
 *        in Linux, that is SI_KERNEL with si_addr 0;
 *   #MF, #XM SIGFPE FPE_FLTDIV, FPE_FLTINV ... from the task's saved x87
 *        status word or MXCSR (fpu_exception_code), si_addr = eip.
 * The fault's trapno and error code reach the frame through tf. */
static void user_fault(struct trapframe *tf, uint32_t addr)
{
	struct task *t = current;
	struct ksiginfo info = { .signo = exception_signal(tf->trapno), .code = SI_KERNEL,
				 .fault = true };

	switch (tf->trapno) {
	case T_PGFLT:
		info.code = t->mm && addr < USER_TOP && vm_addr_mapped(t->mm, addr) ?
			    SEGV_ACCERR : SEGV_MAPERR;
		info.addr = addr;
		break;
	case T_DIVIDE:
		info.code = FPE_INTDIV;
		info.addr = tf->eip;
		break;
	case T_ILLOP:
		info.code = ILL_ILLOPN;
		info.addr = tf->eip;
		break;
	case T_DEBUG: {
		uint32_t dr6 = read_dr6();
		write_dr6(DR6_RESET);
		info.code = (dr6 & DR6_BS) ? TRAP_TRACE :
			    (dr6 & DR6_B0_B3) ? TRAP_HWBKPT : TRAP_BRKPT;
		info.addr = tf->eip;
		break;
	}
	case T_ALIGN:
		info.code = BUS_ADRALN;
		break;
	case T_FPERR:
	case T_SIMDERR:
		/* Linux's math_error: the code from the saved status word or
		 * MXCSR; none unmasked means a spurious trap, no signal. */
		info.code = fpu_exception_code((int)tf->trapno);
		if (!info.code)
			return;
		info.addr = tf->eip;
		break;
	default:
		break;
	}
	/* No line here: a handler may catch it. do_signal prints one if
	 * the task dies of it (abi.md section 7). */
	force_signal_info(t, &info);
}

static void page_fault(struct trapframe *tf)
{
	uint32_t addr = read_cr2();
	bool write = tf->err & 2;           /* #PF error code bit 1: W/R */
	struct mm *mm = current ? current->mm : NULL;
	int err;

	/* The interrupt gate turned interrupts off; the fault may allocate,
	 * so turn them back on, but only if the faulting code had them on. */
	if (tf->eflags & EFLAGS_IF)
		sti();
	err = addr < USER_TOP && mm ? vm_fault(mm, addr, write) : -EFAULT;

	if (vm_fault_done(err, tf_from_user(tf)))
		return;
	if (tf_from_user(tf)) {
		user_fault(tf, addr);
		return;
	}
	cli();
	if (addr < USER_TOP && extable_fixup(tf->eip)) {
		tf->eip = extable_fixup(tf->eip);
		return;
	}
	panic_trap(tf);
}

/* The work before a return to ring 3, until there is none (Linux's
 * exit_to_user_mode_loop): a pending reschedule, then signals. Returns
 * with interrupts off. Not inline: its registers and frame would cost
 * the common case, which has nothing to do (return_to_user_prepare). */
static __attribute__((noinline)) void return_to_user_work(struct trapframe *tf, struct task *t)
{
	for (;;) {
		cli();
		if (need_resched()) {
			schedule();             /* returns with interrupts on */
			continue;
		}
		if (!t->tif_sigpending && !group_signal_queued(t))
			return;
		/* Cleared before the sets are read: a signal queued after
		 * the read flags us again (clear_tif_sigpending, task.h). */
		clear_tif_sigpending(t);
		/* A saved mask with nothing pending: rt_sigsuspend's
		 * signal was taken by another thread. do_signal puts the
		 * caller's mask back before the call returns or restarts. */
		if (signal_pending(t) || linux_saved_sigmask_pending(t)) {
			set_tif_sigpending(t);  /* look again after this one */
			sti();
			do_signal(tf);
			continue;
		}
		/* No handler is to run now: an interrupted call whose
		 * result says "restart" is made again (compat/linux/restart.h).
		 * Such a call saw signal_pending(), so the flag was set. */
		linux_restart_no_handler(tf);
		return;
	}
}

/* Everything that must happen before a return to ring 3. Called with
 * interrupts in any state; the last check is made, and the function
 * returns, with them off (iret turns them on in user mode), as Linux's
 * work_pending loop in entry.S: a reschedule IPI or a signal's kick that
 * came after a check made with them on would be taken here, in kernel
 * mode, and not acted on before this CPU's next tick. The common case
 * is no work: no reschedule asked, nothing flagged (t->tif_sigpending,
 * Linux's TIF_SIGPENDING) and nothing queued for the group - a few
 * loads, as Linux's _TIF_WORK_MASK test in exit_to_user_mode_prepare. */
void return_to_user_prepare(struct trapframe *tf)
{
	struct task *t = current;       /* the same task after schedule() */

	cli();
	if (need_resched() || t->tif_sigpending || group_signal_queued(t))
		return_to_user_work(tf, t);
}

void timer_interrupt(struct trapframe *tf)
{
	linux_account_tick(tf_from_user(tf));   /* the tick's CPU time */
	clock_tick();
}

void trap(struct trapframe *tf)
{
	/* An interrupt in kernel mode may take and release spinlocks of its
	 * own (the tick's timers): the lock the interrupted code took last
	 * is its last again afterwards, so that schedule_checks names one
	 * that is held (spinlock.h). */
	struct spinlock *last = spin_depth[current_thread_info()->cpu].last;

	/* Every entry from ring 3 lands at the top of the task's kernel
	 * stack, where current->tf was set when the task got its frame
	 * (process.c); syscall_entry relies on that without looking. */
	if (tf_from_user(tf) && current->tf != tf)
		panic("trap from user mode with its frame at %p, not at %p",
		      (void *)tf, (void *)current->tf);

	/* System calls do not come here: vector 0x80 has its own entry,
	 * syscall_entry (vectors.S). */
	if (tf->trapno >= T_IRQ0 && tf->trapno < T_IRQ0 + NR_IRQS) {
		handle_irq(tf);
	} else if (tf->trapno == T_LAPIC_TIMER) {
		lapic_eoi();
		timer_interrupt(tf);
	} else if (tf->trapno == T_IPI_TLB) {
		TRACE(TR_IPI_RECV, T_IPI_TLB, 0, 0, 0, 0);
		lapic_eoi();
		mm_cross_call_interrupt();
	} else if (tf->trapno == T_IPI_RESCHEDULE) {
		/* need_resched or a signal is pending (a kick, signal.c):
		 * the return path acts, if this was user mode; if it was the
		 * kernel, it is on its way to that path anyway. */
		TRACE(TR_IPI_RECV, T_IPI_RESCHEDULE, 0, 0, 0, 0);
		lapic_eoi();
	} else if (tf->trapno == T_IPI_STOP ||
		   (tf->trapno == T_NMI && smp_stopping())) {
		smp_stop_this_cpu(tf);  /* a panic on another CPU: never returns */
	} else if (tf->trapno == T_LAPIC_SPURIOUS) {
		spurious_irqs++;        /* SDM Vol. 3A 10.9: no EOI */
	} else if (tf->trapno == T_PGFLT) {
		page_fault(tf);
	} else if (tf->trapno == T_DEVICE) {
		fpu_device_not_available(tf);   /* CR0.TS: the task's FPU state */
	} else if (tf_from_user(tf)) {
		user_fault(tf, tf->eip);
	} else if ((tf->trapno == T_GPFLT || tf->trapno == T_SEGNP ||
		    tf->trapno == T_STACK) && extable_fixup(tf->eip)) {
		/* A user segment register that can no longer be loaded, or
		 * an iret to a user %ss that can not (vectors.S trap_ret):
		 * continue at the fixup. */
		tf->eip = extable_fixup(tf->eip);
	} else {
		panic_trap(tf);
	}

	if (tf_from_user(tf))
		return_to_user_prepare(tf);
	else
		spin_depth[current_thread_info()->cpu].last = last;
}
