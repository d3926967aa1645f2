/* user/tests/t_tls_switch.c - TLS segments across context switches
 * (abi.md section 5, tls-2.5.31-D9): set_thread_area and get_thread_area
 * with their error paths, several processes each with its own %fs/%gs
 * bases yielding thousands of times, a slot rewritten or cleared while
 * %gs names it, fork inheriting the descriptors; and the per-address-space
 * LDT of modify_ldt, switched and inherited the same way. Booted as init. */
#define T_PROG "t_tls_switch"
#include "t.h"
#include "signal.h"
#include "segs.h"

#define TLS_MIN 6
#define TLS_MAX 8
#define ROUNDS 5000

/* A flat 4 GiB, 32-bit, writable data segment at base. */
static struct user_desc data_desc(unsigned entry, const void *base)
{
	return (struct user_desc){ .entry_number = entry, .base_addr = (unsigned)base,
				   .limit = 0xfffff, .seg_32bit = 1, .limit_in_pages = 1,
				   .useable = 1 };
}

/* The "empty" descriptor of LDT_empty: clears a slot, reads back from one. */
static struct user_desc empty_desc(unsigned entry)
{
	return (struct user_desc){ .entry_number = entry, .read_exec_only = 1,
				   .seg_not_present = 1 };
}

static void clear_tls(void)
{
	set_fs(0);
	set_gs(0);
	for (unsigned e = TLS_MIN; e <= TLS_MAX; e++) {
		struct user_desc d = empty_desc(e);
		raw_set_thread_area(&d);
	}
}

static bool same_desc(const struct user_desc *a, const struct user_desc *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* For FAIL lines; which (0 or 1) picks one of two buffers. */
static const char *desc_str(const struct user_desc *d, int which)
{
	static char bufs[2][128];
	char *buf = bufs[which];

	snprintf(buf, sizeof(bufs[0]), "{%u, %#x, %#x, 32bit %u contents %u ro %u pages %u np %u use %u}",
		 d->entry_number, d->base_addr, d->limit, d->seg_32bit, d->contents,
		 d->read_exec_only, d->limit_in_pages, d->seg_not_present, d->useable);
	return buf;
}

/* ---- set/get_thread_area ---- */
static uint32_t word_a = 0xaaaa0001, word_b = 0xbbbb0002, word_c = 0xcccc0003;

TEST(set_thread_area_allocates_the_lowest_free_slot)
{
	clear_tls();
	for (unsigned want = TLS_MIN; want <= TLS_MAX; want++) {
		struct user_desc d = data_desc(-1, &word_a);
		EXPECT_EQ(raw_set_thread_area(&d), 0);
		EXPECT_EQ(d.entry_number, want);
	}
	struct user_desc d = data_desc(-1, &word_a);
	EXPECT_EQ(raw_set_thread_area(&d), -ESRCH);
	struct user_desc e = empty_desc(7);
	EXPECT_EQ(raw_set_thread_area(&e), 0);
	EXPECT_EQ(raw_set_thread_area(&d), 0);
	EXPECT_EQ(d.entry_number, 7);
	clear_tls();
}

/* Every field comes back as written, seg_32bit and limit_in_pages
 * independently (seed errata 2: D9 read both from bit 23). */
TEST(get_thread_area_round_trip)
{
	static const struct user_desc descs[] = {
		{ 6, 0x12345678, 0xfffff, 1, 0, 0, 1, 0, 1 },
		{ 6, 0x12345678, 0xfffff, 1, 0, 0, 0, 0, 1 },
		{ 7, 0xdeadb000, 0x00abc, 1, 0, 1, 0, 0, 0 },   /* read-only */
		{ 8, 0x00001000, 0x00010, 1, 1, 0, 1, 0, 1 },   /* expand-down */
		{ 8, 0xbffff000, 0x00000, 1, 0, 0, 0, 0, 0 },
	};
	for (unsigned i = 0; i < sizeof(descs) / sizeof(descs[0]); i++) {
		struct user_desc d = descs[i], got;
		memset(&got, 0xff, sizeof(got));
		got.entry_number = d.entry_number;
		EXPECT_EQ(raw_set_thread_area(&d), 0);
		EXPECT_EQ(raw_get_thread_area(&got), 0);
		EXPECT(same_desc(&got, &descs[i]), "wrote %s, read %s",
		       desc_str(&descs[i], 0), desc_str(&got, 1));
		/* The bits after useable are zero, not left as they were. */
		EXPECT((((uint32_t *)&got)[3] & ~0x7fu) == 0, "unused bits %#x",
		       ((uint32_t *)&got)[3]);
	}
	clear_tls();
}

TEST(empty_and_zero_descriptors_clear_a_slot)
{
	for (int how = 0; how < 2; how++) {
		struct user_desc d = data_desc(6, &word_a), got = { .entry_number = 6 };
		struct user_desc zero = { .entry_number = 6 }, want = empty_desc(6);
		EXPECT_EQ(raw_set_thread_area(&d), 0);
		d = how ? zero : empty_desc(6);
		EXPECT_EQ(raw_set_thread_area(&d), 0);
		EXPECT_EQ(raw_get_thread_area(&got), 0);
		EXPECT(same_desc(&got, &want), "%s clear: read back %s",
		       how ? "all-zero" : "empty", desc_str(&got, 0));
	}
}

TEST(set_thread_area_errors)
{
	static const unsigned bad_entries[] = { 0, 1, 5, 9, 12, 23, 24, 0xffff, 0xfffffffe };
	struct user_desc keep = data_desc(6, &word_b), got = { .entry_number = 6 };

	EXPECT_EQ(raw_set_thread_area(&keep), 0);
	for (unsigned i = 0; i < sizeof(bad_entries) / sizeof(bad_entries[0]); i++) {
		struct user_desc d = data_desc(bad_entries[i], &word_a);
		long r = raw_set_thread_area(&d);
		EXPECT(r == -EINVAL, "entry %u: %s, want -EINVAL", bad_entries[i], t_val(r, t_b1_));
	}
	/* Refused as hardened Linux does (seed errata 6). */
	struct user_desc d16 = data_desc(6, &word_a), code = d16, code2 = d16, np = d16;
	d16.seg_32bit = 0;
	code.contents = 2;
	code2.contents = 3;
	np.seg_not_present = 1;
	EXPECT(raw_set_thread_area(&d16) == -EINVAL, "a 16-bit segment was accepted");
	EXPECT(raw_set_thread_area(&code) == -EINVAL, "a code segment was accepted");
	EXPECT(raw_set_thread_area(&code2) == -EINVAL, "a conforming code segment was accepted");
	EXPECT(raw_set_thread_area(&np) == -EINVAL, "a not-present segment was accepted");
	EXPECT_EQ(raw_get_thread_area(&got), 0);
	EXPECT(same_desc(&got, &keep), "a refused call changed slot 6 to %s",
	       desc_str(&got, 0));
	clear_tls();
}

TEST(get_thread_area_errors)
{
	static const unsigned bad_entries[] = { 0, 5, 9, 0xffffffff };

	for (unsigned i = 0; i < sizeof(bad_entries) / sizeof(bad_entries[0]); i++) {
		struct user_desc d = { .entry_number = bad_entries[i] };
		long r = raw_get_thread_area(&d);
		EXPECT(r == -EINVAL, "entry %#x: %s, want -EINVAL", bad_entries[i],
		       t_val(r, t_b1_));
	}
}

/* ---- across context switches ---- */

/* Each process points its segments at its own words and checks, after
 * every yield, that it still reads them. Returns the number of bad rounds
 * (capped at 255), or 200+ if set-up failed. */
static int tls_loop(long which)
{
	/* %gs and %fs in different slots from process to process. */
	static const unsigned gs_entry[] = { -1, 8, 7, -1 }, fs_entry[] = { 7, 7, 8, 8 };
	static uint32_t mine[2];
	struct user_desc g = data_desc(gs_entry[which], &mine[0]);
	struct user_desc f = data_desc(fs_entry[which], &mine[1]);
	int bad = 0;

	mine[0] = 0x6a000000 | (uint32_t)which << 8 | 0x11;
	mine[1] = 0xf0000000 | (uint32_t)which << 8 | 0x22;
	if (raw_set_thread_area(&g) || raw_set_thread_area(&f))
		return 200;
	set_gs(GDT_SEL(g.entry_number));
	set_fs(GDT_SEL(f.entry_number));
	for (int i = 0; i < ROUNDS; i++) {
		raw_sched_yield();
		if (gs_word() != mine[0] || fs_word() != mine[1] ||
		    get_gs() != GDT_SEL(g.entry_number) || get_fs() != GDT_SEL(f.entry_number))
			bad++;
	}
	return bad > 255 ? 255 : bad;
}

TEST(tls_survives_thousands_of_switches)
{
	long pids[3];
	int st;

	for (int i = 0; i < 3; i++) {
		pids[i] = raw_fork();
		if (pids[i] == 0)
			raw_exit_group(tls_loop(i));
	}
	int mine = tls_loop(3);         /* init too, at the same time */
	clear_tls();
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(raw_wait4(pids[i], &st, 0, NULL), pids[i]);
		EXPECT(st == EXITED(0), "process %d: %s (exit n: n rounds read a wrong "
		       "%%fs/%%gs)", i, t_status_str(st, t_b1_));
	}
	EXPECT(mine == 0, "init: %d rounds read a wrong %%fs/%%gs", mine);
}

TEST(rewriting_the_slot_in_use_takes_effect_at_once)
{
	struct user_desc d = data_desc(-1, &word_a);

	EXPECT_EQ(raw_set_thread_area(&d), 0);
	set_gs(GDT_SEL(d.entry_number));
	EXPECT_EQ(gs_word(), word_a);
	d.base_addr = (unsigned)&word_b;
	EXPECT_EQ(raw_set_thread_area(&d), 0);
	EXPECT_EQ(gs_word(), word_b);
	raw_sched_yield();
	EXPECT_EQ(gs_word(), word_b);
	clear_tls();
}

/* A slot cleared while %gs names it: the return to user mode must not
 * fault on the stale selector; %gs reads back 0. */
static int clear_slot_in_use(long zero_form)
{
	struct user_desc d = data_desc(-1, &word_c);
	CHECK(raw_set_thread_area(&d) == 0);
	set_gs(GDT_SEL(d.entry_number));
	CHECK(gs_word() == word_c);
	struct user_desc clear = zero_form ? (struct user_desc){ .entry_number = d.entry_number }
					   : empty_desc(d.entry_number);
	CHECK(raw_set_thread_area(&clear) == 0);
	CHECK(get_gs() == 0);                   /* not the cleared slot's selector */
	raw_sched_yield();
	CHECK(get_gs() == 0);
	return 0;
}

TEST(cleared_slot_in_gs_reads_back_0)
{
	long st = child_status(clear_slot_in_use, 0);
	EXPECT_STATUS(st, EXITED(0));
	st = child_status(clear_slot_in_use, 1);
	EXPECT_STATUS(st, EXITED(0));
}

static int read_inherited(long want_entry)
{
	struct user_desc got = { .entry_number = (unsigned)want_entry };
	CHECK(raw_get_thread_area(&got) == 0 && got.base_addr == (unsigned)&word_a);
	CHECK(get_gs() == (unsigned)GDT_SEL(want_entry) && gs_word() == word_a);
	return 0;
}

TEST(fork_inherits_tls)
{
	struct user_desc d = data_desc(-1, &word_a);

	EXPECT_EQ(raw_set_thread_area(&d), 0);
	set_gs(GDT_SEL(d.entry_number));
	long st = child_status(read_inherited, d.entry_number);
	clear_tls();
	EXPECT_STATUS(st, EXITED(0));
}

/* ---- the LDT ---- */
static uint32_t ldt_word = 0x1d7d1d7d;

TEST(modify_ldt_write_and_read)
{
	struct user_desc d = data_desc(0, &ldt_word);
	uint32_t raw[4];

	memset(raw, 0xee, sizeof(raw));
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE, &d, sizeof(d)), 0);
	set_fs(LDT_SEL(0));
	EXPECT_EQ(fs_word(), ldt_word);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, raw, sizeof(raw)), sizeof(raw));
	uint32_t lo = raw[0], hi = raw[1];
	uint32_t base = lo >> 16 | (hi & 0xff) << 16 | (hi & 0xff000000);
	uint32_t limit = (lo & 0xffff) | (hi & 0xf0000);
	EXPECT(base == (uint32_t)&ldt_word && limit == 0xfffff,
	       "entry 0 reads back base %#x limit %#x", base, limit);
	/* present, DPL 3, data, writable (accessed may be set: we loaded
	 * it); D/B (bit 22) and G (bit 23). */
	EXPECT((hi & 0xfe00) == 0xf200 && (hi & 0x00c00000) == 0x00c00000,
	       "entry 0 flags %#x", hi);
	EXPECT(raw[2] == 0 && raw[3] == 0, "the bytes past the last entry are not zeroed");
	set_fs(0);
}

static int ldt_loop(long which)
{
	static uint32_t mine;
	struct user_desc d = data_desc(0, &mine);
	int bad = 0;

	mine = 0x1d700000 | (uint32_t)which;
	if (raw_modify_ldt(MODIFY_LDT_WRITE, &d, sizeof(d)))
		return 200;
	set_fs(LDT_SEL(0));
	for (int i = 0; i < ROUNDS; i++) {
		raw_sched_yield();
		if (fs_word() != mine)
			bad++;
	}
	return bad > 255 ? 255 : bad;
}

TEST(ldt_survives_thousands_of_switches)
{
	long pids[3];
	int st;

	for (int i = 0; i < 3; i++) {
		pids[i] = raw_fork();
		if (pids[i] == 0)
			raw_exit_group(ldt_loop(i));
	}
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(raw_wait4(pids[i], &st, 0, NULL), pids[i]);
		EXPECT(st == EXITED(0), "process %d: %s (exit n: n rounds read a wrong %%fs)",
		       i, t_status_str(st, t_b1_));
	}
}

static int read_ldt_inherited(long unused)
{
	(void)unused;
	CHECK(get_fs() == LDT_SEL(0) && fs_word() == ldt_word);
	return 0;
}

TEST(fork_inherits_the_ldt)
{
	struct user_desc d = data_desc(0, &ldt_word);

	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE_OLD, &d, sizeof(d)), 0);
	set_fs(LDT_SEL(0));
	long st = child_status(read_ldt_inherited, 0);
	set_fs(0);
	EXPECT_STATUS(st, EXITED(0));
}

TEST(modify_ldt_errors)
{
	struct user_desc d = data_desc(1, &ldt_word);
	struct user_desc d16 = d, conforming = d, big = d;
	uint32_t raw[4];

	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE, &d, 15), -EINVAL);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE, &d, 17), -EINVAL);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE_OLD, &d, 0), -EINVAL);
	big.entry_number = LDT_ENTRIES;
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE, &big, sizeof(big)), -EINVAL);
	d16.seg_32bit = 0;
	conforming.contents = 3;        /* present conforming code: Linux says no */
	EXPECT(raw_modify_ldt(MODIFY_LDT_WRITE, &d16, sizeof(d)) == -EINVAL,
	       "a 16-bit LDT segment was accepted (no espfix: CVE-2014-8133)");
	EXPECT(raw_modify_ldt(MODIFY_LDT_WRITE, &conforming, sizeof(d)) == -EINVAL,
	       "a present conforming LDT code segment was accepted");
	EXPECT_EQ(raw_modify_ldt(3, raw, sizeof(raw)), -ENOSYS);
	/* None of them wrote entry 1. */
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, raw, sizeof(raw)), sizeof(raw));
	EXPECT(raw[2] == 0 && raw[3] == 0, "entry 1 was written: %#x %#x", raw[2], raw[3]);
}

TEST(empty_ldt_entry_clears_it)
{
	struct user_desc d = data_desc(0, &ldt_word), e = empty_desc(0);
	uint32_t raw[2];

	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE, &d, sizeof(d)), 0);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_WRITE, &e, sizeof(e)), 0);
	EXPECT_EQ(raw_modify_ldt(MODIFY_LDT_READ, raw, sizeof(raw)), sizeof(raw));
	EXPECT(raw[0] == 0 && raw[1] == 0, "entry 0 after clearing: %#x %#x", raw[0], raw[1]);
}

int main(void)
{
	RUN(set_thread_area_allocates_the_lowest_free_slot);
	RUN(get_thread_area_round_trip);
	RUN(empty_and_zero_descriptors_clear_a_slot);
	RUN(set_thread_area_errors);
	RUN(get_thread_area_errors);
	RUN(tls_survives_thousands_of_switches);
	RUN(rewriting_the_slot_in_use_takes_effect_at_once);
	RUN(cleared_slot_in_gs_reads_back_0);
	RUN(fork_inherits_tls);
	RUN(modify_ldt_write_and_read);
	RUN(ldt_survives_thousands_of_switches);
	RUN(fork_inherits_the_ldt);
	RUN(modify_ldt_errors);
	RUN(empty_ldt_entry_clears_it);
	return t_exit_code();
}
