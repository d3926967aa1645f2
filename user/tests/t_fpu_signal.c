/* user/tests/t_fpu_signal.c - the FPU state and signal handlers (abi.md
 * sections 7 and 10, Linux i386's frame): the handler starts from a fresh
 * FPU state and may compute with doubles without disturbing the code it
 * interrupted, whether the signal came synchronously or from another
 * process in the middle of a computation; the frame carries the state as
 * struct _fpstate (header, magic, fxsave image) and rt_sigreturn takes
 * back what the handler left there, sanitised (MXCSR reserved bits) or
 * refused (a bad pointer: SIGSEGV). Booted as init. */
#define T_PROG "t_fpu_signal"
#include "t.h"
#include "thr.h"
#include "fpframe.h"

#define SEED 4242u

/* ---- a handler that computes ---- */

static volatile int handler_runs;
static volatile int handler_bad;        /* what the handler found wrong */
static volatile double handler_result;

/* Doubles through the x87 (gcc's code for i686): Heron's square root of
 * 2, a computation of the handler's own. */
static double heron(double x)
{
	double r = x;

	for (int i = 0; i < 20; i++)
		r = (r + x / r) / 2;
	return r;
}

static void computing_handler(int sig, struct fp_siginfo *si, void *uc)
{
	struct fp_image f;

	(void)sig;
	(void)si;
	(void)uc;
	handler_runs++;
	/* Linux: the handler's FPU starts from fninit's state and MXCSR
	 * 0x1f80, whatever the interrupted code had. */
	fp_fxsave(&f);
	if (fp_get16(&f, FP_FCW) != 0x037f || f.b[FP_FTW] != 0 ||
	    (fp_have_sse() && fp_get32(&f, FP_MXCSR) != 0x1f80))
		handler_bad = 1;
	handler_result = heron(2.0);
	fp_fill(SEED + 7777u);                  /* every register, differently */
}

TEST(handler_computes_with_doubles)
{
	char why[128];

	handler_runs = handler_bad = 0;
	EXPECT_EQ(fp_install(SIGUSR1, computing_handler), 0);
	for (unsigned k = 0; k < 50; k++) {
		fp_fill(SEED + k);
		EXPECT_EQ(fp_raise(SIGUSR1), 0);
		if (fp_check(SEED + k, why, sizeof(why)))
			FAIL("after handler %u: %s", k, why);
	}
	fp_uninstall(SIGUSR1);
	EXPECT_EQ(handler_runs, 50);
	EXPECT(!handler_bad, "the handler did not start from fninit's state");
	EXPECT(handler_result > 1.41421356 && handler_result < 1.41421357,
	       "the handler's sqrt(2) came out wrong");
}

/* Another process sends signals while this one computes: the handler
 * interrupts at any instruction of the loop (a tick or the reschedule
 * IPI), not only at a system call. */
TEST(handler_interrupts_a_computation)
{
	char why[128];
	long parent = raw_getpid(), pid;
	int st, rounds = 0;
	volatile double sum = 0;   /* in memory: fp_fill owns the x87 stack */

	handler_runs = handler_bad = 0;
	EXPECT_EQ(fp_install(SIGUSR1, computing_handler), 0);
	pid = raw_fork();
	EXPECT(pid >= 0, "fork: %ld", pid);
	if (pid == 0)
		for (;;) {                      /* until the parent kills it */
			raw_kill((int)parent, SIGUSR1);
			thr_sleep_ms(1);
		}
	for (unsigned k = 0; handler_runs < 40 && rounds < 100000; k++, rounds++) {
		fp_fill(SEED + k);
		for (volatile int spin = 0; spin < 2000; spin++)
			;
		if (fp_check(SEED + k, why, sizeof(why))) {
			raw_kill((int)pid, SIGKILL);
			raw_wait4(pid, &st, 0, NULL);
			FAIL("round %u, %d signals so far: %s", k, handler_runs, why);
		}
		/* and a computation in doubles across the signals */
		sum += heron((double)(k % 7 + 2));
	}
	raw_kill((int)pid, SIGKILL);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	fp_uninstall(SIGUSR1);
	EXPECT(handler_runs >= 40, "only %d signals in %d rounds", handler_runs, rounds);
	EXPECT(!handler_bad, "the handler did not start from fninit's state");
	EXPECT(sum > 0, "no sum");
}

/* ---- the frame ---- */

static volatile int frame_bad;
static char frame_why[128];

static void inspecting_handler(int sig, struct fp_siginfo *si, void *uc)
{
	struct fp_state *fs = fp_frame_state(uc);

	(void)sig;
	(void)si;
	frame_bad = 1;
	if (!fs) {
		snprintf(frame_why, sizeof(frame_why), "sigcontext.fpstate is 0");
		return;
	}
	if ((unsigned)&fs->fx % 64 || fs->magic != X86_FXSR_MAGIC) {
		snprintf(frame_why, sizeof(frame_why), "fxsave image at %p, magic %#x",
			 (void *)&fs->fx, fs->magic);
		return;
	}
	if (fp_check_image(&fs->fx, SEED, frame_why, sizeof(frame_why)))
		return;
	/* The header: Linux's convert_from_fxsr, the fnsave format. */
	if (fs->cw != (0xffff0000u | fp_fcw(SEED)) || fs->status != fp_get16(&fs->fx, FP_FSW) ||
	    (fs->sw & 0xffff) != fs->status || fs->tag != 0xffff0000u ||
	    memcmp(fs->st[0], fs->fx.b + FP_ST0, 10) || memcmp(fs->st[7], fs->fx.b + FP_ST0 + 112, 10)) {
		snprintf(frame_why, sizeof(frame_why), "header cw %#x sw %#x tag %#x status %#x",
			 fs->cw, fs->sw, fs->tag, fs->status);
		return;
	}
	frame_bad = 0;
}

TEST(frame_carries_fpstate)
{
	char why[128];

	EXPECT(fp_have_sse(), "this test wants a CPU with SSE");
	EXPECT_EQ(fp_install(SIGUSR2, inspecting_handler), 0);
	frame_bad = -1;
	fp_fill(SEED);
	EXPECT_EQ(fp_raise(SIGUSR2), 0);
	if (fp_check(SEED, why, sizeof(why)))
		FAIL("after the handler: %s", why);
	fp_uninstall(SIGUSR2);
	EXPECT(frame_bad == 0, "%s", frame_bad < 0 ? "the handler did not run" : frame_why);
}

/* What the handler leaves in the frame is what rt_sigreturn restores:
 * the x87 part from the header, MXCSR and XMM from the fxsave image. */
static unsigned new_mxcsr;

static void editing_handler(int sig, struct fp_siginfo *si, void *uc)
{
	struct fp_state *fs = fp_frame_state(uc);

	(void)sig;
	(void)si;
	fs->cw = 0xffff0000u | 0x0f7f;          /* round toward zero */
	fs->fx.b[FP_XMM0 + 16 * 3] ^= 0xff;     /* xmm3's first byte */
	memcpy(fs->fx.b + FP_MXCSR, &new_mxcsr, 4);
}

TEST(sigreturn_takes_the_edited_state)
{
	struct fp_image f;
	unsigned mask;

	EXPECT(fp_have_sse(), "this test wants a CPU with SSE");
	fp_fxsave(&f);
	mask = fp_get32(&f, 28) ? fp_get32(&f, 28) : 0xffbf;   /* MXCSR_MASK */
	EXPECT_EQ(fp_install(SIGUSR2, editing_handler), 0);

	new_mxcsr = 0x1f80 | 0x6000;            /* RC = toward zero */
	fp_fill(SEED);
	EXPECT_EQ(fp_raise(SIGUSR2), 0);
	fp_fxsave(&f);
	EXPECT_EQ(fp_get16(&f, FP_FCW), 0x0f7f);
	EXPECT_EQ(fp_get32(&f, FP_MXCSR), 0x7f80);
	EXPECT_EQ(f.b[FP_XMM0 + 16 * 3], (unsigned char)(fp_xmm_byte(SEED, 3, 0) ^ 0xff));
	EXPECT_EQ(f.b[FP_XMM0 + 16 * 4], fp_xmm_byte(SEED, 4, 0));

	/* Every MXCSR bit set: the reserved ones would #GP fxrstor in the
	 * kernel; they are dropped, the rest kept. */
	new_mxcsr = 0xffffffffu;
	fp_fill(SEED);
	EXPECT_EQ(fp_raise(SIGUSR2), 0);
	fp_fxsave(&f);
	EXPECT_EQ(fp_get32(&f, FP_MXCSR), mask);
	fp_uninstall(SIGUSR2);
}

/* fpstate 0 in the frame: no state to go back to, fninit's. */
static void zeroing_handler(int sig, struct fp_siginfo *si, void *uc)
{
	(void)sig;
	(void)si;
	((struct fp_ucontext *)uc)->mc.fpstate = 0;
}

TEST(sigreturn_without_fpstate_resets)
{
	struct fp_image f;

	EXPECT_EQ(fp_install(SIGUSR2, zeroing_handler), 0);
	fp_fill(SEED + 3);
	EXPECT_EQ(fp_raise(SIGUSR2), 0);
	fp_fxsave(&f);
	fp_uninstall(SIGUSR2);
	EXPECT_EQ(fp_get16(&f, FP_FCW), 0x037f);
	EXPECT_EQ(f.b[FP_FTW], 0);
	if (fp_have_sse())
		EXPECT_EQ(fp_get32(&f, FP_MXCSR), 0x1f80);
}

/* A pointer user space must not pass: SIGSEGV, the kernel unharmed. */
static unsigned bad_pointer;

static void pointing_handler(int sig, struct fp_siginfo *si, void *uc)
{
	(void)sig;
	(void)si;
	((struct fp_ucontext *)uc)->mc.fpstate = bad_pointer;
}

static int bad_fpstate_child(long ptr)
{
	bad_pointer = (unsigned)ptr;
	fp_install(SIGUSR2, pointing_handler);
	fp_fill(SEED);
	fp_raise(SIGUSR2);
	return 0;                               /* not reached: SIGSEGV */
}

TEST(sigreturn_bad_fpstate_pointer_is_sigsegv)
{
	EXPECT_STATUS(child_status(bad_fpstate_child, 0xc0000000), KILLED(SIGSEGV));
	EXPECT_STATUS(child_status(bad_fpstate_child, 0xfffffff0), KILLED(SIGSEGV));
	EXPECT_STATUS(child_status(bad_fpstate_child, 0x10000000), KILLED(SIGSEGV));
}

int main(void)
{
	RUN(handler_computes_with_doubles);
	RUN(handler_interrupts_a_computation);
	RUN(frame_carries_fpstate);
	RUN(sigreturn_takes_the_edited_state);
	RUN(sigreturn_without_fpstate_resets);
	RUN(sigreturn_bad_fpstate_pointer_is_sigsegv);
	return t_exit_code();
}
