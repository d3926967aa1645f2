#!/bin/sh
# tools/fuzz.sh KERNEL INITRD CPUS PROGRAM ARGS... - `make fuzz` and
# `make stress` and `make exhaust` (docs/fuzzing.md).
#
# Boots KERNEL with /bin/PROGRAM as init (init=/bin/PROGRAM -- ARGS; or
# PROGRAM itself, given as an absolute path) in
# QEMU at -smp CPUS, with the serial console on this terminal and copied
# to B/PROGRAM.log (B: the directory of KERNEL). The program is pid 1: it
# runs the fuzz session or the stress run, checks the kernel's books and
# exits 0 if all was well. Exit status 0 only then; 1 if the program
# failed, the kernel panicked, or QEMU ended otherwise (the last lines of
# the log say where the run stopped: the fuzzer prints the seed, the calls
# made and each worker's generation and call).
set -eu
kernel=$1 initrd=$2 cpus=$3 prog=$4
shift 4
# PROGRAM is a command in /bin, or an absolute path (/tests/t_exhaust).
case $prog in
/*) path=$prog prog=$(basename "$prog") ;;
*) path=/bin/$prog ;;
esac
log=$(dirname "$kernel")/$prog.log
echo "*** $prog at -smp $cpus: $*; the log is $log ***"
set +e
qemu-system-i386 -m 128 -smp "$cpus" -display none -no-reboot \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
	-kernel "$kernel" -initrd "$initrd" -append "init=$path -- $*" \
	-serial stdio < /dev/null | tee "$log"
set -e
# The console ends its lines with \r\n.
if tr -d '\r' < "$log" | grep -aq '^PANIC'; then
	echo "$prog: the kernel panicked (see $log)" >&2
	exit 1
fi
if ! tr -d '\r' < "$log" | grep -aq '^init exited with status 0$'; then
	echo "$prog: failed (see $log)" >&2
	exit 1
fi
echo "$prog: clean"
