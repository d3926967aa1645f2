/* arch/i386/power.h - turning the machine off (abi.md section 1). */
#ifndef ARCH_I386_POWER_H
#define ARCH_I386_POWER_H

#include "lib/types.h"

/* Drains the UART, then: outb(0xf4, status & 0x7f) for QEMU's
 * isa-debug-exit (QEMU exits with (status << 1) | 1), then "Shutdown" to
 * the Bochs port 0x8900, then halts this CPU forever. */
void power_off(int status) __attribute__((noreturn));

#endif
