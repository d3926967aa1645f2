/* user/tests/t_fault_line - the kernel's console line for a fault (abi.md
 * section 7): `pid P (name): SIGSEGV at eip=0x... addr=0x...` is printed
 * only when the fault kills the task; a fault that a handler catches
 * prints nothing.
 *
 * The program makes three faults: a page fault at HANDLED_ADDR whose
 * SIGSEGV handler maps the page (the access is then retried and works),
 * an int3 whose SIGTRAP handler returns, and, in a forked child with no
 * handler, a page fault at KILLED_ADDR. The program checks what it can
 * see (the handlers ran, the child died of SIGSEGV); the console, which
 * only the harness sees, is checked by tests/user_tests.py (CONSOLE_CHECKS):
 * exactly one fault line per child that died, the first's with
 * addr=KILLED_ADDR; two more children die of SIGILL (ud2) and SIGFPE (a
 * division by zero), whose lines give the instruction's address. */
#define T_PROG "t_fault_line"
#include "t.h"
#include "signal.h"
#include "sys/mman.h"

#define HANDLED_ADDR 0x12345678u
#define KILLED_ADDR  0x00004321u

static volatile int segv_seen, trap_seen;

static void on_segv(int sig)
{
	(void)sig;
	segv_seen++;
	/* Make the faulting access work when it is retried. */
	if (raw_mmap2((void *)(HANDLED_ADDR & ~0xfffu), 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) < 0)
		raw_exit(99);
}

static void on_trap(int sig)
{
	(void)sig;
	trap_seen++;
}

static long install(int sig, void (*handler)(int))
{
	struct k_sigaction act = { .handler = handler, .flags = SA_RESTORER,
				   .restorer = (void *)__restore_rt };
	return raw_rt_sigaction(sig, &act, NULL, SIGSET_SIZE);
}

TEST(handled_page_fault_is_silent)
{
	EXPECT_EQ(install(SIGSEGV, on_segv), 0);
	*(volatile int *)opaque(HANDLED_ADDR) = 42;
	EXPECT_EQ(segv_seen, 1);
	EXPECT_EQ(*(volatile int *)opaque(HANDLED_ADDR), 42);
	EXPECT_EQ(raw_munmap((void *)(HANDLED_ADDR & ~0xfffu), 4096), 0);
}

TEST(handled_breakpoint_is_silent)
{
	EXPECT_EQ(install(SIGTRAP, on_trap), 0);
	__asm__ volatile("int3");
	EXPECT_EQ(trap_seen, 1);
}

TEST(a_fault_that_kills_is_reported)
{
	long pid = raw_fork();
	int st = -1;

	if (pid == 0) {
		struct k_sigaction dfl = { .handler = SIG_DFL };
		raw_rt_sigaction(SIGSEGV, &dfl, NULL, SIGSET_SIZE);
		*(volatile int *)opaque(KILLED_ADDR) = 1;
		raw_exit(0);
	}
	EXPECT(pid > 0, "fork: %ld", pid);
	printf("t_fault_line: child %ld must be reported at addr=0x%08x\n", pid, KILLED_ADDR);
	EXPECT_EQ(raw_wait4((pid_t)pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, SIGSEGV);
}

/* The undefined instruction and the division by zero that the children
 * below die of, at known addresses: the line's addr is the eip for
 * them (Linux's si_addr). */
void t_ud2_at(void);
void t_div_at(void);
__asm__(".text\n"
	".globl t_ud2_at\n"
	"t_ud2_at: ud2\n"
	".globl t_div_at\n"
	"t_div_at: divl %ecx\n"              /* %ecx = 0: #DE */
	"ret\n");

static void die_of_ud2(void)
{
	((void (*)(void))t_ud2_at)();
}

static void die_of_div0(void)
{
	__asm__ volatile("xorl %%ecx, %%ecx\n\t"
			 "movl $1, %%eax\n\t"
			 "xorl %%edx, %%edx\n\t"
			 "call t_div_at" ::: "eax", "ecx", "edx", "memory");
}

/* SIGILL and SIGFPE deaths get their line too, with their own names. */
TEST(other_faults_that_kill_are_reported)
{
	static const struct { const char *name; int sig; void (*die)(void); void (*at)(void); }
	k[] = { { "SIGILL", SIGILL, die_of_ud2, t_ud2_at },
		{ "SIGFPE", SIGFPE, die_of_div0, t_div_at } };

	for (unsigned i = 0; i < 2; i++) {
		long pid = raw_fork();
		int st = -1;

		if (pid == 0) {
			k[i].die();
			raw_exit(0);
		}
		EXPECT(pid > 0, "fork: %ld", pid);
		printf("t_fault_line: child %ld must be reported as %s at addr=0x%08x\n", pid,
		       k[i].name, (unsigned)k[i].at);
		EXPECT_EQ(raw_wait4((pid_t)pid, &st, 0, NULL), pid);
		EXPECT_STATUS(st, k[i].sig);
	}
}

int main(void)
{
	RUN(handled_page_fault_is_silent);
	RUN(handled_breakpoint_is_silent);
	RUN(a_fault_that_kills_is_reported);
	RUN(other_faults_that_kill_are_reported);
	return t_exit_code();
}
