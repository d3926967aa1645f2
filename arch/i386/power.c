/* arch/i386/power.c - power-off, in the order abi.md section 1 gives. */
#include "arch/i386/power.h"
#include "arch/i386/uart.h"
#include "arch/i386/x86.h"

#define QEMU_DEBUG_EXIT_PORT 0xf4     /* -device isa-debug-exit,iobase=0xf4 */
#define BOCHS_SHUTDOWN_PORT  0x8900

void power_off(int status)
{
	static const char bochs_shutdown[] = "Shutdown";

	cli();
	uart_drain();
	outb(QEMU_DEBUG_EXIT_PORT, (uint8_t)(status & 0x7f));
	for (const char *p = bochs_shutdown; *p; p++)
		outb(BOCHS_SHUTDOWN_PORT, (uint8_t)*p);
	for (;;)
		hlt();
}
