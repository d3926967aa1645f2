/* arch/i386/uart.h - the 16550 UART on COM1 (0x3F8, IRQ 4). */
#ifndef ARCH_I386_UART_H
#define ARCH_I386_UART_H

#include "lib/types.h"

/* 115200 8N1, FIFOs on (abi.md section 1). Returns a byte that was
 * waiting before (and would be lost to the FIFO reset), or -1. */
int uart_init(void);
void uart_putc(char c);             /* waits for the holding register */
int uart_getc(void);                /* -1 if no byte is waiting */
void uart_enable_rx_irq(void);
void uart_drain(void);              /* waits for the transmitter to be empty */

#endif
