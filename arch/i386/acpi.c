/* arch/i386/acpi.c - finding the MADT (or the MP table) in physical
 * memory and handing it to the parsers of acpi_tables.c.
 *
 * Where the firmware puts things: the RSDP in the first KiB of the EBDA or
 * in the BIOS area 0xE0000-0xFFFFF (ACPI 6.4 5.2.5.1); the MP floating
 * pointer in the first KiB of the EBDA, the last KiB of base memory, or
 * 0xF0000-0xFFFFF (MP spec 4). Both areas are below 1 MiB, always inside
 * the kernel's mapping of RAM at KERNBASE. The RSDT, XSDT and MADT can be
 * anywhere: on QEMU and Bochs they sit in the last 128 KiB below the top
 * of RAM, in a "reserved" e820 region just past pmm_ram_top() but within
 * the 4 MiB page that maps it. So a table is read through P2V only if
 * kernel_pgdir maps every byte of it; otherwise it is skipped with a
 * warning (this kernel maps no more than LOWMEM_MAX of RAM). */
#include "arch/i386/acpi.h"
#include "arch/i386/mmu.h"
#include "arch/i386/paging.h"
#include "kernel/bootinfo.h"
#include "kernel/printf.h"

#define BDA_EBDA_SEG    0x40E   /* BIOS data area: EBDA segment (word) */
#define BDA_BASEMEM_KB  0x413   /* BIOS data area: base memory in KiB */
#define BIOS_AREA       0xE0000
#define BIOS_AREA_LEN   0x20000
#define BIOS_ROM        0xF0000
#define BIOS_ROM_LEN    0x10000
#define TABLE_MAX_LEN   0x10000 /* no RSDT, MADT or MP table is bigger */
#define MAX_SDT_ENTRIES 64

/* The kernel address of physical [pa, pa + len), or NULL (with a warning)
 * if kernel_pgdir does not map all of it. */
static const uint8_t *phys_table(uint32_t pa, uint32_t len, const char *what)
{
	uint64_t end = (uint64_t)pa + len;

	if (len == 0 || end > LOWMEM_MAX)
		goto unmapped;
	for (uint32_t pde = pa >> PGDIR_SHIFT; pde <= (end - 1) >> PGDIR_SHIFT; pde++)
		if (!(kernel_pgdir[KERNEL_PDE + pde] & PTE_P))
			goto unmapped;
	return P2V(pa);
unmapped:
	kprintf("acpi: %s at %#x (%u bytes) is outside the kernel's mapping: skipped\n",
		what, pa, len);
	return NULL;
}

/* A whole system description table with signature sig at pa, checked,
 * or NULL. *len gets its length. */
static const uint8_t *sdt_at(uint32_t pa, const char *sig, int *len)
{
	const uint8_t *h = phys_table(pa, ACPI_SDT_HEADER_LEN, sig);
	uint32_t l;

	if (!h)
		return NULL;
	if (h[0] != (uint8_t)sig[0] || h[1] != (uint8_t)sig[1] ||
	    h[2] != (uint8_t)sig[2] || h[3] != (uint8_t)sig[3])
		return NULL;            /* another table: not an error */
	l = acpi_sdt_length(h);
	if (l < ACPI_SDT_HEADER_LEN || l > TABLE_MAX_LEN) {
		kprintf("acpi: %s at %#x has a bad length %u\n", sig, pa, l);
		return NULL;
	}
	h = phys_table(pa, l, sig);
	if (!h)
		return NULL;
	*len = acpi_sdt_check(h, l, sig);
	if (*len < 0) {
		kprintf("acpi: %s at %#x has a bad checksum\n", sig, pa);
		return NULL;
	}
	return h;
}

static uint32_t ebda_phys(void)
{
	uint32_t seg = *(const volatile uint16_t *)P2V(BDA_EBDA_SEG);
	uint32_t pa = seg << 4;

	/* The EBDA lies below the video memory at 0xA0000, if anywhere. */
	return pa >= 0x80000 && pa < 0xA0000 ? pa : 0;
}

static bool find_rsdp(struct acpi_rsdp_info *r)
{
	uint32_t ebda = ebda_phys();

	if (ebda && acpi_rsdp_scan(P2V(ebda), 1024, r) >= 0)
		return true;
	return acpi_rsdp_scan(P2V(BIOS_AREA), BIOS_AREA_LEN, r) >= 0;
}

static bool madt_find(struct smp_config *cfg)
{
	struct acpi_rsdp_info r;
	uint32_t addr[MAX_SDT_ENTRIES];
	const uint8_t *root;
	int len, n;
	bool x;

	if (!find_rsdp(&r)) {
		kprintf("acpi: no RSDP\n");
		return false;
	}
	/* ACPI 2.0+: the XSDT supersedes the RSDT (5.2.5.3), when it can
	 * be reached with 32-bit addresses. */
	x = r.revision >= 2 && r.xsdt_phys && r.xsdt_phys <= 0xffffffffull;
	root = x ? sdt_at((uint32_t)r.xsdt_phys, "XSDT", &len) : NULL;
	if (!root) {
		x = false;
		root = sdt_at(r.rsdt_phys, "RSDT", &len);
	}
	if (!root)
		return false;
	n = acpi_sdt_entries(root, (size_t)len, x, addr, MAX_SDT_ENTRIES);
	for (int i = 0; i < n; i++) {
		const uint8_t *madt = sdt_at(addr[i], "APIC", &len);
		if (!madt)
			continue;
		if (madt_parse(madt, (size_t)len, cfg) == 0)
			return true;
		kprintf("acpi: MADT at %#x is corrupt (an entry runs past it)\n", addr[i]);
		return false;
	}
	kprintf("acpi: no MADT\n");
	return false;
}

/* CPUID.1: EDX bit 28 (HTT) says EBX[23:16] is the number of logical
 * processor ids in a package (SDM Vol. 2A, CPUID). */
static unsigned cpuid_logical_per_package(void)
{
	uint32_t a = 1, b, c = 0, d;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	return (d & (1u << 28)) ? (b >> 16) & 0xff : 1;
}

static bool mptable_find(struct smp_config *cfg)
{
	struct mp_fp_info fp;
	uint32_t ebda = ebda_phys();
	uint32_t basemem = (uint32_t)*(const volatile uint16_t *)P2V(BDA_BASEMEM_KB) << 10;
	const uint8_t *t;
	uint32_t len;

	if (!(ebda && mp_fp_scan(P2V(ebda), 1024, &fp) >= 0) &&
	    !(basemem >= 1024 && basemem <= 0xA0000 &&
	      mp_fp_scan(P2V(basemem - 1024), 1024, &fp) >= 0) &&
	    mp_fp_scan(P2V(BIOS_ROM), BIOS_ROM_LEN, &fp) < 0) {
		kprintf("smp: no MP table either\n");
		return false;
	}
	if (fp.default_config || !fp.config_phys) {
		kprintf("smp: MP default configuration %u is not supported\n",
			fp.default_config);
		return false;
	}
	t = phys_table(fp.config_phys, MP_CONFIG_HEADER_LEN, "MP table");
	if (!t)
		return false;
	len = mp_config_length(t);
	if (len < MP_CONFIG_HEADER_LEN || len > TABLE_MAX_LEN ||
	    !(t = phys_table(fp.config_phys, len, "MP table")) ||
	    mp_config_parse(t, len, cfg) < 0) {
		kprintf("smp: MP table at %#x is corrupt\n", fp.config_phys);
		return false;
	}
	cfg->imcr = fp.imcr;
	mp_add_siblings(cfg, cpuid_logical_per_package());
	return true;
}

bool smp_config_find(struct smp_config *cfg)
{
	/* `acpi=off` (Linux's word) skips the MADT, to test the fallback. */
	if (!bootinfo.cmdline.acpi_off && madt_find(cfg))
		return true;
	return mptable_find(cfg);
}
