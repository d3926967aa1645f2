/* user/tests/t_exec_child.c - the program t_exec executes (not a test of
 * its own: names ending in _child are helpers). argv[1] says what to do:
 *
 *   args            check the start state of abi.md section 2 (argv, envp,
 *                   auxv, registers, stack) and print one PASS/FAIL line
 *                   per check as t_exec_child.<case>; exit 0 if all passed
 *   exit N          exit with status N
 *   pid N P         exit 0 if getpid() == N and getppid() == P
 *   sigdfl          exit 0 if SIGUSR1's handler was reset to SIG_DFL and
 *                   SIGUSR2, ignored before execve, still is
 *   mask            exit 0 if SIGUSR1 is still blocked
 *   tls             exit 0 if %fs/%gs started 0 and TLS slots 6..8 are empty
 *   unmapped ADDR   exit 0 if touching ADDR (hex) in a child is SIGSEGV
 *   many N ...      exit 0 if argv[3..N+2] are N strings of MANY_ARG_LEN
 *                   letters, argument i starting with 'a' + i % 26
 *   leader N P C    started by execve in a thread (t_exec_thread): exit
 *                   LEADER_BAD_PID, _TID or _PPID unless getpid() ==
 *                   gettid() == N and getppid() == P; else sleep until
 *                   SIGUSR1, then exit C
 *
 * Started with an empty argv, it exits CHILD_EMPTY_ARGV if the kernel
 * gave it argv[0] = "" (and envp after it). Any other use exits
 * CHILD_USAGE. */
#define T_PROG "t_exec_child"
#include "t.h"
#include "t_exec.h"
#include "elf.h"
#include "signal.h"
#include "unistd.h"
#include "sys/auxv.h"
#include "stddef.h"

/* ---- the registers the kernel started us with ----
 * This _start replaces crt0's (which is weak), records every register,
 * then continues into crt0 with the stack untouched. */
struct start_regs {
	uint32_t eax, ebx, ecx, edx, esi, edi, ebp, esp, eflags;
	uint32_t cs, ds, es, fs, gs, ss;
};
struct start_regs start_regs __attribute__((used));

_Static_assert(offsetof(struct start_regs, esp) == 28, "_start stores esp at +28");
_Static_assert(offsetof(struct start_regs, eflags) == 32, "_start stores eflags at +32");
_Static_assert(offsetof(struct start_regs, cs) == 36, "_start stores cs at +36");
_Static_assert(offsetof(struct start_regs, ss) == 56, "_start stores ss at +56");

void _start(void);
__asm__(
	"	.text\n"
	"	.globl _start\n"
	"	.type _start, @function\n"
	"_start:\n"
	"	movl %eax, start_regs+0\n"
	"	movl %ebx, start_regs+4\n"
	"	movl %ecx, start_regs+8\n"
	"	movl %edx, start_regs+12\n"
	"	movl %esi, start_regs+16\n"
	"	movl %edi, start_regs+20\n"
	"	movl %ebp, start_regs+24\n"
	"	movl %esp, start_regs+28\n"
	"	pushfl\n"
	"	popl start_regs+32\n"
	"	xorl %eax, %eax\n"
	"	movw %cs, %ax\n"
	"	movl %eax, start_regs+36\n"
	"	movw %ds, %ax\n"
	"	movl %eax, start_regs+40\n"
	"	movw %es, %ax\n"
	"	movl %eax, start_regs+44\n"
	"	movw %fs, %ax\n"
	"	movl %eax, start_regs+48\n"
	"	movw %gs, %ax\n"
	"	movl %eax, start_regs+52\n"
	"	movw %ss, %ax\n"
	"	movl %eax, start_regs+56\n"
	"	jmp __crt0_start\n"
	"	.size _start, . - _start\n");

static int argc_;
static char **argv_, **envp_;
static int data_object = 1;     /* must lie in a writable PT_LOAD */

TEST(argv)
{
	EXPECT_EQ(argc_, 5);
	for (int i = 0; i < 5; i++)
		EXPECT(argv_[i] && strcmp(argv_[i], exec_args_argv[i]) == 0,
		       "argv[%d] = \"%s\", want \"%s\"", i, argv_[i] ? argv_[i] : "(null)",
		       exec_args_argv[i]);
	EXPECT(argv_[5] == NULL, "argv[argc] is not NULL");
	EXPECT_EQ(*(long *)start_regs.esp, argc_);
	EXPECT(argv_ == (char **)(start_regs.esp + 4), "argv is not at %%esp + 4");
}

TEST(envp)
{
	int n = 0;

	while (envp_[n] && n < 10)
		n++;
	EXPECT_EQ(n, 3);
	for (int i = 0; i < 3; i++)
		EXPECT(strcmp(envp_[i], exec_args_envp[i]) == 0,
		       "envp[%d] = \"%.40s\", want \"%.40s\"", i, envp_[i], exec_args_envp[i]);
	EXPECT(envp_ == argv_ + argc_ + 1, "envp does not follow argv's NULL");
	EXPECT(environ == envp_, "environ != main's envp");
}

/* Every string the kernel copied lies between %esp and the end of the
 * user stack at 0xC0000000. */
TEST(strings_on_the_stack)
{
	for (int i = 0; i < argc_; i++)
		EXPECT((uint32_t)argv_[i] > start_regs.esp &&
		       (uint32_t)argv_[i] + strlen(argv_[i]) < USER_TOP,
		       "argv[%d] at %p", i, (void *)argv_[i]);
	for (int i = 0; envp_[i]; i++)
		EXPECT((uint32_t)envp_[i] > start_regs.esp &&
		       (uint32_t)envp_[i] + strlen(envp_[i]) < USER_TOP,
		       "envp[%d] at %p", i, (void *)envp_[i]);
}

static int touch_stack_top(long unused)
{
	(void)unused;
	return *(volatile char *)(USER_TOP - 1) * 0;
}

TEST(stack_ends_at_0xc0000000)
{
	EXPECT(start_regs.esp < USER_TOP && start_regs.esp > USER_TOP - (1u << 20),
	       "%%esp = %#x", start_regs.esp);
	EXPECT_EQ(start_regs.esp & 3, 0);
	EXPECT_STATUS(child_status(touch_stack_top, 0), EXITED(0));
}

/* The auxiliary vector: right after envp's NULL, AT_NULL-terminated. */
static unsigned long aux(unsigned long type, bool *found)
{
	*found = false;
	for (unsigned long *a = __auxv; a[0] != AT_NULL; a += 2)
		if (a[0] == type) {
			*found = true;
			return a[1];
		}
	return 0;
}

#define EXPECT_AUX(type, want) do { \
	bool f_; \
	unsigned long v_ = aux(type, &f_); \
	EXPECT(f_, "no %s in the auxiliary vector", #type); \
	EXPECT(v_ == (unsigned long)(want), "%s = %#lx, want %#lx", #type, v_, \
	       (unsigned long)(want)); \
} while (0)

TEST(auxv_layout)
{
	char **p = envp_;
	int n = 0;

	while (*p)
		p++;
	EXPECT(__auxv == (unsigned long *)(p + 1), "auxv does not follow envp's NULL");
	while (n < 64 && __auxv[2 * n] != AT_NULL)
		n++;
	EXPECT(n < 64, "no AT_NULL in the first 64 entries");
}

TEST(auxv_pagesz)
{
	EXPECT_AUX(AT_PAGESZ, 4096);
}

TEST(auxv_entry)
{
	EXPECT_AUX(AT_ENTRY, (unsigned long)_start);
	EXPECT_EQ(__ehdr_start.e_entry, (unsigned long)_start);
}

TEST(auxv_program_headers)
{
	const Elf32_Ehdr *eh = &__ehdr_start;

	EXPECT_AUX(AT_PHDR, (unsigned long)eh + eh->e_phoff);
	EXPECT_AUX(AT_PHENT, sizeof(Elf32_Phdr));
	EXPECT_AUX(AT_PHNUM, eh->e_phnum);

	/* The table AT_PHDR names describes this very program. */
	const Elf32_Phdr *ph = (const Elf32_Phdr *)getauxval(AT_PHDR);
	bool code = false, data = false;
	for (unsigned i = 0; i < getauxval(AT_PHNUM); i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		uint32_t lo = ph[i].p_vaddr, hi = lo + ph[i].p_memsz;
		code |= (uint32_t)_start >= lo && (uint32_t)_start < hi;
		data |= (uint32_t)&data_object >= lo && (uint32_t)&data_object < hi;
	}
	EXPECT(code && data, "the PT_LOAD entries at AT_PHDR do not cover _start and .data");
}

TEST(auxv_random)
{
	bool found;
	const unsigned char *r = (const unsigned char *)aux(AT_RANDOM, &found);
	unsigned any = 0;

	EXPECT(found, "no AT_RANDOM");
	EXPECT((uint32_t)r > start_regs.esp && (uint32_t)r + 16 <= USER_TOP,
	       "AT_RANDOM = %p is not in the initial stack", (void *)r);
	for (int i = 0; i < 16; i++)
		any |= r[i];
	EXPECT(any, "the 16 AT_RANDOM bytes are all zero");
}

TEST(general_registers_zero)
{
	const struct start_regs *s = &start_regs;

	EXPECT(!s->eax && !s->ebx && !s->ecx && !s->edx && !s->esi && !s->edi && !s->ebp,
	       "eax %#x ebx %#x ecx %#x edx %#x esi %#x edi %#x ebp %#x",
	       s->eax, s->ebx, s->ecx, s->edx, s->esi, s->edi, s->ebp);
}

TEST(segment_registers)
{
	const struct start_regs *s = &start_regs;

	EXPECT(s->cs == 0x23 && s->ds == 0x2b && s->es == 0x2b && s->ss == 0x2b &&
	       s->fs == 0 && s->gs == 0,
	       "cs %#x ds %#x es %#x ss %#x fs %#x gs %#x, want 0x23 0x2b 0x2b 0x2b 0 0",
	       s->cs, s->ds, s->es, s->ss, s->fs, s->gs);
}

/* The system bits of EFLAGS: IF on; TF, DF, IOPL, NT, VM, AC off. */
TEST(eflags)
{
	uint32_t sys = start_regs.eflags & 0x00047700;

	EXPECT(sys == 0x200, "eflags = %#x: IF must be the only system flag set",
	       start_regs.eflags);
}

static int run_args(void)
{
	RUN(argv);
	RUN(envp);
	RUN(strings_on_the_stack);
	RUN(stack_ends_at_0xc0000000);
	RUN(auxv_layout);
	RUN(auxv_pagesz);
	RUN(auxv_entry);
	RUN(auxv_program_headers);
	RUN(auxv_random);
	RUN(general_registers_zero);
	RUN(segment_registers);
	RUN(eflags);
	return t_exit_code();
}

/* ---- the silent modes ---- */
static long number(const char *s)
{
	long v = 0;
	int base = 10;

	if (s[0] == '0' && s[1] == 'x') {
		base = 16;
		s += 2;
	}
	for (; *s; s++) {
		int d = *s >= 'a' ? *s - 'a' + 10 : *s - '0';
		v = v * base + d;
	}
	return v;
}

static int check_sigdfl(void)
{
	struct k_sigaction old;

	if (raw_rt_sigaction(SIGUSR1, NULL, &old, SIGSET_SIZE) < 0)
		return 3;
	if (old.handler != SIG_DFL)
		return 1;
	if (raw_rt_sigaction(SIGUSR2, NULL, &old, SIGSET_SIZE) < 0)
		return 3;
	return old.handler == SIG_IGN ? 0 : 2;
}

static int check_mask(void)
{
	unsigned long long mask = 0;

	if (raw_rt_sigprocmask(SIG_BLOCK, NULL, &mask, SIGSET_SIZE) < 0)
		return 3;
	return mask & SIGBIT(SIGUSR1) ? 0 : 1;
}

static int check_tls(void)
{
	if (start_regs.fs || start_regs.gs)
		return 1;
	for (unsigned e = 6; e <= 8; e++) {
		struct user_desc d = { .entry_number = e };
		if (raw_get_thread_area(&d) < 0)
			return 3;
		if (d.base_addr || d.limit || !d.read_exec_only || !d.seg_not_present ||
		    d.seg_32bit || d.contents || d.limit_in_pages || d.useable)
			return 2;
	}
	return 0;
}

static int touch(long addr)
{
	return *(volatile int *)addr * 0 + 1;   /* 1: it did not fault */
}

static int check_many(int n)
{
	if (argc_ != n + 3)
		return 1;
	for (int i = 0; i < n; i++) {
		const char *a = argv_[3 + i];
		if (strlen(a) != MANY_ARG_LEN)
			return 2;
		for (int j = 0; j < MANY_ARG_LEN; j++)
			if (a[j] != 'a' + (i + j) % 26)
				return 2;
	}
	return 0;
}

static int leader_code;

static void leader_exit(int sig)
{
	(void)sig;
	raw_exit_group(leader_code);
}

/* The thread that ran execve is now the process: pid N, and so tid N. */
static int check_leader(long pid, long ppid, int code)
{
	struct k_sigaction ka = { .handler = (void *)leader_exit,
				  .flags = SA_RESTORER, .restorer = (void *)__restore_rt };
	struct timespec ts = { 1, 0 };

	if (raw_getpid() != pid)
		return LEADER_BAD_PID;
	if (raw_gettid() != pid)
		return LEADER_BAD_TID;
	if (raw_getppid() != ppid)
		return LEADER_BAD_PPID;
	leader_code = code;
	if (raw_rt_sigaction(SIGUSR1, &ka, NULL, SIGSET_SIZE) < 0)
		return LEADER_NO_USR1;
	for (;;)
		raw_nanosleep(&ts, NULL);
}

int main(int argc, char **argv, char **envp)
{
	argc_ = argc;
	argv_ = argv;
	envp_ = envp;
	const char *mode = argc > 1 ? argv[1] : "";

	if (argc == 1 && argv[0] && !argv[0][0] && envp == argv + 2)
		return CHILD_EMPTY_ARGV;
	if (!strcmp(mode, "args"))
		return run_args();
	if (!strcmp(mode, "exit") && argc == 3)
		return (int)number(argv[2]);
	if (!strcmp(mode, "pid") && argc == 4)
		return raw_getpid() == number(argv[2]) && raw_getppid() == number(argv[3]) ? 0 : 1;
	if (!strcmp(mode, "sigdfl"))
		return check_sigdfl();
	if (!strcmp(mode, "mask"))
		return check_mask();
	if (!strcmp(mode, "tls"))
		return check_tls();
	if (!strcmp(mode, "unmapped") && argc == 3)
		return child_status(touch, number(argv[2])) == KILLED(SIGSEGV) ? 0 : 1;
	if (!strcmp(mode, "many") && argc >= 3)
		return check_many((int)number(argv[2]));
	if (!strcmp(mode, "leader") && argc == 5)
		return check_leader(number(argv[2]), number(argv[3]), (int)number(argv[4]));
	return CHILD_USAGE;
}
