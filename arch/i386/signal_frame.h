/* arch/i386/signal_frame.h - the user-stack frame of a signal handler.
 *
 * Linux i386's struct rt_sigframe (arch/x86/kernel/signal.c, 6.1), byte
 * for byte. As in Linux since 2.6.26, the FPU state (struct _fpstate,
 * arch/i386/fpu_signal.c) is not inside it but above it, 64-byte aligned,
 * and uc.uc_mcontext.fpstate points at it; a task that has never used
 * the FPU gets none and fpstate 0 (Linux 2.6's used_math() rule):
 *
 *   esp ->   0  pretcode   return address of the handler: sa_restorer
 *                          (SA_RESTORER) or &retcode
 *            4  sig        the handler's first argument
 *            8  pinfo      = &info   (second argument, SA_SIGINFO)
 *           12  puc        = &uc     (third argument)
 *           16  info       struct siginfo, 128 bytes
 *          144  uc         struct ucontext, 116 bytes:
 *          144    uc_flags, 148 uc_link, 152 uc_stack (12 bytes),
 *          164    uc_mcontext (struct sigcontext, 88 bytes),
 *          252    uc_sigmask (8 bytes: the mask to restore)
 *          260  retcode    movl $173,%eax; int $0x80 (rt_sigreturn)
 *          268  (end)
 *
 * The handler's `ret` pops pretcode, so rt_sigreturn finds the frame at
 * %esp - 4. Every offset is checked below: user programs and GDB scripts
 * read this frame by hand. */
#ifndef ARCH_I386_SIGNAL_FRAME_H
#define ARCH_I386_SIGNAL_FRAME_H

#include "lib/types.h"
#include "lib/abi.h"

struct trapframe;

/* Linux i386's struct siginfo (SI_MAX_SIZE 128): si_signo, si_errno,
 * si_code, then a union whose member the signal and code choose (Linux's
 * siginfo_layout; the si_code values are lib/abi.h's). */
struct siginfo {
	int si_signo;
	int si_errno;
	int si_code;
	union {
		int pad[29];                    /* 128 bytes in all */
		struct { int pid; uint32_t uid; } kill;         /* SI_USER, SI_TKILL */
		struct { uint32_t addr; } fault;                /* SIGSEGV.. codes > 0 */
		struct {                                        /* SIGCHLD, CLD_* */
			int pid;
			uint32_t uid;
			int status;
			long utime, stime;
		} chld;
	} u;
};

/* Linux's struct sigcontext: the 16-bit selectors are padded to words
 * (unsigned short gs, __gsh; ...). */
struct sigcontext {
	uint16_t gs, __gsh, fs, __fsh, es, __esh, ds, __dsh;
	uint32_t edi, esi, ebp, esp, ebx, edx, ecx, eax;
	uint32_t trapno, err, eip;
	uint16_t cs, __csh;
	uint32_t eflags, esp_at_signal;
	uint16_t ss, __ssh;
	uint32_t fpstate;                       /* user pointer: struct _fpstate, or 0 */
	uint32_t oldmask;                       /* the mask's first word */
	uint32_t cr2;
};

struct ksiginfo;

/* The user's siginfo from the kernel's (rt_sigtimedwait copies it out
 * too): the union member Linux's siginfo_layout would choose. */
void copy_siginfo(struct siginfo *to, const struct ksiginfo *from);

struct user_stack_t {                           /* Linux's stack_t */
	uint32_t ss_sp;
	int ss_flags;
	uint32_t ss_size;
};

struct ucontext {
	uint32_t uc_flags;
	uint32_t uc_link;                       /* user pointer; 0 */
	struct user_stack_t uc_stack;
	struct sigcontext uc_mcontext;
	uint32_t uc_sigmask[2];                 /* sigset_t, 64 bits */
};

struct rt_sigframe {
	uint32_t pretcode;                      /* user pointer */
	int sig;
	uint32_t pinfo;                         /* user pointer: &info */
	uint32_t puc;                           /* user pointer: &uc */
	struct siginfo info;
	struct ucontext uc;
	uint8_t retcode[8];
};

#define SIGFRAME_CHECK(type, field, off) \
	_Static_assert(__builtin_offsetof(struct type, field) == (off), \
		       #type "." #field " must be at " #off " (Linux i386 ABI)")
SIGFRAME_CHECK(rt_sigframe, pretcode, 0);
SIGFRAME_CHECK(rt_sigframe, sig, 4);
SIGFRAME_CHECK(rt_sigframe, pinfo, 8);
SIGFRAME_CHECK(rt_sigframe, puc, 12);
SIGFRAME_CHECK(rt_sigframe, info, 16);
SIGFRAME_CHECK(rt_sigframe, uc, 144);
SIGFRAME_CHECK(rt_sigframe, uc.uc_mcontext, 164);
SIGFRAME_CHECK(rt_sigframe, uc.uc_sigmask, 252);
SIGFRAME_CHECK(rt_sigframe, retcode, 260);
SIGFRAME_CHECK(siginfo, si_code, 8);
SIGFRAME_CHECK(siginfo, u.kill.pid, 12);
SIGFRAME_CHECK(siginfo, u.fault.addr, 12);
SIGFRAME_CHECK(siginfo, u.chld.uid, 16);
SIGFRAME_CHECK(siginfo, u.chld.status, 20);
SIGFRAME_CHECK(sigcontext, edi, 16);
SIGFRAME_CHECK(sigcontext, eax, 44);
SIGFRAME_CHECK(sigcontext, trapno, 48);
SIGFRAME_CHECK(sigcontext, eip, 56);
SIGFRAME_CHECK(sigcontext, cs, 60);
SIGFRAME_CHECK(sigcontext, eflags, 64);
SIGFRAME_CHECK(sigcontext, esp_at_signal, 68);
SIGFRAME_CHECK(sigcontext, ss, 72);
SIGFRAME_CHECK(sigcontext, fpstate, 76);
SIGFRAME_CHECK(sigcontext, oldmask, 80);
SIGFRAME_CHECK(sigcontext, cr2, 84);
_Static_assert(sizeof(struct siginfo) == 128, "siginfo is 128 bytes (Linux SI_MAX_SIZE)");
_Static_assert(sizeof(struct sigcontext) == 88, "sigcontext is 88 bytes");
_Static_assert(sizeof(struct ucontext) == 116, "ucontext is 116 bytes");
_Static_assert(sizeof(struct rt_sigframe) == 268, "rt_sigframe is 268 bytes");
#undef SIGFRAME_CHECK

struct ksiginfo;

/* Builds the frame of info's signal, with info as its siginfo, on the
 * user stack of tf and points tf at the handler; oldmask is the mask
 * rt_sigreturn puts back. 0, or -EFAULT when the stack cannot be written
 * (tf is then left as it was). */
int setup_rt_frame(const struct ksiginfo *info, const struct k_sigaction *ka,
		   uint64_t oldmask, struct trapframe *tf);

/* The pieces of both frames, for the Linux layer's old frame
 * (compat/linux/i386/sigframe.c): the registers and mask into sc; the
 * frame's address for size bytes below tf's stack (or the alternate
 * one), *fpstate the FPU state's place above it; the jump into the
 * handler; and the registers back from sc (the result: its %eax). */
void save_sigcontext(struct sigcontext *sc, const struct trapframe *tf,
		     const struct ksiginfo *info, uint64_t oldmask, uint32_t fpstate);
uint32_t frame_sp(const struct trapframe *tf, const struct k_sigaction *ka, uint32_t size,
		  uint32_t *fpstate);
void enter_handler(struct trapframe *tf, const struct k_sigaction *ka, uint32_t sp,
		   uint32_t arg0, uint32_t arg1, uint32_t arg2);
long restore_sigcontext(struct trapframe *tf, const struct sigcontext *sc);

#endif
