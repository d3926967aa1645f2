/* arch/i386/pic.h - the two 8259A PICs (PC/AT wiring). */
#ifndef ARCH_I386_PIC_H
#define ARCH_I386_PIC_H

#include "lib/types.h"

void pic_init(void);            /* remap IRQ 0-15 to T_IRQ0.., all masked */
void pic_unmask(int irq);
void pic_eoi(int irq);
bool pic_spurious(int irq);     /* IRQ 7/15 with no in-service bit */

#endif
