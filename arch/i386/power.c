/* arch/i386/power.c - power-off, in the order abi.md section 1 gives,
 * using only the devices this machine has. */
#include "arch/i386/power.h"
#include "arch/i386/smp.h"
#include "arch/i386/uart.h"
#include "arch/i386/vga.h"
#include "arch/i386/x86.h"

#define QEMU_DEBUG_EXIT_PORT 0xf4     /* -device isa-debug-exit,iobase=0xf4 */
#define BOCHS_SHUTDOWN_PORT  0x8900

/* QEMU's firmware configuration interface, I/O port form (QEMU's
 * docs/specs/fw_cfg.rst): a 16-bit key to the selector, then the item's
 * bytes one by one from the data port. */
#define FW_CFG_PORT_SEL   0x510
#define FW_CFG_PORT_DATA  0x511
#define FW_CFG_SIGNATURE  0x0000      /* "QEMU" */
#define FW_CFG_ID         0x0001      /* feature bits, little-endian */
#define FW_CFG_ID_TRADITIONAL 0x1     /* "always set" by QEMU itself */

static uint32_t fw_cfg_read32(uint16_t key)
{
	uint32_t v = 0;

	outw(FW_CFG_PORT_SEL, key);
	for (int i = 0; i < 4; i++)
		v |= (uint32_t)inb(FW_CFG_PORT_DATA) << (8 * i);
	return v;
}

/* isa-debug-exit is a QEMU device, so it is written only on QEMU, known
 * by its fw_cfg: the signature "QEMU" and, in FW_CFG_ID, the bit every
 * QEMU sets for this very I/O port interface. That bit is the test that
 * matters: v86 answers the signature too (SeaBIOS asks for it) but 0 for
 * FW_CFG_ID, and in v86's Multiboot mode port 0xf4 is its own test-exit
 * port, whose write raises a JavaScript exception ("HALT") that stops the
 * emulator in the middle of the page. Elsewhere the ports read 0xff. */
static bool on_qemu(void)
{
	return fw_cfg_read32(FW_CFG_SIGNATURE) == 0x554d4551 &&  /* "QEMU" */
	       (fw_cfg_read32(FW_CFG_ID) & FW_CFG_ID_TRADITIONAL);
}

/* Straight to the devices: interrupts are off, and the console's lock
 * may be held by a CPU that panicked. */
static void say(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			uart_putc('\r');       /* as console.c: a terminal's CR LF */
		uart_putc(*s);
		vga_putc(*s);
	}
	uart_drain();
}

void power_off(int status)
{
	static const char bochs_shutdown[] = "Shutdown";

	cli();
	uart_drain();
	if (on_qemu())
		outb(QEMU_DEBUG_EXIT_PORT, (uint8_t)(status & 0x7f));
	/* Bochs' own port; every other PC ignores a write to it. */
	for (const char *p = bochs_shutdown; *p; p++)
		outb(BOCHS_SHUTDOWN_PORT, (uint8_t)*p);
	/* Still here: QEMU without isa-debug-exit, or a machine with neither
	 * device (v86). Every CPU halts (abi.md section 1): the others first
	 * (a panic has stopped them already), then this one says so once, as
	 * the last line, and stops quietly. */
	if (!smp_stopping())
		smp_stop_others();
	say("spindle: no power-off device: the machine is halted\n");
	for (;;)
		hlt();
}
