/* kernel/console.c - the console device (see console.h). */
#include "kernel/console.h"
#include "arch/i386/uart.h"
#include "arch/i386/vga.h"
#include "arch/i386/traps.h"
#include "arch/i386/spinlock.h"
#include "arch/i386/x86.h"

/* Received bytes, filled by the COM1 interrupt and drained by readers.
 * head and tail only grow; their difference is the fill level. */
#define RXBUF_SIZE 256
static struct {
	char buf[RXBUF_SIZE];
	volatile uint32_t head, tail;     /* head: next write, tail: next read */
	unsigned long dropped;            /* bytes lost to a full buffer */
} rx;

/* Called by the COM1 interrupt after it has buffered new bytes (tty.c's
 * line discipline installs it when a process first reads the console). */
static void (*volatile rx_hook)(void);

static struct spinlock output_lock = SPINLOCK_INIT("console output");
static uint32_t output_flags;

void console_init(void)
{
	int early = uart_init();

	if (early >= 0)
		rx.buf[rx.head++ % RXBUF_SIZE] = (char)early;
	vga_init();
}

static void com1_irq(struct trapframe *tf)
{
	int c;

	(void)tf;
	while ((c = uart_getc()) >= 0) {
		if (rx.head - rx.tail < RXBUF_SIZE)
			rx.buf[rx.head++ % RXBUF_SIZE] = (char)c;
		else
			rx.dropped++;
	}
	if (rx_hook)
		rx_hook();
}

void console_set_rx_hook(void (*hook)(void))
{
	rx_hook = hook;
}

void console_enable_input(void)
{
	irq_register(IRQ_COM1, com1_irq);
	uart_enable_rx_irq();
}

void console_putc(char c)
{
	if (c == '\n')
		uart_putc('\r');
	uart_putc(c);
	vga_putc(c);
}

void console_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		console_putc(s[i]);
}

int console_trygetc(void)
{
	uint32_t flags = read_eflags();
	int c = -1;

	cli();
	if (rx.tail != rx.head)
		c = (unsigned char)rx.buf[rx.tail++ % RXBUF_SIZE];
	if (flags & EFLAGS_IF)
		sti();
	return c;
}

/* Sleeps with hlt until the COM1 interrupt brings a byte. sti_hlt makes
 * the check-then-sleep atomic: an interrupt between the empty check and
 * the hlt would otherwise be missed and we would sleep with a byte
 * waiting (the lost-wakeup race, here against an interrupt). */
int console_getc(void)
{
	for (;;) {
		cli();
		if (rx.tail != rx.head) {
			int c = (unsigned char)rx.buf[rx.tail++ % RXBUF_SIZE];
			sti();
			return c;
		}
		sti_hlt();
	}
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
