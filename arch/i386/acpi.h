/* arch/i386/acpi.h - what the firmware says about the CPUs and the
 * interrupt controllers: the ACPI MADT, or the Intel MP table as fallback.
 *
 * Two halves:
 *  - acpi_tables.c: pure parsers over a byte buffer (no hardware, no
 *    kernel calls), unit-tested on the host with hand-built tables, corrupt
 *    ones included (tests/unit/test_madt.c). Every checksum and length is
 *    checked; a length that runs past its buffer makes the table invalid.
 *  - acpi.c: finds the tables in physical memory and feeds the parsers
 *    (kernel only).
 *
 * References: ACPI 6.4 section 5.2.5 (RSDP), 5.2.6 (table header), 5.2.7
 * (RSDT), 5.2.8 (XSDT), 5.2.12 (MADT); Intel MultiProcessor Specification
 * 1.4, chapter 4 (the MP floating pointer and configuration table). */
#ifndef ARCH_I386_ACPI_H
#define ARCH_I386_ACPI_H

#include "lib/types.h"

#define SMPCFG_MAX_CPUS 8       /* == NR_CPUS (checked in smp.c) */
#define ISA_IRQS        16

/* How an ISA IRQ reaches the IOAPIC: its global system interrupt (GSI)
 * and the MPS INTI flags of the override (ACPI Table 5.50; the MP table's
 * I/O interrupt entry uses the same encoding). Without an override, ISA
 * IRQ n is GSI n, edge-triggered, active high. */
#define INTI_POLARITY_MASK   0x3
#define INTI_POLARITY_HIGH   0x1
#define INTI_POLARITY_LOW    0x3
#define INTI_TRIGGER_MASK    0xc
#define INTI_TRIGGER_EDGE    0x4
#define INTI_TRIGGER_LEVEL   0xc

struct isa_irq_route {
	uint32_t gsi;
	uint16_t flags;         /* INTI_*; 0 = "conforms to the bus" (ISA: edge/high) */
};

/* The machine as a table describes it. */
struct smp_config {
	const char *source;             /* "ACPI MADT" or "MP table" */
	uint32_t lapic_phys;            /* the local APICs' MMIO base */
	int ncpus;                      /* usable CPUs listed, in apic_ids[] */
	int ncpus_listed;               /* all enabled CPUs, even past the max */
	uint8_t apic_ids[SMPCFG_MAX_CPUS];  /* table order, duplicates dropped */
	bool have_ioapic;
	uint8_t ioapic_id;
	uint32_t ioapic_phys;
	uint32_t ioapic_gsi_base;       /* the GSI of its pin 0 */
	int nioapics;                   /* all listed; only the one with GSI 0 is used */
	struct isa_irq_route isa[ISA_IRQS];
	bool pcat_compat;               /* dual 8259s present (must be masked) */
	bool imcr;                      /* MP: IMCR present (PIC mode at boot) */
};

/* ---- pure parsers (acpi_tables.c) ---- */

/* Searches buf (len bytes) at 16-byte steps for a valid RSDP: "RSD PTR ",
 * the 20-byte checksum, and for revision >= 2 a length within the buffer
 * and the extended checksum. Returns its offset or -1. */
struct acpi_rsdp_info {
	uint8_t revision;
	uint32_t rsdt_phys;
	uint64_t xsdt_phys;             /* 0 unless revision >= 2 */
};
int acpi_rsdp_scan(const uint8_t *buf, size_t len, struct acpi_rsdp_info *out);

#define ACPI_SDT_HEADER_LEN 36
/* The length of a valid system description table at buf with signature
 * sig (4 chars): at least a header, within avail bytes, checksum 0.
 * Returns the table's length, or -1. */
int acpi_sdt_check(const uint8_t *buf, size_t avail, const char *sig);
/* The header's length field (for a caller that must map the table before
 * checking it); needs 8 readable bytes. */
uint32_t acpi_sdt_length(const uint8_t *buf);

/* The table addresses in an RSDT (4-byte entries) or XSDT (8-byte
 * entries; those above 4 GiB are skipped): up to max into out[].
 * sdt must have passed acpi_sdt_check with length len. Returns the count. */
int acpi_sdt_entries(const uint8_t *sdt, size_t len, bool xsdt,
		     uint32_t *out, int max);

/* Parses a checked MADT of len bytes into cfg (zeroed first). Returns 0,
 * or -1 if an entry's length is under 2, too short for its type, or runs
 * past the table. */
int madt_parse(const uint8_t *madt, size_t len, struct smp_config *cfg);

/* Searches buf at 16-byte steps for a valid MP floating pointer ("_MP_",
 * 16 * length bytes within the buffer, checksum). Returns its offset or -1. */
struct mp_fp_info {
	uint32_t config_phys;           /* the configuration table, or 0 */
	uint8_t default_config;         /* feature byte 1: nonzero = no table */
	bool imcr;                      /* feature byte 2 bit 7 */
};
int mp_fp_scan(const uint8_t *buf, size_t len, struct mp_fp_info *out);

#define MP_CONFIG_HEADER_LEN 44
/* The base table length of an MP configuration table (8 readable bytes). */
uint32_t mp_config_length(const uint8_t *buf);
/* Parses an MP configuration table of avail readable bytes into cfg
 * (zeroed first): signature "PCMP", base length within avail, checksum,
 * every entry of a known type and within the base table. 0 or -1. */
int mp_config_parse(const uint8_t *buf, size_t avail, struct smp_config *cfg);
/* Firmware that follows the MP spec lists one CPU per package (SeaBIOS
 * does, and QEMU's -smp N is N cores in one package): adds, after each
 * listed APIC id A, the ids A+1 .. A+per_pkg-1 of its siblings, where
 * per_pkg is CPUID.1:EBX[23:16] (SDM Vol. 3A 8.6, 8.9). */
void mp_add_siblings(struct smp_config *cfg, unsigned per_pkg);

/* ---- finding them (acpi.c, kernel only) ---- */

/* Fills cfg from the MADT, or the MP table if there is no valid MADT
 * (or `acpi=off` is on the command line). Prints one line per problem.
 * Returns false if neither table was found: one CPU, the 8259s. */
bool smp_config_find(struct smp_config *cfg);

#endif
