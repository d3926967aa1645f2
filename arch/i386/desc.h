/* arch/i386/desc.h - segment descriptors: encoding, decoding, validation.
 *
 * A descriptor is two 32-bit words, a (low) and b (high), as in the seed's
 * struct desc_struct. Intel SDM Vol. 3A section 3.4.5 ("Segment
 * Descriptors") gives the bit layout:
 *
 *   a: base[15:0] << 16 | limit[15:0]
 *   b: base[31:24] | G(23) | D/B(22) | L(21) | AVL(20) | limit[19:16] |
 *      P(15) | DPL(14:13) | S(12) | type(11:8) | base[23:16]
 *
 * The functions in desc.c are pure (no hardware access) so that the host
 * unit tests in tests/unit can check every field combination. */
#ifndef ARCH_I386_DESC_H
#define ARCH_I386_DESC_H

#include "lib/types.h"
#include "lib/abi.h"

struct desc {
	uint32_t a, b;
};
_Static_assert(sizeof(struct desc) == 8, "a descriptor is 8 bytes (SDM 3.4.5)");

/* Bits of the high word b (SDM Vol. 3A, Figure 3-8). */
#define DESC_B_TYPE_SHIFT   8
#define DESC_B_WRITABLE     (1u << 9)   /* data: writable; code: readable */
#define DESC_B_CONTENTS_SHIFT 10        /* user_desc.contents: bits 10-11 */
#define DESC_B_S            (1u << 12)  /* code/data (not system) */
#define DESC_B_DPL3         (3u << 13)
#define DESC_B_PRESENT      (1u << 15)
#define DESC_B_AVL          (1u << 20)  /* user_desc.useable */
#define DESC_B_DB           (1u << 22)  /* D/B: 32-bit segment (erratum 2) */
#define DESC_B_G            (1u << 23)  /* granularity: limit in 4 KiB pages */

/* System descriptor types (SDM Vol. 3A Table 3-2). */
#define DESC_TYPE_LDT        0x2
#define DESC_TYPE_TSS32      0x9        /* available 32-bit TSS */
#define DESC_TYPE_TSS32_BUSY 0xB

/* A flat 4 GiB code or data segment for the fixed GDT entries. */
struct desc desc_flat(int code, int dpl);
/* A system descriptor (TSS or LDT), byte granular, DPL 0, present. */
struct desc desc_system(uint32_t base, uint32_t limit, unsigned type);

uint32_t desc_base(const struct desc *d);
uint32_t desc_limit(const struct desc *d);     /* the raw 20-bit limit */

/* The seed's desc_empty(): both words zero. */
static inline bool desc_empty(const struct desc *d)
{
	return (d->a | d->b) == 0;
}

/* get_thread_area's decoding: descriptor -> user_desc, every unused bit
 * zero (erratum 5), seg_32bit from bit 22 and limit_in_pages from bit 23
 * (erratum 2). An all-zero descriptor decodes as the "empty" one
 * (read_exec_only = 1, seg_not_present = 1, all else 0), as abi.md says. */
void desc_to_user(const struct desc *d, unsigned entry_number,
		  struct user_desc *u);

/* The seed's LDT_empty(): the user's way of saying "clear this slot". */
bool user_desc_empty(const struct user_desc *u);
/* Every field (but entry_number) zero: also "clear" (erratum 6). */
bool user_desc_zero(const struct user_desc *u);

/* Validate a user_desc for a TLS or LDT slot (abi.md section 5, erratum 6:
 * hardened Linux's tls_desc_okay). Stores the descriptor to install in *out
 * (all zero for an empty or all-zero user_desc, which clears the slot) and
 * returns 0, or returns -EINVAL for a 16-bit (seg_32bit = 0), code
 * (contents > 1) or not-present segment. */
int user_desc_to_tls(const struct user_desc *u, struct desc *out);

/* Validate a user_desc for an LDT entry (modify_ldt func 1 = oldmode, or
 * 0x11): Linux's rules, looser than the TLS slots' (abi.md section 5, as
 * amended 2026-12-03): only 16-bit segments and present conforming code
 * are refused (-EINVAL). Stores the descriptor (all zero to clear) in
 * *out and returns 0. */
int user_desc_to_ldt(const struct user_desc *u, bool oldmode, struct desc *out);

#endif
