/* tests/unit/test_desc.c - descriptor encoding (arch/i386/desc.c) against
 * the SDM layout, the seed's GDT and errata 2, 5 and 6. */
#include "tests/unit/unit.h"
#include "arch/i386/desc.h"
#include "arch/i386/segment.h"

#include <stdint.h>

/* The struct as its four words, to see the bits no field names. */
union user_desc_words {
	struct user_desc u;
	uint32_t w[4];
};

#define USER_DESC_FLAG_BITS 0x7fu   /* 1+2+1+1+1+1 bits of fields */

static const uint32_t test_bases[] = { 0, 0xffffffff, 0x12345678, 0x00ff00ff };
static const uint32_t test_limits[] = { 0, 0xfffff, 0xabcde, 1 };

static uint64_t quad(struct desc d)
{
	return (uint64_t)d.b << 32 | d.a;
}

static struct user_desc make_user(uint32_t base, uint32_t limit, unsigned bits)
{
	struct user_desc u = { 0 };

	u.entry_number = GDT_ENTRY_TLS_MIN;
	u.base_addr = base;
	u.limit = limit;
	u.seg_32bit = bits & 1;
	u.contents = (bits >> 1) & 3;
	u.read_exec_only = (bits >> 3) & 1;
	u.limit_in_pages = (bits >> 4) & 1;
	u.seg_not_present = (bits >> 5) & 1;
	u.useable = (bits >> 6) & 1;
	return u;
}

static bool user_desc_same(const struct user_desc *x, const struct user_desc *y)
{
	return x->entry_number == y->entry_number &&
	       x->base_addr == y->base_addr && x->limit == y->limit &&
	       x->seg_32bit == y->seg_32bit && x->contents == y->contents &&
	       x->read_exec_only == y->read_exec_only &&
	       x->limit_in_pages == y->limit_in_pages &&
	       x->seg_not_present == y->seg_not_present &&
	       x->useable == y->useable;
}

/* Encodes u as the kernel does, through modify_ldt's rules (func 0x11):
 * every 32-bit descriptor is installed but present conforming code. */
static struct desc encode(const struct user_desc *u)
{
	struct desc d = { 0xdeadbeef, 0xdeadbeef };

	CHECK_EQ_U(user_desc_to_ldt(u, false, &d), 0);
	return d;
}

/* Decodes into a struct pre-filled with 0xff bytes (erratum 5). */
static union user_desc_words decode_dirty(struct desc d, unsigned entry)
{
	union user_desc_words out;

	for (int i = 0; i < 4; i++)
		out.w[i] = 0xffffffff;
	desc_to_user(&d, entry, &out.u);
	return out;
}

TEST(flat_matches_seed_gdt)
{
	/* tls-2.5.31-D9 head.S cpu_gdt_table */
	CHECK_EQ_U(quad(desc_flat(1, 0)), 0x00cf9a000000ffffull);
	CHECK_EQ_U(quad(desc_flat(0, 0)), 0x00cf92000000ffffull);
	CHECK_EQ_U(quad(desc_flat(1, 3)), 0x00cffa000000ffffull);
	CHECK_EQ_U(quad(desc_flat(0, 3)), 0x00cff2000000ffffull);
}

TEST(system_descriptors)
{
	struct desc tss = desc_system(0x12345678, 0x67, DESC_TYPE_TSS32);
	struct desc ldt = desc_system(0xc0101000, 0xffff, DESC_TYPE_LDT);

	/* Type byte 0x89 and 0x82 as the seed's _set_tssldt_desc. */
	CHECK_EQ_U(tss.a, 0x56780067);
	CHECK_EQ_U(tss.b, 0x12008934);
	CHECK_EQ_U(ldt.a, 0x1000ffff);
	CHECK_EQ_U(ldt.b, 0xc0008210);
	CHECK_EQ_U(desc_base(&tss), 0x12345678);
	CHECK_EQ_U(desc_limit(&tss), 0x67);
	CHECK_EQ_U(desc_base(&ldt), 0xc0101000);
	CHECK_EQ_U(desc_limit(&ldt), 0xffff);
}

TEST(base_and_limit_decode)
{
	struct desc d = { 0x5678ffff, 0x12dff234 };
	struct desc flat = desc_flat(0, 3);

	CHECK_EQ_U(desc_base(&d), 0x12345678);
	CHECK_EQ_U(desc_limit(&d), 0xfffff);
	CHECK_EQ_U(desc_base(&flat), 0);
	CHECK_EQ_U(desc_limit(&flat), 0xfffff);
}

TEST(every_field_combination_round_trips)
{
	for (unsigned i = 0; i < sizeof(test_bases) / sizeof(test_bases[0]); i++)
		for (unsigned j = 0; j < sizeof(test_limits) / sizeof(test_limits[0]); j++)
			for (unsigned bits = 0; bits < 128; bits++) {
				struct user_desc u = make_user(test_bases[i],
							       test_limits[j], bits);
				/* 16-bit and present conforming code are
				 * refused (ldt_accepts_what_linux_accepts). */
				if (!u.seg_32bit || (u.contents == 3 && !u.seg_not_present))
					continue;
				struct desc d = encode(&u);
				union user_desc_words back =
					decode_dirty(d, u.entry_number);

				CHECK(user_desc_same(&back.u, &u));
				CHECK_EQ_U(back.w[3] & ~USER_DESC_FLAG_BITS, 0);
				/* LDT_entry_b's 0x7000: S = 1, DPL 3. */
				CHECK_EQ_U(d.b & 0x7000, 0x7000);
			}
}

TEST(entry_number_is_set_separately)
{
	struct user_desc u = make_user(0x1000, 0xfff, 0x11);
	struct desc d = encode(&u);

	CHECK_EQ_U(decode_dirty(d, 8).u.entry_number, 8);
	CHECK_EQ_U(decode_dirty(d, 0xffffffffu).u.entry_number, 0xffffffffu);
}

TEST(erratum2_db_bit22_g_bit23_independent)
{
	struct user_desc only32 = make_user(0, 0xfffff, 0x01);
	struct user_desc pages32 = make_user(0, 0xfffff, 0x01 | 0x10);
	struct desc d32 = encode(&only32);
	struct desc dpg = encode(&pages32);

	CHECK_EQ_U(d32.b & (DESC_B_DB | DESC_B_G), 1u << 22);
	CHECK_EQ_U(dpg.b & (DESC_B_DB | DESC_B_G), (1u << 22) | (1u << 23));

	/* Raw descriptors with just one of the two bits. D9's GET_32BIT read
	 * bit 23 and would report seg_32bit = 1 for the second one. */
	struct desc raw22 = { 0, DESC_B_PRESENT | DESC_B_S | (1u << 22) };
	struct desc raw23 = { 0, DESC_B_PRESENT | DESC_B_S | (1u << 23) };
	union user_desc_words a = decode_dirty(raw22, 6);
	union user_desc_words b = decode_dirty(raw23, 6);

	CHECK_EQ_U(a.u.seg_32bit, 1);
	CHECK_EQ_U(a.u.limit_in_pages, 0);
	CHECK_EQ_U(b.u.seg_32bit, 0);
	CHECK_EQ_U(b.u.limit_in_pages, 1);
}

TEST(erratum5_unused_bits_zero)
{
	struct desc all_ones = { 0xffffffff, 0xffffffff };
	struct desc empty = { 0, 0 };
	union user_desc_words full = decode_dirty(all_ones, 7);
	union user_desc_words cleared = decode_dirty(empty, 7);

	/* Every flag set but read_exec_only and seg_not_present (their
	 * descriptor bits are set, so the flags are 0), nothing else. */
	CHECK_EQ_U(full.w[3], 0x01 | 0x06 | 0x10 | 0x40);
	CHECK_EQ_U(full.u.base_addr, 0xffffffff);
	CHECK_EQ_U(full.u.limit, 0xfffff);
	CHECK_EQ_U(cleared.w[3] & ~USER_DESC_FLAG_BITS, 0);
	CHECK_EQ_U(cleared.w[1], 0);
	CHECK_EQ_U(cleared.w[2], 0);
}

TEST(empty_slot_reads_back_as_ldt_empty)
{
	struct desc empty = { 0, 0 };
	union user_desc_words u = decode_dirty(empty, 6);

	CHECK(user_desc_empty(&u.u));
	CHECK(!user_desc_zero(&u.u));
	CHECK_EQ_U(u.u.entry_number, 6);
	CHECK_EQ_U(u.u.read_exec_only, 1);
	CHECK_EQ_U(u.u.seg_not_present, 1);
	CHECK_EQ_U(u.w[3], 0x08 | 0x20);
}

TEST(empty_and_zero_predicates)
{
	struct user_desc empty = make_user(0, 0, 0x08 | 0x20);
	struct user_desc zero = make_user(0, 0, 0);
	unsigned nempty = 0, nzero = 0;

	CHECK(user_desc_empty(&empty));
	CHECK(user_desc_zero(&zero));
	/* Exactly one combination of each, and only with base = limit = 0. */
	for (unsigned i = 0; i < sizeof(test_bases) / sizeof(test_bases[0]); i++)
		for (unsigned j = 0; j < sizeof(test_limits) / sizeof(test_limits[0]); j++)
			for (unsigned bits = 0; bits < 128; bits++) {
				struct user_desc u = make_user(test_bases[i],
							       test_limits[j], bits);
				nempty += user_desc_empty(&u);
				nzero += user_desc_zero(&u);
			}
	CHECK_EQ_U(nempty, 1);
	CHECK_EQ_U(nzero, 1);
	/* entry_number does not matter. */
	empty.entry_number = zero.entry_number = 0xffffffffu;
	CHECK(user_desc_empty(&empty));
	CHECK(user_desc_zero(&zero));
}

TEST(tls_hand_computed_words)
{
	/* base 0x12345678, limit 0xfffff in pages, 32-bit writable data,
	 * useable. a = base[15:0] << 16 | limit[15:0] = 0x5678ffff.
	 * b = base[31:24] 0x12000000 | G 0x800000 | D/B 0x400000 |
	 *     AVL 0x100000 | limit[19:16] 0xf0000 | P 0x8000 | DPL3 0x6000 |
	 *     S 0x1000 | W 0x200 | base[23:16] 0x34 = 0x12dff234. */
	struct user_desc u = make_user(0x12345678, 0xfffff, 0x01 | 0x10 | 0x40);
	struct desc d = { 1, 1 };

	CHECK_EQ_I(user_desc_to_tls(&u, &d), 0);
	CHECK_EQ_U(d.a, 0x5678ffff);
	CHECK_EQ_U(d.b, 0x12dff234);

	/* base 0, limit 0xabcde bytes, read-only expand-down 32-bit data:
	 * a = 0x0000bcde; b = D/B 0x400000 | limit 0xa0000 | P 0x8000 |
	 * 0x7000 | contents 1 << 10 = 0x004af400. */
	u = make_user(0, 0xabcde, 0x01 | 0x02 | 0x08);
	CHECK_EQ_I(user_desc_to_tls(&u, &d), 0);
	CHECK_EQ_U(d.a, 0x0000bcde);
	CHECK_EQ_U(d.b, 0x004af400);
}

TEST(erratum6_tls_refuses_16bit_code_not_present)
{
	struct desc d = { 0x11111111, 0x22222222 };
	struct user_desc u;

	u = make_user(0x1000, 0xfffff, 0x10);               /* 16-bit */
	CHECK_EQ_I(user_desc_to_tls(&u, &d), -EINVAL);
	u = make_user(0x1000, 0xfffff, 0x01 | (2 << 1));    /* code */
	CHECK_EQ_I(user_desc_to_tls(&u, &d), -EINVAL);
	u = make_user(0x1000, 0xfffff, 0x01 | (3 << 1));    /* conforming code */
	CHECK_EQ_I(user_desc_to_tls(&u, &d), -EINVAL);
	u = make_user(0x1000, 0xfffff, 0x01 | 0x20);        /* not present */
	CHECK_EQ_I(user_desc_to_tls(&u, &d), -EINVAL);
	/* A refused descriptor leaves *out alone. */
	CHECK_EQ_U(d.a, 0x11111111);
	CHECK_EQ_U(d.b, 0x22222222);
}

TEST(erratum6_empty_and_zero_clear)
{
	struct user_desc empty = make_user(0, 0, 0x08 | 0x20);
	struct user_desc zero = make_user(0, 0, 0);
	struct desc d = { 0xffffffff, 0xffffffff };

	CHECK_EQ_I(user_desc_to_tls(&empty, &d), 0);
	CHECK_EQ_U(quad(d), 0);
	d.a = d.b = 0xffffffff;
	CHECK_EQ_I(user_desc_to_tls(&zero, &d), 0);
	CHECK_EQ_U(quad(d), 0);
	CHECK(desc_empty(&d));
}

/* Everything user_desc_to_tls accepts reads back as written, and it
 * accepts exactly the present 32-bit data segments. */
TEST(tls_accepts_exactly_present_32bit_data)
{
	for (unsigned i = 0; i < sizeof(test_bases) / sizeof(test_bases[0]); i++)
		for (unsigned j = 0; j < sizeof(test_limits) / sizeof(test_limits[0]); j++)
			for (unsigned bits = 0; bits < 128; bits++) {
				struct user_desc u = make_user(test_bases[i],
							       test_limits[j], bits);
				bool clears = user_desc_empty(&u) || user_desc_zero(&u);
				bool ok = u.seg_32bit && u.contents <= 1 &&
					  !u.seg_not_present;
				struct desc d = { 0, 0 };
				int rc = user_desc_to_tls(&u, &d);

				CHECK_EQ_I(rc, clears || ok ? 0 : -EINVAL);
				if (rc == 0 && !clears) {
					union user_desc_words back =
						decode_dirty(d, u.entry_number);
					CHECK(user_desc_same(&back.u, &u));
					CHECK(!desc_empty(&d));
				}
			}
}

TEST(limit_above_20_bits_is_cut_as_in_the_seed)
{
	struct user_desc u = make_user(0, 0xfff12345, 0x01);
	struct desc d = encode(&u);

	CHECK_EQ_U(desc_limit(&d), 0x12345);
}

/* modify_ldt's rules (user_desc_to_ldt, Linux 6.1's write_ldt without
 * CONFIG_X86_16BIT), over every flag combination: clear on LDT_empty, or
 * on base = limit = 0 in old mode; refuse present conforming code (and
 * any conforming code in old mode), then anything 16-bit; accept the
 * rest as written (old mode without "useable"), always S = 1, DPL 3. */
TEST(ldt_accepts_what_linux_accepts)
{
	for (int oldmode = 0; oldmode < 2; oldmode++)
	for (unsigned i = 0; i < sizeof(test_bases) / sizeof(test_bases[0]); i++)
		for (unsigned j = 0; j < sizeof(test_limits) / sizeof(test_limits[0]); j++)
			for (unsigned bits = 0; bits < 128; bits++) {
				struct user_desc u = make_user(test_bases[i],
							       test_limits[j], bits);
				bool conforming_bad = u.contents == 3 &&
						      (oldmode || !u.seg_not_present);
				bool clears = user_desc_empty(&u) ||
					      (oldmode && !u.base_addr && !u.limit);
				bool ok = !conforming_bad && (clears || u.seg_32bit);
				struct desc d = { 0x1111, 0x2222 };
				int rc = user_desc_to_ldt(&u, oldmode, &d);

				CHECK_EQ_I(rc, ok ? 0 : -EINVAL);
				if (rc != 0)
					continue;
				if (clears) {
					CHECK(desc_empty(&d));
					continue;
				}
				CHECK_EQ_U(d.b & (DESC_B_S | DESC_B_DPL3), DESC_B_S | DESC_B_DPL3);
				if (oldmode)
					u.useable = 0;
				union user_desc_words back = decode_dirty(d, u.entry_number);
				CHECK(user_desc_same(&back.u, &u));
			}
}
