/* arch/i386/uart.h - the 16550 UART on COM1 (0x3F8, IRQ 4). */
#ifndef ARCH_I386_UART_H
#define ARCH_I386_UART_H

#include "lib/types.h"

/* 115200 8N1 (abi.md section 1), the FIFOs on unless turning them on
 * would lose a byte that waits already (uart.c). Received bytes stay in
 * the UART until the interrupt handler reads them. */
void uart_init(void);
void uart_putc(char c);             /* waits for the holding register */
int uart_getc(void);                /* -1 if no byte is waiting */
/* Receive flow control: the received-data interrupt (IER bit 0) on or off,
 * RTS asserted or dropped with it. While it is off, received bytes wait
 * in the UART's FIFO (and in QEMU's chardev) for uart_enable_rx_irq. */
void uart_enable_rx_irq(void);
void uart_disable_rx_irq(void);
void uart_drain(void);              /* waits for the transmitter to be empty */

#endif
