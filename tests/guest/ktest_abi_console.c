/* tests/guest/ktest_abi_console.c - group abi: abi.md section 1's console
 * promises that only the kernel can see: "Console: COM1 (0x3F8, 115200
 * 8N1) ... The kernel mirrors its own messages to the VGA text screen."
 *
 * The UART's line settings are read back from the 16550 itself (PC16550D
 * data sheet: LCR at base+3, the divisor latch at base+0/+1 while LCR's
 * DLAB bit is set; 115200 baud is divisor 1 of 1.8432 MHz / 16). While
 * DLAB is set a byte written to base+0 would set the divisor instead of
 * going out, so the console lock (which kprintf takes, interrupts off)
 * is held for the few port accesses. The VGA check prints a line with
 * kprintf and looks for it in the text screen at physical 0xB8000. */
#include "tests/guest/ktest.h"
#include "kernel/console.h"
#include "kernel/printf.h"
#include "arch/i386/mmu.h"
#include "arch/i386/x86.h"
#include "lib/string.h"

#define COM1 0x3F8

KTEST(abi, com1_is_115200_8n1)
{
	uint8_t lcr, dll, dlm;

	console_lock();
	lcr = inb(COM1 + 3);
	outb(COM1 + 3, lcr | 0x80);             /* DLAB */
	dll = inb(COM1 + 0);
	dlm = inb(COM1 + 1);
	outb(COM1 + 3, lcr);
	console_unlock();
	/* word length 8 (bits 0-1 = 11), 1 stop bit (bit 2 = 0), no parity
	 * (bit 3 = 0), no break, DLAB clear */
	KCHECK_EQ(lcr, 0x03);
	KCHECK_EQ(dll | dlm << 8, 1);
}

/* Is s on one row of the text screen? */
static bool on_vga(const char *s)
{
	const volatile uint16_t *screen = P2V(0xB8000);
	size_t n = strlen(s);

	for (int row = 0; row < 25; row++)
		for (size_t col = 0; col + n <= 80; col++) {
			size_t i = 0;
			while (i < n && (char)(screen[row * 80 + col + i] & 0xff) == s[i])
				i++;
			if (i == n)
				return true;
		}
	return false;
}

KTEST(abi, kernel_messages_mirrored_on_vga)
{
	static const char marker[] = "abi: this line is on the VGA screen too (5p1nd1e)";

	KCHECK(!on_vga(marker));
	kprintf("%s\n", marker);
	KCHECK(on_vga(marker));
}
