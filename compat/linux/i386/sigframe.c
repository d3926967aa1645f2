/* compat/linux/i386/sigframe.c - Linux i386's old signal frame, for a
 * Linux program's handler installed without SA_SIGINFO (Linux's
 * ia32_setup_frame), and sigreturn 119, which unwinds it. Spindle's own
 * programs always get the rt frame (arch/i386/signal_frame.c, abi.md
 * section 7); this one differs in what sits around the same struct
 * sigcontext, and it reuses that file's pieces. */
#include "arch/i386/signal_frame.h"
#include "arch/i386/fpu.h"
#include "arch/i386/uaccess.h"
#include "kernel/linux_hooks.h"
#include "kernel/printf.h"
#include "kernel/signal.h"
#include "kernel/syscall.h"
#include "kernel/task.h"
#include "lib/abi_linux.h"
#include "lib/string.h"

#define OLD_CHECK(field, off) \
	_Static_assert(__builtin_offsetof(struct sigframe, field) == (off), \
		       "sigframe." #field " must be at " #off " (Linux i386 ABI)")
/* Linux i386's old struct sigframe (sigframe_ia32), for a handler
 * without SA_SIGINFO under the linux personality: glibc gives such a
 * handler its __restore trampoline, which pops sig and calls sigreturn
 * (119), not rt_sigreturn. No siginfo, no ucontext: the sigcontext
 * right after sig, the mask's second word in extramask, and an unused
 * _fpstate in between kept for the offsets (the FPU state is above the
 * frame, as for rt_sigframe). */
struct sigframe {
	uint32_t pretcode;                      /* user pointer */
	int sig;
	struct sigcontext sc;
	uint8_t fpstate_unused[624];            /* struct _fpstate_32 */
	uint32_t extramask[1];
	uint8_t retcode[8];
};
OLD_CHECK(sig, 4);
OLD_CHECK(sc, 8);
OLD_CHECK(extramask, 720);
OLD_CHECK(retcode, 724);

#undef OLD_CHECK

/* The old frame's trampoline (Linux's __NR_sigreturn one):
 * 58               popl %eax      (sig)
 * b8 77 00 00 00   movl $__NR_sigreturn, %eax
 * cd 80            int  $0x80 */
static const uint8_t old_sigreturn_code[8] = {
	0x58, 0xb8, SYS_sigreturn, 0x00, 0x00, 0x00, 0xcd, 0x80
};

int linux_setup_frame(const struct ksiginfo *info, const struct k_sigaction *ka,
		      uint64_t oldmask, struct trapframe *tf)
{
	struct sigframe f;
	uint32_t fpstate;
	uint32_t sp = frame_sp(tf, ka, sizeof(f), &fpstate);

	memset(&f, 0, sizeof(f));
	f.pretcode = (ka->flags & SA_RESTORER) ? (uint32_t)ka->restorer
		     : sp + (uint32_t)__builtin_offsetof(struct sigframe, retcode);
	f.sig = info->signo;
	save_sigcontext(&f.sc, tf, info, oldmask, fpstate);
	f.extramask[0] = (uint32_t)(oldmask >> 32);
	memcpy(f.retcode, old_sigreturn_code, sizeof(f.retcode));
	if (copy_to_user(sp, &f, sizeof(f)))
		return -EFAULT;
	if (fpu_save_sigframe(fpstate))
		return -EFAULT;
	/* handler(sig): the one argument on the stack and in %eax. */
	enter_handler(tf, ka, sp, (uint32_t)info->signo, 0, 0);
	return 0;
}

/* sigreturn (119): the old frame's. The handler's ret popped pretcode and
 * the trampoline popped sig: the frame starts at %esp - 8. */
LINUX_SYSCALL(SYS_sigreturn, sigreturn)
{
	struct task *t = current;
	struct trapframe *tf = t->tf;
	uint32_t frame = tf->esp - 8;
	struct sigcontext sc;
	uint32_t extramask;

	if (copy_from_user(&sc, frame + (uint32_t)__builtin_offsetof(struct sigframe, sc),
			   sizeof(sc)) ||
	    get_user32(&extramask, frame + (uint32_t)__builtin_offsetof(struct sigframe,
									extramask))) {
		kprintf("pid %d (%s): bad signal frame at 0x%08x in sigreturn: SIGSEGV\n",
			t->tgid, t->comm, frame);
		force_signal(t, SIGSEGV);
		return 0;
	}
	if (fpu_restore_sigframe(sc.fpstate)) {
		kprintf("pid %d (%s): bad FPU state at 0x%08x in sigreturn: SIGSEGV\n",
			t->tgid, t->comm, sc.fpstate);
		force_signal(t, SIGSEGV);
		return 0;
	}
	signal_set_blocked((uint64_t)sc.oldmask | ((uint64_t)extramask << 32));
	return restore_sigcontext(tf, &sc);
}

