/* kernel/ksyms.c - look-ups in the table tools/mksyms.sh generates.
 *
 * The table (in .ksyms) is sorted by address: ksym_addrs[i] is the start
 * of function i, ksym_names[i] its name, and ksym_addrs[ksym_count] the end
 * of the kernel's text, so a binary search finds the function that holds
 * an address. */
#include "kernel/ksyms.h"
#include "lib/string.h"

extern const uint32_t ksym_count;
extern const uint32_t ksym_addrs[];        /* ksym_count + 1 entries */
extern const char *const ksym_names[];

const char *ksym_lookup(uint32_t addr, uint32_t *offset)
{
	uint32_t lo = 0, hi = ksym_count;

	if (ksym_count == 0 || addr < ksym_addrs[0] || addr >= ksym_addrs[ksym_count])
		return NULL;
	/* Invariant: ksym_addrs[lo] <= addr < ksym_addrs[hi]. */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (ksym_addrs[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*offset = addr - ksym_addrs[lo];
	return ksym_names[lo];
}
