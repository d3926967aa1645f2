/* arch/i386/desc.c - segment descriptors: encoding, decoding, validation
 * (arch/i386/desc.h).
 *
 * Pure functions on the two descriptor words; the bit layout is drawn in
 * desc.h (Intel SDM Vol. 3A section 3.4.5, Figure 3-8). Loading them into
 * a GDT or LDT is someone else's job, so tests/unit/test_desc.c can check
 * every encoding on the host. */
#include "arch/i386/desc.h"
#include "lib/string.h"

/* Code/data segment types (SDM Vol. 3A section 3.4.5.1, Table 3-1). */
#define DESC_TYPE_CODE_READ  0xA        /* execute/read */
#define DESC_TYPE_DATA_WRITE 0x2        /* read/write */

#define DESC_DPL_SHIFT       13
#define DESC_LIMIT_MAX       0xfffffu   /* the limit field is 20 bits */
#define DESC_B_LIMIT_HIGH    0x000f0000u /* limit[19:16] in the high word */
#define DESC_B_BASE_HIGH     0xff000000u /* base[31:24] */
#define DESC_B_BASE_MID      0x000000ffu /* base[23:16] */

/* The low word is the same for every descriptor kind. */
static uint32_t desc_word_a(uint32_t base, uint32_t limit)
{
	/* LAB 1: BEGIN SOLUTION */
	return (base & 0xffffu) << 16 | (limit & 0xffffu);
	/* LAB 1: END SOLUTION */
#if 0 /* LAB 1: STUB */
	/* Lab 1: base[15:0] and limit[15:0] (docs/labs/lab1-gdt.md). */
	(void)base;
	(void)limit;
	return 0;
#endif /* LAB 1: END STUB */
}

/* The base and limit bits of the high word. */
static uint32_t desc_word_b(uint32_t base, uint32_t limit)
{
	/* LAB 1: BEGIN SOLUTION */
	return (base & DESC_B_BASE_HIGH) | ((base >> 16) & DESC_B_BASE_MID) |
	       (limit & DESC_B_LIMIT_HIGH);
	/* LAB 1: END SOLUTION */
#if 0 /* LAB 1: STUB */
	/* Lab 1: base[31:24], base[23:16] and limit[19:16]. */
	(void)base;
	(void)limit;
	return 0;
#endif /* LAB 1: END STUB */
}

/* Base 0, limit 0xfffff in 4 KiB pages (4 GiB), 32-bit, present: the
 * seed's GDT constants, e.g. 0x00cf9a000000ffff (kernel code) and
 * 0x00cff2000000ffff (user data, DPL 3). */
struct desc desc_flat(int code, int dpl)
{
	uint32_t type = code ? DESC_TYPE_CODE_READ : DESC_TYPE_DATA_WRITE;
	struct desc d;

	d.a = desc_word_a(0, DESC_LIMIT_MAX);
	d.b = desc_word_b(0, DESC_LIMIT_MAX) | DESC_B_G | DESC_B_DB |
	      DESC_B_PRESENT | ((uint32_t)dpl & 3) << DESC_DPL_SHIFT |
	      DESC_B_S | type << DESC_B_TYPE_SHIFT;
	return d;
}

/* TSS or LDT: S = 0, DPL 0, byte granular, D/B = 0 (SDM Vol. 3A section
 * 7.2.2, Figure 7-3, and section 3.5.1). The seed's _set_tssldt_desc
 * writes the same type byte: 0x89 for the TSS, 0x82 for the LDT. */
struct desc desc_system(uint32_t base, uint32_t limit, unsigned type)
{
	struct desc d;

	d.a = desc_word_a(base, limit);
	d.b = desc_word_b(base, limit) | DESC_B_PRESENT |
	      (type & 0xfu) << DESC_B_TYPE_SHIFT;
	return d;
}

/* The seed's GET_BASE. */
uint32_t desc_base(const struct desc *d)
{
	/* LAB 1: BEGIN SOLUTION */
	return (d->a >> 16) | (d->b & DESC_B_BASE_MID) << 16 |
	       (d->b & DESC_B_BASE_HIGH);
	/* LAB 1: END SOLUTION */
#if 0 /* LAB 1: STUB */
	/* Lab 1: the inverse of desc_word_a and desc_word_b's base. */
	(void)d;
	return 0;
#endif /* LAB 1: END STUB */
}

/* The seed's GET_LIMIT: the raw field, not scaled by G. */
uint32_t desc_limit(const struct desc *d)
{
	/* LAB 1: BEGIN SOLUTION */
	return (d->a & 0xffffu) | (d->b & DESC_B_LIMIT_HIGH);
	/* LAB 1: END SOLUTION */
#if 0 /* LAB 1: STUB */
	/* Lab 1: the 20-bit limit field, unscaled. */
	(void)d;
	return 0;
#endif /* LAB 1: END STUB */
}

/* The seed's LDT_entry_a / LDT_entry_b (tls-2.5.31-D9, asm-i386/desc.h):
 * a user_desc's flags into the high word, one field at a time (SDM
 * Figure 3-8). read_exec_only and seg_not_present are the inverses of
 * the W and P bits; DPL 3 and S = 1 always (the seed's 0x7000), so no
 * user descriptor can reach ring 0; useable is the AVL bit 20, which
 * modify_ldt's old mode leaves out (useable false). */
static uint32_t user_flag_bits(const struct user_desc *u, bool useable)
{
	uint32_t b = DESC_B_DPL3 | DESC_B_S;

	b |= (uint32_t)u->contents << DESC_B_CONTENTS_SHIFT;
	if (!u->read_exec_only)
		b |= DESC_B_WRITABLE;
	if (!u->seg_not_present)
		b |= DESC_B_PRESENT;
	if (u->seg_32bit)
		b |= DESC_B_DB;
	if (u->limit_in_pages)
		b |= DESC_B_G;
	if (useable && u->useable)
		b |= DESC_B_AVL;
	return b;
}

static inline struct desc encode_user(const struct user_desc *u, bool useable)
{
	struct desc d;

	d.a = desc_word_a(u->base_addr, u->limit);
	d.b = desc_word_b(u->base_addr, u->limit) | user_flag_bits(u, useable);
	return d;
}

static unsigned desc_bit(const struct desc *d, uint32_t mask)
{
	return (d->b & mask) != 0;
}

/* The seed's sys_get_thread_area with errata 2 and 5 fixed. */
void desc_to_user(const struct desc *d, unsigned entry_number,
		  struct user_desc *u)
{
	/* LAB 3: BEGIN SOLUTION */
	/* Erratum 5: D9 copied an uninitialised stack struct out, leaking
	 * kernel stack bits through the unused bits of the last word.
	 * memset clears those bits too, which no struct assignment
	 * promises to do. */
	memset(u, 0, sizeof(*u));
	u->entry_number = entry_number;

	/* abi.md section 5: an empty slot reads back as LDT_empty. */
	if (desc_empty(d)) {
		u->read_exec_only = 1;
		u->seg_not_present = 1;
		return;
	}
	u->base_addr = desc_base(d);
	u->limit = desc_limit(d);
	/* Erratum 2: D9's GET_32BIT read bit 23 (G); D/B is bit 22. */
	u->seg_32bit = desc_bit(d, DESC_B_DB);
	u->contents = (d->b >> DESC_B_CONTENTS_SHIFT) & 3;
	u->read_exec_only = !desc_bit(d, DESC_B_WRITABLE);
	u->limit_in_pages = desc_bit(d, DESC_B_G);
	u->seg_not_present = !desc_bit(d, DESC_B_PRESENT);
	u->useable = desc_bit(d, DESC_B_AVL);
	/* LAB 3: END SOLUTION */
#if 0 /* LAB 3: STUB */
	/* Lab 3: the seed's D9 code, errata 2 and 5 and all
	 * (docs/labs/lab3-tls.md): fix it. */
	u->entry_number = entry_number;
	u->base_addr = desc_base(d);
	u->limit = desc_limit(d);
	u->seg_32bit = desc_bit(d, DESC_B_G);
	u->contents = (d->b >> DESC_B_CONTENTS_SHIFT) & 3;
	u->read_exec_only = !desc_bit(d, DESC_B_WRITABLE);
	u->limit_in_pages = desc_bit(d, DESC_B_G);
	u->seg_not_present = !desc_bit(d, DESC_B_PRESENT);
	u->useable = desc_bit(d, DESC_B_AVL);
#endif /* LAB 3: END STUB */
}

/* Base and limit 0, and every flag 0 but read_exec_only and
 * seg_not_present, which are ro_np. */
static bool only_ro_np(const struct user_desc *u, unsigned ro_np)
{
	return u->base_addr == 0 && u->limit == 0 && !u->seg_32bit && !u->contents &&
	       u->read_exec_only == ro_np && !u->limit_in_pages &&
	       u->seg_not_present == ro_np && !u->useable;
}

/* The seed's LDT_empty. */
bool user_desc_empty(const struct user_desc *u)
{
	return only_ro_np(u, 1);
}

bool user_desc_zero(const struct user_desc *u)
{
	return only_ro_np(u, 0);
}

int user_desc_to_tls(const struct user_desc *u, struct desc *out)
{
	/* LAB 3: BEGIN SOLUTION */
	/* Erratum 6: only what hardened Linux's tls_desc_okay accepts is
	 * installed: a 32-bit segment (a 16-bit one would take the espfix
	 * path that Spindle lacks: iret to a 16-bit stack leaks the high
	 * half of the kernel's %esp), data (contents 2 and 3 are code: type
	 * bit 11, SDM Table 3-1), present (loading a not-present DPL 3
	 * segment raises #NP in the kernel's return path). The common case,
	 * so it is tested first. */
	if (u->seg_32bit && u->contents < 2 && !u->seg_not_present) {
		*out = encode_user(u, true);
		return 0;
	}
	/* An all-zero or LDT_empty descriptor clears the slot. */
	if (user_desc_zero(u) || user_desc_empty(u)) {
		out->a = out->b = 0;
		return 0;
	}
	return -EINVAL;
	/* LAB 3: END SOLUTION */
#if 0 /* LAB 3: STUB */
	/* Lab 3: D9 installed whatever it was given (erratum 6): refuse
	 * what hardened Linux's tls_desc_okay refuses, and clear on an
	 * all-zero or LDT_empty descriptor (docs/labs/lab3-tls.md). */
	*out = encode_user(u, true);
	return 0;
#endif /* LAB 3: END STUB */
}

/* Linux 6.1's write_ldt (arch/x86/kernel/ldt.c) built without
 * CONFIG_X86_16BIT, rule by rule:
 *   - contents 3 (conforming code) only in func 0x11 and not present
 *     (Linux: a present conforming segment would run at the caller's
 *     privilege wherever it is called from; nothing needs it);
 *   - clear: base and limit 0 in old mode, whatever else; LDT_empty in
 *     either mode;
 *   - otherwise a 16-bit segment is refused (no espfix, CVE-2014-8133);
 *     everything else is installed as given - data, expand-down,
 *     read-only, code (readable or execute-only), not present, useable -
 *     always S = 1 and DPL 3 (encode_user), so no entry can reach ring 0.
 *     Old mode has no useable bit.
 * A not-present or code segment is harmless here: loading it into a data
 * segment register faults in user mode (#NP, #GP: the task's signal), and
 * trap_ret's reload of a saved selector whose entry changed meanwhile has
 * an exception-table fixup (vectors.S). */
int user_desc_to_ldt(const struct user_desc *u, bool oldmode, struct desc *out)
{
	if (u->contents == 3 && (oldmode || !u->seg_not_present))
		return -EINVAL;
	if ((oldmode && u->base_addr == 0 && u->limit == 0) || user_desc_empty(u)) {
		out->a = out->b = 0;
		return 0;
	}
	if (!u->seg_32bit)
		return -EINVAL;
	*out = encode_user(u, !oldmode);
	return 0;
}
