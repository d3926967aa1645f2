/* kernel/ksyms.h - the kernel's own symbol table, for backtraces.
 *
 * The build links the kernel twice: the first image's function symbols
 * (nm -n) become tools/mksyms.sh's generated build/ksyms.S, and the second
 * link puts that table in .ksyms, after all code, so no function moves
 * (the Makefile checks that the two links agree). */
#ifndef KERNEL_KSYMS_H
#define KERNEL_KSYMS_H

#include "lib/types.h"

/* Finds the function containing addr; returns its name and sets *offset,
 * or returns NULL if addr is outside the kernel's text. */
const char *ksym_lookup(uint32_t addr, uint32_t *offset);

#endif
