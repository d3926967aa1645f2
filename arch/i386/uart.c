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
#define UART_IIR  (COM1 + 2)   /* interrupt identification (read) */
#define UART_LCR  (COM1 + 3)   /* line control */
#define UART_MCR  (COM1 + 4)   /* modem control */
#define UART_LSR  (COM1 + 5)   /* line status */

#define LCR_8N1   0x03
#define LCR_DLAB  0x80
#define IER_RX    0x01         /* ERBFI: received data available (+ timeout) */
#define FCR_ENABLE 0x01        /* FIFOs on, 1-byte receive trigger level */
#define IIR_FIFOS_ON 0xC0      /* IIR bits 7:6 both set: FIFO mode */
#define MCR_DTR_RTS_OUT2 0x0B  /* OUT2 gates the IRQ line on PCs */
#define MCR_DTR_OUT2     0x09  /* the same with RTS dropped: "stop sending" */
#define LSR_DR    0x01         /* a received byte is waiting */
#define LSR_THRE  0x20         /* transmit holding register empty */
#define LSR_TEMT  0x40         /* transmitter completely empty */

/* The FIFOs (16 bytes each way: fewer interrupts, and slack on a real
 * line) are worth having, but switching between 16450 and FIFO mode
 * empties them (FCR bit 0), and in 16450 mode (the state at reset) RBR may
 * hold a byte already: QEMU hands piped input to the UART while the BIOS
 * runs. Reading that byte first does not save the next: QEMU puts it in
 * RBR as soon as RBR is read, before the FCR write can follow (`make run
 * < script` lost its second byte in 7 boots out of 10 that way). So the
 * FIFOs go on only when that loses nothing: if the loader left them on
 * (GRUB does; an FCR write without its reset bits 1-2 keeps what they
 * hold), or if no byte has come yet (one arriving between the LSR read
 * and the FCR write would still be lost: a keystroke in a window of two
 * instructions). If one waits, the UART stays in 16450 mode, where QEMU
 * holds the next bytes back until RBR is read: one interrupt per byte,
 * and nothing is lost. */
void uart_init(void)
{
	outb(UART_IER, 0);
	outb(UART_LCR, LCR_DLAB);
	outb(UART_DATA, 1);           /* divisor 1: 115200 baud */
	outb(UART_IER, 0);
	outb(UART_LCR, LCR_8N1);
	if ((inb(UART_IIR) & IIR_FIFOS_ON) == IIR_FIFOS_ON || !(inb(UART_LSR) & LSR_DR))
		outb(UART_FCR, FCR_ENABLE);
	outb(UART_MCR, MCR_DTR_RTS_OUT2);
}

void uart_putc(char c)
{
	while (!(inb(UART_LSR) & LSR_THRE))
		pause();
	outb(UART_DATA, (uint8_t)c);
}

int uart_getc(void)
{
	return (inb(UART_LSR) & LSR_DR) ? inb(UART_DATA) : -1;
}

/* Receive flow control (console.c calls these under its rx lock).
 *
 * Clearing IER bit 0 (ERBFI) masks the received-data and character-timeout
 * interrupts; the data sheet's "FIFO polled mode": the receiver and its
 * 16-byte FIFO (RBR alone in 16450 mode) keep working and LSR bit 0 (DR)
 * still says a byte waits, but INTR stays low, so nothing reads RBR and
 * the bytes stay in the UART. Setting ERBFI again while a byte waits
 * raises INTR at once (one byte is the trigger level we set, and INTR is
 * the OR of the enabled pending interrupts), the rising edge that the
 * edge-triggered ISA IRQ 4 needs: the interrupt handler then drains what
 * waited.
 *
 * A full FIFO cannot stop the far end by itself: the next byte to finish
 * overwrites the receiver shift register and sets LSR bit 1 (OE), lost.
 * QEMU never overruns: its 16550 takes no byte from the chardev (and so
 * from its stdin) while the receive FIFO is full, or in 16450 mode while
 * RBR holds one. A real line needs the sender to pause, so the RTS output
 * (MCR bit 1) drops while we are stopped, for peers that honour RTS/CTS
 * handshaking; OUT2 (MCR bit 3) stays set: it gates the IRQ line on PCs. */
void uart_enable_rx_irq(void)
{
	outb(UART_MCR, MCR_DTR_RTS_OUT2);
	outb(UART_IER, IER_RX);
}

void uart_disable_rx_irq(void)
{
	outb(UART_IER, 0);
	outb(UART_MCR, MCR_DTR_OUT2);
}

/* Bochs models the line speed: without this the last bytes before a
 * power-off are lost (docs/bochs.md). */
void uart_drain(void)
{
	for (int i = 0; i < 1000000 && !(inb(UART_LSR) & LSR_TEMT); i++)
		pause();
}
