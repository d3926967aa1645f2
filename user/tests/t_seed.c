/* user/tests/t_seed.c - the seed's TLS and TID work and its errata
 * (docs/seeds.md lists them), each erratum its own named case:
 * CLONE_SETTID (erratum 1), CLONE_SETTLS, get_thread_area's bits
 * (erratum 2), the TLS slots of a fresh process (erratum 3), the GDT
 * limit (erratum 4), get_thread_area's unused bits (erratum 5),
 * descriptor validation (erratum 6) and clone's registers (erratum 9).
 * CLONE_DETACHED, CLONE_RELEASE_VM and erratum 7 are t_seed_vm's.
 * Booted as init; erratum 3 runs first, while our slots are untouched. */
#define T_PROG "t_seed"
#include "t.h"
#include "thr.h"
#include "segs.h"

#define STACK 16384
static char stk[2][STACK] __attribute__((aligned(16)));
#define TOP(i) ((void *)(stk[i] + STACK))

/* A present, writable, 32-bit data segment, limit 4 GiB in pages. */
#define DATA32(e, base) ((struct user_desc){ (e), (unsigned int)(base), 0xfffff, 1, 0, 0, 1, 0, 0 })
/* The seed's LDT_empty, and the all-zero descriptor: both clear a slot. */
#define EMPTY(e) ((struct user_desc){ (e), 0, 0, 0, 0, 1, 0, 1, 0 })
#define ZERO(e) ((struct user_desc){ (e), 0, 0, 0, 0, 0, 0, 0, 0 })

#define UNSET 0x5a5a5a5a        /* *ptid before clone: no TID looks like it */

static char dbuf[2][112];

static const char *dstr(const struct user_desc *d, int i)
{
	snprintf(dbuf[i], sizeof(dbuf[i]), "{%u, %#x, %#x, 32bit %u contents %u rx %u pages %u "
		 "np %u useable %u}", d->entry_number, d->base_addr, d->limit, d->seg_32bit,
		 d->contents, d->read_exec_only, d->limit_in_pages, d->seg_not_present, d->useable);
	return dbuf[i];
}

/* Field by field: the unused bits of an initialised struct are not
 * necessarily zero (erratum 5 checks the kernel's separately). */
static bool desc_eq(const struct user_desc *a, const struct user_desc *b)
{
	return a->entry_number == b->entry_number && a->base_addr == b->base_addr &&
	       a->limit == b->limit && a->seg_32bit == b->seg_32bit &&
	       a->contents == b->contents && a->read_exec_only == b->read_exec_only &&
	       a->limit_in_pages == b->limit_in_pages &&
	       a->seg_not_present == b->seg_not_present && a->useable == b->useable;
}

#define EXPECT_DESC(got, want) do { \
	struct user_desc t_d1_ = (got), t_d2_ = (want); \
	if (!desc_eq(&t_d1_, &t_d2_)) \
		FAIL("%s = %s, want %s", #got, dstr(&t_d1_, 0), dstr(&t_d2_, 1)); \
} while (0)

/* get_thread_area(e), every byte preset to 0xff (erratum 5). */
static struct user_desc get_tls(unsigned e)
{
	struct user_desc d;

	memset(&d, 0xff, sizeof(d));
	d.entry_number = e;
	if (raw_get_thread_area(&d) != 0)
		memset(&d, 0xee, sizeof(d));
	return d;
}

static unsigned bits_word(const struct user_desc *d)
{
	return ((const unsigned *)d)[3];
}

static void clear_tls(void)
{
	for (unsigned e = 6; e <= 8; e++) {
		struct user_desc d = EMPTY(e);
		raw_set_thread_area(&d);
	}
}

static long ntasks(void)
{
	struct thr_kstat k;
	long r = thr_kstat(&k);

	return r < 0 ? r : (long)k.tasks;
}

/* ---- erratum 3: the slots of a fresh process ---- */

TEST(erratum3_fresh_process_tls_slots_empty)
{
	unsigned ar;

	/* We are init, exec'd by the kernel, and have not touched TLS. */
	for (unsigned e = 6; e <= 8; e++)
		EXPECT_DESC(get_tls(e), EMPTY(e));
	/* The CPU agrees: 6..8 and the reserved 9..11 are unusable; the
	 * user code and data entries 4 and 5 are intact. */
	for (unsigned e = 6; e <= 11; e++)
		EXPECT(!thr_lar(e * 8 + 3, &ar), "GDT entry %u is valid (lar %#x)", e, ar);
	EXPECT(thr_lar(0x23, &ar) && (ar & 0x00f0fe00) == 0x00c0fa00, "lar 0x23: %#x", ar);
	EXPECT(thr_lar(0x2b, &ar) && (ar & 0x00f0fe00) == 0x00c0f200, "lar 0x2b: %#x", ar);

	/* And a process exec'd by one whose slots and %gs were in use. */
	int st = -1;
	long pid = raw_fork();
	if (pid == 0) {
		static char *const argv[] = { "t_seed_child", "tls", NULL };
		for (unsigned e = 6; e <= 8; e++) {
			struct user_desc d = DATA32(e, 0x1000 * e);
			raw_set_thread_area(&d);
		}
		set_gs(0x3b);
		raw_execve("/tests/t_seed_child", argv, NULL);
		raw_exit_group(0x7f);
	}
	EXPECT(pid > 0, "fork: %ld", pid);
	EXPECT_EQ(raw_wait4(pid, &st, 0, NULL), pid);
	EXPECT_STATUS(st, EXITED(0));   /* t_seed_child.c lists the bits */
}

/* ---- erratum 4: the GDT limit ---- */

TEST(erratum4_gdt_limit_is_24_entries)
{
	struct __attribute__((packed)) { unsigned short limit; unsigned int base; } g = { 0, 0 };

	__asm__ volatile("sgdt %0" : "=m"(g));
	EXPECT_EQ(g.limit, 24 * 8 - 1);
	EXPECT(g.base >= USER_TOP, "GDT base %#x is not a kernel address", g.base);
}

/* ---- erratum 2: seg_32bit is bit 22, limit_in_pages bit 23 ---- */

TEST(erratum2_seg_32bit_and_limit_in_pages_independent)
{
	for (unsigned lip = 0; lip <= 1; lip++) {
		for (unsigned useable = 0; useable <= 1; useable++) {
			struct user_desc d = { 7, 0x10000, 0xfff, 1, 0, 0, lip, 0, useable };
			unsigned ar, lim;
			EXPECT_EQ(raw_set_thread_area(&d), 0);
			EXPECT_DESC(get_tls(7), d);
			/* The live descriptor: D/B (22) set, G (23) = lip, AVL (20). */
			EXPECT(thr_lar(0x3b, &ar), "lar 0x3b: descriptor not valid");
			EXPECT_EQ(ar & 0x00f0fe00, (lip << 23) | (1u << 22) | (useable << 20) | 0xf200);
			EXPECT(thr_lsl(0x3b, &lim), "lsl 0x3b: descriptor not valid");
			EXPECT_EQ(lim, lip ? 0xffffff : 0xfff);
		}
	}
	clear_tls();
}

/* ---- erratum 5: no stray bits from get_thread_area ---- */

TEST(erratum5_get_thread_area_zeroes_unused_bits)
{
	struct user_desc d = get_tls(8);
	struct user_desc set = { 8, 0x12345678, 0xabcde, 1, 1, 1, 1, 0, 1 };

	/* Empty: read_exec_only (bit 3) and seg_not_present (bit 5) only. */
	EXPECT_EQ(bits_word(&d), 0x28);
	EXPECT_DESC(d, EMPTY(8));
	EXPECT_EQ(raw_set_thread_area(&set), 0);
	d = get_tls(8);
	/* seg_32bit 1 | contents 1 << 1 | read_exec_only 8 | limit_in_pages 16 | useable 64 */
	EXPECT_EQ(bits_word(&d), 0x5b);
	EXPECT_DESC(d, set);
	clear_tls();
}

/* ---- erratum 6: 16-bit, code and not-present are refused ---- */

TEST(erratum6_bad_descriptors_refused_empty_and_zero_clear)
{
	struct user_desc good = DATA32(6, 0x4000);
	struct user_desc bad[] = {
		{ 6, 0x4000, 0xfffff, 0, 0, 0, 1, 0, 0 },       /* 16-bit */
		{ 6, 0x4000, 0xfffff, 1, 2, 0, 1, 0, 0 },       /* code */
		{ 6, 0x4000, 0xfffff, 1, 3, 1, 1, 0, 0 },       /* code, conforming */
		{ 6, 0x4000, 0xfffff, 1, 0, 0, 1, 1, 0 },       /* not present */
		{ 6, 0, 0, 0, 0, 0, 0, 1, 0 },                  /* not present, else 0 */
		{ 6, 0, 0, 0, 0, 1, 0, 0, 0 },                  /* 16-bit, else 0 */
	};

	EXPECT_EQ(raw_set_thread_area(&good), 0);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long r = raw_set_thread_area(&bad[i]);
		EXPECT(r == -EINVAL, "set_thread_area(%s) = %ld, want -EINVAL", dstr(&bad[i], 0), r);
		EXPECT_DESC(get_tls(6), good);  /* left as it was */
	}
	struct user_desc e = EMPTY(6), z = ZERO(6);
	EXPECT_EQ(raw_set_thread_area(&e), 0);
	EXPECT_DESC(get_tls(6), EMPTY(6));
	EXPECT_EQ(raw_set_thread_area(&good), 0);
	EXPECT_EQ(raw_set_thread_area(&z), 0);
	EXPECT_DESC(get_tls(6), EMPTY(6));
}

/* ---- erratum 1: CLONE_SETTID on its own ---- */

struct seen { volatile long ptid, tid; };

static int read_ptid_fn(void *arg, const struct thr_regs *r)
{
	struct seen *s = arg;

	s->ptid = *(volatile int *)r->edx;      /* first thing */
	s->tid = raw_gettid();
	return 0;
}

TEST(erratum1_settid_alone)
{
	static struct seen s;

	s = (struct seen){ UNSET, UNSET };
	int ptid = UNSET, st = -1;
	long tid = thr_clone(CLONE_VM | CLONE_SETTID | SIGCHLD, TOP(0), &ptid, NULL, read_ptid_fn, &s);

	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(ptid, tid);                   /* written before clone returned */
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(s.tid, tid);
	EXPECT_EQ(s.ptid, tid);                 /* ...and before the child ran */

	/* Without CLONE_VM it goes to the parent's address space. */
	ptid = UNSET;
	tid = raw_clone(CLONE_SETTID | SIGCHLD, NULL, &ptid, NULL, NULL);
	if (tid == 0)
		raw_exit_group(0);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(ptid, tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);

	/* The seed's bug the other way round: SETTLS alone writes no TID. */
	struct user_desc d = DATA32(6, 0x5000);
	ptid = UNSET;
	tid = thr_clone(CLONE_VM | CLONE_SETTLS | SIGCHLD, TOP(0), &ptid, &d, read_ptid_fn, &s);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_EQ(ptid, UNSET);
}

static int quick_fn(void *arg, const struct thr_regs *r)
{
	(void)arg;
	(void)r;
	return 0;
}

/* A clone that must fail; a child created all the same is reaped. */
static long clone_must_fail(unsigned long flags, int *ptid, struct user_desc *tls)
{
	long r = thr_clone(flags, TOP(1), ptid, tls, quick_fn, NULL);

	if (r > 0)
		raw_wait4(r, NULL, __WALL, NULL);
	return r;
}

TEST(settid_bad_ptid_efault_no_child)
{
	long before = ntasks();
	char *page = thr_map(2 * PAGE_SIZE);
	int *bad[] = {
		NULL, (int *)USER_TOP, (int *)0xfffffffc,
		(int *)(page + PAGE_SIZE),              /* unmapped below */
		(int *)(page + PAGE_SIZE - 2),          /* straddles into it */
		(int *)page,                            /* read-only below */
	};

	EXPECT(page, "mmap failed");
	EXPECT_EQ(raw_munmap(page + PAGE_SIZE, PAGE_SIZE), 0);
	EXPECT_EQ(raw_mprotect(page, PAGE_SIZE, PROT_READ), 0);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		long r = clone_must_fail(CLONE_VM | CLONE_SETTID | SIGCHLD, bad[i], NULL);
		EXPECT(r == -EFAULT, "clone(SETTID, ptid %p) = %ld, want -EFAULT", (void *)bad[i], r);
		EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
	}
	EXPECT_EQ(*(volatile int *)page, 0);
	raw_munmap(page, PAGE_SIZE);
	EXPECT(before > 0, "/proc/kstat: %ld", before);
	EXPECT_EQ(ntasks(), before);
}

/* ---- CLONE_SETTLS ---- */

static volatile int blk6[2] = { 0x66666666, 0 }, blk7[2] = { 0x77777777, 0 },
		    blk8[2] = { 0x88888888, 0 }, blkx[2] = { 0x5e770005, 0 };

/* sel: a selector to read a word through, or 0. */
struct tls_seen { struct user_desc d[3]; unsigned sel; volatile int gs_word; };

static int tls_fn(void *arg, const struct thr_regs *r)
{
	struct tls_seen *s = arg;
	int v;

	(void)r;
	for (unsigned e = 6; e <= 8; e++)
		s->d[e - 6] = get_tls(e);
	if (s->sel) {
		v = gs_word_via(s->sel);
		s->gs_word = v;
	}
	return 0;
}

TEST(settls_installs_child_slot_inherits_others)
{
	struct user_desc p6 = DATA32(6, blk6), p7 = DATA32(7, blk7), p8 = DATA32(8, blk8);
	struct user_desc x = { 7, (unsigned int)blkx, 0xfff, 1, 0, 0, 0, 0, 1 };
	static struct tls_seen s;
	int st = -1;

	memset(&s, 0, sizeof(s));
	s.sel = 0x3b;
	EXPECT_EQ(raw_set_thread_area(&p6), 0);
	EXPECT_EQ(raw_set_thread_area(&p7), 0);
	EXPECT_EQ(raw_set_thread_area(&p8), 0);
	long tid = thr_clone(CLONE_VM | CLONE_SETTLS | SIGCHLD, TOP(0), NULL, &x, tls_fn, &s);
	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_DESC(s.d[0], p6);
	EXPECT_DESC(s.d[1], x);
	EXPECT_DESC(s.d[2], p8);
	EXPECT_EQ(s.gs_word, 0x5e770005);
	/* Ours are untouched. */
	EXPECT_DESC(get_tls(6), p6);
	EXPECT_DESC(get_tls(7), p7);
	EXPECT_DESC(get_tls(8), p8);
	clear_tls();
}

TEST(settls_empty_or_zero_clears_child_slot)
{
	struct user_desc p8 = DATA32(8, blk8);
	struct user_desc clears[] = { EMPTY(8), ZERO(8) };
	static struct tls_seen s;
	int st = -1;

	EXPECT_EQ(raw_set_thread_area(&p8), 0);
	for (int i = 0; i < 2; i++) {
		memset(&s, 0, sizeof(s));
		long tid = thr_clone(CLONE_VM | CLONE_SETTLS | SIGCHLD, TOP(0), NULL, &clears[i],
				     tls_fn, &s);
		EXPECT(tid > 1, "clone returned %ld", tid);
		EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
		EXPECT_STATUS(st, EXITED(0));
		EXPECT_DESC(s.d[2], EMPTY(8));
		EXPECT_DESC(get_tls(8), p8);
	}
	clear_tls();
}

TEST(settls_errors_no_child)
{
	long before = ntasks();
	struct user_desc einval[] = {
		DATA32(5, 0x1000), DATA32(9, 0x1000), DATA32(-1, 0x1000), DATA32(0, 0x1000),
		{ 6, 0x1000, 0xfffff, 0, 0, 0, 1, 0, 0 },       /* 16-bit */
		{ 6, 0x1000, 0xfffff, 1, 2, 0, 1, 0, 0 },       /* code */
		{ 6, 0x1000, 0xfffff, 1, 0, 0, 1, 1, 0 },       /* not present */
	};
	struct user_desc *efault[] = {
		NULL, (struct user_desc *)USER_TOP, (struct user_desc *)0xfffffff8,
	};

	for (unsigned i = 0; i < sizeof(einval) / sizeof(einval[0]); i++) {
		long r = clone_must_fail(CLONE_VM | CLONE_SETTLS | SIGCHLD, NULL, &einval[i]);
		EXPECT(r == -EINVAL, "clone(SETTLS, %s) = %ld, want -EINVAL", dstr(&einval[i], 0), r);
	}
	for (unsigned i = 0; i < sizeof(efault) / sizeof(efault[0]); i++) {
		long r = clone_must_fail(CLONE_VM | CLONE_SETTLS | SIGCHLD, NULL, efault[i]);
		EXPECT(r == -EFAULT, "clone(SETTLS, tls %p) = %ld, want -EFAULT", (void *)efault[i], r);
	}
	/* A bad TLS fails the clone even when the TID pointer is good, and
	 * then nothing is written there. */
	int ptid = UNSET;
	EXPECT_EQ(clone_must_fail(CLONE_VM | CLONE_SETTLS | CLONE_SETTID | SIGCHLD, &ptid,
				  &einval[4]), -EINVAL);
	EXPECT_EQ(ptid, UNSET);
	EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
	EXPECT(before > 0, "/proc/kstat: %ld", before);
	EXPECT_EQ(ntasks(), before);
}

/* ---- erratum 9: ptid in %edx, tls in %esi ---- */

struct regs_seen { volatile unsigned long edx, esi; volatile int ptid, gs_word; };

static int regs9_fn(void *arg, const struct thr_regs *r)
{
	struct regs_seen *s = arg;
	int v;

	s->edx = r->edx;
	s->esi = r->esi;
	s->ptid = *(volatile int *)r->edx;
	v = gs_word_via(0x33);
	s->gs_word = v;
	return 0;
}

TEST(erratum9_clone_takes_ptid_in_edx_tls_in_esi)
{
	struct user_desc d = DATA32(6, blkx);
	static struct regs_seen s;

	s = (struct regs_seen){ 0, 0, 0, 0 };
	int ptid = UNSET, st = -1;
	long tid = thr_clone(CLONE_VM | CLONE_SETTLS | CLONE_SETTID | SIGCHLD, TOP(0), &ptid, &d,
			     regs9_fn, &s);

	EXPECT(tid > 1, "clone returned %ld", tid);
	EXPECT_EQ(ptid, tid);
	EXPECT_EQ(raw_wait4(tid, &st, 0, NULL), tid);
	EXPECT_STATUS(st, EXITED(0));
	EXPECT_EQ(s.edx, (unsigned long)&ptid);
	EXPECT_EQ(s.esi, (unsigned long)&d);
	EXPECT_EQ(s.ptid, tid);
	EXPECT_EQ(s.gs_word, 0x5e770005);

	/* The mail's order (tls third, ptid fourth) is not the ABI: the
	 * kernel then reads a "user_desc" at &ptid: entry UNSET. */
	ptid = UNSET;
	EXPECT_EQ(clone_must_fail(CLONE_VM | CLONE_SETTLS | CLONE_SETTID | SIGCHLD,
				  (int *)&d, (struct user_desc *)&ptid), -EINVAL);
	EXPECT_EQ(raw_wait4(-1, NULL, WNOHANG | __WALL, NULL), -ECHILD);
}

int main(void)
{
	RUN(erratum3_fresh_process_tls_slots_empty);
	RUN(erratum4_gdt_limit_is_24_entries);
	RUN(erratum2_seg_32bit_and_limit_in_pages_independent);
	RUN(erratum5_get_thread_area_zeroes_unused_bits);
	RUN(erratum6_bad_descriptors_refused_empty_and_zero_clear);
	clear_tls();
	RUN(erratum1_settid_alone);
	RUN(settid_bad_ptid_efault_no_child);
	RUN(settls_installs_child_slot_inherits_others);
	clear_tls();
	RUN(settls_empty_or_zero_clears_child_slot);
	clear_tls();
	RUN(settls_errors_no_child);
	RUN(erratum9_clone_takes_ptid_in_edx_tls_in_esi);
	return t_exit_code();
}
