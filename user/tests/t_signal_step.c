/* user/tests/t_signal_step.c - single-stepping (EFLAGS.TF, set by the
 * program itself with popf) through `int $0x80`: the system call runs and
 * returns its result, TF survives it (the saved EFLAGS come back with
 * iret), and a SIGTRAP with TRAP_TRACE follows, as on Linux (its
 * selftests/x86/single_step_syscall.c). */
#define T_PROG "t_signal_step"
#include "t.h"
#include "signal.h"
#include "unistd.h"

#define X86_EFLAGS_TF 0x100


static volatile int traps;
static volatile unsigned long last_eip, first_eip;
static volatile int last_code;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	unsigned long *gregs = (unsigned long *)((char *)uc + 20);    /* uc_mcontext */

	(void)sig;
	if (!traps)
		first_eip = gregs[14];          /* sigcontext.eip */
	traps++;
	last_code = si->si_code;
	last_eip = gregs[14];
	if (traps > 1000)
		gregs[16] &= ~(unsigned long)X86_EFLAGS_TF;   /* stop a runaway */
}

extern char after_int80[];

TEST(int80_with_tf_delivers_sigtrap)
{
	struct sigaction sa = { .sa_flags = SA_SIGINFO };
	long r;

	sa.sa_sigaction = on_trap;
	sigemptyset(&sa.sa_mask);
	EXPECT_EQ(sigaction(SIGTRAP, &sa, NULL), 0);
	traps = 0;
	__asm__ volatile(
		"pushfl\n\t"
		"orl $0x100, (%%esp)\n\t"
		"popfl\n\t"
		"int $0x80\n"
		"after_int80:\n\t"
		"pushfl\n\t"
		"andl $~0x100, (%%esp)\n\t"
		"popfl\n\t"
		: "=a"(r) : "a"(SYS_getpid) : "memory", "cc");
	EXPECT_EQ(r, getpid());
	EXPECT(traps >= 1, "no SIGTRAP after int $0x80 with TF set");
	EXPECT_EQ(last_code, TRAP_TRACE);
	/* the first trap comes after the system call, not inside it */
	EXPECT(first_eip >= (unsigned long)after_int80 &&
	       first_eip <= (unsigned long)after_int80 + 16,
	       "first trap at %#lx, int $0x80 returns to %#lx", first_eip,
	       (unsigned long)after_int80);
}

int main(void)
{
	RUN(int80_with_tf_delivers_sigtrap);
	return t_exit_code();
}
