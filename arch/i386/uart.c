/* arch/i386/uart.c - the 16550A UART on COM1.
 *
 * Register map and bits from the National Semiconductor PC16550D data
 * sheet. 115200 baud is divisor 1 of the 1.8432 MHz clock / 16. */
#include "arch/i386/uart.h"
#include "arch/i386/x86.h"

#define COM1      0x3F8
#define UART_DATA (COM1 + 0)   /* RBR/THR; DLL when DLAB=1 */
#define UART_IER  (COM1 + 1)   /* interrupt enable; DLM when DLAB=1 */
#define UART_FCR  (COM1 + 2)   /* FIFO control (write) */
#define UART_LCR  (COM1 + 3)   /* line control */
#define UART_MCR  (COM1 + 4)   /* modem control */
#define UART_LSR  (COM1 + 5)   /* line status */

#define LCR_8N1   0x03
#define LCR_DLAB  0x80
#define IER_RX    0x01         /* received data available */
#define FCR_ENABLE_CLEAR 0x07  /* enable, clear both FIFOs, 1-byte trigger */
#define MCR_DTR_RTS_OUT2 0x0B  /* OUT2 gates the IRQ line on PCs */
#define LSR_DR    0x01         /* a received byte is waiting */
#define LSR_THRE  0x20         /* transmit holding register empty */
#define LSR_TEMT  0x40         /* transmitter completely empty */

int uart_init(void)
{
	/* A byte may be waiting already (QEMU hands piped input to the UART
	 * before we run), and turning the FIFOs on clears them: keep it. */
	int early = (inb(UART_LSR) & LSR_DR) ? inb(UART_DATA) : -1;

	outb(UART_IER, 0);
	outb(UART_LCR, LCR_DLAB);
	outb(UART_DATA, 1);           /* divisor 1: 115200 baud */
	outb(UART_IER, 0);
	outb(UART_LCR, LCR_8N1);
	outb(UART_FCR, FCR_ENABLE_CLEAR);
	outb(UART_MCR, MCR_DTR_RTS_OUT2);
	return early;
}

void uart_putc(char c)
{
	while (!(inb(UART_LSR) & LSR_THRE))
		pause();
	outb(UART_DATA, (uint8_t)c);
}

int uart_getc(void)
{
	if (!(inb(UART_LSR) & LSR_DR))
		return -1;
	return inb(UART_DATA);
}

void uart_enable_rx_irq(void)
{
	outb(UART_IER, IER_RX);
}

/* Bochs models the line speed: without this the last bytes before a
 * power-off are lost (../shared/notes/machine.md). */
void uart_drain(void)
{
	for (int i = 0; i < 1000000 && !(inb(UART_LSR) & LSR_TEMT); i++)
		pause();
}
