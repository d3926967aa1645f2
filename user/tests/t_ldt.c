/* user/tests/t_ldt.c - modify_ldt and the per-address-space LDT (abi.md
 * section 5): write (0x11 and old mode 1) and use through %fs, read
 * (func 0) of raw descriptors zero-filled to bytecount, the bytecount and
 * descriptor rules, unknown funcs, bad pointers, fork (a copy) and
 * CLONE_VM threads (shared), and an entry cleared under another thread
 * that has it loaded. Booted as init. */
#define T_PROG "t_ldt"
#include "t.h"
#include "thr.h"
#include "udesc.h"
#include "segs.h"

#define STACK 16384
static char stk[STACK] __attribute__((aligned(16)));

/* The descriptor words the seed's LDT_entry_a/b make (DPL 3, S = 1). */
static void raw_words(const struct user_desc *d, unsigned w[2])
{
	w[0] = (d->base_addr & 0xffff) << 16 | (d->limit & 0xffff);
	w[1] = (d->base_addr & 0xff000000) | (d->base_addr >> 16 & 0xff) | (d->limit & 0xf0000) |
	       !d->read_exec_only << 9 | d->contents << 10 | !d->seg_not_present << 15 |
	       d->seg_32bit << 22 | d->limit_in_pages << 23 | d->useable << 20 | 0x7000;
}

static long ldt_write(struct user_desc d)
{
	return raw_modify_ldt(MODIFY_LDT_WRITE, &d, sizeof(d));
}

static unsigned buf[65536 / 4 + 64];            /* 64 KiB + a little */

static volatile int va = 0x0aaa0001, vb = 0x0bbb0002, vc = 0x0ccc0003;

TEST(read_before_any_write_is_zero_filled)
{
	memset(buf, 0xaa, 64);
	/* abi.md: zero-filled to bytecount, returns bytecount. (Linux 2.6
	 * returns 0 for an address space that never had an LDT.) */
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, buf, 64), 64);
	for (int i = 0; i < 16; i++)
		EXPECT(buf[i] == 0, "byte %d: %#x", i * 4, buf[i]);
}

TEST(write_then_load_in_fs)
{
	EXPECT_EQ(ldt_write(DATA32(5, &va)), 0);
	EXPECT_EQ((int)fs_word_via(LDT_SEL(5)), 0x0aaa0001);
	struct user_desc old = DATA32(6, &vb);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE_OLD, &old, sizeof(old)), 0);
	EXPECT_EQ((int)fs_word_via(LDT_SEL(6)), 0x0bbb0002);
	EXPECT_EQ((int)fs_word_via(LDT_SEL(5)), 0x0aaa0001);
}

TEST(read_returns_raw_descriptors_zero_filled)
{
	struct user_desc d5 = mk(5, 0x12345678, 0xabcde, 1, 1, 1, 0, 0, 1);
	struct user_desc d6 = mk(6, 0x9abcdef0, 0x54321, 1, 0, 0, 1, 0, 1);
	unsigned w5[2], w6[2];

	EXPECT_EQ(ldt_write(d5), 0);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE_OLD, &d6, sizeof(d6)), 0);
	d6.useable = 0;                 /* old mode has no "useable" (Linux) */
	raw_words(&d5, w5);
	raw_words(&d6, w6);
	memset(buf, 0xaa, sizeof(buf));
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, buf, 128), 128);
	for (int i = 0; i < 32; i++) {
		unsigned want = i == 10 ? w5[0] : i == 11 ? w5[1] : i == 12 ? w6[0] :
				i == 13 ? w6[1] : 0;
		/* bit 8 of the high word is "accessed": the CPU may set it */
		unsigned got = i & 1 ? buf[i] & ~0x100u : buf[i];
		EXPECT(got == want, "LDT byte %d: %#x, want %#x", i * 4, got, want);
	}
	EXPECT_EQ(buf[32], 0xaaaaaaaa);         /* nothing past bytecount */

	/* Any bytecount, capped at the LDT's full size as Linux does. */
	memset(buf, 0xaa, sizeof(buf));
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, buf, 5), 5);
	EXPECT_EQ(buf[0], 0);
	EXPECT_EQ(buf[1], 0xaaaaaa00);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, buf, 65536 + 64), 65536);
	EXPECT_EQ(buf[65536 / 4 - 1], 0);
	EXPECT_EQ(buf[65536 / 4], 0xaaaaaaaa);
}

TEST(write_bytecount_must_be_16)
{
	struct user_desc d = DATA32(7, &vc);
	const unsigned long counts[] = { 0, 8, 15, 17, 32, 0x80000010ul };

	for (unsigned i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE, &d, counts[i]), -EINVAL);
		EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE_OLD, &d, counts[i]), -EINVAL);
	}
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, buf, 64), 64);
	EXPECT_EQ(buf[14] | buf[15], 0);        /* entry 7 never written */
}

/* Linux 6.1's refusals (built without CONFIG_X86_16BIT): 16-bit
 * segments, present conforming code, entries past 8191. (What it accepts
 * - code, not present - is t_ldt_kinds's.) */
TEST(write_refuses_16bit_conforming_and_big_entries)
{
	struct user_desc bad[] = {
		mk(7, 0x1000, 0xfffff, 0, 0, 0, 1, 0, 0),       /* 16-bit data */
		mk(7, 0x1000, 0xfffff, 0, 2, 0, 1, 0, 0),       /* 16-bit code */
		mk(7, 0x1000, 0xfffff, 0, 0, 0, 1, 1, 0),       /* 16-bit, not present */
		mk(7, 0x1000, 0xfffff, 1, 3, 1, 1, 0, 0),       /* conforming, present */
		mk(7, 0x1000, 0xfffff, 1, 3, 0, 1, 0, 1),       /* conforming, present */
		DATA32(8192, 0x1000), DATA32(0xffffffff, 0x1000),
	};
	/* Conforming code is refused in old mode even when not present. */
	struct user_desc conf_np = mk(7, 0x1000, 0xfffff, 1, 3, 1, 1, 1, 0);

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		EXPECT_EQ(ldt_write(bad[i]), -EINVAL);
		EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE_OLD, &bad[i], sizeof(bad[i])), -EINVAL);
	}
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE_OLD, &conf_np, sizeof(conf_np)), -EINVAL);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, buf, 64), 64);
	EXPECT_EQ(buf[14] | buf[15], 0);
	/* The last entry is fine, and usable. */
	EXPECT_EQ(ldt_write(DATA32(8191, &vc)), 0);
	EXPECT_EQ((int)fs_word_via(LDT_SEL(8191)), 0x0ccc0003);
	EXPECT_EQ(ldt_write(EMPTY(8191)), 0);
}

TEST(empty_and_zero_clear)
{
	EXPECT_EQ(ldt_write(DATA32(9, &va)), 0);
	EXPECT_EQ(ldt_write(EMPTY(9)), 0);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, buf, 80), 80);
	EXPECT_EQ(buf[18] | buf[19], 0);
	/* In func 0x11 an all-zero user_desc is no "clear": it is a 16-bit
	 * data segment, refused (Linux 6.1 without CONFIG_X86_16BIT), and
	 * the entry stays. */
	EXPECT_EQ(ldt_write(DATA32(9, &va)), 0);
	EXPECT_EQ(ldt_write(ZERO(9)), -EINVAL);
	EXPECT_EQ((int)fs_word_via(LDT_SEL(9)), 0x0aaa0001);
	/* Old mode: base 0 and limit 0 clear, whatever the other fields. */
	struct user_desc z = mk(9, 0, 0, 1, 0, 0, 1, 0, 1);
	EXPECT_EQ(ldt_write(DATA32(9, &va)), 0);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE_OLD, &z, sizeof(z)), 0);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, buf, 80), 80);
	EXPECT_EQ(buf[18] | buf[19], 0);
}

TEST(unknown_func_enosys)
{
	const int funcs[] = { 2, 3, 4, 0x10, 0x12, 0x21, 0x111, -1 };
	struct user_desc d = DATA32(7, &vc);

	for (unsigned i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		long r = raw_modify_ldt(funcs[i], &d, sizeof(d));
		EXPECT(r == -ENOSYS, "modify_ldt(%#x) = %ld, want -ENOSYS", funcs[i], r);
	}
}

TEST(bad_pointers_efault)
{
	char *page = thr_map(PAGE_SIZE);

	EXPECT(page, "mmap failed");
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, NULL, 16), -EFAULT);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, (void *)USER_TOP, 16), -EFAULT);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, (void *)0xbffffff8, 16), -EFAULT);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE, NULL, 16), -EFAULT);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE, (void *)USER_TOP, 16), -EFAULT);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE_OLD, (void *)0xfffffff0, 16), -EFAULT);
	EXPECT_EQ(raw_mprotect(page, PAGE_SIZE, PROT_READ), 0);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, page, 16), -EFAULT);
	EXPECT_EQ(raw_munmap(page, PAGE_SIZE), 0);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, page, 16), -EFAULT);
}

TEST(fork_copies_the_ldt)
{
	int st = -1;

	EXPECT_EQ(ldt_write(DATA32(3, &va)), 0);
	long pid = raw_fork();
	if (pid == 0) {
		if ((int)fs_word_via(LDT_SEL(3)) != 0x0aaa0001)
			raw_exit_group(1);
		if (ldt_write(DATA32(3, &vb)) != 0 || ldt_write(DATA32(4, &vc)) != 0)
			raw_exit_group(2);
		raw_exit_group((int)fs_word_via(LDT_SEL(3)) == 0x0bbb0002 ? 0 : 3);
	}
	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ((int)fs_word_via(LDT_SEL(3)), 0x0aaa0001);     /* the child's changes are its own */
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, buf, 40), 40);
	EXPECT_EQ(buf[8] | buf[9], 0);                  /* no entry 4 here */
}

/* CLONE_VM: one address space, one LDT. */
static int share_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	if ((int)fs_word_via(LDT_SEL(3)) != 0x0aaa0001)
		return 1;
	return ldt_write(DATA32(10, &vc)) == 0 ? 0 : 2;
}

TEST(clone_vm_threads_share_the_ldt)
{
	int st = -1;

	EXPECT_EQ(ldt_write(DATA32(3, &va)), 0);
	long tid = thr_clone(CLONE_VM | SIGCHLD, stk + STACK, NULL, NULL, share_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ((int)fs_word_via(LDT_SEL(10)), 0x0ccc0003);
}

/* A thread holds an LDT selector in %fs while another clears the entry:
 * its next return to user mode must not crash, and %fs reads back 0. */
struct holder { volatile int loaded, cleared; volatile unsigned fs_after; };

static int holder_fn(void *arg, const struct thr_regs *r)
{
	struct holder *h = arg;
	unsigned fs;

	(void)r;
	set_fs(LDT_SEL(11));
	h->loaded = 1;
	while (!h->cleared)
		raw_sched_yield();
	raw_sched_yield();
	fs = get_fs();
	h->fs_after = fs;
	return 0;
}

TEST(entry_cleared_under_another_thread_reads_back_0)
{
	static struct holder h;

	h = (struct holder){ 0, 0, 0x5a5a };
	int st = -1;

	EXPECT_EQ(ldt_write(DATA32(11, &va)), 0);
	long tid = thr_clone(THR_THREAD_FLAGS, stk + STACK, NULL, NULL, holder_fn, &h);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT(thr_wait_word(&h.loaded, 1, 20000), "the thread did not start");
	EXPECT_EQ(ldt_write(EMPTY(11)), 0);
	h.cleared = 1;
	EXPECT_EQ(raw_wait4(tid, &st, __WCLONE, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(h.fs_after, 0);
}

int main(void)
{
	RUN(read_before_any_write_is_zero_filled);
	RUN(write_then_load_in_fs);
	RUN(read_returns_raw_descriptors_zero_filled);
	RUN(write_bytecount_must_be_16);
	RUN(write_refuses_16bit_conforming_and_big_entries);
	RUN(empty_and_zero_clear);
	RUN(unknown_func_enosys);
	RUN(bad_pointers_efault);
	RUN(fork_copies_the_ldt);
	RUN(clone_vm_threads_share_the_ldt);
	RUN(entry_cleared_under_another_thread_reads_back_0);
	return t_exit_code();
}
