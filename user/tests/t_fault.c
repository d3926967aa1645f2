/* user/tests/t_fault.c - faults and signals (abi.md section 7): a user
 * fault ends the faulting process with SIGSEGV, SIGILL or SIGFPE and
 * never the kernel; handlers installed with rt_sigaction run, with and
 * without SA_RESTORER, and return with every register as it was; blocking
 * delays delivery; SIGKILL is not catchable; default actions; the kernel
 * survives bad signal stacks and garbage rt_sigreturn frames. Booted as
 * init: every fault happens in a forked child. */
#define T_PROG "t_fault"
#include "t.h"
#include "signal.h"
#include "sys/mman.h"

#define KERNEL   0xC0100000u
#define UNMAPPED 0x10000000u

static void yield_n(int n)
{
	while (n-- > 0)
		raw_sched_yield();
}

static long install(int sig, void *handler, unsigned long flags, unsigned long long mask)
{
	struct k_sigaction act = {
		.handler = handler, .flags = flags,
		.restorer = flags & SA_RESTORER ? (void *)__restore_rt : NULL,
		.mask = { (unsigned long)mask, (unsigned long)(mask >> 32) },
	};
	return raw_rt_sigaction(sig, &act, NULL, SIGSET_SIZE);
}

static unsigned long long blocked(void)
{
	unsigned long long m = ~0ull;
	raw_rt_sigprocmask(SIG_BLOCK, NULL, &m, SIGSET_SIZE);
	return m;
}

/* ---- faults with the default action: each runs in a child ---- */
#define INT_AT(a) (*(volatile int *)opaque(a))
static int null_write(long a)     { (void)a; INT_AT(0) = 1; return 0; }
static int null_read(long a)      { (void)a; return INT_AT(0) * 0; }
static int kernel_write(long a)   { (void)a; INT_AT(KERNEL) = 1; return 0; }
static int kernel_read(long a)    { (void)a; return INT_AT(KERNEL) * 0; }
static int unmapped_write(long a) { (void)a; INT_AT(UNMAPPED) = 1; return 0; }
static int jump_null(long a)      { (void)a; ((void (*)(void))opaque(0))(); return 0; }
static int jump_kernel(long a)    { (void)a; ((void (*)(void))opaque(KERNEL))(); return 0; }
static int code_write(long a)     { (void)a; *(volatile char *)opaque((uintptr_t)null_write) = 0x90; return 0; }
static int rodata_write(long a)   { (void)a; *(volatile char *)opaque((uintptr_t)"constant") = 'C'; return 0; }
static int do_hlt(long a)       { (void)a; __asm__ volatile("hlt"); return 0; }
static int do_cli(long a)       { (void)a; __asm__ volatile("cli"); return 0; }
static int do_in(long a)        { (void)a; __asm__ volatile("inb $0x61, %%al" ::: "eax"); return 0; }
static int do_int81(long a)     { (void)a; __asm__ volatile("int $0x81"); return 0; }
static int do_ud2(long a)       { (void)a; __asm__ volatile("ud2"); return 0; }

static int load_selector(long sel)
{
	__asm__ volatile("movw %w0, %%ds" : : "r"(sel));
	return 0;
}

static volatile int zero = 0, minus_one = -1;
static int divide_by_zero(long a)  { (void)a; return 1000 / zero; }
static int divide_overflow(long a) { (void)a; return (int)0x80000000 / minus_one; }

#define EXPECT_FAULT(fn, arg, sig) \
	EXPECT_STATUS(child_status(fn, (long)(arg)), KILLED(sig))

TEST(null_pointer_is_sigsegv)
{
	EXPECT_FAULT(null_write, 0, SIGSEGV);
	EXPECT_FAULT(null_read, 0, SIGSEGV);
	EXPECT_FAULT(jump_null, 0, SIGSEGV);
}

TEST(kernel_memory_is_sigsegv)
{
	EXPECT_FAULT(kernel_write, 0, SIGSEGV);
	EXPECT_FAULT(kernel_read, 0, SIGSEGV);
	EXPECT_FAULT(jump_kernel, 0, SIGSEGV);
}

TEST(unmapped_memory_is_sigsegv)
{
	raw_munmap((void *)UNMAPPED, PAGE_SIZE);
	EXPECT_FAULT(unmapped_write, 0, SIGSEGV);
}

TEST(read_only_segments_are_sigsegv)
{
	EXPECT_FAULT(code_write, 0, SIGSEGV);
	EXPECT_FAULT(rodata_write, 0, SIGSEGV);
}

TEST(general_protection_is_sigsegv)
{
	EXPECT_FAULT(do_hlt, 0, SIGSEGV);
	EXPECT_FAULT(do_cli, 0, SIGSEGV);
	EXPECT_FAULT(do_in, 0, SIGSEGV);
	EXPECT_FAULT(do_int81, 0, SIGSEGV);
	EXPECT_FAULT(load_selector, 0x60, SIGSEGV);     /* kernel code */
	EXPECT_FAULT(load_selector, 0x68, SIGSEGV);     /* kernel data */
	EXPECT_FAULT(load_selector, 0x70, SIGSEGV);     /* the TSS */
}

TEST(invalid_opcode_is_sigill)
{
	EXPECT_FAULT(do_ud2, 0, SIGILL);
}

TEST(divide_error_is_sigfpe)
{
	EXPECT_FAULT(divide_by_zero, 0, SIGFPE);
	EXPECT_FAULT(divide_overflow, 0, SIGFPE);
}

/* ---- handlers ---- */
static volatile int handled, handled_sig;

static void count_handler(int sig)
{
	handled++;
	handled_sig = sig;
}

static void exit42_handler(int sig)
{
	raw_exit_group(sig == SIGSEGV ? 42 : 43);
}

static int segv_to_handler(long flags)
{
	CHECK(install(SIGSEGV, exit42_handler, (unsigned long)flags, 0) == 0);
	INT_AT(0) = 1;
	NOT_REACHED("the write should have faulted");
}

TEST(sigsegv_handler_with_restorer)
{
	EXPECT_STATUS(child_status(segv_to_handler, SA_RESTORER), EXITED(42));
}

TEST(sigsegv_handler_without_restorer)
{
	EXPECT_STATUS(child_status(segv_to_handler, 0), EXITED(42));
}

static int ill_to_handler(long unused)
{
	(void)unused;
	CHECK(install(SIGILL, exit42_handler, SA_RESTORER, 0) == 0);
	__asm__ volatile("ud2");
	NOT_REACHED("ud2 should have raised SIGILL");
}

TEST(sigill_handler)
{
	/* exit42_handler exits 43 for any signal but SIGSEGV. */
	EXPECT_STATUS(child_status(ill_to_handler, 0), EXITED(43));
}

TEST(kill_self_runs_the_handler)
{
	handled = handled_sig = 0;
	EXPECT_EQ(install(SIGUSR1, count_handler, SA_RESTORER, 0), 0);
	EXPECT_EQ(raw_kill(raw_getpid(), SIGUSR1), 0);
	EXPECT_EQ(handled, 1);          /* delivered on the way out of kill */
	EXPECT_EQ(handled_sig, SIGUSR1);
	EXPECT_EQ(raw_kill(raw_getpid(), SIGUSR1), 0);
	EXPECT_EQ(handled, 2);
	EXPECT_EQ(blocked(), 0);        /* the handler's mask was undone */
	install(SIGUSR1, SIG_DFL, 0, 0);
}

TEST(tgkill_self_runs_the_handler)
{
	handled = handled_sig = 0;
	EXPECT_EQ(install(SIGUSR2, count_handler, SA_RESTORER, 0), 0);
	EXPECT_EQ(raw_tgkill(raw_getpid(), raw_gettid(), SIGUSR2), 0);
	EXPECT_EQ(handled, 1);
	EXPECT_EQ(handled_sig, SIGUSR2);
	install(SIGUSR2, SIG_DFL, 0, 0);
}

/* While a handler runs its own signal and sa_mask are blocked; after it,
 * the old mask is back. */
static volatile unsigned long long mask_in_handler;

static void mask_handler(int sig)
{
	(void)sig;
	mask_in_handler = blocked();
}

TEST(handler_mask)
{
	mask_in_handler = 0;
	EXPECT_EQ(install(SIGUSR1, mask_handler, SA_RESTORER, SIGBIT(SIGUSR2)), 0);
	EXPECT_EQ(raw_kill(raw_getpid(), SIGUSR1), 0);
	EXPECT(mask_in_handler == (SIGBIT(SIGUSR1) | SIGBIT(SIGUSR2)),
	       "mask in the handler %#llx, want SIGUSR1|SIGUSR2 (%#llx)", mask_in_handler,
	       SIGBIT(SIGUSR1) | SIGBIT(SIGUSR2));
	EXPECT_EQ(blocked(), 0);
	install(SIGUSR1, SIG_DFL, 0, 0);
}

/* ---- registers across a handler ----
 * sig_in: %ebx (pid) %ecx (signal) %edx %esi %edi %ebp for a kill(2) made
 * with the direction flag set; sig_out: %eax..%ebp after it, sig_eflags
 * the flags. clobber_handler trashes every register it can, as a handler
 * may, and records whether DF was clear on entry (the SysV ABI wants it). */
long sig_in[7], sig_out[7], sig_eflags, handler_eflags, clobber_runs;
void kill_with_regs(void);
void clobber_handler(int sig);
__asm__(
	"	.text\n"
	"	.type kill_with_regs, @function\n"
	"kill_with_regs:\n"
	"	pushl %ebp\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	movl sig_in+4, %ebx\n"
	"	movl sig_in+8, %ecx\n"
	"	movl sig_in+12, %edx\n"
	"	movl sig_in+16, %esi\n"
	"	movl sig_in+20, %edi\n"
	"	movl sig_in+24, %ebp\n"
	"	movl $37, %eax\n"               /* SYS_kill */
	"	std\n"
	"	int $0x80\n"
	"	pushfl\n"
	"	popl sig_eflags\n"
	"	cld\n"
	"	movl %eax, sig_out+0\n"
	"	movl %ebx, sig_out+4\n"
	"	movl %ecx, sig_out+8\n"
	"	movl %edx, sig_out+12\n"
	"	movl %esi, sig_out+16\n"
	"	movl %edi, sig_out+20\n"
	"	movl %ebp, sig_out+24\n"
	"	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n"
	"	.size kill_with_regs, . - kill_with_regs\n"
	"	.type clobber_handler, @function\n"
	"clobber_handler:\n"
	"	pushfl\n"
	"	popl handler_eflags\n"
	"	incl clobber_runs\n"
	"	movl $0xdead0001, %eax\n"
	"	movl $0xdead0002, %ebx\n"
	"	movl $0xdead0003, %ecx\n"
	"	movl $0xdead0004, %edx\n"
	"	movl $0xdead0005, %esi\n"
	"	movl $0xdead0006, %edi\n"
	"	movl $0xdead0007, %ebp\n"
	"	std\n"
	"	ret\n"
	"	.size clobber_handler, . - clobber_handler\n");
_Static_assert(SYS_kill == 37, "kill_with_regs uses 37");

static const char *const reg_name[] = { "eax", "ebx", "ecx", "edx", "esi", "edi", "ebp" };

static void registers_across(unsigned long flags)
{
	long in[7] = { 0, raw_getpid(), SIGUSR1, 0x33333333, 0x44444444, 0x55555555, 0x66666666 };

	clobber_runs = 0;
	EXPECT_EQ(install(SIGUSR1, clobber_handler, flags, 0), 0);
	memcpy(sig_in, in, sizeof(in));
	kill_with_regs();
	install(SIGUSR1, SIG_DFL, 0, 0);
	EXPECT_EQ(clobber_runs, 1);
	EXPECT_EQ(sig_out[0], 0);               /* kill's result */
	for (int r = 1; r < 7; r++)
		EXPECT(sig_out[r] == sig_in[r], "%%%s was %#lx before the handler, %#lx after",
		       reg_name[r], sig_in[r], sig_out[r]);
	EXPECT(!(handler_eflags & 0x400), "DF was set when the handler started");
	EXPECT(sig_eflags & 0x400, "DF (set before the signal) was not restored");
}

TEST(registers_preserved_across_a_handler)
{
	registers_across(SA_RESTORER);
}

#include "t_fault_mask.h"      /* blocking, and the calls' errors */

/* ---- default actions ---- */
__attribute__((noreturn))
static void spin_forever(long block_all)
{
	if (block_all) {
		unsigned long long all = ~0ull;
		struct k_sigaction ign = { .handler = SIG_IGN };
		raw_rt_sigprocmask(SIG_SETMASK, &all, NULL, SIGSET_SIZE);
		raw_rt_sigaction(SIGKILL, &ign, NULL, SIGSET_SIZE);    /* refused */
	}
	for (;;)
		raw_sched_yield();
}

static long kill_spinner(long block_all, int sig)
{
	int st = -1;
	long pid = raw_fork();

	if (pid == 0)
		spin_forever(block_all);
	if (pid < 0)
		return pid;
	yield_n(10);
	long k = raw_kill(pid, sig);
	long r = raw_wait4(pid, &st, 0, NULL);
	if (k < 0)
		return k;
	return r == pid ? st : r;
}

TEST(sigkill_kills_even_with_everything_blocked)
{
	EXPECT_STATUS(kill_spinner(1, SIGKILL), KILLED(SIGKILL));
}

TEST(sigterm_default_kills)
{
	EXPECT_STATUS(kill_spinner(0, SIGTERM), KILLED(SIGTERM));
}

TEST(sigint_default_kills)
{
	EXPECT_STATUS(kill_spinner(0, SIGINT), KILLED(SIGINT));
}

static int ignore_sigterm(long unused)
{
	struct k_sigaction ign = { .handler = SIG_IGN };
	(void)unused;
	CHECK(raw_rt_sigaction(SIGTERM, &ign, NULL, SIGSET_SIZE) == 0);
	raw_kill(raw_getpid(), SIGTERM);
	raw_tgkill(raw_getpid(), raw_gettid(), SIGTERM);
	return 0;
}

TEST(ignored_sigterm_does_nothing)
{
	EXPECT_STATUS(child_status(ignore_sigterm, 0), EXITED(0));
}

/* A handled signal sent by another process to one busy in user mode. */
static volatile int got_term;
static void term_handler(int sig) { got_term = sig; }

static int wait_for_sigterm(long unused)
{
	(void)unused;
	for (long i = 0; i < 100000000 && !got_term; i++)
		;
	CHECK(got_term == SIGTERM);            /* the handler ran */
	return 0;
}

TEST(signal_from_another_process_runs_the_handler)
{
	int st = -1;

	got_term = 0;
	EXPECT_EQ(install(SIGTERM, term_handler, SA_RESTORER, 0), 0);
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(wait_for_sigterm(0));
	install(SIGTERM, SIG_DFL, 0, 0);
	yield_n(5);
	long k = raw_kill(pid, SIGTERM);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_EQ(k, 0);
	EXPECT_STATUS(st, EXITED(0));
}

/* SIGCHLD's default is to ignore: a parent whose children exit lives on. */
static int parent_of_a_child(long unused)
{
	int st;
	(void)unused;
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(0);
	yield_n(20);            /* SIGCHLD arrives while we run */
	CHECK(raw_wait4(pid, &st, 0, NULL) == pid);
	raw_kill(raw_getpid(), SIGCHLD);
	return 0;
}

TEST(sigchld_default_is_ignored)
{
	EXPECT_STATUS(child_status(parent_of_a_child, 0), EXITED(0));
}

static volatile int chld_count;
static void chld_handler(int sig) { (void)sig; chld_count++; }

TEST(sigchld_is_sent_at_child_exit)
{
	int st;

	chld_count = 0;
	EXPECT_EQ(install(SIGCHLD, chld_handler, SA_RESTORER, 0), 0);
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(0);
	long r = raw_wait4(pid, &st, 0, NULL);
	install(SIGCHLD, SIG_DFL, 0, 0);
	EXPECT_EQ(r, pid);
	EXPECT_EQ(chld_count, 1);
}

/* ---- faults that cannot be ignored, blocked or handled recursively ---- */
static int segv_ignored(long unused)
{
	struct k_sigaction ign = { .handler = SIG_IGN };
	(void)unused;
	CHECK(raw_rt_sigaction(SIGSEGV, &ign, NULL, SIGSET_SIZE) == 0);
	INT_AT(0) = 1;
	NOT_REACHED("an ignored SIGSEGV should still kill");
}

static int segv_blocked(long unused)
{
	unsigned long long set = SIGBIT(SIGSEGV);
	(void)unused;
	CHECK(raw_rt_sigprocmask(SIG_BLOCK, &set, NULL, SIGSET_SIZE) == 0);
	INT_AT(0) = 1;
	NOT_REACHED("a blocked SIGSEGV should still kill");
}

static void faulting_handler(int sig)
{
	(void)sig;
	INT_AT(0) = 2;
}

static int segv_in_segv_handler(long unused)
{
	(void)unused;
	CHECK(install(SIGSEGV, faulting_handler, SA_RESTORER, 0) == 0);
	INT_AT(0) = 1;
	NOT_REACHED("a fault in the SIGSEGV handler should kill");
}

TEST(ignored_fault_still_kills)
{
	EXPECT_STATUS(child_status(segv_ignored, 0), KILLED(SIGSEGV));
}

TEST(blocked_fault_still_kills)
{
	EXPECT_STATUS(child_status(segv_blocked, 0), KILLED(SIGSEGV));
}

TEST(fault_in_the_fault_handler_kills)
{
	EXPECT_STATUS(child_status(segv_in_segv_handler, 0), KILLED(SIGSEGV));
}

/* A handler that repairs the fault (makes the page writable) and
 * returns: the faulting write runs again and succeeds. */
static volatile char *ro_page;
static volatile int repairs;

static void repair_handler(int sig)
{
	(void)sig;
	repairs++;
	raw_mprotect((void *)ro_page, PAGE_SIZE, PROT_READ | PROT_WRITE);
}

static int write_to_repaired_page(long unused)
{
	(void)unused;
	long p = raw_mmap2(NULL, PAGE_SIZE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(!RAW_IS_ERR(p));
	ro_page = (volatile char *)p;
	CHECK(install(SIGSEGV, repair_handler, SA_RESTORER, 0) == 0);
	ro_page[100] = 7;               /* faults once, then succeeds */
	CHECK(repairs == 1 && ro_page[100] == 7);
	return 0;
}

TEST(handler_returns_to_the_faulting_instruction)
{
	EXPECT_STATUS(child_status(write_to_repaired_page, 0), EXITED(0));
}

/* ---- the kernel against bad user stacks ---- */

/* Sends itself SIGUSR1 (handled) with %esp = sp: the kernel cannot build
 * the handler's frame there and must kill the process with SIGSEGV, not
 * write to sp (a kernel address!) nor crash. */
static int signal_on_bad_stack(long sp)
{
	CHECK(install(SIGUSR1, count_handler, SA_RESTORER, 0) == 0);
	long pid = raw_getpid(), r;
	__asm__ volatile(
		"movl %%esp, %%edi\n\t"
		"movl %[sp], %%esp\n\t"
		"int $0x80\n\t"
		"movl %%edi, %%esp"
		: "=a"(r)
		: "0"(SYS_kill), [sp] "r"(sp), "b"(pid), "c"(SIGUSR1)
		: "edi", "memory");
	NOT_REACHED("no frame fits at a bad %esp: SIGSEGV");
}

TEST(signal_with_a_bad_stack_is_sigsegv)
{
	EXPECT_FAULT(signal_on_bad_stack, KERNEL + 0x1000, SIGSEGV);
	EXPECT_FAULT(signal_on_bad_stack, UNMAPPED + 0x1000, SIGSEGV);
	EXPECT_FAULT(signal_on_bad_stack, 0, SIGSEGV);
	EXPECT_FAULT(signal_on_bad_stack, USER_TOP + 8, SIGSEGV);   /* frame straddles */
}

/* rt_sigreturn with no signal frame, on a stack full of one pattern:
 * whatever the kernel makes of the "frame", it must not return to ring
 * 0, into vm86 mode or with IOPL 3, nor crash; the process dies with
 * SIGSEGV (here: eip, esp and every selector are garbage). */
static uint32_t garbage[2048];

static int sigreturn_garbage(long pattern)
{
	for (int i = 0; i < 2048; i++)
		garbage[i] = (uint32_t)pattern;
	__asm__ volatile(
		"movl %[sp], %%esp\n\t"
		"int $0x80\n\t"
		"ud2"
		: : [sp] "r"(&garbage[1024]), "a"(SYS_rt_sigreturn) : "memory");
	NOT_REACHED("a garbage frame should end in SIGSEGV");
}

TEST(rt_sigreturn_with_a_garbage_frame)
{
	static const uint32_t patterns[] = {
		0, 0x60, 0x63, 0x68, 0x70, 0xC0100000, 0xffffffff, 0x0003b202,
	};
	for (unsigned i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		long st = child_status(sigreturn_garbage, patterns[i]);
		EXPECT(st == KILLED(SIGSEGV), "frame of %#x words: child status %s, want SIGSEGV",
		       patterns[i], t_status_str(st, t_b1_));
	}
}

int main(void)
{
	RUN(null_pointer_is_sigsegv);
	RUN(kernel_memory_is_sigsegv);
	RUN(unmapped_memory_is_sigsegv);
	RUN(read_only_segments_are_sigsegv);
	RUN(general_protection_is_sigsegv);
	RUN(invalid_opcode_is_sigill);
	RUN(divide_error_is_sigfpe);
	RUN(sigsegv_handler_with_restorer);
	RUN(sigsegv_handler_without_restorer);
	RUN(sigill_handler);
	RUN(kill_self_runs_the_handler);
	RUN(tgkill_self_runs_the_handler);
	RUN(handler_mask);
	RUN(registers_preserved_across_a_handler);
	RUN(blocked_signal_waits_for_unblock);
	RUN(blocked_thread_signal_waits_for_unblock);
	RUN(signal_raised_in_its_handler_runs_after_sigreturn);
	RUN(sigprocmask_how);
	RUN(sigprocmask_errors);
	RUN(sigkill_and_sigstop_cannot_be_blocked);
	RUN(sigkill_cannot_be_caught);
	RUN(sigaction_errors);
	RUN(signal_64_is_valid);
	RUN(sigaction_returns_the_old_action);
	RUN(kill_errors);
	RUN(sigkill_kills_even_with_everything_blocked);
	RUN(sigterm_default_kills);
	RUN(sigint_default_kills);
	RUN(ignored_sigterm_does_nothing);
	RUN(signal_from_another_process_runs_the_handler);
	RUN(sigchld_default_is_ignored);
	RUN(sigchld_is_sent_at_child_exit);
	RUN(ignored_fault_still_kills);
	RUN(blocked_fault_still_kills);
	RUN(fault_in_the_fault_handler_kills);
	RUN(handler_returns_to_the_faulting_instruction);
	RUN(signal_with_a_bad_stack_is_sigsegv);
	RUN(rt_sigreturn_with_a_garbage_frame);
	return t_exit_code();
}
