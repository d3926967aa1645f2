/* arch/i386/acpi_tables.c - the firmware tables that list the CPUs and the
 * IOAPIC, parsed from a byte buffer (acpi.h).
 *
 * Pure code: no hardware, no kernel calls, no alignment assumptions (every
 * multi-byte field is read byte by byte: the tables are packed and the
 * host unit tests run under UBSan). Firmware tables are input like any
 * other: a checksum or a length that does not hold makes the table
 * invalid, and nothing is read past the buffer the caller handed in. */
#include "arch/i386/acpi.h"

/* ---- helpers ---- */

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

static bool sig_eq(const uint8_t *p, const char *sig, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (uint8_t)sig[i])
			return false;
	return true;
}

/* Byte sum of len bytes is 0 (ACPI 5.2.5.3, MP 4.1, 4.2). */
static bool acpi_checksum_ok(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint8_t sum = 0;

	for (size_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + b[i]);
	return sum == 0;
}

/* Adds an APIC id to cfg's CPU list: duplicates are dropped (firmware bug
 * or not, one APIC cannot be started twice), and ids past the list's room
 * are only counted, so the boot can say how many it left out. */
static void add_cpu(struct smp_config *cfg, uint8_t apic_id)
{
	for (int i = 0; i < cfg->ncpus; i++)
		if (cfg->apic_ids[i] == apic_id)
			return;
	cfg->ncpus_listed++;
	if (cfg->ncpus < SMPCFG_MAX_CPUS)
		cfg->apic_ids[cfg->ncpus++] = apic_id;
}

static void config_reset(struct smp_config *cfg, const char *source)
{
	uint8_t *b = (uint8_t *)cfg;

	for (size_t i = 0; i < sizeof(*cfg); i++)
		b[i] = 0;
	cfg->source = source;
	for (int irq = 0; irq < ISA_IRQS; irq++)
		cfg->isa[irq].gsi = (uint32_t)irq;      /* identity, edge/high */
}

/* ---- ACPI: RSDP, RSDT/XSDT, MADT ---- */

#define RSDP_V1_LEN  20         /* ACPI 1.0: the checksum covers these */
#define RSDP_V2_LEN  36

int acpi_rsdp_scan(const uint8_t *buf, size_t len, struct acpi_rsdp_info *out)
{
	for (size_t off = 0; off + RSDP_V1_LEN <= len; off += 16) {
		const uint8_t *p = buf + off;

		if (!sig_eq(p, "RSD PTR ", 8) || !acpi_checksum_ok(p, RSDP_V1_LEN))
			continue;
		out->revision = p[15];
		out->rsdt_phys = rd32(p + 16);
		out->xsdt_phys = 0;
		if (out->revision >= 2) {
			/* ACPI 2.0+: a length and a checksum over all of it. */
			uint32_t l;
			if (off + RSDP_V2_LEN > len)
				continue;
			l = rd32(p + 20);
			if (l < RSDP_V2_LEN || l > len - off || !acpi_checksum_ok(p, l))
				continue;
			out->xsdt_phys = rd64(p + 24);
		}
		return (int)off;
	}
	return -1;
}

uint32_t acpi_sdt_length(const uint8_t *buf)
{
	return rd32(buf + 4);
}

int acpi_sdt_check(const uint8_t *buf, size_t avail, const char *sig)
{
	uint32_t len;

	if (avail < ACPI_SDT_HEADER_LEN || !sig_eq(buf, sig, 4))
		return -1;
	len = acpi_sdt_length(buf);
	if (len < ACPI_SDT_HEADER_LEN || len > avail || len > 0x7fffffff)
		return -1;
	if (!acpi_checksum_ok(buf, len))
		return -1;
	return (int)len;
}

int acpi_sdt_entries(const uint8_t *sdt, size_t len, bool xsdt,
		     uint32_t *out, int max)
{
	size_t esize = xsdt ? 8 : 4;
	int n = 0;

	for (size_t off = ACPI_SDT_HEADER_LEN; off + esize <= len && n < max;
	     off += esize) {
		uint64_t a = xsdt ? rd64(sdt + off) : rd32(sdt + off);
		if (a == 0 || a > 0xffffffffull)
			continue;       /* only 32-bit addresses are reachable */
		out[n++] = (uint32_t)a;
	}
	return n;
}

/* MADT interrupt controller structure types (ACPI 6.4 Table 5.21) and the
 * shortest length each can have. */
#define MADT_LAPIC          0
#define MADT_IOAPIC         1
#define MADT_ISO            2   /* interrupt source override */
#define MADT_LAPIC_OVERRIDE 5   /* 64-bit local APIC address */
#define MADT_FIXED_LEN      44  /* header + local APIC address + flags */
#define MADT_PCAT_COMPAT    1   /* flags bit 0: dual 8259s present */
#define MADT_LAPIC_ENABLED  1   /* processor local APIC flags bit 0 */

static const uint8_t madt_min_len[] = {
	[MADT_LAPIC] = 8, [MADT_IOAPIC] = 12, [MADT_ISO] = 10,
	[MADT_LAPIC_OVERRIDE] = 12,
};

int madt_parse(const uint8_t *madt, size_t len, struct smp_config *cfg)
{
	config_reset(cfg, "ACPI MADT");
	if (len < MADT_FIXED_LEN)
		return -1;
	cfg->lapic_phys = rd32(madt + 36);
	cfg->pcat_compat = rd32(madt + 40) & MADT_PCAT_COMPAT;

	for (size_t off = MADT_FIXED_LEN; off < len; ) {
		const uint8_t *e = madt + off;
		uint8_t type, elen;

		if (len - off < 2)
			return -1;                  /* half an entry header */
		type = e[0];
		elen = e[1];
		if (elen < 2 || elen > len - off)
			return -1;                  /* would loop, or run past */
		if (type < sizeof(madt_min_len) && elen < madt_min_len[type])
			return -1;

		switch (type) {
		case MADT_LAPIC:
			/* Disabled ones (bit 0 clear) cannot be started, even
			 * when "online capable" (ACPI 6.3+): hot-plug only. */
			if (rd32(e + 4) & MADT_LAPIC_ENABLED)
				add_cpu(cfg, e[3]);
			break;
		case MADT_IOAPIC:
			cfg->nioapics++;
			if (rd32(e + 8) == 0 && !cfg->have_ioapic) {
				cfg->have_ioapic = true;
				cfg->ioapic_id = e[2];
				cfg->ioapic_phys = rd32(e + 4);
				cfg->ioapic_gsi_base = 0;
			}
			break;
		case MADT_ISO:
			/* Bus 0 is ISA, the only bus an override names. */
			if (e[2] == 0 && e[3] < ISA_IRQS) {
				cfg->isa[e[3]].gsi = rd32(e + 4);
				cfg->isa[e[3]].flags = rd16(e + 8);
			}
			break;
		case MADT_LAPIC_OVERRIDE:
			if (rd64(e + 4) <= 0xffffffffull)
				cfg->lapic_phys = (uint32_t)rd64(e + 4);
			break;
		default:
			break;      /* NMI sources, x2APIC entries, ...: not used */
		}
		off += elen;
	}
	return 0;
}

/* ---- the Intel MP table (MP spec 1.4, chapter 4) ---- */

#define MP_FP_LEN       16
#define MP_FEAT2_IMCRP  0x80    /* feature byte 2 bit 7: IMCR present */

int mp_fp_scan(const uint8_t *buf, size_t len, struct mp_fp_info *out)
{
	for (size_t off = 0; off + MP_FP_LEN <= len; off += 16) {
		const uint8_t *p = buf + off;
		size_t l = (size_t)p[8] * 16;       /* in 16-byte paragraphs */

		if (!sig_eq(p, "_MP_", 4) || l < MP_FP_LEN || l > len - off ||
		    !acpi_checksum_ok(p, l))
			continue;
		out->config_phys = rd32(p + 4);
		out->default_config = p[11];
		out->imcr = p[12] & MP_FEAT2_IMCRP;
		return (int)off;
	}
	return -1;
}

uint32_t mp_config_length(const uint8_t *buf)
{
	return rd16(buf + 4);
}

/* Base table entry types and their sizes (MP spec Table 4-3). */
#define MP_PROC    0
#define MP_BUS     1
#define MP_IOAPIC  2
#define MP_IOINTR  3
#define MP_LINTR   4
#define MP_PROC_LEN  20
#define MP_OTHER_LEN 8
#define MP_PROC_EN   0x01       /* processor entry: usable */
#define MP_IOAPIC_EN 0x01
#define MP_INT       0          /* I/O interrupt type: vectored (INTR) */
#define MP_MAX_BUSES 256

/* Walks the entries, checking each fits; pass 0 records buses and
 * IOAPICs, pass 1 the CPUs and the ISA interrupt routing (which names
 * buses and IOAPICs by id, whatever the entry order). */
static int mp_walk(const uint8_t *t, uint32_t base_len, int pass,
		   struct smp_config *cfg, uint8_t *isa_bus)
{
	uint32_t count = rd16(t + 34), off = MP_CONFIG_HEADER_LEN;

	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *e = t + off;
		uint32_t elen;

		if (off >= base_len)
			return -1;
		if (e[0] > MP_LINTR)
			return -1;              /* unknown size: cannot go on */
		elen = e[0] == MP_PROC ? MP_PROC_LEN : MP_OTHER_LEN;
		if (elen > base_len - off)
			return -1;
		if (pass == 0 && e[0] == MP_BUS) {
			isa_bus[e[1]] = sig_eq(e + 2, "ISA   ", 6);
		} else if (pass == 0 && e[0] == MP_IOAPIC) {
			cfg->nioapics++;
			if ((e[3] & MP_IOAPIC_EN) && !cfg->have_ioapic) {
				cfg->have_ioapic = true;    /* the first: ISA's */
				cfg->ioapic_id = e[1];
				cfg->ioapic_phys = rd32(e + 4);
			}
		} else if (pass == 1 && e[0] == MP_PROC) {
			if (e[3] & MP_PROC_EN)
				add_cpu(cfg, e[1]);
		} else if (pass == 1 && e[0] == MP_IOINTR) {
			/* An ISA IRQ wired to a pin of our IOAPIC (0xff: all). */
			if (e[1] == MP_INT && isa_bus[e[4]] && e[5] < ISA_IRQS &&
			    cfg->have_ioapic && (e[6] == cfg->ioapic_id || e[6] == 0xff)) {
				cfg->isa[e[5]].gsi = e[7];
				cfg->isa[e[5]].flags = rd16(e + 2);
			}
		}
		off += elen;
	}
	return 0;
}

int mp_config_parse(const uint8_t *buf, size_t avail, struct smp_config *cfg)
{
	uint8_t isa_bus[MP_MAX_BUSES] = { 0 };
	uint32_t base_len;

	config_reset(cfg, "MP table");
	if (avail < MP_CONFIG_HEADER_LEN || !sig_eq(buf, "PCMP", 4))
		return -1;
	base_len = mp_config_length(buf);
	if (base_len < MP_CONFIG_HEADER_LEN || base_len > avail ||
	    !acpi_checksum_ok(buf, base_len))
		return -1;
	cfg->lapic_phys = rd32(buf + 36);
	cfg->pcat_compat = true;        /* MP systems keep the 8259s (MP 3.6.2) */
	if (mp_walk(buf, base_len, 0, cfg, isa_bus) < 0 ||
	    mp_walk(buf, base_len, 1, cfg, isa_bus) < 0)
		return -1;
	return 0;
}

void mp_add_siblings(struct smp_config *cfg, unsigned per_pkg)
{
	uint8_t pkgs[SMPCFG_MAX_CPUS];
	int npkgs = cfg->ncpus;

	if (per_pkg < 2)
		return;
	for (int i = 0; i < npkgs; i++)
		pkgs[i] = cfg->apic_ids[i];
	cfg->ncpus = cfg->ncpus_listed = 0;
	for (int i = 0; i < npkgs; i++)
		for (unsigned j = 0; j < per_pkg && pkgs[i] + j <= 0xff; j++)
			add_cpu(cfg, (uint8_t)(pkgs[i] + j));
}
