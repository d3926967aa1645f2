/* arch/i386/trace_arch.c - the TLS half of a switch event (trace_arch.h). */
#include "arch/i386/trace_arch.h"
#include "arch/i386/desc.h"
#include "arch/i386/process.h"
#include "arch/i386/segment.h"

unsigned arch_trace_tls(const struct thread_struct *t, uint32_t base[3])
{
	unsigned mask = 0;

	_Static_assert(GDT_ENTRY_TLS_ENTRIES == 3, "a switch event has room for three bases");
	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++) {
		base[i] = desc_base(&t->tls_array[i]);
		if (!desc_empty(&t->tls_array[i]))
			mask |= 1u << i;
	}
	return mask;
}
