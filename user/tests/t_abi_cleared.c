/* user/tests/t_abi_cleared.c - abi.md section 5: "a segment register that
 * names a slot that was cleared must not crash the return to user mode:
 * it reads back as 0", for the segment registers t_tls and t_ldt do not
 * try (they use %fs and %gs):
 *   - %ds and %es naming a TLS slot (GDT) or an LDT entry that the system
 *     call itself clears read back as 0 right after it;
 *   - %ss naming one: it cannot read back as 0 (the CPU refuses a null
 *     %ss in ring 3, so iret faults), and the kernel must not crash:
 *     read (as Linux does: "iret exception", SIGSEGV) as the process
 *     dying of SIGSEGV, or going on with a usable %ss. Section 3 says the
 *     same: "No argument value ... may crash, hang or corrupt the kernel".
 * The %ss cases run last and in forked children: a kernel that panics
 * there fails this program without hiding the other cases. Booted as init. */
#define T_PROG "t_abi_cleared"
#include "t.h"
#include "thr.h"

#define FLAT(e) ((struct user_desc){ (e), 0, 0xfffff, 1, 0, 0, 1, 0, 0 })
#define EMPTY(e) ((struct user_desc){ (e), 0, 0, 0, 0, 1, 0, 1, 0 })
#define ZERO(e) ((struct user_desc){ (e), 0, 0, 0, 0, 0, 0, 0, 0 })
#define SLOT7 0x3b              /* GDT 7, RPL 3 */
#define LDT1 0x0f               /* LDT 1 (TI), RPL 3 */

/* int $0x80 (cs_nr; cs_b, cs_c, cs_d in %ebx %ecx %edx) with %ds and %es
 * = cs_sel; cs_ret, and %ds and %es as they came back, read before any
 * memory access (a null %ds would fault it). */
unsigned long cs_nr, cs_b, cs_c, cs_d, cs_sel, cs_ret, cs_ds, cs_es;
void cleared_ds_es_call(void);
__asm__(
	"	.text\n"
	"	.type cleared_ds_es_call, @function\n"
	"cleared_ds_es_call:\n"
	"	pushl %ebx\n"
	"	pushl %ds\n"
	"	pushl %es\n"
	"	movl cs_b, %ebx\n"
	"	movl cs_c, %ecx\n"
	"	movl cs_d, %edx\n"
	"	movl cs_sel, %eax\n"
	"	movw %ax, %es\n"
	"	movw %ax, %ds\n"                 /* flat: memory still works */
	"	movl cs_nr, %eax\n"
	"	int $0x80\n"
	"	movl %eax, %ebx\n"
	"	xorl %ecx, %ecx\n"
	"	movw %ds, %cx\n"
	"	xorl %edx, %edx\n"
	"	movw %es, %dx\n"
	"	movl $0x2b, %eax\n"
	"	movw %ax, %ds\n"
	"	movw %ax, %es\n"
	"	movl %ebx, cs_ret\n"
	"	movl %ecx, cs_ds\n"
	"	movl %edx, cs_es\n"
	"	popl %es\n"
	"	popl %ds\n"
	"	popl %ebx\n"
	"	ret\n"
	"	.size cleared_ds_es_call, . - cleared_ds_es_call\n");

TEST(ds_and_es_naming_a_cleared_tls_slot_read_back_0)
{
	static struct user_desc flat = FLAT(7), clears[2] = { EMPTY(7), ZERO(7) };

	for (int i = 0; i < 2; i++) {
		EXPECT_EQ(raw_set_thread_area(&flat), 0);
		cs_nr = 243;                    /* set_thread_area(clears[i]) */
		cs_b = (unsigned long)&clears[i];
		cs_c = cs_d = 0;
		cs_sel = SLOT7;
		cs_ds = cs_es = 0x5a5a;
		cleared_ds_es_call();
		EXPECT_EQ(cs_ret, 0);
		EXPECT(cs_ds == 0 && cs_es == 0, "%%ds %#lx %%es %#lx after slot 7 was cleared",
		       cs_ds, cs_es);
	}
}

TEST(ds_and_es_naming_a_cleared_ldt_entry_read_back_0)
{
	/* The two ways to clear an LDT entry (Linux): LDT_empty in func
	 * 0x11, base and limit 0 in old mode (func 1). */
	static struct user_desc flat = FLAT(1), clears[2] = { EMPTY(1), ZERO(1) };
	static const unsigned long funcs[2] = { 0x11, 1 };

	for (int i = 0; i < 2; i++) {
		EXPECT_EQ(raw_modify_ldt(0x11, &flat, sizeof(flat)), 0);
		cs_nr = 123;                    /* modify_ldt(funcs[i], clears[i], 16) */
		cs_b = funcs[i];
		cs_c = (unsigned long)&clears[i];
		cs_d = sizeof(struct user_desc);
		cs_sel = LDT1;
		cs_ds = cs_es = 0x5a5a;
		cleared_ds_es_call();
		EXPECT_EQ(cs_ret, 0);
		EXPECT(cs_ds == 0 && cs_es == 0, "%%ds %#lx %%es %#lx after LDT entry 1 was cleared",
		       cs_ds, cs_es);
	}
}

/* ---- %ss ---- */

/* The same with %ss = ss_sel; ss_back = 1 if the call came back, and
 * ss_seen the %ss it came back with. */
unsigned long ss_nr, ss_b, ss_c, ss_d, ss_sel, ss_ret, ss_seen;
volatile unsigned long ss_back;
void cleared_ss_call(void);
__asm__(
	"	.text\n"
	"	.type cleared_ss_call, @function\n"
	"cleared_ss_call:\n"
	"	pushl %ebx\n"
	"	movl ss_b, %ebx\n"
	"	movl ss_c, %ecx\n"
	"	movl ss_d, %edx\n"
	"	movl ss_sel, %eax\n"
	"	movw %ax, %ss\n"
	"	movl ss_nr, %eax\n"
	"	int $0x80\n"
	"	movl %eax, %ebx\n"
	"	xorl %ecx, %ecx\n"
	"	movw %ss, %cx\n"
	"	movl $0x2b, %eax\n"
	"	movw %ax, %ss\n"
	"	movl %ebx, ss_ret\n"
	"	movl %ecx, ss_seen\n"
	"	movl $1, ss_back\n"
	"	popl %ebx\n"
	"	ret\n"
	"	.size cleared_ss_call, . - cleared_ss_call\n");

/* In a child: exit 0 if the call came back with a usable %ss (then it
 * must not be the cleared selector), 1 if it came back with it. */
static int ss_on_cleared(long ldt)
{
	static struct user_desc flat7 = FLAT(7), flat1 = FLAT(1), e7 = EMPTY(7), z1 = ZERO(1);

	if (ldt) {
		if (raw_modify_ldt(0x11, &flat1, sizeof(flat1)) != 0)
			return 90;
		/* old mode: base and limit 0 clear */
		ss_nr = 123, ss_b = 1, ss_c = (unsigned long)&z1, ss_d = sizeof(z1);
		ss_sel = LDT1;
	} else {
		if (raw_set_thread_area(&flat7) != 0)
			return 90;
		ss_nr = 243, ss_b = (unsigned long)&e7, ss_c = ss_d = 0;
		ss_sel = SLOT7;
	}
	cleared_ss_call();
	if (ss_ret != 0)
		return 91;
	return ss_seen == ss_sel ? 1 : 0;
}

/* Spindle's answer, as Linux's "iret exception": the iret's fault becomes
 * the task's own SIGSEGV (arch/i386/vectors.S trap_ret). */
static void ss_case(long ldt)
{
	long st = child_status(ss_on_cleared, ldt);

	EXPECT(st == KILLED(SIGSEGV),
	       "%%ss naming the %s entry the call cleared: child %s, want SIGSEGV",
	       ldt ? "LDT" : "TLS", t_status_str(st, t_b1_));
}

/* With a handler: delivering the SIGSEGV gives the handler a usable %ss
 * (__USER_DS, 0x2b) on the same stack, so it runs; it ends the child
 * with 42 and the %ss it saw (0x2b: 42, else 43). */
static void on_segv_exit(int sig)
{
	unsigned ss;

	(void)sig;
	__asm__ volatile("movl %%ss, %0" : "=r"(ss));
	raw_exit_group((ss & 0xffff) == 0x2b ? 42 : 43);
}

static int ss_on_cleared_with_handler(long ldt)
{
	if (thr_signal(SIGSEGV, on_segv_exit) != 0)
		return 92;
	return ss_on_cleared(ldt);
}

TEST(ss_naming_a_cleared_slot_sigsegv_handler_runs_with_user_ds)
{
	for (long ldt = 0; ldt < 2; ldt++) {
		long st = child_status(ss_on_cleared_with_handler, ldt);
		EXPECT(st == EXITED(42), "%s entry: child %s, want exit 42 from its SIGSEGV "
		       "handler (43: the handler's %%ss was not 0x2b)", ldt ? "LDT" : "TLS",
		       t_status_str(st, t_b1_));
	}
}

TEST(ss_naming_a_cleared_tls_slot_is_no_kernel_crash)
{
	ss_case(0);
}

TEST(ss_naming_a_cleared_ldt_entry_is_no_kernel_crash)
{
	ss_case(1);
}

int main(void)
{
	RUN(ds_and_es_naming_a_cleared_tls_slot_read_back_0);
	RUN(ds_and_es_naming_a_cleared_ldt_entry_read_back_0);
	RUN(ss_naming_a_cleared_tls_slot_is_no_kernel_crash);
	RUN(ss_naming_a_cleared_ldt_entry_is_no_kernel_crash);
	RUN(ss_naming_a_cleared_slot_sigsegv_handler_runs_with_user_ds);
	return t_exit_code();
}
