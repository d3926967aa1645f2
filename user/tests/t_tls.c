/* user/tests/t_tls.c - set_thread_area and get_thread_area (abi.md
 * section 5): allocation order and -ESRCH, -EINVAL and -EFAULT, the
 * round trip of every accepted field combination (checked against the
 * live GDT with LAR and LSL), the new descriptor live right after the
 * call, a cleared slot still named by %gs/%fs, per-task slots across
 * context switches, and fork. modify_ldt is t_ldt's. Booted as init. */
#define T_PROG "t_tls"
#include "t.h"
#include "thr.h"
#include "udesc.h"
#include "segs.h"

#define STACK 16384
static char stk[STACK] __attribute__((aligned(16)));

static char dbuf[2][112];

static const char *dstr(const struct user_desc *d, int i)
{
	snprintf(dbuf[i], sizeof(dbuf[i]), "{%d, %#x, %#x, 32bit %u contents %u rx %u pages %u "
		 "np %u useable %u}", (int)d->entry_number, d->base_addr, d->limit, d->seg_32bit,
		 d->contents, d->read_exec_only, d->limit_in_pages, d->seg_not_present, d->useable);
	return dbuf[i];
}

/* Every bit: mk() and the kernel (erratum 5) both leave unused bits 0. */
#define EXPECT_DESC(got, want) do { \
	struct user_desc t_d1_ = (got), t_d2_ = (want); \
	if (memcmp(&t_d1_, &t_d2_, sizeof(t_d1_)) != 0) \
		FAIL("%s = %s, want %s", #got, dstr(&t_d1_, 0), dstr(&t_d2_, 1)); \
} while (0)

static struct user_desc get_tls(unsigned e)
{
	struct user_desc d;

	memset(&d, 0xff, sizeof(d));
	d.entry_number = e;
	if (raw_get_thread_area(&d) != 0)
		memset(&d, 0xee, sizeof(d));
	return d;
}

static void clear_tls(void)
{
	for (unsigned e = 6; e <= 8; e++) {
		struct user_desc d = EMPTY(e);
		raw_set_thread_area(&d);
	}
	set_fs(0);
	set_gs(0);
}

TEST(alloc_lowest_free_then_esrch)
{
	struct user_desc d;

	for (unsigned e = 6; e <= 8; e++) {
		d = DATA32(-1, 0x1000 * e);
		EXPECT_EQ(raw_set_thread_area(&d), 0);
		EXPECT_EQ(d.entry_number, e);           /* written back */
		EXPECT_DESC(get_tls(e), DATA32(e, 0x1000 * e));
	}
	d = DATA32(-1, 0x9000);
	EXPECT_EQ(raw_set_thread_area(&d), -ESRCH);
	EXPECT_EQ((int)d.entry_number, -1);             /* not written */
	struct user_desc e7 = EMPTY(7);
	EXPECT_EQ(raw_set_thread_area(&e7), 0);
	d = DATA32(-1, 0x9000);
	EXPECT_EQ(raw_set_thread_area(&d), 0);
	EXPECT_EQ(d.entry_number, 7);                   /* the lowest empty one */
	EXPECT_DESC(get_tls(6), DATA32(6, 0x6000));
	EXPECT_DESC(get_tls(8), DATA32(8, 0x8000));
	clear_tls();
}

TEST(einval_entry_numbers)
{
	const unsigned bad[] = { -2u, 9, 5, 0, 3, 12, 0x106, 0x80000006u, 0xffffff06u };

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct user_desc d = DATA32(bad[i], 0x1000);
		long r = raw_set_thread_area(&d);
		EXPECT(r == -EINVAL, "set_thread_area(entry %#x) = %ld, want -EINVAL", bad[i], r);
		d = DATA32(bad[i], 0);
		r = raw_get_thread_area(&d);
		EXPECT(r == -EINVAL, "get_thread_area(entry %#x) = %ld, want -EINVAL", bad[i], r);
	}
	struct user_desc m1 = DATA32(-1, 0);
	EXPECT_EQ(raw_get_thread_area(&m1), -EINVAL);   /* -1 allocates only in set */
	for (unsigned e = 6; e <= 8; e++)
		EXPECT_DESC(get_tls(e), EMPTY(e));
}

TEST(einval_bad_descriptors_allocate_nothing)
{
	struct user_desc bad[] = {
		mk(-1, 0x1000, 0xfffff, 0, 0, 0, 1, 0, 0),      /* 16-bit */
		mk(-1, 0x1000, 0xfffff, 1, 2, 0, 1, 0, 0),      /* code */
		mk(-1, 0x1000, 0xfffff, 1, 3, 0, 1, 0, 0),      /* code, conforming */
		mk(-1, 0x1000, 0xfffff, 1, 0, 0, 1, 1, 0),      /* not present */
		mk(-1, 0, 0, 0, 0, 0, 0, 1, 0),                 /* not present, else 0 */
		mk(7, 0x1000, 0, 0, 1, 1, 0, 0, 1),             /* 16-bit, fixed entry */
	};

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unsigned e = bad[i].entry_number;
		long r = raw_set_thread_area(&bad[i]);
		EXPECT(r == -EINVAL, "set_thread_area(%s) = %ld, want -EINVAL", dstr(&bad[i], 0), r);
		EXPECT_EQ(bad[i].entry_number, e);
	}
	for (unsigned e = 6; e <= 8; e++)
		EXPECT_DESC(get_tls(e), EMPTY(e));
}

TEST(efault_bad_pointers)
{
	char *page = thr_map(2 * PAGE_SIZE);
	void *bad[] = { NULL, (void *)USER_TOP, (void *)0xfffffff8, (void *)0xbffffffc,
			page + PAGE_SIZE, page + PAGE_SIZE - 8 };

	EXPECT(page, "mmap failed");
	EXPECT_EQ(raw_munmap(page + PAGE_SIZE, PAGE_SIZE), 0);
	*(struct user_desc *)(page + PAGE_SIZE - 16) = DATA32(-1, 0x1000);
	*(unsigned *)(page + PAGE_SIZE - 8) = 6;        /* a get that would start well */
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long r = raw_set_thread_area(bad[i]);
		EXPECT(r == -EFAULT, "set_thread_area(%p) = %ld, want -EFAULT", bad[i], r);
		if (bad[i] == (void *)0xbffffffc)
			continue;       /* get reads entry_number there first: -EINVAL */
		r = raw_get_thread_area(bad[i]);
		EXPECT(r == -EFAULT, "get_thread_area(%p) = %ld, want -EFAULT", bad[i], r);
	}
	/* Read-only: -1 cannot be written back, so nothing is installed;
	 * get_thread_area cannot write its answer. */
	struct user_desc *ro = (struct user_desc *)(page + PAGE_SIZE - 16);
	*ro = DATA32(-1, 0x1000);
	EXPECT_EQ(raw_mprotect(page, PAGE_SIZE, PROT_READ), 0);
	EXPECT_EQ(raw_set_thread_area(ro), -EFAULT);
	EXPECT_DESC(get_tls(6), EMPTY(6));
	struct user_desc ok = DATA32(6, 0x1000);
	EXPECT_EQ(raw_set_thread_area(&ok), 0);
	EXPECT_EQ(raw_mprotect(page, PAGE_SIZE, PROT_READ | PROT_WRITE), 0);
	ro->entry_number = 6;
	EXPECT_EQ(raw_mprotect(page, PAGE_SIZE, PROT_READ), 0);
	EXPECT_EQ(raw_get_thread_area(ro), -EFAULT);
	EXPECT_EQ((int)ro->base_addr, 0x1000);          /* DATA32(-1, 0x1000) still */
	EXPECT_EQ(raw_munmap(page, PAGE_SIZE), 0);
	clear_tls();
}

/* Every combination validation accepts (32-bit, data, present), read
 * back field by field and as the CPU sees it in the GDT. */
TEST(round_trip_every_accepted_combination)
{
	const unsigned bases[] = { 0, 0x12345678, 0xfffff000, 0xc0000000 };
	const unsigned limits[] = { 0, 1, 0xabcde, 0xfffff };
	int n = 0;

	for (unsigned b = 0; b < 4; b++)
	for (unsigned l = 0; l < 4; l++)
	for (unsigned bits = 0; bits < 16; bits++) {
		unsigned rx = bits & 1, lip = bits >> 1 & 1, u = bits >> 2 & 1, c = bits >> 3;
		unsigned e = 6 + n++ % 3, sel = e * 8 + 3, ar, lim;
		struct user_desc d = mk(e, bases[b], limits[l], 1, c, rx, lip, 0, u);
		EXPECT(raw_set_thread_area(&d) == 0, "set_thread_area(%s) failed", dstr(&d, 0));
		EXPECT_DESC(get_tls(e), d);
		EXPECT(thr_lar(sel, &ar), "lar %#x: not valid after %s", sel, dstr(&d, 0));
		unsigned want = lip << 23 | 1u << 22 | u << 20 | 0xf000 | c << 10 | !rx << 9;
		EXPECT((ar & 0x00f0fe00) == want, "lar %#x = %#x, want %#x for %s",
		       sel, ar & 0x00f0fe00, want, dstr(&d, 0));
		EXPECT(thr_lsl(sel, &lim), "lsl %#x: not valid", sel);
		EXPECT_EQ(lim, lip ? limits[l] << 12 | 0xfff : limits[l]);
	}
	clear_tls();
}

static volatile int va = 0x0aaa0001, vb = 0x0bbb0002;

TEST(new_descriptor_live_right_after_the_call)
{
	struct user_desc a = DATA32(6, &va), b = DATA32(6, &vb);

	EXPECT_EQ(raw_set_thread_area(&a), 0);
	set_gs(0x33);
	EXPECT_EQ((int)gs_word(), 0x0aaa0001);
	EXPECT_EQ(raw_set_thread_area(&b), 0);          /* %gs still names slot 6 */
	EXPECT_EQ((int)gs_word(), 0x0bbb0002);
	clear_tls();
}

TEST(cleared_slot_in_gs_or_fs_reads_back_0)
{
	struct user_desc a = DATA32(6, &va), b = DATA32(8, &vb), e = EMPTY(6), z = ZERO(8);
	unsigned gs = 0x5a5a, fs = 0x5a5a;

	EXPECT_EQ(raw_set_thread_area(&a), 0);
	EXPECT_EQ(raw_set_thread_area(&b), 0);
	set_gs(0x33);
	set_fs(0x43);
	EXPECT_EQ(raw_set_thread_area(&e), 0);
	gs = get_gs();
	EXPECT_EQ(gs, 0);
	fs = get_fs();
	EXPECT_EQ(fs, 0x43);                            /* slot 8 still there */
	EXPECT_EQ(raw_set_thread_area(&z), 0);
	fs = get_fs();
	EXPECT_EQ(fs, 0);
	clear_tls();
}

/* Two tasks with different slot 7s, switching back and forth: each must
 * always read its own through %gs (load_TLS at every switch). */
static int flip_loop(int want)
{
	int bad = 0;

	set_gs(0x3b);
	for (int i = 0; i < 2000; i++) {
		raw_sched_yield();
		if ((int)gs_word() != want)
			bad++;
	}
	set_gs(0);
	return bad;
}

static int flip_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	return flip_loop(0x0bbb0002) ? 1 : 0;
}

TEST(slots_are_per_task_across_switches)
{
	struct user_desc mine = DATA32(7, &va), its = DATA32(7, &vb);
	int st = -1;

	EXPECT_EQ(raw_set_thread_area(&mine), 0);
	long tid = thr_clone(THR_THREAD_FLAGS | CLONE_SETTLS, stk + STACK, NULL, &its, flip_fn, NULL);
	EXPECT(tid > 1, "clone returned %ld", tid);
	int bad = flip_loop(0x0aaa0001);
	EXPECT_EQ(raw_wait4(tid, &st, __WCLONE, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(bad, 0);
	EXPECT_DESC(get_tls(7), mine);
	clear_tls();
}

TEST(fork_inherits_slots_and_segment_registers)
{
	struct user_desc a = DATA32(8, &va);
	int st = -1;

	EXPECT_EQ(raw_set_thread_area(&a), 0);
	set_fs(0x43);
	long pid = raw_fork();
	if (pid == 0) {
		int v;
		struct user_desc b = DATA32(8, &vb), g = get_tls(8);
		v = fs_word();
		if (g.base_addr != (unsigned)&va || v != 0x0aaa0001)
			raw_exit_group(1);
		if (raw_set_thread_area(&b) != 0)
			raw_exit_group(2);
		v = fs_word();
		raw_exit_group(v == 0x0bbb0002 ? 0 : 3);
	}
	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));
	int v;
	v = fs_word();
	EXPECT_EQ(v, 0x0aaa0001);                       /* the child's change is its own */
	EXPECT_DESC(get_tls(8), a);
	clear_tls();
}

int main(void)
{
	/* clear_tls() between cases: a failed one may leave slots in use. */
	RUN(alloc_lowest_free_then_esrch);
	clear_tls();
	RUN(einval_entry_numbers);
	clear_tls();
	RUN(einval_bad_descriptors_allocate_nothing);
	clear_tls();
	RUN(efault_bad_pointers);
	clear_tls();
	RUN(round_trip_every_accepted_combination);
	clear_tls();
	RUN(new_descriptor_live_right_after_the_call);
	clear_tls();
	RUN(cleared_slot_in_gs_or_fs_reads_back_0);
	clear_tls();
	RUN(slots_are_per_task_across_switches);
	clear_tls();
	RUN(fork_inherits_slots_and_segment_registers);
	return t_exit_code();
}
