/* arch/i386/vga.c - a mirror of the console on the VGA text screen.
 *
 * Text mode memory is 80x25 16-bit cells (character | attribute << 8) at
 * physical 0xB8000, reached through the kernel's mapping at KERNBASE. The
 * hardware cursor is moved through the CRT controller (ports 0x3D4/0x3D5,
 * registers 0x0E/0x0F). */
#include "arch/i386/vga.h"
#include "arch/i386/mmu.h"
#include "arch/i386/x86.h"
#include "lib/string.h"

#define VGA_COLS 80
#define VGA_ROWS 25
#define VGA_ATTR 0x0700        /* light grey on black */

static uint16_t *const screen = (uint16_t *)P2V(0xB8000);
static int row, col;

static void move_cursor(void)
{
	uint16_t pos = (uint16_t)(row * VGA_COLS + col);
	outb(0x3D4, 0x0E);
	outb(0x3D5, pos >> 8);
	outb(0x3D4, 0x0F);
	outb(0x3D5, pos & 0xff);
}

static void scroll(void)
{
	memmove(screen, screen + VGA_COLS, (VGA_ROWS - 1) * VGA_COLS * 2);
	for (int i = 0; i < VGA_COLS; i++)
		screen[(VGA_ROWS - 1) * VGA_COLS + i] = VGA_ATTR | ' ';
	row = VGA_ROWS - 1;
}

void vga_init(void)
{
	for (int i = 0; i < VGA_ROWS * VGA_COLS; i++)
		screen[i] = VGA_ATTR | ' ';
	row = col = 0;
	move_cursor();
}

void vga_putc(char c)
{
	switch (c) {
	case '\n':
		col = 0;
		row++;
		break;
	case '\r':
		col = 0;
		break;
	case '\b':
		if (col > 0)
			screen[row * VGA_COLS + --col] = VGA_ATTR | ' ';
		break;
	case '\t':
		col = (col + 8) & ~7;
		break;
	default:
		screen[row * VGA_COLS + col++] = VGA_ATTR | (uint8_t)c;
	}
	if (col >= VGA_COLS) {
		col = 0;
		row++;
	}
	if (row >= VGA_ROWS)
		scroll();
	move_cursor();
}
