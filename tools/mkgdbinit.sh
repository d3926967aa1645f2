#!/bin/sh
# tools/mkgdbinit.sh PORT KERNEL > .gdbinit
#
# GDB commands for `make gdb`: the debug kernel's symbols (KERNEL, built
# at -Og in build/debug), the QEMU stub on PORT, and Spindle's own
# commands (tools/gdb/spindle.py; `help spindle` lists them;
# docs/debugging.md shows them in use).
set -eu
port=$1 kernel=${2:-build/debug/kernel.elf}
cat <<GDB
set architecture i386
set confirm off
set pagination off
set width 0
file $kernel
source tools/gdb/spindle.py
# The kernel's current is a macro calling an inline function, which GDB
# cannot call: here it is the Python function \$current() instead.
macro define current \$current()
# gdt [CPU]: the 24 descriptors of a CPU's GDT as raw 8-byte words
# (spindle gdt decodes them).
define gdt
  if \$argc == 0
    x/24gx &cpus[0].gdt
  else
    x/24gx &cpus[\$arg0].gdt
  end
end
document gdt
Print a CPU's 24-entry GDT as raw words: gdt [CPU] (spindle gdt decodes it)
end
target remote 127.0.0.1:$port
echo Spindle: symbols loaded. Try 'spindle break-switch --tls-differs', 'continue' (help spindle).\n
GDB
