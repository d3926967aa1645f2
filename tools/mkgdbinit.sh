#!/bin/sh
# tools/mkgdbinit.sh PORT > .gdbinit
#
# GDB commands for `make gdb`: the kernel's symbols, the QEMU stub on PORT,
# and a few helpers for reading the per-CPU GDT (docs/debugging.md).
set -eu
cat <<GDB
set architecture i386
set confirm off
file build/kernel.elf
target remote 127.0.0.1:$1
# gdt [CPU]: the 24 descriptors of a CPU's GDT, as 8-byte words
define gdt
  if \$argc == 0
    x/24gx &cpus[0].gdt
  else
    x/24gx &cpus[\$arg0].gdt
  end
end
document gdt
Print a CPU's 24-entry GDT (tls-2.5.31-D9 layout): gdt [CPU]
end
echo Spindle: symbols loaded; try 'break kmain', 'continue', then 'gdt'.\n
GDB
