/* arch/i386/vga.h - the VGA text screen (80x25 at physical 0xB8000). */
#ifndef ARCH_I386_VGA_H
#define ARCH_I386_VGA_H

void vga_init(void);
void vga_putc(char c);

#endif
