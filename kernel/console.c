/* kernel/console.c - the console device (see console.h). */
#include "kernel/console.h"
#include "kernel/panic.h"
#include "arch/i386/uart.h"
#include "arch/i386/vga.h"
#include "arch/i386/traps.h"
#include "arch/i386/spinlock.h"
#include "arch/i386/irqflags.h"

/* Received bytes, filled by the COM1 interrupt and drained by readers.
 * head and tail only grow; their difference is the fill level.
 *
 * Nothing is ever dropped: when the ring is full the interrupt stops
 * reading the UART and masks its received-data interrupt (uart.h), so the
 * next bytes wait in the UART's FIFO and, under QEMU, in its chardev.
 * Whoever takes a byte out and finds the ring at most half full again
 * turns the interrupt back on; the interrupt then drains what waited. The
 * half is hysteresis, so that a slow reader does not cost an interrupt and
 * two register writes per byte. With tty.c's discipline on top, which
 * stops taking bytes while its own buffer is full, this is the whole of
 * the console's input flow control: bytes typed or pasted ahead of the
 * reader stay on the line until there is room.
 *
 * The lock covers the ring, `stopped` and the UART's receive side (RBR,
 * IER): the interrupt comes to CPU 0 while readers run on any CPU, and a
 * reader turning the interrupt on must not cross the handler turning it
 * off (left off with the ring empty, input would stop for good). It is
 * taken with interrupts off, and nothing else is taken under it: tty.c
 * holds its own lock around console_trygetc (tty.lock, then this one),
 * and the handler drops this one before it calls the hook. */
#define RXBUF_SIZE 256
#define RX_RESUME  (RXBUF_SIZE / 2)
static struct {
	struct spinlock lock;
	char buf[RXBUF_SIZE];
	uint32_t head, tail;              /* head: next write, tail: next read */
	bool stopped;                     /* full: the UART's rx IRQ is off */
} rx = { .lock = SPINLOCK_INIT("console rx") };

/* Called by the COM1 interrupt after it has buffered new bytes (tty.c's
 * line discipline installs it when a process first reads the console). */
static void (*volatile rx_hook)(void);

static struct spinlock output_lock = SPINLOCK_INIT("console output");
static uint32_t output_flags;

void console_init(void)
{
	uart_init();                /* bytes typed ahead wait in the UART */
	vga_init();
}

static void com1_irq(struct trapframe *tf)
{
	uint32_t flags = spin_lock_irqsave(&rx.lock);
	int c;

	(void)tf;
	while (rx.head - rx.tail < RXBUF_SIZE && (c = uart_getc()) >= 0)
		rx.buf[rx.head++ % RXBUF_SIZE] = (char)c;
	if (rx.head - rx.tail == RXBUF_SIZE && !rx.stopped) {
		rx.stopped = true;        /* leave the rest in the UART */
		uart_disable_rx_irq();
	}
	spin_unlock_irqrestore(&rx.lock, flags);
	if (rx_hook)
		rx_hook();
}

/* Takes the oldest byte, or -1; rx.lock held. */
static int rx_take(void)
{
	int c;

	ASSERT(spin_held(&rx.lock));
	if (rx.tail == rx.head)
		return -1;
	c = (unsigned char)rx.buf[rx.tail++ % RXBUF_SIZE];
	if (rx.stopped && rx.head - rx.tail <= RX_RESUME) {
		rx.stopped = false;
		uart_enable_rx_irq();     /* the interrupt drains what waits */
	}
	return c;
}

void console_set_rx_hook(void (*hook)(void))
{
	rx_hook = hook;
}

void console_enable_input(void)
{
	uint32_t flags;

	irq_register(IRQ_COM1, com1_irq);
	flags = spin_lock_irqsave(&rx.lock);
	uart_enable_rx_irq();
	spin_unlock_irqrestore(&rx.lock, flags);
}

void console_putc(char c)
{
	if (c == '\n')
		uart_putc('\r');
	uart_putc(c);
	vga_putc(c);
}

/* Without OPOST/ONLCR (a raw tty): the bytes as they are. */
void console_write_raw(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uart_putc(s[i]);
		vga_putc(s[i]);
	}
}

void console_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		console_putc(s[i]);
}

int console_trygetc(void)
{
	uint32_t flags = spin_lock_irqsave(&rx.lock);
	int c = rx_take();

	spin_unlock_irqrestore(&rx.lock, flags);
	return c;
}

void console_flush(void)
{
	uart_drain();
}

/* Once a CPU panics, output goes out unlocked: the panicking CPU may hold
 * the lock already (a fault inside kprintf), and nothing else matters. */
static volatile bool console_panicking;

void console_panic_mode(void)
{
	console_panicking = true;
}

void console_lock(void)
{
	if (console_panicking)
		return;
	uint32_t flags = spin_lock_irqsave(&output_lock);
	output_flags = flags;
}

void console_unlock(void)
{
	if (console_panicking)
		return;
	spin_unlock_irqrestore(&output_lock, output_flags);
}
