/* user/tests/t_abi_start.c - abi.md section 2 ("Programs"), the start
 * state, as the kernel gives it to pid 1 itself (t_exec_child checks the
 * same for a program started by the execve system call; the kernel starts
 * init by another road, kernel/init.c). Every number below is written
 * out as abi.md gives it, not taken from lib/abi.h, so a wrong constant
 * shared by the kernel and the tests cannot hide behind itself:
 *
 *   %esp -> argc, argv[], NULL, envp[], NULL, auxv pairs, AT_NULL (0);
 *   AT_PHDR 3, AT_PHENT 4, AT_PHNUM 5, AT_PAGESZ 6, AT_ENTRY 9,
 *   AT_RANDOM 25 -> 16 bytes;
 *   general registers 0; %cs 0x23, %ds %es %ss 0x2b, %fs %gs 0;
 *   the user stack ends at 0xC0000000; rdtsc allowed in ring 3;
 *   PT_TLS is left to user space (this program has one: %gs is still 0);
 *   section 1: words after a lone "--" are init's argv[1..], and the
 *   harness gives none, so argc is 1.
 *
 * "As on Linux" is read to include what Linux's create_elf_tables and
 * start_thread do that abi.md does not list: %esp 16-byte aligned,
 * EFLAGS = IF only among the system flags, an empty signal mask and
 * default actions for pid 1. Booted as init. */
#define T_PROG "t_abi_start"
#include "t.h"
#include "elf.h"
#include "signal.h"
#include "sys/auxv.h"

#define TOP 0xC0000000u         /* abi.md: the user stack ends here */
#define PT_TLS_TYPE 7           /* ELF: PT_TLS */

/* ---- the registers the kernel started us with ----
 * This _start replaces crt0's (which is weak), records every register,
 * then goes on into crt0 with the stack untouched. */
struct start_regs {
	uint32_t eax, ebx, ecx, edx, esi, edi, ebp, esp, eflags;
	uint32_t cs, ds, es, fs, gs, ss;
};
struct start_regs abi_start_regs __attribute__((used));
/* The x87 environment the kernel started us with (fnstenv: control word
 * at 0, status word at 4, tag word at 8, 28 bytes in 32-bit mode). */
uint32_t abi_start_fpenv[7] __attribute__((used));

void _start(void);
__asm__(
	"	.text\n"
	"	.globl _start\n"
	"	.type _start, @function\n"
	"_start:\n"
	"	movl %eax, abi_start_regs+0\n"
	"	movl %ebx, abi_start_regs+4\n"
	"	movl %ecx, abi_start_regs+8\n"
	"	movl %edx, abi_start_regs+12\n"
	"	movl %esi, abi_start_regs+16\n"
	"	movl %edi, abi_start_regs+20\n"
	"	movl %ebp, abi_start_regs+24\n"
	"	movl %esp, abi_start_regs+28\n"
	"	pushfl\n"
	"	popl abi_start_regs+32\n"
	"	xorl %eax, %eax\n"
	"	movw %cs, %ax\n"
	"	movl %eax, abi_start_regs+36\n"
	"	movw %ds, %ax\n"
	"	movl %eax, abi_start_regs+40\n"
	"	movw %es, %ax\n"
	"	movl %eax, abi_start_regs+44\n"
	"	movw %fs, %ax\n"
	"	movl %eax, abi_start_regs+48\n"
	"	movw %gs, %ax\n"
	"	movl %eax, abi_start_regs+52\n"
	"	movw %ss, %ax\n"
	"	movl %eax, abi_start_regs+56\n"
	"	fnstenv abi_start_fpenv\n"
	"	jmp __crt0_start\n"
	"	.size _start, . - _start\n");

/* A __thread variable, so that this program has a PT_TLS segment. */
static __thread int tls_marker = 0x7175;

static const struct start_regs *R = &abi_start_regs;

/* The initial stack as words, from the %esp the kernel gave us. */
static uint32_t *sp0(void)
{
	return (uint32_t *)R->esp;
}

/* The auxv: right after envp's NULL. NULL if the stack is malformed. */
static uint32_t *auxv(void)
{
	uint32_t *w = sp0();
	uint32_t argc = w[0], i = 1 + argc + 1;

	if (argc > 64)
		return NULL;
	for (int n = 0; w[i] != 0 && n < 256; n++)
		i++;
	return w[i] == 0 ? w + i + 1 : NULL;
}

/* The value of auxv entry type (a literal number); *n = how many. */
static uint32_t aux(uint32_t type, int *n)
{
	uint32_t *a = auxv(), v = 0;

	*n = 0;
	for (int i = 0; a && i < 64 && a[2 * i] != 0; i++)
		if (a[2 * i] == type) {
			v = a[2 * i + 1];
			(*n)++;
		}
	return v;
}

/* A string of the initial stack: between %esp and the stack's end. */
static bool on_stack(uint32_t s)
{
	return s > R->esp && s < TOP && s + strnlen((const char *)s, TOP - s) < TOP;
}

TEST(general_registers_are_0)
{
	EXPECT(!R->eax && !R->ebx && !R->ecx && !R->edx && !R->esi && !R->edi && !R->ebp,
	       "eax %#x ebx %#x ecx %#x edx %#x esi %#x edi %#x ebp %#x",
	       R->eax, R->ebx, R->ecx, R->edx, R->esi, R->edi, R->ebp);
}

TEST(segment_registers_0x23_0x2b_and_0)
{
	bool has_tls = false;
	const Elf32_Ehdr *eh = &__ehdr_start;
	const Elf32_Phdr *ph = (const Elf32_Phdr *)((const char *)eh + eh->e_phoff);

	EXPECT_EQ(R->cs, 0x23);
	EXPECT_EQ(R->ds, 0x2b);
	EXPECT_EQ(R->es, 0x2b);
	EXPECT_EQ(R->ss, 0x2b);
	/* PT_TLS is user space's: the kernel set no TLS up for it. */
	for (int i = 0; i < eh->e_phnum; i++)
		has_tls |= ph[i].p_type == PT_TLS_TYPE;
	EXPECT(has_tls, "this program has no PT_TLS segment: the check below means less");
	EXPECT_EQ(R->fs, 0);
	EXPECT_EQ(R->gs, 0);
	EXPECT_EQ(tls_marker, 0x7175);          /* user space's TLS works */
}

/* Linux's start_thread: IF set; TF, DF, IOPL, NT, AC, VM clear. */
TEST(eflags_as_linux)
{
	EXPECT((R->eflags & 0x00047700) == 0x200, "eflags = %#x", R->eflags);
}

TEST(stack_argc_argv_envp_auxv_in_order)
{
	uint32_t *w = sp0();
	uint32_t argc = w[0];
	char **argv = (char **)(w + 1);

	/* abi.md section 1: only words after "--" become argv[1..]. */
	EXPECT_EQ(argc, 1);
	EXPECT(argv[0] && on_stack((uint32_t)argv[0]) && argv[0][0],
	       "argv[0] = %p is not a string of the initial stack", (void *)argv[0]);
	EXPECT(argv[1] == NULL, "argv[argc] = %p, want NULL", (void *)argv[1]);
	char **envp = argv + 2;
	int n = 0;
	for (; envp[n] && n < 256; n++)
		EXPECT(on_stack((uint32_t)envp[n]), "envp[%d] = %p is not on the initial stack",
		       n, (void *)envp[n]);
	EXPECT(envp[n] == NULL, "no NULL after 256 environment strings");
	EXPECT(auxv() == (uint32_t *)(envp + n + 1), "auxv does not follow envp's NULL");
	uint32_t *a = auxv();
	int pairs = 0;
	while (pairs < 64 && a[2 * pairs] != 0)
		pairs++;
	EXPECT(pairs < 64, "no AT_NULL (0) in the first 64 auxv pairs");
	/* What libc found is what is there. */
	EXPECT((uint32_t *)__auxv == a, "libc's __auxv %p, the stack's %p", (void *)__auxv, (void *)a);
}

TEST(auxv_values_by_their_numbers)
{
	const Elf32_Ehdr *eh = &__ehdr_start;
	int n;
	uint32_t v;

	v = aux(3, &n);                         /* AT_PHDR */
	EXPECT(n == 1, "AT_PHDR (3) appears %d times", n);
	EXPECT_EQ(v, (uint32_t)eh + eh->e_phoff);
	v = aux(4, &n);                         /* AT_PHENT */
	EXPECT(n == 1, "AT_PHENT (4) appears %d times", n);
	EXPECT_EQ(v, 32);
	v = aux(5, &n);                         /* AT_PHNUM */
	EXPECT(n == 1, "AT_PHNUM (5) appears %d times", n);
	EXPECT_EQ(v, eh->e_phnum);
	v = aux(6, &n);                         /* AT_PAGESZ */
	EXPECT(n == 1, "AT_PAGESZ (6) appears %d times", n);
	EXPECT_EQ(v, 4096);
	v = aux(9, &n);                         /* AT_ENTRY */
	EXPECT(n == 1, "AT_ENTRY (9) appears %d times", n);
	EXPECT_EQ(v, (uint32_t)_start);
	EXPECT_EQ(eh->e_entry, (uint32_t)_start);
}

/* The entries abi.md section 2 has "as Linux": the feature bits, the
 * clock tick, the ids (one user, root), not secure, the platform name
 * and the path execve was given, both strings of the stack. */
TEST(auxv_linux_entries)
{
	static const struct { uint32_t type, want; } zero_or_fixed[] = {
		{ 11, 0 }, { 12, 0 }, { 13, 0 }, { 14, 0 },     /* AT_UID EUID GID EGID */
		{ 23, 0 },                                      /* AT_SECURE */
		{ 17, 100 },                                    /* AT_CLKTCK */
	};
	uint32_t a = 1, b, c = 0, d, v;
	int n;

	for (unsigned i = 0; i < sizeof(zero_or_fixed) / sizeof(zero_or_fixed[0]); i++) {
		v = aux(zero_or_fixed[i].type, &n);
		EXPECT(n == 1, "auxv %u appears %d times", zero_or_fixed[i].type, n);
		EXPECT(v == zero_or_fixed[i].want, "auxv %u is %u, want %u", zero_or_fixed[i].type,
		       v, zero_or_fixed[i].want);
	}
	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	v = aux(16, &n);                        /* AT_HWCAP */
	EXPECT(n == 1, "AT_HWCAP (16) appears %d times", n);
	EXPECT(v == d, "AT_HWCAP %#x, CPUID.1:EDX %#x", v, d);
	v = aux(15, &n);                        /* AT_PLATFORM */
	EXPECT(n == 1 && on_stack(v) && strcmp((const char *)v, "i686") == 0,
	       "AT_PLATFORM (15): %d times, %#x", n, v);
	v = aux(31, &n);                        /* AT_EXECFN */
	EXPECT(n == 1 && on_stack(v), "AT_EXECFN (31): %d times, %#x", n, v);
	EXPECT(strcmp((const char *)v, "/tests/t_abi_start") == 0, "AT_EXECFN says %s",
	       (const char *)v);
}

/* abi.md section 10: a new process starts from fninit, with MXCSR
 * 0x1f80 - pid 1 too, which the kernel starts its own way (init.c). */
TEST(fpu_starts_from_fninit)
{
	uint32_t a = 1, b, c = 0, d, mxcsr = 0;

	EXPECT_EQ(abi_start_fpenv[0] & 0xffff, 0x37f);  /* FCW: all masked, 64-bit */
	EXPECT_EQ(abi_start_fpenv[1] & 0xffff, 0);      /* FSW */
	EXPECT_EQ(abi_start_fpenv[2] & 0xffff, 0xffff); /* FTW: every register empty */
	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	if (d & (1u << 25)) {                           /* SSE */
		__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
		EXPECT_EQ(mxcsr, 0x1f80);
	}
}

TEST(auxv_random_16_bytes_on_the_stack)
{
	int n;
	uint32_t r = aux(25, &n);               /* AT_RANDOM */
	unsigned any = 0;

	EXPECT(n == 1, "AT_RANDOM (25) appears %d times", n);
	EXPECT(r > R->esp && r <= TOP - 16, "AT_RANDOM = %#x is not 16 bytes of the stack", r);
	/* Not inside the pointer block: above the auxv's AT_NULL pair. */
	uint32_t *a = auxv();
	int pairs = 0;
	while (a[2 * pairs] != 0)
		pairs++;
	EXPECT(r >= (uint32_t)(a + 2 * pairs + 2), "AT_RANDOM %#x overlaps the vectors", r);
	for (int i = 0; i < 16; i++)
		any |= ((const unsigned char *)r)[i];
	EXPECT(any, "the 16 AT_RANDOM bytes are all 0");
}

/* Linux's create_elf_tables rounds the final %esp down to 16 bytes. */
TEST(esp_16_byte_aligned_as_linux)
{
	EXPECT_EQ(R->esp & 15, 0);
}

static int touch_top(long unused)
{
	volatile uint32_t *last = (volatile uint32_t *)(TOP - 4);

	(void)unused;
	uint32_t v = *last;
	*last = v ^ 1;                          /* a child's copy: harmless */
	return *last == (v ^ 1) ? 0 : 1;
}

static int touch_kernel(long unused)
{
	(void)unused;
	return *(volatile char *)opaque(TOP) * 0 + 2;
}

TEST(stack_ends_at_0xc0000000)
{
	EXPECT(R->esp < TOP && R->esp >= TOP - 0x10000,
	       "%%esp = %#x is not just below 0xC0000000", R->esp);
	/* Every string lies below 0xC0000000, the last word below it is the
	 * stack's (readable, writable), 0xC0000000 itself is not ours. */
	EXPECT_STATUS(child_status(touch_top, 0), EXITED(0));
	EXPECT_STATUS(child_status(touch_kernel, 0), KILLED(11));
}

static inline uint64_t rdtsc64(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static int rdtsc_twice(long unused)
{
	(void)unused;
	uint64_t a = rdtsc64();
	for (int i = 0; i < 1000; i++)
		__asm__ volatile("" ::: "memory");
	uint64_t b = rdtsc64();
	return a && b > a ? 0 : 1;
}

/* CR4.TSD clear: rdtsc is not a #GP (which would be SIGSEGV, 11). */
TEST(rdtsc_allowed_in_ring_3)
{
	EXPECT_STATUS(child_status(rdtsc_twice, 0), EXITED(0));
	EXPECT_EQ(rdtsc_twice(0), 0);
}

/* As Linux starts init: nothing blocked, every action the default. */
TEST(pid1_signal_state_as_linux)
{
	uint32_t mask[2] = { 0xdead, 0xbeef };
	struct k_sigaction old;

	EXPECT_EQ(raw_syscall4(175, 0, 0, (long)mask, 8), 0);   /* rt_sigprocmask */
	EXPECT(mask[0] == 0 && mask[1] == 0, "pid 1 starts with mask %#x %#x", mask[0], mask[1]);
	for (int sig = 1; sig <= 64; sig++) {
		memset(&old, 0x5a, sizeof(old));
		EXPECT_EQ(raw_syscall4(174, sig, 0, (long)&old, 8), 0);  /* rt_sigaction */
		EXPECT(old.handler == SIG_DFL, "signal %d starts with handler %p", sig, old.handler);
	}
}

int main(void)
{
	RUN(general_registers_are_0);
	RUN(segment_registers_0x23_0x2b_and_0);
	RUN(eflags_as_linux);
	RUN(stack_argc_argv_envp_auxv_in_order);
	RUN(auxv_values_by_their_numbers);
	RUN(auxv_linux_entries);
	RUN(fpu_starts_from_fninit);
	RUN(auxv_random_16_bytes_on_the_stack);
	RUN(esp_16_byte_aligned_as_linux);
	RUN(stack_ends_at_0xc0000000);
	RUN(rdtsc_allowed_in_ring_3);
	RUN(pid1_signal_state_as_linux);
	return t_exit_code();
}
