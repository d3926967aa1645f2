/* user/tests/t_siginfo.c - what an SA_SIGINFO handler is told (abi.md
 * section 7, Linux/i386's conventions): the siginfo and the sigcontext
 * of a fault (si_code, si_addr, trapno, err, cr2), the sender of a kill
 * or tgkill, a child's exit in SIGCHLD's siginfo, the first siginfo of a
 * standard signal sent twice, and a signal to a thread that spins in
 * user mode on another CPU, which must be interrupted by the reschedule
 * IPI rather than wait for that CPU's timer tick; and what rt_sigreturn
 * makes of the CS and SS a handler leaves in the frame (Linux's: each
 * with RPL 3, a bad one SIGSEGV at the return). t_fault.c covers what
 * happens (who dies, handlers, masks); this file what the handler reads.
 * Booted as init: every fault happens in a forked child, which reports
 * through a MAP_SHARED page. */
#define T_PROG "t_siginfo"
#include "t.h"
#include "smp.h"
#include "signal.h"
#include "sys/mman.h"

/* Linux i386's struct siginfo and struct ucontext, as the kernel lays
 * them out (arch/i386/signal_frame.h checks the same offsets). */
struct t_siginfo {
	int si_signo, si_errno, si_code;
	union {
		struct { int pid; unsigned uid; int status; } k;  /* kill, SIGCHLD */
		unsigned addr;                                  /* faults */
		int pad[29];
	} u;
};

struct t_sigcontext {
	unsigned short gs, gsh, fs, fsh, es, esh, ds, dsh;
	unsigned edi, esi, ebp, esp, ebx, edx, ecx, eax;
	unsigned trapno, err, eip;
	unsigned short cs, csh;
	unsigned eflags, esp_at_signal;
	unsigned short ss, ssh;
	unsigned fpstate, oldmask, cr2;
};

struct t_ucontext {
	unsigned long uc_flags;
	unsigned uc_link, ss_sp;
	int ss_flags;
	unsigned ss_size;
	struct t_sigcontext mc;
	unsigned long long sigmask;
};
_Static_assert(sizeof(struct t_siginfo) == 128, "Linux's siginfo is 128 bytes");
_Static_assert(__builtin_offsetof(struct t_siginfo, u.k.status) == 20, "si_status at 20");
_Static_assert(__builtin_offsetof(struct t_ucontext, mc.trapno) == 20 + 48, "trapno");
_Static_assert(__builtin_offsetof(struct t_ucontext, mc.cr2) == 20 + 84, "cr2");

/* Exception vectors (Intel SDM Vol. 3A 6.15) and Spindle's reschedule
 * IPI (docs/smp.md): sigcontext.trapno is the trap the delivery ended. */
#define TRAP_DE 0
#define TRAP_BP 3
#define TRAP_OF 4
#define TRAP_UD 6
#define TRAP_GP 13
#define TRAP_PF 14
#define VEC_RESCHEDULE 0xFC
/* #PF error code bits (SDM Vol. 3A 4.7). */
#define PF_P 1
#define PF_W 2
#define PF_U 4

#define KERNEL   0xC0100000u
#define UNMAPPED 0x10000000u

/* What a handler saw. */
struct seen {
	int runs, signo, code, pid, status;
	unsigned addr, uid, trapno, err, eip, cr2;
};

static struct seen *shared;             /* MAP_SHARED: survives the child */
static volatile struct seen got;        /* in-process handlers */

static void record(struct seen *s, int sig, const struct t_siginfo *si,
		   const struct t_ucontext *uc)
{
	s->runs++;
	s->signo = si->si_signo;
	s->code = si->si_code;
	s->pid = si->u.k.pid;
	s->addr = si->u.addr;
	s->uid = si->u.k.uid;
	s->status = si->u.k.status;
	s->trapno = uc->mc.trapno;
	s->err = uc->mc.err;
	s->eip = uc->mc.eip;
	s->cr2 = uc->mc.cr2;
	if (sig != si->si_signo)
		s->signo = -sig;        /* the argument and si_signo disagree */
}

static void shared_handler(int sig, struct t_siginfo *si, void *uc)
{
	record(shared, sig, si, uc);
	raw_exit_group(0);              /* a fault would only repeat */
}

static void got_handler(int sig, struct t_siginfo *si, void *uc)
{
	record((struct seen *)&got, sig, si, uc);
}

static long install(int sig, void *handler)
{
	struct k_sigaction act = {
		.handler = handler, .flags = SA_SIGINFO | SA_RESTORER,
		.restorer = (void *)__restore_rt,
	};
	return raw_rt_sigaction(sig, &act, NULL, SIGSET_SIZE);
}

static void uninstall(int sig)
{
	struct k_sigaction dfl = { .handler = SIG_DFL };

	raw_rt_sigaction(sig, &dfl, NULL, SIGSET_SIZE);
}

static long mask(int how, int sig)
{
	unsigned long long set = SIGBIT(sig);

	return raw_rt_sigprocmask(how, &set, NULL, SIGSET_SIZE);
}

/* The faulting instructions, each at a label so the test knows its
 * address. t_read/t_write take the address as their argument. */
extern char t_read_insn[], t_write_insn[], t_ud2_insn[], t_div_insn[], t_int3_insn[], t_cli_insn[];
extern char t_into_insn[], t_int4_insn[], t_int5_insn[];
int t_read(unsigned addr);
void t_write(unsigned addr);
void t_ud2(void), t_div0(void), t_divovf(void), t_int3(void), t_cli(void);
void t_into(void), t_int4(void), t_int5(void);
__asm__(
	"	.text\n"
	"t_read:  movl 4(%esp), %eax\n"
	"t_read_insn: movl (%eax), %eax\n"
	"	ret\n"
	"t_write: movl 4(%esp), %eax\n"
	"t_write_insn: movl $1, (%eax)\n"
	"	ret\n"
	"t_ud2:\n"
	"t_ud2_insn: ud2\n"
	"	ret\n"
	"t_div0: movl $1000, %eax\n"
	"	cltd\n"
	"	xorl %ecx, %ecx\n"
	"t_div_insn: idivl %ecx\n"
	"	ret\n"
	"t_divovf: movl $0x80000000, %eax\n"     /* INT_MIN / -1: #DE too */
	"	cltd\n"
	"	movl $-1, %ecx\n"
	"	idivl %ecx\n"
	"	ret\n"
	"t_int3:\n"
	"t_int3_insn: int3\n"
	"	ret\n"
	"t_cli:\n"
	"t_cli_insn: cli\n"
	"	ret\n"
	"t_into: movl $0x7fffffff, %eax\n"      /* INT_MAX + 1 sets OF */
	"	addl $1, %eax\n"
	"t_into_insn: into\n"
	"	ret\n"
	"t_int4:\n"
	"t_int4_insn: int $4\n"
	"	ret\n"
	"t_int5:\n"
	"t_int5_insn: int $5\n"
	"	ret\n");

/* Runs fn(arg) in a child with shared_handler on sig; the child's record
 * in *s. 0, or a reason. */
static const char *fault_in_child(int sig, int (*fn)(long), long arg, struct seen *s)
{
	memset(shared, 0, sizeof(*shared));
	long st = -1, pid = raw_fork();
	if (pid == 0) {
		if (install(sig, shared_handler))
			raw_exit_group(90);
		fn(arg);
		raw_exit_group(91);     /* did not fault */
	}
	int w = -1;
	if (pid < 0 || raw_wait4(pid, &w, 0, NULL) != pid)
		return "fork or wait4 failed";
	st = w;
	*s = *shared;
	if (st == EXITED(91))
		return "the instruction did not fault";
	if (st != EXITED(0) || s->runs != 1)
		return "the handler did not run once";
	return NULL;
}

static int do_read(long a)    { return t_read((unsigned)a); }
static int do_write(long a)   { t_write((unsigned)a); return 0; }
static int do_ud2(long a)     { (void)a; t_ud2(); return 0; }
static int do_div0(long a)    { (void)a; t_div0(); return 0; }
static int do_divovf(long a)  { (void)a; t_divovf(); return 0; }
static int do_int3(long a)    { (void)a; t_int3(); return 0; }
static int do_cli(long a)     { (void)a; t_cli(); return 0; }
static int do_into(long a)    { (void)a; t_into(); return 0; }
static int do_int4(long a)    { (void)a; t_int4(); return 0; }
static int do_int5(long a)    { (void)a; t_int5(); return 0; }

#define FAULT(sig, fn, arg, s) do { \
	const char *why_ = fault_in_child(sig, fn, (long)(arg), &(s)); \
	if (why_) \
		FAIL("%s(%#lx): %s", #fn, (unsigned long)(arg), why_); \
} while (0)

/* A page fault: SIGSEGV with code, si_addr = sigcontext.cr2 = addr, at
 * insn, trapno 14 and the error code err. */
#define EXPECT_PF(s, code_, addr_, insn, err_) do { \
	EXPECT_EQ((s).signo, SIGSEGV); \
	EXPECT_EQ((s).code, code_); \
	EXPECT_EQ((s).addr, addr_); \
	EXPECT_EQ((s).cr2, addr_); \
	EXPECT_EQ((s).trapno, TRAP_PF); \
	EXPECT_EQ((s).err, err_); \
	EXPECT_EQ((s).eip, (unsigned)(insn)); \
} while (0)

TEST(unmapped_read_is_segv_maperr)
{
	struct seen s;

	raw_munmap((void *)UNMAPPED, PAGE_SIZE);
	FAULT(SIGSEGV, do_read, UNMAPPED + 0x123, s);
	EXPECT_PF(s, SEGV_MAPERR, UNMAPPED + 0x123, t_read_insn, PF_U);
	FAULT(SIGSEGV, do_read, 4, s);                  /* page 0 */
	EXPECT_PF(s, SEGV_MAPERR, 4, t_read_insn, PF_U);
}

/* Linux: an address of the kernel's is "no area" too (bad_area_nosemaphore);
 * its page is present, so P is set in the error code. */
TEST(kernel_address_is_segv_maperr)
{
	struct seen s;

	FAULT(SIGSEGV, do_read, KERNEL, s);
	EXPECT_PF(s, SEGV_MAPERR, KERNEL, t_read_insn, PF_U | PF_P);
}

TEST(read_only_write_is_segv_accerr)
{
	struct seen s;
	long p = raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	EXPECT(!RAW_IS_ERR(p), "mmap2: %ld", p);
	*(volatile int *)p = 5;                         /* mapped, present */
	EXPECT_EQ(raw_mprotect((void *)p, PAGE_SIZE, PROT_READ), 0);
	FAULT(SIGSEGV, do_write, p + 8, s);
	EXPECT_PF(s, SEGV_ACCERR, (unsigned)p + 8, t_write_insn, PF_U | PF_W | PF_P);
	raw_munmap((void *)p, PAGE_SIZE);
}

/* The area decides, not the P bit: PROT_NONE memory never touched is
 * not present, and still SEGV_ACCERR (Linux's access_error). */
TEST(prot_none_read_is_segv_accerr)
{
	struct seen s;
	long p = raw_mmap2(NULL, PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	EXPECT(!RAW_IS_ERR(p), "mmap2: %ld", p);
	FAULT(SIGSEGV, do_read, p + 16, s);
	EXPECT_PF(s, SEGV_ACCERR, (unsigned)p + 16, t_read_insn, PF_U);
	raw_munmap((void *)p, PAGE_SIZE);
}

TEST(ud2_is_sigill_illopn)
{
	struct seen s;

	FAULT(SIGILL, do_ud2, 0, s);
	EXPECT_EQ(s.signo, SIGILL);
	EXPECT_EQ(s.code, ILL_ILLOPN);
	EXPECT_EQ(s.addr, (unsigned)t_ud2_insn);
	EXPECT_EQ(s.eip, (unsigned)t_ud2_insn);
	EXPECT_EQ(s.trapno, TRAP_UD);
	EXPECT_EQ(s.cr2, 0);
}

TEST(divide_error_is_sigfpe_intdiv)
{
	struct seen s;

	FAULT(SIGFPE, do_div0, 0, s);
	EXPECT_EQ(s.signo, SIGFPE);
	EXPECT_EQ(s.code, FPE_INTDIV);
	EXPECT_EQ(s.addr, (unsigned)t_div_insn);
	EXPECT_EQ(s.eip, (unsigned)t_div_insn);
	EXPECT_EQ(s.trapno, TRAP_DE);
	FAULT(SIGFPE, do_divovf, 0, s);                 /* Linux says INTDIV too */
	EXPECT_EQ(s.code, FPE_INTDIV);
	EXPECT_EQ(s.addr, s.eip);
}

/* #GP and int3 are Linux's force_sig(): SI_KERNEL, si_addr 0. */
TEST(general_protection_is_si_kernel)
{
	struct seen s;

	FAULT(SIGSEGV, do_cli, 0, s);
	EXPECT_EQ(s.signo, SIGSEGV);
	EXPECT_EQ(s.code, SI_KERNEL);
	EXPECT_EQ(s.addr, 0);
	EXPECT_EQ(s.cr2, 0);
	EXPECT_EQ(s.trapno, TRAP_GP);
	EXPECT_EQ(s.eip, (unsigned)t_cli_insn);
}

TEST(int3_is_sigtrap)
{
	struct seen s;

	FAULT(SIGTRAP, do_int3, 0, s);
	EXPECT_EQ(s.signo, SIGTRAP);
	EXPECT_EQ(s.code, SI_KERNEL);
	EXPECT_EQ(s.trapno, TRAP_BP);
	EXPECT_EQ(s.eip, (unsigned)t_int3_insn + 1);    /* a trap: after it */
}

/* into with OF set, and `int $4`, which ring 3 may raise as Linux lets it
 * (arch/i386/idt.c): #OF, a trap, so after the instruction; SIGSEGV with
 * SI_KERNEL (Linux's do_error_trap). `int $5` may not: its gate is the
 * kernel's, so #GP, whose error code names IDT entry 5 (SDM Vol. 3A
 * 6.13: index << 3 | IDT bit 2). */
TEST(into_and_int_4_are_sigsegv_after_the_instruction)
{
	struct seen s;

	FAULT(SIGSEGV, do_into, 0, s);
	EXPECT_EQ(s.signo, SIGSEGV);
	EXPECT_EQ(s.code, SI_KERNEL);
	EXPECT_EQ(s.addr, 0);
	EXPECT_EQ(s.trapno, TRAP_OF);
	EXPECT_EQ(s.eip, (unsigned)t_into_insn + 1);
	FAULT(SIGSEGV, do_int4, 0, s);
	EXPECT_EQ(s.code, SI_KERNEL);
	EXPECT_EQ(s.trapno, TRAP_OF);
	EXPECT_EQ(s.eip, (unsigned)t_int4_insn + 2);
	FAULT(SIGSEGV, do_int5, 0, s);
	EXPECT_EQ(s.code, SI_KERNEL);
	EXPECT_EQ(s.trapno, TRAP_GP);
	EXPECT_EQ(s.err, 5 << 3 | 2);
	EXPECT_EQ(s.eip, (unsigned)t_int5_insn);
}

/* ---- rt_sigreturn: the frame's CS and SS ---- */

/* What frame_handler writes into the frame's sigcontext (0: leaves it). */
static unsigned short frame_cs, frame_ss;

static void frame_handler(int sig, struct t_siginfo *si, void *ucv)
{
	struct t_ucontext *uc = ucv;

	(void)sig;
	(void)si;
	if (frame_cs)
		uc->mc.cs = frame_cs;
	if (frame_ss)
		uc->mc.ss = frame_ss;
}

static unsigned short read_cs(void)
{
	unsigned short cs;

	__asm__ volatile("movw %%cs, %0" : "=r"(cs));
	return cs;
}

/* LDT entry 0 (selector 0x7): a flat 32-bit code segment, the kind Wine
 * runs code in. The child returns from a handler into it, makes a
 * system call from it, and is still there: 0, or where it went wrong. */
static int return_into_ldt_code(long unused)
{
	struct user_desc d = {
		.entry_number = 0, .limit = 0xfffff, .seg_32bit = 1, .contents = 2,
		.limit_in_pages = 1,
	};

	(void)unused;
	if (raw_modify_ldt(1, &d, sizeof(d)) != 0)
		return 1;
	frame_cs = 0x7;
	frame_ss = 0;
	if (install(SIGUSR1, frame_handler) || raw_kill(raw_getpid(), SIGUSR1))
		return 2;
	if (read_cs() != 0x7)
		return 3;
	raw_sched_yield();
	return read_cs() == 0x7 ? 0 : 4;
}

TEST(rt_sigreturn_returns_into_an_ldt_code_segment)
{
	EXPECT_STATUS(child_status(return_into_ldt_code, 0), EXITED(0));
}

/* The handler leaves a selector the return cannot load: the iret faults
 * and the task gets SIGSEGV (#GP), delivered with the user segments, so
 * the handler runs. cs_ss = cs << 16 | ss. */
static int return_to_bad_segment(long cs_ss)
{
	frame_cs = (unsigned short)(cs_ss >> 16);
	frame_ss = (unsigned short)cs_ss;
	if (install(SIGUSR1, frame_handler))
		return 2;
	raw_kill(raw_getpid(), SIGUSR1);
	return 3;                       /* fault_in_child: did not fault */
}

TEST(rt_sigreturn_to_a_bad_cs_or_ss_is_sigsegv)
{
	static const unsigned cases[] = {
		0x47,           /* SS: LDT entry 8, and no LDT */
		0x33,           /* SS: TLS slot 6, empty */
		0x23,           /* SS: the user code segment */
		0x68,           /* SS: the kernel's data (RPL 3 forced: 0x6b) */
		0x60u << 16,    /* CS: the kernel's code (0x63) */
		0x2bu << 16,    /* CS: the user data segment */
		0x4fu << 16,    /* CS: LDT entry 9, and no LDT */
	};
	struct seen s;

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FAULT(SIGSEGV, return_to_bad_segment, cases[i], s);
		EXPECT_EQ(s.signo, SIGSEGV);
		EXPECT_EQ(s.code, SI_KERNEL);
		EXPECT_EQ(s.trapno, TRAP_GP);
	}
}

/* ---- senders ---- */

TEST(kill_from_a_child_says_si_user_and_its_pid)
{
	int st;

	memset((void *)&got, 0, sizeof(got));
	EXPECT_EQ(install(SIGUSR1, got_handler), 0);
	EXPECT_EQ(mask(SIG_BLOCK, SIGUSR1), 0);
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(raw_kill(raw_getppid(), SIGUSR1) == 0 ? 0 : 1);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(mask(SIG_UNBLOCK, SIGUSR1), 0);       /* delivered on the way out */
	uninstall(SIGUSR1);
	EXPECT_EQ(got.runs, 1);
	EXPECT_EQ(got.signo, SIGUSR1);
	EXPECT_EQ(got.code, SI_USER);
	EXPECT_EQ(got.pid, pid);
	EXPECT_EQ(got.uid, 0);
	EXPECT_EQ(got.trapno, 0x80);                    /* rt_sigprocmask's return */
}

TEST(kill_self_says_si_user)
{
	memset((void *)&got, 0, sizeof(got));
	EXPECT_EQ(install(SIGUSR2, got_handler), 0);
	EXPECT_EQ(raw_kill(raw_getpid(), SIGUSR2), 0);
	uninstall(SIGUSR2);
	EXPECT_EQ(got.runs, 1);
	EXPECT_EQ(got.code, SI_USER);
	EXPECT_EQ(got.pid, raw_getpid());
}

TEST(tgkill_self_says_si_tkill)
{
	memset((void *)&got, 0, sizeof(got));
	EXPECT_EQ(install(SIGUSR1, got_handler), 0);
	EXPECT_EQ(raw_tgkill(raw_getpid(), raw_gettid(), SIGUSR1), 0);
	uninstall(SIGUSR1);
	EXPECT_EQ(got.runs, 1);
	EXPECT_EQ(got.signo, SIGUSR1);
	EXPECT_EQ(got.code, SI_TKILL);
	EXPECT_EQ(got.pid, raw_getpid());
}

/* A standard signal sent twice while blocked is delivered once, with the
 * first sender's siginfo (Linux's legacy_queue). */
TEST(merged_signal_keeps_the_first_siginfo)
{
	int st;

	memset((void *)&got, 0, sizeof(got));
	EXPECT_EQ(install(SIGUSR2, got_handler), 0);
	EXPECT_EQ(mask(SIG_BLOCK, SIGUSR2), 0);
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(raw_kill(raw_getppid(), SIGUSR2) == 0 ? 0 : 1);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_EQ(raw_kill(raw_getpid(), SIGUSR2), 0);  /* merges */
	EXPECT_EQ(mask(SIG_UNBLOCK, SIGUSR2), 0);
	uninstall(SIGUSR2);
	EXPECT_EQ(got.runs, 1);
	EXPECT_EQ(got.pid, pid);
}

/* More signals pending at once than the kernel keeps siginfo for: none
 * is lost (the excess comes with SI_USER from pid 0, as on Linux when
 * the queue is full). */
static volatile unsigned long long arrived;

static void arrived_handler(int sig, struct t_siginfo *si, void *uc)
{
	(void)uc;
	if (si->si_signo == sig)
		arrived |= SIGBIT(sig);
}

TEST(many_pending_signals_all_arrive)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE,
				    SIGALRM, SIGTERM, 33, 34, 35, 40 };
	unsigned long long want = 0, all = 0;
	int n = sizeof(sigs) / sizeof(sigs[0]);

	arrived = 0;
	for (int i = 0; i < n; i++) {
		EXPECT_EQ(install(sigs[i], arrived_handler), 0);
		want |= SIGBIT(sigs[i]);
	}
	EXPECT_EQ(raw_rt_sigprocmask(SIG_BLOCK, &want, NULL, SIGSET_SIZE), 0);
	for (int i = 0; i < n; i++)
		EXPECT_EQ(raw_kill(raw_getpid(), sigs[i]), 0);
	EXPECT_EQ(raw_rt_sigprocmask(SIG_SETMASK, &all, NULL, SIGSET_SIZE), 0);
	for (int i = 0; i < n; i++)
		uninstall(sigs[i]);
	EXPECT(arrived == want, "arrived %#llx, want %#llx", arrived, want);
}

/* ---- SIGCHLD ---- */

static const char *sigchld_of(int (*child)(long), long arg, long *pidp)
{
	int st;

	memset((void *)&got, 0, sizeof(got));
	if (install(SIGCHLD, got_handler) || mask(SIG_BLOCK, SIGCHLD))
		return "rt_sigaction or rt_sigprocmask failed";
	long pid = raw_fork();
	if (pid == 0)
		raw_exit_group(child(arg));
	*pidp = pid;
	if (pid < 0 || raw_wait4(pid, &st, 0, NULL) != pid)
		return "fork or wait4 failed";
	mask(SIG_UNBLOCK, SIGCHLD);
	uninstall(SIGCHLD);
	return got.runs == 1 ? NULL : "the SIGCHLD handler did not run once";
}

static int exit_with(long code) { return (int)code; }

static int die_of(long sig)
{
	raw_kill(raw_getpid(), (int)sig);
	while (raw_sched_yield() == 0)
		;
	return 92;
}

TEST(sigchld_says_cld_exited_and_the_status)
{
	long pid = 0;
	const char *why = sigchld_of(exit_with, 7, &pid);

	EXPECT(!why, "%s", why);
	EXPECT_EQ(got.signo, SIGCHLD);
	EXPECT_EQ(got.code, CLD_EXITED);
	EXPECT_EQ(got.pid, pid);
	EXPECT_EQ(got.status, 7);
}

TEST(sigchld_says_cld_killed_and_the_signal)
{
	long pid = 0;
	const char *why = sigchld_of(die_of, SIGTERM, &pid);

	EXPECT(!why, "%s", why);
	EXPECT_EQ(got.signo, SIGCHLD);
	EXPECT_EQ(got.code, CLD_KILLED);
	EXPECT_EQ(got.pid, pid);
	EXPECT_EQ(got.status, SIGTERM);
}

/* ---- a signal to a thread spinning in user mode on another CPU ----
 *
 * Linux's signal_wake_up kicks a target that is running on another CPU
 * (kick_process: a reschedule IPI), so the signal arrives at once, not
 * at that CPU's next timer tick. Speed is not what is checked: under
 * TCG, wall time says little. What is checked is how it arrived:
 * sigcontext.trapno is the trap whose return delivered the signal, and
 * the spinner makes no system call and takes no fault, so the only
 * traps it can return from are its CPU's timer tick (0x40, or 0x20 for
 * the PIT on cpu0) and an IPI. Without the kick, every round ends with
 * a tick. With it, a round may still end with a tick if that tick lands
 * between the sender's setting the pending bit and the IPI's arrival (a
 * few instructions, unless the host deschedules the sending vCPU right
 * there), so most rounds, not all, must say 0xFC. When both are pending
 * at once the IPI wins anyway: its priority class is higher (SDM Vol. 3A
 * 10.8.3). With one CPU there is no other CPU: the case only checks that
 * every signal arrives. */
#define IPI_ROUNDS 10
#define IPI_STACK (SMP_MAX_THREADS - 1)

static volatile int spin_stop, ipi_runs, ipi_code;
static volatile unsigned spin_cpu, ipi_trapno;
static volatile unsigned long spin_count;

static void ipi_handler(int sig, struct t_siginfo *si, void *uc)
{
	(void)sig;
	ipi_trapno = ((struct t_ucontext *)uc)->mc.trapno;
	ipi_code = si->si_code;
	ipi_runs++;
}

static int spinner(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	while (!spin_stop) {            /* no system call in here */
		spin_cpu = smp_cpu();
		spin_count++;
	}
	return 0;
}

/* Waits (yielding, for one CPU) until *w is no longer old; false after
 * 10 s, a bound no delivery path comes near. */
static bool changes(volatile unsigned long *w, unsigned long old)
{
	long long end = thr_now_ns() + 10000000000ll;

	while (*w == old)
		if (raw_sched_yield(), thr_now_ns() > end)
			return false;
	return true;
}

TEST(signal_to_a_spinning_thread_on_another_cpu_comes_by_ipi)
{
	unsigned trapnos[IPI_ROUNDS];
	int ncpus = smp_ncpus(), rounds = 0, by_ipi = 0, tries = 0;
	char list[IPI_ROUNDS * 8] = "";
	long tid;

	EXPECT(ncpus >= 1, "smp_ncpus: %d", ncpus);
	EXPECT_EQ(install(SIGUSR1, ipi_handler), 0);
	spin_stop = 0;
	ipi_runs = 0;
	tid = smp_start(IPI_STACK, spinner, NULL, NULL);
	EXPECT(tid > 0, "clone: %ld", tid);
	while (rounds < IPI_ROUNDS && tries++ < 1000) {
		unsigned long c = spin_count;
		if (!changes(&spin_count, c))
			break;                  /* the spinner does not run */
		/* Both on one CPU (or just one CPU): no other CPU to kick. */
		if (ncpus > 1 && spin_cpu == smp_cpu())
			continue;
		unsigned long r = (unsigned long)ipi_runs;
		EXPECT_EQ(raw_tgkill(raw_getpid(), tid, SIGUSR1), 0);
		if (!changes((volatile unsigned long *)&ipi_runs, r))
			break;
		trapnos[rounds++] = ipi_trapno;
	}
	spin_stop = 1;
	EXPECT_EQ(smp_join(tid), 0);
	uninstall(SIGUSR1);
	EXPECT(rounds == IPI_ROUNDS, "%d of %d signals arrived (%d tries)", rounds,
	       IPI_ROUNDS, tries);
	for (int i = 0; i < rounds; i++) {
		by_ipi += trapnos[i] == VEC_RESCHEDULE;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), " %#x", trapnos[i]);
	}
	if (ncpus > 1)
		EXPECT(by_ipi * 2 > rounds, "%d CPUs: %d of %d signals came by the reschedule "
		       "IPI (trapno 0xfc); trapnos:%s", ncpus, by_ipi, rounds, list);
	EXPECT_EQ(ipi_code, SI_TKILL);
}

int main(void)
{
	shared = (struct seen *)raw_mmap2(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
					  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (RAW_IS_ERR((long)shared)) {
		printf("FAIL %s: no shared page\n", T_PROG);
		return 1;
	}
	RUN(unmapped_read_is_segv_maperr);
	RUN(kernel_address_is_segv_maperr);
	RUN(read_only_write_is_segv_accerr);
	RUN(prot_none_read_is_segv_accerr);
	RUN(ud2_is_sigill_illopn);
	RUN(divide_error_is_sigfpe_intdiv);
	RUN(general_protection_is_si_kernel);
	RUN(int3_is_sigtrap);
	RUN(into_and_int_4_are_sigsegv_after_the_instruction);
	RUN(rt_sigreturn_returns_into_an_ldt_code_segment);
	RUN(rt_sigreturn_to_a_bad_cs_or_ss_is_sigsegv);
	RUN(kill_from_a_child_says_si_user_and_its_pid);
	RUN(kill_self_says_si_user);
	RUN(tgkill_self_says_si_tkill);
	RUN(merged_signal_keeps_the_first_siginfo);
	RUN(many_pending_signals_all_arrive);
	RUN(sigchld_says_cld_exited_and_the_status);
	RUN(sigchld_says_cld_killed_and_the_signal);
	RUN(signal_to_a_spinning_thread_on_another_cpu_comes_by_ipi);
	return t_exit_code();
}
