/* arch/i386/signal_frame.c - building and unwinding a handler's frame
 * (signal_frame.h has the layout), Linux i386's setup_rt_frame and
 * sys_rt_sigreturn. */
#include "arch/i386/signal_frame.h"
#include "arch/i386/fpu.h"
#include "arch/i386/segment.h"
#include "arch/i386/traps.h"
#include "arch/i386/trapframe.h"
#include "arch/i386/uaccess.h"
#include "arch/i386/x86.h"
#include "kernel/printf.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "lib/string.h"

#define FRAME_OFF(field) ((uint32_t)__builtin_offsetof(struct rt_sigframe, field))

/* EFLAGS bits (SDM Vol. 1 3.4.3). */
#define EFLAGS_TF 0x00000100u       /* single step */
#define EFLAGS_DF 0x00000400u       /* direction */
/* What a frame may change on rt_sigreturn: the status flags, TF, DF and
 * AC (Linux's FIX_EFLAGS: CF PF AF ZF SF TF DF OF AC). Never IOPL, NT,
 * VM, IF: those are the kernel's. */
#define SIGRETURN_EFLAGS 0x00040DD5u


/* The old Linux trampoline, used when there is no SA_RESTORER:
 * b8 ad 00 00 00   movl $__NR_rt_sigreturn, %eax
 * cd 80            int  $0x80
 * 00               pad (Linux's "never used, only for gdb") */
static const uint8_t sigreturn_code[8] = {
	0xb8, SYS_rt_sigreturn, 0x00, 0x00, 0x00, 0xcd, 0x80, 0x00
};
_Static_assert(SYS_rt_sigreturn < 256, "the trampoline holds the number in one byte");

/* Linux's siginfo_layout: a code of the kernel's own (> 0, but not the
 * catch-all SI_KERNEL) on a fault signal means the _sigfault member,
 * si_addr; anything else is a sender's _kill (pid, uid) or, for an exit
 * signal, _sigchld, which extends it with si_status. */
static bool fault_layout(const struct ksiginfo *info)
{
	if (info->code <= 0 || info->code == SI_KERNEL)
		return false;
	switch (info->signo) {
	case SIGILL:
	case SIGFPE:
	case SIGSEGV:
	case SIGBUS:
	case SIGTRAP:
		return true;
	default:
		return false;
	}
}

void copy_siginfo(struct siginfo *to, const struct ksiginfo *from)
{
	to->si_signo = from->signo;
	to->si_code = from->code;
	if (fault_layout(from)) {
		to->u.fault.addr = from->addr;
		return;
	}
	to->u.chld.pid = from->pid;
	to->u.chld.uid = 0;                     /* Spindle has no users */
	to->u.chld.status = from->status;       /* 0 but for exit signals */
}

void save_sigcontext(struct sigcontext *sc, const struct trapframe *tf,
		     const struct ksiginfo *info, uint64_t oldmask, uint32_t fpstate)
{
	sc->gs = (uint16_t)tf->gs;
	sc->fs = (uint16_t)tf->fs;
	sc->es = (uint16_t)tf->es;
	sc->ds = (uint16_t)tf->ds;
	sc->edi = tf->edi;
	sc->esi = tf->esi;
	sc->ebp = tf->ebp;
	sc->esp = tf->esp;
	sc->ebx = tf->ebx;
	sc->edx = tf->edx;
	sc->ecx = tf->ecx;
	sc->eax = tf->eax;
	/* The trap this delivery ends: 0x80 for a call, the exception
	 * vector for a fault (with its error code: for #PF the P, W/R and
	 * U/S bits, SDM Vol. 3A 4.7), the interrupt's vector when it came
	 * in on a timer tick or a reschedule IPI. A fault is delivered on
	 * the return from its own trap, so a fault's frame says its own
	 * vector, as Linux's thread.trap_nr does. */
	sc->trapno = tf->trapno;
	/* A call has no error code: its slot holds the call's number
	 * (syscall_restart.h), which is not the user's business. */
	sc->err = tf->trapno == T_SYSCALL ? 0 : tf->err;
	sc->eip = tf->eip;
	sc->cs = (uint16_t)tf->cs;
	sc->eflags = tf->eflags;
	sc->esp_at_signal = tf->esp;
	sc->ss = (uint16_t)tf->ss;
	sc->fpstate = fpstate;          /* fpu_signal.c: above the frame, or 0 */
	sc->oldmask = (uint32_t)oldmask;
	/* Linux reports the faulting address of a bad user page fault in
	 * cr2 (thread.cr2, saved from CR2 as the fault happened: SDM Vol.
	 * 3A 6.15, #PF). Spindle keeps it in the SIGSEGV's siginfo, so the
	 * frame of that SIGSEGV has it; other frames say 0 (Linux's would
	 * repeat the thread's last bad page fault). */
	sc->cr2 = (info->signo == SIGSEGV &&
		   (info->code == SEGV_MAPERR || info->code == SEGV_ACCERR)) ? info->addr : 0;
}

/* Linux's get_sigframe, for both frames: below the interrupted stack
 * (or at the top of the alternate one: sigaltstack_frame_top), the FPU
 * state first (fpu_sigframe_alloc: nothing for a task without one, its
 * address in *fpstate), then a frame of size bytes below it, aligned as
 * the i386 ABI wants at a function's entry: ((sp + 4) & 15) == 0, the
 * return address just pushed. A stack too low wraps to the top of the
 * address space and the copy fails. */
uint32_t frame_sp(const struct trapframe *tf, const struct k_sigaction *ka,
		  uint32_t size, uint32_t *fpstate)
{
	uint32_t sp = fpu_sigframe_alloc(linux_sigaltstack_frame_top(tf->esp, ka->flags), fpstate) - size;

	return ((sp + 4) & ~15u) - 4;
}

/* Into the handler, for both frames: its stack and address, the
 * arguments in eax/edx/ecx, the flat user selectors; DF clear as the ABI
 * demands at a call, TF clear so the handler is not single-stepped. */
void enter_handler(struct trapframe *tf, const struct k_sigaction *ka, uint32_t sp,
		   uint32_t eax, uint32_t edx, uint32_t ecx)
{
	tf->esp = sp;
	tf->eip = (uint32_t)ka->handler;
	tf->eax = eax;
	tf->edx = edx;
	tf->ecx = ecx;
	tf->cs = __USER_CS;
	tf->ds = tf->es = tf->ss = __USER_DS;
	tf->eflags &= ~(EFLAGS_TF | EFLAGS_DF);
}

int setup_rt_frame(const struct ksiginfo *info, const struct k_sigaction *ka,
		   uint64_t oldmask, struct trapframe *tf)
{
	int sig = info->signo;
	struct rt_sigframe f;
	uint32_t fpstate;
	uint32_t sp = frame_sp(tf, ka, sizeof(f), &fpstate);

	memset(&f, 0, sizeof(f));
	f.pretcode = (ka->flags & SA_RESTORER) ? (uint32_t)ka->restorer
					       : sp + FRAME_OFF(retcode);
	f.sig = sig;
	f.pinfo = sp + FRAME_OFF(info);
	f.puc = sp + FRAME_OFF(uc);
	copy_siginfo(&f.info, info);
	linux_sigaltstack_save(&f.uc.uc_stack.ss_sp, &f.uc.uc_stack.ss_flags,
			 &f.uc.uc_stack.ss_size, tf->esp);
	save_sigcontext(&f.uc.uc_mcontext, tf, info, oldmask, fpstate);
	f.uc.uc_sigmask[0] = (uint32_t)oldmask;
	f.uc.uc_sigmask[1] = (uint32_t)(oldmask >> 32);
	memcpy(f.retcode, sigreturn_code, sizeof(f.retcode));
	if (copy_to_user(sp, &f, sizeof(f)))
		return -EFAULT;
	/* Last, as it hands the handler a fresh FPU state: a failure
	 * before leaves the task's state as it was. */
	if (fpu_save_sigframe(fpstate))
		return -EFAULT;

	/* handler(sig, &info, &uc), the arguments also in eax/edx/ecx for
	 * a regparm(3) handler, as Linux does. */
	enter_handler(tf, ka, sp, (uint32_t)sig, f.pinfo, f.puc);
	return 0;
}

/* A data selector from the frame: only one with RPL 3 (Linux's
 * COPY_SEG; a bad but RPL 3 one is caught by trap_ret's fixups, which
 * load 0 instead). */
static uint32_t user_selector(uint16_t sel)
{
	return (sel & 3) == 3 ? sel : 0;
}

/* The handler returned: its `ret` popped pretcode, so the frame starts
 * at %esp - 4. Everything is restored from the frame, sanitised so that
 * user space cannot get a kernel selector or privileged flag through
 * it. The result is the restored %eax, which the dispatcher stores back. */
SYSCALL(SYS_rt_sigreturn, rt_sigreturn)
{
	struct task *t = current;
	struct trapframe *tf = t->tf;
	uint32_t frame = tf->esp - 4;
	struct ucontext uc;
	const struct sigcontext *sc = &uc.uc_mcontext;

	if (copy_from_user(&uc, frame + FRAME_OFF(uc), sizeof(uc))) {
		kprintf("pid %d (%s): bad signal frame at 0x%08x in rt_sigreturn: SIGSEGV\n",
			t->tgid, t->comm, frame);
		force_signal(t, SIGSEGV);
		return 0;
	}
	/* The FPU state first: if its copy fails, nothing has changed yet
	 * (Linux's restore_sigcontext fails the same way: SIGSEGV). */
	if (fpu_restore_sigframe(sc->fpstate)) {
		kprintf("pid %d (%s): bad FPU state at 0x%08x in rt_sigreturn: SIGSEGV\n",
			t->tgid, t->comm, sc->fpstate);
		force_signal(t, SIGSEGV);
		return 0;
	}
	signal_set_blocked((uint64_t)uc.uc_sigmask[0] | ((uint64_t)uc.uc_sigmask[1] << 32));
	return restore_sigcontext(tf, sc);
}

/* Both sigreturns: the registers from sc, sanitised. */
long restore_sigcontext(struct trapframe *tf, const struct sigcontext *sc)
{
	tf->gs = user_selector(sc->gs);
	tf->fs = user_selector(sc->fs);
	tf->es = user_selector(sc->es);
	tf->ds = user_selector(sc->ds);
	tf->edi = sc->edi;
	tf->esi = sc->esi;
	tf->ebp = sc->ebp;
	tf->ebx = sc->ebx;
	tf->edx = sc->edx;
	tf->ecx = sc->ecx;
	tf->eip = sc->eip;
	/* The frame's CS and SS with RPL 3, as Linux's restore_sigcontext
	 * (COPY_SEG_CPL3): a program may return into one of its own LDT
	 * segments (Wine and DOSEMU do). One that is bad or not user's
	 * faults in trap_ret's iret, which vectors.S makes the task's own
	 * #GP: SIGSEGV, delivered with __USER_CS and __USER_DS (Linux's
	 * selftests/x86/sigreturn.c). 16-bit segments, which would need
	 * Linux's espfix, cannot be made (desc.c). */
	tf->cs = sc->cs | 3;
	tf->eflags = (tf->eflags & ~SIGRETURN_EFLAGS) | (sc->eflags & SIGRETURN_EFLAGS) |
		     EFLAGS_IF;
	tf->esp = sc->esp;
	tf->ss = sc->ss | 3;
	/* These registers are the handler's caller's, not a call to be
	 * restarted, even if sc->eax looks like a restart code. */
	linux_restart_forget(tf);
	return (long)sc->eax;
}
