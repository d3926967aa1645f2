/* tests/unit/test_madt.c - the firmware table parsers of
 * arch/i386/acpi_tables.c on the host: the RSDP scan, table headers,
 * RSDT/XSDT entries, the MADT and the MP table, with tables built by hand
 * (checksums fixed up by the helpers), the tables QEMU 7.2 / SeaBIOS
 * really gives (dumped from guest memory), and corrupt ones: bad
 * checksums, lengths that run past the buffer, entries of length 0.
 *
 * Every table is copied into a heap block of exactly its length, so ASan
 * reports any read past the end. */
#include "tests/unit/unit.h"
#include "arch/i386/acpi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers ---- */

static uint8_t *exact_copy(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);
	memcpy(p, src, len);
	return p;
}

static void put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(uint8_t *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* Sets the byte at p[at] so that p[0..len) sums to 0. */
static void fix_sum(uint8_t *p, size_t len, size_t at)
{
	uint8_t s = 0;

	p[at] = 0;
	for (size_t i = 0; i < len; i++)
		s = (uint8_t)(s + p[i]);
	p[at] = (uint8_t)-s;
}

/* A table under construction: a header, then entries appended. */
struct tbl {
	uint8_t b[1024];
	size_t len;
};

static void sdt_begin(struct tbl *t, const char *sig)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->b, sig, 4);
	t->b[8] = 1;                            /* revision */
	memcpy(t->b + 10, "SPNDLE", 6);
	t->len = ACPI_SDT_HEADER_LEN;
}

static void add(struct tbl *t, const uint8_t *bytes, size_t n)
{
	memcpy(t->b + t->len, bytes, n);
	t->len += n;
}

static void sdt_end(struct tbl *t)
{
	put32(t->b + 4, (uint32_t)t->len);
	fix_sum(t->b, t->len, 9);
}

static void madt_begin(struct tbl *t, uint32_t lapic, uint32_t flags)
{
	uint8_t fixed[8];

	sdt_begin(t, "APIC");
	put32(fixed, lapic);
	put32(fixed + 4, flags);
	add(t, fixed, 8);
}

static void madt_cpu(struct tbl *t, uint8_t uid, uint8_t apic, uint32_t flags)
{
	uint8_t e[8] = { 0, 8, uid, apic };
	put32(e + 4, flags);
	add(t, e, 8);
}

static void madt_ioapic(struct tbl *t, uint8_t id, uint32_t addr, uint32_t gsi)
{
	uint8_t e[12] = { 1, 12, id, 0 };
	put32(e + 4, addr);
	put32(e + 8, gsi);
	add(t, e, 12);
}

static void madt_iso(struct tbl *t, uint8_t irq, uint32_t gsi, uint16_t flags)
{
	uint8_t e[10] = { 2, 10, 0, irq };
	put32(e + 4, gsi);
	put16(e + 8, flags);
	add(t, e, 10);
}

static int parse_madt(struct tbl *t, struct smp_config *cfg)
{
	uint8_t *p = exact_copy(t->b, t->len);
	int len = acpi_sdt_check(p, t->len, "APIC");
	int r = len < 0 ? -2 : madt_parse(p, (size_t)len, cfg);
	free(p);
	return r;
}

/* ---- what QEMU 7.2 + SeaBIOS 1.16 give for -smp 4 -m 128 ---- */

/* The MADT (it sat at 0x7fe1aff: not even 4-byte aligned). */
static const char qemu_madt_hex[] =
	"4150494390000000014b424f4348532042585043202020200100000042585043"
	"010000000000e0fe010000000008000001000000000801010100000000080202"
	"010000000008030301000000010c00000000c0fe00000000020a000002000000"
	"0000020a0005050000000d00020a0009090000000d00020a000a0a0000000d00"
	"020a000b0b0000000d000406ff000001";

/* The MP configuration table: one processor entry for the one package. */
static const char qemu_mp_hex[] =
	"50434d50d00004e9424f434853435055302e3120202020202020202000000000"
	"000013000000e0fe000000000000140363060000fdab81170000000000000000"
	"01005043492020200101495341202020020011010000c0fe0300010000040009"
	"03000100000c000b030000000100000203000000010100010300000001030003"
	"030000000104000403000000010600060300000001070007030000000108000803"
	"000000010c000c03000000010d000d03000000010e000e03000000010f000f04"
	"03000001000000040100000100ff01";

static size_t from_hex(const char *hex, uint8_t *out)
{
	size_t n = 0;

	for (; hex[0] && hex[1]; hex += 2) {
		char two[3] = { hex[0], hex[1], 0 };
		out[n++] = (uint8_t)strtoul(two, NULL, 16);
	}
	return n;
}

TEST(qemu_madt_four_cpus_and_irq0_on_gsi2)
{
	uint8_t raw[256];
	size_t n = from_hex(qemu_madt_hex, raw);
	uint8_t *p = exact_copy(raw, n);
	struct smp_config cfg;

	CHECK_EQ_I(acpi_sdt_check(p, n, "APIC"), 144);
	CHECK_EQ_I(madt_parse(p, n, &cfg), 0);
	CHECK_EQ_U(cfg.lapic_phys, 0xfee00000);
	CHECK_EQ_I(cfg.ncpus, 4);
	CHECK_EQ_I(cfg.ncpus_listed, 4);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U(cfg.apic_ids[i], (unsigned)i);
	CHECK(cfg.have_ioapic);
	CHECK_EQ_U(cfg.ioapic_phys, 0xfec00000);
	CHECK_EQ_U(cfg.ioapic_id, 0);
	CHECK(cfg.pcat_compat);
	CHECK_EQ_U(cfg.isa[0].gsi, 2);          /* the PIT: pin 2 */
	CHECK_EQ_U(cfg.isa[0].flags, 0);
	CHECK_EQ_U(cfg.isa[1].gsi, 1);          /* no override: identity */
	CHECK_EQ_U(cfg.isa[9].gsi, 9);          /* ACPI SCI: level, high */
	CHECK_EQ_U(cfg.isa[9].flags, INTI_TRIGGER_LEVEL | INTI_POLARITY_HIGH);
	CHECK_EQ_U(cfg.isa[4].flags, 0);        /* COM1: as ISA, edge/high */
	free(p);
}

TEST(qemu_mp_table_one_package_then_siblings)
{
	uint8_t raw[256];
	size_t n = from_hex(qemu_mp_hex, raw);
	uint8_t *p = exact_copy(raw, n);
	struct smp_config cfg;

	CHECK_EQ_U(n, 208);
	CHECK_EQ_U(mp_config_length(p), 208);
	CHECK_EQ_I(mp_config_parse(p, n, &cfg), 0);
	CHECK_EQ_U(cfg.lapic_phys, 0xfee00000);
	CHECK_EQ_I(cfg.ncpus, 1);
	CHECK(cfg.have_ioapic);
	CHECK_EQ_U(cfg.ioapic_phys, 0xfec00000);
	CHECK_EQ_U(cfg.isa[0].gsi, 2);          /* ISA IRQ 0 -> INTIN 2 */
	CHECK_EQ_U(cfg.isa[4].gsi, 4);
	/* IRQ 9's entry is on bus 0, PCI (flags 1): not an ISA route. */
	CHECK_EQ_U(cfg.isa[9].gsi, 9);
	CHECK_EQ_U(cfg.isa[9].flags, 0);
	/* CPUID.1:EBX[23:16] = 4 on QEMU -smp 4: ids 0..3. */
	mp_add_siblings(&cfg, 4);
	CHECK_EQ_I(cfg.ncpus, 4);
	for (int i = 0; i < 4; i++)
		CHECK_EQ_U(cfg.apic_ids[i], (unsigned)i);
	free(p);
}

/* ---- the RSDP ---- */

static void make_rsdp(uint8_t *p, uint8_t rev, uint32_t rsdt, uint64_t xsdt)
{
	memset(p, 0, 36);
	memcpy(p, "RSD PTR ", 8);
	memcpy(p + 9, "SPNDLE", 6);
	p[15] = rev;
	put32(p + 16, rsdt);
	fix_sum(p, 20, 8);
	if (rev >= 2) {
		put32(p + 20, 36);
		put64(p + 24, xsdt);
		fix_sum(p, 36, 32);
	}
}

TEST(rsdp_found_on_a_16_byte_boundary)
{
	uint8_t area[256] = { 0 };
	struct acpi_rsdp_info r;
	uint8_t *p;

	make_rsdp(area + 8, 0, 0x1234, 0);          /* not aligned: ignored */
	make_rsdp(area + 96, 0, 0x7fe14b0, 0);
	p = exact_copy(area, sizeof(area));
	CHECK_EQ_I(acpi_rsdp_scan(p, sizeof(area), &r), 96);
	CHECK_EQ_U(r.rsdt_phys, 0x7fe14b0);
	CHECK_EQ_U(r.xsdt_phys, 0);
	free(p);
}

TEST(rsdp_bad_checksum_skipped)
{
	uint8_t area[128] = { 0 };
	struct acpi_rsdp_info r;

	make_rsdp(area, 0, 0x1000, 0);
	area[19] ^= 1;                              /* break the first */
	make_rsdp(area + 64, 0, 0x2000, 0);
	CHECK_EQ_I(acpi_rsdp_scan(area, sizeof(area), &r), 64);
	CHECK_EQ_U(r.rsdt_phys, 0x2000);
	area[64 + 16] ^= 1;
	CHECK_EQ_I(acpi_rsdp_scan(area, sizeof(area), &r), -1);
}

TEST(rsdp_v2_extended_checksum_and_length)
{
	uint8_t area[64] = { 0 };
	struct acpi_rsdp_info r;
	uint8_t *p;

	make_rsdp(area, 2, 0x1000, 0x2000);
	CHECK_EQ_I(acpi_rsdp_scan(area, sizeof(area), &r), 0);
	CHECK_EQ_U(r.revision, 2);
	CHECK_EQ_U(r.xsdt_phys, 0x2000);
	area[33] = 0x55;                            /* extended checksum off */
	CHECK_EQ_I(acpi_rsdp_scan(area, sizeof(area), &r), -1);

	make_rsdp(area, 2, 0x1000, 0x2000);
	put32(area + 20, 4096);                     /* runs past the buffer */
	fix_sum(area, 20, 8);
	CHECK_EQ_I(acpi_rsdp_scan(area, sizeof(area), &r), -1);

	/* A v2 RSDP cut off by the end of the area. */
	make_rsdp(area, 2, 0x1000, 0x2000);
	p = exact_copy(area, 24);
	CHECK_EQ_I(acpi_rsdp_scan(p, 24, &r), -1);
	free(p);
}

/* ---- table headers and the RSDT / XSDT ---- */

TEST(sdt_header_checks)
{
	struct tbl t;
	uint8_t *p;

	sdt_begin(&t, "RSDT");
	sdt_end(&t);
	p = exact_copy(t.b, t.len);
	CHECK_EQ_I(acpi_sdt_check(p, t.len, "RSDT"), 36);
	CHECK_EQ_I(acpi_sdt_check(p, t.len, "XSDT"), -1);   /* signature */
	CHECK_EQ_I(acpi_sdt_check(p, t.len - 1, "RSDT"), -1);  /* too short */
	free(p);

	put32(t.b + 4, 35);                         /* under a header */
	fix_sum(t.b, 36, 9);
	CHECK_EQ_I(acpi_sdt_check(t.b, 36, "RSDT"), -1);
	put32(t.b + 4, 0xffffffff);                 /* past the buffer */
	fix_sum(t.b, 36, 9);
	CHECK_EQ_I(acpi_sdt_check(t.b, 36, "RSDT"), -1);
	put32(t.b + 4, 36);
	t.b[20] ^= 0x80;                            /* checksum off */
	CHECK_EQ_I(acpi_sdt_check(t.b, 36, "RSDT"), -1);
}

TEST(rsdt_and_xsdt_entries)
{
	struct tbl t;
	uint8_t e[8];
	uint32_t out[4];

	sdt_begin(&t, "RSDT");
	for (uint32_t a = 0x1000; a <= 0x3000; a += 0x1000) {
		put32(e, a);
		add(&t, e, 4);
	}
	sdt_end(&t);
	CHECK_EQ_I(acpi_sdt_entries(t.b, t.len, false, out, 4), 3);
	CHECK_EQ_U(out[2], 0x3000);
	CHECK_EQ_I(acpi_sdt_entries(t.b, t.len, false, out, 2), 2);   /* max */

	sdt_begin(&t, "XSDT");
	put64(e, 0x100000000ull);                   /* above 4 GiB: skipped */
	add(&t, e, 8);
	put64(e, 0x7fe0000);
	add(&t, e, 8);
	add(&t, e, 4);                              /* half an entry: ignored */
	sdt_end(&t);
	CHECK_EQ_I(acpi_sdt_entries(t.b, t.len, true, out, 4), 1);
	CHECK_EQ_U(out[0], 0x7fe0000);
}

/* ---- the MADT ---- */

TEST(madt_disabled_and_duplicate_cpus_dropped)
{
	struct tbl t;
	struct smp_config cfg;

	madt_begin(&t, 0xfee00000, 0);
	madt_cpu(&t, 0, 0, 1);
	madt_cpu(&t, 1, 2, 0);                      /* disabled */
	madt_cpu(&t, 2, 2, 2);                      /* online capable only */
	madt_cpu(&t, 3, 4, 1);
	madt_cpu(&t, 4, 4, 1);                      /* duplicate id */
	madt_ioapic(&t, 9, 0xfec00000, 0);
	sdt_end(&t);
	CHECK_EQ_I(parse_madt(&t, &cfg), 0);
	CHECK_EQ_I(cfg.ncpus, 2);
	CHECK_EQ_U(cfg.apic_ids[0], 0);
	CHECK_EQ_U(cfg.apic_ids[1], 4);
	CHECK(!cfg.pcat_compat);
	CHECK_EQ_U(cfg.ioapic_id, 9);
}

TEST(madt_more_cpus_than_room_are_counted)
{
	struct tbl t;
	struct smp_config cfg;

	madt_begin(&t, 0xfee00000, 1);
	for (int i = 0; i < 12; i++)
		madt_cpu(&t, (uint8_t)i, (uint8_t)(i * 2), 1);
	sdt_end(&t);
	CHECK_EQ_I(parse_madt(&t, &cfg), 0);
	CHECK_EQ_I(cfg.ncpus, SMPCFG_MAX_CPUS);
	CHECK_EQ_I(cfg.ncpus_listed, 12);
	CHECK_EQ_U(cfg.apic_ids[SMPCFG_MAX_CPUS - 1], (SMPCFG_MAX_CPUS - 1) * 2);
}

TEST(madt_overrides_and_second_ioapic)
{
	struct tbl t;
	struct smp_config cfg;
	uint8_t lapic_override[12] = { 5, 12 };

	madt_begin(&t, 0xfee00000, 1);
	madt_cpu(&t, 0, 0, 1);
	madt_ioapic(&t, 3, 0xfec01000, 24);         /* not ISA's: ignored */
	madt_ioapic(&t, 2, 0xfec00000, 0);
	madt_iso(&t, 0, 2, 0);
	madt_iso(&t, 9, 20, INTI_TRIGGER_LEVEL | INTI_POLARITY_LOW);
	madt_iso(&t, 16, 3, 0);                     /* not an ISA IRQ */
	put64(lapic_override + 4, 0xfee10000);
	add(&t, lapic_override, 12);
	sdt_end(&t);
	CHECK_EQ_I(parse_madt(&t, &cfg), 0);
	CHECK_EQ_I(cfg.nioapics, 2);
	CHECK_EQ_U(cfg.ioapic_id, 2);
	CHECK_EQ_U(cfg.ioapic_phys, 0xfec00000);
	CHECK_EQ_U(cfg.isa[0].gsi, 2);
	CHECK_EQ_U(cfg.isa[9].gsi, 20);
	CHECK_EQ_U(cfg.isa[9].flags, INTI_TRIGGER_LEVEL | INTI_POLARITY_LOW);
	CHECK_EQ_U(cfg.lapic_phys, 0xfee10000);
}

/* A MADT with one good CPU entry and then n bytes of tail: the result of
 * checking and parsing it. */
static int madt_with_tail(const uint8_t *tail, size_t n)
{
	struct tbl t;
	struct smp_config cfg;

	madt_begin(&t, 0xfee00000, 1);
	madt_cpu(&t, 0, 0, 1);
	add(&t, tail, n);
	sdt_end(&t);
	return parse_madt(&t, &cfg);
}

TEST(madt_corrupt_entries)
{
	const uint8_t zero_len[2] = { 0, 0 };           /* would loop forever */
	const uint8_t too_long[8] = { 0, 40, 1, 1, 1 }; /* says 40, has 8 */
	const uint8_t ioapic_short[6] = { 1, 6, 1 };    /* an IOAPIC entry is 12 */
	const uint8_t x2apic[16] = { 9, 16 };           /* fine: skipped */

	CHECK_EQ_I(madt_with_tail(zero_len, 2), -1);
	CHECK_EQ_I(madt_with_tail(too_long, 8), -1);
	CHECK_EQ_I(madt_with_tail(too_long, 1), -1);    /* half an entry header */
	CHECK_EQ_I(madt_with_tail(ioapic_short, 6), -1);
	CHECK_EQ_I(madt_with_tail(x2apic, 16), 0);
}

TEST(madt_length_past_the_buffer_refused)
{
	struct tbl t;
	struct smp_config cfg;

	madt_begin(&t, 0xfee00000, 1);
	sdt_end(&t);
	put32(t.b + 4, (uint32_t)t.len + 8);
	fix_sum(t.b, t.len, 9);
	CHECK_EQ_I(parse_madt(&t, &cfg), -2);       /* acpi_sdt_check says no */
	CHECK_EQ_I(madt_parse(t.b, 40, &cfg), -1);  /* under the fixed part */
}

/* ---- the MP table ---- */

static void mp_begin(struct tbl *t)
{
	memset(t, 0, sizeof(*t));
	memcpy(t->b, "PCMP", 4);
	t->b[6] = 4;
	memcpy(t->b + 8, "SPINDLE ", 8);
	put32(t->b + 36, 0xfee00000);
	t->len = MP_CONFIG_HEADER_LEN;
}

static void mp_end(struct tbl *t, int count)
{
	put16(t->b + 4, (uint16_t)t->len);
	put16(t->b + 34, (uint16_t)count);
	fix_sum(t->b, t->len, 7);
}

static void mp_cpu(struct tbl *t, uint8_t id, uint8_t flags)
{
	uint8_t e[20] = { 0, id, 0x14, flags };
	add(t, e, 20);
}

static void mp_entry8(struct tbl *t, const uint8_t *e)
{
	add(t, e, 8);
}

TEST(mp_floating_pointer_scan)
{
	uint8_t area[64] = { 0 };
	struct mp_fp_info fp;

	memcpy(area + 32, "_MP_", 4);
	put32(area + 36, 0xf5bb0);
	area[40] = 1;                               /* 16 bytes */
	area[41] = 4;
	area[44] = 0x80;                            /* IMCR present */
	fix_sum(area + 32, 16, 10);
	CHECK_EQ_I(mp_fp_scan(area, sizeof(area), &fp), 32);
	CHECK_EQ_U(fp.config_phys, 0xf5bb0);
	CHECK(fp.imcr);
	CHECK_EQ_U(fp.default_config, 0);
	area[40] = 4;                               /* 64 bytes: past the end */
	fix_sum(area + 32, 16, 10);
	CHECK_EQ_I(mp_fp_scan(area, sizeof(area), &fp), -1);
	area[40] = 1;
	fix_sum(area + 32, 16, 10);
	area[37] ^= 1;                              /* checksum off */
	CHECK_EQ_I(mp_fp_scan(area, sizeof(area), &fp), -1);
}

TEST(mp_config_cpus_ioapic_and_isa_routing)
{
	struct tbl t;
	struct smp_config cfg;
	uint8_t *p;
	/* Out of type order on purpose: the interrupt entry first. */
	const uint8_t irq0[8] = { 3, 0, 0, 0, 1, 0, 2, 2 };        /* ISA 0 -> pin 2 */
	const uint8_t irq9[8] = { 3, 0, 0x0f, 0, 1, 9, 0xff, 9 };  /* level, low */
	const uint8_t pci_irq[8] = { 3, 0, 0, 0, 0, 5, 2, 16 };    /* bus 0 is PCI */
	const uint8_t pci[8] = { 1, 0, 'P', 'C', 'I', ' ', ' ', ' ' };
	const uint8_t isa[8] = { 1, 1, 'I', 'S', 'A', ' ', ' ', ' ' };
	const uint8_t ioapic_off[8] = { 2, 7, 0x11, 0, 0, 0x10, 0xc0, 0xfe };
	const uint8_t ioapic[8] = { 2, 2, 0x11, 1, 0, 0, 0xc0, 0xfe };

	mp_begin(&t);
	mp_entry8(&t, irq0);
	mp_cpu(&t, 0, 3);                           /* enabled, BP */
	mp_cpu(&t, 1, 0);                           /* disabled */
	mp_cpu(&t, 6, 1);
	mp_entry8(&t, pci);
	mp_entry8(&t, isa);
	mp_entry8(&t, ioapic_off);
	mp_entry8(&t, ioapic);
	mp_entry8(&t, irq9);
	mp_entry8(&t, pci_irq);
	mp_end(&t, 9);
	p = exact_copy(t.b, t.len);
	CHECK_EQ_I(mp_config_parse(p, t.len, &cfg), 0);
	CHECK_EQ_I(cfg.ncpus, 2);
	CHECK_EQ_U(cfg.apic_ids[1], 6);
	CHECK_EQ_U(cfg.ioapic_id, 2);
	CHECK_EQ_U(cfg.ioapic_phys, 0xfec00000);
	CHECK_EQ_I(cfg.nioapics, 2);
	CHECK_EQ_U(cfg.isa[0].gsi, 2);
	CHECK_EQ_U(cfg.isa[9].flags, 0x0f);
	CHECK_EQ_U(cfg.isa[5].gsi, 5);              /* the PCI entry left it */
	free(p);

	/* Siblings: ids 0 and 6 with 2 per package give 0 1 6 7. */
	mp_add_siblings(&cfg, 2);
	CHECK_EQ_I(cfg.ncpus, 4);
	CHECK_EQ_U(cfg.apic_ids[1], 1);
	CHECK_EQ_U(cfg.apic_ids[3], 7);
}

TEST(mp_config_corrupt)
{
	struct tbl t;
	struct smp_config cfg;
	const uint8_t unknown[8] = { 9 };

	mp_begin(&t);
	mp_cpu(&t, 0, 3);
	mp_end(&t, 1);
	CHECK_EQ_I(mp_config_parse(t.b, t.len, &cfg), 0);
	CHECK_EQ_I(mp_config_parse(t.b, t.len - 1, &cfg), -1);  /* past avail */
	t.b[50] ^= 1;                                           /* checksum */
	CHECK_EQ_I(mp_config_parse(t.b, t.len, &cfg), -1);

	mp_begin(&t);
	mp_cpu(&t, 0, 3);
	mp_end(&t, 2);                  /* count says 2, the table holds 1 */
	CHECK_EQ_I(mp_config_parse(t.b, t.len, &cfg), -1);

	mp_begin(&t);
	mp_entry8(&t, unknown);         /* a type with no known size */
	mp_end(&t, 1);
	CHECK_EQ_I(mp_config_parse(t.b, t.len, &cfg), -1);

	mp_begin(&t);
	add(&t, (const uint8_t *)"\0\0\0\0\0\0\0\0", 8);  /* a CPU entry cut short */
	mp_end(&t, 1);
	CHECK_EQ_I(mp_config_parse(t.b, t.len, &cfg), -1);
}
