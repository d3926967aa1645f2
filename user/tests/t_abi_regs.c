/* user/tests/t_abi_regs.c - the registers abi.md promises beyond the
 * general ones (t_efault.registers_preserved and t_clone check those):
 *
 *   section 3: "result in %eax ... every other register is preserved":
 *   read here to include EFLAGS (CF PF AF ZF SF DF OF) and the segment
 *   registers %ds %es %fs %gs, on the success, -ENOSYS and -EFAULT paths
 *   and across calls that sleep (another task runs meanwhile), as Linux's
 *   int $0x80 path (RESTORE_REGS, iret) keeps them;
 *   section 4: the clone child starts "with every other register as the
 *   parent had it": EFLAGS and segment selectors too; and, section 5,
 *   since %fs/%gs are reloaded on every return to user mode, a child made
 *   with CLONE_SETTLS whose inherited %gs names the replaced slot reads
 *   the new base at once, without loading %gs itself (what NPTL's clone
 *   relies on). t_seed's and t_clone's children always reload %gs.
 *
 * The segment registers hold other selectors than the start values:
 * flat 32-bit data descriptors (base 0) in TLS slots 7 and 8 for %ds and
 * %es, an LDT entry for %fs, TLS slot 6 (base: a marker word) for %gs.
 * Booted as init. */
#define T_PROG "t_abi_regs"
#include "t.h"
#include "thr.h"

#define FLAT(e) ((struct user_desc){ (e), 0, 0xfffff, 1, 0, 0, 1, 0, 0 })
#define SEL_DS 0x3b             /* GDT 7, RPL 3: flat */
#define SEL_ES 0x43             /* GDT 8, RPL 3: flat */
#define SEL_FS 0x0f             /* LDT 1 (TI), RPL 3: flat */
#define SEL_GS 0x33             /* GDT 6, RPL 3: base = &gs_a */
/* CF PF AF ZF SF DF OF: what user code can set with popfl */
#define ARITH_DF 0x0cd5u

static volatile int gs_a[2] = { 0x0aaa0006, 0 }, gs_b[2] = { 0x0bbb0006, 0 };

static long setup_segments(void)
{
	struct user_desc d7 = FLAT(7), d8 = FLAT(8), l1 = FLAT(1);
	struct user_desc d6 = { 6, (unsigned)gs_a, 0xfffff, 1, 0, 0, 1, 0, 0 };
	long r;

	if ((r = raw_set_thread_area(&d6)) || (r = raw_set_thread_area(&d7)) ||
	    (r = raw_set_thread_area(&d8)))
		return r;
	return raw_modify_ldt(0x11, &l1, sizeof(l1));
}

/* ---- int $0x80 with chosen EFLAGS and segment registers ----
 * sr_in: nr, ebx, ecx, edx, esi, edi, ebp, eflags, ds, es, fs, gs.
 * sr_out: eax, eflags, ds, es, fs, gs, and %gs:0 read right after. */
unsigned long sr_in[12], sr_out[7];
void segregs_syscall(void);
__asm__(
	"	.text\n"
	"	.type segregs_syscall, @function\n"
	"segregs_syscall:\n"
	"	pushl %ebp\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	pushl %ds\n"
	"	pushl %es\n"
	"	pushl %fs\n"
	"	pushl %gs\n"
	"	movl sr_in+44, %eax\n"
	"	movw %ax, %gs\n"
	"	movl sr_in+40, %eax\n"
	"	movw %ax, %fs\n"
	"	movl sr_in+36, %eax\n"
	"	movw %ax, %es\n"
	"	movl sr_in+32, %eax\n"
	"	movw %ax, %ds\n"                 /* flat: sr_in still reads */
	"	movl sr_in+4, %ebx\n"
	"	movl sr_in+8, %ecx\n"
	"	movl sr_in+12, %edx\n"
	"	movl sr_in+16, %esi\n"
	"	movl sr_in+20, %edi\n"
	"	movl sr_in+24, %ebp\n"
	"	pushl sr_in+28\n"
	"	movl sr_in+0, %eax\n"
	"	popfl\n"                         /* nothing may touch flags now */
	"	int $0x80\n"
	"	pushfl\n"
	"	popl sr_out+4\n"
	"	cld\n"
	"	movl %eax, sr_out+0\n"
	"	xorl %eax, %eax\n"
	"	movw %ds, %ax\n"
	"	movl %eax, sr_out+8\n"
	"	movw %es, %ax\n"
	"	movl %eax, sr_out+12\n"
	"	movw %fs, %ax\n"
	"	movl %eax, sr_out+16\n"
	"	movw %gs, %ax\n"
	"	movl %eax, sr_out+20\n"
	"	movl %gs:0, %eax\n"
	"	movl %eax, sr_out+24\n"
	"	popl %gs\n"
	"	popl %fs\n"
	"	popl %es\n"
	"	popl %ds\n"
	"	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n"
	"	.size segregs_syscall, . - segregs_syscall\n");

static const char *const seg_name[] = { "ds", "es", "fs", "gs" };

TEST(eflags_and_segment_registers_survive_system_calls)
{
	static struct timespec ms = { 0, 1000000 };
	static int fword;
	const long calls[][7] = {
		{ 20 },                                         /* getpid */
		{ 158 },                                        /* sched_yield */
		{ 1000, 1, 2, 3, 4, 5, 6 },                     /* -ENOSYS */
		{ 4, 1, 0xC0100000, 16 },                       /* write: -EFAULT */
		{ 162, (long)&ms, 0 },                          /* nanosleep: sleeps */
		{ 240, (long)&fword, 0, 0, (long)&ms },         /* FUTEX_WAIT: -ETIMEDOUT */
	};
	const unsigned long flag_sets[] = { 0x202 | ARITH_DF, 0x202 };

	EXPECT_EQ(setup_segments(), 0);
	for (unsigned c = 0; c < sizeof(calls) / sizeof(calls[0]); c++)
		for (unsigned f = 0; f < 2; f++) {
			memset(sr_in, 0, sizeof(sr_in));
			memcpy(sr_in, calls[c], sizeof(calls[c]));
			sr_in[7] = flag_sets[f];
			sr_in[8] = SEL_DS;
			sr_in[9] = SEL_ES;
			sr_in[10] = SEL_FS;
			sr_in[11] = SEL_GS;
			memset(sr_out, 0xee, sizeof(sr_out));
			segregs_syscall();
			EXPECT((sr_out[1] & ARITH_DF) == (flag_sets[f] & ARITH_DF),
			       "system call %ld (returned %s): eflags %#lx before, %#lx after",
			       sr_in[0], t_val(sr_out[0], t_b1_), flag_sets[f], sr_out[1]);
			for (int s = 0; s < 4; s++)
				EXPECT(sr_out[2 + s] == sr_in[8 + s],
				       "system call %ld (returned %s) changed %%%s from %#lx to %#lx",
				       sr_in[0], t_val(sr_out[0], t_b1_), seg_name[s], sr_in[8 + s],
				       sr_out[2 + s]);
			EXPECT(sr_out[6] == 0x0aaa0006, "%%gs:0 after system call %ld: %#lx",
			       sr_in[0], sr_out[6]);
		}
}

/* ---- clone: the child's EFLAGS and segment registers ----
 * cl_in: flags, newsp, eflags, ds, es, fs, gs, tls.
 * cl_child: eflags, ds, es, fs, gs, %gs:0, done (written by the child,
 * which then exits: SYS_exit 1, status 0). cl_parent: eflags, eax. */
unsigned long cl_in[8];
volatile unsigned long cl_child[7], cl_parent[2];
void segregs_clone(void);
__asm__(
	"	.text\n"
	"	.type segregs_clone, @function\n"
	"segregs_clone:\n"
	"	pushl %ebp\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	pushl %ds\n"
	"	pushl %es\n"
	"	pushl %fs\n"
	"	pushl %gs\n"
	"	movl cl_in+24, %eax\n"
	"	movw %ax, %gs\n"
	"	movl cl_in+20, %eax\n"
	"	movw %ax, %fs\n"
	"	movl cl_in+16, %eax\n"
	"	movw %ax, %es\n"
	"	movl cl_in+12, %eax\n"
	"	movw %ax, %ds\n"
	"	movl cl_in+0, %ebx\n"
	"	movl cl_in+4, %ecx\n"
	"	xorl %edx, %edx\n"
	"	movl cl_in+28, %esi\n"
	"	xorl %edi, %edi\n"
	"	pushl cl_in+8\n"
	"	movl $120, %eax\n"
	"	popfl\n"
	"	int $0x80\n"
	"	pushfl\n"                        /* parent and child alike */
	"	testl %eax, %eax\n"
	"	jz 1f\n"
	"	popl cl_parent+0\n"
	"	cld\n"
	"	movl %eax, cl_parent+4\n"
	"	popl %gs\n"
	"	popl %fs\n"
	"	popl %es\n"
	"	popl %ds\n"
	"	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n"
	"1:	popl cl_child+0\n"               /* the child, on newsp */
	"	cld\n"
	"	xorl %eax, %eax\n"
	"	movw %ds, %ax\n"
	"	movl %eax, cl_child+4\n"
	"	movw %es, %ax\n"
	"	movl %eax, cl_child+8\n"
	"	movw %fs, %ax\n"
	"	movl %eax, cl_child+12\n"
	"	movw %gs, %ax\n"
	"	movl %eax, cl_child+16\n"
	"	movl %gs:0, %eax\n"              /* %gs not reloaded by us */
	"	movl %eax, cl_child+20\n"
	"	movl $1, cl_child+24\n"
	"	xorl %ebx, %ebx\n"
	"	movl $1, %eax\n"
	"	int $0x80\n"
	"	ud2\n"
	"	.size segregs_clone, . - segregs_clone\n");

#define STACK 16384
static char stk[STACK] __attribute__((aligned(16)));

/* One clone with the given EFLAGS; settls: replace slot 6 with gs_b. */
static long clone_with(unsigned long eflags, struct user_desc *settls)
{
	int st = -1;

	memset((void *)cl_child, 0, sizeof(cl_child));
	cl_in[0] = 0x100 | 17 | (settls ? 0x80000 : 0);    /* CLONE_VM | SIGCHLD */
	cl_in[1] = (unsigned long)(stk + STACK);
	cl_in[2] = eflags;
	cl_in[3] = SEL_DS;
	cl_in[4] = SEL_ES;
	cl_in[5] = SEL_FS;
	cl_in[6] = SEL_GS;
	cl_in[7] = (unsigned long)settls;
	segregs_clone();
	long tid = (long)cl_parent[1];
	if (tid <= 0)
		return tid;
	if (raw_wait4(tid, &st, 0, NULL) != tid)
		return -1000;
	return st;
}

TEST(clone_child_starts_with_the_parents_eflags_and_selectors)
{
	const unsigned long flag_sets[] = { 0x202 | ARITH_DF, 0x202 };

	EXPECT_EQ(setup_segments(), 0);
	for (unsigned f = 0; f < 2; f++) {
		long st = clone_with(flag_sets[f], NULL);
		EXPECT(st == 0 && cl_child[6] == 1, "clone: status %ld, child ran %lu", st,
		       cl_child[6]);
		EXPECT((cl_child[0] & ARITH_DF) == (flag_sets[f] & ARITH_DF),
		       "child eflags %#lx, the parent's were %#lx", cl_child[0], flag_sets[f]);
		EXPECT((cl_parent[0] & ARITH_DF) == (flag_sets[f] & ARITH_DF),
		       "parent eflags after clone %#lx, before %#lx", cl_parent[0], flag_sets[f]);
		for (int s = 0; s < 4; s++)
			EXPECT(cl_child[1 + s] == cl_in[3 + s], "the child's %%%s is %#lx, want %#lx",
			       seg_name[s], cl_child[1 + s], cl_in[3 + s]);
		EXPECT(cl_child[5] == 0x0aaa0006, "the child's %%gs:0 = %#lx (the inherited slot 6)",
		       cl_child[5]);
	}
}

TEST(settls_child_sees_its_base_through_the_inherited_gs)
{
	struct user_desc b = { 6, (unsigned)gs_b, 0xfffff, 1, 0, 0, 1, 0, 0 };

	EXPECT_EQ(setup_segments(), 0);
	long st = clone_with(0x202, &b);
	EXPECT(st == 0 && cl_child[6] == 1, "clone: status %ld, child ran %lu", st, cl_child[6]);
	EXPECT_EQ(cl_child[4], SEL_GS);
	EXPECT(cl_child[5] == 0x0bbb0006,
	       "the child's %%gs (0x33, not reloaded) reads %#lx, want its own slot's 0x0bbb0006",
	       cl_child[5]);
}

static void clear_segments(void)
{
	for (unsigned e = 6; e <= 8; e++) {
		struct user_desc d = { e, 0, 0, 0, 0, 1, 0, 1, 0 };
		raw_set_thread_area(&d);
	}
	struct user_desc z = { 1, 0, 0, 0, 0, 0, 0, 0, 0 };
	raw_modify_ldt(0x11, &z, sizeof(z));
}

int main(void)
{
	RUN(eflags_and_segment_registers_survive_system_calls);
	RUN(clone_child_starts_with_the_parents_eflags_and_selectors);
	RUN(settls_child_sees_its_base_through_the_inherited_gs);
	clear_segments();
	return t_exit_code();
}
