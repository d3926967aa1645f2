/* arch/i386/pit.c - the 8254 PIT (Intel 82C54 data sheet).
 *
 * Channel 0 drives IRQ 0 periodically (mode 2, rate generator). Channel 2
 * is gated by bit 0 of port 0x61 and its output is readable in bit 5 of the
 * same port, which makes a one-shot delay without interrupts (mode 0,
 * "interrupt on terminal count": OUT rises when the count reaches 0). */
#include "arch/i386/pit.h"
#include "arch/i386/x86.h"

#define PIT_CH0     0x40
#define PIT_CH2     0x42
#define PIT_CMD     0x43
#define PORT_B      0x61
#define PORTB_GATE2 0x01
#define PORTB_SPKR  0x02
#define PORTB_OUT2  0x20

#define CMD_CH0_LOHI_MODE2 0x34   /* channel 0, lobyte/hibyte, rate generator */
#define CMD_CH2_LOHI_MODE0 0xB0   /* channel 2, lobyte/hibyte, terminal count */
#define POLL_SPINS 64

void pit_start_periodic(unsigned hz)
{
	unsigned divisor = PIT_HZ / hz;

	outb(PIT_CMD, CMD_CH0_LOHI_MODE2);
	outb(PIT_CH0, divisor & 0xff);
	outb(PIT_CH0, (divisor >> 8) & 0xff);
}

void pit_wait_us(unsigned us)
{
	uint32_t count = (uint32_t)((uint64_t)PIT_HZ * us / 1000000);
	uint8_t b;

	if (count > 0xffff)
		count = 0xffff;
	b = inb(PORT_B);
	outb(PORT_B, (uint8_t)((b & ~PORTB_SPKR) & ~PORTB_GATE2));  /* gate low */
	outb(PIT_CMD, CMD_CH2_LOHI_MODE0);
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, (count >> 8) & 0xff);
	outb(PORT_B, (uint8_t)((b & ~PORTB_SPKR) | PORTB_GATE2));   /* start */
	/* Port 0x61 is read once every POLL_SPINS rounds of an empty loop,
	 * without PAUSE: under QEMU's TCG each PAUSE and each port read
	 * leaves the translated code for the emulator's loop (QEMU's
	 * helper_pause: "let another CPU run"), so that under instruction
	 * counting (make bench, make race), where a wait is counted in
	 * instructions, a 5 ms wait of PAUSEs took a second of the host's
	 * time. The wait overshoots by one round at most: well under a
	 * microsecond. */
	while (!(inb(PORT_B) & PORTB_OUT2))
		for (volatile int i = 0; i < POLL_SPINS; i++)
			;
	outb(PORT_B, b);
}
