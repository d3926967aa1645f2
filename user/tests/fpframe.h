/* user/tests/fpframe.h - what a signal handler finds about the FPU in its
 * frame (Linux i386, arch/i386/fpu_signal.c): sigcontext.fpstate points
 * at a struct _fpstate, the 112-byte fnsave-format header then, with
 * FXSR, the 512-byte fxsave image, 64-byte aligned. For the t_fpu_*
 * tests. */
#ifndef USER_TESTS_FPFRAME_H
#define USER_TESTS_FPFRAME_H

#include "signal.h"
#include "raw.h"
#include "fpregs.h"

struct fp_siginfo {
	int si_signo, si_errno, si_code;
	union {
		unsigned addr;                  /* faults: si_addr */
		int pad[29];
	} u;
};

struct fp_sigcontext {
	unsigned short gs, gsh, fs, fsh, es, esh, ds, dsh;
	unsigned edi, esi, ebp, esp, ebx, edx, ecx, eax;
	unsigned trapno, err, eip;
	unsigned short cs, csh;
	unsigned eflags, esp_at_signal;
	unsigned short ss, ssh;
	unsigned fpstate, oldmask, cr2;
};

struct fp_ucontext {
	unsigned long uc_flags;
	unsigned uc_link, ss_sp;
	int ss_flags;
	unsigned ss_size;
	struct fp_sigcontext mc;
	unsigned long long sigmask;
};
_Static_assert(__builtin_offsetof(struct fp_ucontext, mc.fpstate) == 20 + 76,
	       "sigcontext.fpstate at 76");

/* Linux's struct _fpstate_32 (asm/sigcontext.h). */
struct fp_state {
	unsigned cw, sw, tag, ipoff, cssel, dataoff, datasel;
	unsigned char st[8][10];
	unsigned short status, magic;   /* magic: 0 = X86_FXSR_MAGIC, fxsave follows */
	struct fp_image fx;             /* _fxsr_env ... _xmm[8], padding */
};
_Static_assert(__builtin_offsetof(struct fp_state, magic) == 110, "_fpstate.magic");
_Static_assert(__builtin_offsetof(struct fp_state, fx) == 112, "_fpstate._fxsr_env");

#define X86_FXSR_MAGIC 0x0000

static inline struct fp_state *fp_frame_state(void *uc)
{
	return (struct fp_state *)((struct fp_ucontext *)uc)->mc.fpstate;
}

__attribute__((unused))
static long fp_install(int sig, void *handler)
{
	struct k_sigaction act = {
		.handler = handler, .flags = SA_SIGINFO | SA_RESTORER,
		.restorer = (void *)__restore_rt,
	};
	return raw_rt_sigaction(sig, &act, NULL, SIGSET_SIZE);
}

__attribute__((unused))
static void fp_uninstall(int sig)
{
	struct k_sigaction dfl = { .handler = SIG_DFL };

	raw_rt_sigaction(sig, &dfl, NULL, SIGSET_SIZE);
}

/* Sends sig to this thread: delivered on the way out of tgkill. */
static inline long fp_raise(int sig)
{
	return raw_tgkill((int)raw_getpid(), (int)raw_gettid(), sig);
}

#endif
