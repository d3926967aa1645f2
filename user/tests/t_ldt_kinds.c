/* user/tests/t_ldt_kinds.c - the LDT entries Linux accepts that the TLS
 * slots do not (abi.md section 5, amended 2026-12-03): code segments
 * (readable, execute-only, conforming when not present), not-present
 * segments, expand-down and read-only data - always DPL 3, never 16-bit
 * (t_ldt has the refusals). Each is written with modify_ldt 0x11, read
 * back raw (func 0) and with LAR, and used the way the CPU allows:
 *   - a readable code segment can be read through %fs;
 *   - a far call through a 32-bit LDT code segment runs and returns;
 *   - loading an execute-only code segment into %fs is #GP (SIGSEGV);
 *   - loading a not-present segment is #NP: SIGBUS, as on Linux;
 * and the kernel, which never trusts these entries, goes on. */
#define T_PROG "t_ldt_kinds"
#include "t.h"
#include "thr.h"
#include "udesc.h"
#include "segs.h"

static volatile int word = 0x6c647431;

static long ldt_write(struct user_desc d)
{
	return raw_modify_ldt(0x11, &d, sizeof(d));
}

/* The access-rights bits LAR reports (high descriptor word & 0x00f0ff00),
 * less the accessed bit the CPU may set. */
static unsigned expected_ar(const struct user_desc *d)
{
	return (!d->read_exec_only << 9 | d->contents << 10 | 0x7000 |
		!d->seg_not_present << 15 | d->useable << 20 | d->seg_32bit << 22 |
		d->limit_in_pages << 23);
}

TEST(code_not_present_and_odd_data_are_accepted)
{
	struct user_desc ok[] = {
		mk(1, 0, 0xfffff, 1, 2, 0, 1, 0, 0),    /* code, readable */
		mk(2, 0, 0xfffff, 1, 2, 1, 1, 0, 1),    /* code, execute-only, useable */
		mk(3, 0, 0xfffff, 1, 3, 1, 1, 1, 0),    /* conforming, not present */
		mk(4, (unsigned)&word, 0xfffff, 1, 0, 0, 1, 1, 0),     /* data, not present */
		mk(5, (unsigned)&word, 0x0ffff, 1, 1, 0, 0, 0, 0),     /* data, expand-down */
		mk(6, (unsigned)&word, 0xfffff, 1, 0, 1, 1, 0, 0),     /* data, read-only */
	};
	unsigned raw[2 * 8], ar;

	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		EXPECT(ldt_write(ok[i]) == 0, "entry %u refused", ok[i].entry_number);
	EXPECT_EQ(raw_modify_ldt(0, raw, sizeof(raw)), (long)sizeof(raw));
	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		unsigned e = ok[i].entry_number, hi = raw[2 * e + 1] & ~0x100u;
		/* Always S = 1 and DPL 3 (0x7000): nothing here reaches ring 0. */
		EXPECT((hi & 0x7000) == 0x7000, "entry %u: high word %#x, not S=1 DPL 3", e, hi);
		EXPECT((hi & 0x00f0ff00) == expected_ar(&ok[i]), "entry %u: high word %#x, want %#x",
		       e, hi & 0x00f0ff00, expected_ar(&ok[i]));
		EXPECT(thr_lar(LDT_SEL(e), &ar), "LAR refuses entry %u", e);
		EXPECT((ar & 0x00f0fe00) == expected_ar(&ok[i]), "entry %u: LAR %#x", e, ar);
	}
	/* Old mode takes code too, without the useable bit. */
	struct user_desc old = mk(7, 0, 0xfffff, 1, 2, 0, 1, 0, 1);
	EXPECT_EQ(raw_modify_ldt(1, &old, sizeof(old)), 0);
	EXPECT_EQ(raw_modify_ldt(0, raw, sizeof(raw)), (long)sizeof(raw));
	EXPECT_EQ(raw[15] & (1u << 20), 0);
}

TEST(a_readable_code_segment_reads_through_fs)
{
	unsigned v;

	EXPECT_EQ(ldt_write(mk(1, (unsigned)&word, 0xfffff, 1, 2, 0, 1, 0, 0)), 0);
	v = fs_word_via(LDT_SEL(1));
	EXPECT_EQ(v, (unsigned)word);
}

/* A far call through LDT entry 1 (flat 32-bit code, base 0) into
 * far_target, which returns with lret. */
unsigned far_ptr[2];
volatile unsigned far_cs_seen;
void far_target(void);
__asm__(".text\n.type far_target, @function\nfar_target:\n"
	"\tmovl %cs, %eax\n\tmovl %eax, far_cs_seen\n\tlret\n"
	".size far_target, . - far_target\n");

TEST(a_far_call_through_an_ldt_code_segment)
{
	EXPECT_EQ(ldt_write(mk(1, 0, 0xfffff, 1, 2, 1, 1, 0, 0)), 0);
	far_ptr[0] = (unsigned)far_target;
	far_ptr[1] = LDT_SEL(1);
	far_cs_seen = 0;
	__asm__ volatile("lcall *far_ptr" ::: "eax", "memory");
	EXPECT_EQ(far_cs_seen, LDT_SEL(1));
	/* A system call from that segment's code comes back too. */
}

static int load_fs(long sel)
{
	set_fs(sel);
	return 0;
}

TEST(loading_what_the_cpu_refuses_is_the_tasks_signal)
{
	EXPECT_EQ(ldt_write(mk(2, 0, 0xfffff, 1, 2, 1, 1, 0, 0)), 0);   /* execute-only */
	EXPECT_EQ(ldt_write(mk(4, (unsigned)&word, 0xfffff, 1, 0, 0, 1, 1, 0)), 0);
	EXPECT_STATUS(child_status(load_fs, LDT_SEL(2)), SIGSEGV);      /* #GP */
	EXPECT_STATUS(child_status(load_fs, LDT_SEL(4)), SIGBUS);       /* #NP */
}

/* The kernel's return path reloads %fs from the saved selector: an entry
 * made not present meanwhile must not crash it (the fixup loads 0). */
TEST(an_entry_made_not_present_under_a_loaded_fs)
{
	struct user_desc np = mk(5, (unsigned)&word, 0xfffff, 1, 0, 0, 1, 1, 0);
	unsigned fs;

	EXPECT_EQ(ldt_write(DATA32(5, &word)), 0);
	set_fs(LDT_SEL(5));
	long r = raw_modify_ldt(0x11, &np, sizeof(np));
	fs = get_fs();
	set_fs(0);
	EXPECT_EQ(r, 0);
	EXPECT(fs == 0 || fs == LDT_SEL(5), "%%fs = %#x", fs);
}

int main(void)
{
	RUN(code_not_present_and_odd_data_are_accepted);
	RUN(a_readable_code_segment_reads_through_fs);
	RUN(a_far_call_through_an_ldt_code_segment);
	RUN(loading_what_the_cpu_refuses_is_the_tasks_signal);
	RUN(an_entry_made_not_present_under_a_loaded_fs);
	return t_exit_code();
}
