/* user/tests/udesc.h - struct user_desc values for the TLS and LDT tests
 * (t_tls, t_ldt): set_thread_area and modify_ldt take the same structure
 * (abi.md section 5). Not a program: a header. */
#ifndef USER_TESTS_UDESC_H
#define USER_TESTS_UDESC_H

#include "raw.h"
#include "string.h"

/* A descriptor with every field given; each flag is masked to its width
 * and the unused bits are 0 (as the kernel leaves them: erratum 5). */
__attribute__((unused))
static struct user_desc mk(unsigned e, unsigned base, unsigned limit, unsigned s32,
			   unsigned contents, unsigned rx, unsigned lip, unsigned np, unsigned u)
{
	struct user_desc d;

	memset(&d, 0, sizeof(d));
	d.entry_number = e;
	d.base_addr = base;
	d.limit = limit;
	d.seg_32bit = s32 & 1;
	d.contents = contents & 3;
	d.read_exec_only = rx & 1;
	d.limit_in_pages = lip & 1;
	d.seg_not_present = np & 1;
	d.useable = u & 1;
	return d;
}

/* A flat 4 GiB read-write data segment at base; the two ways to clear an
 * entry (the "empty" descriptor and all zeros). */
#define DATA32(e, base) mk((e), (unsigned)(base), 0xfffff, 1, 0, 0, 1, 0, 0)
#define EMPTY(e) mk((e), 0, 0, 0, 0, 1, 0, 1, 0)
#define ZERO(e) mk((e), 0, 0, 0, 0, 0, 0, 0, 0)

#endif
