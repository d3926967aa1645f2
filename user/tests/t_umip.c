/* user/tests/t_umip.c - sgdt, sidt, sldt, smsw and str from ring 3
 * (issue 11, item 4; arch/i386/umip.c). Where CPUID lists UMIP the
 * kernel sets CR4.UMIP and each of them is #GP: the program dies of
 * SIGSEGV. (Linux answers sgdt/sidt/smsw with dummy values instead, for
 * old Wine; Spindle has no such programs to keep working.) Where it does
 * not - QEMU's default qemu32 - they work, and sgdt and sidt reveal
 * where the kernel keeps the GDT and IDT: that is what the no_umip cases
 * check, so that the day it changes, the documentation is changed too
 * (docs/reliability.md).
 *
 * tests/run.py boots it twice: on the default CPU with argv[1] =
 * "no-umip", and under `-cpu max` with "umip"; the argument must agree
 * with CPUID, so neither boot can pass on the wrong machine. Booted as
 * init. */
#define T_PROG "t_umip"
#include "t.h"

static bool cpu_has_umip(void)
{
	unsigned a, b, c, d;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	if (a < 7)
		return false;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
	return c & (1u << 2);
}

struct __attribute__((packed)) pseudo_desc {
	unsigned short limit;
	unsigned long base;
};

/* Each runs the instruction; 0 if what it stored looks as it should on
 * a machine where it works (then the program's exit status). */
static int do_sgdt(long arg)
{
	struct pseudo_desc d = { 0, 0 };

	(void)arg;
	__asm__ volatile("sgdt %0" : "=m"(d));
	/* 24 entries, in the kernel's half: a kernel address, revealed. */
	return d.limit == 24 * 8 - 1 && d.base >= USER_TOP ? 0 : 1;
}

static int do_sidt(long arg)
{
	struct pseudo_desc d = { 0, 0 };

	(void)arg;
	__asm__ volatile("sidt %0" : "=m"(d));
	return d.limit >= 0xff && d.base >= USER_TOP ? 0 : 1;
}

static int do_sldt(long arg)
{
	unsigned short sel = 0xffff;

	(void)arg;
	__asm__ volatile("sldt %0" : "=m"(sel));
	/* GDT entry 15 (selector 0x78), or 0 while no LDT is loaded. */
	return sel == 0x78 || sel == 0 ? 0 : 1;
}

static int do_str(long arg)
{
	unsigned short sel = 0;

	(void)arg;
	__asm__ volatile("str %0" : "=m"(sel));
	return sel == 0x70 ? 0 : 1;         /* GDT entry 14: the TSS */
}

static int do_smsw(long arg)
{
	unsigned short msw = 0;

	(void)arg;
	__asm__ volatile("smsw %0" : "=m"(msw));
	return msw & 1 ? 0 : 1;             /* CR0.PE */
}

static bool want_umip;

static void check(int (*fn)(long))
{
	EXPECT_STATUS(child_status(fn, 0), want_umip ? KILLED(SIGSEGV) : EXITED(0));
}

static void cpuid_agrees(void)
{
	EXPECT(cpu_has_umip() == want_umip, "CPUID says %s UMIP, the harness expected %s",
	       cpu_has_umip() ? "" : "no", want_umip ? "it" : "none");
}

TEST(cpuid_lists_umip) { cpuid_agrees(); }
TEST(cpuid_lacks_umip) { cpuid_agrees(); }

/* The same checks under the two names, so each boot's lines say which
 * machine they are from (smpN/t_umip.umip_sgdt, smpN/t_umip.no_umip_sgdt). */
TEST(umip_sgdt) { check(do_sgdt); }
TEST(umip_sidt) { check(do_sidt); }
TEST(umip_sldt) { check(do_sldt); }
TEST(umip_str) { check(do_str); }
TEST(umip_smsw) { check(do_smsw); }
TEST(no_umip_sgdt) { check(do_sgdt); }
TEST(no_umip_sidt) { check(do_sidt); }
TEST(no_umip_sldt) { check(do_sldt); }
TEST(no_umip_str) { check(do_str); }
TEST(no_umip_smsw) { check(do_smsw); }

int main(int argc, char **argv)
{
	if (argc < 2 || (strcmp(argv[1], "umip") && strcmp(argv[1], "no-umip"))) {
		printf("FAIL %s.setup: argv[1] must be umip or no-umip (tests/run.py)\n", T_PROG);
		return 1;
	}
	want_umip = !strcmp(argv[1], "umip");
	if (want_umip) {
		RUN(cpuid_lists_umip);
		RUN(umip_sgdt);
		RUN(umip_sidt);
		RUN(umip_sldt);
		RUN(umip_str);
		RUN(umip_smsw);
	} else {
		RUN(cpuid_lacks_umip);
		RUN(no_umip_sgdt);
		RUN(no_umip_sidt);
		RUN(no_umip_sldt);
		RUN(no_umip_str);
		RUN(no_umip_smsw);
	}
	return t_exit_code();
}
