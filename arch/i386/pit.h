/* arch/i386/pit.h - the 8253/8254 programmable interval timer. */
#ifndef ARCH_I386_PIT_H
#define ARCH_I386_PIT_H

#include "lib/types.h"

#define PIT_HZ 1193182          /* the PIT's input clock */

void pit_start_periodic(unsigned hz);   /* channel 0, mode 2, IRQ 0 */
/* Busy-waits about `us` microseconds on channel 2 (no interrupt needed);
 * used once, to calibrate the TSC. */
void pit_wait_us(unsigned us);

#endif
