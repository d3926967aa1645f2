/* arch/i386/power.h - turning the machine off (abi.md section 1). */
#ifndef ARCH_I386_POWER_H
#define ARCH_I386_POWER_H

#include "lib/types.h"

/* Drains the UART, then: outb(0xf4, status & 0x7f) for QEMU's
 * isa-debug-exit (QEMU exits with (status << 1) | 1) if the machine is
 * QEMU (power.c tells by its fw_cfg), then "Shutdown" to the Bochs port
 * 0x8900. On a machine where neither turned it off (QEMU without the
 * device, v86) it prints the line "spindle: no power-off device: the
 * machine is halted", then halts this CPU forever with interrupts off. */
void power_off(int status) __attribute__((noreturn));

#endif
